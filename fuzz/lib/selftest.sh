# fuzz/lib/selftest.sh — sourced by fuzz/fuzz: the fuzzing self-tests.
# shellcheck shell=bash
#
#   fuzz/fuzz selftest [--engine libfuzzer|afl] [--seconds N] [--plant 1|2|3|toy]
#
# --plant 1|2|3 (docs/fuzzing.md "Self-tests"): a dedicated build of the codec
# with -DRSV_SELFTEST_PLANT=N (never set by any other build) plants one codec
# divergence from the oracle, and the REAL fuzz target that should catch it
# must find it as a MISMATCH, WITHOUT a dictionary (no -dict, no afl -x):
#   1  reader_diff     read_eg: a rare truncated remainder (k >= 5, one bit
#                      short, zero run >= 2) leaves the reader position off by one
#   2  kv03_parse      open check 26: a section 6 length of 9..15 bytes returns
#                      SECTION_SHAPE instead of DICTIONARY_SHAPE (one byte of the
#                      directory; no single-bit flip of a seed gets there)
#   3  merge_diff      a tie on an 8-byte key among 3+ inputs keeps the older
#                      input's binding instead of the newest
# The fuzzer starts from the target's top-level seeds only (corpus/<target>/*,
# not regressions/, which hold reproducers such as the §9.1 check 26 files),
# and those seeds are first replayed through the planted binary, which must
# pass: the finding comes from mutation, not from a seed.
#
# --plant toy: fuzz/selftest/planted_bug.c, a heap-buffer-overflow behind the
# 4-byte magic "RSV!", handed to the engine by fuzz/selftest/planted_bug.dict
# (the only self-test with a dictionary: it tests reporting, not discovery).
# It covers what the planted codec divergences do not: a sanitizer-class
# finding (the artifact is classified heap-buffer-overflow and the printed
# reproduce command must show the ASan report). Measured without the
# dictionary: libFuzzer still finds it (~700 executions), AFL++ 4.04c with
# CmpLog did not within 60 s.
#
# Every variant passes iff the finding is made within --seconds, described
# (artifact .meta: what = mismatch / heap-buffer-overflow) and reproduced by
# the printed command. Exit status: 0 found and reproduced; 1 not found (or
# not reproducible, or a seed already triggers the plant); 77 the engine is
# not installed (ctest SKIP_RETURN_CODE).

SELFTEST_SRC="$ROOT/fuzz/selftest/planted_bug.c"
declare -A PLANT_TARGET=([1]=reader_diff [2]=kv03_parse [3]=merge_diff)

# selftest_build_toy ENGINE: sets SELFTEST_BIN (and SELFTEST_CMPLOG_BIN for afl).
selftest_build_toy() {
    local dir="$BUILD_ROOT/fuzz-selftest/$1" cmd
    mkdir -p "$dir"
    SELFTEST_BIN="$dir/planted_bug" SELFTEST_CMPLOG_BIN=""
    case $1 in
        libfuzzer)
            cmd=("$CC_CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
                "$SELFTEST_SRC" -o "$SELFTEST_BIN")
            echo "+ ${cmd[*]}"; "${cmd[@]}" || die "selftest build failed" ;;
        afl)
            cmd=("$AFL_CC" -g -O1 "$SELFTEST_SRC" /usr/lib/afl/libAFLDriver.a)
            echo "+ AFL_USE_ASAN=1 ${cmd[*]} -o $SELFTEST_BIN"
            AFL_USE_ASAN=1 AFL_QUIET=1 "${cmd[@]}" -o "$SELFTEST_BIN" || die "selftest build failed"
            SELFTEST_CMPLOG_BIN="$dir/planted_bug.cmplog"
            echo "+ AFL_LLVM_CMPLOG=1 ${cmd[*]} -o $SELFTEST_CMPLOG_BIN"
            AFL_LLVM_CMPLOG=1 AFL_QUIET=1 "${cmd[@]}" -o "$SELFTEST_CMPLOG_BIN" || die "selftest build failed" ;;
        *) die "selftest: --engine libfuzzer | afl" ;;
    esac
}

# selftest_build_plant ENGINE N: builds the plant's target in its own tree
# (build/fuzz-selftest/plantN/fuzz-<engine>-<label>) with
# -DRSV_SELFTEST_PLANT=N added to the flags configure_and_build uses; sets
# SELFTEST_BIN. libFuzzer: ASan+UBSan. AFL++: ONE build, instrumented for
# CmpLog and run as its own CmpLog binary (afl-fuzz -c 0), without a
# sanitizer: the plants are logic divergences (an abort on MISMATCH), and a
# second, sanitized build would take half of the 2-minute ctest budget.
selftest_build_plant() {
    local engine=$1 n=$2 t=${PLANT_TARGET[$2]}
    local saved_root=$BUILD_ROOT
    BUILD_ROOT="$saved_root/fuzz-selftest/plant$n"
    RSV_EXTRA_CFLAGS="-DRSV_SELFTEST_PLANT=$n" RSV_ONLY_TARGETS="$t" configure_and_build "$engine" \
        "$([[ $engine == afl ]] && echo cmplog || echo asan-ubsan)"
    SELFTEST_BIN="$BIN_DIR/$t" SELFTEST_CMPLOG_BIN=""
    BUILD_ROOT=$saved_root
}

# selftest_seeds TARGET DIR: the target's top-level seeds (not regressions/).
selftest_seeds() {
    rm -rf "$2"; mkdir -p "$2"
    find "$ROOT/corpus/$1" -maxdepth 1 -type f ! -name '.*' -exec cp -t "$2" {} +
}

cmd_selftest() {
    local engine=libfuzzer secs=60 plant=toy
    while [[ $# -gt 0 ]]; do
        case $1 in
            --engine) [[ $# -ge 2 ]] || die "--engine needs a value"; engine=$2; shift 2 ;;
            --engine=*) engine=${1#--engine=}; shift ;;
            --seconds) [[ $# -ge 2 ]] || die "--seconds needs a value"; secs=$2; shift 2 ;;
            --seconds=*) secs=${1#--seconds=}; shift ;;
            --plant) [[ $# -ge 2 ]] || die "--plant needs a value"; plant=$2; shift 2 ;;
            --plant=*) plant=${1#--plant=}; shift ;;
            *) die "selftest: unexpected argument '$1'" ;;
        esac
    done
    [[ $plant == toy || -n ${PLANT_TARGET[$plant]:-} ]] || die "selftest: --plant 1 | 2 | 3 | toy"
    if [[ $engine == afl ]]; then
        command -v "$AFL_CC" >/dev/null && command -v afl-fuzz >/dev/null && [[ -f /usr/lib/afl/libAFLDriver.a ]] \
            || { echo "selftest: SKIP: afl-clang-fast / afl-fuzz / libAFLDriver.a not installed"; exit 77; }
    else
        command -v "$CC_CLANG" >/dev/null || { echo "selftest: SKIP: $CC_CLANG not installed"; exit 77; }
    fi
    # No dictionary in any self-test: the finding must come from the engine.
    RSV_FUZZ_NO_DICT=1
    local t want
    if [[ $plant == toy ]]; then
        t=planted_bug want=heap-buffer-overflow
        WORK_ROOT="$BUILD_ROOT/fuzz-selftest/work-$engine"
        rm -rf "$WORK_ROOT"
        selftest_build_toy "$engine"
        RSV_FUZZ_SEED_DIR=""
        # The toy tests the sanitizer path, not discovery: its dictionary
        # (fuzz/selftest/planted_bug.dict) hands over the magic.
        RSV_FUZZ_NO_DICT=0
    else
        t=${PLANT_TARGET[$plant]} want=mismatch
        WORK_ROOT="$BUILD_ROOT/fuzz-selftest/work-$engine-plant$plant"
        rm -rf "$WORK_ROOT"
        selftest_build_plant "$engine" "$plant"
        RSV_FUZZ_SEED_DIR="$WORK_ROOT/seeds"
        selftest_seeds "$t" "$RSV_FUZZ_SEED_DIR"
        # The seeds alone must not trigger the plant.
        local replay=("$SELFTEST_BIN")
        [[ $engine == libfuzzer ]] && replay+=(-runs=0 "-artifact_prefix=$WORK_ROOT/seed-replay-" "$RSV_FUZZ_SEED_DIR") \
            || replay+=("$RSV_FUZZ_SEED_DIR"/*)
        echo "+ ${replay[*]}  (seed replay through the planted build)"
        if ! env -u ASAN_OPTIONS "${replay[@]}" >"$WORK_ROOT.seed-replay.log" 2>&1; then
            tail -5 "$WORK_ROOT.seed-replay.log"
            echo "selftest: FAIL: a seed of $t already triggers plant $plant (log $WORK_ROOT.seed-replay.log)"
            return 1
        fi
    fi
    local start rc=0; start=$(date +%s)
    if [[ $engine == afl ]]; then
        # Stop at the first crash instead of running the whole -V budget.
        AFL_EXTRA_ENV=(AFL_BENCH_UNTIL_CRASH=1)
        if [[ $plant == toy ]]; then
            afl_run "$t" "$secs" 1 "$SELFTEST_BIN" "$SELFTEST_CMPLOG_BIN" asan || rc=$?
        else
            afl_run "$t" "$secs" 1 "$SELFTEST_BIN" "" cmplog -c 0 || rc=$?
        fi
    else
        fuzz_target "$t" "$secs" 1 "$SELFTEST_BIN" asan-ubsan || rc=$?
    fi
    local took=$(( $(date +%s) - start ))
    print_summary
    local crash="" f
    for f in "${LAST_ARTIFACTS[@]}"; do [[ $(basename "$f") == crash-* ]] && { crash=$f; break; }; done
    if (( rc == 0 )) || [[ -z $crash ]]; then
        echo "selftest: FAIL: $engine did not find plant $plant ($t) in $took s"
        return 1
    fi
    if [[ $plant != toy ]]; then
        for f in "${LAST_ARTIFACTS[@]}"; do echo "planted=$plant" >>"$f.meta"; done
    fi
    local repro; repro=$(meta_get "$crash" reproduce)
    [[ -n $repro && $(meta_get "$crash" what) == "$want" ]] \
        || { echo "selftest: FAIL: $crash has no reproduce command or is not a $want ($(meta_get "$crash" what))"; return 1; }
    echo "selftest: $engine found plant $plant ($t, $want) in $took s after ${LAST_EXECS:-?} executions: $crash"
    echo "selftest: reproduce command: $repro"
    # The printed command must show the report.
    local out; out=$(cmd_reproduce "$crash" 2>&1) && { echo "$out"; echo "selftest: FAIL: reproduce did not fail"; return 1; }
    local pattern='AddressSanitizer: heap-buffer-overflow'
    [[ $want == mismatch ]] && pattern="$t MISMATCH"
    grep -q "$pattern" <<<"$out" \
        || { echo "$out"; echo "selftest: FAIL: reproduce did not show '$pattern'"; return 1; }
    grep -E "^\+ |SUMMARY: |MISMATCH" <<<"$out" | head -5
    echo "selftest: PASS ($engine, plant $plant, found in $took s)"
    return 0
}
