#!/usr/bin/env bash
# The shared library exports exactly the functions its public headers declare
# with RSV_API: no internal symbol leaks, and no declared function is missing.
#
# The declarations are listed by the C preprocessor, not by grepping the header
# text: the umbrella header is preprocessed with RSV_API defined as a marker
# (export.h honours a predefined RSV_API), so comments never match and
# conditional declarations (the RSV_LOAD_CHECK hooks) count exactly when the
# library was built with the same definitions (pass them after CC).
#
# rsv__ names are exported only because the public headers' inline hot paths
# call them (reservoir/reader_impl.h, mem_impl.h: "implementation, not API").
# The third check enforces that: every exported rsv__ function must be
# referenced by the preprocessed headers somewhere besides its declaration.
#
# Usage: check_exports.sh LIBRESERVOIR_SO PUBLIC_INCLUDE_DIR CC [CPPFLAGS...]
#   PUBLIC_INCLUDE_DIR is the directory holding reservoir/reservoir.h.
set -euo pipefail
lib=$1 inc=$2 cc=$3
shift 3
marker=__rsv_api_marker__
pp=$(printf '#include <reservoir/reservoir.h>\n' |
     "$cc" -E -P -x c -std=c17 "-DRSV_API=$marker" -I "$inc" "$@" - | tr '\n' ' ')

exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWDBRVi]$/ {print $3}' \
           | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' \
           | grep -v -E '^__(msan|asan|ubsan|lsan|sanitizer)_' | sort -u)
# (the second filter: symbols a sanitizer build's instrumentation adds to every
# shared object, e.g. MSan's __msan_track_origins; not part of the library's API)
# Each marker is followed by the declaration up to its parameter list: the
# function name is the last identifier before the first '('.
declared=$(printf '%s' "$pp" | grep -oE "$marker[^;{(]*\(" \
           | sed -E 's/[[:space:]]*\($//' | grep -oE '[A-Za-z_][A-Za-z0-9_]*$' | sort -u)
n=$(printf '%s\n' "$exported" | grep -c . || true)
nd=$(printf '%s\n' "$declared" | grep -c . || true)
if [ "$n" -eq 0 ]; then echo "check_exports: $lib exports nothing"; exit 1; fi
if [ "$nd" -eq 0 ]; then echo "check_exports: no RSV_API declaration found under $inc"; exit 1; fi

bad=0
leaked=$(comm -23 <(printf '%s\n' "$exported") <(printf '%s\n' "$declared"))
missing=$(comm -13 <(printf '%s\n' "$exported") <(printf '%s\n' "$declared"))
if [ -n "$leaked" ]; then
  echo "check_exports: exported but not declared RSV_API in the public headers:"
  printf '%s\n' "$leaked" | sed 's/^/  /'; bad=1
fi
if [ -n "$missing" ]; then
  echo "check_exports: declared RSV_API but not exported by $lib:"
  printf '%s\n' "$missing" | sed 's/^/  /'; bad=1
fi
notrsv=$(printf '%s\n' "$declared" | grep -v '^rsv_' || true)
if [ -n "$notrsv" ]; then
  echo "check_exports: RSV_API declarations without the rsv_ prefix:"
  printf '%s\n' "$notrsv" | sed 's/^/  /'; bad=1
fi
# Every function the headers declare (a prototype ending in ';', not a static
# inline definition) must carry RSV_API: otherwise the shared library would
# hide it silently. A prototype here is a chunk between ; { } of the form
# "<type words> rsv_name(<params without parentheses>)".
unmarked=$(printf '%s' "$pp" | tr '{}' ';;' | tr ';' '\n' \
           | grep -E '^[[:space:]]*[A-Za-z_][A-Za-z0-9_[:space:]*]*[[:space:]*]rsv_[A-Za-z0-9][A-Za-z0-9_]*[[:space:]]*\([^()]*\)[[:space:]]*$' \
           | grep -v -E "^[[:space:]]*(static|typedef|return|if|else|while|for|do|switch|case|goto)\b|$marker" \
           | grep -oE 'rsv_[A-Za-z0-9_]*[[:space:]]*\(' | tr -d ' (' | sort -u || true)
if [ -n "$unmarked" ]; then
  echo "check_exports: public functions declared without RSV_API (the shared library hides them):"
  printf '%s\n' "$unmarked" | sed 's/^/  /'; bad=1
fi
# rsv__ exports: each must be used by the headers' inline code.
for s in $(printf '%s\n' "$exported" | grep '^rsv__' || true); do
  uses=$(printf '%s' "$pp" | grep -oE "\\b$s\\b" | wc -l)
  if [ "$uses" -lt 2 ]; then
    echo "check_exports: $s is exported (rsv__, implementation) but no public inline code uses it"; bad=1
  fi
done
ni=$(printf '%s\n' "$exported" | grep -c '^rsv__' || true)
[ $bad -eq 0 ] && echo "check_exports: $n exported symbols ($ni rsv__ used by public inline code), all declared RSV_API, none missing"
exit $bad
