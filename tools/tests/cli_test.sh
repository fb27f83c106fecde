#!/usr/bin/env bash
# Command-line tests for rsv: cli_test.sh RSV GROUP [VERSION]
#
# Every expected value below is typed from CODES.md §6.1 (names, messages),
# §7.1 (valid codes) and §7.2 (malformed inputs), or computed here by hand
# (byte-level examples, absolute positions = offset + spec position); none is
# taken from rsv's own output. Bit strings use the spec notation ("0^64 1"),
# expanded by this script, not by rsv.
# Arguments RSV GROUP, TMP, counters, runner, expectations, group dispatch
# (and set -u, set -f: the spec notation must never glob): cli_common.sh.
# shellcheck source=cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
VERSION=${3:-}

MAX=18446744073709551615 # 2^64-1
MAX1=18446744073709551614 # 2^64-2
P63=9223372036854775808 # 2^63
P63M1=9223372036854775807 # 2^63-1

# Spec messages (CODES.md §6.1).
declare -A MSG=(
  [RSV_ERR_INVALID_ARGUMENT]="invalid argument"
  [RSV_ERR_TOO_LARGE]="bit length overflow"
  [RSV_ERR_IO]="I/O error"
  [RSV_ERR_VIEW_RANGE]="bit view exceeds storage"
  [RSV_ERR_WIDTH]="bit field wider than 64"
  [RSV_ERR_TRUNCATED_FIELD]="truncated bit field"
  [RSV_ERR_EG_TRUNCATED]="truncated exponential-Golomb count"
  [RSV_ERR_EG_OVERFLOW]="overflowing exponential-Golomb count"
  [RSV_ERR_EG_QUOTIENT_OVERFLOW]="overflowing exponential-Golomb quotient"
  [RSV_ERR_EG_TRUNCATED_REMAINDER]="truncated exponential-Golomb remainder"
  [RSV_ERR_GOLOMB_TRUNCATED]="truncated Golomb quotient"
  [RSV_ERR_GOLOMB_TRUNCATED_REMAINDER]="truncated Golomb remainder"
  [RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW]="overflowing Golomb quotient"
  [RSV_ERR_GOLOMB_SUM_OVERFLOW]="overflowing Golomb value"
  [RSV_ERR_BAD_ORDER]="exponential-Golomb order exceeds 63"
  [RSV_ERR_BAD_MODULUS]="Golomb modulus is zero"
  [RSV_ERR_VALUE_TOO_WIDE]="value exceeds bit field"
)

# expand "0^64 1 0^64" -> the plain 0/1 string
expand() {
  local out="" tok bit n
  for tok in $1; do
    if [[ $tok == *^* ]]; then
      bit=${tok%%^*}
      n=${tok#*^}
      [[ $n -gt 0 ]] && out+=$(printf "%${n}s" "" | tr ' ' "$bit")
    else
      out+=$tok
    fi
  done
  printf '%s' "$out"
}

# expect_err NAME DESC [REGEX-BEFORE-NAME]: one stderr line "rsv: ...: NAME: message"
expect_err() {
  local name=$1 desc=$2 before=${3:-}
  local want=": $name: ${MSG[$name]}"
  if ! grep -q -F -- "$want" "$TMP/err"; then
    fail "$desc: stderr lacks '$want': $(head -c 300 "$TMP/err")"
  elif ! grep -q -E -- "^rsv: .*${before}: $name: " "$TMP/err"; then
    fail "$desc: stderr not 'rsv: ...${before}: $name: ...': $(head -c 300 "$TMP/err")"
  fi
}

# ---- groups ------------------------------------------------------------------

group_help() {
  local args
  for args in "--help" "-h" "codes --help" "codes -h" "codes encode --help" \
              "codes decode --help" "codes encode --code eg:0 --help" "codes decode -h"; do
    run $args
    expect_rc 0 "rsv $args"
    grep -q '^Usage: rsv' "$TMP/out" || fail "rsv $args: no Usage line on stdout"
    [[ -s $TMP/err ]] && fail "rsv $args: stderr not empty"
  done
  run --help
  grep -q 'codes' "$TMP/out" || fail "rsv --help does not list 'codes'"
  run codes --help
  grep -q 'encode' "$TMP/out" && grep -q 'decode' "$TMP/out" ||
    fail "rsv codes --help does not list encode and decode"
  run codes decode --help
  grep -q -- '--offset' "$TMP/out" && grep -q -- '--count' "$TMP/out" && grep -q -- '--bits' "$TMP/out" ||
    fail "rsv codes decode --help misses an option"
  run codes encode --help
  grep -q -- '--separate' "$TMP/out" || fail "rsv codes encode --help misses --separate"
  run --version
  expect_rc 0 "rsv --version"
  if [[ -n $VERSION ]]; then
    expect_out "rsv (reservoir) $VERSION"$'\n' "rsv --version"
  fi
}

# usage_case DESC ARGS... : exit 2, nothing on stdout, INVALID_ARGUMENT on stderr
usage_case() {
  local desc=$1
  shift
  run "$@"
  expect_rc 2 "usage: $desc"
  expect_out "" "usage: $desc"
  expect_err RSV_ERR_INVALID_ARGUMENT "usage: $desc"
}

group_usage() {
  usage_case "no command"
  usage_case "unknown command" frob
  usage_case "unknown global option" --frob
  usage_case "codes without subcommand" codes
  usage_case "unknown codes subcommand" codes frob
  usage_case "encode without --code" codes encode 5
  usage_case "encode --code without value" codes encode 5 --code
  usage_case "encode without values" codes encode --code eg:0
  usage_case "encode unknown option" codes encode --code eg:0 --frob 5
  usage_case "code kind" codes encode --code rice:2 5
  usage_case "code without parameter" codes encode --code eg: 5
  usage_case "code parameter not a number" codes encode --code eg:x 5
  usage_case "negative order" codes encode --code eg:-1 5
  usage_case "modulus above 2^64-1" codes encode --code golomb:18446744073709551616 5
  usage_case "value with junk" codes encode --code eg:0 12x
  usage_case "negative value" codes encode --code eg:0 -1
  usage_case "empty value" codes encode --code eg:0 ""
  usage_case "value with blank" codes encode --code eg:0 " 5"
  usage_case "value 2^64" codes encode --code eg:0 18446744073709551616
  usage_case "hex value 2^64" codes encode --code eg:0 0x10000000000000000
  usage_case "bare 0x" codes encode --code eg:0 0x
  usage_case "bad hex digit" codes encode --code eg:0 0x1g
  usage_case "octal-looking is decimal? no: 0o7" codes encode --code eg:0 0o7
  usage_case "--max-bits not a number" codes encode --code eg:0 --max-bits ten 5
  usage_case "decode without --code" codes decode --bits 1
  usage_case "decode unknown option" codes decode --code eg:0 --frob --bits 1
  usage_case "--bits with a 2" codes decode --code eg:0 --bits 012
  usage_case "--bits and a file" codes decode --code eg:0 --bits 1 /dev/null
  usage_case "two files" codes decode --code eg:0 /dev/null /dev/null
  usage_case "--offset not a number" codes decode --code eg:0 --offset abc --bits 1
  usage_case "--count negative" codes decode --code eg:0 --count -1 --bits 1
  usage_case "--count missing value" codes decode --code eg:0 --bits 1 --count
  usage_case "fixed:0 without --count" codes decode --code fixed:0 --bits 1
  # Accepted spellings (not usage errors): --opt=value and "--".
  run codes encode --code=golomb:7 -- 20
  expect_rc 0 "--code= and --"
  expect_out "001111"$'\n' "--code= and --"
}

# enc CODE VALUE SPECBITS : §7.1 row, encode side
enc() {
  run codes encode --code "$1" "$2"
  expect_rc 0 "encode $1 $2"
  expect_out "$(expand "$3")"$'\n' "encode $1 $2"
}

# Table §7.1 rows 1-40: code value bits.
VECTORS=(
  "fixed:0|0|"
  "fixed:3|5|101"
  "fixed:64|$MAX|1^64"
  "eg:0|0|1"
  "eg:0|1|010"
  "eg:0|2|011"
  "eg:0|3|00100"
  "eg:0|6|00111"
  "eg:0|7|0001000"
  "eg:0|127|0^7 1 0^7"
  "eg:0|$P63M1|0^63 1 0^63"
  "eg:0|$MAX1|0^63 1^64"
  "eg:0|$MAX|0^64 1 0^64"
  "eg:1|0|10"
  "eg:1|5|011 1"
  "eg:1|$MAX|0^63 1 0^63 1"
  "eg:3|0|1 000"
  "eg:3|9|010 001"
  "eg:3|1023|0^7 1 0^7 111"
  "eg:63|5|1 0^60 101"
  "eg:63|$MAX|010 1^63"
  "golomb:1|0|1"
  "golomb:1|3|0001"
  "golomb:2|5|001 1"
  "golomb:4|6|01 10"
  "golomb:3|0|1 0"
  "golomb:3|4|01 10"
  "golomb:5|2|1 10"
  "golomb:5|3|1 110"
  "golomb:5|4|1 111"
  "golomb:7|0|1 00"
  "golomb:7|1|1 010"
  "golomb:7|6|1 111"
  "golomb:7|7|01 00"
  "golomb:7|20|001 111"
  "golomb:$MAX|0|1 0^63"
  "golomb:$MAX|1|1 0^62 10"
  "golomb:$MAX|$MAX1|1 1^64"
  "golomb:$MAX|$MAX|01 0^63"
  "golomb:$P63|$MAX|01 1^63"
)

group_encode_vectors() {
  local row code value bits
  for row in "${VECTORS[@]}"; do
    IFS='|' read -r code value bits <<<"$row"
    enc "$code" "$value" "$bits"
  done
  # The longest code: exactly 129 characters.
  run codes encode --code eg:0 $MAX
  [[ $(tr -d '\n' <"$TMP/out" | wc -c) -eq 129 ]] || fail "EG0 of 2^64-1 is not 129 bits"
  # Hex input, several values concatenated, and --separate.
  enc golomb:7 0x14 "001 111"
  enc eg:0 0xFFFFFFFFFFFFFFFF "0^64 1 0^64"
  run codes encode --code eg:0 0 1 2 3 7
  expect_rc 0 "encode eg:0 0 1 2 3 7"
  expect_out "$(expand "1 010 011 00100 0001000")"$'\n' "encode eg:0 0 1 2 3 7"
  run codes encode --code eg:3 --separate 0 9 1023
  expect_out $'1000\n010001\n'"$(expand "0^7 1 0^7 111")"$'\n' "encode --separate eg:3"
  run codes encode --code fixed:0 --separate 0 0
  expect_out $'\n\n' "encode --separate fixed:0 (empty codes)"
  # --max-bits is inclusive: EG0(127) is 15 bits.
  run codes encode --code eg:0 --max-bits 15 127
  expect_rc 0 "--max-bits 15 for a 15-bit code"
  expect_out "$(expand "0^7 1 0^7")"$'\n' "--max-bits 15 for a 15-bit code"
}

# enc_err DESC NAME ARGS... : codec rejection, exit 1, nothing on stdout
enc_err() {
  local desc=$1 name=$2
  shift 2
  run codes encode "$@"
  expect_rc 1 "$desc"
  expect_out "" "$desc"
  expect_err "$name" "$desc"
}

group_encode_errors() {
  enc_err "K = 64" RSV_ERR_BAD_ORDER --code eg:64 5
  enc_err "K = 2^64-1" RSV_ERR_BAD_ORDER --code eg:$MAX 5
  enc_err "M = 0" RSV_ERR_BAD_MODULUS --code golomb:0 5
  enc_err "W = 65" RSV_ERR_WIDTH --code fixed:65 1
  enc_err "fixed:3 of 8" RSV_ERR_VALUE_TOO_WIDE --code fixed:3 8
  enc_err "fixed:0 of 1" RSV_ERR_VALUE_TOO_WIDE --code fixed:0 1
  enc_err "fixed:63 of 2^63" RSV_ERR_VALUE_TOO_WIDE --code fixed:63 $P63
  # Unary of 2^64-1 needs 2^64 bits.
  enc_err "golomb:1 of 2^64-1" RSV_ERR_TOO_LARGE --code golomb:1 $MAX
  enc_err "--max-bits 14 for a 15-bit code" RSV_ERR_TOO_LARGE --code eg:0 --max-bits 14 127
  enc_err "--max-bits counts the total" RSV_ERR_TOO_LARGE --code eg:0 --max-bits 20 127 127
  # All or nothing: the good values before the bad one are not printed.
  enc_err "fixed:3 of 1 2 8" RSV_ERR_VALUE_TOO_WIDE --code fixed:3 1 2 8
  grep -q -F "value 8 (#3)" "$TMP/err" || fail "encode error does not name value 8 (#3)"
}

group_decode_vectors() {
  local row code value bits junk
  for row in "${VECTORS[@]}"; do
    IFS='|' read -r code value bits <<<"$row"
    if [[ $code == fixed:0 ]]; then
      run codes decode --code fixed:0 --count 1 --bits ""
    else
      run codes decode --code "$code" --bits "$(expand "$bits")"
    fi
    expect_rc 0 "decode $code '$bits'"
    expect_out "$value"$'\n' "decode $code '$bits'"
    # The same after 11 junk bits skipped with --offset, and with the spec's
    # spaces left in (--bits ignores blanks).
    junk="10110011101"
    [[ $code == fixed:0 ]] && continue
    run codes decode --code "$code" --offset 11 --bits "$junk $(expand "$bits")"
    expect_out "$value"$'\n' "decode $code '$bits' at offset 11"
    run codes decode --code "$code" --count 1 --bits "$(expand "$bits 0^5")"
    expect_rc 0 "decode $code '$bits' --count 1 with trailing bits"
    expect_out "$value"$'\n' "decode $code '$bits' --count 1 with trailing bits"
  done
  # Several codes in a row (rows 4-9 and 13).
  run codes decode --code eg:0 --bits "$(expand "1 010 011 00100 00111 0001000 0^64 1 0^64")"
  expect_out $'0\n1\n2\n3\n6\n7\n'"$MAX"$'\n' "decode a sequence of EG0 codes"
  run codes decode --code golomb:7 --bits "$(expand "1 00 1 010 1 111 01 00 001 111")"
  expect_out $'0\n1\n6\n7\n20\n' "decode a sequence of golomb:7 codes"
  run codes decode --code golomb:7 --count 2 --bits "$(expand "1 00 1 010 1 111")"
  expect_out $'0\n1\n' "--count stops early"
  run codes decode --code eg:0 --count 0 --bits "$(expand "0^65")"
  expect_rc 0 "--count 0 decodes nothing"
  expect_out "" "--count 0 decodes nothing"
  run codes decode --code fixed:0 --count 3 --bits "1"
  expect_out $'0\n0\n0\n' "fixed:0 --count 3"
  run codes decode --code eg:0 --bits ""
  expect_rc 0 "empty input"
  expect_out "" "empty input"
}

# dec_err CODE SPECBITS NAME POS [OFFSET]: §7.2 row (positions shift by OFFSET)
dec_err() {
  local code=$1 bits=$2 name=$3 pos=$4 off=${5:-0} prefix=""
  [[ $off -gt 0 ]] && prefix=$(printf "%${off}s" "" | tr ' ' '1')
  # --count 1: exactly one read, so row 1 (the empty view) is attempted too.
  run codes decode --code "$code" --count 1 --offset "$off" --bits "$prefix $(expand "$bits")"
  expect_rc 1 "decode $code '$bits' @$off"
  expect_out "" "decode $code '$bits' @$off"
  expect_err "$name" "decode $code '$bits' @$off" "code #1 \\(from bit $off\\): failed at bit $((pos + off))"
}

# §7.2 rows 1-14, 16-25 and 28 (15, 26, 27 are parameter errors, below).
MALFORMED=(
  "eg:0||RSV_ERR_EG_TRUNCATED|0"
  "eg:0|000|RSV_ERR_EG_TRUNCATED|3"
  "eg:0|0^64|RSV_ERR_EG_TRUNCATED|64"
  "eg:0|0^65|RSV_ERR_EG_OVERFLOW|65"
  "eg:0|0^140|RSV_ERR_EG_OVERFLOW|65"
  "eg:0|0001 01|RSV_ERR_EG_TRUNCATED|6"
  "eg:0|0^64 1 0^63|RSV_ERR_EG_TRUNCATED|128"
  "eg:0|0^64 1 0^63 1|RSV_ERR_EG_OVERFLOW|129"
  "eg:0|0^64 1 1^64|RSV_ERR_EG_OVERFLOW|129"
  "eg:1|1|RSV_ERR_EG_TRUNCATED_REMAINDER|1"
  "eg:3|010 01|RSV_ERR_EG_TRUNCATED_REMAINDER|3"
  "eg:1|0^64 1 0^64|RSV_ERR_EG_QUOTIENT_OVERFLOW|129"
  "eg:63|011|RSV_ERR_EG_QUOTIENT_OVERFLOW|3"
  "eg:63|00100 1^70|RSV_ERR_EG_QUOTIENT_OVERFLOW|5"
  "golomb:$MAX|001|RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW|2"
  "golomb:$MAX|00|RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW|2"
  "golomb:$MAX|0|RSV_ERR_GOLOMB_TRUNCATED|1"
  "golomb:$MAX|01 0^62 10|RSV_ERR_GOLOMB_SUM_OVERFLOW|66"
  "golomb:$MAX|01 0^62|RSV_ERR_GOLOMB_TRUNCATED_REMAINDER|2"
  "golomb:7|000|RSV_ERR_GOLOMB_TRUNCATED|3"
  "golomb:7|1 0|RSV_ERR_GOLOMB_TRUNCATED_REMAINDER|1"
  "golomb:7|1 11|RSV_ERR_GOLOMB_TRUNCATED_REMAINDER|3"
  "golomb:3|01|RSV_ERR_GOLOMB_TRUNCATED_REMAINDER|2"
  "golomb:1|0^20|RSV_ERR_GOLOMB_TRUNCATED|20"
  "fixed:8|1^7|RSV_ERR_TRUNCATED_FIELD|0"
)

group_decode_errors() {
  local row code bits name pos off
  for row in "${MALFORMED[@]}"; do
    IFS='|' read -r code bits name pos <<<"$row"
    for off in 0 1 13; do
      dec_err "$code" "$bits" "$name" "$pos" "$off"
    done
  done
  # Parameter rejections (rows 15, 26, 27): exit 1, before any decoding.
  local args
  for args in "eg:64|RSV_ERR_BAD_ORDER" "golomb:0|RSV_ERR_BAD_MODULUS" "fixed:65|RSV_ERR_WIDTH"; do
    run codes decode --code "${args%%|*}" --bits 1
    expect_rc 1 "decode --code ${args%%|*}"
    expect_out "" "decode --code ${args%%|*}"
    expect_err "${args#*|}" "decode --code ${args%%|*}"
  done
  # Values decoded before the failure are printed; the failing code is #3,
  # starting at bit 4 (after `1 010`), and `000` runs out at bit 7.
  run codes decode --code eg:0 --bits "1 010 000"
  expect_rc 1 "failure after two values"
  expect_out $'0\n1\n' "failure after two values"
  expect_err RSV_ERR_EG_TRUNCATED "failure after two values" "code #3 \\(from bit 4\\): failed at bit 7"
  # --count beyond the input: the end of the input is an error then.
  run codes decode --code golomb:7 --count 3 --bits "1 00 1 010"
  expect_rc 1 "--count beyond the input"
  expect_out $'0\n1\n' "--count beyond the input"
  expect_err RSV_ERR_GOLOMB_TRUNCATED "--count beyond the input" "code #3 \\(from bit 7\\): failed at bit 7"
  # --offset past the end of the input.
  run codes decode --code eg:0 --offset 4 --bits "101"
  expect_rc 1 "--offset past the input"
  expect_err RSV_ERR_VIEW_RANGE "--offset past the input"
  run codes decode --code eg:0 --offset 3 --bits "101"
  expect_rc 0 "--offset at the end of the input"
  expect_out "" "--offset at the end of the input"
}

group_decode_input() {
  # CODES.md §1.1 example: bytes A5 0F, view (3, 9) holds `00101 0000` = 80.
  printf '\245\017' >"$TMP/a50f"
  run codes decode --code fixed:9 --offset 3 --count 1 "$TMP/a50f"
  expect_rc 0 "file A5 0F fixed:9 at 3"
  expect_out $'80\n' "file A5 0F fixed:9 at 3"
  # Same bytes on stdin, named "-" and implicit.
  "$RSV" codes decode --code fixed:9 --offset 3 --count 1 - <"$TMP/a50f" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  expect_rc 0 "stdin '-'"
  expect_out $'80\n' "stdin '-'"
  "$RSV" codes decode --code fixed:8 <"$TMP/a50f" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  expect_rc 0 "implicit stdin"
  expect_out $'165\n15\n' "implicit stdin (0xA5, 0x0F)"
  # EG0 of 2^64-1 (`0^64 1 0^64`, 129 bits) padded to 17 bytes: 8 x 00, 80,
  # 8 x 00. After the value the 7 padding zeros run out: EG_TRUNCATED at the
  # input's end, bit 136, with code #2 starting at bit 129.
  printf '\0\0\0\0\0\0\0\0\200\0\0\0\0\0\0\0\0' >"$TMP/max"
  run codes decode --code eg:0 --count 1 "$TMP/max"
  expect_rc 0 "file EG0 max, --count 1"
  expect_out "$MAX"$'\n' "file EG0 max, --count 1"
  run codes decode --code eg:0 "$TMP/max"
  expect_rc 1 "file EG0 max then padding"
  expect_out "$MAX"$'\n' "file EG0 max then padding"
  expect_err RSV_ERR_EG_TRUNCATED "file EG0 max then padding" "code #2 \\(from bit 129\\): failed at bit 136"
  # Positions are absolute: bytes FF 80 from bit 8: `1` decodes to 0, then
  # `0^7` fails at bit 16 (the view's end), code #2 from bit 9.
  printf '\377\200' >"$TMP/ff80"
  run codes decode --code eg:0 --offset 8 "$TMP/ff80"
  expect_rc 1 "file FF 80 at offset 8"
  expect_out $'0\n' "file FF 80 at offset 8"
  expect_err RSV_ERR_EG_TRUNCATED "file FF 80 at offset 8" "code #2 \\(from bit 9\\): failed at bit 16"
  # Empty file: nothing to decode.
  : >"$TMP/empty"
  run codes decode --code eg:0 "$TMP/empty"
  expect_rc 0 "empty file"
  expect_out "" "empty file"
  # Missing file: I/O error, exit 1.
  run codes decode --code eg:0 "$TMP/does-not-exist"
  expect_rc 1 "missing file"
  expect_err RSV_ERR_IO "missing file"
}

# 64 random bits from bash's seeded $RANDOM (15 bits each) into $r (no
# subshell: $RANDOM must advance in this shell).
rand64() {
  r=$(((RANDOM << 60) ^ (RANDOM << 45) ^ (RANDOM << 30) ^ (RANDOM << 15) ^ RANDOM))
}

group_roundtrip() {
  RANDOM=20240517
  local spec code maxw n i b r v junk jlen bits expected
  # code:largest bit width of the values (unary-like codes stay short)
  for spec in eg:0:64 eg:1:64 eg:3:64 eg:17:64 eg:63:64 golomb:1:10 golomb:3:12 golomb:7:13 \
              golomb:1000:20 golomb:$P63:64 golomb:$MAX:64 fixed:1:1 fixed:17:17 fixed:64:64; do
    code=${spec%:*}
    maxw=${spec##*:}
    local values=(0)
    [[ $maxw -eq 64 ]] && values+=("$MAX")
    for ((i = 0; i < 150; i++)); do
      b=$((RANDOM % (maxw + 1)))
      rand64
      if ((b == 64)); then v=$r; elif ((b == 0)); then v=0; else v=$((r & ((1 << b) - 1))); fi
      printf -v v '%u' "$v"
      values+=("$v")
    done
    run codes encode --code "$code" "${values[@]}"
    expect_rc 0 "roundtrip encode $code"
    bits=$(tr -d '\n' <"$TMP/out")
    [[ $bits =~ ^[01]*$ ]] || fail "roundtrip encode $code: not a 0/1 string"
    expected=$(printf '%s\n' "${values[@]}")$'\n'
    # Decode from a random bit offset with random junk in front.
    jlen=$((RANDOM % 20))
    junk=""
    for ((i = 0; i < jlen; i++)); do junk+=$((RANDOM & 1)); done
    run codes decode --code "$code" --offset "$jlen" --bits "$junk$bits"
    expect_rc 0 "roundtrip decode $code"
    expect_out "$expected" "roundtrip decode $code (offset $jlen)"
    # --separate prints the same codes, one per line.
    run codes encode --code "$code" --separate "${values[@]}"
    [[ $(wc -l <"$TMP/out") -eq ${#values[@]} ]] || fail "roundtrip --separate $code: line count"
    [[ $(tr -d '\n' <"$TMP/out") == "$bits" ]] || fail "roundtrip --separate $code: different bits"
  done
}

run_groups help usage encode_vectors encode_errors decode_vectors decode_errors decode_input roundtrip
