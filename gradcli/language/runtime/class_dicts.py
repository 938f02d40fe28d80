"""A class's __dict__ (and vars(cls)): Python's read-only mappingproxy over what the class
statement defined, in the order Python's type() lays it out."""

from __future__ import annotations

from collections.abc import Mapping

from gradcli.engine import errors
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table

# what the interpreter keeps in a class's namespace that type() does not
_HIDDEN = frozenset(("__qualname__", "__class__"))


class AttributeSlot(TableObject):
    """The descriptors type() adds to a class: __dict__ and __weakref__ (getset descriptors)
    and one for each name in __slots__ (member descriptors)."""

    __slots__ = ("name", "owner", "member")
    own_dunders = frozenset(("__name__",))

    def __init__(self, name: str, owner: str, member: bool = False):
        self.name, self.owner, self.member = name, owner, member

    @property
    def language_type(self):
        return _MEMBER_TYPE if self.member else _GETSET_TYPE

    def attribute(self, name: str):
        if name == "__name__":
            return self.name
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<{'member' if self.member else 'attribute'} '{self.name}' of '{self.owner}' " \
            "objects>"


class ClassDict(TableObject, Mapping):
    """cls.__dict__: the class's own attributes, read-only."""

    __slots__ = ("items_",)
    subscriptable = sized = True

    def __init__(self, cls):
        body, later, seen_end = {}, {}, False
        for key, value in cls.namespace.items():
            if key == "__class__":  # the interpreter's mark of the body's end
                seen_end = True
            elif key != "__qualname__":
                (later if seen_end else body)[key] = value
        doc = body.pop("__doc__", None)
        laid = {"__module__": body.pop("__module__", "__main__")}
        if "__annotations__" in body:  # made as the body starts
            laid["__annotations__"] = body.pop("__annotations__")
        if doc is not None:  # a docstring is the body's first statement
            laid["__doc__"] = doc
        laid.update(body)
        slots = body.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots if isinstance(
                slots, (tuple, list)) else ():
            laid[name] = AttributeSlot(name, cls.name, member=True)
        if not any(not isinstance(b, PyType) for b in cls.bases) and "__slots__" not in body:
            exception = cls.base is not None and bool(cls.base.hosts) and issubclass(
                cls.base.hosts[0], BaseException)  # (its instances have a __dict__)
            if cls.base is None:
                laid["__dict__"] = AttributeSlot("__dict__", cls.name)
            if cls.base is None or exception:
                laid["__weakref__"] = AttributeSlot("__weakref__", cls.name)
        if doc is None:  # type() adds __doc__ = None last
            laid["__doc__"] = None
        laid.update(later)
        self.items_ = laid

    @property
    def language_type(self):
        return _MAPPINGPROXY_TYPE

    def __getitem__(self, key):
        return self.items_[key]

    def __iter__(self):
        return iter(self.items_)

    def __len__(self) -> int:
        return len(self.items_)

    def item(self, key):
        if key not in self.items_:
            raise errors.TorchError("KeyError", repr(key) if isinstance(key, str) else "",
                                    (key,))
        return self.items_[key]

    def length(self) -> int:
        return len(self.items_)

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        if op == "in" and reflected:
            return other in self.items_
        return NotImplemented

    def attribute(self, name: str):
        method = _METHODS.get(name)
        if method is None:
            raise self.missing(name)
        return BoundMethod(self, method)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"mappingproxy({self.str(printer)})"

    def str(self, printer) -> str:  # the mapping's own str
        return printer.repr(dict(self.items_))


_METHODS = table(
    entry("keys", lambda d: d.items_.keys(), "self, /", qualname="mappingproxy.keys"),
    entry("values", lambda d: d.items_.values(), "self, /", qualname="mappingproxy.values"),
    entry("items", lambda d: d.items_.items(), "self, /", qualname="mappingproxy.items"),
    entry("get", lambda d, key, default=None: d.items_.get(key, default),
          "self, key, default=None, /", qualname="mappingproxy.get"),
    entry("copy", lambda d: dict(d.items_), "self, /", qualname="mappingproxy.copy"),
)
_MAPPINGPROXY_TYPE = PyType("mappingproxy", (ClassDict,))


def mapping_proxy(items: dict) -> ClassDict:
    """A read-only mappingproxy over `items` (a dataclass field's metadata), as a class's
    __dict__ is."""
    proxy = ClassDict.__new__(ClassDict)
    proxy.items_ = items
    return proxy
_GETSET_TYPE = PyType("getset_descriptor", (AttributeSlot,))
_MEMBER_TYPE = PyType("member_descriptor", (AttributeSlot,))
