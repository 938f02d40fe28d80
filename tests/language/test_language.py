"""The Python subset: each snippet runs under Python (with torch when it imports torch) and under
gradcli, and both must print the same text and end with the same error kind and message."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest

from gradcli.language.session import Session

# Snippets that use only Python: compared with this interpreter, torch or not.
PYTHON = {
    "def_defaults_kwargs": """
def f(x, n=2, *rest, **named):
    return x ** n, rest, named
print(f(3), f(2, n=3), f(1, 2, 3, 4, k=5))
""",
    "closures_nonlocal_global": """
def outer():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    inc(); inc()
    return inc()
total = 0
def add(v):
    global total
    total += v
add(3); add(4)
print(outer(), total)
def make(k):
    return lambda x: x * k
print(make(3)(4), [g(10) for g in [lambda x, i=i: x + i for i in range(3)]])
print([g(10) for g in [lambda x: x + i for i in range(3)]])
""",
    "recursion": """
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
fib = lambda n: n if n < 2 else fib(n - 1) + fib(n - 2)
print(fact(20), fib(15))
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(500))
""",
    "unbound_local": """
x = 1
def f():
    print(x)
    x = 2
f()
""",
    "free_variable_unbound": """
def f():
    def g():
        return y
    g()
    y = 1
f()
""",
    "control_flow": """
i = 0
while True:
    i += 1
    if i > 7:
        break
    elif i % 2 == 0:
        continue
    print(i)
else:
    print("never")
for k in range(3):
    pass
else:
    print("done", k)
for a in []:
    print(a)
while i < 10:
    i += 1
else:
    print("while else", i)
print(1 if i > 100 else 2 if i > 5 else 3)
print(not [], not [0], [] or "d", 0 and 1, None is None, 1 is not None, 2 in [1, 2],
      3 not in (3,), 1 < 2 < 3, 1 < 3 < 2, 2 == 2.0 != 3)
""",
    "containers_and_unpacking": """
a, (b, c) = 1, (2, 3)
[d, e] = "xy"
first, second = {"k": 1, "m": 2}
t = (1, 2, 3, 4)
print(a, b, c, d, e, first, second, t[1:], t[::-1], t[-1], [1, 2, 3][-2], "hello"[1:4])
for i, (p, q) in enumerate(zip([1, 2], "ab"), start=1):
    print(i, p, q)
xs = [1, 2, 3]
xs[0] = 10
xs.append(4)
del xs[1]
print(xs, len(xs), {"a": 1, "b": [1, 2]}, {}, (), (1,), [[]])
d = {k: v * 2 for k, v in zip("abc", range(3))}
d["z"] = 0
print(d, d["b"], list(d), d.get("q"), sum(v for v in d.values()))
""",
    "unpack_errors": """
a, b = [1, 2, 3]
""",
    "unpack_too_few": """
a, b, c = (1, 2)
""",
    "unpack_non_iterable": """
a, b = 5
""",
    "comprehensions_and_generators": """
print([i * i for i in range(6) if i % 2], [(i, j) for i in range(3) for j in range(i)])
print(sum(x * x for x in range(5)), any(x > 3 for x in [1, 5]), all([]), min(x for x in [3, 1]))
g = (i for i in range(3))
print(list(g), list(g), type(g))
print([[c for c in w] for w in ["ab", "c"]])
""",
    "fstrings": """
x, name = 3.14159, "pi"
print(f"{x:.3f} {x:10.2e}|{name!r:>6}|{name:<5}|{7:^5}|{x=}|{ name = }|{{}}|{'q'!s}")
w, p = 10, 2
print(f"{x:{w}.{p}f}|{1000000:,}|{0.25:.1%}|{255:#x}|{-3:+d}")
print(f"{[1, 'a']} {(1,)} {None} {True:>6}")
""",
    "str_format_and_percent": """
print("{} and {:.2f} and {name}".format(1, 2.5, name="z"), "{0}{1}{0}".format("a", 2))
print("{:>6.2f}|{:<4}|{:^5}|{!r}".format(3.14159, 7, "c", "q"), "{:{}}|".format(3, 4))
print("%5.2f %-4d|%s %r %x %% %c" % (2.5, 7, "s", "q", 255, 65), "%(a)s %(b)03d" % {"a": 1, "b": 2})
print("%s" % [1, 2], "%d" % 3.9, "%.1e" % 12345.0)
""",
    "format_index_error": """
print("{} {}".format(1))
""",
    "percent_too_few": """
print("%d %d" % (1,))
""",
    "builtins": """
print(min(3, 1, 2), max([4, 5]), sum([1, 2, 3]), sum([1.5], 2), abs(-3), abs(-2.5))
print(round(2.567, 2), round(2.5), round(3.5), round(-0.5), round(7))
print(list(zip([1, 2], "ab")), tuple(range(3)), list(enumerate("ab", 1)), list(range(2, 9, 3)))
print(float("1.5"), float(2), int("7"), int(3.9), int("ff", 16), bool([]), bool("x"), str(3))
print(len([1, 2]), len("abc"), len({"a": 1}), len(range(5)), repr("it's"), str(None))
print(max([3, 1], key=lambda v: -v), min([], default=7), max("b", "a"), any([0, 2]))
""",
    "types_and_isinstance": """
print(type(3), type(3.5), type("s"), type([]), type(()), type(None), type({}), type(True))
print(type(print), type(len), type(lambda: 1), type(range(2)), type(type(1)), type(int))
print(isinstance(3, int), isinstance(True, int), isinstance(3.0, (int, float)), int, float)
print(isinstance("a", (list, (tuple, str))), type(3) is int, type(3) == float)
def f():
    pass
print(type(f) == type(lambda: 0), type(f))
""",
    "function_argument_errors": """
def f(a, b=1):
    pass
f(1, 2, 3)
""",
    "missing_arguments": """
def g(a, b, c):
    pass
g()
""",
    "nested_qualname_error": """
def outer():
    def inner(x):
        return x
    return inner(1, 2)
outer()
""",
    "keyword_errors": """
def f(a):
    pass
f(1, b=2)
""",
    "multiple_values": """
def f(a):
    pass
f(1, a=2)
""",
    "assert_message": """
x = 3
assert x > 1
assert x > 5, f"x is {x}"
""",
    "assert_plain": """
assert 1 == 2
""",
    "name_error": """
print(undefined_thing)
""",
    "not_callable": """
x = 5
x(1)
""",
    "builtin_errors_len": """
len(5)
""",
    "builtin_errors_isinstance": """
isinstance(1, 2)
""",
    "builtin_errors_range": """
range()
""",
    "builtin_errors_min": """
min([])
""",
    "builtin_errors_float": """
float("abc")
""",
    "builtin_errors_no_keywords": """
len(obj=[1])
""",
    "star_arguments": """
def f(*args, **kw):
    return args, kw
print(f(*[1, 2], **{"k": 3}), print(*"abc", sep="-", end="!\\n"))
""",
    "star_not_iterable": """
def f(*args):
    pass
f(*5)
""",
    "zero_division": """
print(1 / 0)
""",
    "index_error": """
print([1, 2][5])
""",
    "key_error": """
print({"a": 1}["b"])
""",
}

# Snippets that use torch: compared with real torch when it is importable.
TORCH = {
    "tensor_truth_ok": """
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
if x.sum() > 1:
    print("big")
while x[0] < 4:
    x = x + 1
print(x, bool(torch.tensor(0.)), not torch.tensor(1), 1 if torch.tensor([5]) else 2)
""",
    "tensor_truth_many": """
import torch
x = torch.tensor([1., 2.])
if x > 0:
    print("no")
""",
    "tensor_truth_empty": """
import torch
print(bool(torch.tensor([])))
""",
    "tensor_isinstance_type": """
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
print(isinstance(x, torch.Tensor), isinstance(x.shape, tuple), isinstance(2, torch.Tensor))
print(type(x), type(x.shape), type(x.dtype), type(x.sum), type(y.grad_fn), type(x.grad))
print(type(torch.ones), type(x) is torch.Tensor, type(x) == type(y))
""",
    "tensor_loops_and_unpacking": """
import torch
params = [torch.tensor([1., 2.], requires_grad=True), torch.tensor(3., requires_grad=True)]
for i, w in enumerate(params):
    print(i, w * 2)
a, b = torch.tensor([[1., 2.], [3., 4.]])
print(a, b)
for row in torch.tensor([[1, 2], [3, 4]]):
    print(row, len(row))
(p, q), r = params[0], params[1]
print(p, q, r)
total = sum(w.sum() for w in params)
print(total, max(torch.tensor([1., 5., 2.])), list(torch.tensor([1, 2])))
""",
    "tensor_fstrings": """
import torch
x = torch.tensor(3.14159, requires_grad=True)
y = x * 2
print(f"{x:.3f} {y:>10.2e} {x.item():.4f} {y}")
print(f"{x=}", f"{torch.tensor([1., 2.])}", "{:.2f}".format(y), "%.3f" % y, "%s" % y)
print(int(torch.tensor(2.7)), float(torch.tensor([3])), round(2.5), str(x), repr(y))
""",
    "tensor_format_spec_error": """
import torch
print(f"{torch.tensor([1., 2.]):.2f}")
""",
    "tensor_float_error": """
import torch
float(torch.tensor([1., 2.]))
""",
    "training_loop": """
import torch
w = torch.tensor([0.5, -0.3], requires_grad=True)
xs = [torch.tensor([1., 2.]), torch.tensor([2., 1.]), torch.tensor([0., 1.])]
ys = [1.0, 0.5, -1.0]
def loss_fn(w, x, y):
    return (w * x).sum().sub(y) ** 2
def step(lr=0.1):
    global w
    total = 0.0
    for x, y in zip(xs, ys):
        loss = loss_fn(w, x, y)
        loss.backward()
        total += loss.item()
    with torch.no_grad():
        w -= lr * w.grad
    w.grad.zero_()
    return total
for epoch in range(3):
    print(f"epoch {epoch}: loss {step():.4f}")
print(w)
""",
    "grad_of_function": """
import torch
def f(x):
    return (x ** 3).sum()
x = torch.tensor([1., 2.], requires_grad=True)
y = f(x)
dx, = torch.autograd.grad(y, [x], create_graph=True)
print(y, dx)
d2 = [torch.autograd.grad(g, x, retain_graph=True)[0] for g in dx]
print(d2)
""",
}


def run_python(source: str) -> tuple[str, tuple[str, str] | None]:
    """Run `source` as Python; stdout and (exception class, message) or None."""
    out, error = io.StringIO(), None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(source, "<snippet>", "exec"), {"__name__": "__main__"})
        except Exception as exc:  # the snippet's own error is what is compared
            error = (type(exc).__name__, str(exc))
    return out.getvalue(), error


def run_gradcli(source: str) -> tuple[str, tuple[str, str] | None]:
    out = io.StringIO()
    outcome = Session(write=out.write).run(source)
    error = None if outcome.error is None else (outcome.error.kind, outcome.error.message)
    return out.getvalue(), error


def assert_same(source: str, normalize) -> None:
    expected_out, expected_error = run_python(source)
    actual_out, actual_error = run_gradcli(source)
    assert normalize(actual_out) == normalize(expected_out)
    assert actual_error == expected_error


@pytest.mark.parametrize("name", sorted(PYTHON))
def test_python_snippet(name, normalize_addresses):
    assert_same(PYTHON[name], normalize_addresses)


@pytest.mark.parametrize("name", sorted(TORCH))
def test_torch_snippet(name, normalize_addresses):
    pytest.importorskip("torch")
    assert_same(TORCH[name], normalize_addresses)


def test_keyboard_interrupt_propagates_and_rolls_back():
    session = Session(write=lambda text: None)
    session.run("x = 1")

    def interrupt(text):
        raise KeyboardInterrupt

    session.write = interrupt
    with pytest.raises(KeyboardInterrupt):
        session.run("x = 2\nwhile True:\n    x = 3\n    print(x)")
    assert session.globals.vars["x"] == 2


class _UnreadableStdin(io.StringIO):
    def readline(self, *_):
        raise OSError("reading from stdin while output is captured!")


@pytest.mark.parametrize("stdin, kind", [(_UnreadableStdin, "OSError"), (io.StringIO, "EOFError")])
def test_input_from_an_unreadable_or_empty_stdin_is_a_python_error(monkeypatch, stdin, kind):
    monkeypatch.setattr("sys.stdin", stdin(""))
    outcome = Session(write=io.StringIO().write).run("x = input('name? ')\n")
    assert outcome.error is not None and outcome.error.kind == kind
