#!/usr/bin/env bash
# The shared library exports exactly the functions its public headers declare
# with RSV_API: no internal symbol leaks, and no declared function is missing.
# (rsv__ names that the inline hot paths of the public headers call are part of
# that set: they are declared RSV_API in the headers' implementation sections.)
# Usage: check_exports.sh LIBRESERVOIR_SO PUBLIC_HEADER_DIR
set -euo pipefail
lib=$1 hdrs=$2
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWDBRV]$/ {print $3}' \
           | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' | sort -u)
declared=$(cat "$hdrs"/*.h | tr '\n' ' ' | grep -oE 'RSV_API[^;{]*\(' \
           | grep -oE '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\($' | tr -d ' (' | sort -u)
bad=0
leaked=$(comm -23 <(echo "$exported") <(echo "$declared"))
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
if [ -n "$leaked" ]; then
  echo "check_exports: exported but not declared RSV_API in $hdrs:"; echo "$leaked" | sed 's/^/  /'; bad=1
fi
if [ -n "$missing" ]; then
  echo "check_exports: declared RSV_API but not exported by $lib:"; echo "$missing" | sed 's/^/  /'; bad=1
fi
n=$(echo "$exported" | grep -c . || true)
if [ "$n" -eq 0 ]; then echo "check_exports: $lib exports nothing"; exit 1; fi
[ $bad -eq 0 ] && echo "check_exports: $n exported symbols, all declared RSV_API, none missing"
exit $bad
