#!/usr/bin/env python3
"""Render build/nightly/records.tsv (written by fuzz/lib/nightly.sh) as
summary.md and summary.json. Exit 1 when the records contain a finding, so
the nightly fails even if a step forgot to say so.

usage: nightly_summary.py RECORDS.tsv SUMMARY.md SUMMARY.json
"""
import json
import sys


def num(s):
    try:
        return int(s)
    except (TypeError, ValueError):
        try:
            return float(s)
        except (TypeError, ValueError):
            return None


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    targets, diffcheck, meta, cov_all, mutation, kv03x, cov_codec, bigendian = {}, {}, {}, {}, {}, {}, {}, {}
    unexecuted = {}

    def tgt(name):
        return targets.setdefault(name, {"target": name, "engines": {}, "replays": {}})

    with open(argv[1], encoding="utf-8") as f:
        for line in f:
            r = line.rstrip("\n").split("\t")
            kind = r[0]
            if kind == "corpus_before":
                tgt(r[1])["corpus_before"] = num(r[2])
            elif kind == "corpus_after":
                tgt(r[1])["corpus_after"] = num(r[2])
            elif kind == "fuzz":
                arts = [a for a in (r[13].split(" ") if len(r) > 13 else []) if a]
                tgt(r[1])["engines"][r[2]] = {
                    "status": r[3], "executions": num(r[4]), "exec_per_sec": num(r[5]),
                    "edges": num(r[6]), "features": num(r[7]), "crashes": num(r[8]),
                    "timeouts": num(r[9]), "ooms": num(r[10]), "leaks": num(r[11]),
                    "seconds": num(r[12]),
                    "artifacts": [{"file": a, "reproduce": "fuzz/fuzz reproduce " + a,
                                   "meta": read_meta(a)} for a in arts],
                }
            elif kind == "replay":
                tgt(r[1])["replays"][r[2]] = {"status": r[3], "inputs": num(r[4]), "log": r[5]}
            elif kind == "coverage":
                if len(r) >= 8:
                    tgt(r[1])["coverage"] = cov(r[2:8])
            elif kind == "coverage_all":
                if len(r) >= 7:
                    cov_all = cov(r[1:7])
            elif kind == "coverage_codec":
                cov_codec = read_cov_codec(r[1:])
            elif kind == "diffcheck":
                diffcheck = {"status": r[1], "seconds": num(r[2]), "command": r[3], "log": r[4]}
            elif kind == "kv03exhaustive":
                kv03x = {"status": r[1], "seconds": num(r[2]), "command": r[3], "log": r[4]}
            elif kind == "bigendian":
                bigendian = {"status": r[1], "seconds": num(r[2]), "command": r[3], "log": r[4]}
            elif kind == "mutation":
                mutation = read_mutation(r[1], r[2] if len(r) > 2 else "", r[3] if len(r) > 3 else "")
                mutation["budget_reduced"] = len(r) > 4 and r[4] == "1"
            elif kind == "unexecuted":  # tests/mutation/run --list-unexecuted
                unexecuted = {"exit": num(r[1]), "report": r[2] if len(r) > 2 else "", "log": r[3] if len(r) > 3 else ""}
            elif kind == "meta":
                meta = {"budget_minutes": num(r[1]), "wall_seconds": num(r[2]), "cores": num(r[3]),
                        "corpus_updated": r[4] == "1", "coverage_report": r[5]}

    findings = []
    for t in targets.values():
        for eng, e in t["engines"].items():
            if e["status"] != "ok":
                findings.append(f"{t['target']}: {eng} {e['status']}")
            for a in e["artifacts"]:
                findings.append(f"{t['target']}: {a['file']} — {a['meta'].get('what', '?')} "
                                f"in {a['meta'].get('top_frame', '?')} (stack {a['meta'].get('stack_hash', '?')}); "
                                f"`{a['reproduce']}`")
        for san, rp in t["replays"].items():
            if rp["status"] != "ok":
                findings.append(f"{t['target']}: {san} replay failed ({rp['log']})")
    if mutation:
        if mutation.get("survivors"):
            findings.append(f"mutation: {len(mutation['survivors'])} surviving mutant(s) not argued equivalent: "
                            f"{' '.join(mutation['survivors'][:20])} ({mutation.get('report')})")
        elif mutation.get("exit") not in (0, 130):
            findings.append(f"mutation: tests/mutation/run exited {mutation.get('exit')} ({mutation.get('log')})")
        # A part that does not finish is a failure unless its budget was
        # explicitly reduced (RSV_NIGHTLY_MUTATION_MINUTES): interrupted (130)
        # or a report that is not complete.
        if (mutation.get("exit") == 130 or mutation.get("complete") is False) and not mutation["budget_reduced"]:
            findings.append(f"mutation: did not finish (exit {mutation.get('exit')}, complete "
                            f"{mutation.get('complete')}) and its budget was not explicitly reduced "
                            f"(RSV_NIGHTLY_MUTATION_MINUTES) ({mutation.get('log')})")
    if unexecuted.get("exit") not in (None, 0):
        findings.append(f"mutation: mutants on lines no gate test executes, not listed as equivalent, or the "
                        f"listing failed (exit {unexecuted.get('exit')}; {unexecuted.get('report')}, "
                        f"{unexecuted.get('log')})")
    if cov_codec and not cov_codec["ok"]:
        findings.append(f"codec/ coverage of the corpus replay below the thresholds: {cov_codec['text']}")
    if diffcheck.get("status", "").startswith("FAIL"):
        findings.append(f"`{diffcheck['command']}`: {diffcheck['status']} ({diffcheck['log']})")

    if kv03x.get("status", "").startswith("FAIL"):
        findings.append(f"`{kv03x['command']}`: {kv03x['status']} ({kv03x['log']})")

    if bigendian.get("status", "").startswith("FAIL"):
        findings.append(f"`{bigendian['command']}`: {bigendian['status']} ({bigendian['log']})")

    doc = {"meta": meta, "targets": list(targets.values()), "diffcheck": diffcheck, "kv03_exhaustive": kv03x,
           "bigendian": bigendian,
           "coverage_total": cov_all, "coverage_codec": cov_codec, "mutation": mutation,
           "mutation_unexecuted": unexecuted, "findings": findings}
    with open(argv[3], "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(render_md(doc))
    return 1 if findings else 0


def read_cov_codec(r):
    """The codec/ gate: lines covered, lines, branches covered, branches, min lines %, min branches %
    (a missing codec.tsv gives empty fields: not ok)."""
    try:
        lc, ln, bc, bn = (int(x) for x in r[0:4])
        ml, mb = float(r[4]), float(r[5])
    except (ValueError, IndexError):
        return {"ok": False, "text": "no codec/ figures (build/coverage/codec.tsv missing)"}
    lp, bp = (100.0 * lc / ln if ln else 100.0), (100.0 * bc / bn if bn else 100.0)
    return {"lines_covered": lc, "lines": ln, "lines_percent": round(lp, 2), "min_lines_percent": ml,
            "branches_covered": bc, "branches": bn, "branches_percent": round(bp, 2), "min_branches_percent": mb,
            "ok": lp >= ml and bp >= mb,
            "text": f"lines {lc}/{ln} ({lp:.2f} %, min {ml:g} %), branches {bc}/{bn} ({bp:.2f} %, min {mb:g} %)"}


def read_mutation(rc, report, log):
    """The mutation run's summary (tests/mutation/run writes the JSON)."""
    m = {"exit": num(rc), "report": report, "log": log}
    try:
        with open(report, encoding="utf-8") as f:
            s = json.load(f)["summary"]
    except (OSError, ValueError, KeyError):
        return m
    for k in ("score_percent", "killed_including_timeouts", "scored", "survivors", "evaluated", "selected",
              "generated", "complete", "status", "wall_s", "mean_mutant_s"):
        m[k] = s.get(k)
    return m


def cov(v):
    return {"lines_covered": num(v[0]), "lines": num(v[1]), "lines_percent": v[2],
            "regions_covered": num(v[3]), "regions": num(v[4]), "regions_percent": v[5]}


def read_meta(path):
    m = {}
    try:
        with open(path + ".meta", encoding="utf-8") as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                m[k] = v
    except OSError:
        pass
    return m


def render_md(doc):
    m = doc["meta"]
    out = ["# reservoir nightly fuzzing summary", ""]
    out.append(f"Budget {m.get('budget_minutes')} min of fuzzing, wall time {m.get('wall_seconds')} s, "
               f"{m.get('cores')} cores; checked-in corpus {'updated' if m.get('corpus_updated') else 'not rewritten'}. "
               f"Result: **{'FINDINGS' if doc['findings'] else 'no finding'}**.")
    out += ["", "| target | engine | status | executions | exec/s | edges (cov) | ft | crashes | timeouts | OOMs |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for t in doc["targets"]:
        for eng, e in t["engines"].items():
            out.append(f"| {t['target']} | {eng} | {e['status']} | {e['executions']} | {e['exec_per_sec']} | "
                       f"{e['edges']} | {e['features'] if e['features'] is not None else '-'} | {e['crashes']} | "
                       f"{e['timeouts']} | {e['ooms']} |")
    out += ["", "| target | corpus before | corpus after (minimized) | lines covered | regions covered | MSan replay | UBSan replay |",
            "|---|---:|---:|---:|---:|---|---|"]
    for t in doc["targets"]:
        c = t.get("coverage", {})
        rp = t["replays"]
        out.append(f"| {t['target']} | {t.get('corpus_before')} | {t.get('corpus_after')} | "
                   f"{c.get('lines_covered')}/{c.get('lines')} ({c.get('lines_percent')}) | "
                   f"{c.get('regions_covered')}/{c.get('regions')} ({c.get('regions_percent')}) | "
                   f"{rp.get('msan', {}).get('status', '-')} | {rp.get('ubsan', {}).get('status', '-')} |")
    c = doc["coverage_total"]
    out += ["", f"All targets together: lines {c.get('lines_covered')}/{c.get('lines')} ({c.get('lines_percent')}), "
            f"regions {c.get('regions_covered')}/{c.get('regions')} ({c.get('regions_percent')}); "
            f"HTML report `{m.get('coverage_report')}`."]
    cc = doc.get("coverage_codec") or {}
    if cc:
        out += ["", f"codec/ (counted files: build/coverage/codec.txt): {cc['text']}: "
                f"{'ok' if cc['ok'] else '**BELOW THE THRESHOLD**'}."]
    d = doc["diffcheck"]
    out += ["", f"Bounded-exhaustive differential driver (`{d.get('command')}`): {d.get('status')}"
            f"{' in ' + str(d.get('seconds')) + ' s' if d.get('status') != 'skipped' else ''}.", ""]
    k = doc.get("kv03_exhaustive") or {}
    if k:
        out += [f"KV03 exhaustive merges (`{k.get('command')}`): {k.get('status')} in {k.get('seconds')} s.", ""]
    b = doc.get("bigendian") or {}
    if b:
        out += [f"Big-endian gate (`{b.get('command')}`): {b.get('status')} in {b.get('seconds')} s.", ""]
    mu = doc.get("mutation") or {}
    if mu:
        if mu.get("score_percent") is not None or mu.get("evaluated"):
            st = mu.get("status") or {}
            out += [f"Mutation testing of codec/ (`{mu.get('report')}`): score **{mu.get('score_percent')} %** "
                    f"({mu.get('killed_including_timeouts')} of {mu.get('scored')} killed, timeouts included), "
                    f"{len(mu.get('survivors') or [])} unlisted survivor(s), {st.get('EQUIVALENT', 0)} equivalent, "
                    f"{st.get('NOT_COMPILED', 0)} not compiled, {st.get('BINARY_IDENTICAL', 0)} binary-identical, "
                    f"{st.get('BROKEN', 0)} broken; {mu.get('evaluated')} of {mu.get('selected')} mutants evaluated"
                    f"{'' if mu.get('complete') else ' (INCOMPLETE: continues next night)'}, {mu.get('wall_s')} s.", ""]
        else:
            out += [f"Mutation testing of codec/: no report (exit {mu.get('exit')}, log `{mu.get('log')}`).", ""]
    out += ["## Findings", ""]
    out += [f"- {x}" for x in doc["findings"]] or ["None."]
    out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
