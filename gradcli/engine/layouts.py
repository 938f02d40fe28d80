"""torch.layout: the layouts a tensor may have (gradcli's tensors are all strided)."""

from __future__ import annotations


class Layout:
    """torch.layout: a named constant."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


STRIDED = Layout("strided")
BY_NAME = {"strided": STRIDED}
