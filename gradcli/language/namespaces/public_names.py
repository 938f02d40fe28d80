"""torch's public names (recorded from torch 2.13.0), so that a name gradcli lacks is refused as
gradcli's gap, never as if torch lacked it."""

from __future__ import annotations

import os
from functools import cache

from gradcli.engine import errors
from gradcli.language.namespaces.torch_wording import C_CODED, NO_ARGUMENTS

RECORD = os.path.join(os.path.dirname(__file__), "public_names.json")
WORDING = os.path.join(os.path.dirname(__file__), "torch_wording.py")
NAMESPACES = ("torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "torch.linalg",
              "torch.special", "torch.fft",
              "torch.autograd", "torch.func", "torch.nn.init", "torch.nn.utils",
              "torch.nn.utils.rnn", "torch.optim", "torch.optim.lr_scheduler", "torch.utils.data",
              "torch.testing", "torch.distributed")

# the namespaces whose C++ functions are recorded (tests/golden/record_public_names.py)
PARSED_NAMESPACES = ("torch", "torch.Tensor", "torch.nn.functional", "torch.linalg",
                     "torch.special", "torch.fft")


@cache
def recorded() -> dict[str, frozenset[str]]:
    """namespace -> torch's public names in it (tests/golden/record_public_names.py writes them)."""
    import json  # only when a program reaches a name gradcli lacks
    with open(RECORD, encoding="utf-8") as handle:
        names = json.load(handle)
    return {namespace: frozenset(names[namespace]) for namespace in NAMESPACES}


def c_coded(namespace: str, name: str) -> bool:
    """Whether torch writes `namespace.name` in C++: its argument errors are then those of
    torch's argument parser, else (Python code) Python's."""
    return namespace in PARSED_NAMESPACES and name in C_CODED[namespace]


class Unsupported(errors.TorchError):
    """A torch name gradcli lacks: the name exists (hasattr is True, as in torch), using it fails."""


def unsupported(namespace: str, name: str) -> Unsupported | None:
    """The error for `namespace.name` when torch has the name and gradcli does not."""
    if namespace in NAMESPACES and name in recorded()[namespace]:
        return Unsupported("NotImplementedError",
                           f"gradcli does not support {namespace}.{name} yet")
    return None


def worded_as_torch(namespace: str, entries: dict) -> dict:
    """`entries` of a torch namespace with torch's wording of argument errors: the parser's for
    C++ functions, Python's (a method named `Tensor.X`, as Python's messages name it) for the
    rest. Entries that chose another wording (a C builtin's) keep it."""
    from gradcli.engine.records import replace
    worded = {}
    for name, value in entries.items():
        if getattr(value, "style", None) == "python" and not hasattr(value, "declaration"):
            if namespace == "torch.Tensor" and name in NO_ARGUMENTS:
                value = replace(value, style="noargs", qualname=f"TensorBase.{name}")
            elif c_coded(namespace, name):
                value = replace(value, style="parser")
            elif namespace == "torch.Tensor" and not value.qualname:
                value = replace(value, qualname=f"Tensor.{name}")
        worded[name] = value
    return worded
