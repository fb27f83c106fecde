#!/bin/bash
# fuzz/lib/nightly_budget_test.sh — the nightly's time-budget rule
# (fuzz/lib/nightly.sh): a part that does not finish within its budget is a
# failure unless the budget was explicitly reduced. Runs real commands under
# `timeout`, exactly as the nightly runs rsv_diffcheck, and checks the status
# and return code that the nightly records. Prints "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "nightly_budget_test: $*" >&2; exit 2; }
# shellcheck source=nightly.sh
source "$here/nightly.sh"

passed=0 failed=0
check() { # NAME WANT_STATUS_PREFIX WANT_RC GOT_STATUS GOT_RC
    if [[ $4 == "$2"* && $5 == "$3" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAIL $1: got status '$4' rc $5, want '$2...' rc $3" >&2
    fi
}
run() { # NAME CAP REDUCED WANT_STATUS WANT_RC CMD...
    local name=$1 cap=$2 reduced=$3 want=$4 wrc=$5 code=0 st rc=0; shift 5
    timeout "$cap" "$@" >/dev/null 2>&1 || code=$?
    st=$(capped_status "$code" "$cap" "$reduced") || rc=1
    check "$name" "$want" "$wrc" "$st" "$rc"
}

run "finished in time"                 5 0 ok 0 true
run "finding"                          5 0 "FAIL (exit 1)" 1 false
run "timed out, default budget"        1 0 "FAIL (did not finish" 1 sleep 5
run "timed out, budget reduced"        1 1 "incomplete" 0 sleep 5
run "finding with a reduced budget"    5 1 "FAIL (exit 1)" 1 false

# The budget: max(budget, 10 min); RSV_NIGHTLY_DIFFCHECK_SECONDS below that
# is a reduction, above it is not.
b() { local got; got=$(RSV_NIGHTLY_DIFFCHECK_SECONDS=$2 diffcheck_budget "$1"); check "budget $1 min, override '$2'" "$3" 0 "$got" 0; }
got=$(unset RSV_NIGHTLY_DIFFCHECK_SECONDS; diffcheck_budget 5);  check "budget 5 min" "600 0" 0 "$got" 0
got=$(unset RSV_NIGHTLY_DIFFCHECK_SECONDS; diffcheck_budget 60); check "budget 60 min" "3600 0" 0 "$got" 0
b 60 60 "60 1"
b 60 7200 "7200 0"
b 5 600 "600 0"

# The KV03 exhaustive part: max(budget, 90 min), same reduction rule.
got=$(unset RSV_NIGHTLY_KV03X_SECONDS; kv03x_budget 5);   check "kv03x budget 5 min" "5400 0" 0 "$got" 0
got=$(unset RSV_NIGHTLY_KV03X_SECONDS; kv03x_budget 120); check "kv03x budget 120 min" "7200 0" 0 "$got" 0
got=$(RSV_NIGHTLY_KV03X_SECONDS=600 kv03x_budget 5);      check "kv03x budget reduced" "600 1" 0 "$got" 0

# The mutation part has no budget unless RSV_NIGHTLY_MUTATION_MINUTES sets
# one: not finishing (interrupted: exit 130, or a report that is not
# complete) is a finding of nightly_summary.py unless that reduction was made.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
m() { # NAME EXIT COMPLETE(true|false|-) REDUCED(1|"") WANT_RC
    local rep=""
    if [[ $3 != - ]]; then
        rep="$tmp/report.json"
        echo "{\"summary\": {\"complete\": $3, \"survivors\": [], \"evaluated\": 5, \"selected\": 9}}" >"$rep"
    fi
    printf 'mutation\t%s\t%s\t%s\t%s\n' "$2" "$rep" log "$4" >"$tmp/rec.tsv"
    local rc=0
    python3 "$here/nightly_summary.py" "$tmp/rec.tsv" "$tmp/s.md" "$tmp/s.json" || rc=$?
    check "mutation: $1" "$5" 0 "$rc" 0
}
m "complete"                    0 true  ""  0
m "interrupted, no reduction"   130 false "" 1
m "interrupted, reduced"        130 false 1 0
m "incomplete, no reduction"    0 false "" 1
m "incomplete, reduced"         0 false 1 0
m "failed run"                  2 -     1 1

# The big-endian gate (tests/bigendian/run --full) has no cap of its own: a
# failing run is a finding, a passing one is not.
be() { # NAME STATUS WANT_RC
    printf 'bigendian\t%s\t95\ttests/bigendian/run --full\tlog\n' "$2" >"$tmp/rec.tsv"
    local rc=0
    python3 "$here/nightly_summary.py" "$tmp/rec.tsv" "$tmp/s.md" "$tmp/s.json" || rc=$?
    check "bigendian: $1" "$3" 0 "$rc" 0
}
be "passed" ok 0
be "failed" "FAIL (exit 1)" 1
be "tools missing" "FAIL (exit 2)" 1

# tests/mutation/run --list-unexecuted: an unlisted mutant on a line no gate
# test executes (exit 1), or a listing that failed, is a finding.
ux() { # NAME EXIT WANT_RC
    printf 'unexecuted\t%s\tunexecuted.md\tlog\n' "$2" >"$tmp/rec.tsv"
    local rc=0
    python3 "$here/nightly_summary.py" "$tmp/rec.tsv" "$tmp/s.md" "$tmp/s.json" || rc=$?
    check "unexecuted: $1" "$3" 0 "$rc" 0
}
ux "none unlisted" 0 0
ux "unlisted mutants" 1 1
ux "listing failed" 2 1

echo "$passed passed, $failed failed"
(( failed == 0 && passed > 0 ))
