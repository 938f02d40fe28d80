"""collections.namedtuple and typing.NamedTuple: tuple classes whose instances name their
fields, and the program's classes derived from them (`class Batch(NamedTuple)` with annotated
fields, or `class Point(namedtuple("Point", "x y"))`), whose methods see the fields."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.namespaces.value_subclasses import ValueInstance
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.attributes import NAMED_ATTRIBUTES, named_field
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.protocols import CLASS_METHODS
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import NamedTuple, iterate


class NamedTupleInstance(ValueInstance, NamedTuple):
    """An instance of a program's class derived from a namedtuple class: its fields are the
    tuple's items, its methods the class's."""

    HOST = tuple

    @property
    def language_fields(self) -> tuple:
        return self.cls.base.hosts[0].language_fields

    def host_attribute(self, name: str):
        if name in self.language_fields or name in NAMED_ATTRIBUTES:
            return named_field(self, name)
        found = _class_attribute(self.cls.base.hosts[0], self.cls, name)  # _field_defaults
        return found if found is not classes.MISSING else super().host_attribute(name)

    def set_own_attribute(self, name: str, value) -> None:
        if name in self.language_fields:  # a field is a read-only descriptor of the class
            raise errors.TorchError("AttributeError", "can't set attribute")
        super().set_own_attribute(name, value)

    def remade(self, items):
        return NamedTupleInstance.make(self.cls, tuple(items))

    def repr(self, printer) -> str:
        method = self.dunder("__repr__")
        if method is not None:
            return classes.text_of(self.cls.runtime.call(method, [], {}), "__repr__")
        fields = ", ".join(f"{f}={printer.repr(v)}" for f, v in zip(self.language_fields, self))
        return f"{self.cls.name}({fields})"


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    """collections.namedtuple: a new tuple class whose instances name their fields."""
    names = field_names.replace(",", " ").split() if isinstance(field_names, str) else [
        str(f) for f in iterate(field_names)]
    for name in [typename, *names]:
        if not isinstance(name, str) or not name.isidentifier():
            raise errors.value_error("Type names and field names must be valid identifiers: "
                                     f"{name!r}")
        if name.startswith("_") and name is not typename:
            raise errors.value_error(f"Field names cannot start with an underscore: {name!r}")
    if len(set(names)) != len(names):
        duplicate = next(n for n in names if names.count(n) > 1)
        raise errors.value_error(f"Encountered duplicate field name: {duplicate!r}")
    defaults = tuple(iterate(defaults)) if defaults is not None else ()
    if len(defaults) > len(names):
        raise errors.type_error("Got more default values than field names")
    host = type(typename, (NamedTuple,), {"__slots__": (), "language_fields": tuple(names)})
    field_defaults = dict(zip(names[len(names) - len(defaults):], defaults))
    signature = UserFunction("__new__", f"{typename}.__new__", ("_cls", *names), field_defaults,
                             None, None)

    def items(args, kwargs) -> tuple:
        bound = signature.bind([host, *args], kwargs)
        return tuple(bound[n] for n in names)

    cls = PyType(f"__main__.{typename}", (host,), entry(
        typename, lambda *args, **kwargs: host(items(args, kwargs)), "*args, **kwargs",
        frames=0))
    protocols.register_type(cls)
    CLASS_METHODS[host] = {"_fields": tuple(names), "_field_defaults": field_defaults,
                           "_make": entry("_make", lambda iterable: host(iterate(iterable)),
                                          "iterable", frames=0)}
    # the program's classes derived from it
    classes.BASE_NEWS[cls] = entry(
        "__new__", lambda user, *args, **kwargs: NamedTupleInstance.make(user, items(args, kwargs)),
        "*args, **kwargs", qualname=f"{typename}.__new__")
    classes.BASE_INITS[cls] = entry("__init__", lambda self, *args, **kwargs: None,
                                    "self, *args, **kwargs", qualname="object.__init__")
    classes.BASE_CLASS_ATTRIBUTES[cls] = lambda user, name: _class_attribute(host, user, name)
    return cls


def _class_attribute(host, user: classes.UserClass, name: str):
    """Subclass._fields, ._field_defaults, and ._make making the subclass's instances."""
    if name == "_make":
        return entry("_make", lambda iterable: NamedTupleInstance.make(
            user, tuple(iterate(iterable))), "iterable", frames=0)
    return CLASS_METHODS[host].get(name, classes.MISSING)


def typed_namedtuple(typename, fields=None):
    """typing.NamedTuple("Name", [("field", type), ...]): its functional form."""
    return namedtuple(typename, [name for name, _ in iterate(fields or ())])


def _class_form(name: str, namespace: dict):
    """`class Name(NamedTuple)`: the namedtuple class of its annotated fields (the values given
    in the body are their defaults) that the class derives from instead."""
    fields = list(namespace.get("__annotations__", {}))
    defaults = {}
    for field in fields:
        if field in namespace:
            defaults[field] = namespace.pop(field)
        elif defaults:
            raise errors.type_error(f"Non-default namedtuple field {field} cannot follow "
                                    f"default field{'s' if len(defaults) > 1 else ''} "
                                    f"{', '.join(defaults)}")
    return namedtuple(name, fields, defaults=list(defaults.values()))


TYPED_NAMEDTUPLE = entry("NamedTuple", typed_namedtuple, "typename, fields=None, /", frames=0)
classes.VALUE_KINDS.add(NamedTupleInstance)
classes.BASE_REWRITES[TYPED_NAMEDTUPLE] = _class_form
