# fuzz/lib/corpus.sh — sourced by fuzz/fuzz: corpus minimization and the
# shellcheck shell=bash
# crash → regression flow.

# merge_corpus BINARY TARGET OUTDIR INPUT_DIRS...: libFuzzer -merge=1 of the
# inputs into a fresh OUTDIR (a small set with the same coverage edges); files
# that came from corpus/TARGET/ keep their descriptive names.
# -use_counters=0: the features are the edges alone, not their hit-count
# buckets, so the set keeps one input per edge (an eighth to a tenth of the
# inputs a counter merge keeps, same edges); RSV_MERGE_COUNTERS=1 merges with
# counters.
merge_corpus() {
    local bin=$1 t=$2 out=$3; shift 3
    local work="$WORK_ROOT/$t"
    mkdir -p "$work/merge-artifacts" # inputs that crash the merge: already reported by the run
    rm -rf "$out"; mkdir -p "$out"
    local cmd=("$bin" -merge=1 "-use_counters=${RSV_MERGE_COUNTERS:-0}" -timeout=10 -rss_limit_mb=2048
        "-max_len=$(max_len_for "$t")" "-artifact_prefix=$work/merge-artifacts/" "$out")
    local d
    for d in "$@"; do [[ -d $d ]] && cmd+=("$d"); done
    echo "+ ${cmd[*]}"
    ASAN_OPTIONS="$RUN_ASAN_OPTIONS${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    UBSAN_OPTIONS="$RUN_UBSAN_OPTIONS${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
        "${cmd[@]}" >"$work/merge.log" 2>&1 || { tail -20 "$work/merge.log" >&2; die "$t: merge failed (log $work/merge.log)"; }
    # libFuzzer names merged files by their SHA-1: restore checked-in names.
    local f sha
    if [[ -d $ROOT/corpus/$t ]]; then
        while IFS= read -r -d '' f; do
            sha=$(sha1sum <"$f" | cut -d' ' -f1)
            # (a grown input is already named by its SHA-1: nothing to rename)
            [[ -f $out/$sha && $sha != "$(basename "$f")" ]] && mv "$out/$sha" "$out/$(basename "$f")"
        done < <(find "$ROOT/corpus/$t" -maxdepth 1 -type f ! -name '.*' -print0)
        # The scratch corpus was seeded with regressions/ too: no top-level
        # copy of a file that regressions/ keeps anyway (it is replayed there).
        while IFS= read -r -d '' f; do
            sha=$(sha1sum <"$f" | cut -d' ' -f1)
            [[ -f $out/$sha ]] && rm -f "$out/$sha"
        done < <(find "$ROOT/corpus/$t/regressions" -type f ! -name '.*' -print0 2>/dev/null)
    fi
    return 0
}

# stage_checked_in TARGET DIR: copy corpus/TARGET/ without regressions/ into
# DIR (regressions stay out of the merge: they are kept as they are).
stage_checked_in() {
    mkdir -p "$2"
    [[ -d $ROOT/corpus/$1 ]] || return 0
    find "$ROOT/corpus/$1" -type f ! -name '.*' ! -path "*/regressions/*" -exec cp -t "$2" {} +
}

# stage_afl_queue TARGET DIR: the AFL++ queues of the last AFL run (renamed:
# afl's id:... names contain ':' and ',').
stage_afl_queue() {
    mkdir -p "$2"
    local f n=0
    while IFS= read -r -d '' f; do cp "$f" "$2/afl$((n++))"; done \
        < <(find "$WORK_ROOT/$1/afl/out" -path '*/queue/id:*' -type f -print0 2>/dev/null)
}

# replace_corpus TARGET DIR: corpus/TARGET/ := DIR (regressions/ untouched).
replace_corpus() {
    local dst="$ROOT/corpus/$1"
    mkdir -p "$dst"
    find "$dst" -maxdepth 1 -type f ! -name '.*' -delete
    find "$2" -maxdepth 1 -type f -exec cp -t "$dst" {} +
}

# regression_name ARTIFACT: what it caught, from its .meta:
# <bug class>-in-<top frame>-<stack hash> (e.g. heap-buffer-overflow-in-rsv_read_eg-1a2b3c4d).
regression_name() {
    local f=$1 what top hash
    what=$(meta_get "$f" what) top=$(meta_get "$f" top_frame) hash=$(meta_get "$f" stack_hash)
    if [[ -n $what ]]; then
        echo "$what${top:+-in-$top}-${hash:-$(sha1sum <"$f" | cut -c1-8)}" | tr -c 'A-Za-z0-9_.\n-' '_'
    else
        echo "crash-$(sha1sum <"$f" | cut -c1-12)"
    fi
}

# fold_regressions TARGET ALL: copy the target's artifacts into
# corpus/TARGET/regressions/ — those that no longer fail in the replay build
# (fixed), or all of them when ALL=1. Content already there is skipped.
fold_regressions() {
    local t=$1 all=$2 regr="$ROOT/corpus/$1/regressions" f name
    local arts; arts=$(list_artifacts "$WORK_ROOT/$t/artifacts" | grep -v '/slow-unit-' || true)
    [[ -n $arts ]] || { echo "fuzz: $t: no crash reproducers to fold"; return 0; }
    configure_and_build replay asan-ubsan
    local known=""
    [[ -d $regr ]] && known=$(find "$regr" -type f -exec sha1sum {} + | cut -d' ' -f1)
    while IFS= read -r f; do
        grep -qx "$(sha1sum <"$f" | cut -d' ' -f1)" <<<"$known" && continue
        # shellcheck disable=SC2046
        if ! env $(sanitizer_env) timeout 60 "$BIN_DIR/$t" "$f" >/dev/null 2>&1 && [[ $all != 1 ]]; then
            note "$t: $(basename "$f") still fails: not folded (fix it, then run minimize again;"
            note "    fuzz/fuzz reproduce $f shows the report)"
            continue
        fi
        name=$(regression_name "$f")
        mkdir -p "$regr"
        cp "$f" "$regr/$name"
        known+=$'\n'"$(sha1sum <"$f" | cut -d' ' -f1)"
        echo "fuzz: $t: folded $(basename "$f") -> corpus/$t/regressions/$name"
    done <<<"$arts"
}

# cmd_minimize TARGET [--all-crashes]
cmd_minimize() {
    [[ $# -ge 1 ]] || die "minimize needs a TARGET"
    local t=$1 all=0; shift
    check_target "$t"
    case ${1:-} in --all-crashes) all=1 ;; "") ;; *) die "minimize: unexpected argument '$1'" ;; esac
    configure_and_build libfuzzer asan-ubsan
    local stage="$WORK_ROOT/$t/minimize" before
    rm -rf "$stage"
    stage_checked_in "$t" "$stage/checked-in"
    stage_afl_queue "$t" "$stage/afl"
    before=$(count_files "$stage/checked-in")
    merge_corpus "$BIN_DIR/$t" "$t" "$stage/merged" "$stage/checked-in" "$WORK_ROOT/$t/corpus" "$stage/afl"
    local after; after=$(count_files "$stage/merged")
    (( after > 0 )) || die "$t: the merge produced no inputs; corpus/$t/ left unchanged"
    replace_corpus "$t" "$stage/merged"
    echo "fuzz: corpus/$t/: $before -> $after files (regressions/ unchanged)"
    fold_regressions "$t" "$all"
    echo "fuzz: review with git status corpus/$t/; ctest replays it (fuzz_replay_$t)"
}
