#!/usr/bin/env bash
# Command-line tests of the rsv file commands: cli_kv03_test.sh RSV GROUP
#
# Expected values come from the specs, never from rsv's output:
#  - the 360-byte file of KV03.md §12.3, the empty 320-byte file and the §12.4
#    variants (Golomb m = 7; W = 2, K = 3) typed in below as hex / patches;
#  - stat numbers and section offsets from §12.1-§12.2;
#  - error names and messages from KV03.md §8, walk positions derived by hand
#    (comments at each case);
#  - fixtures, count streams and their bit lengths computed independently in
#    python3 from WORKLOADS.md §1, §3, §4 and CODES.md §3-§4 (mix() checked
#    against the spec's sanity values first).
# Shared data (spec vectors) and helpers (runner, expectations, python3
# generators): cli_kv03_lib.sh, next to this script.
# shellcheck source=cli_kv03_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_kv03_lib.sh"

# ---- groups ------------------------------------------------------------------

group_kv_help() {
  local c
  for c in dump verify stat write merge gen-fixture gen-counts; do
    run "$c" --help
    expect_rc 0 "rsv $c --help"
    grep -q "^Usage: rsv $c" "$TMP/out" || fail "rsv $c --help: no 'Usage: rsv $c' line"
    [[ -s $TMP/err ]] && fail "rsv $c --help: stderr not empty"
    run --help
    grep -q "^  $c " "$TMP/out" || fail "rsv --help does not list $c"
  done
  # usage errors: exit 2, INVALID_ARGUMENT, nothing on stdout
  local -a cases=(
    "dump" "dump --frob x.kv" "dump --hex --json x.kv" "dump a.kv b.kv"
    "verify" "verify --json x.kv" "stat" "stat --hex x.kv"
    "write in.tsv out.kv" "write --from csv in.tsv out.kv" "write --from tsv in.tsv"
    "write --from tsv --policy fixed:3 in out" "write --from tsv --policy rice:2 in out"
    "write --from tsv --block x in out" "write --from tsv --selector 012 in out"
    "merge" "merge out.kv a.kv" "merge --frob out.kv a.kv b.kv" "merge a.kv a.kv b.kv"
    "gen-fixture prefix 6" "gen-fixture suffix 6 o.kv" "gen-fixture prefix 7 o.kv"
    "gen-fixture --records -1 prefix 6 o.kv" "gen-fixture --split halves prefix 6 o.kv"
    "gen-fixture --older a.kv prefix 6 o.kv" "gen-fixture --records 4294967297 hash 6 o.kv"
    "gen-counts eg0-small" "gen-counts eg5 o.bin" "gen-counts --values x g7 o.bin"
  )
  local args
  for args in "${cases[@]}"; do
    (cd "$TMP" && "$RSV" $args >out 2>err </dev/null)
    rc=$?
    checks=$((checks + 1))
    expect_rc 2 "usage: rsv $args"
    expect_out "" "usage: rsv $args"
    expect_err RSV_ERR_INVALID_ARGUMENT "usage: rsv $args"
    grep -q "^Try 'rsv " "$TMP/err" || fail "usage: rsv $args: no 'Try' hint"
  done
  [[ -e $TMP/o.kv || -e $TMP/o.bin || -e $TMP/out.kv ]] && fail "a usage error created an output file"
}

group_kv_write() {
  spec_inputs
  run write --from tsv "$TMP/ex.tsv" "$TMP/w.kv"
  expect_rc 0 "write §12 TSV"
  expect_out "" "write §12 TSV"
  same_file "$TMP/w.kv" "$TMP/spec.kv" "write §12 TSV = KV03.md §12.3"
  # --from FILE.tsv names input and form at once
  run write --from "$TMP/ex.tsv" "$TMP/wf.kv"
  expect_rc 0 "write --from FILE.tsv"
  same_file "$TMP/wf.kv" "$TMP/spec.kv" "write --from FILE.tsv = KV03.md §12.3"
  # standard input, explicit default policy
  run_in "$TMP/ex.tsv" write --from tsv --policy eg:0 --block 15 --group 15 --selector 0 - "$TMP/w2.kv"
  expect_rc 0 "write from stdin"
  same_file "$TMP/w2.kv" "$TMP/spec.kv" "write from stdin, explicit default policy"
  # JSONL with both byte forms ("yz" = 79 7a as hex)
  printf '%s\n' '{"key": "a", "value": "x"}' '{"value": null, "key": "ab"}' '' \
    '{"key": {"hex": "62"}, "value": ""}' '{"key":"b\u0061","value":{"hex":"797A"}}' >"$TMP/ex.jsonl"
  run write --from jsonl "$TMP/ex.jsonl" "$TMP/j.kv"
  expect_rc 0 "write §12 JSONL"
  same_file "$TMP/j.kv" "$TMP/spec.kv" "write §12 JSONL = KV03.md §12.3"
  # escapes: TSV "\x61" = a, "\x62\x61" = ba
  printf '\\x61\tx\nab\t\\N\nb\t\n\\x62a\t\\x79z\n' >"$TMP/esc.tsv"
  run write --from tsv "$TMP/esc.tsv" "$TMP/e.kv"
  expect_rc 0 "write escaped TSV"
  same_file "$TMP/e.kv" "$TMP/spec.kv" "write escaped TSV"
  # --sort of a shuffled input
  printf 'ba\tyz\nb\t\na\tx\nab\t\\N\n' >"$TMP/shuf.tsv"
  run write --from tsv "$TMP/shuf.tsv" "$TMP/s.kv"
  expect_rc 1 "unsorted input without --sort"
  expect_err RSV_ERR_UNSORTED "unsorted input" "line 2: key is not greater than the key on line 1 (use --sort to sort the input)"
  [[ -e $TMP/s.kv ]] && fail "unsorted input left an output file"
  run write --from tsv --sort "$TMP/shuf.tsv" "$TMP/s.kv"
  expect_rc 0 "write --sort"
  same_file "$TMP/s.kv" "$TMP/spec.kv" "write --sort"
  printf 'a\tx\nb\ty\na\tz\n' >"$TMP/dup.tsv"
  run write --from tsv --sort "$TMP/dup.tsv" "$TMP/d.kv"
  expect_rc 1 "duplicate keys with --sort"
  expect_err RSV_ERR_UNSORTED "duplicate keys" "line 3: duplicate key (also on line 1)"
  # N = 0: the empty file of §12.4
  : >"$TMP/none.tsv"
  run write --from tsv "$TMP/none.tsv" "$TMP/n.kv"
  expect_rc 0 "write empty input"
  same_file "$TMP/n.kv" "$TMP/empty.kv" "empty input = KV03.md §12.4 empty file"
  # §12.4 Golomb m = 7: data, EF low, byte 18 = 1, parameter 7, extent and U 99, CRCs
  cp "$TMP/spec.kv" "$TMP/g7.exp"
  patch "$TMP/g7.exp" 288 42 58 69 e2 09 62 31 dc 12 c3 6f 2f 40
  patch "$TMP/g7.exp" 304 60
  patch "$TMP/g7.exp" 18 01
  patch "$TMP/g7.exp" 88 07
  patch "$TMP/g7.exp" 104 63   # directory data extent 99 (96 + 8)
  patch "$TMP/g7.exp" 120 63   # directory U 99 (96 + 24)
  patch "$TMP/g7.exp" 64 11 8b 55 0a ce bb 07 9e
  run write --from tsv --policy golomb:7 "$TMP/ex.tsv" "$TMP/g7.kv"
  expect_rc 0 "write golomb:7"
  same_file "$TMP/g7.kv" "$TMP/g7.exp" "write golomb:7 = §12.4 Golomb variant"
  # §12.4 W = 2, K = 3: data byte 6 = 21, low word 0x5e0, high 0x25, W 2, K 3, CRCs
  cp "$TMP/spec.kv" "$TMP/w2.exp"
  patch "$TMP/w2.exp" 294 21
  patch "$TMP/w2.exp" 304 e0 05
  patch "$TMP/w2.exp" 312 25
  patch "$TMP/w2.exp" 20 02
  patch "$TMP/w2.exp" 24 03
  patch "$TMP/w2.exp" 64 c6 8c 75 5b 08 98 63 76
  run write --from tsv --block 2 --group 3 "$TMP/ex.tsv" "$TMP/w2k3.kv"
  expect_rc 0 "write W=2 K=3"
  same_file "$TMP/w2k3.kv" "$TMP/w2.exp" "write --block 2 --group 3 = §12.4 variant"
  # --group alone sets W = K (KV03.md §3.1 default): K = 3 gives W = 3, not 15
  run write --from tsv --group 3 "$TMP/ex.tsv" "$TMP/k3.kv"
  expect_rc 0 "write --group 3"
  run stat "$TMP/k3.kv"
  grep -q -x 'policy: B=eg:0 W=3 K=3' "$TMP/out" || fail "--group 3 without --block: $(grep policy "$TMP/out")"
  # codec rejections: exit 1, no file
  run write --from tsv --group 4 "$TMP/ex.tsv" "$TMP/bad.kv"
  expect_rc 1 "K = 4"
  expect_err RSV_ERR_BAD_POLICY "K = 4"
  run write --from tsv --policy eg:64 "$TMP/ex.tsv" "$TMP/bad.kv"
  expect_rc 1 "eg:64"
  expect_err RSV_ERR_BAD_BACKSPACE "eg:64"
  run write --from tsv --policy golomb:0 "$TMP/ex.tsv" "$TMP/bad.kv"
  expect_rc 1 "golomb:0"
  expect_err RSV_ERR_BAD_BACKSPACE "golomb:0"
  run write --from tsv --selector "$(printf '%0513d' 0)" "$TMP/ex.tsv" "$TMP/bad.kv"
  expect_rc 1 "513-bit selector"
  expect_err RSV_ERR_TOO_LARGE "513-bit selector"
  [[ -e $TMP/bad.kv ]] && fail "a rejected policy left an output file"
  # malformed input text: exit 1 with the line and column
  local -a bad=($'a\\q\tx' $'ax' $'a\tx\ty' $'a\t\\x4' $'\\N\tx')
  local b
  for b in "${bad[@]}"; do
    printf 'A\t1\n%s\n' "$b" >"$TMP/bad.tsv"
    run write --from tsv "$TMP/bad.tsv" "$TMP/bad.kv"
    expect_rc 1 "malformed TSV '$b'"
    expect_err RSV_ERR_INVALID_ARGUMENT "malformed TSV '$b'"
    grep -q "line 2 column" "$TMP/err" || fail "malformed TSV '$b': no line 2 in '$(cat "$TMP/err")'"
  done
  local -a badj=('{"key": "a"}' '{"key": "a", "value": 1}' '{"key": "a", "value": "x", "v": 1}'
                 '{"key": "a", "value": {"hex": "6"}}' '{"key": "a", "value": "x"} x' '["a", "x"]'
                 '{"key": "\ud800", "value": null}' '{"key": "a", "key": "b", "value": null}')
  for b in "${badj[@]}"; do
    printf '%s\n' "$b" >"$TMP/bad.jsonl"
    run write --from jsonl "$TMP/bad.jsonl" "$TMP/bad.kv"
    expect_rc 1 "malformed JSONL '$b'"
    expect_err RSV_ERR_INVALID_ARGUMENT "malformed JSONL '$b'"
  done
  [[ -e $TMP/bad.kv ]] && fail "malformed input left an output file"
  run write --from tsv "$TMP/missing.tsv" "$TMP/bad.kv"
  expect_rc 1 "missing input"
  expect_err RSV_ERR_IO "missing input"
}

group_kv_dump() {
  spec_inputs
  # the §12 records, three value states apart
  run dump "$TMP/spec.kv"
  expect_rc 0 "dump"
  expect_out $'"a"\t"x"\n"ab"\t(tombstone)\n"b"\t""\n"ba"\t"yz"\n' "dump"
  run dump --hex "$TMP/spec.kv"
  expect_rc 0 "dump --hex"
  expect_out $'61\t78\n6162\t(tombstone)\n62\t""\n6261\t797a\n' "dump --hex"
  run dump --json "$TMP/spec.kv"
  expect_rc 0 "dump --json"
  expect_out '{"key": "a", "value": "x"}
{"key": "ab", "value": null}
{"key": "b", "value": ""}
{"key": "ba", "value": "yz"}
' "dump --json"
  run dump --tsv "$TMP/spec.kv"
  expect_out $'a\tx\nab\t\\N\nb\t\nba\tyz\n' "dump --tsv"
  run dump "$TMP/empty.kv"
  expect_rc 0 "dump of the empty file"
  expect_out "" "dump of the empty file"
  # escaping: key 00 22 5c 41 ff, value 0a 7f 7e
  printf '\\x00"\\\\A\\xff\t\\n\\x7f~\n' >"$TMP/odd.tsv"
  run write --from tsv "$TMP/odd.tsv" "$TMP/odd.kv"
  expect_rc 0 "write odd bytes"
  run dump "$TMP/odd.kv"
  expect_out $'"\\x00\\"\\\\A\\xff"\t"\\x0a\\x7f~"\n' "dump escapes"
  run dump --json "$TMP/odd.kv"
  expect_out '{"key": {"hex": "00225c41ff"}, "value": "\u000a\u007f~"}
' "dump --json byte forms"
  run dump --tsv "$TMP/odd.kv"
  expect_out $'\\x00"\\\\A\\xff\t\\n\\x7f~\n' "dump --tsv escapes"
  # a walk failure: records before it printed, then record/bit (see kv_verify)
  cp "$TMP/spec.kv" "$TMP/r2.kv"
  patch "$TMP/r2.kv" 294 29
  reseal "$TMP/r2.kv"
  run dump "$TMP/r2.kv"
  expect_rc 1 "dump of a bad record 2"
  expect_out $'"a"\t"x"\n"ab"\t(tombstone)\n' "dump stops before record 2"
  expect_err RSV_ERR_KEY_ENDS_INSIDE_BYTE "dump of a bad record 2" "record 2, data-stream bit 59 (file byte 295)"
  run dump "$TMP/nonexistent.kv"
  expect_rc 1 "dump of a missing file"
  expect_err RSV_ERR_IO "dump of a missing file"
}

group_kv_verify() {
  spec_inputs
  run verify "$TMP/spec.kv"
  expect_rc 0 "verify §12.3"
  expect_out $'ok: 4 records\n' "verify §12.3"
  run verify "$TMP/empty.kv"
  expect_out $'ok: 0 records\n' "verify empty file"
  # open checks (KV03.md §9.1) with the field's file byte offset
  cp "$TMP/spec.kv" "$TMP/c.kv"; patch "$TMP/c.kv" 0 46
  run verify "$TMP/c.kv"
  expect_rc 1 "bad magic"
  expect_err RSV_ERR_BAD_MAGIC "bad magic" "open: file byte 0 (magic)"
  cp "$TMP/spec.kv" "$TMP/c.kv"; patch "$TMP/c.kv" 8 02
  run verify "$TMP/c.kv"
  expect_err RSV_ERR_BAD_VERSION "version 2" "open: file byte 8 (version)"
  cp "$TMP/spec.kv" "$TMP/c.kv"; patch "$TMP/c.kv" 70 00
  run verify "$TMP/c.kv"
  expect_rc 1 "header CRC byte"
  expect_err RSV_ERR_HEADER_CRC "header CRC byte" "open: file byte 68 (header CRC32C)"
  cp "$TMP/spec.kv" "$TMP/c.kv"; patch "$TMP/c.kv" 20 00   # W = 0, CRC then fails first
  run verify "$TMP/c.kv"
  expect_err RSV_ERR_HEADER_CRC "W = 0 unsealed"
  reseal "$TMP/c.kv"
  run verify "$TMP/c.kv"
  expect_err RSV_ERR_BAD_POLICY "W = 0 resealed" "open: file byte 20 (codec block W)"
  head -c 359 "$TMP/spec.kv" >"$TMP/c.kv"
  run verify "$TMP/c.kv"
  expect_err RSV_ERR_FILE_SIZE "359 bytes" "open: file byte 80 (total file bytes = 360, file has 359 bytes)"
  head -c 50 "$TMP/spec.kv" >"$TMP/c.kv"
  run verify "$TMP/c.kv"
  expect_err RSV_ERR_TRUNCATED_HEADER "50 bytes" "open: file is 50 bytes, the header needs 96"
  # scan checks (§9.2): body CRC over bytes 96.. (data byte 12 = file byte 300)
  cp "$TMP/spec.kv" "$TMP/c.kv"; patch "$TMP/c.kv" 300 ff
  run verify "$TMP/c.kv"
  expect_rc 1 "body byte"
  expect_out "" "body byte"
  expect_err RSV_ERR_BODY_CRC "body byte" "scan: file byte 64 (body CRC32C over file bytes 96..360)"
  # same byte with resealed CRCs: the 7 padding bits after the 97-bit extent
  reseal "$TMP/c.kv"
  run verify "$TMP/c.kv"
  expect_err RSV_ERR_NONZERO_PADDING "padding" "scan: file byte 300 (last byte of section 0, data)"
  # walk errors: data bit 0 set → record 0's control EG0 reads `1` = 0 < c = 1,
  # reader after 1 bit (§3.3 step 2)
  cp "$TMP/spec.kv" "$TMP/c.kv"; patch "$TMP/c.kv" 288 c2; reseal "$TMP/c.kv"
  run verify "$TMP/c.kv"
  expect_err RSV_ERR_RETAINED_PRECEDES_CODE "record 0 control" "record 0, data-stream bit 1 (file byte 288)"
  # record 2 starts at bit 30 + 17 = 47; its control `0001011` ends at bit 53,
  # the LSB-2 of data byte 6 (2d). 2d → 29 makes it `0001010` = 9: R = 8,
  # local 7, S = `011` = 2, literal bits 57-58, (7 + 2) mod 8 ≠ 0 at bit 59.
  cp "$TMP/spec.kv" "$TMP/c.kv"; patch "$TMP/c.kv" 294 29; reseal "$TMP/c.kv"
  run verify "$TMP/c.kv"
  expect_rc 1 "record 2 key"
  expect_err RSV_ERR_KEY_ENDS_INSIDE_BYTE "record 2 key" "record 2, data-stream bit 59 (file byte 295)"
  run verify "$TMP/nonexistent.kv"
  expect_rc 1 "missing file"
  expect_err RSV_ERR_IO "missing file"
}

group_kv_stat() {
  spec_inputs
  run stat "$TMP/spec.kv"
  expect_rc 0 "stat §12.3"
  local want
  want="file: $TMP/spec.kv
file-bytes: 360
records: 4
blocks: 1
tombstones: 1
present-empty: 1
present-nonempty: 2
data-extent-bits: 97
bits-per-record: 24.250
policy: B=eg:0 W=15 K=15
selector-bits: 1
selector: 0
common-width: absent
terminal-key-bits: 17
ef-universe: 97
ef-low-width: 5
section 0 data: offset 192 length 13
section 1 ef-low: offset 208 length 8
section 2 ef-high: offset 216 length 8
section 3 ef-samples: offset 224 length 16
section 4 ef-sparse: offset 240 length 0
section 5 dictionary: offset 240 length 1
section 6 dict-offsets: offset 248 length 16
section 7 seeds: offset 264 length 0
"
  expect_out "$want" "stat §12.3 (numbers of §12.1, §12.2)"
  run stat --json "$TMP/spec.kv"
  expect_rc 0 "stat --json"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
exp = {"file_bytes": 360, "records": 4, "blocks": 1, "tombstones": 1, "present_empty": 1,
       "present_nonempty": 2, "data_extent_bits": 97, "bits_per_record": 24.25,
       "policy": {"B": "eg:0", "W": 15, "K": 15}, "selector_bits": 1, "selector": "0",
       "common_width": None, "terminal_key_bits": 17, "ef_universe": 97, "ef_low_width": 5}
for k, v in exp.items():
    assert d[k] == v, (k, d[k], v)
offs = [(s["offset"], s["length"]) for s in d["sections"]]
assert offs == [(192, 13), (208, 8), (216, 8), (224, 16), (240, 0), (240, 1), (248, 16), (264, 0)], offs
' "$TMP/out" || fail "stat --json: $(cat "$TMP/out")"
  # the empty file: cw present = 0, m = 0 (§12.4)
  run stat --json "$TMP/empty.kv"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["records"] == 0 and d["blocks"] == 0 and d["common_width"] == 0, d
assert d["selector_bits"] == 0 and d["bits_per_record"] is None, d
assert [s["offset"] for s in d["sections"]] == [192, 192, 192, 200, 216, 216, 216, 224], d
' "$TMP/out" || fail "stat --json empty: $(cat "$TMP/out")"
  # all tombstones ("a"→⊥, "b"→⊥, §12.4): cw = 1
  printf 'a\t\\N\nb\t\\N\n' >"$TMP/t.tsv"
  run write --from tsv "$TMP/t.tsv" "$TMP/t.kv"
  run stat "$TMP/t.kv"
  grep -q -x 'common-width: 1' "$TMP/out" || fail "all-tombstone cw"
  grep -q -x 'data-extent-bits: 28' "$TMP/out" || fail "all-tombstone extent"
  grep -q -x 'file-bytes: 352' "$TMP/out" || fail "all-tombstone size"
}

group_kv_merge() {
  spec_inputs
  run write --from tsv "$TMP/older.tsv" "$TMP/o.kv"
  run write --from tsv "$TMP/newer.tsv" "$TMP/n.kv"
  run merge "$TMP/m.kv" "$TMP/o.kv" "$TMP/n.kv"
  expect_rc 0 "merge halves"
  expect_out "" "merge halves"
  same_file "$TMP/m.kv" "$TMP/spec.kv" "merge of the §12 halves = §12.3"
  # newest wins: older "b"→"" is replaced by a newer tombstone, then dropped
  printf 'b\t\\N\n' >"$TMP/t.tsv"
  run write --from tsv "$TMP/t.tsv" "$TMP/t.kv"
  run merge "$TMP/m2.kv" "$TMP/spec.kv" "$TMP/t.kv"
  run dump "$TMP/m2.kv"
  expect_out $'"a"\t"x"\n"ab"\t(tombstone)\n"b"\t(tombstone)\n"ba"\t"yz"\n' "merge: newer tombstone wins"
  run merge --drop-tombstones "$TMP/m3.kv" "$TMP/spec.kv" "$TMP/t.kv"
  expect_rc 0 "merge --drop-tombstones"
  run dump "$TMP/m3.kv"
  expect_out $'"a"\t"x"\n"ba"\t"yz"\n' "merge --drop-tombstones"
  # three inputs, the empty file among them
  run merge "$TMP/m4.kv" "$TMP/empty.kv" "$TMP/o.kv" "$TMP/n.kv"
  expect_rc 0 "merge of three"
  same_file "$TMP/m4.kv" "$TMP/spec.kv" "merge with an empty input"
  # a bad input: non-zero, the input named, no output, inputs untouched
  cp "$TMP/n.kv" "$TMP/bad.kv"
  patch "$TMP/bad.kv" 290 00
  cp "$TMP/bad.kv" "$TMP/bad.copy"
  cp "$TMP/o.kv" "$TMP/o.copy"
  run merge "$TMP/x.kv" "$TMP/o.kv" "$TMP/bad.kv"
  expect_rc 1 "merge with a corrupt input"
  expect_err RSV_ERR_BODY_CRC "merge with a corrupt input" "input #2 '$TMP/bad.kv': scan: file byte 64 (body CRC32C over file bytes 96..360)"
  [[ -e $TMP/x.kv ]] && fail "failed merge left an output file"
  ls "$TMP" | grep -q 'x.kv.tmp' && fail "failed merge left a temporary"
  same_file "$TMP/bad.kv" "$TMP/bad.copy" "failed merge: input 2 untouched"
  same_file "$TMP/o.kv" "$TMP/o.copy" "failed merge: input 1 untouched"
  # walk error in an input with valid CRCs (record 2 as in kv_verify), existing OUT kept
  cp "$TMP/spec.kv" "$TMP/r2.kv"; patch "$TMP/r2.kv" 294 29; reseal "$TMP/r2.kv"
  printf 'keep' >"$TMP/x.kv"
  run merge "$TMP/x.kv" "$TMP/o.kv" "$TMP/r2.kv"
  expect_rc 1 "merge with a bad record"
  expect_err RSV_ERR_KEY_ENDS_INSIDE_BYTE "merge with a bad record" "input #2 '$TMP/r2.kv': record 2, data-stream bit 59 (file byte 295)"
  run merge --no-verify "$TMP/x.kv" "$TMP/o.kv" "$TMP/r2.kv"
  expect_rc 1 "merge --no-verify with a bad record"
  expect_err RSV_ERR_KEY_ENDS_INSIDE_BYTE "merge --no-verify with a bad record" "input #2 '$TMP/r2.kv': record 2, data-stream bit 59 (file byte 295)"
  [[ $(cat "$TMP/x.kv") == keep ]] || fail "failed merge replaced an existing OUT"
  # policy mismatch (§11.2)
  run write --from tsv --policy golomb:7 "$TMP/newer.tsv" "$TMP/g.kv"
  run merge "$TMP/y.kv" "$TMP/o.kv" "$TMP/g.kv"
  expect_rc 1 "policy mismatch"
  expect_err RSV_ERR_MERGE_MISMATCH "policy mismatch" "input #2 '$TMP/g.kv' differs from the earlier inputs"
  [[ -e $TMP/y.kv ]] && fail "mismatched merge left an output file"
  run merge "$TMP/y.kv" "$TMP/o.kv" "$TMP/missing.kv"
  expect_rc 1 "missing input"
  expect_err RSV_ERR_IO "missing input"
  # OUT = an input (by another name) is refused before anything is written
  ln -s "$TMP/o.kv" "$TMP/alias.kv"
  run merge "$TMP/alias.kv" "$TMP/o.kv" "$TMP/n.kv"
  expect_rc 2 "OUT is an input"
  same_file "$TMP/o.kv" "$TMP/o.copy" "OUT = input: input untouched"
}

group_kv_fixture() {
  local shape max n=300 f
  for shape in prefix hash; do
    for max in 6 512; do
      f=$TMP/$shape-$max.kv
      run gen-fixture --records $n "$shape" "$max" "$f"
      expect_rc 0 "gen-fixture $shape $max"
      expect_out "$f: $n records"$'\n' "gen-fixture $shape $max"
      run verify "$f"
      expect_out "ok: $n records"$'\n' "verify $shape-$max"
      run stat "$f"
      # ⌈300/17⌉ = 18 tombstones; W = 15 → 20 blocks; EG0, W = K = 15, C0 = 0
      grep -q -x "records: $n" "$TMP/out" || fail "$shape-$max: records"
      grep -q -x "tombstones: 18" "$TMP/out" || fail "$shape-$max: tombstones"
      grep -q -x "blocks: 20" "$TMP/out" || fail "$shape-$max: blocks"
      grep -q -x "policy: B=eg:0 W=15 K=15" "$TMP/out" || fail "$shape-$max: policy"
      grep -q -x "selector: 0" "$TMP/out" || fail "$shape-$max: selector"
      # every record against the independent generator
      run dump --hex "$f"
      fixture_py "$shape" "$max" "$n" >"$TMP/exp.dump"
      cmp -s "$TMP/out" "$TMP/exp.dump" ||
        fail "gen-fixture $shape $max: dump differs from WORKLOADS.md §4 (first: $(diff "$TMP/out" "$TMP/exp.dump" | head -3))"
      # §4 merge splits: merging (older, newer) reproduces the full file
      run gen-fixture --records $n --split disjoint "$shape" "$max" "$f"
      expect_rc 0 "split disjoint $shape $max"
      run stat "$TMP/$shape-$max-older.kv"
      grep -q -x "records: 150" "$TMP/out" || fail "disjoint older: 150 records (even p)"
      run merge "$TMP/m.kv" "$TMP/$shape-$max-older.kv" "$TMP/$shape-$max-newer.kv"
      expect_rc 0 "merge disjoint $shape $max"
      same_file "$TMP/m.kv" "$f" "merge of the disjoint split $shape-$max"
      run gen-fixture --records $n --split overlap --older "$TMP/ov-o.kv" --newer "$TMP/ov-n.kv" "$shape" "$max" "$f"
      expect_rc 0 "split overlap $shape $max"
      same_file "$TMP/ov-o.kv" "$f" "overlap older = all records"
      run merge "$TMP/m.kv" "$TMP/ov-o.kv" "$TMP/ov-n.kv"
      same_file "$TMP/m.kv" "$f" "merge of the overlap split $shape-$max"
      rm -f "$TMP/m.kv"
    done
  done
  # the default record count is R = 32768 (WORKLOADS.md §2)
  run gen-fixture prefix 6 "$TMP/big.kv"
  expect_out "$TMP/big.kv: 32768 records"$'\n' "gen-fixture default N"
  run verify "$TMP/big.kv"
  expect_out $'ok: 32768 records\n' "verify default fixture"
  run stat "$TMP/big.kv"
  grep -q -x "tombstones: 1928" "$TMP/out" || fail "32768 records: ⌈32768/17⌉ = 1928 tombstones"
  run dump --hex "$TMP/big.kv"
  head -n 5 "$TMP/out" >"$TMP/head.dump"
  fixture_py prefix 6 32768 | head -n 5 >"$TMP/exp.dump"
  same_file "$TMP/head.dump" "$TMP/exp.dump" "first records of the default prefix-6 fixture"
}

group_kv_counts() {
  local c code v=3000
  for c in eg0-small eg0-wide eg3 g7; do
    case $c in eg3) code=eg:3 ;; g7) code=golomb:7 ;; *) code=eg:0 ;; esac
    run gen-counts --values $v "$c" "$TMP/$c.bin"
    expect_rc 0 "gen-counts $c"
    counts_py "$c" $v "$TMP/$c.exp" >"$TMP/$c.line"
    expect_out "$(cat "$TMP/$c.line")"$'\n' "gen-counts $c: bit length line"
    same_file "$TMP/$c.bin" "$TMP/$c.exp" "gen-counts $c bytes"
    # read back from the misaligned offset 3 with the codec's decoder
    run codes decode --code "$code" --offset 3 --count $v "$TMP/$c.bin"
    expect_rc 0 "decode $c"
    cmp -s "$TMP/out" "$TMP/$c.exp.values" || fail "decode $c: values differ from mix(i) AND mask"
  done
  # default V = 8R = 262144 (WORKLOADS.md §2)
  run gen-counts eg0-small "$TMP/def.bin"
  expect_rc 0 "gen-counts default V"
  counts_py eg0-small 262144 "$TMP/def.exp" >"$TMP/def.line"
  expect_out "$(cat "$TMP/def.line")"$'\n' "gen-counts default V line"
  same_file "$TMP/def.bin" "$TMP/def.exp" "gen-counts default V bytes"
}

group_kv_roundtrip() {
  spec_inputs
  local f
  run gen-fixture --records 500 hash 512 "$TMP/h.kv"
  run gen-fixture --records 500 prefix 6 "$TMP/p.kv"
  printf '\\x00"\\\\A\\xff\t\\n\\x7f~\n\\xc3\\xa9\t\\xe2\\x82\\xac\n' >"$TMP/odd.tsv"
  run write --from tsv "$TMP/odd.tsv" "$TMP/odd.kv"
  for f in spec empty h p odd; do
    run dump --json "$TMP/$f.kv"
    expect_rc 0 "dump --json $f"
    cp "$TMP/out" "$TMP/$f.jsonl" # run overwrites $TMP/out
    run write --from jsonl "$TMP/$f.jsonl" "$TMP/$f.rt.kv"
    expect_rc 0 "write --from jsonl $f"
    same_file "$TMP/$f.rt.kv" "$TMP/$f.kv" "dump --json | write --from jsonl ($f)"
    run dump --tsv "$TMP/$f.kv"
    cp "$TMP/out" "$TMP/$f.tsv"
    run write --from tsv "$TMP/$f.tsv" "$TMP/$f.rt2.kv"
    same_file "$TMP/$f.rt2.kv" "$TMP/$f.kv" "dump --tsv | write --from tsv ($f)"
  done
  # through a pipe and --sort (records reversed)
  "$RSV" dump --json "$TMP/h.kv" | tac | "$RSV" write --from jsonl --sort - "$TMP/h.rt3.kv"
  checks=$((checks + 1))
  same_file "$TMP/h.rt3.kv" "$TMP/h.kv" "reversed dump --json | write --sort"
}

run_groups kv_help kv_write kv_dump kv_verify kv_stat kv_merge kv_fixture kv_counts kv_roundtrip
