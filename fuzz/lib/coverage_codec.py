#!/usr/bin/env python3
"""fuzz/lib/coverage_codec.py - the codec/ line and branch coverage of a corpus
replay, per file and in total, and the threshold check (fuzz/lib/coverage.sh).

    coverage_codec.py EXPORT_JSON ROOT MIN_LINES MIN_BRANCHES EXCLUDES GATE OUT_TSV

EXPORT_JSON is `llvm-cov export -summary-only` over every replayed fuzz binary
with the merged profile. What is counted:

- files: every file under ROOT/codec/ (codec/src/*.c, codec/src/*.h,
  codec/include/reservoir/*.h) that holds instrumented code in at least one
  of the binaries, except the basenames in EXCLUDES (space-separated), which
  are printed apart with their figures. A header's inline function is one
  source location (llvm-cov's instantiation group over all translation units
  and binaries): covered = the most any one copy covered, total = the largest
  count of any copy (a copy that never ran also counts its #if-ed out lines).
- lines: llvm-cov's lines, i.e. source lines that hold code of a mapping
  region (comments, blank lines and declarations do not count); covered =
  executed at least once.
- branches: llvm-cov's branch outcomes: each condition of an if, loop,
  ?:, && / || operand and each switch case counts twice (true and false),
  covered = that outcome was taken at least once.

codec/src/*.c files that no binary contains are listed as such (they have
no instrumented code to count). GATE=1 compares the totals with MIN_LINES and
MIN_BRANCHES (percent) and exits 1 below either; GATE=0 only prints.
OUT_TSV gets one line per counted file and a TOTAL line:
file, lines covered, lines, branches covered, branches.
"""
import glob
import json
import os
import sys


def pct(c, n):
    return 100.0 * c / n if n else 100.0


def main(argv):
    if len(argv) != 8:
        sys.stderr.write(__doc__)
        return 2
    export, root, min_lines, min_branches, excludes, gate, out_tsv = argv[1:]
    min_lines, min_branches = float(min_lines), float(min_branches)
    excludes = set(excludes.split())
    codec = os.path.join(os.path.realpath(root), "codec") + os.sep
    with open(export, encoding="utf-8") as f:
        doc = json.load(f)
    files = {}
    for data in doc["data"]:
        for fe in data["files"]:
            name = os.path.realpath(fe["filename"])
            if not name.startswith(codec):
                continue
            s = fe["summary"]
            files[os.path.relpath(name, os.path.dirname(codec.rstrip(os.sep)))] = (
                s["lines"]["covered"], s["lines"]["count"], s["branches"]["covered"], s["branches"]["count"])
    counted = {k: v for k, v in files.items() if os.path.basename(k) not in excludes and v[1] > 0}
    excluded = {k: v for k, v in files.items() if os.path.basename(k) in excludes}
    absent = sorted(os.path.relpath(p, os.path.realpath(root))
                    for p in glob.glob(os.path.join(codec, "src", "*.c"))
                    if os.path.relpath(os.path.realpath(p), os.path.realpath(root)) not in files)

    def row(name, v):
        lc, ln, bc, bn = v
        return (f"  {name:<40} lines {lc:5d}/{ln:<5d} {pct(lc, ln):6.2f} %   "
                f"branches {bc:5d}/{bn:<5d} {pct(bc, bn):6.2f} %")

    print("codec coverage (corpus replay): lines and branches per file, llvm-cov counting")
    tot = [0, 0, 0, 0]
    with open(out_tsv, "w", encoding="utf-8") as out:
        for name in sorted(counted):
            v = counted[name]
            print(row(name, v))
            out.write("\t".join([name] + [str(x) for x in v]) + "\n")
            tot = [a + b for a, b in zip(tot, v)]
        out.write("\t".join(["TOTAL"] + [str(x) for x in tot]) + "\n")
    print(row(f"TOTAL ({len(counted)} files)", tot))
    for name in sorted(excluded):
        print(row(f"excluded: {name}", excluded[name]))
    if absent:
        print(f"  in no fuzz binary (nothing to count): {' '.join(absent)}")
    lp, bp = pct(tot[0], tot[1]), pct(tot[2], tot[3])
    ok = lp >= min_lines and bp >= min_branches
    verdict = ("ok" if ok else "BELOW THE THRESHOLD") if gate == "1" else "thresholds not applied (a subset of targets)"
    print(f"codec coverage: lines {lp:.2f} % (min {min_lines:g} %), branches {bp:.2f} % (min {min_branches:g} %): {verdict}")
    if not files:
        print("codec coverage: no codec/ file in the export", file=sys.stderr)
        return 1
    return 0 if ok or gate != "1" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
