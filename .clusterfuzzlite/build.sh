#!/bin/bash -eu
# ClusterFuzzLite build: everything is in the repo's one OSS-Fuzz build script
# (ctest fuzz_oss_fuzz_build runs this file in an emulated environment).
exec bash "$SRC/reservoir/fuzz/oss_fuzz_build.sh"
