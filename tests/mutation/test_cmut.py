#!/usr/bin/env python3
"""Self-test of the mutation runner's tokenizer and operators (ctest
mutation_tool, label mutation-tool). The expected mutants are written out by
hand from the fixture below, not taken from the generator."""
import os
import sys
import tempfile
import collections
import signal
import subprocess
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cmut  # noqa: E402
import covselect  # noqa: E402
import engine  # noqa: E402
import report  # noqa: E402

FIXTURE = r'''#include <stdint.h>
#define LIMIT 8 /* a limit */
#define NAME(x) ((x) < 3)
typedef struct pair { int a; int b; } pair;
/* comment: a < b && c */
static const char *msg = "a < b && c | d";
static int f(pair *p, const uint8_t *d, unsigned s)
{
    uint8_t buf[16];
    int x = p->a - 1; // tail comment -> x <= y
    if (x << 1 >= p->b) return RSV_ERR_ONE;
    x = (int)-x + (x >> s);
    x &= (unsigned)&x != 0 || *d;
    buf[0] = (uint8_t)(x & 3);
    p->b = rsv__load_be64(d + 2) == 0;
    return x;
}
'''
ERRS = ["RSV_ERR_ONE", "RSV_ERR_TWO"]
MEM_FIXTURE = r'''static uint64_t g(uint8_t *o, const uint8_t *q, size_t n, const uint8_t *lo, const uint8_t *hi)
{
    uint64_t x = 0;
    rsv__load_copy_in(q, n, o, lo, hi);
    x = rsv__load_be64_in(q, lo, hi);
    memcpy(o, q, n);
    memcpy(o, &x, 8);
    return x;
}
'''

# Declarations that start with a <stdint.h> type, pointer declarators, and
# indices inside initializers (which are not array sizes).
DECL_FIXTURE = r'''static uint32_t h(const uint8_t *t, const uint64_t *off, uint64_t base)
{
    uint8_t *a = (uint8_t *)t, *b = a + 2;
    uint8_t *s = a + (off[7] - base);
    uint64_t w[4] = {0}, v = off[3];
    w[1] = off[2];
    return (uint32_t)(a[0] + b[0] + s[0] + w[1] + v);
}
'''


def gen(text=FIXTURE, path="codec/src/fixture.c"):
    return cmut.generate(path, text, cmut.typedef_names([text]), ERRS)


def muts(ms, op=None):
    return {(m.line, m.col, m.orig, m.repl) for m in ms if op is None or m.op == op}


class Tokenizer(unittest.TestCase):
    def test_multichar_punctuators(self):
        toks = [t.text for t in cmut.tokenize("a->b<<=c>>d<=e&&f||g--")]
        self.assertEqual(toks, ["a", "->", "b", "<<=", "c", ">>", "d", "<=", "e", "&&", "f", "||", "g", "--"])

    def test_comments_strings_pp(self):
        toks = cmut.tokenize('#define A 1 \\\n  + 2\nx = "a<b" /* < */ + \'<\'; // <\n')
        self.assertEqual([t.kind for t in toks], ["pp", "id", "op", "str", "comment", "op", "chr", "op",
                                                   "comment"])
        self.assertEqual(toks[1].line, 3)
        self.assertEqual(toks[1].col, 1)


class Operators(unittest.TestCase):
    def setUp(self):
        self.ms = gen()

    def test_nothing_inside_comments_strings_or_includes(self):
        lines = FIXTURE.split("\n")
        for m in self.ms:
            self.assertNotIn(m.line, (1, 3, 5, 6), m)  # #include, function-like macro, comment, string
            self.assertFalse(m.line == 10 and m.col > lines[9].index("//"), m)

    def test_arrow_and_shift_are_not_relational(self):
        ror = muts(self.ms, "ror")
        # line 11: only `>=` (col 16), never the `<` of `<<`
        self.assertEqual({x for x in ror if x[0] == 11}, {(11, 16, ">=", ">")})
        # line 10 `p->a`: no `-` or `>` mutants at the arrow
        self.assertEqual({x for x in muts(self.ms) if x[0] == 10 and x[2] in ("-", ">", "->")},
                         {(10, 18, "-", "+")})

    def test_relational_and_logic(self):
        self.assertIn((13, 23, "!=", "=="), muts(self.ms, "ror"))
        self.assertIn((13, 28, "||", "&&"), muts(self.ms, "lcr"))
        self.assertIn((15, 34, "==", "!="), muts(self.ms, "ror"))

    def test_unary_operators_untouched(self):
        # `(int)-x` is a cast then unary minus; `(unsigned)&x` is address-of
        aor = muts(self.ms, "aor")
        self.assertEqual({x for x in aor if x[0] == 12}, {(12, 17, "+", "-")})
        bit = muts(self.ms, "bit")
        self.assertEqual({x for x in bit if x[0] == 13}, {(13, 7, "&=", "|=")})
        self.assertIn((14, 26, "&", "|"), bit)

    def test_constants(self):
        c = muts(self.ms, "const")
        self.assertIn((2, 15, "8", "9"), c)   # object-like #define
        self.assertIn((2, 15, "8", "7"), c)
        self.assertIn((11, 14, "1", "2"), c)  # shift amount
        self.assertIn((14, 9, "0", "1"), c)   # index 0: +1 only
        self.assertNotIn((14, 9, "0", "-1"), c)
        self.assertFalse([x for x in c if x[0] == 9], "array size in a declaration")
        self.assertFalse([x for x in c if x[0] == 4], "struct definition")

    def test_shift_amount(self):
        self.assertEqual({x for x in muts(self.ms, "shift")},
                         {(12, 25, "s", "(s + 1)"), (12, 25, "s", "(s - 1)")})

    def test_shift_amount_cast(self):
        # a cast amount is mutated whole: `((unsigned)rem + 1)`, not
        # `((unsigned) + 1)rem` (which does not compile)
        ms = gen("static unsigned long f(unsigned long x, int rem, struct q *p)\n"
                 "{\n    return (x >> (unsigned)rem) + (x << (unsigned)p->n);\n}\n")
        self.assertEqual({x for x in muts(ms, "shift")},
                         {(3, 18, "(unsigned)rem", "((unsigned)rem + 1)"),
                          (3, 18, "(unsigned)rem", "((unsigned)rem - 1)"),
                          (3, 41, "(unsigned)p->n", "((unsigned)p->n + 1)"),
                          (3, 41, "(unsigned)p->n", "((unsigned)p->n - 1)")})

    def test_stdint_declarations(self):
        ms = gen(DECL_FIXTURE)
        sdl = muts(ms, "sdl")
        self.assertFalse([x for x in sdl if x[0] in (3, 4, 5)], "declarations are never deleted")
        self.assertIn((6, 5, "w[1] = off[2];", ";"), sdl)
        c = muts(ms, "const")
        self.assertTrue({(3, 41, "2", "3"), (3, 41, "2", "1")} <= c)   # initializer of the 2nd declarator
        self.assertTrue({(4, 27, "7", "8"), (4, 27, "7", "6")} <= c)   # an index in an initializer
        self.assertTrue({(5, 22, "0", "1"), (5, 34, "3", "4"), (5, 34, "3", "2")} <= c)
        self.assertFalse([x for x in c if x[:2] == (5, 16)], "array size in a declaration")

    def test_statement_deletion_and_error_codes(self):
        sdl = muts(self.ms, "sdl")
        self.assertIn((11, 5, "if (x << 1 >= p->b) return RSV_ERR_ONE;", ";"), sdl)
        self.assertIn((15, 5, "p->b = rsv__load_be64(d + 2) == 0;", ";"), sdl)
        self.assertFalse([x for x in sdl if x[0] in (9, 10)], "declarations are never deleted")
        self.assertFalse([x for x in sdl if x[0] == 16], "the final return is never deleted")
        self.assertEqual(muts(self.ms, "err"), {(11, 32, "RSV_ERR_ONE", "RSV_ERR_TWO")})

    def test_memory_operators(self):
        mal = muts(self.ms, "malign")
        self.assertEqual(mal, {(15, 27, "d + 2", "((const uint8_t *)((uintptr_t)(d + 2) & ~(uintptr_t)7))")})
        mlen = muts(self.ms, "mlen")
        self.assertEqual(mlen, {(15, 12, "rsv__load_be64(d + 2)",
                                 "(rsv__load_be64(d + 2) + 0 * (rsv__load_u8(((const uint8_t *)(d + 2) + 8)) + "
                                 "*(const volatile uint8_t *)((const uint8_t *)(d + 2) + 8)))")})

    def test_memory_operators_bounded_copy_and_local_source(self):
        ms = gen(MEM_FIXTURE)
        self.assertEqual(muts(ms, "malign"), {
            (4, 23, "q", "((const uint8_t *)((uintptr_t)(q) & ~(uintptr_t)7))"),
            (5, 27, "q", "((const uint8_t *)((uintptr_t)(q) & ~(uintptr_t)7))"),
            (6, 15, "q", "((const uint8_t *)((uintptr_t)(q) & ~(uintptr_t)7))")})
        self.assertEqual(muts(ms, "mlen"), {
            # the `_in` form: the extra byte checked against the same site bound
            (4, 5, "rsv__load_copy_in(q, n, o, lo, hi)",
             "(rsv__load_copy_in(q, n, o, lo, hi), (void)(rsv__load_u8_in(((const uint8_t *)(q) + (n)), lo, hi) + "
             "*(const volatile uint8_t *)((const uint8_t *)(q) + (n))))"),
            (5, 9, "rsv__load_be64_in(q, lo, hi)",
             "(rsv__load_be64_in(q, lo, hi) + 0 * (rsv__load_u8_in(((const uint8_t *)(q) + 8), lo, hi) + "
             "*(const volatile uint8_t *)((const uint8_t *)(q) + 8)))"),
            # plain memcpy: only the volatile byte; memcpy(o, &x, 8) (a local's bytes) is no load site
            (6, 5, "memcpy(o, q, n)",
             "(memcpy(o, q, n), (void)*(const volatile uint8_t *)((const uint8_t *)(q) + (n)))")})

    def test_ids_stable_unique_and_position_independent(self):
        ids = [m.id for m in self.ms]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertEqual(ids, [m.id for m in gen()])
        moved = gen("\n\n/* two lines and a comment above */\n" + FIXTURE)
        self.assertEqual(sorted(ids), sorted(m.id for m in moved))
        self.assertNotEqual(set(ids), {m.id for m in gen(path="codec/src/other.c")})

    def test_apply_keeps_line_count(self):
        for m in self.ms:
            self.assertEqual(cmut.apply(FIXTURE, m).count("\n"), FIXTURE.count("\n"), m)


class Support(unittest.TestCase):
    def test_int_literals(self):
        self.assertEqual(cmut.int_literal_variants("0x3F"), [(1, "0x40"), (-1, "0x3E")])
        self.assertEqual(cmut.int_literal_variants("63u"), [(1, "64u"), (-1, "62u")])
        self.assertEqual(cmut.int_literal_variants("0"), [(1, "1")])
        self.assertEqual(cmut.int_literal_variants("1.5"), [])

    def test_elf_hash_ignores_nothing_but_debug(self):
        with tempfile.NamedTemporaryFile(suffix=".bin") as f:
            f.write(b"not an elf")
            f.flush()
            self.assertEqual(len(engine.elf_code_hash(f.name)), 40)


class NotCompiled(unittest.TestCase):
    """engine.not_compiled on a hand-written header. Lines (1-based):
    1 guard #ifndef, 2 #define H, 3 #define W 8, 4 #define M(a, \\,
    5 its continuation, 6 #if LE, 7 le code, 8 #else, 9 be code, 10 #endif,
    11 call(1,, 12 its second line, 13 #endif. The -E -dD output of a
    little-endian translation unit keeps 2, 3, 4 (a #define, joined), 7 and
    11 (a macro call spanning lines is one output line)."""
    TEXT = "\n".join(["#ifndef H", "#define H", "#define W 8", "#define M(a) \\", "  ((a) + W)",
                      "#if LE", "le();", "#else", "be();", "#endif", "call(1,", "  2);", "#endif"])
    ACT = {2, 3, 4, 7, 11}

    def test_groups(self):
        g = engine.cond_groups(self.TEXT)
        self.assertEqual(len(g), 13)
        self.assertIsNone(g[0])  # the #ifndef line itself
        self.assertEqual(g[1], g[10])  # guard group: 2 and 11
        self.assertNotEqual(g[6], g[8])  # le and be branches differ
        self.assertNotEqual(g[6], g[1])

    def test_only_a_dropped_group_is_not_compiled(self):
        g = engine.cond_groups(self.TEXT)
        nc = [ln for ln in range(1, 14) if engine.not_compiled(self.ACT, g, ln)]
        # 9: the big-endian branch; 5 (#define continuation) and 12 (second
        # line of a call) are absent from -E but compiled; directive lines
        # (1, 6, 8, 10, 13) are outside every group and the file is included
        self.assertEqual(nc, [9])

    def test_file_never_included(self):
        g = engine.cond_groups(self.TEXT)
        self.assertTrue(all(engine.not_compiled(set(), g, ln) for ln in range(1, 14)))


class CoverageSelection(unittest.TestCase):
    """covselect.Selector on a hand-written map: f() spans lines 10-20 with
    code on 11, 12, 14 and 18; t1 ran 11 and 12, t2 ran 11 and 18 (an
    inline function of the same file instantiated in two translation units
    is one range); t3 failed in the coverage build."""
    MAP = {"lines": {"a.c": [11, 12, 14, 18]}, "functions": {"a.c": [[10, 20], [10, 20]]},
           "tests": {"t1": {"a.c": [11, 12]}, "t2": {"a.c": [11, 18]}},
           "fn_tests": {"a.c": {"10-20": ["t1", "t2"]}}, "failed": ["t3"]}

    def setUp(self):
        self.s = covselect.Selector(self.MAP)

    def test_line_with_code(self):
        self.assertEqual(self.s.select("a.c", 12)[0], {"t1", "t2", "t3"})  # window 10..14: 11, 12
        self.assertEqual(self.s.select("a.c", 18)[0], {"t2", "t3"})  # window 16..20

    def test_unexecuted_line_selects_only_the_failed(self):
        # 14's window 12..16 holds 12 (t1): t1; nobody ran 14 itself, but a
        # literal of 14 may be used by 12's code
        self.assertEqual(self.s.select("a.c", 14)[0], {"t1", "t3"})
        m = dict(self.MAP, failed=[])
        self.assertEqual(covselect.Selector(m).select("a.c", 18)[0], {"t2"})

    def test_line_without_code_takes_the_function(self):
        self.assertEqual(self.s.select("a.c", 16)[0], {"t1", "t2", "t3"})

    def test_file_scope_takes_all(self):
        self.assertIsNone(self.s.select("a.c", 5)[0])
        self.assertIsNone(self.s.select("b.c", 12)[0])

    def test_unexecuted_lines(self):
        # 14 has code and no test ran it; 16 has no code of its own (its
        # window and function ran); 11 and 18 ran; 40 is not a line with code
        M = collections.namedtuple("M", "file line")
        ms = [M("a.c", 14), M("a.c", 16), M("a.c", 11), M("a.c", 18), M("a.c", 40), M("b.c", 14)]
        self.assertEqual(self.s.unexecuted(ms), [M("a.c", 14)])
        m = dict(self.MAP, tests={"t1": {"a.c": [11, 12, 14]}})
        self.assertEqual(covselect.Selector(m).unexecuted(ms), [M("a.c", 18)])

    def test_nothing_executes(self):
        m = {"lines": {"a.c": [30]}, "functions": {"a.c": [[29, 31]]}, "tests": {"t1": {"a.c": [11]}},
             "fn_tests": {}, "failed": []}
        self.assertEqual(covselect.Selector(m).select("a.c", 30)[0], set())


class KillGroup(unittest.TestCase):
    """engine.kill_group on a test whose child put itself in a process group
    of its own (as Criterion's workers do) and loops holding the output
    pipe: the child is found (engine.test_processes) and killed, so the
    runner's read of the pipe ends."""

    def test_child_in_its_own_group_is_killed(self):
        code = ("import os, time\n"
                "if os.fork() == 0:\n"
                "    os.setpgid(0, 0)\n"
                "while True:\n"
                "    time.sleep(0.05)\n")
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True)
        victims = set()
        try:
            child = None
            for _ in range(200):  # until the child exists and has left the test's group
                victims = engine.test_processes(p.pid) - {p.pid}  # the test itself is in its session
                child = next(iter(victims), None)
                if child is not None and os.getpgid(child) != p.pid:
                    break
                time.sleep(0.05)
            self.assertEqual(len(victims), 1, "the forked child")
            self.assertNotEqual(os.getpgid(child), p.pid, "the child has a group of its own")
            engine.kill_group(p)
            p.communicate(timeout=10)  # would time out while the child held the pipe
            self.assertEqual(p.returncode, -signal.SIGKILL)
            for _ in range(100):
                if not engine.test_processes(p.pid) & victims:
                    break
                time.sleep(0.05)
            self.assertEqual(engine.test_processes(p.pid) & victims, set(), "the child survived")
        finally:
            for q in victims | {p.pid}:
                try:
                    os.kill(q, signal.SIGKILL)
                except OSError:
                    pass
            p.wait()
            p.stdout.close()


class Equivalent(unittest.TestCase):
    """report.read_equivalent: an argument per entry, one entry per id (a
    second entry would silently replace the first), and the checked-in file
    passes both rules."""

    def read(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        try:
            return report.read_equivalent(f.name)
        finally:
            os.unlink(f.name)

    def test_entries(self):
        self.assertEqual(self.read("# c\na.c.ror.1  why\n\nb.c.sdl.2  because so\n"),
                         {"a.c.ror.1": "why", "b.c.sdl.2": "because so"})

    def test_missing_argument(self):
        with self.assertRaises(SystemExit):
            self.read("a.c.ror.1\n")

    def test_duplicate(self):
        with self.assertRaises(SystemExit) as e:
            self.read("a.c.ror.1  one\nb.c.sdl.2  x\na.c.ror.1  two\n")
        self.assertIn("listed twice", str(e.exception))

    def test_checked_in_file(self):
        here = os.path.dirname(os.path.abspath(__file__))
        self.assertGreater(len(report.read_equivalent(os.path.join(here, "equivalent.txt"))), 0)


if __name__ == "__main__":
    unittest.main()
