"""Random calls of every public torch name, Tensor method and torch.nn.functional name.

Each call is one small program `torch.NAME(args)` (or `t.NAME(args)`, `F.NAME(args)`) over a
pool of odd arguments: numbers, None, strings, lists, tuples and tensors of several dtypes and
shapes. The oracle: gradcli never fails with an internal error (a Python exception escaping the
interpreter); where torch is installed, gradcli raises when torch raises, with the same type.
"""

from __future__ import annotations

import random

from gradcli.language.namespaces.math_table import NN_FUNCTIONAL
from gradcli.language.namespaces.tensor_table import TENSOR_METHODS
from gradcli.language.namespaces.torch_table import TORCH_TABLE
from gradcli.language.runtime.signatures import Builtin

# Names whose calls would block, print the session's state or change process-wide settings.
SKIPPED = frozenset({"set_printoptions", "set_default_dtype", "manual_seed", "backward",
                     "register_hook", "set_grad_enabled"})

ARGUMENTS = (
    "0", "1", "-1", "3", "2.5", "-0.5", "True", "None", "'a'", "'sum'", "[]", "[1, 2]", "(2, 3)",
    "[[1.0, 2.0]]", "torch.float64", "x", "v", "i", "b", "s", "d", "e", "m",
)
SETUP = """import torch
import torch.nn.functional as F
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]])
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
i = torch.tensor([0, 2, 1])
b = torch.tensor([True, False, True])
s = torch.tensor(1.5)
d = torch.tensor([1.0, 4.0], dtype=torch.float64)
e = torch.zeros(0)
m = torch.eye(3)
"""


def _callables(table: dict) -> list[str]:
    return sorted(name for name, value in table.items()
                  if isinstance(value, Builtin) and name not in SKIPPED
                  and not name.startswith("_"))


def targets() -> list[str]:
    """Every callable public name, spelled as a program calls it."""
    return ([f"torch.{n}" for n in _callables(TORCH_TABLE)]
            + [f"x.{n}" for n in _callables(TENSOR_METHODS)]
            + [f"F.{n}" for n in _callables(NN_FUNCTIONAL.table)])


def calls(count: int, seed: int = 0) -> list[str]:
    """`count` call expressions: each target in turn, with 0 to 3 random arguments."""
    rng = random.Random(seed)
    names = targets()
    made = []
    for k in range(count):
        name = names[k % len(names)]
        args = [rng.choice(ARGUMENTS) for _ in range(rng.randint(0, 3))]
        made.append(f"{name}({', '.join(args)})")
    return made


def program(call: str) -> str:
    """The call as a whole program whose last line reports how the call ended."""
    return (SETUP + f"try:\n    result = {call}\n    print('ok')\n"
            "except Exception as error:\n    print(type(error).__name__, error)\n")
