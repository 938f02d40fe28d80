"""`import` and `from ... import`: only the modules in the MODULES table can be imported."""

from __future__ import annotations

import __future__

from gradcli.engine import errors
from gradcli.language.namespaces.public_names import unsupported
from gradcli.language.namespaces.star_names import recorded
from gradcli.language.runtime import protocols

FUTURE_FEATURES = frozenset(__future__.all_feature_names)  # what `from __future__` may name
# torch's modules that import a package torch does not install: importing one fails there
_NEEDS_PACKAGE = {"torch.utils.tensorboard": "tensorboard"}


def _missing(dotted: str) -> errors.TorchError:
    """Python's ModuleNotFoundError for the module `dotted` (its `name` the one not found)."""
    needed = _NEEDS_PACKAGE.get(dotted, dotted)
    return _import_error("ModuleNotFoundError", f"No module named '{needed}'", needed)


def _module(path: list[str]):
    module = protocols.MODULES.get(".".join(path))
    if module is None:  # Python names the first package along the path it cannot find
        dotted = next(d for d in (".".join(path[:end]) for end in range(1, len(path) + 1))
                      if d not in protocols.MODULES)
        parent, _, last = dotted.rpartition(".")
        raise unsupported(parent, last) or _missing(dotted)
    return module


def _import_error(kind: str, message: str, module: str) -> errors.TorchError:
    """An import's failure, naming the module as Python's ImportError.name does."""
    error = errors.TorchError(kind, message)
    error.looked_up = ("module", module)
    return error


def bind_import(frame, path: list[str], alias: str | None, names) -> None:
    """Bind what an import statement names into `frame`."""
    if names is None:
        _module(path)
        if alias is not None:
            frame.vars[alias] = _module(path)
        else:
            frame.vars[path[0]] = _module(path[:1])
        return
    module = _module(path)
    for name, as_name in names:
        dotted = ".".join(path + [name])
        if name in module.table:  # an attribute first, as Python looks (torch.autograd.gradcheck)
            value = module.table[name]
        elif dotted in protocols.MODULES:
            value = protocols.MODULES[dotted]
        elif dotted in _NEEDS_PACKAGE:
            raise _missing(dotted)
        else:
            raise unsupported(".".join(path), name) or _import_error(
                "ImportError", f"cannot import name '{name}' from '{'.'.join(path)}'",
                ".".join(path))
        frame.vars[as_name or name] = value


def bind_star(frame, path: list[str]) -> None:
    """`from <path> import *`: bind the names Python binds that gradcli has."""
    module, dotted = _module(path), ".".join(path)
    record = recorded()
    references = record["references"].get(dotted, {})
    for name in record["names"].get(dotted, ()):
        if name in module.table:
            frame.vars[name] = module.table[name]
        elif (reference := references.get(name)) is not None:
            owner, _, attr = reference.partition(":")
            if owner == "module":
                frame.vars[name] = protocols.MODULES[attr]
            else:
                frame.vars[name] = protocols.MODULES[owner].table[attr]
