"""Python-level values of the language and how print/repr/format show them, as Python with torch does."""

from __future__ import annotations

from dataclasses import dataclass

from gradcli.engine import dtypes, errors, printing
from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


class Size(tuple):
    """torch.Size: a tuple of ints that prints as `torch.Size([2, 3])`."""


@dataclass(frozen=True)
class Namespace:
    """A module-like table (torch, torch.nn.functional, ...): attribute names resolve only here."""

    name: str
    table: dict

    def lookup(self, attr: str):
        if attr in self.table:
            return self.table[attr]
        raise errors.TorchError("AttributeError", f"module '{self.name}' has no attribute '{attr}'")


class Printer:
    """Renders values as Python's repr/str would, with the session's tensor print options."""

    def __init__(self) -> None:
        self.options = printing.PrintOptions()

    def tensor(self, t: Tensor) -> str:
        label = t.grad_fn.name() if t.grad_fn is not None else None
        return printing.tensor_repr(t.data, t.dtype, self.options, default_dtype=STATE.default_dtype,
                                    requires_grad=t.requires_grad and t.grad_fn is None,
                                    grad_fn_label=label)

    def repr(self, value) -> str:
        if isinstance(value, Tensor):
            return self.tensor(value)
        if isinstance(value, bool) or value is None:
            return str(value)
        if isinstance(value, float):
            return repr(value)
        if isinstance(value, Size):
            return f"torch.Size([{', '.join(str(v) for v in value)}])"
        if isinstance(value, tuple):
            inner = ", ".join(self.repr(v) for v in value)
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        if isinstance(value, list):
            return "[" + ", ".join(self.repr(v) for v in value) + "]"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self.repr(k)}: {self.repr(v)}" for k, v in value.items()) + "}"
        if isinstance(value, (Node, AccumulateGrad)):
            return f"<{_node_class(value)} object at {_address(value)}>"
        if isinstance(value, dtypes.DType):
            return repr(value)
        if isinstance(value, (int, str, range)):
            return repr(value)
        return f"<{type_name(value)} object at {_address(value)}>"

    def str(self, value) -> str:
        if isinstance(value, str):
            return value
        return self.repr(value)

    def format(self, value, spec: str) -> str:
        """format(value, spec), with torch's rule: a 0-d tensor formats as its item."""
        if isinstance(value, Tensor):
            if value.ndim == 0:
                return format(value.data.item(), spec)
            if spec:
                raise errors.type_error("unsupported format string passed to Tensor.__format__")
            return self.str(value)
        if isinstance(value, (int, float, str)) and not isinstance(value, bool):
            try:
                return format(value, spec)
            except ValueError as error:
                raise errors.value_error(str(error)) from None
        if spec:
            raise errors.type_error(
                f"unsupported format string passed to {type_name(value)}.__format__")
        return self.str(value)


def _node_class(node) -> str:
    return "AccumulateGrad" if isinstance(node, AccumulateGrad) else node.name()


def _address(value) -> str:
    return f"0x{id(value):x}"


def type_name(value) -> str:
    """The class name Python would report for `value` in error messages."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, Size):
        return "Size"
    if value is None:
        return "NoneType"
    return type(value).__name__
