"""Declarations are the one source of torch's public math names: tables, binding and completion."""

from __future__ import annotations

import pytest  # noqa: F401
from snippets import case_tests

from gradcli.engine.declarations import DECLARATIONS, declared
from gradcli.language.namespaces.torch_table import TORCH
from gradcli.language.namespaces.tensor_table import TENSOR_METHODS



def _completions(text: str, variables: dict) -> set:
    from prompt_toolkit.document import Document

    from gradcli.cli.repl.completer import GradCompleter
    completer = GradCompleter(lambda: variables, lambda: [])
    return {c.text for c in completer.get_completions(Document(text), None)}


def test_every_declaration_is_in_its_table_and_in_completion():
    from gradcli.engine.tensor import Tensor
    import numpy as np
    variables = {"torch": TORCH, "t": Tensor(np.ones(2, dtype=np.float32))}
    torch_names, method_names = _completions("torch.", variables), _completions("t.", variables)
    for name in declared("torch"):
        assert TORCH.table[name].name.rpartition(".")[2] == name  # a class: torch.device
        assert name in torch_names or name.startswith("_")  # completion hides private names
    for name in declared("method"):
        assert name in TENSOR_METHODS
        assert name in method_names or name.startswith("_")  # (private ones hidden, as above)


def test_each_overload_binds_onto_its_implementation():
    """Every schema argument reaches a parameter of the implementation (by name or position)."""
    for (variant, name), declaration in DECLARATIONS.items():
        if declaration.python is not None:
            continue
        # an in-place variant passes its arguments on to the function it writes back
        code = getattr(declaration.impl, "__wrapped__", declaration.impl).__code__
        accepted = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        for targets in declaration.targets + declaration.method_targets:
            if targets is not None:
                assert set(targets) <= set(accepted), (variant, name, targets)


# Wrong arguments get the TypeError texts of torch's argument parser (tests/cases/signatures.cases,
# recorded from torch).
test_signatures_match_golden, test_signatures_match_live_torch = case_tests("signatures")
