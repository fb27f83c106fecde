"""Mutant generation for codec/ (docs/mutation.md): a small C tokenizer and
the fixed operator set. Pure functions, standard library only; the build and
test side lives in engine.py.

Operators (names as they appear in mutant ids and reports):
  ror     relational  <  <=  >  >=  ==  !=  (each to its partner)
  const   an integer literal +1 / -1 (0 only +1); also `#define NAME <int>`
  shift   a non-literal shift amount +1 / -1 (`x << s` -> `x << (s + 1)`)
  aor     binary + <-> -, += <-> -=
  lcr     && <-> ||
  bit     binary & <-> |, &= <-> |=
  sdl     delete one statement: an expression statement (a store, a call), a
          return/break/continue/goto, or a whole `if (c) stmt;` without else
  err     a RSV_ERR_* inside a return statement -> the next error code of
          RSV_STATUS_LIST (cyclic)
  malign  a load's address rounded down to 8 bytes
  mlen    a load one byte longer (the byte after the loaded ones is read too)
"""
import hashlib
import re
from collections import namedtuple

Tok = namedtuple("Tok", "kind text start end line col")
Mutant = namedtuple("Mutant", "id file line col op orig repl start end")

PUNCT = sorted("""
>>= <<= ... -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ##
{ } [ ] ( ) ; : , . ? ~ ! + - * / % & | ^ < > = #
""".split(), key=len, reverse=True)

KEYWORDS = set("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic
_Imaginary _Noreturn _Static_assert _Thread_local __attribute__ __inline__ __restrict
""".split())
TYPE_WORDS = set("""
char const double float int long short signed unsigned void volatile static struct union enum
register extern inline _Bool bool size_t ssize_t uintptr_t intptr_t ptrdiff_t FILE
""".split())

# <stdint.h> names: a statement that starts with one of them followed by `*`
# and a name is a pointer declaration (`uint8_t *h = hd, *d = ...;`), not a
# multiplication. Only the declaration rule uses them: in casts they stay
# unknown words, as before (with them `sizeof(uint64_t) - 1` would read as a
# cast of -1).
STDINT_TYPES = set("""
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intmax_t uintmax_t
""".split())

INT_RE = re.compile(r"^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)([uUlL]*)$")


def tokenize(text):
    """Tokens of C source: kinds id, num, str, chr, op, pp (a whole
    preprocessor line with continuations), comment. Whitespace is dropped."""
    toks, i, n, line, lstart = [], 0, len(text), 1, 0
    at_line_start = True

    def add(kind, s, e):
        toks.append(Tok(kind, text[s:e], s, e, line, s - lstart + 1))

    while i < n:
        c = text[i]
        if c == "\n":
            i += 1
            line += 1
            lstart = i
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and text.startswith("\\\n", i):
            i += 2
            line += 1
            lstart = i
            continue
        if text.startswith("/*", i):
            e = text.find("*/", i + 2)
            e = n if e < 0 else e + 2
            add("comment", i, e)
            line += text.count("\n", i, e)
            if "\n" in text[i:e]:
                lstart = text.rfind("\n", i, e) + 1
            i = e
            continue
        if text.startswith("//", i):
            e = text.find("\n", i)
            e = n if e < 0 else e
            add("comment", i, e)
            i = e
            continue
        if c == "#" and at_line_start:
            s, j = i, i
            while j < n and text[j] != "\n":
                if text.startswith("\\\n", j):
                    j += 2
                    continue
                if text.startswith("/*", j):
                    k = text.find("*/", j + 2)
                    j = n if k < 0 else k + 2
                    continue
                j += 1
            add("pp", s, j)
            line += text.count("\n", s, j)
            if "\n" in text[s:j]:
                lstart = text.rfind("\n", s, j) + 1
            i = j
            continue
        at_line_start = False
        if c in "\"'" or (c in "LuU8" and re.match(r"(u8|[LuU])[\"']", text[i:i + 3])):
            j = i
            while text[j] not in "\"'":
                j += 1
            q = text[j]
            j += 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            add("str" if q == '"' else "chr", i, j + 1)
            i = j + 1
            continue
        if c.isalpha() or c == "_":
            m = re.compile(r"[A-Za-z_0-9]+").match(text, i)
            add("id", i, m.end())
            i = m.end()
            continue
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = re.compile(r"\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*").match(text, i)
            add("num", i, m.end())
            i = m.end()
            continue
        for p in PUNCT:
            if text.startswith(p, i):
                add("op", i, i + len(p))
                i += len(p)
                break
        else:
            add("op", i, i + 1)
            i += 1
    return toks


def int_literal_variants(text):
    """[(delta, new_text)] for an integer literal, same base and suffix."""
    m = INT_RE.match(text)
    if not m:
        return []
    body, suf = m.groups()
    if body.lower().startswith("0x"):
        v = int(body, 16)
        width = len(body) - 2
        upper = body[2:] != body[2:].lower()
        fmt = lambda x: body[:2] + (format(x, "0%dX" % width) if upper else format(x, "0%dx" % width))
    else:
        v = int(body)
        fmt = str
    out = [(+1, fmt(v + 1) + suf)]
    if v > 0:
        out.append((-1, fmt(v - 1) + suf))
    return out


def match_close(toks, i):
    """Index of the token closing the bracket at toks[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    o, c, d = toks[i].text, pairs[toks[i].text], 0
    for j in range(i, len(toks)):
        if toks[j].text == o and toks[j].kind == "op":
            d += 1
        elif toks[j].text == c and toks[j].kind == "op":
            d -= 1
            if d == 0:
                return j
    raise ValueError("unbalanced %r at line %d" % (o, toks[i].line))


def typedef_names(texts):
    """Typedef names declared in the given sources (for cast detection)."""
    names = set()
    for text in texts:
        for m in re.finditer(r"\btypedef\b[^;{]*?(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})?\s*\**\s*(\w+)\s*;", text):
            names.add(m.group(1))
    return names


class Ctx:
    """Per-file analysis: which tokens are in code, statements, declarations."""

    def __init__(self, toks, typedefs):
        self.t = [x for x in toks if x.kind not in ("comment", "pp")]
        self.types = TYPE_WORDS | typedefs
        self.code = [False] * len(self.t)   # token may be mutated (body, enum, initializer)
        self.decl_bracket = [False] * len(self.t)  # inside [..] of a declaration
        self.stmts = []     # (first, last, kind) simple statements in function bodies
        self.ifs = []       # (first, last) `if (c) simple;` without else
        self.returns = []   # (first, last) return statements
        self.fn_close = set()  # index of each function body's closing brace
        self._scan_top()

    def is_type_start(self, i):
        t = self.t
        if t[i].kind != "id":
            return False
        if t[i].text in self.types:
            return True
        return (i + 1 < len(t) and t[i + 1].kind == "id") or (
            i + 2 < len(t) and t[i + 1].text == "*" and t[i + 2].kind == "id" and t[i].text[0].isalpha()
            and (t[i].text in self.types or t[i].text in STDINT_TYPES))

    def _scan_top(self):
        t, i = self.t, 0
        while i < len(t):
            x = t[i]
            if x.text == "{" and x.kind == "op":
                j = match_close(t, i)
                prev = t[i - 1].text if i else ""
                if t[i - 1].kind == "str" and i > 1 and t[i - 2].text == "extern":
                    i += 1  # extern "C" { ... }: scan inside (the } is in a pp-conditional)
                    continue
                back = [y.text for y in t[max(0, i - 3):i]]
                if prev == ")":
                    for k in range(i, j + 1):
                        self.code[k] = True
                    self.fn_close.add(j)
                    self._block(i)
                elif "enum" in back or prev == "=":
                    for k in range(i, j + 1):
                        self.code[k] = True
                i = j + 1
                continue
            if x.text == "=" and x.kind == "op":  # file-scope initializer
                k = i + 1
                while k < len(t) and t[k].text != ";":
                    if t[k].text in "({[" and t[k].kind == "op":
                        k = match_close(t, k)
                    k += 1
                for m in range(i + 1, k):
                    self.code[m] = True
                i = k
                continue
            i += 1

    def _block(self, i):
        j = i + 1
        while self.t[j].text != "}":
            j = self._stmt(j)
        return j + 1

    def _simple_end(self, i):
        t, j = self.t, i
        while t[j].text != ";":
            if t[j].text in "({[" and t[j].kind == "op":
                j = match_close(t, j)
            j += 1
        return j

    def _single_simple(self, body):
        """(first, last, kind, after) when the statement at body is one simple
        statement, bare or alone in braces; else None."""
        t, compound = self.t, ("{", "if", "for", "while", "do", "switch", ";", "}", "case", "default")
        if t[body].text not in compound:
            e = self._simple_end(body)
            return body, e, self._classify(body, e), e + 1
        if t[body].text == "{" and t[body + 1].text not in compound:
            e = self._simple_end(body + 1)
            if t[e + 1].text == "}":
                return body + 1, e, self._classify(body + 1, e), e + 2
        return None

    def _add(self, a, e, kind):
        if kind != "decl":
            self.stmts.append((a, e, kind))
        if kind == "return":
            self.returns.append((a, e))

    def _stmt(self, i):
        t = self.t
        x = t[i].text
        if x == "{":
            return self._block(i)
        if x == ";":
            return i + 1
        if x == "if":
            body = match_close(t, i + 1) + 1
            inner = self._single_simple(body)
            k = inner[3] if inner else self._stmt(body)
            has_else = k < len(t) and t[k].text == "else"
            if inner:
                if has_else:
                    self._add(*inner[:3])
                else:  # deleting the whole `if` subsumes deleting its body
                    self.ifs.append((i, k - 1))
                    if inner[2] == "return":
                        self.returns.append(inner[:2])
            return self._stmt(k + 1) if has_else else k
        if x in ("for", "while", "switch"):
            return self._stmt(match_close(t, i + 1) + 1)
        if x == "do":
            k = self._stmt(i + 1)
            return match_close(t, k + 1) + 2
        if x in ("case", "default"):
            j = i
            while t[j].text != ":":
                j += 1
            return j + 1
        if t[i].kind == "id" and t[i + 1].text == ":" and x not in KEYWORDS:
            return i + 2
        e = self._simple_end(i)
        self._add(i, e, self._classify(i, e))
        return e + 1

    def _classify(self, i, e):
        t = self.t
        x = t[i].text
        if x == "return":
            return "return"
        if x in ("break", "continue", "goto"):
            return "jump"
        if self.is_type_start(i) and t[i + 1].text not in ("=", "(", "[", "->", ".", "+=", "-=", "|=", "&=",
                                                           "^=", "<<=", ">>=", "++", "--"):
            # Array sizes are the brackets of the declarators, not those of
            # an initializer (`*s = t + (off[7] - base)`: 7 is an index).
            k, init = i, False
            while k < e:
                x = t[k]
                if x.kind == "op" and x.text == "=":
                    init = True
                elif x.kind == "op" and x.text == ",":
                    init = False
                elif x.kind == "op" and x.text in ("(", "[", "{"):
                    close = match_close(t, k)
                    if x.text == "[" and not init:
                        for m in range(k, close + 1):
                            self.decl_bracket[m] = True
                    k = close
                k += 1
            return "decl"
        return "expr"


OPERAND_END = ("id", "num", "str", "chr")


def _binary(ctx, i):
    """Is the + - & at token i a binary operator?"""
    t = ctx.t
    if i == 0:
        return False
    p = t[i - 1]
    if p.kind in OPERAND_END:
        return not (p.kind == "id" and p.text in KEYWORDS)
    if p.text == "]":
        return True
    if p.text == ")":  # a cast `(type)-x` is unary
        o = i - 1
        d = 0
        while o >= 0:
            if t[o].text == ")":
                d += 1
            elif t[o].text == "(":
                d -= 1
                if d == 0:
                    break
            o -= 1
        inner = t[o + 1:i - 1]
        if inner and all(y.text in ctx.types or y.text == "*" for y in inner) and inner[0].text in ctx.types:
            return False
        return True
    return False


REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
AOR = {"+": "-", "-": "+", "+=": "-=", "-=": "+="}
BIT = {"&": "|", "|": "&", "&=": "|=", "|=": "&="}
LCR = {"&&": "||", "||": "&&"}

# Load helpers: name -> (address argument index, size: int bytes or argument
# index as "argN"). Every rsv__load_<kind> also has an rsv__load_<kind>_in
# form with the site's bound [lo, hi) as its last two arguments (mem_impl.h).
LOADS = {
    "rsv__load_be64": (0, 8), "rsv__load_le64": (0, 8), "rsv__load_be32": (0, 4),
    "rsv__load_be16": (0, 2), "rsv__load_u8": (0, 1), "rsv__load_be_n": (0, "arg1"),
    "rsv__load_le_n": (0, "arg1"), "rsv__load_copy": (0, "arg1"),
    "rsv__be32": (0, 4), "rsv__be16": (0, 2), "load_le64": (0, 8), "load64": (0, 8),
    "memcpy": (1, "arg2"),
}
LOADS.update({k + "_in": v for k, v in LOADS.items() if k.startswith("rsv__load_")})
MEM_SKIP_FILES = ("codec/src/file_io.c",)  # path strings, not codec input


def _split_args(t, o, c):
    args, s, k = [], o + 1, o + 1
    while k < c:
        if t[k].text in "([{" and t[k].kind == "op":
            k = match_close(t, k)
        elif t[k].text == ",":
            args.append((s, k - 1))
            s = k + 1
        k += 1
    args.append((s, c - 1))
    return args


def generate(relpath, text, typedefs=frozenset(), err_codes=()):
    """All mutants of one file, in source order, ids stable (see mutant_id)."""
    toks = tokenize(text)
    ctx = Ctx(toks, set(typedefs))
    t = ctx.t
    raw = []  # (op, start, end, orig, repl)

    def add(op, s, e, repl):
        raw.append((op, s, e, text[s:e], repl))

    for i, x in enumerate(t):
        if not ctx.code[i]:
            continue
        if x.kind == "op":
            if x.text in REL:
                add("ror", x.start, x.end, REL[x.text])
            elif x.text in LCR:
                add("lcr", x.start, x.end, LCR[x.text])
            elif x.text in AOR and (x.text.endswith("=") or _binary(ctx, i)):
                add("aor", x.start, x.end, AOR[x.text])
            elif x.text in BIT and (x.text.endswith("=") or x.text == "|" or _binary(ctx, i)):
                add("bit", x.start, x.end, BIT[x.text])
            if x.text in ("<<", ">>", "<<=", ">>=") and i + 1 < len(t):
                j = i + 1
                if t[j].kind == "id" and t[j].text not in KEYWORDS:
                    e = j
                    while e + 2 < len(t) and t[e + 1].text in ("->", ".") and t[e + 2].kind == "id":
                        e += 2
                elif t[j].text == "(":
                    e = match_close(t, j)
                    # `(type)operand`: a cast group followed by its operand is
                    # one amount; mutating the group alone gave `((unsigned)
                    # + 1)rem`, which does not compile
                    if e is not None and e + 1 < len(t) and t[e + 1].kind in ("id", "num") \
                            and t[e + 1].text not in KEYWORDS:
                        e += 1
                        while e + 2 < len(t) and t[e + 1].text in ("->", ".") and t[e + 2].kind == "id":
                            e += 2
                else:
                    e = None
                if e is not None and e + 1 < len(t) and t[e + 1].text not in ("*", "/", "%", "+", "-", "(", "["):
                    s0, e0 = t[j].start, t[e].end
                    for d in ("+ 1", "- 1"):
                        add("shift", s0, e0, "(%s %s)" % (text[s0:e0], d))
        elif x.kind == "num" and not ctx.decl_bracket[i]:
            for d, new in int_literal_variants(x.text):
                add("const", x.start, x.end, new)
    # object-like `#define NAME <int>`
    for x in toks:
        if x.kind == "pp":
            m = re.match(r"#\s*define\s+\w+\s+\(?\s*([0-9][0-9a-fA-FxXuUlL]*)\s*\)?\s*(/\*.*\*/)?\s*$", x.text)
            if m:
                s = x.start + m.start(1)
                for d, new in int_literal_variants(m.group(1)):
                    add("const", s, s + len(m.group(1)), new)
    # statement deletion
    def blank(s, e):
        return ";" + "\n" * text.count("\n", s, e)
    for (a, b) in ctx.ifs:
        add("sdl", t[a].start, t[b].end, blank(t[a].start, t[b].end))
    for (a, b, kind) in ctx.stmts:
        if kind == "return" and b + 1 in ctx.fn_close:
            continue  # the function's final return: deleting it is UB, not a mutant
        add("sdl", t[a].start, t[b].end, blank(t[a].start, t[b].end))
    # error code replacement inside return statements
    errs = [e for e in err_codes if e.startswith("RSV_ERR_")]
    if errs:
        for (a, b) in set(ctx.returns):
            for k in range(a, b + 1):
                if t[k].kind == "id" and t[k].text in errs:
                    nxt = errs[(errs.index(t[k].text) + 1) % len(errs)]
                    add("err", t[k].start, t[k].end, nxt)
    # memory operators at load call sites
    if relpath not in MEM_SKIP_FILES:
        for i, x in enumerate(t):
            if not ctx.code[i] or x.kind != "id" or x.text not in LOADS or t[i + 1].text != "(":
                continue
            if i and t[i - 1].kind == "id" and t[i - 1].text not in KEYWORDS:
                continue  # a declaration or definition, not a call
            c = match_close(t, i + 1)
            args = _split_args(t, i + 1, c)
            ai, size = LOADS[x.text]
            bounded = x.text.endswith("_in")
            if ai >= len(args) or (bounded and len(args) < 3):
                continue
            a0, a1 = args[ai]
            addr = text[t[a0].start:t[a1].end]
            if t[a0].kind == "str" or re.search(r"\+\+|--|[^=!<>]=[^=]", addr):
                continue
            if x.text == "memcpy" and t[a0].text == "&":
                continue  # copies a codec-local object's bytes (a store's source), not input
            if isinstance(size, str):
                k = int(size[3:])
                if k >= len(args):
                    continue
                size_txt = "(" + text[t[args[k][0]].start:t[args[k][1]].end] + ")"
            else:
                size_txt = str(size)
            aligned = "((const uint8_t *)((uintptr_t)(%s) & ~(uintptr_t)7))" % addr
            add("malign", t[a0].start, t[a1].end, aligned)
            call = text[x.start:t[c].end]
            after = "((const uint8_t *)(%s) + %s)" % (addr, size_txt)
            touch = "*(const volatile uint8_t *)%s" % after
            # The byte after the loaded ones. Through a load helper it is
            # loaded by the same helper family, so a load-check build checks
            # it against the same site bound and the harness's window (a
            # one-byte-longer load [p, p + size] lies in an interval iff
            # [p, p + size) and p + size do); the volatile read keeps it
            # visible to guard pages in every build.
            if x.text.startswith("rsv__load_"):
                if bounded:
                    lo, hi = args[-2], args[-1]
                    checked = "rsv__load_u8_in(%s, %s, %s)" % (after, text[t[lo[0]].start:t[lo[1]].end],
                                                               text[t[hi[0]].start:t[hi[1]].end])
                else:
                    checked = "rsv__load_u8(%s)" % after
                touch = "(%s + %s)" % (checked, touch)
            if x.text in ("memcpy", "rsv__load_copy", "rsv__load_copy_in"):
                repl = "(%s, (void)%s)" % (call, touch)
            else:
                repl = "(%s + 0 * %s)" % (call, touch)
            add("mlen", x.start, t[c].end, repl)
    return _finish(relpath, text, raw)


def _norm(s):
    return " ".join(s.split())


def _finish(relpath, text, raw):
    """Dedupe, sort, and give each mutant its stable id.

    id = <file stem>.<op>.<8 hex> where the hash covers the path, operator,
    original and replacement text, the whitespace-normalized source line(s)
    and the occurrence number of that same key earlier in the file: edits
    elsewhere (lines moving) keep ids; editing the line itself changes them."""
    seen, out, counts = set(), [], {}
    stem = relpath.rsplit("/", 1)[-1].replace(".", "_")
    for op, s, e, orig, repl in sorted(raw, key=lambda r: (r[1], r[2], r[0], r[4])):
        if (s, e, repl) in seen or orig == repl:
            continue
        seen.add((s, e, repl))
        ls = text.rfind("\n", 0, s) + 1
        le = text.find("\n", e)
        le = len(text) if le < 0 else le
        key = (op, _norm(orig), _norm(repl), _norm(text[ls:le]), s - ls if "\n" not in text[ls:s] else 0,
               _norm(text[ls:s]))
        counts[key] = counts.get(key, 0) + 1
        h = hashlib.sha1(repr((relpath, key, counts[key])).encode()).hexdigest()[:8]
        line = text.count("\n", 0, s) + 1
        out.append(Mutant("%s.%s.%s" % (stem, op, h), relpath, line, s - ls + 1, op, orig, repl, s, e))
    return out


def apply(text, m):
    return text[:m.start] + m.repl + text[m.end:]


def status_errors(status_h_text):
    """RSV_ERR_* names in RSV_STATUS_LIST order."""
    return ["RSV_" + m.group(1) for m in re.finditer(r"X\((ERR_\w+)\s*,", status_h_text)]
