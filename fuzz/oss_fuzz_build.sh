#!/bin/bash
# fuzz/oss_fuzz_build.sh — build every fuzz target for OSS-Fuzz / ClusterFuzzLite.
# Both .clusterfuzzlite/build.sh and fuzz/oss-fuzz/build.sh call this script.
#
# Uses only the OSS-Fuzz build environment: $CC $CXX $CFLAGS $CXXFLAGS
# $LIB_FUZZING_ENGINE $OUT $SRC $WORK (plus PATH). $LIB_FUZZING_ENGINE goes
# only to the fuzz-target links (CMake RSV_FUZZ_ENGINE=oss-fuzz, which links
# them with $CXX); the libraries get $CFLAGS alone. The target list is the one
# CMake builds (RSV_FUZZ_TARGETS, written to fuzz_targets.txt), so new targets
# are packaged without touching this file.
#
# For every target T it writes:
#   $OUT/T                  the fuzzer
#   $OUT/T_seed_corpus.zip  corpus/T/ (regressions/ too, flattened)
#   $OUT/T.dict             fuzz/T.dict, or an empty dictionary
#   $OUT/T.options          [libfuzzer] max_len, timeout, rss_limit_mb
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
for v in CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE OUT WORK; do
    [[ -n ${!v+x} ]] || { echo "oss_fuzz_build: \$$v is not set (run inside the OSS-Fuzz builder)" >&2; exit 2; }
done
: "${SRC:=$(dirname "$ROOT")}"

build="$WORK/reservoir-build"
generator="Unix Makefiles"
command -v ninja >/dev/null && generator=Ninja
jobs=$(nproc 2>/dev/null || echo 2)

# An empty CMAKE_BUILD_TYPE: the optimization and debug flags are $CFLAGS'.
# RSV_WERROR=OFF: OSS-Fuzz's clang is newer than ours; new warnings must not
# break the fuzzing build.
LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" cmake -S "$ROOT" -B "$build" -G "$generator" \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DCMAKE_BUILD_TYPE= \
    -DRSV_FUZZ_ENGINE=oss-fuzz -DRSV_BUILD_FUZZ=ON -DRSV_BUILD_TESTS=OFF -DRSV_BUILD_TOOLS=OFF \
    -DRSV_BUILD_BENCH=OFF -DRSV_INSTALL_TEST=OFF -DRSV_WERROR=OFF -DBUILD_TESTING=OFF

read -r -a targets <<<"$(tr ';' ' ' <"$build/fuzz/fuzz_targets.txt")"
[[ ${#targets[@]} -gt 0 ]] || { echo "oss_fuzz_build: no fuzz targets in $build/fuzz/fuzz_targets.txt" >&2; exit 1; }
echo "oss_fuzz_build: targets: ${targets[*]}"
cmake --build "$build" -j"$jobs" --target "${targets[@]}"

# Per-target max_len: the table fuzz/fuzz uses (fuzz/fuzz list), default 4096.
max_len_table=$(bash "$ROOT/fuzz/fuzz" list 2>/dev/null || true)

mkdir -p "$OUT"
for t in "${targets[@]}"; do
    install -m 0755 "$build/fuzz/$t" "$OUT/$t"
    # Seed corpus: flat names (regressions/x -> regressions_x), python3's
    # zipfile so that no zip binary is needed.
    python3 - "$ROOT/corpus/$t" "$OUT/${t}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for d, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.startswith("."):
                continue
            rel = os.path.relpath(os.path.join(d, f), src)
            z.write(os.path.join(d, f), rel.replace(os.sep, "_"))
PY
    if [[ -f $ROOT/fuzz/$t.dict ]]; then
        cp "$ROOT/fuzz/$t.dict" "$OUT/$t.dict"
    else
        echo "# $t: no dictionary (fuzz/$t.dict does not exist)" >"$OUT/$t.dict"
    fi
    max_len=$(awk -v t="$t" '$1 == t { print $3 }' <<<"$max_len_table")
    cat >"$OUT/$t.options" <<OPT
[libfuzzer]
max_len = ${max_len:-4096}
timeout = 10
rss_limit_mb = 2048
OPT
    echo "oss_fuzz_build: $OUT/$t (+ _seed_corpus.zip, .dict, .options; max_len ${max_len:-4096})"
done
