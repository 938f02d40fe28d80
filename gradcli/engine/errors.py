"""Errors raised by the engine, in PyTorch's wording; they carry no source positions."""

from __future__ import annotations


class TorchError(Exception):
    """A user-facing error: `kind` is the Python exception class torch raises, `message` its text."""

    def __init__(self, kind: str, message: str, value_args: tuple | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.value_args = value_args  # the exception's args when not just the message
        self.notes: tuple = ()  # (text, origin) pairs: where the lines involved are
        # an AttributeError's ("attribute", object, name), as Python's records what it missed
        self.looked_up: tuple | None = None

    def noted(self, *notes: tuple) -> "TorchError":
        """This error with `notes` ((text, origin) pairs) added; ones without an origin are
        dropped, since a note names a line or says nothing."""
        self.notes += tuple(note for note in notes if note[1] is not None)
        return self

    def __str__(self) -> str:
        return self.message


def runtime(message: str) -> TorchError:
    return TorchError("RuntimeError", message)


def type_error(message: str) -> TorchError:
    return TorchError("TypeError", message)


def unsupported_operands(op: str, left: str, right: str) -> TorchError:
    """Python's TypeError for `left op right`, operands of the types named, where neither
    operand takes the other."""
    return type_error(f"unsupported operand type(s) for {op}: '{left}' and '{right}'")


def index_error(message: str) -> TorchError:
    return TorchError("IndexError", message)


def value_error(message: str) -> TorchError:
    return TorchError("ValueError", message)


def no_attribute(value, name: str) -> TorchError:
    """Python's AttributeError for torch's Python code reading `value.name`."""
    return TorchError("AttributeError",
                      f"'{type_name(value)}' object has no attribute '{name}'")


def scalar_type_mismatch(expected, found) -> TorchError:
    """torch's kernels' error for an operand of another dtype than the one they run in."""
    return runtime(f"expected scalar type {expected.scalar_name} but found {found.scalar_name}")


def check_norm_dtypes(kernel: str, input, params, dispatch_first: bool = False) -> None:
    """The dtype checks of torch's CPU normalization kernels (ATen's mixed_type.h): parameters
    whose first one is of another dtype than `input` pass only as Float parameters of a Half or
    BFloat16 input; `kernel` has code for floating inputs only; unmixed parameters are read as
    the input's dtype. BatchNorm dispatches on the input's dtype before its mixed check."""
    def dispatch() -> None:
        if not input.dtype.is_floating_point:
            raise not_implemented_for(kernel, input.dtype)

    if dispatch_first:
        dispatch()
    given = [p for p in params if p is not None]
    mixed = bool(given) and given[0].dtype is not input.dtype
    if mixed:
        if any(p.dtype.scalar_name != "Float" for p in given):
            raise runtime("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input.dtype.scalar_name not in ("Half", "BFloat16"):
            raise runtime("mixed dtype (CPU): all inputs must share same datatype.")
    dispatch()
    for p in given if not mixed else ():
        if p.dtype is not input.dtype:
            raise scalar_type_mismatch(input.dtype, p.dtype)


def check_cast(result, output) -> None:
    """torch's refusal to write a `result` dtype into an `output` dtype of a lower category
    (floating into integer, integer into bool)."""
    if result.category > output.category:
        raise runtime(f"result type {result.scalar_name} can't be cast to the desired output "
                      f"type {output.scalar_name}")


def not_implemented_for(kernel: str, dtype) -> TorchError:
    """torch's error for a CPU kernel that has no code for `dtype`."""
    return TorchError("NotImplementedError", f'"{kernel}" not implemented for '
                                             f"'{dtype.scalar_name}'")


BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


def check_out_dtype(op: str, out_dtype) -> None:
    """torch's `out_dtype=` overloads (mm, bmm, addmm, baddbmm) have no CPU kernel: the first
    sentence of the dispatcher's refusal (the rest lists backends and build paths)."""
    if out_dtype is not None:
        raise TorchError("NotImplementedError", (
            f"Could not run 'aten::{op}.dtype' with arguments from the 'CPU' backend. This could "
            "be because the operator doesn't exist for this backend, or was omitted during the "
            "selective/custom build process (if using custom build)."))


def _python_type_name(value) -> str:
    return type(value).__name__


_type_namer = _python_type_name


def type_name(value) -> str:
    """The class name Python's messages give `value` (a program's own class by its name, once
    the language layer has installed its namer with `name_types_with`)."""
    return _type_namer(value)


def name_types_with(namer) -> None:
    global _type_namer
    _type_namer = namer
