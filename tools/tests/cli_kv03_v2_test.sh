#!/usr/bin/env bash
# Command-line tests of KV03 format revision v2 (multi-code files) in rsv:
# cli_kv03_v2_test.sh RSV GROUP
#
# Expected values come from the spec or by hand, never from rsv's output:
#  - the 377-byte file of KV03.md §12.5 (typed in below), its records, its
#    stat numbers (§12.5 text and section table), its merges and its
#    corruption table (record, data-stream bit; file byte = 288 + bit / 8);
#  - error names and messages from KV03.md §8; columns and lines counted by
#    hand (comments at each case);
#  - a random multi-code record set whose order (logical key = code ‖ key
#    bits, §1.2) and expected dump are computed in python3 here.
# Runner, expectations, hexfile/patch/reseal: cli_kv03_lib.sh, next to this script.
# shellcheck source=cli_kv03_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_kv03_lib.sh"
# The v2 names of KV03.md §8.
MSG[RSV_ERR_SELECTOR_PREFIX]="selector code is a prefix of another code"
MSG[RSV_ERR_SORT_TRANSITION]="selector transition to the same code"
MSG[RSV_ERR_PREFIX_CROSSES_CODE]="retained prefix crosses a selector code"
MSG[RSV_ERR_SEED_RANGE]="block seed outside the selector dictionary"
MSG[RSV_ERR_UNUSED_SELECTOR]="selector dictionary code used by no record"
MSG[RSV_ERR_DICTIONARY_ORDER]="selector dictionary not increasing and prefix-free"
MSG[RSV_ERR_DICTIONARY_SHAPE]="dictionary offsets section malformed"

# KV03.md §12.5, the complete multi-code file (377 bytes, W = K = 3, EG0).
SPEC_12_5='
45 56 52 54 2e 4b 56 00 01 00 60 00 00 00 00 00
01 01 00 00 03 00 00 00 03 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
c8 08 00 00 00 00 00 00 06 00 00 00 00 00 00 00
91 e8 4e 83 86 11 05 d9 60 00 00 00 00 00 00 00
79 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00
4b 56 30 33 03 00 08 00 7e 00 00 00 00 00 00 00
12 00 00 00 00 00 00 00 7e 00 00 00 00 00 00 00
05 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00
05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
c0 00 00 00 00 00 00 00 10 00 00 00 00 00 00 00
d0 00 00 00 00 00 00 00 08 00 00 00 00 00 00 00
d8 00 00 00 00 00 00 00 08 00 00 00 00 00 00 00
e0 00 00 00 00 00 00 00 10 00 00 00 00 00 00 00
f0 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
f0 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00
f8 00 00 00 00 00 00 00 20 00 00 00 00 00 00 00
18 01 00 00 00 00 00 00 01 00 00 00 00 00 00 00
42 58 69 e2 25 88 12 bb 12 c3 6f 2f 4d c8 96 1c
a0 7b 00 00 00 00 00 00 25 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff
58 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
01 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00
05 00 00 00 00 00 00 00 20'

# The §12.5 records (code, key, value) as input lines; V2P = the policy.
V2P=(--block 3 --group 3)
v2_inputs() {
  hexfile "$SPEC_12_5" "$TMP/v2.kv"
  printf '%s\n' '{"selector": "0", "key": "a", "value": "x"}' '{"selector": "0", "key": "ab", "value": null}' \
    '{"selector": "10", "key": "", "value": ""}' '{"selector": "11", "key": "a", "value": "yz"}' \
    '{"selector": "11", "key": "b", "value": null}' '{"selector": "11", "key": "ba", "value": ""}' >"$TMP/v2.jsonl"
  printf '0\ta\tx\n0\tab\t\\N\n10\t\t\n11\ta\tyz\n11\tb\t\\N\n11\tba\t\n' >"$TMP/v2.tsv"
}

# no_file PATH DESC : a failed write/merge left neither OUT nor a temporary
no_file() {
  [[ -e $1 ]] && fail "$2: left $1"
  ls "$(dirname "$1")" | grep -q "$(basename "$1").*tmp" && fail "$2: left a temporary of $1"
}

# ---- groups ------------------------------------------------------------------

group_kv2_write() {
  v2_inputs
  run write --from jsonl "${V2P[@]}" "$TMP/v2.jsonl" "$TMP/j.kv"
  expect_rc 0 "write §12.5 JSONL"
  expect_out "" "write §12.5 JSONL"
  same_file "$TMP/j.kv" "$TMP/v2.kv" "write §12.5 JSONL = KV03.md §12.5"
  # the records of code 0 without "selector": the default C0 = 0 applies
  sed -e 's/"selector": "0", //' "$TMP/v2.jsonl" >"$TMP/dflt.jsonl"
  grep -q -c '"selector": "0"' "$TMP/dflt.jsonl" && fail "sed left a selector 0"
  run write --from jsonl "${V2P[@]}" "$TMP/dflt.jsonl" "$TMP/d.kv"
  expect_rc 0 "write §12.5, code 0 by default"
  same_file "$TMP/d.kv" "$TMP/v2.kv" "absent selector = default 0"
  # absent selector = --selector: code 11 given once by option, members elsewhere
  sed -e 's/"selector": "11", //' "$TMP/v2.jsonl" >"$TMP/opt.jsonl"
  run write --from jsonl "${V2P[@]}" --selector 11 "$TMP/opt.jsonl" "$TMP/o.kv"
  expect_rc 0 "write §12.5, code 11 by --selector"
  same_file "$TMP/o.kv" "$TMP/v2.kv" "absent selector = --selector 11"
  # TSV with a selector column
  run write --from tsv --selector-column "${V2P[@]}" "$TMP/v2.tsv" "$TMP/t.kv"
  expect_rc 0 "write §12.5 TSV --selector-column"
  same_file "$TMP/t.kv" "$TMP/v2.kv" "write §12.5 TSV --selector-column = §12.5"
  # --sort, input reversed (streaming and sorting paths)
  tac "$TMP/v2.jsonl" >"$TMP/rev.jsonl"
  run write --from jsonl --sort "${V2P[@]}" "$TMP/rev.jsonl" "$TMP/s.kv"
  expect_rc 0 "write --sort reversed §12.5"
  same_file "$TMP/s.kv" "$TMP/v2.kv" "write --sort reversed §12.5 JSONL"
  tac "$TMP/v2.tsv" >"$TMP/rev.tsv"
  run_in "$TMP/rev.tsv" write --from tsv --selector-column --sort "${V2P[@]}" - "$TMP/s2.kv"
  expect_rc 0 "write --sort reversed §12.5 TSV from stdin"
  same_file "$TMP/s2.kv" "$TMP/v2.kv" "write --sort reversed §12.5 TSV"
  # same key under two codes is not a duplicate (logical keys differ)
  printf '0\tk\t1\n1\tk\t2\n' >"$TMP/two.tsv"
  run write --from tsv --selector-column --sort "$TMP/two.tsv" "$TMP/two.kv"
  expect_rc 0 "same key, two codes"
  run dump "$TMP/two.kv"
  expect_out $'0\t"k"\t"1"\n1\t"k"\t"2"\n' "same key, two codes"
  # one code given per record is the v1 file (§11.1): the §12.3 file
  spec_inputs
  printf '0\ta\tx\n0\tab\t\\N\n0\tb\t\n0\tba\tyz\n' >"$TMP/one.tsv"
  run write --from tsv --selector-column "$TMP/one.tsv" "$TMP/one.kv"
  expect_rc 0 "one code in a selector column"
  same_file "$TMP/one.kv" "$TMP/spec.kv" "one code C0 = 0 per record = §12.3"
  # records with no bytes at all (an arena that never grew): empty key and
  # value, then also the empty code (0 bits, allowed alone, §1.2)
  printf '\t\n' >"$TMP/nil.tsv"
  run write --from tsv "$TMP/nil.tsv" "$TMP/nil.kv"
  expect_rc 0 "empty key and value, streaming"
  run dump "$TMP/nil.kv"
  expect_out $'""\t""\n' "empty key and value"
  printf '\t\t\n' >"$TMP/nil0.tsv"
  run write --from tsv --selector-column "$TMP/nil0.tsv" "$TMP/nil0.kv"
  expect_rc 0 "empty code, key and value"
  run stat "$TMP/nil0.kv"
  grep -q -x 'selector-bits: 0' "$TMP/out" || fail "empty code: $(grep selector "$TMP/out")"
  # §12.5 merge inputs as files: {0, 1, 3} is 369 bytes, {2, 4, 5} 361 bytes
  sed -n '1p;2p;4p' "$TMP/v2.jsonl" >"$TMP/a.jsonl"
  sed -n '3p;5p;6p' "$TMP/v2.jsonl" >"$TMP/b.jsonl"
  run write --from jsonl "${V2P[@]}" "$TMP/a.jsonl" "$TMP/a.kv"
  run write --from jsonl "${V2P[@]}" "$TMP/b.jsonl" "$TMP/b.kv"
  [[ $(stat -c %s "$TMP/a.kv") == 369 ]] || fail "§12.5 input {0, 1, 3}: $(stat -c %s "$TMP/a.kv") bytes, expected 369"
  [[ $(stat -c %s "$TMP/b.kv") == 361 ]] || fail "§12.5 input {2, 4, 5}: $(stat -c %s "$TMP/b.kv") bytes, expected 361"
}

group_kv2_errors() {
  v2_inputs
  local o=$TMP/bad.kv
  # selector characters. `{"selector": "01x", ...`: the string's quote is
  # column 14, so '0' '1' 'x' are columns 15, 16, 17.
  printf '%s\n' '{"selector": "0", "key": "a", "value": "x"}' '{"selector": "01x", "key": "b", "value": "x"}' >"$TMP/e.jsonl"
  run write --from jsonl "$TMP/e.jsonl" "$o"
  expect_rc 1 "JSONL selector 01x"
  expect_err RSV_ERR_INVALID_ARGUMENT "JSONL selector 01x" "'$TMP/e.jsonl' line 2 column 17: selector character 'x' is not 0 or 1"
  no_file "$o" "JSONL selector 01x"
  # with an escape the characters' columns are unknown: the quote (14) is named
  printf '%s\n' '{"selector": "\u0030x", "key": "b", "value": "x"}' >"$TMP/e.jsonl"
  run write --from jsonl "$TMP/e.jsonl" "$o"
  expect_err RSV_ERR_INVALID_ARGUMENT "JSONL selector with an escape" "'$TMP/e.jsonl' line 1 column 14: selector character 'x' is not 0 or 1"
  # a space is a character too, named by its byte
  printf '%s\n' '{"key": "b", "value": "x", "selector": "1 0"}' >"$TMP/e.jsonl"
  # `{"key": "b", "value": "x", "selector": "` is 40 characters: '1' is column 41, ' ' 42
  run write --from jsonl "$TMP/e.jsonl" "$o"
  expect_err RSV_ERR_INVALID_ARGUMENT "JSONL selector '1 0'" "'$TMP/e.jsonl' line 1 column 42: selector character byte 0x20 is not 0 or 1"
  local -a badj=('{"selector": 1, "key": "a", "value": "x"}' '{"selector": "1", "selector": "1", "key": "a", "value": "x"}'
                 '{"selector": null, "key": "a", "value": "x"}' '{"sel": "1", "key": "a", "value": "x"}')
  local b
  for b in "${badj[@]}"; do
    printf '%s\n' "$b" >"$TMP/e.jsonl"
    run write --from jsonl "$TMP/e.jsonl" "$o"
    expect_rc 1 "malformed selector member '$b'"
    expect_err RSV_ERR_INVALID_ARGUMENT "malformed selector member '$b'"
    grep -q -F "'$TMP/e.jsonl' line 1 column " "$TMP/err" || fail "malformed selector member '$b': no line/column"
  done
  no_file "$o" "malformed selectors"
  # too long: 513 bits (KV03.md §1.2 allows rejecting > 512); column 15 is its first character
  printf '{"selector": "%0513d", "key": "a", "value": "x"}\n' 0 >"$TMP/e.jsonl"
  run write --from jsonl "$TMP/e.jsonl" "$o"
  expect_rc 1 "513-bit JSONL selector"
  expect_err RSV_ERR_TOO_LARGE "513-bit JSONL selector" "'$TMP/e.jsonl' line 1 column 15: selector has 513 bits, at most 512 are supported"
  no_file "$o" "513-bit JSONL selector"
  # 512 bits is supported
  printf '{"selector": "%0512d", "key": "a", "value": "x"}\n' 1 >"$TMP/e.jsonl"
  run write --from jsonl "$TMP/e.jsonl" "$TMP/512.kv"
  expect_rc 0 "512-bit JSONL selector"
  run stat "$TMP/512.kv"
  grep -q -x 'selector-bits: 512' "$TMP/out" || fail "512-bit selector: $(grep selector "$TMP/out")"
  # TSV --selector-column: '01x' → 'x' in column 3; no TAB at all in "01" → column 3 (after the end)
  printf '01x\ta\tx\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_err RSV_ERR_INVALID_ARGUMENT "TSV selector 01x" "'$TMP/e.tsv' line 1 column 3: selector character 'x' is not 0 or 1"
  printf '1\ta\tx\n01\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_err RSV_ERR_INVALID_ARGUMENT "TSV selector column alone" "'$TMP/e.tsv' line 2 column 3: no TAB after the selector column (--selector-column)"
  # a selector column given without the option: the second TAB (column 4) is named
  run write --from tsv "$TMP/v2.tsv" "$o"
  expect_err RSV_ERR_INVALID_ARGUMENT "selector column without the option" "'$TMP/v2.tsv' line 1 column 4: more than one TAB (write a TAB inside a field as \\t; a first column of selectors needs --selector-column)"
  # key/value errors after a selector column count columns from the line start:
  # "1<TAB>a\q<TAB>x": the bad escape starts at column 4
  printf '1\ta\\q\tx\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_err RSV_ERR_INVALID_ARGUMENT "escape after a selector column" "'$TMP/e.tsv' line 1 column 4: unknown escape (use \\t \\n \\r \\\\ or \\xHH)"
  printf '%0513d\ta\tx\n' 0 >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_err RSV_ERR_TOO_LARGE "513-bit TSV selector" "'$TMP/e.tsv' line 1 column 1: selector has 513 bits, at most 512 are supported"
  no_file "$o" "TSV selector errors"
  # SELECTOR_PREFIX (§11.1 step 2): "01" after "0"; "1" after the empty code
  printf '0\ta\tx\n01\tb\tx\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_rc 1 "01 after 0"
  expect_err RSV_ERR_SELECTOR_PREFIX "01 after 0" "'$TMP/e.tsv' line 2: selector '01' and selector '0' of line 1 are not prefix-free (one is a prefix of the other)"
  printf '\ta\tx\n1\tb\tx\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_err RSV_ERR_SELECTOR_PREFIX "1 after the empty code" "'$TMP/e.tsv' line 2: selector '1' and selector '' of line 1 are not prefix-free (one is a prefix of the other)"
  # a return to an earlier code: 0, 10, 0 ("0" was used, so step 2 passes;
  # step 3 fails) → line 3 against line 2
  printf '0\ta\tx\n10\ta\tx\n0\tb\tx\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_rc 1 "return to code 0"
  expect_err RSV_ERR_UNSORTED "return to code 0" "'$TMP/e.tsv' line 3: selector '0' is not greater than selector '10' on line 2 (records are ordered by selector, then key; use --sort to sort the input)"
  # within one code the key decides (the v1 message)
  printf '11\tb\tx\n11\ta\tx\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column "$TMP/e.tsv" "$o"
  expect_err RSV_ERR_UNSORTED "key order within code 11" "'$TMP/e.tsv' line 2: key is not greater than the key on line 1 (use --sort to sort the input)"
  # absent selector = --selector 11: line 2 has code 11, line 3's 10 is smaller
  printf '%s\n' '{"selector": "0", "key": "a", "value": "x"}' '{"key": "b", "value": "x"}' \
    '{"selector": "10", "key": "c", "value": "x"}' >"$TMP/e.jsonl"
  run write --from jsonl --selector 11 "$TMP/e.jsonl" "$o"
  expect_err RSV_ERR_UNSORTED "absent selector = --selector" "'$TMP/e.jsonl' line 3: selector '10' is not greater than selector '11' on line 2 (records are ordered by selector, then key; use --sort to sort the input)"
  no_file "$o" "order errors"
  # --sort: lines 1 = "1"‖"a" (1 01100001), 2 = "10"‖"a" (10 01100001): bit 2
  # decides, line 2 first, so line 1 is the record whose code conflicts
  printf '1\ta\tx\n10\ta\tx\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column --sort "$TMP/e.tsv" "$o"
  expect_rc 1 "--sort with codes 1 and 10"
  expect_err RSV_ERR_SELECTOR_PREFIX "--sort with codes 1 and 10" "'$TMP/e.tsv' line 1: selector '1' and selector '10' of line 2 are not prefix-free (one is a prefix of the other)"
  # --sort: duplicates are (selector, key) pairs
  printf '11\ta\tx\n0\ta\tx\n11\ta\ty\n' >"$TMP/e.tsv"
  run write --from tsv --selector-column --sort "$TMP/e.tsv" "$o"
  expect_err RSV_ERR_UNSORTED "--sort duplicate pair" "'$TMP/e.tsv' line 3: duplicate key (also on line 1)"
  no_file "$o" "--sort errors"
  # usage errors: exit 2, nothing created
  run write --from jsonl --selector-column "$TMP/v2.jsonl" "$o"
  expect_rc 2 "--selector-column with JSONL"
  expect_err RSV_ERR_INVALID_ARGUMENT "--selector-column with JSONL"
  run write --from tsv --selector-column --selector 1 "$TMP/v2.tsv" "$o"
  expect_rc 2 "--selector with --selector-column"
  expect_err RSV_ERR_INVALID_ARGUMENT "--selector with --selector-column"
  no_file "$o" "usage errors"
}

group_kv2_dump() {
  v2_inputs
  # the §12.5 records, every line with its code
  run dump "$TMP/v2.kv"
  expect_rc 0 "dump §12.5"
  expect_out $'0\t"a"\t"x"\n0\t"ab"\t(tombstone)\n10\t""\t""\n11\t"a"\t"yz"\n11\t"b"\t(tombstone)\n11\t"ba"\t""\n' "dump §12.5"
  run dump --hex "$TMP/v2.kv"
  expect_out $'0\t61\t78\n0\t6162\t(tombstone)\n10\t""\t""\n11\t61\t797a\n11\t62\t(tombstone)\n11\t6261\t""\n' "dump --hex §12.5"
  run dump --json "$TMP/v2.kv"
  expect_out "$(cat "$TMP/v2.jsonl")"$'\n' "dump --json §12.5 (= the typed JSONL)"
  run dump --tsv "$TMP/v2.kv"
  expect_out "$(cat "$TMP/v2.tsv")"$'\n' "dump --tsv §12.5 (= the typed TSV)"
  # a one-code file with a code other than 0 prints no selector (v1 output)
  spec_inputs
  run write --from tsv --selector 11 "$TMP/ex.tsv" "$TMP/c11.kv"
  run dump --json "$TMP/c11.kv"
  expect_out '{"key": "a", "value": "x"}
{"key": "ab", "value": null}
{"key": "b", "value": ""}
{"key": "ba", "value": "yz"}
' "dump --json of a one-code file (code 11)"
}

group_kv2_stat() {
  v2_inputs
  run stat "$TMP/v2.kv"
  expect_rc 0 "stat §12.5"
  # §12.5: N 6, W = K = 3 (2 blocks), tombstones records 1 and 4, present-
  # empty 2 and 5, extent 126 (126 / 6 = 21), m = 3 (5 dictionary bits, 4
  # seed bits), terminal 18, U 126, L 5, sections from the §12.5 table
  expect_out "file: $TMP/v2.kv
file-bytes: 377
records: 6
blocks: 2
tombstones: 2
present-empty: 2
present-nonempty: 2
data-extent-bits: 126
bits-per-record: 21.000
policy: B=eg:0 W=3 K=3
selectors: 3
dictionary-bits: 5
seed-bits: 4
selector 0: 0 records 2
selector 1: 10 records 1
selector 2: 11 records 3
common-width: absent
terminal-key-bits: 18
ef-universe: 126
ef-low-width: 5
section 0 data: offset 192 length 16
section 1 ef-low: offset 208 length 8
section 2 ef-high: offset 216 length 8
section 3 ef-samples: offset 224 length 16
section 4 ef-sparse: offset 240 length 0
section 5 dictionary: offset 240 length 1
section 6 dict-offsets: offset 248 length 32
section 7 seeds: offset 280 length 1
" "stat §12.5"
  run stat --json "$TMP/v2.kv"
  expect_rc 0 "stat --json §12.5"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
exp = {"records": 6, "blocks": 2, "selector_bits": None, "selector": None, "dictionary_bits": 5,
       "seed_bits": 4, "terminal_key_bits": 18, "data_extent_bits": 126,
       "selectors": [{"index": 0, "code": "0", "bits": 1, "records": 2},
                     {"index": 1, "code": "10", "bits": 2, "records": 1},
                     {"index": 2, "code": "11", "bits": 2, "records": 3}]}
for k, v in exp.items():
    assert d[k] == v, (k, d[k], v)
' "$TMP/out" || fail "stat --json §12.5: $(cat "$TMP/out")"
  # one-code and empty files: the list has C0 with every record, or nothing
  spec_inputs
  run stat --json "$TMP/spec.kv"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["selectors"] == [{"index": 0, "code": "0", "bits": 1, "records": 4}], d
assert d["selector"] == "0" and d["dictionary_bits"] == 1 and d["seed_bits"] == 0, d
' "$TMP/out" || fail "stat --json §12.3 selectors: $(cat "$TMP/out")"
  run stat --json "$TMP/empty.kv"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["selectors"] == [] and d["dictionary_bits"] == 0, d
' "$TMP/out" || fail "stat --json empty selectors: $(cat "$TMP/out")"
}

# corrupt NAME FILE-BYTE HEX : $TMP/NAME.kv = §12.5 with that byte, CRCs recomputed
corrupt() {
  cp "$TMP/v2.kv" "$TMP/$1.kv"
  patch "$TMP/$1.kv" "$2" "$3"
  reseal "$TMP/$1.kv"
}

group_kv2_verify() {
  v2_inputs
  run verify "$TMP/v2.kv"
  expect_rc 0 "verify §12.5"
  expect_out $'ok: 6 records\n' "verify §12.5"
  # the §12.5 corruption table. Data bit P is in file byte 288 + P / 8.
  # Data bit 56 = the MSB of data byte 7 (file 295, bb → 3b): SORT_TRANSITION, record 2, bit 57
  corrupt b56 295 3b
  local c
  for c in verify dump; do
    run $c "$TMP/b56.kv"
    expect_rc 1 "$c: data bit 56"
    expect_err RSV_ERR_SORT_TRANSITION "$c: data bit 56" "'$TMP/b56.kv': record 2, data-stream bit 57 (file byte 295)"
  done
  # data bit 62 = bit 6 of data byte 7 (bb → b9): PREFIX_CROSSES_CODE, record 3, bit 66 (file byte 296)
  corrupt b62 295 b9
  for c in verify dump; do
    run $c "$TMP/b62.kv"
    expect_err RSV_ERR_PREFIX_CROSSES_CODE "$c: data bit 62" "'$TMP/b62.kv': record 3, data-stream bit 66 (file byte 296)"
  done
  # seeds (section 7 at body 280 = file byte 376) 20 → 30: SEED_RANGE, record 3, bit 61 (file byte 295)
  corrupt s30 376 30
  for c in verify dump; do
    run $c "$TMP/s30.kv"
    expect_err RSV_ERR_SEED_RANGE "$c: seeds 30" "'$TMP/s30.kv': record 3, data-stream bit 61 (file byte 295)"
  done
  # seeds 20 → 10: scan finds dictionary code 2 ('11') unused; a cursor walk
  # (dump) accepts the file with records 3-5 under code 10
  corrupt s10 376 10
  run verify "$TMP/s10.kv"
  expect_rc 1 "verify: seeds 10"
  expect_err RSV_ERR_UNUSED_SELECTOR "verify: seeds 10" "'$TMP/s10.kv': scan: dictionary code 2 '11' (section 5 at file byte 336)"
  run dump "$TMP/s10.kv"
  expect_rc 0 "dump: seeds 10"
  expect_out $'0\t"a"\t"x"\n0\t"ab"\t(tombstone)\n10\t""\t""\n10\t"a"\t"yz"\n10\t"b"\t(tombstone)\n10\t"ba"\t""\n' "dump: seeds 10"
  # dictionary (section 5, file byte 336) 58 → 68: codes 0, 11, 01: DICTIONARY_ORDER
  # offsets (section 6, file byte 344) [0, 1, 1, 5]: e_2 at 344 + 16 = 360: DICTIONARY_SHAPE
  corrupt d68 336 68
  corrupt off 360 01
  local where="dictionary: section 5 (5 bits) at file byte 336, section 6 (3 codes) at file byte 344"
  for c in verify dump stat; do
    run $c "$TMP/d68.kv"
    expect_rc 1 "$c: dictionary 68"
    expect_err RSV_ERR_DICTIONARY_ORDER "$c: dictionary 68" "'$TMP/d68.kv': $where"
    run $c "$TMP/off.kv"
    expect_err RSV_ERR_DICTIONARY_SHAPE "$c: offsets [0, 1, 1, 5]" "'$TMP/off.kv': $where"
  done
}

group_kv2_merge() {
  v2_inputs
  # §12.5: the inputs {0, 1, 3} and {2, 4, 5} merge to exactly the file
  sed -n '1p;2p;4p' "$TMP/v2.jsonl" >"$TMP/a.jsonl"
  sed -n '3p;5p;6p' "$TMP/v2.jsonl" >"$TMP/b.jsonl"
  run write --from jsonl "${V2P[@]}" "$TMP/a.jsonl" "$TMP/a.kv"
  run write --from jsonl "${V2P[@]}" "$TMP/b.jsonl" "$TMP/b.kv"
  run merge "$TMP/m.kv" "$TMP/a.kv" "$TMP/b.kv"
  expect_rc 0 "merge §12.5 halves"
  same_file "$TMP/m.kv" "$TMP/v2.kv" "merge of the §12.5 inputs = §12.5"
  # ... with drop-tombstones: records 0, 2, 3, 5
  run merge --drop-tombstones "$TMP/m.kv" "$TMP/a.kv" "$TMP/b.kv"
  run dump "$TMP/m.kv"
  expect_out $'0\t"a"\t"x"\n10\t""\t""\n11\t"a"\t"yz"\n11\t"ba"\t""\n' "merge --drop-tombstones §12.5"
  # §12.5 with a newer `10` ""→⊥, drop-tombstones: code 10 leaves (m = 2, 0 and 11);
  # ab (1) and b (4) go too: 0 keeps 1 record, 11 keeps 2
  printf '10\t\t\\N\n' >"$TMP/t.tsv"
  run write --from tsv --selector-column "${V2P[@]}" "$TMP/t.tsv" "$TMP/t.kv"
  run merge --drop-tombstones "$TMP/m2.kv" "$TMP/v2.kv" "$TMP/t.kv"
  expect_rc 0 "merge §12.5 + 10 tombstone"
  run stat "$TMP/m2.kv"
  grep -A3 -x 'selectors: 2' "$TMP/out" | grep -q -x 'selector 0: 0 records 1' || fail "drop code 10: $(cat "$TMP/out")"
  grep -q -x 'selector 1: 11 records 2' "$TMP/out" || fail "drop code 10: $(cat "$TMP/out")"
  # inputs with different single codes (v1 files, --selector) merge into the
  # multi-code file: codes 0, 10, 11 give exactly §12.5 (any input order)
  printf 'a\tx\nab\t\\N\n' >"$TMP/c0.tsv"
  printf '\t\n' >"$TMP/c10.tsv"
  printf 'a\tyz\nb\t\\N\nba\t\n' >"$TMP/c11.tsv"
  local c
  for c in 0 10 11; do
    run write --from tsv --selector $c "${V2P[@]}" "$TMP/c$c.tsv" "$TMP/c$c.kv"
    expect_rc 0 "write code $c"
  done
  run merge "$TMP/m3.kv" "$TMP/c11.kv" "$TMP/c0.kv" "$TMP/c10.kv"
  expect_rc 0 "merge of codes 11, 0, 10"
  same_file "$TMP/m3.kv" "$TMP/v2.kv" "merge of single-code inputs 11, 0, 10 = §12.5"
  # two single-code inputs, 0 and 1 (§11.2): a two-code file
  printf 'a\tx\n' >"$TMP/a.tsv"
  run write --from tsv --selector 0 "$TMP/a.tsv" "$TMP/z0.kv"
  run write --from tsv --selector 1 "$TMP/a.tsv" "$TMP/z1.kv"
  run merge "$TMP/m4.kv" "$TMP/z0.kv" "$TMP/z1.kv"
  expect_rc 0 "merge of codes 0 and 1"
  run dump "$TMP/m4.kv"
  expect_out $'0\t"a"\t"x"\n1\t"a"\t"x"\n' "merge of codes 0 and 1"
  run verify "$TMP/m4.kv"
  expect_out $'ok: 2 records\n' "verify the 0/1 merge"
  # a union that is not prefix-free: MERGE_MISMATCH naming the pair, no output
  run write --from tsv --selector 01 "$TMP/a.tsv" "$TMP/z01.kv"
  run merge "$TMP/x.kv" "$TMP/z0.kv" "$TMP/z01.kv"
  expect_rc 1 "merge of codes 0 and 01"
  expect_err RSV_ERR_MERGE_MISMATCH "merge of codes 0 and 01" "input #2 '$TMP/z01.kv': selector '01' and selector '0' of input #1 '$TMP/z0.kv' are not prefix-free (one is a prefix of the other)"
  no_file "$TMP/x.kv" "merge of codes 0 and 01"
  # code 1 against §12.5's dictionary: 1 is a prefix of 10 (the first conflicting code)
  run write --from tsv --selector 1 "${V2P[@]}" "$TMP/a.tsv" "$TMP/y1.kv"
  run merge "$TMP/x.kv" "$TMP/v2.kv" "$TMP/y1.kv"
  expect_err RSV_ERR_MERGE_MISMATCH "merge of §12.5 and code 1" "input #2 '$TMP/y1.kv': selector '1' and selector '10' of input #1 '$TMP/v2.kv' are not prefix-free (one is a prefix of the other)"
  no_file "$TMP/x.kv" "merge of §12.5 and code 1"
  # the policy is compared first (§11.2): W = 15 against §12.5's W = 3
  run merge "$TMP/x.kv" "$TMP/v2.kv" "$TMP/z1.kv"
  expect_err RSV_ERR_MERGE_MISMATCH "merge with another policy" "input #2 '$TMP/z1.kv' differs from the earlier inputs"
  # an input whose dictionary fails §6.3 (as in kv2_verify), with and without verification
  cp "$TMP/v2.kv" "$TMP/d68.kv"; patch "$TMP/d68.kv" 336 68; reseal "$TMP/d68.kv"
  local where="dictionary: section 5 (5 bits) at file byte 336, section 6 (3 codes) at file byte 344"
  run merge "$TMP/x.kv" "$TMP/a.kv" "$TMP/d68.kv"
  expect_err RSV_ERR_DICTIONARY_ORDER "merge, bad dictionary" "input #2 '$TMP/d68.kv': $where"
  run merge --no-verify "$TMP/x.kv" "$TMP/a.kv" "$TMP/d68.kv"
  expect_err RSV_ERR_DICTIONARY_ORDER "merge --no-verify, bad dictionary" "input #2 '$TMP/d68.kv': $where"
  no_file "$TMP/x.kv" "merge, bad dictionary"
}

# multicode_py DIR : a random record set over six prefix-free codes (one of
# 82 bits), written as DIR/in.jsonl (shuffled; code 00 left to --selector
# 00), DIR/sorted.jsonl (logical-key order), DIR/exp.dump (`rsv dump --hex`
# lines) and DIR/exp.stat (`selector J: CODE records N` lines). The order is
# §1.2's: code ‖ key bits compared as bit strings.
multicode_py() {
  python3 -c '
import json, random, sys
d = sys.argv[1]
codes = ["00", "010", "0110", "0111", "10", "11" + "01" * 40]
for a in codes:
    for b in codes:
        assert a == b or not b.startswith(a), (a, b)
rng = random.Random(20261203)
recs = {}
for _ in range(700):
    c = rng.choice(codes)
    k = bytes(rng.choice(b"ab\x00\xff") for _ in range(rng.randrange(0, 5)))
    r = rng.random()
    v = None if r < 0.1 else b"" if r < 0.2 else bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    recs.setdefault((c, k), v)
bits = lambda c, k: c + "".join(format(x, "08b") for x in k)
order = sorted(recs, key=lambda ck: bits(*ck))
def line(c, k, v, sel=True):
    o = {"selector": c} if sel else {}
    o["key"] = {"hex": k.hex()}
    o["value"] = None if v is None else {"hex": v.hex()}
    return json.dumps(o)
with open(d + "/sorted.jsonl", "w") as f:
    for c, k in order:
        f.write(line(c, k, recs[(c, k)]) + "\n")
shuf = list(order)
rng.shuffle(shuf)
with open(d + "/in.jsonl", "w") as f:
    for c, k in shuf:
        f.write(line(c, k, recs[(c, k)], c != "00") + "\n")
hx = lambda b: b.hex() if b else "\"\""
with open(d + "/exp.dump", "w") as f:
    for c, k in order:
        v = recs[(c, k)]
        f.write("%s\t%s\t%s\n" % (c, hx(k), "(tombstone)" if v is None else hx(v)))
used = sorted({c for c, _ in order})
with open(d + "/exp.stat", "w") as f:
    f.write("selectors: %d\n" % len(used))
    for j, c in enumerate(used):
        f.write("selector %d: %s records %d\n" % (j, c, sum(1 for x, _ in order if x == c)))
print(len(order))
' "$1"
}

group_kv2_roundtrip() {
  local n
  n=$(multicode_py "$TMP") || fail "multicode_py"
  [[ $n -gt 300 ]] || fail "multicode_py made only $n records"
  # shuffled input with --sort (code 00 from --selector), W = 4, K = 3: many blocks and seeds
  run write --from jsonl --sort --selector 00 --block 4 --group 3 "$TMP/in.jsonl" "$TMP/r.kv"
  expect_rc 0 "write --sort multi-code"
  run verify "$TMP/r.kv"
  expect_out "ok: $n records"$'\n' "verify multi-code"
  run dump --hex "$TMP/r.kv"
  cmp -s "$TMP/out" "$TMP/exp.dump" ||
    fail "multi-code dump differs from the python order (first: $(diff "$TMP/out" "$TMP/exp.dump" | head -3))"
  run stat "$TMP/r.kv"
  grep -E '^selectors?( |:)' "$TMP/out" >"$TMP/got.stat"
  same_file "$TMP/got.stat" "$TMP/exp.stat" "multi-code stat dictionary counts"
  # the python-sorted input streams to the same bytes
  run write --from jsonl --block 4 --group 3 "$TMP/sorted.jsonl" "$TMP/r2.kv"
  expect_rc 0 "write sorted multi-code (streaming)"
  same_file "$TMP/r2.kv" "$TMP/r.kv" "streaming = --sort"
  # dump | write round trips, JSON lines and TSV with its selector column
  run dump --json "$TMP/r.kv"
  cp "$TMP/out" "$TMP/r.jsonl"
  run write --from jsonl --block 4 --group 3 "$TMP/r.jsonl" "$TMP/r3.kv"
  same_file "$TMP/r3.kv" "$TMP/r.kv" "dump --json | write --from jsonl (multi-code)"
  run dump --tsv "$TMP/r.kv"
  cp "$TMP/out" "$TMP/r.tsv"
  run write --from tsv --selector-column --block 4 --group 3 "$TMP/r.tsv" "$TMP/r4.kv"
  same_file "$TMP/r4.kv" "$TMP/r.kv" "dump --tsv | write --from tsv --selector-column (multi-code)"
  # split by code into single-code files and merged back
  local c
  for c in 00 010 0110 0111 10 1101; do
    grep "^{\"selector\": \"$c" "$TMP/sorted.jsonl" >"$TMP/part-$c.jsonl"
    run write --from jsonl --block 4 --group 3 "$TMP/part-$c.jsonl" "$TMP/part-$c.kv"
    expect_rc 0 "write part $c"
  done
  run merge "$TMP/r5.kv" "$TMP/part-00.kv" "$TMP/part-010.kv" "$TMP/part-0110.kv" "$TMP/part-0111.kv" \
    "$TMP/part-10.kv" "$TMP/part-1101.kv"
  expect_rc 0 "merge of the six single-code parts"
  same_file "$TMP/r5.kv" "$TMP/r.kv" "merge of single-code parts = the multi-code file"
}

run_groups kv2_write kv2_errors kv2_dump kv2_stat kv2_verify kv2_merge kv2_roundtrip
