"""Attribute access: every `obj.name` resolves through an explicit table for the object's kind."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.devices import Device
from gradcli.engine.dtypes import DType
from gradcli.engine.hooks import RemovableHandle
from gradcli.engine.ops.reductions import ReturnTypes
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.arrays import ARRAY_ATTRS, ARRAY_METHODS, ARRAY_TYPES
from gradcli.language.namespaces.builtins import entry, table
from gradcli.language.runtime.formatting import str_format
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.namespaces.tensor_table import TENSOR_ATTRS, TENSOR_METHODS
from gradcli.language.runtime.values import Namespace, Size, type_name

NODE_ATTRS = {
    "next_functions": lambda n: tuple(n.next_edges),
    "variable": lambda n: n.variable if isinstance(n, AccumulateGrad) else _missing(n, "variable"),
}
NODE_METHODS = table(entry("name", lambda n: n.name(), "self"))
DTYPE_ATTRS = {
    "is_floating_point": lambda d: d.is_floating_point,
    "itemsize": lambda d: d.itemsize,
    "is_signed": lambda d: d.name not in ("uint8", "bool"),
}
RETURN_TYPES_ATTRS = {"values": lambda r: r.values, "indices": lambda r: r.indices}
EXCEPTION_ATTRS = {"args": lambda e: e.args}
HANDLE_METHODS = table(entry("remove", lambda h: h.remove(), "self"))
DEVICE_ATTRS = {"type": lambda d: d.type, "index": lambda d: d.index}
SIZE_METHODS = table(entry("numel", lambda s: _product(s), "self"))
LIST_METHODS = table(
    entry("append", lambda xs, item: xs.append(item), "self, object"),
    entry("extend", lambda xs, items: xs.extend(items), "self, iterable"),
    entry("pop", lambda xs, index: xs.pop(index), "self, index=-1"),
    entry("insert", lambda xs, index, item: xs.insert(index, item), "self, index, object"),
    entry("index", lambda xs, item: xs.index(item), "self, value"),
    entry("count", lambda xs, item: xs.count(item), "self, value"),
    entry("reverse", lambda xs: xs.reverse(), "self"),
    entry("copy", lambda xs: list(xs), "self"),
    entry("clear", lambda xs: xs.clear(), "self"),
)
DICT_METHODS = table(
    entry("items", lambda d: list(d.items()), "self"),
    entry("keys", lambda d: list(d.keys()), "self"),
    entry("values", lambda d: list(d.values()), "self"),
    entry("get", lambda d, key, default: d.get(key, default), "self, key, default=None"),
)
STR_METHODS = table(
    entry("upper", lambda s: s.upper(), "self"),
    entry("lower", lambda s: s.lower(), "self"),
    entry("strip", lambda s, chars: s.strip(chars), "self, chars=None"),
    entry("split", lambda s, sep: s.split(sep), "self, sep=None"),
    entry("join", lambda s, items: s.join(items), "self, iterable"),
    entry("replace", lambda s, old, new: s.replace(old, new), "self, old, new"),
    entry("startswith", lambda s, prefix: s.startswith(prefix), "self, prefix"),
    entry("endswith", lambda s, suffix: s.endswith(suffix), "self, suffix"),
    entry("format", lambda ctx, s, *args, **kwargs: str_format(ctx.printer, s, args, kwargs),
          "self, /, *args, **kwargs", context=True),
)


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _missing(value, name: str):
    raise errors.TorchError("AttributeError",
                            f"'{type_name(value)}' object has no attribute '{name}'")


def _from(value, name: str, attrs: dict, methods: dict):
    getter = attrs.get(name)
    if getter is not None:
        return getter(value) if not isinstance(getter, tuple) else getter[0](value)
    method = methods.get(name)
    if method is not None:
        return BoundMethod(value, method)
    return _missing(value, name)


# (kinds of value, their attributes, their methods), tried in order (Size before any tuple).
_KIND_TABLES = (
    ((Node, AccumulateGrad), NODE_ATTRS, NODE_METHODS), (DType, DTYPE_ATTRS, {}),
    (Size, {}, SIZE_METHODS), (ReturnTypes, RETURN_TYPES_ATTRS, {}),
    (BaseException, EXCEPTION_ATTRS, {}), (RemovableHandle, {}, HANDLE_METHODS),
    (Device, DEVICE_ATTRS, {}), (ARRAY_TYPES, ARRAY_ATTRS, ARRAY_METHODS),
    (list, {}, LIST_METHODS), (dict, {}, DICT_METHODS), (str, {}, STR_METHODS),
)


def tables_of(value) -> tuple[dict, dict] | None:
    """(attributes, methods): the tables `value.name` resolves through, for table kinds."""
    if isinstance(value, Tensor):
        return TENSOR_ATTRS, TENSOR_METHODS
    for kind, attrs, methods in _KIND_TABLES:
        if isinstance(value, kind):
            return attrs, methods
    return None


def get(value, name: str):
    """value.name, resolved only through the tables above."""
    if name.startswith("__") and name.endswith("__"):
        return _missing(value, name)
    if isinstance(value, Namespace):
        return value.lookup(name)
    if isinstance(value, TableObject):
        return value.attribute(name)
    tables = tables_of(value)
    if tables is not None:
        return _from(value, name, *tables)
    return _missing(value, name)


def set(value, name: str, item) -> None:
    """value.name = item, for the settable tensor attributes and table objects only."""
    if isinstance(value, TableObject) and not (name.startswith("__") and name.endswith("__")):
        value.set_attribute(name, item)
        return
    if isinstance(value, Tensor):
        getter_setter = TENSOR_ATTRS.get(name)
        if getter_setter is not None and getter_setter[1] is not None:
            getter_setter[1](value, item)
            return
        if getter_setter is not None or name in TENSOR_METHODS:
            raise errors.TorchError("AttributeError",
                                    f"attribute '{name}' of 'torch._C.TensorBase' objects is not "
                                    "writable")
    raise errors.TorchError("AttributeError",
                            f"'{type_name(value)}' object has no attribute '{name}'")
