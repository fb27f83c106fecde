#!/usr/bin/env bash
# ABI check of libreservoir.so against the checked-in baseline (libabigail).
#
# Fails on any change that is not a pure addition: a removed function or
# variable, a changed function (parameter, return or any type it reaches: a
# struct's size or a member's offset, an enumerator), a removed symbol. abidiff
# exits with bit 8 only for removals; layout changes set bit 4 alone, so the
# summary's Removed/Changed counts decide. Added functions are reported and
# pass. Filepaths and line numbers in the dump are not compared.
#
# The baseline is the dump of a plain gcc RelWithDebInfo build (the `default`
# preset); the exported functions and public types of the sanitizer builds
# compare equal to it (abidiff ignores the build flags), so ctest runs this on
# whatever tree it is in. To change the ABI on purpose (README, "Versioning"):
#   tests/abi/check_abi.sh --update build/default/codec/libreservoir.so codec/include/reservoir
# Usage: check_abi.sh [--update] LIBRESERVOIR_SO PUBLIC_HEADER_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
baseline=$here/libreservoir.abi
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
lib=$1 hdrs=$2
for t in abidw abidiff; do
  command -v $t >/dev/null || { echo "check_abi: $t not found (scripts/install-deps.sh installs abigail-tools)"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Only the public headers' types count; --no-corpus-path keeps the dump free of build paths.
abidw --headers-dir "$hdrs" --no-corpus-path --drop-private-types --out-file "$tmp/now.abi" "$lib"
if [ $update -eq 1 ]; then
  cp "$tmp/now.abi" "$baseline"; echo "check_abi: baseline updated: $baseline"; exit 0
fi
[ -f "$baseline" ] || { echo "check_abi: no baseline $baseline"; exit 1; }
rc=0
abidiff "$baseline" "$tmp/now.abi" >"$tmp/diff.txt" || rc=$?
cat "$tmp/diff.txt"
if (( rc & 1 )); then echo "check_abi: abidiff error ($rc)"; exit 1; fi
# "Functions changes summary: R Removed, C Changed (F filtered out), A Added functions"
# and the same for variables and symbols: any R or C > 0 is an incompatible change.
bad=$(grep -E 'changes summary:' "$tmp/diff.txt" \
      | grep -oE '[0-9]+ (Removed|Changed)' | awk '$1 > 0' || true)
if (( rc & 8 )) || [ -n "$bad" ]; then
  echo "check_abi: INCOMPATIBLE ABI change against $(basename "$baseline") (update the baseline on purpose, see README \"Versioning\")"
  exit 1
fi
if (( rc & 4 )); then echo "check_abi: compatible additions only (consider updating the baseline)"; fi
echo "check_abi: no incompatible change against $(basename "$baseline")"
