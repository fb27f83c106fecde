# fuzz/lib/afl.sh — sourced by fuzz/fuzz: the AFL++ (4.04c) engine.
# shellcheck shell=bash
#
# Two builds per sanitizer: build/fuzz-afl-<sanitizer> (AFL_USE_ASAN/UBSAN/MSAN)
# runs the inputs, build/fuzz-afl-cmplog (AFL_LLVM_CMPLOG=1, no sanitizer) feeds
# afl-fuzz -c, which solves multi-byte comparisons (magic values, lengths).
# The targets link libAFLDriver.a: inputs arrive through shared memory, never
# via @@ (4.04c's driver does not support @@). The scratch state is
# build/fuzz-work/<target>/afl/{in,out,*.log}.

# In containers: no CPU frequency governor, core_pattern may pipe, no UI,
# no CPU pinning (the machine is shared).
AFL_ENV=(AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
    AFL_FAST_CAL=1 AFL_CMPLOG_ONLY_NEW=1 AFL_SKIP_CRASHES=1)
# Extra environment for afl-fuzz (the self-test adds AFL_BENCH_UNTIL_CRASH=1).
AFL_EXTRA_ENV=()
AFL_PIDS=()

afl_stop() { # stop the instances we started: SIGINT lets afl-fuzz write its state
    local p
    for p in "${AFL_PIDS[@]}"; do kill -INT "$p" 2>/dev/null || true; done
}

# afl_fuzz_target TARGET SECONDS JOBS LABEL [AFL_ARGS...]: build (sanitizer
# LABEL + CmpLog) and fuzz one target with AFL++.
afl_fuzz_target() {
    local t=$1 secs=$2 jobs=$3 label=$4; shift 4
    command -v afl-fuzz >/dev/null || die "afl-fuzz not found (scripts/install-deps.sh installs afl++)"
    configure_and_build afl cmplog
    local cmplog_bin="$BIN_DIR/$t"
    configure_and_build afl "$label"
    afl_run "$t" "$secs" "$jobs" "$BIN_DIR/$t" "$cmplog_bin" "$label" "$@"
}

# afl_run TARGET SECONDS JOBS BINARY CMPLOG_BINARY LABEL [AFL_ARGS...]: one -M
# and JOBS-1 -S instances, each with -V SECONDS; stops stragglers with SIGINT.
# Sets the LAST_* variables like fuzz_target; returns 1 on a finding.
afl_run() {
    local t=$1 secs=$2 jobs=$3 bin=$4 cmplog_bin=$5 label=$6; shift 6
    local work="$WORK_ROOT/$t" max_len; max_len=$(max_len_for "$t")
    local afl="$work/afl"
    rm -rf "$afl"
    mkdir -p "$afl/in" "$work/artifacts"
    # Seeds: the checked-in corpus (regressions too) and the libFuzzer scratch
    # corpus, flattened (afl-fuzz wants plain files), at most max_len bytes.
    local f n=0
    while IFS= read -r -d '' f; do
        (( $(stat -c %s "$f") <= max_len )) || continue
        cp "$f" "$afl/in/seed$((n++))"
    done < <(find "${RSV_FUZZ_SEED_DIR:-$ROOT/corpus/$t}" "$work/corpus" -type f ! -name '.*' -print0 2>/dev/null)
    (( n > 0 )) || printf 'A' >"$afl/in/seed0"
    local before=$n dict; dict=$(dict_for "$t")
    local i role cmd
    AFL_PIDS=()
    trap 'afl_stop' INT TERM
    for (( i = 0; i < jobs; i++ )); do
        if (( i == 0 )); then role=(-M main); else role=(-S "sec$i"); fi
        cmd=(afl-fuzz -i "$afl/in" -o "$afl/out" "${role[@]}" -V "$secs" -t 10000 -G "$max_len")
        (( i == 0 )) && [[ -x $cmplog_bin ]] && cmd+=(-c "$cmplog_bin")
        [[ -n $dict ]] && cmd+=(-x "$dict")
        cmd+=("$@" -- "$bin")
        echo "+ ${AFL_ENV[*]} ${AFL_EXTRA_ENV[*]} ${cmd[*]}"
        # afl-fuzz sets the sanitizer options it needs (abort_on_error=1,
        # symbolize=0) when they are unset, and refuses custom ones without them.
        env -u ASAN_OPTIONS -u UBSAN_OPTIONS -u MSAN_OPTIONS "${AFL_ENV[@]}" "${AFL_EXTRA_ENV[@]}" \
            "${cmd[@]}" >"$afl/${role[1]}.log" 2>&1 &
        AFL_PIDS+=($!)
        (( i == 0 )) && sleep 1 # the main instance creates the output directory
    done
    # -V counts from the end of calibration: allow a grace period, then SIGINT.
    local deadline=$(( $(date +%s) + secs + 60 )) p alive
    while :; do
        alive=0
        for p in "${AFL_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        (( alive )) || break
        if (( $(date +%s) > deadline )); then
            note "$t: afl-fuzz still running after $((secs + 60)) s: stopping it (SIGINT)"
            afl_stop; sleep 5
            for p in "${AFL_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
            break
        fi
        sleep 1
    done
    local rc=0
    for p in "${AFL_PIDS[@]}"; do wait "$p" || rc=$?; done
    trap - INT TERM

    # Statistics: executions summed over instances, coverage of the main one.
    local execs=0 eps=0 edges=0 corpus=0 s v
    for s in "$afl"/out/*/fuzzer_stats; do
        [[ -f $s ]] || continue
        v=$(sed -n 's/^execs_done *: *//p' "$s"); execs=$(( execs + ${v:-0} ))
        v=$(sed -n 's/^execs_per_sec *: *//p' "$s"); eps=$(awk -v a="$eps" -v b="${v:-0}" 'BEGIN{printf "%d", a + b}')
        v=$(sed -n 's/^edges_found *: *//p' "$s"); (( ${v:-0} > edges )) && edges=$v
        v=$(sed -n 's/^corpus_count *: *//p' "$s"); (( ${v:-0} > corpus )) && corpus=$v
    done
    # Findings: crashes/ and hangs/ of every instance, copied next to the
    # libFuzzer artifacts and described the same way.
    local described=() kind
    while IFS= read -r -d '' f; do
        case $f in */hangs/*) kind=timeout ;; *) kind=crash ;; esac
        local copy; copy="$work/artifacts/$kind-afl-$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f" | cut -c1-9 | tr -c 'a-z0-9\n' '_')"
        cp "$f" "$copy"
        described+=("$(describe_artifact "$copy" "$t" afl "$label" "$bin")")
    done < <(find "$afl/out" \( -path '*/crashes/id:*' -o -path '*/hangs/id:*' \) -print0 2>/dev/null | sort -z)
    count_kinds "${described[@]}"
    local findings=$(( LAST_CRASHES + LAST_TIMEOUTS + LAST_OOMS + LAST_LEAKS )) status
    if (( findings > 0 )); then status=FINDING
    elif [[ ! -f $afl/out/main/fuzzer_stats ]]; then status="FAIL($rc)"
    else status=ok; fi
    # shellcheck disable=SC2034 # read by fuzz/lib/nightly.sh and selftest.sh
    LAST_STATUS=$status LAST_EXECS=$execs LAST_EPS=$eps LAST_COV=$edges LAST_FT=$edges
    LAST_BEFORE=$before LAST_AFTER=$corpus
    LAST_ARTIFACTS=("${described[@]}")
    SUMMARY+=("$(printf '%-18s %-9s %12s %8s %7s %7s %15s %8s' "$t(afl)" "$status" "$execs" "$eps" \
        "$edges" "-" "$before -> $corpus" "$findings")")
    if [[ $status != ok ]]; then
        note "$t: AFL++ $status; logs $afl/*.log, findings $afl/out/*/{crashes,hangs}/"
        [[ $status == FAIL* ]] && tail -5 "$afl/main.log" >&2
        for f in "${described[@]}"; do
            note "  artifact: $f"
            note "    reproduce: fuzz/fuzz reproduce $f"
            note "    engine command: $(meta_get "$f" engine_command)"
        done
        return 1
    fi
    return 0
}
