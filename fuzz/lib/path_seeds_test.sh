#!/bin/bash
# fuzz/lib/path_seeds_test.sh BIN CORPUS — the path-* seeds of kv03_roundtrip
# reach the path writer they are named after.
#
# The path writer runs for one input in 16, chosen by a hash of the whole
# input (fuzz/common/data_producer.h, rsv_fuzz_one_in), so a seed reaches it
# only if its bytes hash right; nothing else shows that it does. Until
# 2026-12-05 the path-* seeds were meant to reach it through a flag nibble
# they did not have, and no test noticed. This test runs every
# CORPUS/path-* file through the replay binary BIN with RSV_FUZZ_TRACE=1 and
# requires, for each, exit status 0 and the trace lines "path writer on" and
# "path writer compared" (the step ran to its comparisons, not to an early
# return such as "no usable temporary directory"); and
# over all of them both open variants (open_path, open_path_copy) and a
# flush bound of 1 byte (the sink's smallest). Prints "N passed, N failed".
set -uo pipefail
bin=$1 corpus=$2
passed=0 failed=0 n=0 plain=0 copy=0 one=0
for f in "$corpus"/path-*; do
    [[ -f $f ]] || continue
    n=$((n + 1))
    rc=0
    out=$(RSV_FUZZ_TRACE=1 "$bin" "$f" 2>&1) || rc=$?
    line=$(grep -m1 'kv03_roundtrip: path writer on' <<<"$out")
    if [[ $rc == 0 && -n $line ]] && grep -q 'kv03_roundtrip: path writer compared: ' <<<"$out"; then
        passed=$((passed + 1))
        [[ $line == *"open_path_copy"* ]] && copy=$((copy + 1)) || plain=$((plain + 1))
        [[ $line == *"flush bound 1 bytes"* ]] && one=$((one + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $(basename "$f"): exit $rc, $(grep -m1 'path writer' <<<"$out" || echo 'no path-writer trace line')" >&2
    fi
done
if (( n == 0 )); then echo "FAIL: no path-* seeds in $corpus" >&2; failed=$((failed + 1)); fi
if (( plain == 0 || copy == 0 )); then
    echo "FAIL: the seeds open their file with open_path $plain times and open_path_copy $copy times (each must occur)" >&2
    failed=$((failed + 1))
fi
if (( one == 0 )); then echo "FAIL: no seed has a flush bound of 1 byte" >&2; failed=$((failed + 1)); fi
echo "$passed passed, $failed failed ($n path-* seeds: $plain open_path, $copy open_path_copy, $one with a 1-byte flush bound)"
(( failed == 0 ))
