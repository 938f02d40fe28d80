"""Differences from torch 2.13 and CPython 3.11 once known and closed: how torch's functions
print, type and name themselves (walked over every public function of torch's namespaces
against live torch), the qualified names in the argument errors of Python's built-in methods,
item deletion, method lookup along the MRO, and attributes set on torch's Python functions."""

import collections
import json

import pytest

from gradcli.language.namespaces.torch_table import MODULES
from gradcli.language.namespaces.tensor_table import TENSOR_METHODS
from gradcli.language.runtime.attributes import tables_of
from gradcli.language.runtime.torch_homes import HOMES
from snippets import case_tests, run_gradcli, run_torch

test_matches_golden, test_matches_live_torch = case_tests("known_gaps")

def _walk() -> str:
    """A script printing how each function gradcli has of each torch module shows itself."""
    with open(HOMES, encoding="utf-8") as handle:
        recorded = json.load(handle)["functions"]
    lines = []
    for namespace, functions in recorded.items():
        names = [n for n in functions if n in MODULES[namespace].table]
        if names:
            lines += [f"import {namespace}", f"for name in {names!r}:",
                      f"    f = getattr({namespace}, name)",
                      f"    print({namespace!r}, name, f, type(f).__name__, f.__module__, "
                      "f.__name__, f.__qualname__, torch.typename(f))"]
    return "\n".join(lines) + "\n"


def _tensor_walk() -> str:
    """A script printing how each torch.Tensor method gradcli has shows itself, read from the
    class (a method descriptor of TensorBase, or a function of torch._tensor)."""
    import torch
    names = [n for n in dir(torch.Tensor) if n[0] != "_" and n in TENSOR_METHODS
             and callable(getattr(torch.Tensor, n))]
    return (f"for name in {names!r}:\n"
            "    f = getattr(torch.Tensor, name)\n"
            "    print(name, f, type(f).__name__, getattr(f, '__module__', '-'), f.__qualname__,"
            " torch.typename(f))\n")


@pytest.mark.parametrize("walk", [_walk, _tensor_walk])
def test_functions_show_themselves_as_torchs(walk):
    pytest.importorskip("torch")
    source = walk()
    ours, torchs = run_gradcli(source), run_torch(source)
    differing = [(a, b) for a, b in zip(ours["stdout"].splitlines(), torchs["stdout"].splitlines())
                 if a != b]
    assert not differing, "\n".join(f"ours:  {a}\ntorch: {b}" for a, b in differing)
    assert ours == torchs


# Python's classes written in C (and collections'): one of each, and how a program makes it
_VALUES = {"list": ([3, 1, 2], "[3, 1, 2]"), "str": ("abc", "'abc'"), "dict": ({1: 2}, "{1: 2}"),
           "set": ({1, 2}, "{1, 2}"), "frozenset": (frozenset({1}), "frozenset({1})"),
           "tuple": ((1, 2, 1), "(1, 2, 1)"), "bytes": (b"ab", "b'ab'"), "int": (5, "(5)"),
           "float": (1.5, "(1.5)"), "deque": (collections.deque([1, 2]), "collections.deque([1, 2])"),
           "OrderedDict": (collections.OrderedDict(a=1), "collections.OrderedDict(a=1)"),
           "Counter": (collections.Counter("ab"), "collections.Counter('ab')")}
_CALLS = ("", "1", "1, 1", "1, 1, 1", "1, 1, 1, 1", "zz=1")


def _methods_walk() -> str:
    """A script calling each public method gradcli has of each of those classes as programs
    write it, `value.name(1, 1)` (CPython words the errors of a bound method's call, or of a
    call with *args, otherwise), with zero to four arguments and with an unknown keyword,
    printing what each call does."""
    lines = ["import collections", "calls = ["]
    for kind, (value, made) in _VALUES.items():
        lines += [f"    ({kind!r}, {name!r}, {arguments!r}, lambda: {made}.{name}({arguments})),"
                  for name in sorted(dir(value)) if name[0] != "_" and name in tables_of(value)[1]
                  for arguments in _CALLS]
    lines += ["]", "for kind, name, arguments, call in calls:",
              "    try:",
              "        call()",
              "        outcome = 'ok'",
              "    except Exception as e:",
              "        outcome = f'{type(e).__name__}: {e}'",
              "    print(kind, name, arguments, outcome)"]
    return "\n".join(lines) + "\n"


def test_builtin_methods_word_their_errors_as_python():
    pytest.importorskip("torch")
    source = _methods_walk()
    ours, pythons = run_gradcli(source), run_torch(source)
    differing = [(a, b) for a, b in zip(ours["stdout"].splitlines(),
                                        pythons["stdout"].splitlines()) if a != b]
    assert not differing, "\n".join(f"ours:   {a}\npython: {b}" for a, b in differing)
    assert ours == pythons
