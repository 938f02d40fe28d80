"""The rest of Python's `operator` module: in-place operators, item setting and deletion,
index, length_hint and methodcaller, over the language's own protocols."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import type_name

_INPLACE = (("iadd", "+"), ("isub", "-"), ("imul", "*"), ("itruediv", "/"),
            ("ifloordiv", "//"), ("imod", "%"), ("ipow", "**"), ("imatmul", "@"), ("iand", "&"),
            ("ior", "|"), ("ixor", "^"), ("ilshift", "<<"), ("irshift", ">>"), ("iconcat", "+"))


def _index(a):
    if isinstance(a, int):
        return int(a)
    method = classes.special_method(a, "__index__")
    if method is None:
        raise errors.type_error(f"'{type_name(a)}' object cannot be interpreted as an integer")
    return classes.call_bound(method, [])


def _length_hint(obj, default=0):
    method = classes.special_method(obj, "__len__")
    if method is not None:
        return classes.call_bound(method, [])
    try:
        return len(obj)
    except TypeError:
        return default


def _methodcaller(name, *args, **kwargs):
    if not isinstance(name, str):
        raise errors.type_error("method name must be a string")
    return entry("methodcaller", lambda ctx, obj: ctx.call(
        protocols.get_attribute(obj, name), list(args), dict(kwargs)), "obj, /", context=True,
        qualname="operator.methodcaller", frames=0)


OPERATOR_EXTRAS = (
    *(entry(name, lambda a, b, op=op: protocols.augmented(op, a, b), "a, b, /", style="expected",
            frames=0) for name, op in _INPLACE),
    entry("setitem", lambda a, b, c: protocols.set_item(a, b, c), "a, b, c, /", style="expected", frames=0),
    entry("delitem", lambda a, b: protocols.delete_item(a, b), "a, b, /", style="expected",
          frames=0),
    entry("index", _index, "a, /", style="expected", frames=0),
    entry("length_hint", _length_hint, "obj, default=0, /", style="at_most", frames=0),
    entry("methodcaller", _methodcaller, "name, /, *args, **kwargs", frames=0),
)
