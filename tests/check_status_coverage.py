#!/usr/bin/env python3
"""Check docs/status-coverage.md against the codec sources and the tests.

    check_status_coverage.py [SOURCE_DIR]

Fails (exit 1, one line per problem) when
  - a status the codec can return (an RSV_ERR_* name in codec/src or
    codec/include outside comments and string literals) has no row in the
    first table, or its row names neither a test nor a seed and is not marked
    "unreached:" with a reason;
  - a code of RSV_STATUS_LIST (status.h) is in neither table;
  - a named test `suite::name` has no Test(suite, name) under tests/, or a
    named seed path (`corpus/...`) does not exist;
  - a row of the second table ("does not return") has no argument.
Before checking the real document it checks a copy with its first row
removed and requires that to fail, so the checker demonstrably can fail.
Prints "N passed, N failed" (checks) at the end."""
import glob
import os
import re
import sys


def strip_c(text):
    """C source without comments and string/char literals."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            i = n if j < 0 else j + 2
            out.append(' ')
        elif text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            out.append(' ')
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def returnable(root):
    names = set()
    files = glob.glob(os.path.join(root, 'codec/src/*.[ch]')) + \
        glob.glob(os.path.join(root, 'codec/include/reservoir/*.h'))
    for f in files:
        with open(f, encoding='utf-8') as fh:
            names.update(re.findall(r'\bRSV_ERR_[A-Z0-9_]+\b', strip_c(fh.read())))
    return names


def status_list(root):
    with open(os.path.join(root, 'codec/include/reservoir/status.h'), encoding='utf-8') as fh:
        return ['RSV_' + m for m in re.findall(r'^\s*X\((\w+),', fh.read(), re.M)]


def test_names(root):
    names = set()
    for f in glob.glob(os.path.join(root, 'tests/**/*.c'), recursive=True):
        with open(f, encoding='utf-8') as fh:
            for s, t in re.findall(r'^Test\(\s*(\w+)\s*,\s*(\w+)', fh.read(), re.M):
                names.add(s + '::' + t)
    return names


def parse_doc(text):
    """(covered rows {name: (tests, seeds, cells)}, not-returned rows {name: argument})."""
    covered, not_returned, table = {}, {}, 0
    for line in text.splitlines():
        if line.startswith('## '):
            table += 1
        if not line.startswith('| `RSV_'):
            continue
        cells = [c.strip().replace('\x00', '|')
                 for c in line.replace('\\|', '\x00').strip().strip('|').split('|')]
        name = cells[0].strip('`')
        if table == 1 and len(cells) >= 5:
            tests = re.findall(r'`(\w+::\w+)`', cells[3])
            seeds = re.findall(r'`(corpus/[^`]+)`', cells[4])
            covered[name] = (tests, seeds, cells)
        elif table == 2 and len(cells) >= 3:
            not_returned[name] = cells[2]
    return covered, not_returned


def check(root, text):
    """List of problems, and the number of checks made."""
    problems, checks = [], 0
    covered, not_returned = parse_doc(text)
    known_tests = test_names(root)
    for name in sorted(returnable(root)):
        checks += 1
        if name not in covered:
            problems.append(f'{name}: the codec can return it but the table has no row')
            continue
        tests, seeds, cells = covered[name]
        if not tests and not seeds and not re.match(r'unreached:\s*\S', cells[3]):
            problems.append(f'{name}: row names no test and no seed (and no "unreached:" reason)')
    for name in status_list(root):
        checks += 1
        if name not in covered and name not in not_returned:
            problems.append(f'{name}: in RSV_STATUS_LIST but in neither table')
    for name, (tests, seeds, _) in sorted(covered.items()):
        for t in tests:
            checks += 1
            if t not in known_tests:
                problems.append(f'{name}: test {t} does not exist (no Test({t.replace("::", ", ")}) in tests/)')
        for s in seeds:
            checks += 1
            if not os.path.isfile(os.path.join(root, s)):
                problems.append(f'{name}: seed {s} does not exist')
    for name, arg in sorted(not_returned.items()):
        checks += 1
        if not arg:
            problems.append(f'{name}: listed as not returned without an argument')
    return problems, checks


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..'))
    with open(os.path.join(root, 'docs/status-coverage.md'), encoding='utf-8') as fh:
        text = fh.read()
    # The checker must be able to fail: drop the first covered row.
    lines = text.splitlines()
    first = next(i for i, l in enumerate(lines) if l.startswith('| `RSV_ERR_'))
    broken, _ = check(root, '\n'.join(lines[:first] + lines[first + 1:]))
    problems, checks = check(root, text)
    passed = checks - len(problems)
    if not broken:
        problems.append('self-check: removing the first row went unnoticed')
    for p in problems:
        print('FAIL', p)
    covered, _ = parse_doc(text)
    unreached = sorted(n for n, (t, s, c) in covered.items() if not t and not s)
    print(f'{len(returnable(root))} statuses the codec names; unreached by any test or seed: '
          f'{", ".join(unreached) or "none"}')
    print(f'{passed} passed, {len(problems)} failed')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
