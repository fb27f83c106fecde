"""Reports (Markdown + JSON) and the equivalent-mutant list (docs/mutation.md)."""
import collections
import json
import os
import re

import engine

SCORED = (engine.KILLED, engine.TIMEOUT, engine.SURVIVED)


def short(s, n=70):
    s = " ".join(s.split())
    return s if len(s) <= n else s[:n - 3] + "..."


def describe(m, text):
    ls = text.rfind("\n", 0, m.start) + 1
    le = text.find("\n", m.end)
    le = len(text) if le < 0 else le
    new = text[ls:m.start] + m.repl + text[m.end:le]
    return "%s  %s:%d:%d  %s\n- %s\n+ %s" % (m.id, m.file, m.line, m.col, m.op, text[ls:le], new)


def read_equivalent(path):
    """{id: argument}. Format: one `<id>  <one-line argument>` per line; #
    starts a comment line."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as fh:
        lines = fh.readlines()
    for n, ln in enumerate(lines, 1):
        ln = ln.strip()
        if not ln or ln.startswith("#"):
            continue
        parts = ln.split(None, 1)
        if len(parts) < 2 or not parts[1].strip():
            raise SystemExit("mutation: %s:%d: an equivalent mutant needs an argument" % (path, n))
        if parts[0] in out:
            # two arguments for one mutant: one of them was written without
            # looking, and the later one would silently win
            raise SystemExit("mutation: %s:%d: %s is listed twice" % (path, n, parts[0]))
        out[parts[0]] = parts[1].strip()
    return out


def read_meta(progress):
    meta = {}
    for ln in open(progress):
        r = json.loads(ln)
        if r.get("id") == "#meta":
            meta.update(r)
    return meta


def write(o, meta, sel, mutants, results, equiv):
    """Write report.md/report.json under o.report_dir; return the exit status."""
    by_id = {m.id: m for m in mutants}
    all_ids = set(by_id)
    rows = []
    for r in results:
        m = by_id[r["id"]]
        r = dict(r, file=m.file, line=m.line, col=m.col, op=m.op, orig=short(m.orig, 200),
                 repl=short(m.repl, 200))
        if r["status"] == engine.SURVIVED and m.id in equiv:
            r["status"] = engine.EQUIVALENT
            r["argument"] = equiv[m.id]
        rows.append(r)
    st = collections.Counter(r["status"] for r in rows)
    killed = st[engine.KILLED] + st[engine.TIMEOUT]
    denom = killed + st[engine.SURVIVED]
    score = 100.0 * killed / denom if denom else None
    survivors = [r for r in rows if r["status"] == engine.SURVIVED]
    # an id's prefix names its file (<file>_<ext>.op.hash): with --only, the
    # entries of files not generated are not judged
    prefixes = {i.split(".")[0] for i in all_ids}
    stale = sorted(i for i in equiv if i not in all_ids and i.split(".")[0] in prefixes)
    refuted = sorted(r["id"] for r in rows if r["id"] in equiv and r["status"] in (engine.KILLED, engine.TIMEOUT))
    per_op = collections.defaultdict(collections.Counter)
    per_file = collections.defaultdict(collections.Counter)
    for r in rows:
        per_op[r["op"]][r["status"]] += 1
        per_file[r["file"]][r["status"]] += 1
    generated = collections.Counter(m.op for m in mutants)
    killers = collections.Counter(r["killers"][0]["test"] for r in rows if r.get("killers"))
    timed = [r["wall_s"] for r in rows if "wall_s" in r and r["status"] in SCORED]
    complete = len(rows) == len(sel)
    summary = {
        "command": "tests/mutation/run " + " ".join(
            (["--sample %d --seed %d" % (o.sample, o.seed)] if o.sample is not None else []) +
            ["--only " + x for x in o.only] + ["--op " + x for x in o.op] + ["--jobs %d" % o.jobs]),
        "generated": len(mutants), "generated_by_operator": dict(sorted(generated.items())),
        "selected": len(sel), "evaluated": len(rows), "complete": complete,
        "status": dict(sorted(st.items())), "score_percent": None if score is None else round(score, 2),
        "killed_including_timeouts": killed, "scored": denom,
        "survivors": [r["id"] for r in survivors], "stale_equivalent_entries": stale,
        "refuted_equivalent_entries": refuted,
        "mean_mutant_s": round(sum(timed) / len(timed), 2) if timed else None,
        "first_killers": dict(killers.most_common()),
    }
    chosen = [r for r in rows if "selected" in r]
    if chosen:  # --select-by-coverage
        summary["coverage_selection"] = {
            "mutants": len(chosen), "mean_tests_run_or_selected": round(sum(r["selected"] for r in chosen) / len(chosen), 1),
            "no_test_executes": sorted(r["id"] for r in chosen if r["selected"] == 0)}
    summary.update({k: v for k, v in meta.items() if k != "id"})
    os.makedirs(o.report_dir, exist_ok=True)
    with open(os.path.join(o.report_dir, "mutation-report.json"), "w") as fh:
        json.dump({"summary": summary, "mutants": rows}, fh, indent=1, sort_keys=True)
        fh.write("\n")
    with open(os.path.join(o.report_dir, "mutation-report.md"), "w") as fh:
        fh.write(markdown(summary, rows, per_op, per_file, equiv))
    engine.log("report: %s/mutation-report.{md,json}" % o.report_dir)
    engine.log("%s; score %s over %d scored mutants%s" % (
        ", ".join("%s %d" % kv for kv in sorted(st.items())), "n/a" if score is None else "%.1f %%" % score,
        denom, "" if complete else " (INCOMPLETE: %d of %d evaluated)" % (len(rows), len(sel))))
    for i in stale:
        engine.log("warning: stale entry in %s: %s is not a mutant of the current code" % (o.equivalent, i))
    for i in refuted:
        engine.log("warning: %s is listed as equivalent but was KILLED: remove it from %s" % (i, o.equivalent))
    for r in survivors:
        engine.log("SURVIVED %s %s:%d:%d %s: %s -> %s" % (r["id"], r["file"], r["line"], r["col"], r["op"],
                                                          short(r["orig"], 50), short(r["repl"], 50)))
    return 1 if survivors else 0


def markdown(s, rows, per_op, per_file, equiv):
    cols = [engine.KILLED, engine.TIMEOUT, engine.SURVIVED, engine.EQUIVALENT, engine.BROKEN,
            engine.NOT_COMPILED, engine.IDENTICAL]
    out = ["# Mutation report: codec/", ""]
    out.append("Generated by `%s` (docs/mutation.md). %s" % (
        s["command"], "Complete run." if s["complete"] else
        "**Incomplete**: %d of %d selected mutants evaluated." % (s["evaluated"], s["selected"])))
    out += ["", "| | |", "|---|---|"]
    out.append("| mutants generated | %d |" % s["generated"])
    out.append("| selected / evaluated | %d / %d |" % (s["selected"], s["evaluated"]))
    out.append("| score (killed + timeout) / (killed + timeout + survived) | %s (%d / %d) |" % (
        "n/a" if s["score_percent"] is None else "%.2f %%" % s["score_percent"],
        s["killed_including_timeouts"], s["scored"]))
    for c in cols:
        out.append("| %s | %d |" % (c, s["status"].get(c, 0)))
    if s.get("baseline_s") is not None:
        out.append("| baseline gate, unmutated (sum of test times; shared by the workers) | %.1f s (%d tests) |" % (s["baseline_s"],
                                                                              len(s.get("gate_tests", []))))
    if s.get("mean_mutant_s") is not None:
        out.append("| mean time per scored mutant (build + tests) | %.1f s |" % s["mean_mutant_s"])
    if s.get("wall_s") is not None:
        out.append("| wall time (setup %.0f s + mutants %.0f s) | %.0f s |" % (
            s.get("setup_s", 0), s.get("mutants_s", 0), s["wall_s"]))
    cs = s.get("coverage_selection")
    if cs:
        out.append("| coverage selection: mutants / mean tests selected / no test executes the code (SURVIVED unrun) "
                   "| %d / %.1f / %d |" % (cs["mutants"], cs["mean_tests_run_or_selected"], len(cs["no_test_executes"])))
    out.append("| configure arguments | `%s` |" % " ".join(s.get("cmake_args", [])))
    out += ["", "## By operator", "", "| operator | generated | " + " | ".join(cols) + " |",
            "|---|---:|" + "---:|" * len(cols)]
    for op in sorted(set(per_op) | set(s["generated_by_operator"])):
        out.append("| %s | %d | %s |" % (op, s["generated_by_operator"].get(op, 0),
                                         " | ".join(str(per_op[op].get(c, 0)) for c in cols)))
    out += ["", "## By file", "", "| file | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    for f in sorted(per_file):
        out.append("| %s | %s |" % (f, " | ".join(str(per_file[f].get(c, 0)) for c in cols)))

    def table(title, status, extra):
        sel = [r for r in rows if r["status"] == status]
        if not sel:
            return
        out.extend(["", "## %s (%d)" % (title, len(sel)), "", "| id | where | op | mutation | %s |" % extra,
                    "|---|---|---|---|---|"])
        for r in sorted(sel, key=lambda r: (r["file"], r["line"], r["col"], r["id"])):
            what = "`%s` → `%s`" % (short(r["orig"], 50).replace("|", "\\|"), short(r["repl"], 60).replace("|", "\\|"))
            info = r.get("argument") or r.get("detail") or ""
            if r.get("argument") and "not run" in r.get("detail", ""):
                info += " [listed; not run in this sampled run]"
            out.append("| %s | %s:%d:%d | %s | %s | %s |" % (r["id"], r["file"], r["line"], r["col"], r["op"],
                                                            what, short(info, 120).replace("|", "\\|")))
    table("Survivors (not listed as equivalent: the gate fails)", engine.SURVIVED, "")
    table("Equivalent (tests/mutation/equivalent.txt)", engine.EQUIVALENT, "argument")
    table("Timeouts (counted as killed)", engine.TIMEOUT, "")
    table("Not compiled in the gate's configuration", engine.NOT_COMPILED, "why")
    table("Binary-identical to the unmutated build", engine.IDENTICAL, "")
    table("Broken (does not compile)", engine.BROKEN, "first error")
    if s.get("first_killers"):
        out += ["", "## First killing test", "", "| test | mutants |", "|---|---:|"]
        for t, n in s["first_killers"].items():
            out.append("| %s | %d |" % (t, n))
    if s.get("baseline"):
        out += ["", "## Baseline (unmutated) test times, gate order", "", "| test | seconds |", "|---|---:|"]
        for t in s.get("gate_tests", []):
            out.append("| %s | %.2f |" % (t, s["baseline"].get(t, 0)))
    if s["stale_equivalent_entries"] or s["refuted_equivalent_entries"]:
        out += ["", "## Equivalent-list warnings", ""]
        out += ["- stale (no such mutant): %s" % i for i in s["stale_equivalent_entries"]]
        out += ["- listed but killed: %s" % i for i in s["refuted_equivalent_entries"]]
    return "\n".join(out) + "\n"
