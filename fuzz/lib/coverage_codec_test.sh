#!/bin/bash
# fuzz/lib/coverage_codec_test.sh — the codec/ coverage gate
# (fuzz/lib/coverage_codec.py) on a hand-made llvm-cov export: which files it
# counts (codec/ only, exclusions apart, files in no binary listed), the
# totals it adds up, and its exit status at, above and below the thresholds.
# Prints "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/codec/src" "$tmp/codec/include/reservoir" "$tmp/fuzz"
touch "$tmp/codec/src/a.c" "$tmp/codec/src/file_io.c" "$tmp/codec/src/unlinked.c" \
    "$tmp/codec/include/reservoir/h.h" "$tmp/fuzz/t.c"
# a.c: lines 50/60, branches 30/40; h.h: lines 40/40, branches 10/10;
# file_io.c (excluded): 0/100, 0/50; fuzz/t.c (not codec/): 0/1000, 0/1000.
# Counted totals: lines 90/100, branches 40/50 = 90 % and 80 %.
f() { echo "{\"filename\":\"$tmp/$1\",\"summary\":{\"lines\":{\"covered\":$2,\"count\":$3},\"branches\":{\"covered\":$4,\"count\":$5}}}"; }
echo "{\"data\":[{\"files\":[$(f codec/src/a.c 50 60 30 40),$(f codec/include/reservoir/h.h 40 40 10 10),$(f codec/src/file_io.c 0 100 0 50),$(f fuzz/t.c 0 1000 0 1000)]}]}" >"$tmp/export.json"

passed=0 failed=0
check() { # NAME WANT_RC MIN_LINES MIN_BRANCHES GATE [GREP_PATTERN...]
    local name=$1 want=$2 ml=$3 mb=$4 gate=$5 rc=0 out; shift 5
    out=$(python3 "$here/coverage_codec.py" "$tmp/export.json" "$tmp" "$ml" "$mb" "file_io.c" "$gate" "$tmp/out.tsv") || rc=$?
    local ok=1 p
    [[ $rc == "$want" ]] || ok=0
    for p in "$@"; do grep -qF -- "$p" <<<"$out$(cat "$tmp/out.tsv")" || { ok=0; echo "  missing: $p" >&2; }; done
    if (( ok )); then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $name: rc $rc (want $want)"$'\n'"$out" >&2; fi
}
check "at both thresholds"   0 90 80 1 "lines    90/100" "branches    40/50" "TOTAL	90	100	40	50" \
    "excluded: codec/src/file_io.c" "in no fuzz binary (nothing to count): codec/src/unlinked.c" ": ok"
check "lines below"          1 90.5 80 1 "BELOW THE THRESHOLD"
check "branches below"       1 90 80.5 1 "BELOW THE THRESHOLD"
check "below, gate off"      0 99 99 0 "thresholds not applied"
check "per-file rows"        0 0 0 1 "codec/src/a.c" "codec/include/reservoir/h.h" "codec/src/a.c	50	60	30	40"
# fuzz/t.c must not be counted: with it the totals would be 90/1100.
if grep -q "fuzz/t.c" "$tmp/out.tsv"; then failed=$((failed + 1)); echo "FAIL fuzz/t.c counted" >&2; else passed=$((passed + 1)); fi

echo "$passed passed, $failed failed"
(( failed == 0 && passed > 0 ))
