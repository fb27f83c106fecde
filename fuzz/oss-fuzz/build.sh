#!/bin/bash -eu
# OSS-Fuzz build: the same in-repo script ClusterFuzzLite uses.
exec bash "$SRC/reservoir/fuzz/oss_fuzz_build.sh"
