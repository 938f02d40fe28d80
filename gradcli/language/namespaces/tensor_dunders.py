"""A tensor's special methods called by name (`x.__add__(1)`, `x.__repr__()`): each does what
its operator or builtin does, through the language's protocols."""

from __future__ import annotations

from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import coercions, protocols, subclass_protocol
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry

_BINARY = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
           "pow": "**", "matmul": "@", "and": "&", "or": "|", "xor": "^", "lshift": "<<",
           "rshift": ">>"}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_UNARY = {"neg": "-", "pos": "+", "invert": "~"}
_BUILTIN = ("int", "complex", "str", "format")  # __x__ is x(self)


def _binary(op: str, dunder: str, reflected: bool):
    """torch.Tensor's `dunder` itself (called by name, or through super() in a subclass)."""
    def call(t, other):
        a, b = (other, t) if reflected else (t, other)
        return subclass_protocol.special(dunder, [t, other], lambda: protocols.binary(
            op, a, b, False), own=False)
    return call


def _builtin(name: str):
    return lambda ctx, t, *args: ctx.call(protocols.BUILTINS[name], [t, *args], {})


def _reversed(ctx, t: Tensor):
    """Tensor.__reversed__: the tensor flipped along its first dim (a 0-d tensor itself)."""
    if t.ndim == 0:
        return t
    return ctx.call(BoundMethod(t, protocols.TENSOR_METHODS["flip"]), [0], {})


TENSOR_DUNDERS = {
    **{f"__{name}__": entry(f"__{name}__", _binary(op, f"__{name}__", False), "self, other")
       for name, op in _BINARY.items()},
    **{f"__r{name}__": entry(f"__r{name}__", _binary(op, f"__r{name}__", True), "self, other")
       for name, op in _BINARY.items()},
    **{f"__i{name}__": entry(f"__i{name}__", lambda t, other, op=op: protocols.augmented(
        op, t, other, False), "self, other") for name, op in _BINARY.items() if name != "matmul"},
    **{f"__{name}__": entry(f"__{name}__", lambda t, other, op=op, name=name: (
        subclass_protocol.special(f"__{name}__", [t, other], lambda: protocols.compare(
            op, t, other, subclassing=False), own=False)), "self, other")
       for name, op in _COMPARE.items()},
    **{f"__{name}__": entry(f"__{name}__", lambda t, op=op, name=name: subclass_protocol.special(
        f"__{name}__", [t], lambda: protocols.unary(op, t, False), own=False), "self")
       for name, op in _UNARY.items()},
    **{f"__{name}__": entry(f"__{name}__", _builtin(name), "self, *args", context=True)
       for name in _BUILTIN},
    **{name: entry(name, _binary("/", name, name == "__rdiv__"), "self, other")
       for name in ("__div__", "__rdiv__")},
    "__idiv__": entry("__idiv__", lambda t, other: protocols.augmented("/", t, other, False),
                      "self, other"),
    "__iter__": entry("__iter__", lambda ctx, t: ctx.call(protocols.BUILTINS["iter"], [t], {}),
                      "self", context=True, qualname="Tensor.__iter__"),
    # torch.Tensor's own conversions (past a subclass's, which super() reaches them from)
    "__len__": entry("__len__", lambda t: coercions.length(t, False), "self",
                     qualname="Tensor.__len__"),
    "__bool__": entry("__bool__", lambda t: coercions.truth(t, False), "self", style="noargs",
                      qualname="TensorBase.__bool__"),
    "__float__": entry("__float__", lambda t: coercions.tensor_float(t, False), "self",
                       style="noargs", qualname="TensorBase.__float__"),
    "__index__": entry("__index__", lambda t: coercions.index(t, False), "self", style="noargs",
                       qualname="TensorBase.__index__"),
    "__repr__": entry("__repr__", lambda ctx, t, tensor_contents=None: subclass_protocol.repr_of(
        ctx.printer, t, own=False), "self, *, tensor_contents=None", context=True,
        qualname="Tensor.__repr__"),
    "__getitem__": entry("__getitem__", lambda t, key: protocols.get_item(t, key, False),
                         "self, key, /", style="wrapper"),
    "__setitem__": entry("__setitem__", lambda t, key, value: protocols.set_item(
        t, key, value, False), "self, key, value, /", style="wrapper"),
    "__contains__": entry("__contains__", lambda t, item: protocols.compare("in", item, t),
                          "self, element", qualname="Tensor.__contains__"),
    "__abs__": entry("__abs__", lambda t: protocols.absolute(t, False), "self"),
    "__hash__": entry("__hash__", id, "self"),  # torch hashes a tensor by identity
    "__reversed__": entry("__reversed__", _reversed, "self", context=True),
    "__array__": entry("__array__", lambda ctx, t: ctx.call(BoundMethod(
        t, protocols.TENSOR_METHODS["numpy"]), [], {}), "self", context=True),
}
protocols.TENSOR_DUNDERS = TENSOR_DUNDERS
