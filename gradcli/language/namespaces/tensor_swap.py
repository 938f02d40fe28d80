"""torch.utils.swap_tensors: two tensors exchange everything they are (data, autograd metadata,
class), so that every reference to one now sees the other."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor, swap_contents
from gradcli.language.runtime.signatures import entry


def swap_tensors(t1, t2) -> None:
    for value in (t1, t2):
        if not isinstance(value, Tensor):  # torch asks each for its use count first
            raise errors.TorchError("AttributeError", f"'{errors.type_name(value)}' object has "
                                    "no attribute '_use_count'")
    swap_contents(t1, t2)


SWAP_TENSORS = entry("swap_tensors", swap_tensors, "t1, t2")
