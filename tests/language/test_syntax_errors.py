"""Syntax errors in Python 3.11's words and places: each case is compiled by this Python (the
oracle) and parsed and compiled by gradcli, and the kind, message, line and column must agree."""

from __future__ import annotations

import sys

import pytest

from gradcli.language.syntax.parser import GradSyntaxError, is_incomplete, parse
from gradcli.language.session import Session

python_311 = pytest.mark.skipif(sys.version_info[:2] != (3, 11),
                                reason="the expected texts are Python 3.11's")

CASES = [
    'print((1, 2)\n', 'x = [1, 2\ny = 3\n', 'if x\n    pass\n',
    'for i in range(3)\n    print(i)\n', 'for i in range(3):\nprint(i)\n', '  x = 1\n',
    'x = = 1\n', 'x = 1 +\n', 'def f(x)\n    return x\n', 'while True\n    pass\n',
    'if x:\n    a = 1\n  b = 2\n', 'print(1 2)\n', 'x = (1, 2]\n', 'x = 1)\n', "'abc\n",
    "'''abc\n", 'x = $\n', 'def f(:\n    pass\n', 'if x:\npass\n', 'def f():\nreturn 1\n',
    'with a:\nb\n', 'while x:\nb\n', 'if x:\n  a\nelse:\nb\n', 'if x:\n  a\nelif y:\nb\n',
    '1 = x\n', 'f(x) = 3\n', 'x.y(\n', 'else:\n  pass\n', 'x = 1\n  y = 2\n', 'return\n',
    "print 'a'\n", 'x = {1: 2\n', 'for x in y:\n', 'x =\n', 'a b\n', 'x = 3 3\n',
    'def f(x, x):\n pass\n', 'import\n', 'x = 1;;\n', 'if x: pass\nelse pass\n', 'f(**)\n',
    'x = [1, 2,, 3]\n', 'del 1\n', '(a, b) += 1\n', 'x = 1\n    y = 2\n', '    x = 1\n',
    '\tx = 1\n', 'x = 1\n\ty = 2\n', 'if x:\n    a\n  b\n', 'x = 1abc\n', 'x = 12_\n', 'x = 0x\n',
    'x = €\n', 'x = a ? b\n', 'x = 1 \\ 2\n', "'''abc\n\n\n", "x = '''abc\ny\n",
    "x = 'abc\ny = 2\n", 'print(a b if c else d)\n', 'print(a + b c)\n', "print(x 'y')\n",
    '[1 2, 3]\n', 'f(a, b c=1)\n', 'print x\n', 'print x, y\n', "exec 'x'\n", 'print(x\n',
    'print(f"{p!r")\n', 'print(f"{p!")\n', 'print(f"{p!}")\n', 'print(f"{p!r:>5")\n',
    'print(f"{p:")\n', 'print(f"{a b}")\n', 'print(f"{a)(b}")\n', 'print(f"{(a]}")\n',
    'print(f"{a]}")\n', 'print(f"{yield 1}")\n', 'print(f"{1 if 2}")\n',
    # a parser error, then a tokenizer error further on: CPython reports the tokenizer's
    'x = 1\n!ls -l models/01_pytorch_workflow_model_0.pth\n', 'for x in y:\nprint(1)\nx = 01\n',
    "if x\n    pass\ny = 'abc\n", 'x = = 1\ny = (1]\n', 'print(1 2)\nz = €\n',
    "a b\n'''abc\n", 'def f(:\n  x = 0x\n', 'x = [1, 2\ny = 3\nz = 1abc\n',
    'print x\ny = \\ 2\n', '  x = 1\ny = 1abc\n', 'x = $\ny = 5e\n',
    # a number before a non-ASCII character ends there; a string's error sits at its prefix
    'x = 1€\n', 'x = 1é\n', 'x = 0x1€\n', 'x = 1j€\n', 'x = [1é]\n', "x = f'abc\n",
    "x = rb'''abc\n\n", "print(f'{a}', b'x\n",
    # a call's argument other than a name before `=`
    'f(a.b=1)\n', 'nn.Conv2d(3, kernel-size=3)\n', 'f(True=1)\n', 'f(a=1, b.c=2)\n',
    'f(\n  a.b=1)\n', 'f(lambda: 1=2)\n', 'f(a)(b.c=1)\n', 'class A(b.c=1): pass\n',
    'f(a, *b=1)\n', 'f(**a=1)\n',
    # `=` in a bracket's element, or in a condition written without spaces
    '(a.b=1)\n', 'x = [a.b=1]\n', 'x[a.b=1]\n', '[a=1]\n', '{a.b=1}\n', '[1, f(x)=2]\n',
    'x = (a.b=1, 2)\n', 'f(a, [b.c=1])\n', 'if x.y=1:\n  pass\n', 'while x=1:\n  pass\n',
    '(a+b=1)\n', 'print((a=1))\n', '(a.b=c=1)\n', '{1: a.b=2}\n',
    # a comma missing between lines of a call: unless its bracket stays open past them
    'plt.scatter(x=X[:, 0],\n            y=X[:, 1]\n            c=y)\n',
    'acc = accuracy_fn(y_true=y_train\n                  y_pred=y_pred)\n', 'f(a\n  b)\n',
    'f(a\n  b\n', 'f(g(a\n b)\n', 'f(g(a b)\n', 'f(a b, (\n', 'f(a b\n, c', 'x = [\n 1\n 2\n]\n',
    'f(a\n  b)\nx = (\n', 'print(1 2\nx = 3\n',
    'from torch mport nn\nif x:\n    a = 1\n  b = 2\nc = 8e\n',
    'from torch mport nn\nc = 8e\nif x:\n    a = 1\n  b = 2\n',
    # a parameter list missing a comma; a bracket reopened later, closed by the end
    'def f(self batch):\n  pass\n', 'def f(a, b c):\n pass\n', 'def f(a=1 b):\n pass\n',
    'def f(a: int b):\n pass\n', 'def f(a b\n', 'def f(\n  a\n  b):\n pass\n',
    'class A:\n    def training_step(self batch):\n        pass\n',
    'x = 1\ny = \x01\n', 'x = \u200b1\n', 'x = \ufeff1\n', 'x = 1 +\x0c\x7f\n',
    'x = (1,\n     2\ny = 3\n', 'foo(\n  1,\n  2\n', 'x = (]\n', 'x = (\n]\n', 'x = [1, 2)\n',
    'x = )\n', 'def f:\n    pass\n', 'def (x):\n  pass\n', 'for x in y z:\n  pass\n',
    'for x y in z:\n  pass\n', 'with a b:\n  pass\n', 'with a\n  pass\n', 'while x y:\n  pass\n',
    'if x y:\n  pass\n', 'elif x:\n  pass\n', 'if x:\n  pass\nelif y\n  pass\n', 'lambda x x: 1\n',
    'x = [\n', "x = 'a' 'b\n",
    'def f():\n    return 1\n  x = 2\n', 'if x:\n    pass\n    \n   y\n',
    "'None = x", 'True = 1', 'x + 1 = 2', '-x = 1', 'x < y = 1', 'a and b = 1', 'not a = 1',
    'lambda: 1 = 2', '(a if b else c) = 1', '[i for i in x] = 1', '(i for i in x) = 1',
    '{1: 2} = 1', "f'{x}' = 1", '... = 1', 'x, 1 = 1, 2', 'x, f() = 1, 2', '[1] = x', '(1, 2) = x',
    'x = 1 = y', 'for 1 in x: pass', 'for f() in x: pass', '[1 for 2 in x]', 'del f()',
    'del x + 1', '[a] += 1', 'f() += 1', '1 += 1', 'x + 1 += 1', '1, x = 1, 2', '1, 2 = x',
    '(x + 1) = 2', '(a and b) = 1', 'x, (1) = 1, 2', '[x, 1] = 1, 2', 'for x, 1 in y: pass',
    'x = f() = 3', 'x + 1 = y = 2', 'f(x) = a if b else c', 'def f(a=1, b): pass',
    'lambda a, a: 1', 'def f(**k, a): pass', 'def f(*a, *b): pass', 'lambda a=1, b: 0',
    'def f(**k, **j): pass', 'f(a=1, 2)', 'f(**d, 2)', 'f(a=1, a=2)', 'break', 'continue',
    'def f():\n    break', 'for x in y:\n    def g():\n        continue', 'nonlocal x',
    'def f():\n    nonlocal x', 'def f():\n    return\nreturn 5', "print(f'{x')\n",
    "print(f'{}')\n", "print(f'{x!z}')\n", "print(f'}')\n", 'x = 1 if y\n',
    'if x:\n    pass\n  else:\n    pass\n', 'if x:\n\n\n', 'def f():\n    # c\n', 'x = (1 +\n',
    'foo(a, b\nbar()\n', 'f(\n', "print('a'\n      'b'\n", 'print(1, 2 3)\n', 'print(f(1) g)\n',
    'x = [a for a in b c]\n', '{1: 2 3: 4}\n', "print('x' 'y' z)\n",
    'try:\n    x = 1\n', 'try:\n    x = 1\ny = 2\n', 'try:\n    pass\nelse:\n    pass\n',
    'try:\n    x = 1\n\n# c\n', 'try:\nx = 1\n', 'try:\n    a\nexcept:\nb\n',
    'try:\n    a\nfinally:\nb\n', 'try:\n    a\nexcept:\n    b\nexcept E:\n    c\n',
    'def f():\n    try:\n        a\n    except:\n        b\n    except E:\n        c\n',
    'except:\n    pass\n', 'finally:\n    pass\n', 'try:\n    a\nexcept E as 1:\n    b\n',
    'try:\n    a\nexcept E, F:\n    b\n', 'raise E from\n', 'try\n    a\nexcept:\n    b\n',
    'try:\n    a\nexcept E\n    b\n', 'try:\n    a\nexcept\n    b\n',
    'try x:\n  a\n', 'try:\n    a\nfinally\n    b\n', 'try:\n    a\nexcept:\n    b\nelse\n    c\n',
    'try:\n    a\nexcept E, F as g:\n    b\n', 'try:\n    a\nexcept E as g.h:\n    b\n',
    '@dec\nx = 1\n', '@\ndef f():\n    pass\n', '@dec def f():\n    pass\n',
    '@dec\n\ndef f(:\n    pass\n',
    'x = 1\nfrom __future__ import division\n', 'from __future__ import braces\n',
    'from __future__ import print_function, nope\n', '"a"\n"b"\nfrom __future__ import division\n',
    'def f():\n    from __future__ import division\n',
    'import torch\nfrom __future__ import annotations\n',
    'a = [1]\nprint((*a))\n', 'print(f"{*a}")\n', 'x = (  *a  )\n', '(\n*a\n)\n', '[(*a)]\n',
    '(*a if b else c)\n', '(*a or b)\n', 'f((*a.b[1]))\n', 'print(f"{ *a + 1 }")\n', '(*a) = 1\n',
    'x = *a\n', '*a\n', 'x = 1; *a\n', '[*a for x in y]\n', 'f(*a for x in y)\n',
    '(*a if b else c for x in y)\n',
    'class A\n  pass\n', 'x = 1\nclass A(B)\n  pass\n', 'x = 1\nif x = 2:\n  pass\n',
    'if x = 2 and y:\n  pass\n', 'while n = 0 :\n  pass\n', 'if x = y = 2:\n  pass\n',
    'if x.y = 1 == 2:\n  pass\n', 'def f():\n    a = 1\n    if a[0] = 1:\n        pass\n',
    'if f(x) = 1:\n  pass\n', 'if 1 = x:\n  pass\n', 'if a + b = c:\n  pass\n',
    'if count = len(a) > 3:\n  pass\n', 'if x = "a:b":\n  pass\n', 'if x = :\n  pass\n',
    'elif x = 3:\n  pass\n', 'x = 0777\n', 'x = 1 + 00_7\n',
    'print(0777)\nprint(1\n', 'x = 1__0\n', 'x = 0b102\n', 'x = 0o8\n', 'x = 0o78\n',
    'x = 0b2\n', 'x = 0x1__2\n', 'x = 1.5__2\n', 'x = 0b1_2\n', 'x = 0o1__7\n', 'x = 1e1__0\n',
    'y = 2 + 10__000 * 3\n', 'x = 0o17a\n', 'x = 0b12a\n', 'x = 12abc\n', 'x = 0_0_7\n',
    'x = 1e\n', 'x = 1e+\n', 'x = 1jk\n', 'x = 0xg\n', 'x = 0_\n', 'x = 1.real\n', 'x = 09\n',
    'x = 0x1for\n', 'x = 1else\n', 'x = 0o\n', 'x = .5_\n', 'x = 5e-_1\n', 'x = \u0661\n',
    'x = 2 + \u06619\n',
]

# (input, whether more lines could complete it), as the REPL asks before running a line.
INCOMPLETE = [
    ("x = (1,", True), ("x = [", True), ("x = {", True), ("f(a,\n  b", True),
    ("for i in range(3):", True), ("if x:\n", True), ("if x:\n  a\nelse:", True),
    ("def f():", True), ('"""abc', True), ("x = 1 + \\", True),
    ("for i in range(3):\n    print(i)", False), ("with torch.no_grad():\n    y = x * 2", False),
    ("x = 1 +", False), ("x = = 1", False), ("'abc", False), ("print(1)", False), ("", False),
    ("# c", False), ("x = (1,\n]", False), ("class A:", True), ("try:", True),
    ("try:\n    a = 1", True), ("try:\n    a = 1\nexcept E:", True), ("if x", False),
    ('s = """a\nb"""', False), ("lambda:", False), ('x = f"{1"', False),
]


def python_error(source: str):
    try:
        compile(source, "<case>", "exec")
    except SyntaxError as error:
        return error
    return None


def gradcli_error(source: str):
    outcome = Session(write=lambda text: None).run(source)
    return outcome.error if isinstance(outcome.error, GradSyntaxError) else None


@python_311
@pytest.mark.parametrize("source", CASES)
def test_syntax_error_matches_python(source):
    expected, actual = python_error(source), gradcli_error(source)
    assert expected is not None and actual is not None
    assert (actual.kind, actual.message, actual.line, actual.column) == (
        type(expected).__name__, expected.msg, expected.lineno, expected.offset)
    if expected.end_lineno == expected.lineno and (expected.end_offset or 0) > expected.offset:
        assert actual.end_column == expected.end_offset


@pytest.mark.parametrize("source, incomplete", INCOMPLETE)
def test_is_incomplete(source, incomplete):
    assert is_incomplete(source) is incomplete


@python_311
@pytest.mark.parametrize("depth", [200, 201, 5000])
def test_nesting_limit_matches_python(depth):
    source = "x = " + "(" * depth + "1" + ")" * depth
    expected, actual = python_error(source), gradcli_error(source)
    assert (expected is None) == (actual is None)
    if expected is not None:
        assert (actual.message, actual.column) == (expected.msg, expected.offset)


@python_311
@pytest.mark.parametrize("depth, tail", [(99, "x = 1"), (100, "x = 1"), (101, "x = 1"),
                                         (100, "x = = 1"), (120, "pass")])
def test_indentation_limit_matches_python(depth, tail):
    """Python's tokenizer allows 99 nested blocks: the 100th level of indentation is an
    IndentationError at its first line."""
    source = "".join(" " * i + "if True:\n" for i in range(depth)) + " " * depth + tail + "\n"
    expected, actual = python_error(source), gradcli_error(source)
    assert (expected is None) == (actual is None)
    if expected is not None:
        assert (actual.kind, actual.message, actual.line, actual.column) == (
            type(expected).__name__, expected.msg, expected.lineno, expected.offset)


def test_parse_accepts_what_python_accepts():
    for source in ("x = 1\n\n   \ny = 2\n", "   # comment\nx = 1\n",
                   "if True:\n    pass\n  # comment\nx = 1\n", "f(*a, 2)\n"):
        assert python_error(source) is None
        parse(source)


def test_zeros_that_are_no_octal_literal_parse():
    assert parse("x = (00, 0_0, 0e5, 09.5, 07j, 0.5, 10777, 1.e5, .5j, 00.5, 1_000.5_5, 0xF_F,"
                 " 0o1_7, 0b1_0, 1E-3, 5J, [0x1 for _ in y], 1 if 2else 3, b\u06613)\n")

