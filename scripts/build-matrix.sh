#!/usr/bin/env bash
# Build-only matrix: Debug and Release, each with gcc and with clang, warnings
# as errors (RSV_WERROR=ON), everything the project builds (library, tools,
# tests, guard pages, fuzz replay targets), plus the library alone with
# RSV_PORTABLE_BITS=ON. Catches what one compiler or one
# optimisation level lets through (e.g. gcc -O0's maybe-uninitialized).
# Usage: scripts/build-matrix.sh [BUILD_ROOT]   (default build/matrix)
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-build/matrix}
jobs=${RSV_JOBS:-$(nproc 2>/dev/null || echo 2)}
rc=0
# build NAME CC TYPE [EXTRA CMAKE ARGS...]
build() {
  local name=$1 cc=$2 type=$3; shift 3
  local dir="$root/$name"; mkdir -p "$root"
  printf 'build-matrix: %-22s ' "$name"
  if cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="$type" \
       -DRSV_WERROR=ON -DRSV_INSTALL_TEST=OFF "$@" >"$dir.log" 2>&1 &&
     cmake --build "$dir" -j "$jobs" >>"$dir.log" 2>&1; then
    echo ok
  else
    echo "FAILED (log: $dir.log)"; tail -30 "$dir.log"; rc=1
  fi
}
for cc in gcc clang; do
  for type in Debug Release; do
    build "$cc-$type" "$cc" "$type"
  done
done
# No GNU builtins, no CPU dispatch (docs/design.md "Bit helpers"): the library
# only, as a compiler without the builtins would build it (the asan-ubsan
# build with the option runs the tests).
build clang-Release-portable clang Release -DRSV_PORTABLE_BITS=ON \
  -DRSV_BUILD_TESTS=OFF -DRSV_BUILD_TOOLS=OFF -DRSV_BUILD_FUZZ=OFF
exit $rc
