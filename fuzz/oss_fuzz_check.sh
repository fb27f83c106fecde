#!/bin/bash
# fuzz/oss_fuzz_check.sh — the ctest test fuzz_oss_fuzz_build: runs
# .clusterfuzzlite/build.sh (-> fuzz/oss_fuzz_build.sh) the way the OSS-Fuzz
# builder's `compile` does, without Docker: a clean environment holding only
# the OSS-Fuzz variables (libFuzzer + ASan flags as OSS-Fuzz sets them),
# $SRC/reservoir a symlink to this checkout, temporary $OUT and $WORK. Then,
# for every target fuzz/fuzz knows (the fuzz/*.c files defining
# LLVMFuzzerTestOneInput: an independent source of the list), it checks
# $OUT/T, T_seed_corpus.zip, T.dict and T.options exist and that
# `$OUT/T -runs=100` over the unzipped seeds passes with the options applied.
#
# Environment: CC (default clang), CXX (default clang++),
# RSV_OSS_FUZZ_CHECK_DIR (scratch directory; default a mktemp dir, removed).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CC=${CC:-clang}
CXX=${CXX:-${CC%clang}clang++}
command -v "$CC" >/dev/null && command -v "$CXX" >/dev/null || { echo "oss_fuzz_check: SKIP: no $CC/$CXX"; exit 77; }

if [[ -n ${RSV_OSS_FUZZ_CHECK_DIR:-} ]]; then
    tmp=$RSV_OSS_FUZZ_CHECK_DIR; rm -rf "$tmp"; mkdir -p "$tmp"
else
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fi
mkdir -p "$tmp/src" "$tmp/out" "$tmp/work"
ln -s "$ROOT" "$tmp/src/reservoir"

# The flags OSS-Fuzz's base-builder exports for FUZZING_ENGINE=libfuzzer
# SANITIZER=address (SANITIZER_FLAGS_address + COVERAGE_FLAGS).
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
start=$(date +%s)
echo "+ (cd \$SRC/reservoir && bash .clusterfuzzlite/build.sh) with CC=$CC CFLAGS='$flags' LIB_FUZZING_ENGINE=-fsanitize=fuzzer"
(cd "$tmp/src/reservoir" && env -i PATH="$PATH" HOME="${HOME:-/tmp}" \
    CC="$CC" CXX="$CXX" CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
    SRC="$tmp/src" OUT="$tmp/out" WORK="$tmp/work" SANITIZER=address FUZZING_ENGINE=libfuzzer \
    ARCHITECTURE=x86_64 FUZZING_LANGUAGE=c \
    bash -eu .clusterfuzzlite/build.sh) >"$tmp/build.log" 2>&1 \
    || { tail -40 "$tmp/build.log"; echo "oss_fuzz_check: FAIL: the build script failed"; exit 1; }
echo "oss_fuzz_check: build script done in $(( $(date +%s) - start )) s"

# fuzz/oss-fuzz/build.sh must run the same script.
grep -q 'fuzz/oss_fuzz_build.sh' "$ROOT/fuzz/oss-fuzz/build.sh" \
    || { echo "oss_fuzz_check: FAIL: fuzz/oss-fuzz/build.sh does not call fuzz/oss_fuzz_build.sh"; exit 1; }

mapfile -t expected < <(grep -l 'LLVMFuzzerTestOneInput *(const' "$ROOT"/fuzz/*.c | xargs -n1 basename | sed 's/\.c$//' | sort)
[[ ${#expected[@]} -gt 0 ]] || { echo "oss_fuzz_check: FAIL: no targets found"; exit 1; }
fail=0
for t in "${expected[@]}"; do
    for f in "$t" "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
        [[ -s $tmp/out/$f ]] || { echo "oss_fuzz_check: FAIL: \$OUT/$f missing or empty"; fail=1; }
    done
    [[ -x $tmp/out/$t ]] || { echo "oss_fuzz_check: FAIL: \$OUT/$t is not executable"; fail=1; continue; }
    seeds="$tmp/seeds/$t"; mkdir -p "$seeds"
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
        "$tmp/out/${t}_seed_corpus.zip" "$seeds"
    nseeds=$(find "$seeds" -type f | wc -l)
    ncorpus=$(find "$ROOT/corpus/$t" -type f ! -name '.*' 2>/dev/null | wc -l)
    (( nseeds == ncorpus )) || { echo "oss_fuzz_check: FAIL: $t: $nseeds seeds in the zip, $ncorpus in corpus/$t/"; fail=1; }
    # The .options keys as libFuzzer flags (what ClusterFuzz passes).
    opts=()
    while IFS= read -r line; do
        [[ $line =~ ^([a-z_]+)\ *=\ *(.*)$ ]] && opts+=("-${BASH_REMATCH[1]}=${BASH_REMATCH[2]}")
    done <"$tmp/out/$t.options"
    cmd=("$tmp/out/$t" -runs=100 "${opts[@]}" "-dict=$tmp/out/$t.dict" "-artifact_prefix=$tmp/work/$t-" "$seeds")
    if "${cmd[@]}" >"$tmp/run-$t.log" 2>&1; then
        echo "oss_fuzz_check: $t: ok ($nseeds seeds, ${opts[*]}, $(grep -o 'Done [0-9]* runs' "$tmp/run-$t.log" | tail -1))"
    else
        tail -20 "$tmp/run-$t.log"
        echo "oss_fuzz_check: FAIL: $t: ${cmd[*]}"
        fail=1
    fi
done
extra=$(comm -13 <(printf '%s\n' "${expected[@]}") <(find "$tmp/out" -maxdepth 1 -type f -perm -u+x -printf '%f\n' | sort))
[[ -z $extra ]] || { echo "oss_fuzz_check: FAIL: unexpected executables in \$OUT: $extra"; fail=1; }
(( fail == 0 )) || exit 1
echo "oss_fuzz_check: PASS: ${#expected[@]} targets (${expected[*]}) in $(( $(date +%s) - start )) s"
