"""Notes on a shape mismatch between two operands: each one's shape and the line where it got
it, when the two came from different lines."""

from __future__ import annotations

from gradcli.engine.errors import TorchError
from gradcli.engine.provenance import made_at
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.frames import BoundMethod

# How torch's message begins, and the names it gives the two operands.
_MISMATCHES = (("The size of tensor a ", ("tensor a", "tensor b")),
               ("mat1 and mat2 shapes cannot be multiplied", ("mat1", "mat2")),
               ("size mismatch, got input ", ("mat", "vec")),
               ("inconsistent tensor size, expected tensor ", ("tensor", "src")),
               ("Expected size for first two dimensions of batch2", ("batch1", "batch2")))


def shape_noted(error, operands):
    """`error` with its two tensor operands' notes added, when it is a shape mismatch."""
    if type(error) is not TorchError or error.notes or not isinstance(error.message, str):
        return error
    names = next((names for start, names in _MISMATCHES if error.message.startswith(start)), None)
    tensors = [value for value in operands if isinstance(value, Tensor)]
    if names is None or len(tensors) != 2:  # which is which is clear only for two
        return error
    origins = [made_at(tensor) for tensor in tensors]
    if None in origins or len({(o.filename, o.line) for o in origins}) == 1:
        return error
    return error.noted(*((f"{name} got its shape {list(tensor.shape)} here", origin)
                         for name, tensor, origin in zip(names, tensors, origins)))


def call_operands(function, args: list) -> list:
    """A call's operands: the receiver of a bound method, then the arguments."""
    return [function.receiver, *args] if isinstance(function, BoundMethod) else args
