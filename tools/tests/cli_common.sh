# The frame every rsv command-line test script shares (sourced, not run, by
# cli_test.sh and, through cli_kv03_lib.sh, by cli_kv03_test.sh,
# cli_kv03_v2_test.sh and cli_files_test.sh): the arguments RSV GROUP, a
# private TMP removed on exit, the check and failure counters, the runner,
# the expectations every script uses, and the group dispatch.
set -u
set -f # spec notation and test data must never glob

RSV=$1
GROUP=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
checks=0
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run ARGS... : runs rsv, leaving $TMP/out, $TMP/err and $rc
run() {
  "$RSV" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  rc=$?
  checks=$((checks + 1))
}

# run_in FILE ARGS... : like run with standard input from FILE
run_in() {
  local in=$1
  shift
  "$RSV" "$@" >"$TMP/out" 2>"$TMP/err" <"$in"
  rc=$?
  checks=$((checks + 1))
}

# expect_out TEXT DESC : stdout must be exactly TEXT (TEXT includes newlines)
expect_out() {
  printf '%s' "$1" >"$TMP/exp"
  if ! cmp -s "$TMP/exp" "$TMP/out"; then
    fail "$2: stdout '$(head -c 400 "$TMP/out")' expected '$(head -c 400 "$TMP/exp")'"
  fi
}

expect_rc() {
  [[ $rc -eq $1 ]] || fail "$2: exit $rc, expected $1 (stderr: $(head -c 300 "$TMP/err"))"
}

same_file() {
  cmp -s "$1" "$2" || fail "$3: $1 differs from $2"
}

# run_groups NAME... : run group_$GROUP when GROUP is one of the NAMEs (else
# exit 2), print the tally and exit 0 only when the group ran at least one
# check and none failed.
run_groups() {
  local g
  for g in "$@"; do
    if [[ $g == "$GROUP" ]]; then
      "group_$GROUP"
      echo "$GROUP: $checks runs, $failures failures"
      [[ $checks -gt 0 && $failures -eq 0 ]]
      exit
    fi
  done
  echo "unknown group '$GROUP'" >&2
  exit 2
}
