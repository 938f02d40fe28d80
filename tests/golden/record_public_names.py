"""Record torch's public names per namespace into gradcli's package data.

Run `python tests/golden/record_public_names.py` (torch 2.13.0 installed) to rewrite
gradcli/language/namespaces/public_names.json; tests/language/test_public_names.py reads the
names from torch when it is installed and checks the recorded list against them.
"""

from __future__ import annotations

import inspect
import json
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from gradcli.language.namespaces.public_names import (  # noqa: E402
    NAMESPACES, PARSED_NAMESPACES, RECORD, WORDING)
from gradcli.language.runtime.torch_homes import HOMES  # noqa: E402


def _foreign(value) -> bool:
    """Modules and helpers torch's namespaces import from outside torch (math, typing, ...)."""
    if isinstance(value, types.ModuleType):
        return not value.__name__.startswith("torch")
    module = getattr(value, "__module__", None)
    routine = inspect.isclass(value) or inspect.isfunction(value) or inspect.isbuiltin(value)
    return routine and isinstance(module, str) and not module.startswith("torch")


def public_names() -> dict[str, list[str]]:
    """namespace -> its public names (no leading underscore, nothing imported from outside)."""
    import importlib
    out = {}
    for namespace in NAMESPACES:
        module_name, _, attr = namespace.rpartition(".")
        owner = (getattr(importlib.import_module(module_name), attr) if attr == "Tensor"
                 else importlib.import_module(namespace))
        out[namespace] = sorted(n for n in dir(owner)
                                if not n.startswith("_") and not _foreign(getattr(owner, n)))
    return out


def wording_module(c_functions: dict[str, list[str]], without_arguments: list[str]) -> str:
    """The source of gradcli/language/namespaces/torch_wording.py: plain sets, imported at
    start-up without reading any file."""
    def names(items) -> str:
        return "frozenset({\n" + "".join(f"    {n!r},\n" for n in sorted(items)) + "})"
    c_coded_text = "".join(f"    {space!r}: {names(items)},\n" for space, items in c_functions.items())
    return ('"""Recorded from torch 2.13.0 by tests/golden/record_public_names.py (do not edit): the '
            'names torch\nwrites in C++ per namespace, and the Tensor methods that take no '
            'arguments at all."""\n\n'
            f"C_CODED = {{\n{c_coded_text}}}\n\nNO_ARGUMENTS = {names(without_arguments)}\n")


def _is_c_function(value) -> bool:
    return inspect.isbuiltin(value) or inspect.ismethoddescriptor(value)


def c_coded(names: dict[str, list[str]]) -> dict[str, list[str]]:
    """namespace -> its functions torch writes in C++ (their argument errors are those of
    torch's argument parser, where a Python function's are Python's)."""
    import importlib
    out = {}
    for namespace in PARSED_NAMESPACES:
        module_name, _, attr = namespace.rpartition(".")
        owner = (getattr(importlib.import_module(module_name), attr) if attr == "Tensor"
                 else importlib.import_module(namespace))
        out[namespace] = [n for n in names[namespace]
                          if _is_c_function(inspect.getattr_static(owner, n, None))]
    return out


def no_arguments(names: dict[str, list[str]]) -> list[str]:
    """Tensor's C methods that take no arguments at all (`TensorBase.dim() takes no
    arguments (1 given)`), found by calling each with one."""
    import warnings

    import torch
    found = []
    for name in c_coded(names)["torch.Tensor"]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                getattr(torch.ones(2, 2), name)(object())
        except TypeError as error:
            if f".{name}() takes no arguments" in str(error):
                found.append(name)
        except Exception:  # noqa: BLE001 - any other failure: it takes arguments
            pass
    return found


def _home(value, name: str) -> list | None:
    """[kind, module, qualname, __name__] of a function torch publishes as `name`, trailing
    defaults left off (the qualname defaults to `name`, __name__ to the qualname's last part):
    kind "function" (Python code), "builtin" (a C function of a module: `<built-in function
    gelu>`) or "method" (a C function of a class: `<built-in method sum of type object at
    0x...>`); None for anything else."""
    if inspect.isfunction(value):
        kind = "function"
    elif inspect.isbuiltin(value) and repr(value).startswith("<built-in function "):
        kind = "builtin"
    elif inspect.isbuiltin(value) and " of type object at 0x" in repr(value):
        kind = "method"
    else:
        return None
    home = [kind, value.__module__, value.__qualname__, value.__name__]
    if home[3] == home[2].rpartition(".")[2]:
        home.pop()
        if home[2] == name:
            home.pop()
    return home


def homes() -> dict[str, dict]:
    """"functions": module -> name -> where torch defines the function it publishes under that
    name, for the torch modules a program may import in gradcli (torch's own first) and reach
    by attribute (not torch.autograd.gradcheck, which the function of that name hides);
    "methods": a class's qualified name -> [the module its methods' code is in (Tensor's in
    torch._tensor), the names of those methods], for the classes of those modules."""
    import functools
    import importlib

    import torch
    from gradcli.language.namespaces.torch_table import MODULES
    out, methods = {}, {}
    for namespace in sorted((n for n in MODULES if n.startswith("torch")),
                            key=lambda n: (n not in NAMESPACES, n)):
        module = importlib.import_module(namespace)
        if functools.reduce(getattr, namespace.split(".")[1:], torch) is not module:
            continue
        values = [(name, getattr(module, name)) for name in dir(module) if name[0] != "_"]
        found = {name: _home(value, name) for name, value in values}
        out[namespace] = {name: home for name, home in found.items() if home is not None}
        classes = dict.fromkeys(klass for _, value in values if inspect.isclass(value)
                                for klass in value.__mro__  # (private bases too: _ConvNd)
                                if klass.__module__.startswith("torch"))
        for cls in classes:
            owned = [function for function in map(_function_of, vars(cls).values())
                     if function is not None and
                     function.__qualname__.rpartition(".")[0] == cls.__qualname__]
            if owned and cls.__qualname__ not in methods:
                methods[cls.__qualname__] = [owned[0].__module__, " ".join(
                    sorted(f.__name__ for f in owned))]
    return {"functions": {namespace: found for namespace, found in out.items() if found},
            "methods": methods}


def _function_of(attribute):
    """The Python function of a class attribute (a method, static or class method), or None."""
    function = getattr(attribute, "__func__", attribute)
    return function if inspect.isfunction(function) else None


def homes_text(found: dict[str, dict]) -> str:
    """The JSON of `found`, one function (or class) a line."""
    def lines(entries: dict) -> str:
        return "{\n" + ",\n".join(f"{json.dumps(key)}: {json.dumps(value)}"
                                   for key, value in entries.items()) + "}"
    spaces = ",\n".join(json.dumps(namespace) + ": " + lines(entries)
                        for namespace, entries in found["functions"].items())
    return (f'{{"functions": {{\n{spaces}}},\n"methods": {lines(found["methods"])}\n}}\n')


if __name__ == "__main__":
    names = public_names()
    Path(RECORD).write_text(json.dumps(names, indent=0) + "\n", encoding="utf-8")
    Path(WORDING).write_text(wording_module(c_coded(names), no_arguments(names)),
                             encoding="utf-8")
    Path(HOMES).write_text(homes_text(homes()), encoding="utf-8")
    print(f"wrote {Path(RECORD).relative_to(ROOT)}")
