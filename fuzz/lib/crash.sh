# fuzz/lib/crash.sh — sourced by fuzz/fuzz: naming, describing and reproducing
# shellcheck shell=bash
# findings. Every artifact FILE gets two sidecars:
#   FILE.report  the sanitizer output of one run of FILE
#   FILE.meta    key=value lines: target, engine, sanitizer, kind, what,
#                top_frame, stack_hash, binary, engine_command, reproduce
# and is renamed <kind>-<target>-<sanitizer>-<stackhash>-<sha1:12>, so that
# the name alone says what found it and duplicates of one bug sort together.

# Frames of the sanitizer / libFuzzer / libc runtimes: not part of the bug's identity.
RUNTIME_FRAMES='^(__pthread_kill|pthread_kill|gsignal|(.*_)?fail$|__asan|__ubsan|__msan|__lsan|__sanitizer|__interceptor|__interception|fuzzer::|abort$|raise$|__GI_|__libc|_start$|__assert|malloc$|calloc$|realloc$|free$|memcpy$|memcmp$|memmove$|strlen$|main$|ExecuteFilesOnyByOne|LLVMFuzzerRunDriver|run_file$|run_path$|run_dir$)'

# sanitizer_env: the environment every reproduction runs with.
sanitizer_env() {
    echo "ASAN_OPTIONS=$RUN_ASAN_OPTIONS:abort_on_error=1 UBSAN_OPTIONS=$RUN_UBSAN_OPTIONS MSAN_OPTIONS=$RUN_MSAN_OPTIONS"
}

# app_frames REPORT: function names of the first three non-runtime stack frames.
app_frames() {
    sed -n 's/^ *#[0-9]\{1,\} 0x[0-9a-f]* in \([^ ]*\).*/\1/p' "$1" | grep -Ev "$RUNTIME_FRAMES" | head -3
}

# bug_kind REPORT FALLBACK: a short slug for the bug class.
bug_kind() {
    local r=$1 k
    k=$(grep -oE '(Address|Memory|Leak)Sanitizer: [a-z-]+' "$r" | head -1 | sed 's/.*: //')
    [[ -n $k ]] || { grep -q 'LeakSanitizer: detected memory leaks' "$r" && k=memory-leak; }
    [[ -n $k ]] || k=$(grep -oE 'runtime error: [a-z]+( [a-z]+)?' "$r" | head -1 | sed 's/runtime error: //; s/ /-/g; s/^/ub-/')
    [[ -n $k ]] || { grep -q 'MISMATCH' "$r" && k=mismatch; }
    [[ -n $k ]] || { grep -q 'libFuzzer: timeout' "$r" && k=timeout; }
    [[ -n $k ]] || { grep -q 'libFuzzer: out-of-memory' "$r" && k=out-of-memory; }
    [[ -n $k ]] || { grep -q 'deadly signal' "$r" && k=deadly-signal; }
    echo "${k:-$2}"
}

# meta_get FILE KEY: a value from FILE.meta (empty if absent).
meta_get() {
    [[ -f $1.meta ]] || return 0
    sed -n "s/^$2=//p" "$1.meta" | head -1
}

# engine_args ENGINE: the flags a one-shot reproduction passes (libFuzzer
# otherwise uses -timeout=1200; the AFL++ driver takes no flags at all).
engine_args() {
    case $1 in
        libfuzzer) echo "-timeout=10 -rss_limit_mb=2048" ;;
        *) echo "" ;;
    esac
}

# describe_artifact FILE TARGET ENGINE LABEL BINARY: run FILE once, write
# the sidecars, rename; prints the new path.
describe_artifact() {
    local f=$1 t=$2 engine=$3 label=$4 bin=$5
    local base kind dir; base=$(basename "$f"); dir=$(dirname "$f")
    kind=${base%%-*}
    case $kind in crash|leak|timeout|oom|slow) ;; *) kind=crash ;; esac
    [[ $base == slow-unit-* ]] && kind=slow-unit
    local report; report=$(mktemp)
    # shellcheck disable=SC2046
    env $(sanitizer_env) timeout 60 "$bin" $(engine_args "$engine") "$f" >"$report" 2>&1 || true
    local frames hash sha what top
    frames=$(app_frames "$report")
    top=$(head -1 <<<"$frames")
    hash=$(printf '%s\n' "${frames:-$kind}" | sha1sum | cut -c1-8)
    sha=$(sha1sum <"$f" | cut -c1-12)
    what=$(bug_kind "$report" "$kind")
    local new="$dir/$kind-$t-$label-$hash-$sha"
    if [[ $f != "$new" ]]; then
        if [[ -e $new ]]; then rm -f "$f"; else mv "$f" "$new"; fi
    fi
    mv "$report" "$new.report"
    {
        echo "target=$t"
        echo "engine=$engine"
        echo "sanitizer=$label"
        echo "kind=$kind"
        echo "what=$what"
        echo "top_frame=${top:-unknown}"
        echo "stack_hash=$hash"
        echo "binary=$bin"
        echo "found=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "engine_command=$(sanitizer_env) $bin $(engine_args "$engine") $new"
        echo "reproduce=fuzz/fuzz reproduce ${new#"$ROOT"/}"
    } >"$new.meta"
    echo "$new"
}

# count_kinds PATH...: sets LAST_CRASHES/LAST_TIMEOUTS/LAST_OOMS/LAST_LEAKS.
count_kinds() {
    LAST_CRASHES=0 LAST_TIMEOUTS=0 LAST_OOMS=0 LAST_LEAKS=0
    local f
    for f in "$@"; do
        case $(basename "$f") in
            crash-*) LAST_CRASHES=$((LAST_CRASHES + 1)) ;;
            timeout-*) LAST_TIMEOUTS=$((LAST_TIMEOUTS + 1)) ;;
            oom-*) LAST_OOMS=$((LAST_OOMS + 1)) ;;
            leak-*) LAST_LEAKS=$((LAST_LEAKS + 1)) ;;
        esac
    done
}

# target_of_file FILE: the fuzz target FILE belongs to, from its .meta, its
# path (corpus/<t>/, fuzz-work/<t>/) or its name (<kind>-<t>-...).
target_of_file() {
    local f=$1 t m
    m=$(meta_get "$f" target)
    [[ -n $m ]] && { echo "$m"; return 0; }
    local abs; abs=$(realpath "$f")
    for t in $(targets) planted_bug; do
        case $abs in
            */corpus/$t/*|*/fuzz-work/$t/*|*/nightly/*/$t/*) echo "$t"; return 0 ;;
        esac
        case $(basename "$abs") in
            *-"$t"-*|"$t"-*|*-"$t") echo "$t"; return 0 ;;
        esac
    done
    return 1
}

# cmd_reproduce CRASH_FILE: rebuild what found it (if needed), print the exact
# command, run it. Exit 1 when the input still fails (the report is shown),
# 0 when it no longer does (fixed: fold it into corpus/<target>/regressions/).
cmd_reproduce() {
    [[ $# -eq 1 ]] || die "reproduce takes one CRASH_FILE"
    local f=$1 t engine label bin
    [[ -f $f ]] || die "no such file: $f"
    f=$(realpath "$f")
    t=$(target_of_file "$f") || die "cannot tell the target of $f (name it <kind>-<target>-..., or write $f.meta with target=...)"
    engine=$(meta_get "$f" engine); engine=${engine:-libfuzzer}
    label=$(meta_get "$f" sanitizer); label=${label:-asan-ubsan}
    local planted; planted=$(meta_get "$f" planted)
    if [[ -n $planted ]]; then
        # Found by a planted self-test build (RSV_SELFTEST_PLANT): only that
        # build has the divergence.
        bin=$(meta_get "$f" binary)
        if [[ ! -x $bin ]]; then selftest_build_plant "$engine" "$planted"; bin=$SELFTEST_BIN; fi
    elif targets | grep -qx "$t"; then
        configure_and_build "$engine" "$label"
        bin="$BIN_DIR/$t"
    else
        # Not a production target (the planted-bug self-test): use what built it.
        bin=$(meta_get "$f" binary)
        if [[ ! -x $bin ]]; then selftest_build_toy "$engine"; bin=$SELFTEST_BIN; fi
    fi
    local cmd
    # shellcheck disable=SC2206
    cmd=(env $(sanitizer_env) "$bin" $(engine_args "$engine") "$f")
    echo "fuzz: target $t, engine $engine, sanitizer $label${f:+, stack hash $(meta_get "$f" stack_hash)}"
    echo "+ ${cmd[*]:1}"
    local rc=0
    "${cmd[@]}" || rc=$?
    if (( rc != 0 )); then
        echo "fuzz: reproduced (exit $rc)"
        return 1
    fi
    echo "fuzz: did not reproduce (exit 0): fixed? fold it in with fuzz/fuzz minimize $t"
    return 0
}
