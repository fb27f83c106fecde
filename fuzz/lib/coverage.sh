# fuzz/lib/coverage.sh — sourced by fuzz/fuzz: source-based coverage of the
# shellcheck shell=bash
# corpus. Build: replay engine, no sanitizer, -fprofile-instr-generate
# -fcoverage-mapping (build/fuzz-replay-none-cov). Output: build/coverage/
#   index.html              links + totals per target and overall
#   all/index.html          llvm-cov HTML of every target's corpus together
#   <target>/index.html     one target's corpus alone; <target>.txt its report
#   report.txt              llvm-cov report of everything (the TOTAL line is printed)
#   codec.txt, codec.tsv    the codec/ figures: lines and branches per file and in
#                           total (fuzz/lib/coverage_codec.py says what is counted)
# With every target measured, exit 1 when the codec/ totals are below
# --min-lines / --min-branches (defaults RSV_COV_MIN_LINES=90,
# RSV_COV_MIN_BRANCHES=80 percent).

LLVM_PROFDATA=${LLVM_PROFDATA:-llvm-profdata-14}
LLVM_COV=${LLVM_COV:-llvm-cov-14}
COV_IGNORE='/usr/|fuzz/driver/'
# codec/ files left out of the codec totals (printed apart with their figures):
# file_io.c and kv03_sink.c (file system and the path-based writer: the
# targets work on memory only) and status.c (rsv_strerror/rsv_status_name, a
# switch over RSV_STATUS_LIST that the targets call only to report a
# divergence: 316 branch outcomes no passing replay can take).
COV_CODEC_EXCLUDE=${RSV_COV_EXCLUDE-file_io.c kv03_sink.c status.c}
# The thresholds (percent of the counted codec/ lines and branch outcomes).
COV_MIN_LINES=${RSV_COV_MIN_LINES:-90}
COV_MIN_BRANCHES=${RSV_COV_MIN_BRANCHES:-80}

# cov_totals REPORT: "lines C/T (P%), regions C/T (P%)" from a TOTAL line.
cov_totals() {
    awk '$1 == "TOTAL" { printf "lines %d/%d (%s), regions %d/%d (%s)\n", $8 - $9, $8, $10, $2 - $3, $2, $4 }' "$1"
}

# cmd_coverage [--extra-corpus DIR] [--min-lines P] [--min-branches P] [TARGET...]:
# DIR/<target>/ is replayed too (nightly passes its minimized corpora).
cmd_coverage() {
    local extra="" tgts=() min_lines=$COV_MIN_LINES min_branches=$COV_MIN_BRANCHES
    while [[ $# -gt 0 ]]; do
        case $1 in
            --extra-corpus) [[ $# -ge 2 ]] || die "--extra-corpus needs a value"; extra=$2; shift 2 ;;
            --min-lines) [[ $# -ge 2 ]] || die "--min-lines needs a value"; min_lines=$2; shift 2 ;;
            --min-branches) [[ $# -ge 2 ]] || die "--min-branches needs a value"; min_branches=$2; shift 2 ;;
            *) check_target "$1"; tgts+=("$1"); shift ;;
        esac
    done
    [[ $min_lines =~ ^[0-9]+(\.[0-9]+)?$ && $min_branches =~ ^[0-9]+(\.[0-9]+)?$ ]] \
        || die "--min-lines / --min-branches: a percentage (got '$min_lines', '$min_branches')"
    # The thresholds apply to the codec coverage of all targets together.
    local gate=1
    # shellcheck disable=SC2207
    [[ ${#tgts[@]} -gt 0 ]] || tgts=($(targets))
    [[ ${#tgts[@]} -eq $(targets | wc -l) ]] || gate=0
    command -v "$LLVM_PROFDATA" >/dev/null && command -v "$LLVM_COV" >/dev/null \
        || die "$LLVM_PROFDATA / $LLVM_COV not found"
    configure_and_build replay none cov
    local out="$BUILD_ROOT/coverage" t objs=() rc=0
    rm -rf "$out"; mkdir -p "$out/profraw"
    for t in "${tgts[@]}"; do
        local inputs=("$ROOT/corpus/$t")
        [[ -n $extra && -d $extra/$t ]] && inputs+=("$extra/$t")
        echo "+ LLVM_PROFILE_FILE=$out/profraw/$t-%p.profraw $BIN_DIR/$t ${inputs[*]}"
        LLVM_PROFILE_FILE="$out/profraw/$t-%p.profraw" "$BIN_DIR/$t" "${inputs[@]}" >"$out/$t.log" 2>&1 \
            || { note "$t: the coverage replay failed (log $out/$t.log)"; rc=1; }
        "$LLVM_PROFDATA" merge -sparse "$out/profraw/$t"-*.profraw -o "$out/$t.profdata"
        "$LLVM_COV" report "$BIN_DIR/$t" -instr-profile="$out/$t.profdata" -ignore-filename-regex="$COV_IGNORE" >"$out/$t.txt"
        "$LLVM_COV" show "$BIN_DIR/$t" -instr-profile="$out/$t.profdata" -ignore-filename-regex="$COV_IGNORE" \
            -format=html -output-dir="$out/$t" -show-line-counts-or-regions
        if (( ${#objs[@]} == 0 )); then objs=("$BIN_DIR/$t"); else objs+=(-object "$BIN_DIR/$t"); fi
        echo "coverage: $t: $(cov_totals "$out/$t.txt")"
    done
    "$LLVM_PROFDATA" merge -sparse "$out"/profraw/*.profraw -o "$out/all.profdata"
    echo "+ $LLVM_COV report ${objs[*]} -instr-profile=$out/all.profdata"
    "$LLVM_COV" report "${objs[@]}" -instr-profile="$out/all.profdata" -ignore-filename-regex="$COV_IGNORE" >"$out/report.txt"
    "$LLVM_COV" show "${objs[@]}" -instr-profile="$out/all.profdata" -ignore-filename-regex="$COV_IGNORE" \
        -format=html -output-dir="$out/all" -show-line-counts-or-regions
    {
        echo "<!doctype html><meta charset=utf-8><title>reservoir fuzz corpus coverage</title>"
        echo "<h1>reservoir: coverage of the fuzz corpus</h1><p>$(date -u +%Y-%m-%dT%H:%M:%SZ)</p><ul>"
        echo "<li><a href=\"all/index.html\">all targets</a>: $(cov_totals "$out/report.txt")</li>"
        for t in "${tgts[@]}"; do
            echo "<li><a href=\"$t/index.html\">$t</a>: $(cov_totals "$out/$t.txt")</li>"
        done
        echo "</ul><p>Text: <a href=\"report.txt\">report.txt</a>, codec/ lines and branches per file: <a href=\"codec.txt\">codec.txt</a>. Regenerate: <code>fuzz/fuzz coverage</code>.</p>"
    } >"$out/index.html"
    echo "coverage: all targets: $(cov_totals "$out/report.txt")"
    echo "+ $LLVM_COV export -summary-only ${objs[*]} -instr-profile=$out/all.profdata"
    "$LLVM_COV" export -summary-only "${objs[@]}" -instr-profile="$out/all.profdata" >"$out/all-summary.json"
    python3 "$ROOT/fuzz/lib/coverage_codec.py" "$out/all-summary.json" "$ROOT" "$min_lines" "$min_branches" \
        "$COV_CODEC_EXCLUDE" "$gate" "$out/codec.tsv" | tee "$out/codec.txt" || rc=1
    echo "coverage: report ${out#"$ROOT"/}/index.html"
    return $rc
}
