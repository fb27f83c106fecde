#!/usr/bin/env bash
# Files and processes as users treat them (docs/rsv.md, FILES AND SIGNALS):
# cli_files_test.sh RSV GROUP
#
#   files_output   what an OUT may be: only a regular file is replaced (a
#                  directory, symlink, FIFO or device node is refused, exit 2,
#                  left alone); '-' streams where the command can; a replaced
#                  OUT keeps its permission bits; OUT names of 240-255 bytes
#   files_alias    OUT aliasing an input (same path, ./path, symlink, hard
#                  link) and gen-fixture outputs aliasing each other
#   files_signals  SIGTERM/SIGINT/SIGHUP mid-write and mid-merge (test pause
#                  hook), ulimit -f with SIGXFSZ default and ignored
#   files_inputs   FIFO without a writer (under timeout), directory and pipe
#                  inputs, an input truncated while mapped (SIGBUS report)
#   files_memory   codes decode of a long stream and of /dev/zero, write
#                  without --sort, under ulimit -v caps far below the input
#   files_text     CRLF line endings in TSV and JSONL, a UTF-8 BOM
#   files_reasons  output and input errors name the path, the operation and
#                  the reason; output errors never name an input line
#
# Expected bytes come from KV03.md §12 (the 360-byte file typed in
# cli_kv03_lib.sh) or from the same command run on an equivalent input;
# expected reasons are strerror texts of the errno POSIX specifies.
# shellcheck source=cli_kv03_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_kv03_lib.sh"

# no_temps DIR DESC : no *.tmp.* file left in DIR
no_temps() {
  local left
  left=$(find "$1" -maxdepth 1 -name '*.tmp.*' | head -3)
  [[ -z $left ]] || fail "$2: temporaries left: $left"
}

expect_err_text() {
  grep -q -F -- "$1" "$TMP/err" || fail "$2: stderr lacks '$1': $(head -c 400 "$TMP/err")"
}

# start_paused N ARGS... : run rsv in the background with the test pause hook
# at N records; waits (at most 20 s) until it has paused. Sets $pid.
start_paused() {
  local n=$1
  shift
  rm -f "$TMP/err" # a stale "test pause" line must not be taken for this run's
  # Background jobs of a script start with SIGINT and SIGQUIT ignored, and
  # rsv keeps an inherited "ignore" (as nohup expects): python3 restores the
  # default dispositions before exec so SIGINT can be tested.
  RSV_TEST_PAUSE_AFTER_RECORDS=$n python3 -c '
import os, signal, sys
for s in (signal.SIGINT, signal.SIGQUIT):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$RSV" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null &
  pid=$!
  # watchdog: a command that ignores the signal fails instead of hanging
  (
    trap 'kill "$s" 2>/dev/null; exit 0' TERM
    sleep 60 &
    s=$!
    wait "$s"
    kill -KILL "$pid" 2>/dev/null
  ) >/dev/null 2>&1 &
  watchdog=$!
  local i
  for ((i = 0; i < 200; i++)); do
    grep -q "^rsv: test pause" "$TMP/err" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "rsv $* did not reach the test pause"
  kill -KILL "$pid" 2>/dev/null
  kill "$watchdog" 2>/dev/null
  return 1
}

finish_paused() {
  wait "$pid"
  rc=$?
  kill "$watchdog" 2>/dev/null
  wait "$watchdog" 2>/dev/null
  checks=$((checks + 1))
}

# A KV03 input of many records (several pages, so a truncation leaves mapped
# pages without file behind them).
big_inputs() {
  "$RSV" gen-fixture --records 3000 prefix 512 "$TMP/big.kv" >/dev/null || fail "gen-fixture big"
  "$RSV" gen-fixture --records 2000 hash 6 "$TMP/big2.kv" >/dev/null || fail "gen-fixture big2"
  awk 'BEGIN { for (i = 0; i < 20000; i++) printf "k%06d\tvalue %d %040d\n", i, i, i }' >"$TMP/big.tsv"
}

# ---- output ---------------------------------------------------------------

group_files_output() {
  spec_inputs
  mkdir "$TMP/dir"
  mkfifo "$TMP/fifo"
  ln -s "$TMP/spec.kv" "$TMP/link"
  ln -s "$TMP/nowhere.kv" "$TMP/dangling"
  local -a targets=(dir fifo link dangling)
  if [[ $(id -u) -eq 0 ]]; then
    mknod "$TMP/null" c 1 3 && targets+=(null)
  else
    echo "note: not root: the device-node OUT case (mknod) is skipped"
  fi
  local t
  for t in "${targets[@]}"; do
    local before
    before=$(ls -ld --time-style=+%s "$TMP/$t")
    run write --from tsv "$TMP/ex.tsv" "$TMP/$t"
    expect_rc 2 "write to $t"
    expect_err_text "is a" "write to $t"
    run merge "$TMP/$t" "$TMP/spec.kv" "$TMP/empty.kv"
    expect_rc 2 "merge to $t"
    run gen-counts --values 8 eg3 "$TMP/$t"
    expect_rc 2 "gen-counts to $t"
    run gen-fixture --records 4 prefix 6 "$TMP/$t"
    expect_rc 2 "gen-fixture to $t"
    [[ $(ls -ld --time-style=+%s "$TMP/$t") == "$before" ]] || fail "$t was changed"
    [[ -e $TMP/nowhere.kv ]] && fail "a dangling link's target was created"
    no_temps "$TMP" "refused $t"
  done
  [[ -p $TMP/fifo && -d $TMP/dir && -L $TMP/link ]] || fail "a refused OUT changed its type"
  [[ $(id -u) -eq 0 && -e $TMP/null ]] && { [[ -c $TMP/null ]] || fail "device node replaced"; }
  # /dev/stdout is a symbolic link: refused; '-' streams for gen-counts
  run gen-counts --values 8 eg3 /dev/stdout
  expect_rc 2 "gen-counts /dev/stdout"
  run gen-counts --values 100 eg3 "$TMP/c.bin"
  expect_rc 0 "gen-counts file"
  local summary
  summary=$(cat "$TMP/out")
  run gen-counts --values 100 eg3 -
  expect_rc 0 "gen-counts -"
  same_file "$TMP/out" "$TMP/c.bin" "gen-counts - = the file's bytes"
  [[ $(cat "$TMP/err") == "$summary" ]] || fail "gen-counts -: summary on stderr '$(cat "$TMP/err")', expected '$summary'"
  local c
  for c in "write --from tsv $TMP/ex.tsv -" "merge - $TMP/spec.kv $TMP/empty.kv" "gen-fixture prefix 6 -"; do
    run $c
    expect_rc 2 "rsv $c"
    expect_err_text "cannot be written to standard output" "rsv $c"
  done
  # a replaced OUT keeps its permission bits; a new one follows the umask
  for c in "write --from tsv $TMP/ex.tsv" "gen-counts --values 8 eg3" "gen-fixture --records 8 prefix 6"; do
    : >"$TMP/priv"
    chmod 600 "$TMP/priv"
    run $c "$TMP/priv"
    expect_rc 0 "rsv $c over a 0600 file"
    [[ $(stat -c %a "$TMP/priv") == 600 ]] || fail "rsv $c: 0600 OUT became $(stat -c %a "$TMP/priv")"
  done
  : >"$TMP/priv"
  chmod 640 "$TMP/priv"
  run merge "$TMP/priv" "$TMP/spec.kv" "$TMP/empty.kv"
  expect_rc 0 "merge over a 0640 file"
  [[ $(stat -c %a "$TMP/priv") == 640 ]] || fail "merge: 0640 OUT became $(stat -c %a "$TMP/priv")"
  (umask 027 && "$RSV" write --from tsv "$TMP/ex.tsv" "$TMP/new027.kv")
  checks=$((checks + 1))
  [[ $(stat -c %a "$TMP/new027.kv") == 640 ]] || fail "new file under umask 027: $(stat -c %a "$TMP/new027.kv")"
  # OUT names of 240..255 bytes (NAME_MAX): the temporary's stem is shortened
  local len name
  for len in 240 244 245 250 255; do
    name=$(printf 'n%.0s' $(seq "$len"))
    run write --from tsv "$TMP/ex.tsv" "$TMP/$name"
    expect_rc 0 "write to a $len-byte name"
    same_file "$TMP/$name" "$TMP/spec.kv" "write to a $len-byte name = KV03.md §12.3"
    if [[ $len -le 253 ]]; then
      run merge "$TMP/$name.m" "$TMP/spec.kv" "$TMP/empty.kv"
      expect_rc 0 "merge to a $((len + 2))-byte name"
      rm -f "$TMP/$name.m"
    fi
    run gen-counts --values 8 eg3 "$TMP/$name"
    expect_rc 0 "gen-counts to a $len-byte name"
    rm -f "$TMP/$name"
  done
  no_temps "$TMP" "long names"
}

# ---- aliasing -------------------------------------------------------------

group_files_alias() {
  spec_inputs
  cp "$TMP/ex.tsv" "$TMP/in.tsv"
  cp "$TMP/ex.tsv" "$TMP/keep.tsv"
  ln -s in.tsv "$TMP/sym.tsv"
  ln "$TMP/in.tsv" "$TMP/hard.tsv"
  local o
  for o in "$TMP/in.tsv" "$TMP/./in.tsv" "$TMP/sym.tsv" "$TMP/hard.tsv"; do
    run write --from tsv "$TMP/in.tsv" "$o"
    expect_rc 2 "write IN $o"
    expect_err_text "is the same file as input" "write IN $o"
    run write --from "$o" "$TMP/in.tsv"
    expect_rc 2 "write --from $o IN"
  done
  same_file "$TMP/in.tsv" "$TMP/keep.tsv" "aliased input unchanged"
  [[ -L $TMP/sym.tsv ]] || fail "symlink replaced"
  # merge: OUT as a hard link or symlink of an input
  cp "$TMP/spec.kv" "$TMP/a.kv"
  ln "$TMP/a.kv" "$TMP/a-hard.kv"
  ln -s a.kv "$TMP/a-sym.kv"
  for o in "$TMP/a-hard.kv" "$TMP/a-sym.kv" "$TMP/./a.kv"; do
    run merge "$o" "$TMP/a.kv" "$TMP/empty.kv"
    expect_rc 2 "merge OUT=$o"
    expect_err_text "is also input #1" "merge OUT=$o"
  done
  same_file "$TMP/a.kv" "$TMP/spec.kv" "merge input unchanged"
  # gen-fixture: OUT, --older, --newer pairwise distinct
  local -a cases=(
    "--older $TMP/f.kv --newer $TMP/n.kv"
    "--older $TMP/o.kv --newer $TMP/o.kv"
    "--older $TMP/./f.kv --newer $TMP/n.kv"
    "--newer $TMP/f-older.kv"
  )
  local c
  for c in "${cases[@]}"; do
    run gen-fixture --records 100 --split disjoint $c prefix 6 "$TMP/f.kv"
    expect_rc 2 "gen-fixture $c"
    expect_err_text "is the same file as" "gen-fixture $c"
    expect_out "" "gen-fixture $c"
    [[ -e $TMP/f.kv || -e $TMP/o.kv || -e $TMP/n.kv || -e $TMP/f-older.kv ]] && fail "gen-fixture $c wrote a file"
    rm -f "$TMP/f.kv" "$TMP/o.kv" "$TMP/n.kv" "$TMP/f-older.kv"
  done
  # ... a hard link between two of them
  : >"$TMP/x.kv"
  ln "$TMP/x.kv" "$TMP/y.kv"
  run gen-fixture --records 100 --split overlap --older "$TMP/x.kv" --newer "$TMP/y.kv" prefix 6 "$TMP/f.kv"
  expect_rc 2 "gen-fixture older/newer hard links"
}

# ---- signals --------------------------------------------------------------

group_files_signals() {
  spec_inputs
  big_inputs
  local sig num
  for sig in TERM INT HUP; do
    num=$(kill -l "$sig")
    cp "$TMP/spec.kv" "$TMP/out.kv"
    if start_paused 2 write --from tsv "$TMP/big.tsv" "$TMP/out.kv"; then
      [[ -n $(find "$TMP" -maxdepth 1 -name 'out.kv.tmp.*') ]] || fail "write paused: no temporary to clean"
      kill -"$sig" "$pid"
      finish_paused
      expect_rc $((128 + num)) "write killed by SIG$sig"
      no_temps "$TMP" "write + SIG$sig"
      same_file "$TMP/out.kv" "$TMP/spec.kv" "OUT intact after SIG$sig during write"
    fi
    if start_paused 100 merge "$TMP/m.kv" "$TMP/big.kv" "$TMP/big2.kv"; then
      kill -"$sig" "$pid"
      finish_paused
      expect_rc $((128 + num)) "merge killed by SIG$sig"
      no_temps "$TMP" "merge + SIG$sig"
      [[ -e $TMP/m.kv ]] && fail "merge killed by SIG$sig created OUT"
    fi
    # paused right after the temporary was created (0 records)
    if start_paused 0 write --from tsv --sort "$TMP/big.tsv" "$TMP/s.kv"; then
      kill -"$sig" "$pid"
      finish_paused
      expect_rc $((128 + num)) "write --sort killed by SIG$sig"
      no_temps "$TMP" "write --sort + SIG$sig"
    fi
  done
  # SIGUSR1 continues a paused command (the hook itself works)
  if start_paused 5 write --from tsv "$TMP/big.tsv" "$TMP/cont.kv"; then
    kill -USR1 "$pid"
    finish_paused
    expect_rc 0 "write continued after the pause"
  fi
  # ulimit -f: SIGXFSZ kills (default action) after the temporary is removed
  local lim=64 # KiB: the big merge output is larger
  (ulimit -f $lim; exec "$RSV" merge "$TMP/mx.kv" "$TMP/big.kv" "$TMP/big2.kv") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc $((128 + $(kill -l XFSZ))) "merge over ulimit -f (SIGXFSZ)"
  no_temps "$TMP" "merge over ulimit -f"
  [[ -e $TMP/mx.kv ]] && fail "merge over ulimit -f created OUT"
  (ulimit -f $lim; exec "$RSV" write --from tsv "$TMP/big.tsv" "$TMP/wx.kv") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc $((128 + $(kill -l XFSZ))) "write over ulimit -f (SIGXFSZ)"
  no_temps "$TMP" "write over ulimit -f"
  # ... and with SIGXFSZ ignored it is an EFBIG write error, reported
  (trap '' XFSZ; ulimit -f $lim; exec "$RSV" merge "$TMP/mx.kv" "$TMP/big.kv" "$TMP/big2.kv") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 1 "merge over ulimit -f, SIGXFSZ ignored"
  expect_err_text "output '$TMP/mx.kv': writing: File too large" "merge EFBIG"
  no_temps "$TMP" "merge EFBIG"
  (trap '' XFSZ; ulimit -f $lim; exec "$RSV" write --from tsv "$TMP/big.tsv" "$TMP/wx.kv") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 1 "write over ulimit -f, SIGXFSZ ignored"
  expect_err_text "output '$TMP/wx.kv': writing: File too large" "write EFBIG"
  grep -q "line" "$TMP/err" && fail "write EFBIG blamed an input line: $(cat "$TMP/err")"
  no_temps "$TMP" "write EFBIG"
  (trap '' XFSZ; ulimit -f 1; exec "$RSV" gen-counts eg0-wide "$TMP/cx.bin") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 1 "gen-counts over ulimit -f, SIGXFSZ ignored"
  expect_err_text "File too large" "gen-counts EFBIG"
  no_temps "$TMP" "gen-counts EFBIG"
  [[ -e $TMP/cx.bin ]] && fail "gen-counts over ulimit -f created OUT"
}

# ---- inputs ---------------------------------------------------------------

group_files_inputs() {
  spec_inputs
  big_inputs
  mkfifo "$TMP/fifo"
  mkdir "$TMP/dir"
  local c
  # a FIFO with no writer: a clear error, at once (timeout catches a hang)
  for c in verify dump stat; do
    timeout 20 "$RSV" $c "$TMP/fifo" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
    expect_rc 1 "$c FIFO without writer"
    expect_err_text "'$TMP/fifo': is a pipe or FIFO, not a regular file" "$c FIFO"
    timeout 20 "$RSV" $c "$TMP/dir" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
    expect_rc 1 "$c directory"
    expect_err_text "'$TMP/dir': is a directory" "$c directory"
    # an anonymous pipe (/dev/fd/N)
    timeout 20 "$RSV" $c <(cat "$TMP/spec.kv") >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
    expect_rc 1 "$c pipe"
    expect_err_text "is a pipe or FIFO, not a regular file" "$c pipe"
  done
  timeout 20 "$RSV" merge "$TMP/m.kv" "$TMP/spec.kv" "$TMP/fifo" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 1 "merge FIFO input"
  expect_err_text "input #2 '$TMP/fifo': is a pipe or FIFO" "merge FIFO input"
  for c in "write --from tsv" "codes decode --code eg:0"; do
    timeout 20 "$RSV" $c "$TMP/dir" $([[ $c == write* ]] && echo "$TMP/w.kv") >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
    expect_rc 1 "$c directory"
    expect_err_text "'$TMP/dir': is a directory" "$c directory"
  done
  # streaming commands read a FIFO as a stream
  (cat "$TMP/ex.tsv" >"$TMP/fifo" &)
  timeout 20 "$RSV" write --from tsv "$TMP/fifo" "$TMP/w.kv" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 0 "write from a FIFO"
  same_file "$TMP/w.kv" "$TMP/spec.kv" "write from a FIFO = KV03.md §12.3"
  # an input truncated (to 0 bytes: no page of it stays backed) while
  # mapped: RSV_ERR_IO "input changed", exit 1
  local -a cmds=("0 verify" "3 dump" "3 stat" "3 dump --json")
  local entry n
  for entry in "${cmds[@]}"; do
    n=${entry%% *}
    c=${entry#* }
    cp "$TMP/big.kv" "$TMP/t.kv"
    if start_paused "$n" $c "$TMP/t.kv"; then
      truncate -s 0 "$TMP/t.kv"
      kill -USR1 "$pid"
      finish_paused
      expect_rc 1 "$c on a file truncated while mapped"
      expect_err "RSV_ERR_IO" "$c truncated" "rsv: ${c%% *}: '$TMP/t.kv': input changed while being read (the file shrank under its mapping)"
    fi
  done
  cp "$TMP/big2.kv" "$TMP/t.kv"
  if start_paused 10 merge "$TMP/m.kv" "$TMP/big.kv" "$TMP/t.kv"; then
    truncate -s 0 "$TMP/t.kv"
    kill -USR1 "$pid"
    finish_paused
    expect_rc 1 "merge with an input truncated while mapped"
    expect_err "RSV_ERR_IO" "merge truncated" "rsv: merge: input #2 '$TMP/t.kv': input changed while being read (the file shrank under its mapping)"
    no_temps "$TMP" "merge truncated"
    [[ -e $TMP/m.kv ]] && fail "merge with a truncated input created OUT"
  fi
}

# ---- memory ---------------------------------------------------------------

# capped KB CMD... : run under ulimit -v KB (address space), output to $TMP/out
capped() {
  local kb=$1
  shift
  (ulimit -v "$kb"; exec "$@") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
}

group_files_memory() {
  local cap=60000 # KiB of address space; the inputs below are larger
  capped $cap "$RSV" --version
  if [[ $rc -ne 0 ]]; then
    echo "note: rsv cannot start under ulimit -v $cap (sanitizer build?): memory caps skipped"
    return 0
  fi
  # 64 MiB of 0xA5 bytes decoded as fixed:64: every value 0xA5A5A5A5A5A5A5A5
  python3 -c '
import sys
chunk = b"\xa5" * (1 << 20)
for _ in range(64): sys.stdout.buffer.write(chunk)' >"$TMP/a5.bin"
  capped $cap "$RSV" codes decode --code fixed:64 "$TMP/a5.bin"
  expect_rc 0 "codes decode of 64 MiB under a 60 MB cap"
  local lines other
  lines=$(wc -l <"$TMP/out")
  other=$(grep -v -c '^11936128518282651045$' "$TMP/out")
  [[ $lines -eq $((8 << 20)) && $other -eq 0 ]] || fail "decode 64 MiB: $lines lines, $other other values"
  # from standard input too, stopping at --count
  (ulimit -v $cap; exec "$RSV" codes decode --code fixed:8 --offset 4 --count 3 - <"$TMP/a5.bin") >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 0 "decode --count 3 from stdin"
  expect_out $'90\n90\n90\n' "decode --count 3 from stdin (0x5A at bit 4)"
  rm -f "$TMP/a5.bin"
  # /dev/zero: exp-Golomb order 0 fails at bit 65 (CODES.md: > 64 leading zeros)
  (ulimit -v $cap; exec timeout 20 "$RSV" codes decode --code eg:0 /dev/zero) >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 1 "codes decode /dev/zero"
  expect_err_text "code #1 (from bit 0): failed at bit 65: RSV_ERR_EG_OVERFLOW" "decode /dev/zero"
  # golomb:1 on zeros: one code that never ends, refused at the window size
  (ulimit -v 200000; exec timeout 60 "$RSV" codes decode --code golomb:1 /dev/zero) >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 1 "codes decode golomb:1 /dev/zero"
  expect_err_text "code #1 (from bit 0): longer than 536870912 bits" "golomb:1 /dev/zero"
  # a decode failure early in a long stdin stops reading there
  (head -c 8 /dev/zero; head -c $((200 << 20)) /dev/zero) | (ulimit -v $cap; exec "$RSV" codes decode --code eg:0 -) >"$TMP/out" 2>"$TMP/err"
  rc=$?
  checks=$((checks + 1))
  expect_rc 1 "decode failure in a 200 MiB stdin"
  # write without --sort: about 80 MiB of TSV under the 60 MB cap; the file
  # verifies and holds every record (a streamed write of a small prefix is
  # also byte-identical to the --sort write of its reversal)
  awk 'BEGIN { for (i = 0; i < 1500000; i++) printf "key%08d\t%040d\n", i, i }' >"$TMP/big.tsv"
  capped $cap "$RSV" write --from tsv "$TMP/big.tsv" "$TMP/big.kv"
  expect_rc 0 "write of $(($(stat -c %s "$TMP/big.tsv") >> 20)) MiB TSV under a 60 MB cap"
  run verify "$TMP/big.kv" # (mapped: its address space is the file's size)
  expect_rc 0 "verify the streamed file"
  expect_out "ok: 1500000 records"$'\n' "verify the streamed file"
  head -n 1000 "$TMP/big.tsv" >"$TMP/small.tsv"
  tac "$TMP/small.tsv" >"$TMP/small-rev.tsv"
  run write --from tsv "$TMP/small.tsv" "$TMP/s1.kv"
  run write --from tsv --sort "$TMP/small-rev.tsv" "$TMP/s2.kv"
  same_file "$TMP/s1.kv" "$TMP/s2.kv" "streamed write = sorted write"
  # ... while --sort holds the input: the same 64 MiB under the cap fails
  capped $cap "$RSV" write --from tsv --sort "$TMP/big.tsv" "$TMP/big-sorted.kv"
  expect_rc 1 "write --sort of 80 MiB under a 60 MB cap (documented: holds the input)"
  expect_err_text "(--sort holds the whole input in memory)" "write --sort out of memory"
  no_temps "$TMP" "write --sort out of memory"
}

# ---- text -----------------------------------------------------------------

group_files_text() {
  spec_inputs
  sed 's/$/\r/' "$TMP/ex.tsv" >"$TMP/crlf.tsv"
  run write --from tsv "$TMP/crlf.tsv" "$TMP/crlf.kv"
  expect_rc 0 "write CRLF TSV"
  same_file "$TMP/crlf.kv" "$TMP/spec.kv" "CRLF TSV = KV03.md §12.3 (no trailing CR in values)"
  printf 'a\tx\r\nab\t\\N\r\nb\t\r\nba\tyz\r' >"$TMP/crlf2.tsv" # last line: CR at the end of input
  run write --from tsv "$TMP/crlf2.tsv" "$TMP/crlf2.kv"
  same_file "$TMP/crlf2.kv" "$TMP/spec.kv" "CRLF TSV, final CR without LF"
  run write --from tsv --sort "$TMP/crlf.tsv" "$TMP/crlf3.kv"
  same_file "$TMP/crlf3.kv" "$TMP/spec.kv" "CRLF TSV with --sort"
  run dump --json "$TMP/spec.kv"
  sed 's/$/\r/' "$TMP/out" >"$TMP/crlf.jsonl"
  run write --from jsonl "$TMP/crlf.jsonl" "$TMP/crlfj.kv"
  expect_rc 0 "write CRLF JSONL"
  same_file "$TMP/crlfj.kv" "$TMP/spec.kv" "CRLF JSONL = KV03.md §12.3"
  # a value with a real CR is written \r and kept
  printf 'k\tv\\r\r\n' >"$TMP/cr.tsv"
  run write --from tsv "$TMP/cr.tsv" "$TMP/cr.kv"
  run dump --hex "$TMP/cr.kv"
  expect_out $'6b\t760d\n' "an escaped CR stays in the value"
  # a UTF-8 byte order mark is an error with a hint
  printf '\xef\xbb\xbf' | cat - "$TMP/ex.tsv" >"$TMP/bom.tsv"
  run write --from tsv "$TMP/bom.tsv" "$TMP/bom.kv"
  expect_rc 1 "write TSV with a BOM"
  expect_err "RSV_ERR_INVALID_ARGUMENT" "BOM" "line 1 column 1: the input starts with a UTF-8 byte order mark (EF BB BF); save it without one (in TSV, write \\xef\\xbb\\xbf if the key really starts with those bytes)"
  [[ -e $TMP/bom.kv ]] && fail "a BOM input created OUT"
  run write --from tsv --sort "$TMP/bom.tsv" "$TMP/bom.kv"
  expect_rc 1 "write --sort TSV with a BOM"
  printf '\xef\xbb\xbf' | cat - "$TMP/crlf.jsonl" >"$TMP/bom.jsonl"
  run write --from jsonl "$TMP/bom.jsonl" "$TMP/bom.kv"
  expect_rc 1 "write JSONL with a BOM"
  expect_err_text "byte order mark" "JSONL BOM"
  no_temps "$TMP" "BOM"
  # the escaped form of those bytes is a key like any other
  printf '\\xef\\xbb\\xbfk\tv\n' >"$TMP/bomkey.tsv"
  run write --from tsv "$TMP/bomkey.tsv" "$TMP/bomkey.kv"
  expect_rc 0 "escaped BOM bytes in a key"
  run dump --hex "$TMP/bomkey.kv"
  expect_out $'efbbbf6b\t76\n' "escaped BOM bytes in a key"
}

# ---- reasons --------------------------------------------------------------

group_files_reasons() {
  spec_inputs
  run write --from tsv "$TMP/ex.tsv" "$TMP/missing/o.kv"
  expect_rc 1 "write into a missing directory"
  expect_err "RSV_ERR_IO" "missing directory" "rsv: write: output '$TMP/missing/o.kv': creating a temporary file beside it: No such file or directory"
  run merge "$TMP/missing/o.kv" "$TMP/spec.kv" "$TMP/empty.kv"
  expect_err "RSV_ERR_IO" "merge missing directory" "rsv: merge: output '$TMP/missing/o.kv': creating a temporary file beside it: No such file or directory"
  run gen-counts --values 4 g7 "$TMP/missing/o.bin"
  expect_err_text "output '$TMP/missing/o.bin'" "gen-counts missing directory"
  expect_err_text "No such file or directory" "gen-counts missing directory"
  run write --from tsv "$TMP/ex.tsv" "$TMP/spec.kv/o.kv"
  expect_err_text "Not a directory" "write below a regular file"
  if [[ $(id -u) -ne 0 ]]; then
    mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
    run write --from tsv "$TMP/ex.tsv" "$TMP/ro/o.kv"
    expect_err_text "creating a temporary file beside it: Permission denied" "write into a read-only directory"
    chmod 755 "$TMP/ro"
  else
    echo "note: root: the permission-denied case is skipped (root bypasses the mode bits)"
  fi
  run write --from tsv "$TMP/nonexistent.tsv" "$TMP/o.kv"
  expect_err "RSV_ERR_IO" "missing input" "rsv: write: '$TMP/nonexistent.tsv': open: No such file or directory"
  run verify "$TMP/nonexistent.kv"
  expect_err "RSV_ERR_IO" "verify missing" "rsv: verify: '$TMP/nonexistent.kv': open: No such file or directory"
  mkdir "$TMP/dir"
  run verify "$TMP/dir"
  expect_err_text "is a directory" "verify directory"
  grep -q "No such device" "$TMP/err" && fail "verify directory still says No such device"
  head -c 10 "$TMP/spec.kv" >"$TMP/short.kv"
  run verify "$TMP/short.kv"
  expect_err "RSV_ERR_TRUNCATED_HEADER" "short file" "open: file is 10 bytes, the header needs 96"
  run codes decode --code eg:0 "$TMP/nonexistent.bin"
  expect_err "RSV_ERR_IO" "decode missing" "rsv: codes decode: '$TMP/nonexistent.bin': open: No such file or directory"
}

run_groups files_output files_alias files_signals files_inputs files_memory files_text files_reasons
