#!/usr/bin/env bash
# ABI check of libreservoir.so against the checked-in baseline (libabigail).
# Fails on an incompatible change (abidiff bit 8: a removed or changed function
# or type); a compatible addition is reported and passes. To change the ABI on
# purpose, regenerate the baseline (README, "Versioning"):
#   tests/abi/check_abi.sh --update build/<tree>/codec/libreservoir.so codec/include/reservoir
# Usage: check_abi.sh [--update] LIBRESERVOIR_SO PUBLIC_HEADER_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
baseline=$here/libreservoir.abi
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
lib=$1 hdrs=$2
command -v abidw >/dev/null || { echo "check_abi: abidw not found (apt-get install abigail-tools)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Only the public headers' types count; --no-corpus-path keeps the dump free of build paths.
abidw --headers-dir "$hdrs" --no-corpus-path --drop-private-types --out-file "$tmp/now.abi" "$lib"
if [ $update -eq 1 ]; then
  cp "$tmp/now.abi" "$baseline"; echo "check_abi: baseline updated: $baseline"; exit 0
fi
[ -f "$baseline" ] || { echo "check_abi: no baseline $baseline"; exit 1; }
rc=0
abidiff --headers-dir2 "$hdrs" --drop-private-types "$baseline" "$tmp/now.abi" >"$tmp/diff.txt" || rc=$?
cat "$tmp/diff.txt"
if (( rc & 1 )); then echo "check_abi: abidiff error ($rc)"; exit 1; fi
if (( rc & 8 )); then echo "check_abi: INCOMPATIBLE ABI change (update the baseline on purpose, see README)"; exit 1; fi
if (( rc & 4 )); then echo "check_abi: compatible ABI change (consider updating the baseline)"; fi
echo "check_abi: no incompatible change against $(basename "$baseline")"
