"""torch.return_types: the named tuples some torch functions return."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gradcli.engine.tensor import Tensor


class ReturnTypes(tuple):
    """A torch.return_types structseq, e.g. torch.return_types.max(values=..., indices=...)."""

    def __new__(cls, name: str, *items, fields: tuple = ("values", "indices")):
        result = super().__new__(cls, items)
        result.name, result.fields = name, fields
        return result

    def field(self, name: str):
        """The item called `name` (sign, Q, U...), or AttributeError as a structseq gives."""
        if name not in self.fields:
            raise AttributeError(f"'torch.return_types.{self.name}' object has no attribute "
                                 f"'{name}'")
        return self[self.fields.index(name)]

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]
