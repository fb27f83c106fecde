# Helpers of cli_kv03_test.sh (sourced, not run): the KV03.md §12 vectors
# typed from the spec, the runner and expectations, and independent python3
# generators (CRC32C reseal, WORKLOADS.md §3 count streams and §4 fixtures).
# Sources cli_common.sh (arguments RSV GROUP, TMP, counters, runner,
# expectations, group dispatch) for the scripts that source it.

# shellcheck source=cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"

declare -A MSG=(
  [RSV_ERR_INVALID_ARGUMENT]="invalid argument"
  [RSV_ERR_IO]="I/O error"
  [RSV_ERR_UNSORTED]="keys are not strictly increasing"
  [RSV_ERR_KEY_ENDS_INSIDE_BYTE]="string key ends inside a byte"
  [RSV_ERR_RETAINED_PRECEDES_CODE]="retained prefix shorter than selector code"
  [RSV_ERR_MERGE_MISMATCH]="merge inputs disagree on policy or selector"
  [RSV_ERR_TRUNCATED_HEADER]="truncated file header"
  [RSV_ERR_BAD_MAGIC]="unrecognized file magic"
  [RSV_ERR_BAD_VERSION]="unsupported file version or header length"
  [RSV_ERR_HEADER_CRC]="header CRC32C mismatch"
  [RSV_ERR_BAD_BACKSPACE]="unsupported backspace descriptor"
  [RSV_ERR_BAD_POLICY]="invalid block size or group size"
  [RSV_ERR_FILE_SIZE]="truncated or trailing file bytes"
  [RSV_ERR_BODY_CRC]="body CRC32C mismatch"
  [RSV_ERR_NONZERO_PADDING]="nonzero bit-section padding"
  [RSV_ERR_TOO_LARGE]="bit length overflow"
)

# KV03.md §12.3, the complete file (360 bytes).
SPEC_12_3='
45 56 52 54 2e 4b 56 00 01 00 60 00 00 00 00 00
01 01 00 00 0f 00 00 00 0f 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
40 08 00 00 00 00 00 00 04 00 00 00 00 00 00 00
fc a0 b3 25 37 2c b5 93 60 00 00 00 00 00 00 00
68 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00
4b 56 30 33 03 00 08 00 61 00 00 00 00 00 00 00
11 00 00 00 00 00 00 00 61 00 00 00 00 00 00 00
01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
c0 00 00 00 00 00 00 00 0d 00 00 00 00 00 00 00
d0 00 00 00 00 00 00 00 08 00 00 00 00 00 00 00
d8 00 00 00 00 00 00 00 08 00 00 00 00 00 00 00
e0 00 00 00 00 00 00 00 10 00 00 00 00 00 00 00
f0 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
f0 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00
f8 00 00 00 00 00 00 00 10 00 00 00 00 00 00 00
08 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00
42 58 69 e2 25 88 2d dc 4b 0d bc bd 00 00 00 00
20 00 00 00 00 00 00 00 11 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
01 00 00 00 00 00 00 00'

# KV03.md §12.4, the empty file (320 bytes).
SPEC_EMPTY='
45 56 52 54 2e 4b 56 00 01 00 60 00 02 00 00 00
01 01 00 00 0f 00 00 00 0f 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00 07 00 00 00 00 00 00 00 00 00 00 00 00 00 00
f3 d7 ad 50 0a 50 0f 61 60 00 00 00 00 00 00 00
40 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00
4b 56 30 33 03 00 08 00 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
c0 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
c0 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
c0 00 00 00 00 00 00 00 08 00 00 00 00 00 00 00
c8 00 00 00 00 00 00 00 10 00 00 00 00 00 00 00
d8 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
d8 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
d8 00 00 00 00 00 00 00 08 00 00 00 00 00 00 00
e0 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 00'

# hexfile HEX PATH : write the bytes of a blank-separated hex string
hexfile() {
  python3 -c 'import sys; open(sys.argv[2], "wb").write(bytes.fromhex(sys.argv[1]))' "$1" "$2"
}

# patch PATH OFFSET HEX... : overwrite bytes at OFFSET
patch() {
  python3 -c '
import sys
p, off = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
new = bytes.fromhex("".join(sys.argv[3:]))
b[off:off + len(new)] = new
open(p, "wb").write(bytes(b))' "$@"
}

# reseal PATH : recompute the body CRC32C, then the header CRC32C (KV03.md §7),
# with a bitwise CRC32C written here (checked on "123456789" = 0xE3069283).
reseal() {
  python3 -c '
import sys, struct
def crc32c(data):
    c = 0xFFFFFFFF
    for x in data:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
    return c ^ 0xFFFFFFFF
assert crc32c(b"123456789") == 0xE3069283
b = bytearray(open(sys.argv[1], "rb").read())
b[64:68] = struct.pack("<I", crc32c(b[96:]))
b[68:72] = b"\0\0\0\0"
b[68:72] = struct.pack("<I", crc32c(b[:96]))
open(sys.argv[1], "wb").write(bytes(b))' "$1"
}

# expect_err NAME DESC [FIXED-TEXT-BEFORE-NAME]
expect_err() {
  local name=$1 desc=$2 before=${3:-}
  local want="$before: $name: ${MSG[$name]}"
  grep -q -F -- "$want" "$TMP/err" || fail "$desc: stderr lacks '$want': $(head -c 300 "$TMP/err")"
  grep -q -E -- "^rsv: " "$TMP/err" || fail "$desc: stderr does not start with 'rsv: '"
}

# The §12 records as TSV: "a"→"x", "ab"→tombstone, "b"→"" (present-empty), "ba"→"yz".
spec_inputs() {
  hexfile "$SPEC_12_3" "$TMP/spec.kv"
  hexfile "$SPEC_EMPTY" "$TMP/empty.kv"
  printf 'a\tx\nab\t\\N\nb\t\nba\tyz\n' >"$TMP/ex.tsv"
  printf 'a\tx\nb\t\n' >"$TMP/older.tsv"
  printf 'ab\t\\N\nba\tyz\n' >"$TMP/newer.tsv"
}

# fixture_py SHAPE MAX N : the sorted fixture as `rsv dump --hex` lines,
# computed from WORKLOADS.md §1 and §4.
fixture_py() {
  python3 -c '
import sys
M = (1 << 64) - 1
def mix(x):
    x &= M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)
assert mix(0) == 0 and mix(1) == 0x5692161D100B05E5 and mix(2) == 0xDBD238973A2B148A
assert mix(0x12345678) == 0x99A584650FAE6A61
shape, mx, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
recs = []
for i in range(n):
    if shape == "prefix":
        k = b"documents/persistent/shared/string/prefix/" + i.to_bytes(8, "big")
    else:
        k = mix(i).to_bytes(8, "big") + mix(i + 0x12345678).to_bytes(8, "big")
    if i % 17 == 0:
        v = None
    else:
        l = mix(i + 3) % (mx + 1)
        v = bytes(mix(i * 65537 + j) & 0xFF for j in range(l))
    recs.append((k, v))
recs.sort(key=lambda r: r[0])
for k, v in recs:
    print(k.hex() + "\t" + ("(tombstone)" if v is None else (v.hex() if v else "\"\"")))
' "$@"
}

# counts_py CASE V OUT : expected buffer (WORKLOADS.md §3, CODES.md §3-§4) to
# OUT; prints "bits=L" and writes the values to OUT.values
counts_py() {
  python3 -c '
import sys
M = (1 << 64) - 1
def mix(x):
    x &= M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)
assert mix(1) == 0x5692161D100B05E5
def eg(v, k):
    q = (v >> k) + 1
    n = q.bit_length()
    s = "0" * (n - 1) + format(q, "b")
    return s + (format(v & ((1 << k) - 1), "0%db" % k) if k else "")
def golomb(v, m):
    q, r = divmod(v, m)
    w = (m - 1).bit_length()
    cut = (1 << w) - m
    rem = format(r, "0%db" % (w - 1)) if r < cut else format(r + cut, "0%db" % w)
    return "0" * q + "1" + rem
assert eg(1023, 3) == "000000010000000111" and golomb(20, 7) == "001111" and eg(M, 0) == "0" * 64 + "1" + "0" * 64
case, V, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
bits = ["101"]
vals = []
for i in range(V):
    m = mix(i)
    if case == "eg0-small": v = m & 127; bits.append(eg(v, 0))
    elif case == "eg0-wide": v = m & ((1 << (i % 65)) - 1); bits.append(eg(v, 0))
    elif case == "eg3": v = m & 1023; bits.append(eg(v, 3))
    else: v = m & 127; bits.append(golomb(v, 7))
    vals.append(v)
s = "".join(bits)
T = len(s)
s += "0" * (-T % 8)
open(out, "wb").write(int(s, 2).to_bytes(len(s) // 8, "big"))
open(out + ".values", "w").write("".join("%d\n" % v for v in vals))
print("bits=%d offset=3 total=%d values=%d bytes=%d" % (T - 3, T, V, len(s) // 8))
' "$@"
}

