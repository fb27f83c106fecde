#!/usr/bin/env python3
"""Load-check self-test runner (ctest load_check_selftest).

For every planted defect and every address alignment 0..7 of the end it
concerns, runs the same probe input three times:

  real             the real codec with the load check: must exit 0 ("ok",
                   values and positions equal to the oracle's, loads checked)
  planted          the planted codec with the load check: must die by SIGABRT
                   with the checker's message, at the planted site, naming
                   exactly how far the load left the allowed bytes (and the
                   message's load range, allowed range and distances must
                   agree with each other)
  planted_nocheck  the planted codec without the check (ASan + UBSan when
                   asan=1): must exit 0 with right values: no sanitizer sees
                   the defect, which is why the hook exists

Then the eg-plant1 case: fuzz self-test plant 1 (compiled into both planted
copies by RSV_SELFTEST_PLANT=1) must move the position of one truncated EG
remainder by one bit, and the real codec must not; and two near misses (k = 5
with z = 1, k = 3 with z = 2, each one bit short) must end at CODES.md's
position in every binary: the plant is as rare as it says.

Fails (exit 1) on any other outcome, and when it ran no case.
usage: run_selftest.py REAL PLANTED PLANTED_NOCHECK ASAN(0|1)
"""
import re
import signal
import subprocess
import sys

real, planted, nocheck, asan = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"


def expected(case, a):
    """(site file, regex on the message) for the planted build."""
    if case in ("align-down", "align-down-end"):
        # at p = 0 the refill starts a bytes before the view's first byte; at
        # alignment 0 the first refill is aligned and a later one, in the middle
        # of the view, starts before the byte holding p (A4)
        first = r"-%d" % a if a else r"-[1-7]"
        return "reader_impl.h", r"outside the site's bound .*first byte %s from the first allowed" % first
    if case == "head":
        return "reader_impl.h", r"outside the site's bound .*first byte -1 from the first allowed"
    if case == "tail":
        return "reader.c", r"outside the site's bound .*last byte \+1 from the last allowed"
    if case == "skipped":
        # the byte holding view bits 5..7 (byte 1: off = 3), reloaded at p = 105
        # (byte 13): all its bits were read or skipped before p
        return "reader_impl.h", r"outside the site's bound .*first byte -12 from the first allowed"
    if case == "skipped-edge":
        # the skip starts at view bit 12 (bit 15, the last bit of byte 1) and
        # ends at p = 112 (bit 115, byte 14): the plant reloads byte 1
        return "reader_impl.h", r"outside the site's bound .*first byte -13 from the first allowed"
    raise ValueError(case)


MSG = re.compile(r"load of (\d+) byte\(s\) \[(0x[0-9a-f]+|0), (0x[0-9a-f]+|0)\], allowed \[(0x[0-9a-f]+|0), "
                 r"(0x[0-9a-f]+|0)\] \((inclusive|empty: no load allowed)\); first byte ([+-]\d+) from the first "
                 r"allowed, last byte ([+-]\d+) from the last allowed")


def consistent(msg):
    """The checker's message agrees with itself (load_check.c, die): the load
    [first, last] holds n bytes, the allowed range [lo, hi] is inclusive and
    tagged "empty: no load allowed" exactly when it holds no byte (hi = lo - 1),
    and the two distances are first - lo and last - hi. None when it does."""
    m = MSG.search(msg)
    if not m:
        return "message not in the checker's format"
    n, first, last, lo, hi = (int(x, 0) for x in m.group(1, 2, 3, 4, 5))
    d_first, d_last = int(m.group(7)), int(m.group(8))
    if last - first + 1 != n:
        return "load [%#x, %#x] is not %d byte(s)" % (first, last, n)
    if (m.group(6) != "inclusive") != (hi == lo - 1):
        return "range [%#x, %#x] tagged '%s'" % (lo, hi, m.group(6))
    if d_first != first - lo or d_last != last - hi:
        return "distances %+d, %+d, want %+d, %+d" % (d_first, d_last, first - lo, last - hi)
    return None


def run(exe, case, a):
    p = subprocess.run([exe, case, str(a)], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


failures, cases = [], 0
for case in ("align-down", "align-down-end", "head", "tail", "skipped", "skipped-edge"):
    for a in range(8):
        cases += 1
        tag = "%s alignment %d" % (case, a)
        rc, out, err = run(real, case, a)
        m = re.search(r"(\d+) loads checked", out)
        if rc != 0 or not out.startswith("ok") or not m or int(m.group(1)) == 0:
            failures.append("%s: real codec did not pass (rc %d): %s%s" % (tag, rc, out, err))
        rc, out, err = run(planted, case, a)
        site, pattern = expected(case, a)
        msg = next((l for l in err.splitlines() if l.startswith("rsv load check:")), "")
        if rc != -signal.SIGABRT or not msg or site not in msg or not re.search(pattern, msg):
            failures.append("%s: planted defect not caught as expected (rc %d, want SIGABRT, %s, /%s/): %s%s"
                            % (tag, rc, site, pattern, out, err[-2000:]))
        elif consistent(msg):
            failures.append("%s: the checker's message contradicts itself (%s): %s" % (tag, consistent(msg), msg))
        else:
            print("caught  %-22s %s" % (tag, msg[len("rsv load check: "):]))
        rc, out, err = run(nocheck, case, a)
        if rc != 0 or not out.startswith("ok"):
            failures.append("%s: the planted defect without the hook was expected to go unnoticed%s "
                            "(values right), got rc %d: %s%s" % (tag, " by ASan" if asan else "", rc, out, err[-2000:]))
        else:
            print("missed  %-22s without the hook%s: values right, no report" % (tag, " (ASan+UBSan on)" if asan else ""))

# Not a load defect: RSV_SELFTEST_PLANT=1 also compiles the fuzz self-test's
# plant 1 into both planted copies (reader.c: a truncated EG remainder, k >= 5,
# one bit short, z >= 2, leaves the position one bit on, docs/fuzzing.md).
# read_eg(5) of `001 01 1010`: EG_TRUNCATED_REMAINDER (14) at p + 2z + 1 = 5
# (CODES.md §3.2 step 8); the plant must give 6, the real codec 5.
for a in range(8):
    before = len(failures)
    for exe, who, want in ((real, "real", 5), (planted, "planted", 6), (nocheck, "planted_nocheck", 6)):
        cases += 1
        rc, out, err = run(exe, "eg-plant1", a)
        m = re.match(r"eg-plant1 status (\d+) pos (\d+)", out)
        if rc != 0 or not m or int(m.group(1)) != 14 or int(m.group(2)) != want:
            failures.append("eg-plant1 alignment %d, %s: want status 14 at position %d, got rc %d: %s%s"
                            % (a, who, want, rc, out, err[-2000:]))
        # the near misses (k = 5 with z = 1; k = 3 with z = 2): CODES.md's
        # 2z + 1 from every binary, the plant being as rare as it says
        for k, pos in ((5, 3), (3, 5)):
            m = re.search(r"eg-plant1 near k %d status (\d+) pos (\d+)" % k, out)
            if not m or int(m.group(1)) != 14 or int(m.group(2)) != pos:
                failures.append("eg-plant1 near miss k = %d alignment %d, %s: want status 14 at position %d "
                                "(the plant must not fire), got: %s" % (k, a, who, pos, out))
    if len(failures) == before:
        print("plant 1 eg-plant1 alignment %d: real codec at 5, both planted copies at 6" % a)

# The checker on a window of two ranges (push + also): a load of the second
# range passes (with an empty third range beside it), a load of the byte just
# below it (between the ranges, held by a stale slot of an earlier window)
# aborts.
cases += 1
rc, out, err = run(real, "also-in", 0)
if rc != 0 or not out.startswith("ok also-in"):
    failures.append("also-in: a load inside the window's second range did not pass (rc %d): %s%s" % (rc, out, err))
rc, out, err = run(real, "also-gap", 0)
msg = next((l for l in err.splitlines() if l.startswith("rsv load check:")), "")
if rc != -signal.SIGABRT or "outside the declared window" not in msg:
    failures.append("also-gap: a load between the window's two ranges was not caught (rc %d, want SIGABRT): %s%s"
                    % (rc, out, err[-2000:]))
elif consistent(msg):
    failures.append("also-gap: the checker's message contradicts itself (%s): %s" % (consistent(msg), msg))
else:
    print("caught  also-gap: a load between a window's two ranges")

# An empty window (lo = hi): a load of one byte aborts, and the message tags
# the range as empty (its printed last byte is one below its first).
cases += 1
rc, out, err = run(real, "empty-window", 0)
msg = next((l for l in err.splitlines() if l.startswith("rsv load check:")), "")
if rc != -signal.SIGABRT or "outside the declared window" not in msg or "(empty: no load allowed)" not in msg:
    failures.append("empty-window: a load from an empty window was not caught as empty (rc %d, want SIGABRT): %s%s"
                    % (rc, out, err[-2000:]))
elif consistent(msg):
    failures.append("empty-window: the checker's message contradicts itself (%s): %s" % (consistent(msg), msg))
else:
    print("caught  empty-window: %s" % msg[len("rsv load check: "):])

# The checker's guards against its own misuse (load_check.c): each aborts
# with its message; the control at the limits (16 nested windows, 4 ranges
# in one) passes.
for case, message in (("push-deep", "bad window push (depth 16)"), ("push-reversed", "bad window push (depth 0)"),
                      ("also-none", "bad window range (depth 0)"), ("also-full", "bad window range (depth 1)"),
                      ("also-reversed", "bad window range (depth 1)"),
                      ("pop-empty", "window pop without push")):
    cases += 1
    rc, out, err = run(real, "misuse-" + case, 0)
    if rc != -signal.SIGABRT or ("rsv load check: " + message) not in err:
        failures.append("misuse %s: want SIGABRT and 'rsv load check: %s', got rc %d: %s%s"
                        % (case, message, rc, out, err[-2000:]))
    else:
        print("caught  misuse %s: %s" % (case, message))
cases += 1
rc, out, err = run(real, "misuse-nest-limits", 0)
if rc != 0 or not out.startswith("ok nest-limits"):
    failures.append("nest-limits: 16 windows with 4 ranges did not pass (rc %d): %s%s" % (rc, out, err[-2000:]))

for f in failures:
    print("FAIL " + f)
print("%d cases, %d failures" % (cases, len(failures)))
sys.exit(1 if failures or cases == 0 else 0)
