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
from gradcli.language.namespaces.builtins import _list_sort, entry, stop_iteration, table
from gradcli.language.runtime.generators import GeneratorObject
from gradcli.language.runtime import classes
from gradcli.language.runtime.formatting import str_format
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.namespaces.tensor_table import TENSOR_ATTRS, TENSOR_METHODS
from gradcli.language.runtime.values import Namespace, Size, type_name

NODE_ATTRS = {"next_functions": lambda n: tuple(n.next_edges)}
ACCUMULATE_GRAD_ATTRS = NODE_ATTRS | {"variable": lambda n: n.variable}
NODE_METHODS = table(entry("name", lambda n: n.name(), "self"))
DTYPE_ATTRS = {
    "is_floating_point": lambda d: d.is_floating_point,
    "itemsize": lambda d: d.itemsize,
    "is_signed": lambda d: d.name not in ("uint8", "bool"),
}
RETURN_TYPES_ATTRS = {"values": lambda r: r.values, "indices": lambda r: r.indices}
EXCEPTION_ATTRS = {"args": lambda e: e.args}
STOP_ITERATION_ATTRS = EXCEPTION_ATTRS | {"value": lambda e: e.args[0] if e.args else None}
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
    entry("sort", lambda ctx, xs, key, reverse: _list_sort(ctx, xs, key, reverse),
          "self, *, key=None, reverse=False", context=True),
)
DICT_METHODS = table(
    entry("items", lambda d: d.items(), "self"),
    entry("keys", lambda d: d.keys(), "self"),
    entry("values", lambda d: d.values(), "self"),
    entry("update", lambda d, other: d.update(other), "self, other=(), /"),
    entry("pop", lambda d, key, default=None: d.pop(key, default), "self, key, default=None"),
    entry("setdefault", lambda d, key, default: d.setdefault(key, default),
          "self, key, default=None"),
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
    entry("ljust", lambda s, width, fill: s.ljust(width, fill), "self, width, fillchar=' ', /"),
    entry("rjust", lambda s, width, fill: s.rjust(width, fill), "self, width, fillchar=' ', /"),
    entry("center", lambda s, width, fill: s.center(width, fill), "self, width, fillchar=' ', /"),
    entry("zfill", lambda s, width: s.zfill(width), "self, width, /"),
    entry("title", lambda s: s.title(), "self"),
    entry("capitalize", lambda s: s.capitalize(), "self"),
    entry("find", lambda s, sub: s.find(sub), "self, sub, /"),
    entry("count", lambda s, sub: s.count(sub), "self, sub, /"),
    entry("isdigit", lambda s: s.isdigit(), "self"),
    entry("rstrip", lambda s, chars: s.rstrip(chars), "self, chars=None"),
    entry("lstrip", lambda s, chars: s.lstrip(chars), "self, chars=None"),
    entry("format", lambda ctx, s, *args, **kwargs: str_format(ctx.printer, s, args, kwargs),
          "self, /, *args, **kwargs", context=True),
)


def _send(generator: GeneratorObject, value):
    try:
        return generator.send(value)
    except StopIteration as stop:
        raise stop_iteration(stop) from None


def _close(generator: GeneratorObject) -> None:
    generator.state = "closed"


GENERATOR_METHODS = table(entry("send", _send, "self, value, /"),
                          entry("close", _close, "self"))


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


# (kinds of value, their attributes, their methods), tried in order (Size before any tuple). A
# kind's tables hold only what works on every value of that kind (completion offers them all).
_KIND_TABLES = (
    (AccumulateGrad, ACCUMULATE_GRAD_ATTRS, NODE_METHODS), (Node, NODE_ATTRS, NODE_METHODS),
    (DType, DTYPE_ATTRS, {}), (Size, {}, SIZE_METHODS), (ReturnTypes, RETURN_TYPES_ATTRS, {}),
    (StopIteration, STOP_ITERATION_ATTRS, {}), (BaseException, EXCEPTION_ATTRS, {}),
    (RemovableHandle, {}, HANDLE_METHODS),
    (Device, DEVICE_ATTRS, {}), (ARRAY_TYPES, ARRAY_ATTRS, ARRAY_METHODS),
    (list, {}, LIST_METHODS), (dict, {}, DICT_METHODS), (str, {}, STR_METHODS),
    (GeneratorObject, {}, GENERATOR_METHODS),
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
    """value.name, resolved only through the tables above, and for the user's own classes and
    their instances through what the program defined (its dunder methods included)."""
    if isinstance(value, classes.Instance) or (
            isinstance(value, TableObject) and value.user_class() is not None):
        return value.attribute(name)
    if isinstance(value, classes.UserClass):
        return value.attribute(name)
    if isinstance(value, classes.Super):
        return _from_super(value, name)
    if isinstance(value, classes.Property) and name in ("setter", "getter"):
        return _property_decorator(value, name)
    if name.startswith("__") and name.endswith("__"):
        if isinstance(value, Namespace) and name in value.table:  # torch.__version__
            return value.table[name]
        if isinstance(value, PyType) and name in ("__name__", "__qualname__"):
            return value.name.rsplit(".", 1)[-1]  # type(e).__name__
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
    """value.name = item, for the settable tensor attributes, table objects and user classes."""
    if isinstance(value, classes.UserClass):
        value.namespace[name] = item
        return
    if isinstance(value, TableObject) and (value.user_class() is not None or not (
            name.startswith("__") and name.endswith("__"))):
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


def _from_super(proxy: classes.Super, name: str):
    """super().name: the next definition along the MRO, else the builtin base's method."""
    found = proxy.attribute(name)
    if found is not classes.MISSING:
        return found
    if name == "__init__":  # object's and the builtin bases' __init__ take no further arguments
        owner = classes.class_of(proxy.instance)
        base_init = classes.BASE_INITS.get(owner.base) if owner is not None else None
        return BoundMethod(proxy.instance, base_init or _OBJECT_INIT)
    if isinstance(proxy.instance, TableObject):
        return proxy.instance.base_attribute(name)
    raise errors.TorchError("AttributeError", f"'super' object has no attribute '{name}'")


_OBJECT_INIT = entry("__init__", lambda self: None, "self", qualname="object.__init__",
                     style="exact")


def _property_decorator(prop: classes.Property, name: str):
    """prop.setter / prop.getter: decorators that return the property with that function."""
    if name == "setter":
        return entry("setter", lambda fn: classes.Property(prop.getter, fn), "fset, /")
    return entry("getter", lambda fn: classes.Property(fn, prop.setter), "fget, /")
