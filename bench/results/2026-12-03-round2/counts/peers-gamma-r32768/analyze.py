#!/usr/bin/env python3
"""peers/gamma from raw.csv.gz: per process the minimum over its timed trials of each row; the
ratio sdsl / rsv-batch inside each process (same data, same process); across the processes of
one build the median and range (the A/A spread); and the default/LZCNT-BMI2 pairs (process i of
each build ran back to back).   usage: analyze.py [raw.csv.gz]"""
import csv, gzip, os, statistics, sys

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "raw.csv.gz")
mins = {}  # side -> process -> contender -> min ns
for r in csv.DictReader(gzip.open(path, "rt")):
    if r["phase"] == "timed" and r["workload"].startswith("peers/gamma/"):
        w = r["workload"].rsplit("/", 1)[1]
        p = mins.setdefault(r["side"], {}).setdefault(r["process"], {})
        p[w] = min(p.get(w, float("inf")), float(r["ns_per_item"]))
med = statistics.median
print("| build | processes | contender | ns/value (median of process minima) | range |")
print("|---|---:|---|---:|---|")
for side, ps in mins.items():
    for w in ("sdsl", "sdsl-table", "rsv", "rsv-batch"):
        v = sorted(p[w] for p in ps.values())
        print("| %s | %d | %s | %.3f | %.3f–%.3f |" % (side, len(v), w, med(v), v[0], v[-1]))
print("\n| build | ratio (inside each process) | median | range over the processes |")
print("|---|---|---:|---|")
for side, ps in mins.items():
    for peer in ("sdsl", "sdsl-table"):
        for ours in ("rsv-batch", "rsv"):
            v = sorted(p[peer] / p[ours] for p in ps.values())
            print("| %s | %s / %s | %.2f | %.2f–%.2f |" % (side, peer, ours, med(v), v[0], v[-1]))
print()
for side, ps in mins.items():
    v = [p["rsv-batch"] for p in ps.values()]
    m = med(v)
    print("%s: rsv-batch process minima %+.1f %% / %+.1f %% around their median (A/A spread)"
          % (side, 100 * (min(v) / m - 1), 100 * (max(v) / m - 1)))
sides = list(mins)
if len(sides) == 2:
    a, b = mins[sides[0]], mins[sides[1]]
    for w in ("rsv-batch", "rsv", "sdsl"):
        v = sorted(a[k][w] / b[k.replace(sides[0], sides[1])][w] for k in a)
        print("paired %s/%s %s: median %.3f, range %.3f–%.3f" % (sides[0], sides[1], w, med(v), v[0], v[-1]))
