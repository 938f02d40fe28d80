"""Tensor.resize and Tensor.resize_as, the deprecated out-of-place resizes torch._tensor still
defines: torch.autograd._functions.Resize, which keeps the number of elements and reshapes (its
node ResizeBackward views the gradient back to the input's shape)."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.custom import FunctionNode
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def resize(t: Tensor, *sizes):
    STATE.warn("UserWarning", "non-inplace resize is deprecated")
    return _resize(t, sizes)


def resize_as(t: Tensor, tensor: Tensor):
    STATE.warn("UserWarning", "non-inplace resize_as is deprecated")
    if not isinstance(tensor, Tensor):  # torch asks it for tensor.size()
        raise errors.no_attribute(tensor, "size")
    return _resize(t, tuple(tensor.shape))


def _text(value) -> str:
    """str() of a size as Python prints it (a sequence given whole, as `resize((2, 3))`)."""
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_text(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else (
            f"({inner},)" if len(value) == 1 else f"({inner})")
    return str(value)


def _resize(t: Tensor, sizes: tuple) -> Tensor:
    """Resize.forward: the element counts compared (a whole sequence given as the one size
    never equals one), then a view of the same memory, or of a contiguous copy; the node's
    backward views the gradient back."""
    count = 1
    for size in sizes:
        count = count * size if isinstance(size, int) else size
    if not isinstance(count, int) or t.numel() != count:
        raise errors.runtime(
            f"requested resize to {'x'.join(_text(s) for s in sizes)} ({_text(count)} elements "
            f"in total), but the given tensor has a size of "
            f"{'x'.join(str(n) for n in t.shape)} ({t.numel()} elements). autograd's resize can "
            "only change the shape of a given tensor, while preserving the number of elements. ")
    shape = t.shape
    out = F.view(F.contiguous(F.detach(t)), tuple(sizes))
    if not (STATE.grad_enabled and t.requires_grad):
        return out

    def backward(grads):
        return F.view(F.contiguous(grads[0]), shape)

    node = FunctionNode("ResizeBackward", (t,), (out,), backward)
    out._grad_fn, out.output_nr, out._requires_grad = node, 0, True
    return out
