"""functools.total_ordering and functools.cmp_to_key, as Python defines them, over the
language's own comparisons (a user class's dunders, tensors, ...)."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry

# Python's order of preference for the root operation, and what each missing one is made of:
# (the root's result, whether the operands are equal) -> the derived result.
_ROOTS = ("__lt__", "__le__", "__gt__", "__ge__")
_DERIVED = {
    "__lt__": {"__gt__": lambda r, eq: not r and not eq(), "__le__": lambda r, eq: r or eq(),
               "__ge__": lambda r, eq: not r},
    "__le__": {"__ge__": lambda r, eq: not r or eq(), "__lt__": lambda r, eq: r and not eq(),
               "__gt__": lambda r, eq: not r},
    "__gt__": {"__lt__": lambda r, eq: not r and not eq(), "__ge__": lambda r, eq: r or eq(),
               "__le__": lambda r, eq: not r},
    "__ge__": {"__le__": lambda r, eq: not r or eq(), "__gt__": lambda r, eq: r and not eq(),
               "__lt__": lambda r, eq: not r},
}


def _derived(cls, root: str, name: str, rule):
    def method(self, other):
        result = classes.call_bound(classes.special_method(self, root), [other])
        if result is NotImplemented:
            return result
        return rule(protocols.truth(result),
                    lambda: protocols.truth(protocols.compare("==", self, other)))
    return classes.NativeMethod(entry(name, method, "self, other",
                                      qualname=f"{cls.qualname}.{name}"))


def total_ordering(cls):
    """Class decorator filling in the comparisons a class lacks from the one it defines."""
    if not isinstance(cls, classes.UserClass):
        raise errors.type_error("total_ordering needs a class")
    roots = [name for name in _ROOTS if cls.find(name) is not classes.MISSING]
    if not roots:
        raise errors.value_error("must define at least one ordering operation: < > <= >=")
    root = roots[0]
    for name, rule in _DERIVED[root].items():
        if name not in roots:
            cls.namespace[name] = _derived(cls, root, name, rule)
    return cls


class KeyWrapper(TableObject):
    """What a cmp_to_key key makes of a value: compared through the program's cmp function."""

    __slots__ = ("ctx", "cmp", "obj")

    def __init__(self, ctx, cmp, obj):
        self.ctx, self.cmp, self.obj = ctx, cmp, obj

    @property
    def language_type(self):
        return PyType("functools.KeyWrapper", ())

    def _sign(self, other) -> int:
        if not isinstance(other, KeyWrapper):
            raise errors.type_error("other argument must be K instance")
        result = self.ctx.call(self.cmp, [self.obj, other.obj], {})
        if protocols.truth(protocols.compare("<", result, 0)):
            return -1
        return 1 if protocols.truth(protocols.compare(">", result, 0)) else 0

    def __lt__(self, other):
        return self._sign(other) < 0

    def __gt__(self, other):
        return self._sign(other) > 0

    def __eq__(self, other):
        return self._sign(other) == 0

    def __le__(self, other):
        return self._sign(other) <= 0

    def __ge__(self, other):
        return self._sign(other) >= 0

    __hash__ = None

    def attribute(self, name: str):
        if name == "obj":
            return self.obj
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        if name != "obj":
            raise self.missing(name)
        self.obj = value

    def repr(self, printer) -> str:
        return f"<functools.KeyWrapper object at 0x{id(self):x}>"


def cmp_to_key(ctx, mycmp):
    """functools.cmp_to_key: a key function for sorted() from an old-style cmp function."""
    return entry("K", lambda obj: KeyWrapper(ctx, mycmp, obj), "obj",
                 qualname="functools.KeyWrapper")


ORDERING = (
    entry("total_ordering", total_ordering, "cls", frames=0),
    entry("cmp_to_key", cmp_to_key, "mycmp", context=True, frames=0),
)
