"""Per-mutant test selection by line coverage (docs/mutation.md, "Test
selection by coverage").

Once per run, a private coverage tree (the gate build's configuration at
-O0 with --coverage) runs every gate test alone; after each test gcov reads
the .gcda files of every translation unit (test executables, the shared
codec, the tools and fuzz drivers the test starts) and records which codec
lines executed, summed over all translation units: an inline header function
is counted wherever it was instantiated. A mutant then runs only the tests
that executed some line near it (select()); a mutant whose neighbourhood no
test executed is SURVIVED without running.

Standard library only."""

import glob
import json
import os
import re
import subprocess

# Lines either side of the mutated one whose execution selects a test, when
# the mutated line has code of its own: gcc -O0 attributes an operator's
# instructions to the operator's line and a literal's to the line of the
# operator that uses it, which may be a neighbouring line of a statement
# continued over lines; the window absorbs that.
WINDOW = 2

# libgcov's messages when a counter file cannot be written or merged (gcc 12:
# "libgcov profiling error:<file>:...", older: "profiling:<file>:...")
PROFILING_ERROR = re.compile(r"profiling( error)?:")


def _gcov(build, gcdas, src):
    """{file: ({line: count}, [(start, end, name, count)])} for codec files,
    summed over the translation units of the given .gcda/.gcno paths."""
    out = {}
    codec = os.path.join(src, "codec") + os.sep
    for k in range(0, len(gcdas), 64):
        r = subprocess.run(["gcov", "--json-format", "--stdout"] + gcdas[k:k + 64], cwd=build,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace")
        for doc in r.stdout.splitlines():
            doc = doc.strip()
            if not doc.startswith("{"):
                continue
            d = json.loads(doc)
            cwd = d.get("current_working_directory", build)
            for f in d.get("files", []):
                p = os.path.normpath(os.path.join(cwd, f["file"]))
                if not p.startswith(codec):
                    continue
                lines, fns = out.setdefault(os.path.relpath(p, src), ({}, {}))
                for ln in f.get("lines", []):
                    lines[ln["line_number"]] = lines.get(ln["line_number"], 0) + ln["count"]
                for fn in f.get("functions", []):
                    key = (fn["start_line"], fn["end_line"], fn["name"])
                    fns[key] = fns.get(key, 0) + fn["execution_count"]
    return out


def _gcda(build):
    return sorted(glob.glob(os.path.join(build, "**", "*.gcda"), recursive=True))


def measure(worker, timeout_of, log):
    """Run every gate test of the (already built) coverage worker alone and
    return the coverage map: {"lines": {file: [executable lines]},
    "functions": {file: [[start, end]]}, "tests": {test: {file: [lines]}},
    "fn_tests": {file: {"start-end": [tests]}}}."""
    b = worker.build
    gcnos = sorted(glob.glob(os.path.join(b, "**", "*.gcno"), recursive=True))
    for p in _gcda(b):
        os.unlink(p)
    static = _gcov(b, gcnos, worker.src)  # no .gcda: every line and function, count 0
    cov = {"lines": {f: sorted(v[0]) for f, v in static.items()},
           "functions": {f: sorted([s, e] for (s, e, _) in v[1]) for f, v in static.items()},
           "tests": {}, "fn_tests": {}, "failed": []}
    for t in worker.tests:
        for p in _gcda(b):
            os.unlink(p)
        v, dt, why = t.run(timeout_of(t))
        if v not in ("pass", "skip"):
            # A test that fails in the coverage build cannot be trusted to have
            # run its whole path: it is selected for every mutant.
            cov["failed"].append(t.name)
            log("coverage: %s %s in the coverage build (%s): selected for every mutant" % (t.name, v, why))
            continue
        if PROFILING_ERROR.search(getattr(t, "last_out", "")):
            # libgcov could not write or merge a counter file (a child under
            # a low RLIMIT_FSIZE; "Merge mismatch" when two copies of an
            # object in one process share a .gcda): the map may miss lines
            # this test ran
            cov["failed"].append(t.name)
            log("coverage: %s: libgcov reported a write failure: selected for every mutant" % t.name)
        got = _gcov(b, _gcda(b), worker.src)
        cov["tests"][t.name] = {f: sorted(ln for ln, c in v[0].items() if c > 0) for f, v in got.items()}
        for f, v in got.items():
            for (s, e, _), c in v[1].items():
                if c > 0:
                    lst = cov["fn_tests"].setdefault(f, {}).setdefault("%d-%d" % (s, e), [])
                    if t.name not in lst:
                        lst.append(t.name)
    for p in _gcda(b):
        os.unlink(p)
    return cov


class Selector:
    """select(file, line) -> (test names or None for all, reason)."""

    def __init__(self, cov):
        self.cov = cov
        self.exe = {f: set(v) for f, v in cov["lines"].items()}
        self.fns = cov["functions"]
        self.hit = {}  # file -> line -> set(tests)
        for t, files in cov["tests"].items():
            for f, lines in files.items():
                d = self.hit.setdefault(f, {})
                for ln in lines:
                    d.setdefault(ln, set()).add(t)
        self.always = set(cov.get("failed", []))

    def unexecuted(self, mutants):
        """The mutants on a line with code of its own (gcov) that no gate
        test executed: no test of the map can kill them (docs/mutation.md,
        "Unexecuted lines"). A test in cov["failed"] (failed in the coverage
        build, or libgcov could not write its counters) may have run such a
        line without the map knowing: the caller reports them as that caveat."""
        return [m for m in mutants if m.line in self.exe.get(m.file, ()) and not self.hit.get(m.file, {}).get(m.line)]

    def select(self, f, line):
        inside = [(s, e) for s, e in self.fns.get(f, []) if s <= line <= e]
        if not inside:
            # file scope (an initializer, an enum, a #define'd constant), or a
            # function no translation unit instantiates: every test
            return None, "line %d is outside every function gcov knows: all tests" % line
        s = max(x[0] for x in inside)  # the innermost (latest-starting) range
        e = min(x[1] for x in inside if x[0] == s)
        if line not in self.exe.get(f, ()):
            # no code attributed to the line itself (data of a static table,
            # a literal whose use is attributed elsewhere): every test that
            # enters the function, wherever the use is
            tests = set(self.cov["fn_tests"].get(f, {}).get("%d-%d" % (s, e), []))
            why = "line %d has no code of its own: the tests entering the function at line %d" % (line, s)
        else:
            lo, hi = max(s, line - WINDOW), min(e, line + WINDOW)
            tests = set()
            for ln in range(lo, hi + 1):
                tests |= self.hit.get(f, {}).get(ln, set())
            why = "the tests executing lines %d..%d" % (lo, hi)
        return tests | self.always, why
