# fuzz/lib/nightly.sh — sourced by fuzz/fuzz: the nightly job.
# shellcheck shell=bash
#
#   fuzz/fuzz nightly --budget MINUTES [--update-corpus] [--no-afl]
#
# The budget is fuzzing time, split over the targets: 70 % libFuzzer (ASan+UBSan,
# -fork over all cores), 30 % AFL++ (ASan+UBSan + CmpLog, one -M and N-1 -S).
# Builds, merges, replays and the coverage report come on top (a few minutes).
# Then: minimize every corpus into build/nightly/minimized/<target>/ (the
# checked-in corpus is rewritten only with --update-corpus), replay checked-in
# + minimized corpora under MSan and under UBSan (replay engine), run the
# bounded-exhaustive differential driver (rsv_diffcheck; --max-len 16, 18 with
# a budget of 30 minutes or more, 20 with two hours or more) when a build of
# rsv_diffcheck exists, run the KV03 exhaustive merges
# (RSV_KV03_EXHAUSTIVE_FULL=1 test_kv03_diff_exhaustive), run the big-endian
# gate with every guard-page test (tests/bigendian/run --full), write the coverage report (build/coverage/) and
# build/nightly/summary.md + summary.json. The codec/ line and branch coverage
# of the replay below RSV_COV_MIN_LINES / RSV_COV_MIN_BRANCHES (90 / 80 %) is a
# finding (fuzz/lib/coverage.sh). Then mutation testing of codec/
# (tests/mutation/run, docs/mutation.md; its score goes into the summary, a
# surviving mutant not argued equivalent is a finding). Exit 1 on any finding.
#
# A part that does not finish within its time budget is a failure, unless the
# budget was explicitly reduced (RSV_NIGHTLY_DIFFCHECK_SECONDS or
# RSV_NIGHTLY_KV03X_SECONDS below its default, RSV_NIGHTLY_MUTATION_MINUTES
# for the mutation part, which has no budget otherwise and must complete):
# then it is recorded as incomplete. fuzz/lib/nightly_budget_test.sh
# tests that rule.

# The diffcheck part's time budget: max(budget, 10 minutes), unless
# RSV_NIGHTLY_DIFFCHECK_SECONDS sets it. Prints "SECONDS REDUCED", REDUCED = 1
# when that was an explicit reduction below the default.
diffcheck_budget() {
    local budget=$1 dflt cap
    dflt=$(( budget * 60 > 600 ? budget * 60 : 600 ))
    cap=${RSV_NIGHTLY_DIFFCHECK_SECONDS:-$dflt}
    [[ $cap =~ ^[1-9][0-9]*$ ]] || die "RSV_NIGHTLY_DIFFCHECK_SECONDS must be a positive integer (got '$cap')"
    echo "$cap $(( cap < dflt ? 1 : 0 ))"
}

# The KV03 exhaustive part's time budget: max(budget, 90 minutes), unless
# RSV_NIGHTLY_KV03X_SECONDS sets it; printed as diffcheck_budget does.
kv03x_budget() {
    local budget=$1 dflt cap
    dflt=$(( budget * 60 > 5400 ? budget * 60 : 5400 ))
    cap=${RSV_NIGHTLY_KV03X_SECONDS:-$dflt}
    [[ $cap =~ ^[1-9][0-9]*$ ]] || die "RSV_NIGHTLY_KV03X_SECONDS must be a positive integer (got '$cap')"
    echo "$cap $(( cap < dflt ? 1 : 0 ))"
}

# The status of a part run under `timeout CAP`, from its exit code: ok, FAIL
# (a finding), FAIL when the cap cut it off (124) - unless REDUCED, then
# "incomplete". Returns 1 for a failure.
capped_status() {
    local code=$1 cap=$2 reduced=$3
    if (( code == 0 )); then echo ok; return 0; fi
    if (( code == 124 )); then
        if (( reduced )); then echo "incomplete (budget explicitly reduced to ${cap} s)"; return 0; fi
        echo "FAIL (did not finish within its ${cap} s budget)"; return 1
    fi
    echo "FAIL (exit ${code})"; return 1
}

cmd_nightly() {
    local budget="" update=0 afl=1
    while [[ $# -gt 0 ]]; do
        case $1 in
            --budget) [[ $# -ge 2 ]] || die "--budget needs a value"; budget=$2; shift 2 ;;
            --budget=*) budget=${1#--budget=}; shift ;;
            --update-corpus) update=1; shift ;;
            --no-afl) afl=0; shift ;;
            *) die "nightly: unexpected argument '$1'" ;;
        esac
    done
    [[ $budget =~ ^[1-9][0-9]*$ ]] || die "nightly needs --budget MINUTES (a positive integer)"
    command -v afl-fuzz >/dev/null && command -v "$AFL_CC" >/dev/null || { afl=0; note "AFL++ not installed: skipping its pass"; }
    # shellcheck disable=SC2207
    local tgts=($(targets)) t n cores lf_secs afl_secs
    n=${#tgts[@]} cores=$(nproc 2>/dev/null || echo 2)
    lf_secs=$(( budget * 60 * (afl ? 7 : 10) / 10 / n )); (( lf_secs >= 10 )) || lf_secs=10
    afl_secs=$(( budget * 60 * 3 / 10 / n )); (( afl_secs >= 10 )) || afl_secs=10
    local out="$BUILD_ROOT/nightly" start; start=$(date +%s)
    rm -rf "$out"; mkdir -p "$out/minimized"
    local rec="$out/records.tsv" rc=0
    : >"$rec"
    echo "nightly: ${n} targets, budget ${budget} min: libFuzzer ${lf_secs} s/target (-fork=$cores)$( ((afl)) && echo ", AFL++ ${afl_secs} s/target ($cores instances)")"
    # record KIND FIELDS...: one tab-separated line for fuzz/lib/nightly_summary.py.
    record() { local IFS=$'\t'; echo "$*" >>"$rec"; }

    # 1. libFuzzer, ASan+UBSan, every core.
    configure_and_build libfuzzer asan-ubsan
    local lf_dir=$BIN_DIR
    for t in "${tgts[@]}"; do
        record corpus_before "$t" "$(count_files "$ROOT/corpus/$t")"
        fuzz_target "$t" "$lf_secs" "$cores" "$lf_dir/$t" asan-ubsan || rc=1
        record fuzz "$t" libfuzzer "$LAST_STATUS" "$LAST_EXECS" "$LAST_EPS" "$LAST_COV" "$LAST_FT" \
            "$LAST_CRASHES" "$LAST_TIMEOUTS" "$LAST_OOMS" "$LAST_LEAKS" "$lf_secs" "${LAST_ARTIFACTS[*]}"
    done

    # 2. AFL++ (its seeds include what libFuzzer just found).
    if (( afl )); then
        configure_and_build afl cmplog
        local cmplog_dir=$BIN_DIR
        configure_and_build afl asan-ubsan
        for t in "${tgts[@]}"; do
            afl_run "$t" "$afl_secs" "$cores" "$BIN_DIR/$t" "$cmplog_dir/$t" asan-ubsan || rc=1
            record fuzz "$t" afl "$LAST_STATUS" "$LAST_EXECS" "$LAST_EPS" "$LAST_COV" "-" \
                "$LAST_CRASHES" "$LAST_TIMEOUTS" "$LAST_OOMS" "$LAST_LEAKS" "$afl_secs" "${LAST_ARTIFACTS[*]}"
        done
    fi

    # 5 (in the background while minimizing, replaying and measuring coverage):
    # the bounded-exhaustive differential driver at a larger size, from an
    # existing build (preferably the ASan+UBSan one), within the budget or 10
    # minutes, whichever is longer (diffcheck_budget). The enumeration
    # (docs/testing.md) doubles per bit of length: under ASan+UBSan, one core,
    # 0-16 takes about 5 minutes, 0-18 about 20, 0-20 about 80. So: 16, 18
    # from a 30-minute budget, 20 from two hours; RSV_NIGHTLY_MAX_LEN
    # overrides (raise RSV_NIGHTLY_DIFFCHECK_SECONDS with it: not finishing in
    # time is a failure).
    local dlen=${RSV_NIGHTLY_MAX_LEN:-$(( budget >= 120 ? 20 : budget >= 30 ? 18 : 16 ))}
    local diff="" dpid="" dstart dcap dreduced
    read -r dcap dreduced <<<"$(diffcheck_budget "$budget")"
    for diff in "$BUILD_ROOT/asan-ubsan/tests/rsv_diffcheck" "$BUILD_ROOT/msan/tests/rsv_diffcheck" \
        $(find "$BUILD_ROOT" -maxdepth 3 -path '*/tests/rsv_diffcheck' -type f 2>/dev/null | sort) ""; do
        [[ -x $diff ]] && break
    done
    if [[ -z $diff ]]; then # none yet (a fresh clone): build the plain-C driver alone, ASan+UBSan
        local ddir="$BUILD_ROOT/nightly-diffcheck"
        local dflags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
        echo "+ cmake -S $ROOT -B $ddir (rsv_diffcheck, ASan+UBSan, no Criterion)"
        if cmake -S "$ROOT" -B "$ddir" -G Ninja -DCMAKE_C_COMPILER="$CC_CLANG" \
               -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS="$dflags" \
               -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
               -DRSV_WITH_CRITERION=OFF -DRSV_BUILD_FUZZ=OFF -DRSV_BUILD_TOOLS=OFF \
               -DRSV_INSTALL_TEST=OFF >"$out/diffcheck-build.log" 2>&1 &&
           cmake --build "$ddir" --target rsv_diffcheck >>"$out/diffcheck-build.log" 2>&1; then
            diff="$ddir/tests/rsv_diffcheck"
        else
            echo "nightly: building rsv_diffcheck failed (see $out/diffcheck-build.log)" >&2
        fi
    fi
    if [[ -n $diff ]]; then
        echo "+ timeout $dcap $diff --max-len $dlen (background)"
        dstart=$(date +%s)
        # shellcheck disable=SC2046
        env $(sanitizer_env) timeout "$dcap" "$diff" --max-len "$dlen" >"$out/diffcheck.log" 2>&1 &
        dpid=$!
    fi

    # 5b (also in the background): the bounded-exhaustive KV03 merges,
    # tests/test_kv03_diff_exhaustive.c with RSV_KV03_EXHAUSTIVE_FULL=1 (all
    # ordered pairs of the six-key universe and all triples over a 4-key
    # sub-universe, EG0 W=2 and Golomb-3 W=1, drop-tombstones off and on;
    # docs/testing.md), ASan+UBSan, within kv03x_budget. Not finishing in time
    # is a failure; so is any of its four tests not passing (a skip included).
    local kx="" kpid="" kstart kcap kreduced kdir
    read -r kcap kreduced <<<"$(kv03x_budget "$budget")"
    kdir="$BUILD_ROOT/asan-ubsan"
    if [[ ! -f $kdir/build.ninja ]]; then
        kdir="$BUILD_ROOT/nightly-kv03x"
        local kflags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
        cmake -S "$ROOT" -B "$kdir" -G Ninja -DCMAKE_C_COMPILER="$CC_CLANG" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DCMAKE_C_FLAGS="$kflags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
            -DRSV_BUILD_FUZZ=OFF -DRSV_BUILD_TOOLS=OFF -DRSV_INSTALL_TEST=OFF >"$out/kv03x-build.log" 2>&1
    fi
    echo "+ cmake --build $kdir --target test_kv03_diff_exhaustive"
    if cmake --build "$kdir" --target test_kv03_diff_exhaustive >>"$out/kv03x-build.log" 2>&1; then
        kx="$kdir/tests/test_kv03_diff_exhaustive"
        echo "+ RSV_KV03_EXHAUSTIVE_FULL=1 timeout $kcap $kx --filter '*/*_full*' (background)"
        kstart=$(date +%s)
        # shellcheck disable=SC2046
        env $(sanitizer_env) RSV_KV03_EXHAUSTIVE_FULL=1 timeout "$kcap" "$kx" --jobs 1 --verbose=1 \
            --filter '*/*_full*' >"$out/kv03x.log" 2>&1 &
        kpid=$!
    else
        echo "nightly: building test_kv03_diff_exhaustive failed (see $out/kv03x-build.log)" >&2
        record kv03exhaustive "FAIL (build failed)" 0 "test_kv03_diff_exhaustive" "${out#"$ROOT"/}/kv03x-build.log"
        rc=1
    fi

    # 3. Minimize: checked-in (without regressions/) + libFuzzer scratch + AFL++ queues.
    for t in "${tgts[@]}"; do
        local stage="$WORK_ROOT/$t/minimize"
        rm -rf "$stage"
        stage_checked_in "$t" "$stage/checked-in"
        stage_afl_queue "$t" "$stage/afl"
        merge_corpus "$lf_dir/$t" "$t" "$out/minimized/$t" "$stage/checked-in" "$WORK_ROOT/$t/corpus" "$stage/afl"
        record corpus_after "$t" "$(count_files "$out/minimized/$t")"
        if (( update )); then
            replace_corpus "$t" "$out/minimized/$t"
            echo "nightly: corpus/$t/ updated ($(count_files "$out/minimized/$t") files)"
        fi
    done

    # 4. Replays: MSan and UBSan builds over checked-in + minimized corpora.
    local label
    for label in msan ubsan; do
        configure_and_build replay "$label"
        for t in "${tgts[@]}"; do
            local cmd=("$BIN_DIR/$t" "$ROOT/corpus/$t" "$out/minimized/$t") status=ok
            echo "+ ${cmd[*]}"
            # shellcheck disable=SC2046
            env $(sanitizer_env) "${cmd[@]}" >"$out/replay-$label-$t.log" 2>&1 || { status=FAIL; rc=1; }
            [[ $status == ok ]] || { note "$t: $label replay failed (log $out/replay-$label-$t.log)"; tail -5 "$out/replay-$label-$t.log" >&2; }
            record replay "$t" "$label" "$status" "$(sed -n 's/^replay: \([0-9]*\) input.*/\1/p' "$out/replay-$label-$t.log")" \
                "${out#"$ROOT"/}/replay-$label-$t.log"
        done
    done

    if [[ -n $dpid ]]; then
        local drc=0 dstatus
        wait "$dpid" || drc=$?
        dstatus=$(capped_status "$drc" "$dcap" "$dreduced") || rc=1
        record diffcheck "$dstatus" "$(( $(date +%s) - dstart ))" "$diff --max-len $dlen" "${out#"$ROOT"/}/diffcheck.log"
        echo "nightly: rsv_diffcheck --max-len $dlen: $dstatus ($(( $(date +%s) - dstart )) s)"
    else
        record diffcheck skipped 0 "rsv_diffcheck --max-len $dlen (no build/*/tests/rsv_diffcheck)" ""
    fi

    if [[ -n $kpid ]]; then
        local krc=0 kstatus
        wait "$kpid" || krc=$?
        if kstatus=$(capped_status "$krc" "$kcap" "$kreduced"); then
            # four *_full tests, none skipped (Criterion exits 0 on a skip)
            if [[ $kstatus == ok ]] && ! grep -q 'Tested: 4 | Passing: 4 |' "$out/kv03x.log"; then
                kstatus="FAIL (not all four full tests ran and passed)"; rc=1
            fi
        else
            rc=1
        fi
        record kv03exhaustive "$kstatus" "$(( $(date +%s) - kstart ))" \
            "RSV_KV03_EXHAUSTIVE_FULL=1 $kx --filter '*/*_full*'" "${out#"$ROOT"/}/kv03x.log"
        echo "nightly: KV03 exhaustive merges: $kstatus ($(( $(date +%s) - kstart )) s)"
    fi

    # 5b. The big-endian gate with every guard-page test (tests/bigendian/run
    # --full; the README's test command runs it without the six slow ones).
    local bstart brc=0 bstatus=ok
    bstart=$(date +%s)
    echo "+ tests/bigendian/run --full --jobs $cores"
    RSV_BE_BUILD_DIR="$BUILD_ROOT/bigendian-s390x" "$ROOT/tests/bigendian/run" --full --jobs "$cores" \
        >"$out/bigendian.log" 2>&1 || brc=$?
    if (( brc )); then bstatus="FAIL (exit $brc)"; rc=1; fi
    record bigendian "$bstatus" "$(( $(date +%s) - bstart ))" "tests/bigendian/run --full" "${out#"$ROOT"/}/bigendian.log"
    echo "nightly: tests/bigendian/run --full: $bstatus ($(( $(date +%s) - bstart )) s)"

    # 6. Coverage of checked-in + minimized corpora.
    cmd_coverage --extra-corpus "$out/minimized" "${tgts[@]}" | tee "$out/coverage.log" || rc=1
    for t in "${tgts[@]}"; do
        record coverage "$t" "$(awk '$1 == "TOTAL" { print $8 - $9 "\t" $8 "\t" $10 "\t" $2 - $3 "\t" $2 "\t" $4 }' "$BUILD_ROOT/coverage/$t.txt")"
    done
    record coverage_all "$(awk '$1 == "TOTAL" { print $8 - $9 "\t" $8 "\t" $10 "\t" $2 - $3 "\t" $2 "\t" $4 }' "$BUILD_ROOT/coverage/report.txt")"
    # The codec/ gate (fuzz/lib/coverage.sh): counted lines and branch outcomes,
    # covered and total, and the thresholds; below either is a finding.
    record coverage_codec "$(awk -F'\t' '$1 == "TOTAL" { print $2 "\t" $3 "\t" $4 "\t" $5 }' "$BUILD_ROOT/coverage/codec.tsv" 2>/dev/null)" \
        "$COV_MIN_LINES" "$COV_MIN_BRANCHES"
    # 7. Mutation testing of codec/ (docs/mutation.md): every mutant against the
    # fast gate, one private build tree per core. Results persist in
    # build/mutation-nightly/ and --resume keeps them while the tree is
    # unchanged, so RSV_NIGHTLY_MUTATION_MINUTES (a cap per night) still
    # completes the set over several nights. RSV_NIGHTLY_MUTATION=0 skips it.
    if [[ ${RSV_NIGHTLY_MUTATION:-1} != 0 ]]; then
        local mdir="$BUILD_ROOT/mutation-nightly" mrc=0
        # not --select-by-coverage: its map misses test processes that cannot
        # write their .gcda (docs/mutation.md, "Test selection by coverage")
        local margs=(--jobs "$cores" --build-dir "$BUILD_ROOT/mutation" --report-dir "$mdir" --resume)
        [[ -n ${RSV_NIGHTLY_MUTATION_MINUTES:-} ]] && margs+=(--budget-minutes "$RSV_NIGHTLY_MUTATION_MINUTES")
        # First the whole set's unexecuted lines (no sampling, no mutant
        # build: docs/mutation.md, "Unexecuted lines"); same build dir, so
        # the full run below reuses its worker trees and baseline.
        local urc=0 udir="$BUILD_ROOT/mutation-unexecuted"
        echo "+ tests/mutation/run --list-unexecuted"
        python3 "$ROOT/tests/mutation/run" --list-unexecuted --build-dir "$BUILD_ROOT/mutation" --report-dir "$udir" \
            >"$out/unexecuted.log" 2>&1 || urc=$?
        [[ -f $udir/unexecuted.md ]] && cp "$udir/unexecuted.md" "$out/"
        record unexecuted "$urc" "${out#"$ROOT"/}/unexecuted.md" "${out#"$ROOT"/}/unexecuted.log"
        echo "+ tests/mutation/run ${margs[*]}"
        python3 "$ROOT/tests/mutation/run" "${margs[@]}" >"$out/mutation.log" 2>&1 || mrc=$?
        if [[ -f $mdir/mutation-report.json ]]; then
            cp "$mdir/mutation-report.md" "$mdir/mutation-report.json" "$out/"
            record mutation "$mrc" "$out/mutation-report.json" "${out#"$ROOT"/}/mutation.log" "${RSV_NIGHTLY_MUTATION_MINUTES:+1}"
        else
            record mutation "$mrc" "" "${out#"$ROOT"/}/mutation.log" "${RSV_NIGHTLY_MUTATION_MINUTES:+1}"
        fi
        tail -3 "$out/mutation.log"
    fi
    record meta "$budget" "$(( $(date +%s) - start ))" "$cores" "$update" "${BUILD_ROOT#"$ROOT"/}/coverage/index.html"

    python3 "$ROOT/fuzz/lib/nightly_summary.py" "$rec" "$out/summary.md" "$out/summary.json" || rc=1
    print_summary
    echo
    sed -n '1,/^## Findings/p' "$out/summary.md" | sed '$d'
    echo "nightly: ${out#"$ROOT"/}/summary.md, summary.json; $(( $(date +%s) - start )) s; $( ((rc)) && echo "FINDINGS (exit 1)" || echo "no finding")"
    return $rc
}
