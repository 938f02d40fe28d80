"""Where torch defines the functions it publishes (recorded from torch 2.13.0 by
tests/golden/record_public_names.py): Python prints, types and names a function by its home,
`<function norm at 0x...>` of torch.functional, `<built-in function gelu>` of torch._C._nn,
`<built-in method sum of type object at 0x...>` of torch._VariableFunctionsClass."""

from __future__ import annotations

import os
from functools import cache

from gradcli.engine.records import record, replace
from gradcli.engine.state import STATE
from gradcli.language.runtime import protocols

HOMES = os.path.join(os.path.dirname(__file__), "torch_homes.json")


@record(frozen=True)
class Home:
    """kind: "function" (Python code), "builtin" (a module's C function) or "method" (a C
    function of a class, torch._VariableFunctionsClass's)."""

    kind: str
    module: str
    qualname: str
    name: str

    def shown(self, address: str) -> str:
        """How Python prints the function."""
        if self.kind == "function":
            return f"<function {self.qualname} at {address}>"
        if self.kind == "builtin":
            return f"<built-in function {self.name}>"
        return f"<built-in method {self.name} of type object at {address}>"

    @property
    def path(self) -> str:
        """The module and qualified name, as torch.typename gives them."""
        if not self.module or self.module == "builtins":
            return self.qualname
        return f"{self.module}.{self.qualname}"


@cache
def _recorded() -> dict[str, dict]:
    import json  # only when a program prints, types or names one of torch's functions
    with open(HOMES, encoding="utf-8") as handle:
        return json.load(handle)


_FOUND: dict[int, tuple] = {}  # id(value) -> (value, its Home or None)


def home(value) -> Home | None:
    """The home of a function gradcli publishes where torch does (its table entry there), as
    the program renamed it (`F.relu.__module__ = "x"`); None for anything else."""
    found = _FOUND.get(id(value))
    if found is None or found[0] is not value:
        found = _FOUND[id(value)] = (value, _find(value))
    own = STATE.flags.get(_key(value)) if found[1] is not None else None
    if own:
        return replace(found[1], **{field: own[name] for name, field in _NAMES.items()
                                    if name in own})
    return found[1]


_NAMES = {"__module__": "module", "__qualname__": "qualname", "__name__": "name"}


def _key(value) -> str:
    return f"function attributes {id(value)}"


def set_by_program(value) -> dict:
    """What the program set on torch's Python function `value` in this run (its __dict__ and
    names): a run starts from torch's functions as torch has them."""
    return STATE.flags.get(_key(value), {})


def program_sets(value, name: str, item) -> None:
    """The program sets `value.name` (value one of torch's Python functions)."""
    STATE.flags.setdefault(_key(value), {})[name] = item


def _find(value) -> Home | None:
    name = getattr(value, "name", None)
    if not isinstance(name, str):
        return None
    owner = value.qualname.rpartition(".")[0]
    if owner and value.style == "python" and getattr(value, "declaration", None) is None:
        module, names = _recorded()["methods"].get(owner, ("", ""))  # Module.train's
        if name in names.split():
            return Home("function", module, value.qualname, name)
    for namespace, entries in _recorded()["functions"].items():
        recorded = entries.get(name)
        module = protocols.MODULES.get(namespace) if recorded is not None else None
        if module is not None and name in module.table and module.table[name] is value:
            kind, where, *rest = recorded
            qualname = rest[0] if rest else name
            return Home(kind, where, qualname, rest[1] if len(rest) > 1 else
                        qualname.rpartition(".")[2])
    return None
