"""torch.layout: the layouts a tensor may have (strided, and sparse_coo for engine.sparse)."""

from __future__ import annotations


class Layout:
    """torch.layout: a named constant."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


STRIDED = Layout("strided")
SPARSE_COO = Layout("sparse_coo")
BY_NAME = {"strided": STRIDED, "sparse_coo": SPARSE_COO}
