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

with open(HOMES, encoding="utf-8") as handle:
    NAMESPACES = list(json.load(handle))


def _walk(namespace: str) -> str:
    """A script printing how each function of `namespace` that gradcli has shows itself."""
    with open(HOMES, encoding="utf-8") as handle:
        names = [n for n in json.load(handle)[namespace] if n in MODULES[namespace].table]
    return (f"import {namespace}\n"
            f"for name in {names!r}:\n"
            f"    f = getattr({namespace}, name)\n"
            "    print(name, f, type(f).__name__, f.__module__, f.__name__, f.__qualname__,"
            " torch.typename(f))\n")


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_functions_show_themselves_as_torchs(namespace):
    pytest.importorskip("torch")
    source = _walk(namespace)
    ours, torchs = run_gradcli(source), run_torch(source)
    assert ours["error"] == torchs["error"]
    differing = [(a, b) for a, b in zip(ours["stdout"].splitlines(), torchs["stdout"].splitlines())
                 if a != b]
    assert not differing, "\n".join(f"ours:  {a}\ntorch: {b}" for a, b in differing)
    assert ours == torchs
