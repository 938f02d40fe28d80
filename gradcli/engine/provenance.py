"""Where a tensor came from, for the notes that name the lines an error involves."""

from __future__ import annotations


def made_at(tensor):
    """The origin of the operation that made `tensor` (its node's, when it has one); None when
    not known."""
    node = tensor._grad_fn
    if node is not None:
        return getattr(node, "origin", None)
    return getattr(tensor, "_made_at", None)
