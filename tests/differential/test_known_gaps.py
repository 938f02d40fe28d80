"""Differences from torch 2.13 and CPython 3.11 once known and closed: how torch's functions
print, type and name themselves (walked over every public function of torch's namespaces
against live torch), the qualified names in the argument errors of Python's built-in methods,
item deletion, method lookup along the MRO, and attributes set on torch's Python functions."""

import json

import pytest

from gradcli.language.namespaces.torch_table import MODULES
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


def test_functions_show_themselves_as_torchs():
    pytest.importorskip("torch")
    source = _walk()
    ours, torchs = run_gradcli(source), run_torch(source)
    differing = [(a, b) for a, b in zip(ours["stdout"].splitlines(), torchs["stdout"].splitlines())
                 if a != b]
    assert not differing, "\n".join(f"ours:  {a}\ntorch: {b}" for a, b in differing)
    assert ours == torchs
