#!/usr/bin/env python3
"""counts/g7 from raw.csv.gz: per process the minimum over its timed trials; per build the
baseline and table processes (process i of each side ran back to back) as pairs: median and
range of baseline/table, and each side's spread (max/min of its process minima) as the A/A band."""
import csv, gzip, os, statistics, sys
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "raw.csv.gz")
m = {}
for r in csv.DictReader(gzip.open(path, "rt")):
    if r["phase"] == "timed" and r["workload"] == "counts/g7":
        k = (r["build"], r["side"], r["process"].rsplit("-", 1)[1])
        m[k] = min(m.get(k, float("inf")), float(r["ns_per_item"]))
for build in ("default", "lzcnt-bmi2"):
    idx = sorted({k[2] for k in m if k[0] == build}, key=int)
    b = [m[(build, "baseline", i)] for i in idx]
    t = [m[(build, "table", i)] for i in idx]
    r = sorted(x / y for x, y in zip(b, t))
    print("%s: baseline %.3f ns (%.3f-%.3f), table %.3f ns (%.3f-%.3f), paired baseline/table %.3f (%.3f-%.3f)"
          % (build, statistics.median(b), min(b), max(b), statistics.median(t), min(t), max(t),
             statistics.median(r), r[0], r[-1]))
