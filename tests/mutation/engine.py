"""Build, run and classify mutants (docs/mutation.md). Standard library only.

A worker owns a private copy of the source tree (build/mutation/w<k>/src,
everything but build/ and .git) and a build tree configured once from it
(build/mutation/w<k>/build). A mutant is written into the private copy, the
gate's targets are rebuilt with ninja, the gate's tests run in a fixed
fast-first order until the first failure, and the file is restored. The
user's checkout is never written."""
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import threading
import time

import cmut

EXCLUDED_DIRS = {"build", ".git", "__pycache__", "out"}
# Labels that are not the codec gate: the fuzzing pipeline's self-tests (slow,
# AFL++/libFuzzer), the install test, the mutation tool's own test.
EXCLUDED_LABELS = {"fuzz-selftest", "fuzz-selftest-afl", "install", "mutation-tool"}
EXCLUDED_TESTS = re.compile(r"^(fuzz_oss_fuzz_build|fuzz_selftest_.*)$")

KILLED, SURVIVED, TIMEOUT, BROKEN = "KILLED", "SURVIVED", "TIMEOUT", "BROKEN"
NOT_COMPILED, IDENTICAL, EQUIVALENT = "NOT_COMPILED", "BINARY_IDENTICAL", "EQUIVALENT"


def log(*a):
    print("mutation:", *a, flush=True)


# ---- the mutant set ----------------------------------------------------------

def codec_files(root):
    out = []
    for d, pat in (("codec/src", (".c", ".h")), ("codec/include/reservoir", (".h",))):
        for f in sorted(os.listdir(os.path.join(root, d))):
            if f.endswith(pat) and f != "crc32c_table.h":  # generated table: see docs/mutation.md
                out.append(d + "/" + f)
    return out


def all_mutants(root, only=None):
    files = codec_files(root)
    texts = {f: open(os.path.join(root, f), encoding="utf-8").read() for f in files}
    td = cmut.typedef_names(texts.values())
    errs = cmut.status_errors(texts.get("codec/include/reservoir/status.h", ""))
    out = []
    for f in files:
        if only and not any(f == o or f.endswith("/" + o) or o in f for o in only):
            continue
        out += cmut.generate(f, texts[f], td, errs)
    return out, texts


# ---- private copy ------------------------------------------------------------

def sync_tree(src, dst):
    """Make dst a copy of src (minus build dirs), writing only files whose
    bytes differ, so an unchanged file keeps its mtime (no rebuild)."""
    wanted = set()
    for d, dirs, files in os.walk(src):
        rel = os.path.relpath(d, src)
        dirs[:] = [x for x in dirs if not (rel == "." and x in EXCLUDED_DIRS) and x != "__pycache__"]
        for f in files:
            r = os.path.normpath(os.path.join(rel, f))
            wanted.add(r)
            s, t = os.path.join(src, r), os.path.join(dst, r)
            if os.path.islink(s):
                continue
            with open(s, "rb") as fh:
                data = fh.read()
            try:
                with open(t, "rb") as fh:
                    same = fh.read() == data
            except OSError:
                same = False
            if not same:
                os.makedirs(os.path.dirname(t), exist_ok=True)
                with open(t, "wb") as fh:
                    fh.write(data)
                shutil.copymode(s, t)
    for d, dirs, files in os.walk(dst):
        for f in files:
            r = os.path.normpath(os.path.relpath(os.path.join(d, f), dst))
            if r not in wanted:
                os.unlink(os.path.join(d, f))


def tree_fingerprint(src, skip=()):
    """sha1 over every file the private copy holds: --resume reuses results
    only from a run over exactly this tree. skip: path prefixes to leave out
    (the coverage map ignores the runner and its docs)."""
    h = hashlib.sha1()
    for d, dirs, files in os.walk(src):
        rel = os.path.relpath(d, src)
        dirs[:] = sorted(x for x in dirs if not (rel == "." and x in EXCLUDED_DIRS) and x != "__pycache__")
        files = [f for f in files if not os.path.normpath(os.path.join(rel, f)).startswith(tuple(skip))]
        for f in sorted(files):
            p = os.path.join(d, f)
            if os.path.isfile(p) and not os.path.islink(p):
                h.update(os.path.normpath(os.path.join(rel, f)).encode() + b"\0")
                with open(p, "rb") as fh:
                    h.update(hashlib.sha1(fh.read()).digest())
    return h.hexdigest()


def has_option(root, name):
    """True when the top-level CMakeLists.txt declares option(name ...)."""
    try:
        return ("option(%s " % name) in open(os.path.join(root, "CMakeLists.txt")).read()
    except OSError:
        return False


def patch_shared_codec(src):
    """Speed: in the PRIVATE copy, link the project's tests against the codec
    as a shared library (same objects: they are compiled PIC) so a mutant
    relinks one .so instead of every test executable. Returns False when the
    CMake code no longer has a known shape (the runner then links as the
    project does)."""
    p = os.path.join(src, "codec/CMakeLists.txt")
    text = open(p).read()
    # main since 2026-12-03: one object library; the consumers link the
    # aliases reservoir::codec and reservoir_codec
    new = ("add_library(reservoir::codec ALIAS reservoir_codec_static)",
           "add_library(reservoir_codec ALIAS reservoir_codec_static)")
    # before: a foreach building reservoir_codec STATIC and reservoir_codec_shared
    old = "add_library(${tgt} STATIC ${RSV_CODEC_SOURCES})"
    if all(x in text for x in new):
        for x in new:
            text = text.replace(x, x.replace("reservoir_codec_static)", "reservoir_codec_shared) # mutation runner"))
    elif old in text:
        text = text.replace(old, "add_library(${tgt} SHARED ${RSV_CODEC_SOURCES})")
        text += "\n# mutation runner (private copy only): own name, not the real shared library's\n" \
                "set_target_properties(reservoir_codec PROPERTIES OUTPUT_NAME reservoir_mutation)\n"
    else:
        return False
    open(p, "w").write(text)
    return True


# ---- object comparison -------------------------------------------------------

def elf_code_hash(path):
    """Hash of an ELF object without its debug sections: equal hashes mean the
    same code and data whatever the line numbers say."""
    with open(path, "rb") as fh:
        b = fh.read()
    if b[:4] != b"\x7fELF" or b[4] != 2:
        return hashlib.sha1(b).hexdigest()
    e = "<" if b[5] == 1 else ">"
    shoff, = struct.unpack_from(e + "Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", b, 0x3A)
    secs = [struct.unpack_from(e + "IIQQQQIIQQ", b, shoff + k * shentsize) for k in range(shnum)]
    so = secs[shstrndx][4]
    h = hashlib.sha1()
    for s in secs:
        name = b[so + s[0]:b.index(b"\0", so + s[0])]
        if name.startswith((b".debug", b".rela.debug", b".rel.debug")):
            continue
        h.update(name + b"\0")
        if s[1] != 8:  # not NOBITS
            h.update(b[s[4]:s[4] + s[5]])
    return h.hexdigest()


def object_files(build):
    out = {}
    for d, dirs, files in os.walk(build):
        for f in files:
            if f.endswith(".o"):
                p = os.path.join(d, f)
                out[p] = os.stat(p).st_mtime_ns
    return out


# ---- active lines (what the gate's build compiles) --------------------------

def active_lines(build, src):
    """{relpath: set(line)} of codec lines that reach the compiler in some
    translation unit of this build (preprocessor-selected)."""
    cc = json.load(open(os.path.join(build, "compile_commands.json")))
    act = {}
    codec = os.path.join(src, "codec") + os.sep
    for ent in cc:
        args = shlex.split(ent["command"]) if "command" in ent else list(ent["arguments"])
        out, skip = [], 0
        for a in args:
            if skip:
                skip -= 1
                continue
            if a in ("-o", "-MF", "-MT", "-MQ"):
                skip = 1
                continue
            if a in ("-c", "-MD", "-MMD"):
                continue
            out.append(a)
        # -dD keeps the #define lines of the selected groups in the output
        out += ["-E", "-dD", "-o", "-"]
        r = subprocess.run(out, cwd=ent["directory"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, errors="replace")
        cur, ln = None, 0
        for line in r.stdout.split("\n"):
            if line.startswith("# ") and line[2:3].isdigit():
                parts = line.split('"')
                ln = int(line[2:].split()[0])
                f = os.path.normpath(os.path.join(ent["directory"], parts[1])) if len(parts) > 1 else ""
                cur = act.setdefault(os.path.relpath(f, src), set()) if f.startswith(codec) else None
                continue
            if cur is not None and line.strip():
                cur.add(ln)
            ln += 1
    return act


_PP_COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")


def cond_groups(text):
    """[group id or None] per line (index 0 = line 1): the innermost
    preprocessor conditional group (#if / #elif / #else up to the next of
    them or #endif) that holds the line; None outside every conditional."""
    out, stack, next_id = [], [], 0
    for line in text.split("\n"):
        m = _PP_COND.match(line)
        if m and m.group(1) in ("if", "ifdef", "ifndef"):
            out.append(stack[-1] if stack else None)
            stack.append(next_id)
            next_id += 1
        elif m and m.group(1) in ("elif", "else"):
            out.append(None)
            if stack:
                stack[-1] = next_id
                next_id += 1
        elif m:  # endif
            out.append(None)
            if stack:
                stack.pop()
        else:
            out.append(stack[-1] if stack else None)
    return out


def not_compiled(act_lines, groups, line):
    """True when the preprocessor dropped `line` in every translation unit:
    its innermost conditional group kept no line at all (e.g. the
    big-endian branch of an #if). A line that is merely absent from the -E
    output is not enough: a #define continuation line, the later lines of a
    macro call that spans several lines, or a line of a group whose other
    lines reached the compiler is compiled code, and such a mutant must be
    built and tested (the binary-identical check still catches what the
    compiler drops). A file no translation unit includes has no active line
    and so is not compiled as a whole."""
    if line in act_lines:
        return False
    g = groups[line - 1] if 0 < line <= len(groups) else None
    if g is None:
        return not act_lines
    return not any(groups[k - 1] == g for k in act_lines if 0 < k <= len(groups))


# ---- the gate ----------------------------------------------------------------

class Test:
    def __init__(self, t):
        self.name = t["name"]
        self.cmd = t["command"]
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        self.labels = props.get("LABELS", [])
        self.cwd = props.get("WORKING_DIRECTORY")
        self.env = dict(x.split("=", 1) for x in props.get("ENVIRONMENT", []))
        self.fail_re = [re.compile(x) for x in props.get("FAIL_REGULAR_EXPRESSION", [])]
        self.pass_re = [re.compile(x) for x in props.get("PASS_REGULAR_EXPRESSION", [])]
        self.skip_rc = props.get("SKIP_RETURN_CODE")
        self.will_fail = bool(props.get("WILL_FAIL", False))
        self.base = None

    def run(self, timeout):
        """(verdict, seconds, detail): verdict pass | fail | timeout | skip."""
        env = dict(os.environ, **self.env)
        t0 = time.monotonic()
        p = subprocess.Popen(self.cmd, cwd=self.cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                             preexec_fn=_default_signals)
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(p)
            try:
                p.communicate(timeout=30)
            except subprocess.TimeoutExpired:  # a process kill_group could not find holds the pipe
                p.stdout.close()
                p.wait()
            return "timeout", time.monotonic() - t0, "no exit after %.1f s" % timeout
        dt = time.monotonic() - t0
        out = out.decode("utf-8", "replace")
        self.last_out = out
        rc = p.returncode
        if self.skip_rc is not None and rc == int(self.skip_rc):
            return "skip", dt, "exit %d (skip)" % rc
        ok = rc == 0
        why = "exit %d" % rc if rc >= 0 else "signal %s" % signal.Signals(-rc).name
        if self.pass_re:
            ok = any(r.search(out) for r in self.pass_re)
            why = "output matched no PASS_REGULAR_EXPRESSION"
        if any(r.search(out) for r in self.fail_re):
            ok, why = False, "output matched FAIL_REGULAR_EXPRESSION"
        if self.will_fail:
            ok = not ok
        tail = " | ".join(x.strip() for x in out.strip().splitlines()[-3:])[:300]
        return ("pass" if ok else "fail"), dt, (why + (": " + tail if tail and not ok else ""))


# Signals a launcher may have set to SIG_IGN (nohup: HUP; a background job of
# a non-interactive shell: INT, QUIT). Ignored dispositions survive exec, so
# a test that kills its own children with them (cli_files_signals) would fail
# for reasons that have nothing to do with the mutant: each test starts with
# the default disposition, as under an interactive ctest.
_RESET_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGUSR1, signal.SIGUSR2)


def _default_signals():
    for s in _RESET_SIGNALS:
        signal.signal(s, signal.SIG_DFL)


def _proc_table():
    """{pid: (ppid, session)} of every process /proc shows."""
    t = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            t[int(d)] = (int(fields[1]), int(fields[3]))  # state ppid pgrp session ...
        except (OSError, ValueError, IndexError):
            pass
    return t


def test_processes(pid):
    """Every live process of a test started with start_new_session (its
    session id is pid): its descendants, and any process still in its
    session whose parent died (re-parented to init). Criterion's workers
    put themselves in process groups of their own, so killing the test's
    group missed them; an orphaned worker in a loop kept the output pipe
    open and the runner waited on it for ever (found 2026-12-05: a file_io
    mutant that turned a write error into a retry loop)."""
    t = _proc_table()
    kids = {}
    for q, (pp, _) in t.items():
        kids.setdefault(pp, []).append(q)
    found, todo = set(), [pid]
    while todo:
        for c in kids.get(todo.pop(), []):
            if c not in found:
                found.add(c)
                todo.append(c)
    found |= {q for q, (_, sid) in t.items() if sid == pid}
    found.discard(os.getpid())
    return found


def kill_group(p):
    """SIGKILL the test's process group and every process of its session or
    below it (test_processes), wherever their groups."""
    victims = test_processes(p.pid)
    own = os.getpgrp()
    for q in victims:
        try:
            g = os.getpgid(q)
            if g != own:
                os.killpg(g, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.kill(q, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        pass


def gate_tests(build, exclude_re=None):
    js = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                                   stdout=subprocess.PIPE).stdout)
    tests = []
    for t in js["tests"]:
        x = Test(t)
        if set(x.labels) & EXCLUDED_LABELS or EXCLUDED_TESTS.match(x.name):
            continue
        if exclude_re and re.search(exclude_re, x.name):
            continue
        tests.append(x)
    return tests


def ninja_targets(build, tests):
    """The files the gate's commands run (executables), as ninja targets: the
    union, sorted; each test's own in t.targets."""
    outs = set()
    r = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"], stdout=subprocess.PIPE, text=True,
                       check=True)
    known = {ln.split(":")[0] for ln in r.stdout.splitlines()}
    for t in tests:
        t.targets = []
        for a in t.cmd:
            if os.path.isabs(a) and a.startswith(build + os.sep):
                rel = os.path.relpath(a, build)
                if rel in known and rel not in t.targets:
                    t.targets.append(rel)
        outs.update(t.targets)
    return sorted(outs)


class Worker:
    def __init__(self, k, root, opts):
        self.k = k
        self.root = root
        self.o = opts
        self.dir = os.path.join(opts.build_dir, "w%d" % k)
        self.src = os.path.join(self.dir, "src")
        self.build = os.path.join(self.dir, "build")
        self.log = os.path.join(self.dir, "build.log")

    def cmake_args(self):
        # _FORTIFY_SOURCE=2: a copy whose length exceeds its destination
        # object, known at compile time (memcpy(&u64, src, 9)), aborts at run
        # time, as the project's ASan build (and clang's -Werror there) would
        # reject it; gcc only warns, and the gate builds without -Werror.
        flags = "-O1 -g -D_FORTIFY_SOURCE=2"
        args = []
        if not getattr(self.o, "no_ubsan", False):
            # UBSan, halting: a mutant whose only effect is undefined behaviour
            # (a shift by 64, an overflow) is killed, as the project's
            # ASan+UBSan suite would; without it gcc's code for the UB decides.
            san = "-fsanitize=undefined -fno-sanitize-recover=all"
            flags += " " + san
            args += ["-DCMAKE_EXE_LINKER_FLAGS=" + san, "-DCMAKE_SHARED_LINKER_FLAGS=" + san]
        args = ["-G", "Ninja", "-DCMAKE_C_COMPILER=" + self.o.cc, "-DCMAKE_BUILD_TYPE=Debug",
                "-DCMAKE_C_FLAGS_DEBUG=" + flags, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + args + [
                "-DRSV_WERROR=OFF", "-DRSV_INSTALL_TEST=OFF", "-DRSV_BUILD_FUZZ=ON", "-DRSV_FUZZ_ENGINE=replay",
                "-DRSV_BUILD_BENCH=OFF", "-DCMAKE_LINK_DEPENDS_NO_SHARED=ON"]
        if self.o.load_check:
            args.append("-DRSV_LOAD_CHECK=ON")
        if self.o.link == "shared" and has_option(self.root, "RSV_HIDDEN_VISIBILITY"):
            # the shared codec exports the rsv__ internals the tests call, so
            # the shared link works (no static fallback); abi_exports drops out
            # (abi_compat stays in the gate: the internals are additions)
            args.append("-DRSV_HIDDEN_VISIBILITY=OFF")
        return args + list(self.o.cmake_arg)

    def setup(self):
        os.makedirs(self.dir, exist_ok=True)
        sync_tree(self.root, self.src)
        self.shared = patch_shared_codec(self.src) if self.o.link == "shared" else False
        stamp = os.path.join(self.dir, "cmake-args.json")
        args = self.cmake_args()
        prev = json.load(open(stamp)) if os.path.exists(stamp) else None
        if prev != args or not os.path.exists(os.path.join(self.build, "build.ninja")):
            if os.path.exists(self.build):
                shutil.rmtree(self.build)
            self._run(["cmake", "-S", self.src, "-B", self.build] + args, "configure")
            json.dump(args, open(stamp, "w"))
        else:
            self._run(["cmake", self.build], "reconfigure")
        # The first build is `all` (ctest knows a test's command only once its
        # executable exists); later ones build only the gate's executables.
        try:
            self._run(["ninja", "-C", self.build, "-j", str(self.o.ninja_jobs)], "build")
        except SystemExit:
            if not self.shared:
                raise
            # e.g. internals no longer exported by a shared build: link as the project does
            log("worker %d: the shared-codec build failed; falling back to the project's static link" % self.k)
            sync_tree(self.root, self.src)
            self.shared = False
            self._run(["cmake", self.build], "reconfigure")
            self._run(["ninja", "-C", self.build, "-j", str(self.o.ninja_jobs)], "build")
        self.tests = gate_tests(self.build, self.o.exclude)
        self.targets = ninja_targets(self.build, self.tests)
        self.objects = {p: elf_code_hash(p) for p in object_files(self.build)}

    def ninja_cmd(self, targets=None):
        return ["ninja", "-C", self.build, "-j", str(self.o.ninja_jobs)] + (
            self.targets if targets is None else targets)

    def _ninja(self, fh, targets=None):
        """Builds targets (default: every gate executable): (rc, output)."""
        try:
            r = subprocess.run(self.ninja_cmd(targets), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=self.o.build_timeout)
            out, rc = r.stdout.decode("utf-8", "replace"), r.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = (e.stdout or b"").decode("utf-8", "replace"), -1
        fh.write(out[-4000:])
        return rc, out

    def _run(self, cmd, what):
        with open(self.log, "a") as fh:
            fh.write("+ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
            fh.flush()
            r = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT)
        if r.returncode:
            raise SystemExit("mutation: %s failed in %s (see %s)" % (what, self.dir, self.log))

    def baseline(self, share=0, shares=1):
        """Run the gate tests on the unmutated build (every shares-th one from
        index share; default all); all must pass. Returns {name: seconds}."""
        times = {}
        for t in self.tests[share::shares]:
            v, dt, why = t.run(self.o.baseline_timeout)
            if v not in ("pass", "skip"):
                raise SystemExit("mutation: baseline test %s: %s %s" % (t.name, v, why))
            t.base = times[t.name] = dt
        return times

    def order(self, base_times):
        for t in self.tests:
            t.base = base_times.get(t.name, t.base or 1.0)
        self.tests.sort(key=lambda t: (t.base, t.name))

    def evaluate(self, m, text, stop=None, only=None, why=None):
        """Classify one mutant; the private copy is restored before returning.
        only: the names of the tests to run (None: all; coverage selection)."""
        path = os.path.join(self.src, m.file)
        res = {"id": m.id}
        tests = self.tests if only is None else [t for t in self.tests if t.name in only]
        if only is not None:
            res["selected"] = len(tests)
            res["selection"] = why
        before = object_files(self.build)
        # Lazy build (--lazy-steps K > 0): build what the first test runs, run
        # it, then what the next one runs, and so on; after K such steps, the
        # rest at once. A mutant killed early (most are, by a fast test)
        # never builds the other executables: a header mutant recompiles
        # only the objects on the way to its killer. Every test still runs on
        # executables built from this mutant (ninja_targets: the files its
        # command runs), and a mutant whose first objects are all
        # code-identical gets the full build and the full IDENTICAL check.
        steps = max(0, int(getattr(self.o, "lazy_steps", 0) or 0)) if tests else 0
        full = steps == 0
        built = set()
        build_s = 0.0

        def broken(out, extra=""):
            err = [ln for ln in out.splitlines() if "error" in ln][:1]
            res.update(status=BROKEN, detail=((err[0] if err else "build failed") + extra)[:200])
            return res

        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(cmut.apply(text, m))
            with open(self.log, "a") as fh:
                fh.write("== %s\n" % m.id)
                fh.flush()
                t0 = time.monotonic()
                if full:
                    rc, out = self._ninja(fh)
                else:
                    rc, out = self._ninja(fh, tests[0].targets)
                    built.update(tests[0].targets)
                    steps -= 1
                build_s += time.monotonic() - t0
                if rc:
                    res["build_s"] = round(build_s, 2)
                    return broken(out)
                changed = [p for p, mt in object_files(self.build).items() if before.get(p) != mt]
                if not full and not any(self.objects.get(p) != elf_code_hash(p) for p in changed):
                    # nothing differs yet: build everything, decide as a full build would
                    t0 = time.monotonic()
                    rc, out = self._ninja(fh)
                    build_s += time.monotonic() - t0
                    full = True
                    if rc:
                        res["build_s"] = round(build_s, 2)
                        return broken(out)
                    changed = [p for p, mt in object_files(self.build).items() if before.get(p) != mt]
                if full and changed and all(self.objects.get(p) == elf_code_hash(p) for p in changed):
                    res["build_s"] = round(build_s, 2)
                    res.update(status=IDENTICAL, detail="%d rebuilt object(s), code identical" % len(changed))
                    return res
                test_s = 0.0
                killers = []
                for t in tests:
                    if stop is not None and stop.is_set():
                        raise KeyboardInterrupt
                    need = [x for x in t.targets if x not in built]
                    if not full and need:
                        t0 = time.monotonic()
                        if steps > 0:
                            rc, out = self._ninja(fh, need)
                            built.update(need)
                            steps -= 1
                        else:
                            rc, out = self._ninja(fh)
                            full = True
                        build_s += time.monotonic() - t0
                        if rc:
                            res["build_s"] = round(build_s, 2)
                            return broken(out, " (building for %s)" % t.name)
                    v, dt, why = t.run(self.o.timeout_factor * t.base + self.o.timeout_slack)
                    test_s += dt
                    if v in ("fail", "timeout"):
                        killers.append({"test": t.name, "verdict": v, "detail": why})
                        if not self.o.all_killers:
                            break
            res["build_s"] = round(build_s, 2)
            res["test_s"] = round(test_s, 2)
            if not killers:
                res["status"] = SURVIVED
                if not tests:
                    res["detail"] = "no gate test executes the mutated code (%s)" % why
            else:
                res["status"] = TIMEOUT if all(k["verdict"] == "timeout" for k in killers) else KILLED
                res["killers"] = killers
            return res
        finally:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)


class CoverageWorker(Worker):
    """The coverage tree (covselect.py): the workers' configuration at -O0
    with --coverage, in <build-dir>/coverage; never mutated."""

    def __init__(self, root, opts):
        super().__init__(0, root, opts)
        self.dir = os.path.join(opts.build_dir, "coverage")
        self.src = os.path.join(self.dir, "src")
        self.build = os.path.join(self.dir, "build")
        self.log = os.path.join(self.dir, "build.log")

    def flush_object(self):
        return os.path.join(self.dir, "gcov_flush.o")

    def cmake_args(self):
        # the coverage map build is not sanitized (its linker flags replace UBSan's)
        a = ["-DCMAKE_C_FLAGS_DEBUG=-O0 -g --coverage" if x.startswith("-DCMAKE_C_FLAGS_DEBUG=") else x
             for x in super().cmake_args() if not x.startswith(("-DCMAKE_EXE_LINKER_FLAGS=", "-DCMAKE_SHARED_LINKER_FLAGS="))]
        # gcov_flush.o: processes that _exit or die by a signal still write
        # their counters (tests/mutation/gcov_flush.c)
        exe = "--coverage %s -Wl,--wrap=_exit,--wrap=raise" % self.flush_object()
        return a + ["-DCMAKE_EXE_LINKER_FLAGS=" + exe, "-DCMAKE_SHARED_LINKER_FLAGS=--coverage"]

    def setup(self):
        os.makedirs(self.dir, exist_ok=True)
        src = os.path.join(self.root, "tests", "mutation", "gcov_flush.c")
        self._run([self.o.cc, "-c", "-O1", "-std=c17", "-Wall", "-Werror", src, "-o", self.flush_object()],
                  "gcov_flush.o")
        super().setup()
