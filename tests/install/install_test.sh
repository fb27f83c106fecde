#!/usr/bin/env bash
# Install the build tree into a scratch prefix, then build and run a consumer
# through find_package(reservoir) (static and shared) and through pkg-config.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR C_COMPILER "C_FLAGS" "LINK_FLAGS"
set -euo pipefail
build=$1 src=$2 cc=$3 cflags=${4:-} ldflags=${5:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rsv-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/reservoir/reader.h"
test -f "$tmp/prefix/lib/cmake/reservoir/reservoirConfig.cmake" || test -f "$tmp/prefix/lib64/cmake/reservoir/reservoirConfig.cmake"
cmake -S "$src/tests/install/consumer" -B "$tmp/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >/dev/null
cmake --build "$tmp/build" >/dev/null
libdir=$(dirname "$(find "$tmp/prefix" -name 'libreservoir.so' | head -n1)")
"$tmp/build/consumer_static"
LD_LIBRARY_PATH="$libdir" "$tmp/build/consumer_shared"
# pkg-config: compile against the installed .pc (shared library).
pcdir=$(dirname "$(find "$tmp/prefix" -name reservoir.pc | head -n1)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs reservoir)
# shellcheck disable=SC2086
"$cc" $cflags "$src/tests/install/consumer/consumer.c" $flags $ldflags -o "$tmp/consumer_pc"
LD_LIBRARY_PATH="$libdir" "$tmp/consumer_pc"
echo "install test: find_package (static, shared) and pkg-config consumers passed"
