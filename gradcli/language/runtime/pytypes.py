"""Classes as the language sees them: builtin ones described by a name, host classes and a
constructor; `object`, the root of every class."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class PyType:
    """A class as the language sees it (`int`, `torch.Tensor`): `isinstance` tests `hosts`,
    calling it runs `construct` (a table entry) when it has one."""

    name: str
    hosts: tuple
    construct: object = None


OBJECT = PyType("object", (object,))  # the root class: every value is an instance of it
