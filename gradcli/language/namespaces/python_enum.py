"""Python's `enum`: Enum and IntEnum classes whose plain class attributes become members (auto()
numbering from 1), looked up by value (`Color(1)`) and by name (`Color['RED']`), iterated in
definition order (aliases left out), printed as Python 3.11 prints them. The class-level
behaviour is EnumType's, run through runtime/classes.py's METACLASSES."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.classes import (ClassMethod, NativeMethod, Property, StaticMethod,
                                              UserClass)
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import OBJECT, PyType
from gradcli.language.runtime.signatures import Builtin, entry, table
from gradcli.language.runtime.values import Namespace, iterate

_DESCRIPTORS = (UserFunction, StaticMethod, ClassMethod, Property, NativeMethod, UserClass,
                Builtin)


class Auto(TableObject):
    """enum.auto(): the member's value, numbered when its class is made."""

    __slots__ = ()

    @property
    def language_type(self):
        return AUTO_TYPE

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"'auto' object has no attribute '{name}'")

    def repr(self, printer) -> str:
        return "auto(_auto_null)"


AUTO_TYPE = PyType("enum.auto", (Auto,), entry("auto", Auto, "", frames=0))


def _members(cls: UserClass) -> dict:
    return cls.find("_member_map_")


def _is_member_name(name: str, value) -> bool:
    dunder = name.startswith("__") and name.endswith("__")
    sunder = len(name) > 2 and name[0] == name[-1] == "_" and name[1] != "_"
    return not (dunder or sunder or isinstance(value, _DESCRIPTORS)) and \
        not name.startswith(f"_{name}__")


def _made(cls: UserClass) -> None:
    """EnumType's class creation: the plain attributes of the body become the members."""
    for base in cls.mro[1:]:
        if _members(base):
            raise errors.type_error(f"<enum '{cls.name}'> cannot extend <enum '{base.name}'>")
    integral = cls.is_subclass_of(INT_ENUM)
    members, by_value, values = {}, [], []
    for name, value in list(cls.namespace.items()):
        if not _is_member_name(name, value):
            continue
        if isinstance(value, Auto):
            value = values[-1] + 1 if values and isinstance(values[-1], int) else 1
        if integral:
            value = _as_int(value)
        values.append(value)
        alias = next((m for v, m in by_value if v == value), None)
        if alias is None:
            alias = _member(cls, value)
            alias.attrs.update({"_value_": value, "_name_": name})
            by_value.append((value, alias))
        members[name] = cls.namespace[name] = alias
    if _mixin(cls):  # the data type's hash, as its methods come before Enum's
        cls.namespace.setdefault("__hash__", _native("__hash__", lambda self: hash(_value(self)),
                                                     "self, /"))
    cls.namespace["_member_map_"] = members
    cls.namespace["_member_names_"] = [m.attrs["_name_"] for _, m in by_value]
    cls.namespace["__members__"] = dict(members)


def _mixin(cls: UserClass) -> bool:
    """Whether the enum mixes in a builtin data type (class Mode(str, Enum))."""
    return cls.base is not None and cls.base in classes.BASE_NEWS and cls.base is not OBJECT


def _member(cls: UserClass, value):
    """A new member: an instance of the class, of its data type too when it mixes one in."""
    if _mixin(cls):
        return cls.runtime.call(classes.BASE_NEWS[cls.base], [cls, value], {})
    return classes.Instance(cls)


def _as_int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise errors.type_error(f"int() argument must be a string, a bytes-like object or a "
                                f"real number, not '{protocols.type_of(value).name}'")
    try:
        return int(value)
    except ValueError as error:
        raise errors.value_error(str(error)) from None


def _call(ctx, cls, *args, **kwargs):
    """Color(value): the member with that value."""
    if len(args) != 1 or kwargs:
        if not args:
            raise errors.type_error("EnumType.__call__() missing 1 required positional "
                                    "argument: 'value'")
        raise errors.TorchError("NotImplementedError", "gradcli does not support Enum's "
                                "functional API yet")
    value = args[0]
    members = _members(cls) or {}
    for member in members.values():
        if member is value or _value(member) is value:
            return member
    for member in members.values():
        if protocols.truth(protocols.compare("==", _value(member), value)):
            return member
    raise errors.value_error(f"{ctx.printer.repr(value)} is not a valid {cls.qualname}")


def _functional(runtime, cls, name, names=None, *, module=None, qualname=None, type=None,
                start=1, boundary=None):
    """Enum('Color', 'RED GREEN'), Enum('Color', ['RED', ('GREEN', 5)], start=1): a new enum
    class, made as a class statement would make it."""
    if not isinstance(name, str) or names is None:
        raise errors.TorchError("NotImplementedError", "gradcli does not support looking up "
                                "a member of Enum itself")
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    items = list(names.items()) if isinstance(names, dict) else list(iterate(names))
    namespace = {"__module__": module or "__main__", "__qualname__": qualname or name,
                 "__doc__": None}
    for index, item in enumerate(items):
        if isinstance(item, str):
            namespace[item] = start + index
        else:
            member, value = item
            namespace[member] = value
    return classes.make_class(name, namespace["__qualname__"], [cls], namespace, runtime)


_FUNCTIONAL = entry("__call__", _functional, "cls, value, names=None, *, module=None, "
                    "qualname=None, type=None, start=1, boundary=None", context=True,
                    qualname="EnumType.__call__")


def _set_attribute(cls, name: str) -> None:
    """EnumType.__setattr__: a member cannot be rebound."""
    if name in (_members(cls) or {}):
        raise errors.TorchError("AttributeError", f"cannot reassign member '{name}'")


def _value(member):
    return member.attrs["_value_"]


def _get_item(cls, name):
    members = _members(cls) or {}
    if isinstance(name, str) and name in members:
        return members[name]
    raise errors.TorchError("KeyError", repr(name) if isinstance(name, str) else "", (name,))


def _contains(cls, member) -> bool:
    if not (isinstance(member, classes.Instance) and member.cls.is_subclass_of(ENUM)):
        raise errors.type_error(f"unsupported operand type(s) for 'in': "
                                f"'{protocols.type_of(member).name}' and 'EnumType'")
    return member.cls is cls and member in (_members(cls) or {}).values()


def _iterate(cls):
    members = _members(cls) or {}
    return iter([members[name] for name in cls.find("_member_names_") or ()])


def _native(name: str, function, spec: str, context: bool = False) -> NativeMethod:
    return NativeMethod(entry(name, function, spec, context=context, qualname=f"Enum.{name}"))


def _int_operator(name: str, op: str, reflected: bool = False, compare: bool = False):
    run = protocols.compare if compare else protocols.binary

    def method(self, other):
        other = _value(other) if isinstance(other, classes.Instance) and "_value_" in \
            other.attrs else other
        return run(op, other, _value(self)) if reflected else run(op, _value(self), other)
    return _native(name, method, "self, other, /")


ENUM = UserClass("Enum", "Enum", (), {
    "__module__": "enum", "__doc__": None, "_member_map_": {}, "_member_names_": [],
    "name": Property(entry("name", lambda self: self.attrs["_name_"], "self")),
    "value": Property(entry("value", _value, "self")),
    "__repr__": _native("__repr__", lambda ctx, self: f"<{self.cls.name}."
                        f"{self.attrs['_name_']}: {ctx.printer.repr(_value(self))}>", "self, /",
                        True),
    "__str__": _native("__str__", lambda self: f"{self.cls.name}.{self.attrs['_name_']}",
                       "self, /"),
    "__hash__": _native("__hash__", lambda self: hash(self.attrs["_name_"]), "self, /"),
}, None, module="enum")
INT_ENUM = UserClass("IntEnum", "IntEnum", (ENUM,), {
    "__module__": "enum", "__doc__": None,
    "__str__": _native("__str__", lambda ctx, self: ctx.printer.repr(_value(self)), "self, /",
                       True),
    "__format__": _native("__format__", lambda ctx, self, spec: ctx.printer.format(
        _value(self), spec), "self, spec, /", True),
    "__hash__": _native("__hash__", lambda self: hash(_value(self)), "self, /"),
    "__index__": _native("__index__", _value, "self, /"),
    "__int__": _native("__int__", _value, "self, /"),
    "__float__": _native("__float__", lambda self: float(_value(self)), "self, /"),
    "__bool__": _native("__bool__", lambda self: _value(self) != 0, "self, /"),
    **{f"__{name}__": _int_operator(f"__{name}__", op, compare=True) for name, op in (
        ("eq", "=="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="))},
    **{f"__{name}__": _int_operator(f"__{name}__", op) for name, op in (
        ("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"),
        ("mod", "%"), ("pow", "**"))},
    **{f"__r{name}__": _int_operator(f"__r{name}__", op, reflected=True) for name, op in (
        ("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"),
        ("mod", "%"), ("pow", "**"))},
}, None, module="enum")
classes.METACLASSES[ENUM] = table(
    entry("__call__", _call, "cls, *args, **kwargs", context=True),
    entry("__getitem__", _get_item, "cls, name, /"),
    entry("__contains__", _contains, "cls, member, /"),
    entry("__iter__", _iterate, "cls, /"),
    entry("__len__", lambda cls: len(cls.find("_member_names_") or ()), "cls, /"),
) | {"made": _made, "repr": lambda cls: f"<enum '{cls.name}'>", "functional": _FUNCTIONAL,
   "setattr": _set_attribute}

def _unique(cls):
    """@enum.unique: an enum whose members are all distinct values (no aliases)."""
    aliases = [f"{name} -> {member.attrs['_name_']}" for name, member in
               (_members(cls) or {}).items() if member.attrs["_name_"] != name]
    if aliases:
        raise errors.value_error(f"duplicate values found in <enum '{cls.name}'>: "
                                 f"{', '.join(aliases)}")
    return cls


ENUM_MODULE = Namespace("enum", table(entry("unique", _unique, "enumeration", frames=0)) | {"Enum": ENUM, "IntEnum": INT_ENUM, "auto": AUTO_TYPE})
