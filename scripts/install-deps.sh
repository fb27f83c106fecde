#!/usr/bin/env bash
# Install the Debian 12 packages reservoir's builds, tests and fuzzing need.
# Idempotent: installs only what is missing; safe to run on every CI start.
set -euo pipefail

pkgs=(
  build-essential gcc clang llvm libclang-rt-14-dev   # compilers, sanitizer + libFuzzer runtimes
  cmake ninja-build pkg-config                        # build
  libcriterion-dev                                    # unit tests
  valgrind                                            # memcheck of the differential driver
  afl++                                               # second fuzz engine
  python3                                             # corpus / summary helpers
  abigail-tools                                       # abidw/abidiff: the ABI baseline check (ctest -L abi)
  gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user # the big-endian gate (tests/bigendian/run)
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
