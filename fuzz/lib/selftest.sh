# fuzz/lib/selftest.sh — sourced by fuzz/fuzz: the planted-bug self-test.
# shellcheck shell=bash
#
# fuzz/selftest/planted_bug.c hides a heap-buffer-overflow behind the 4-byte
# magic "RSV!". It is compiled here, directly, so it can never end up in the
# production target list. The self-test runs the same code paths as a real
# run (fuzz_target / afl_run, artifact description, reproduce command) and
# passes iff the bug is found, described and reproduced.
#
# Exit status: 0 found and reproduced; 1 not found (or not reproducible);
# 77 the engine is not installed (ctest SKIP_RETURN_CODE).

SELFTEST_SRC="$ROOT/fuzz/selftest/planted_bug.c"

# selftest_build ENGINE: sets SELFTEST_BIN (and SELFTEST_CMPLOG_BIN for afl).
selftest_build() {
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

cmd_selftest() {
    local engine=libfuzzer secs=60
    while [[ $# -gt 0 ]]; do
        case $1 in
            --engine) [[ $# -ge 2 ]] || die "--engine needs a value"; engine=$2; shift 2 ;;
            --engine=*) engine=${1#--engine=}; shift ;;
            --seconds) [[ $# -ge 2 ]] || die "--seconds needs a value"; secs=$2; shift 2 ;;
            --seconds=*) secs=${1#--seconds=}; shift ;;
            *) die "selftest: unexpected argument '$1'" ;;
        esac
    done
    if [[ $engine == afl ]]; then
        command -v "$AFL_CC" >/dev/null && command -v afl-fuzz >/dev/null && [[ -f /usr/lib/afl/libAFLDriver.a ]] \
            || { echo "selftest: SKIP: afl-clang-fast / afl-fuzz / libAFLDriver.a not installed"; exit 77; }
    else
        command -v "$CC_CLANG" >/dev/null || { echo "selftest: SKIP: $CC_CLANG not installed"; exit 77; }
    fi
    WORK_ROOT="$BUILD_ROOT/fuzz-selftest/work-$engine"
    rm -rf "$WORK_ROOT"
    selftest_build "$engine"
    local start rc=0; start=$(date +%s)
    if [[ $engine == afl ]]; then
        # Stop at the first crash instead of running the whole -V budget.
        AFL_EXTRA_ENV=(AFL_BENCH_UNTIL_CRASH=1)
        afl_run planted_bug "$secs" 1 "$SELFTEST_BIN" "$SELFTEST_CMPLOG_BIN" asan || rc=$?
    else
        fuzz_target planted_bug "$secs" 1 "$SELFTEST_BIN" asan-ubsan || rc=$?
    fi
    local took=$(( $(date +%s) - start ))
    print_summary
    local crash=""
    for f in "${LAST_ARTIFACTS[@]}"; do [[ $(basename "$f") == crash-* ]] && { crash=$f; break; }; done
    if (( rc == 0 )) || [[ -z $crash ]]; then
        echo "selftest: FAIL: $engine did not find the planted bug in $took s"
        return 1
    fi
    local repro; repro=$(meta_get "$crash" reproduce)
    [[ -n $repro && $(meta_get "$crash" what) == heap-buffer-overflow ]] \
        || { echo "selftest: FAIL: $crash has no reproduce command or the wrong bug class"; return 1; }
    echo "selftest: $engine found the planted bug in $took s: $crash"
    echo "selftest: reproduce command: $repro"
    # The printed command must show the sanitizer report.
    local out; out=$(cmd_reproduce "$crash" 2>&1) && { echo "$out"; echo "selftest: FAIL: reproduce did not fail"; return 1; }
    grep -q 'AddressSanitizer: heap-buffer-overflow' <<<"$out" \
        || { echo "$out"; echo "selftest: FAIL: reproduce did not show the ASan report"; return 1; }
    grep -E '^\+ |SUMMARY: ' <<<"$out"
    echo "selftest: PASS ($engine)"
    return 0
}
