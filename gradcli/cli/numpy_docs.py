"""NumPy without the docstrings of its C functions, which the console script never shows.

`import numpy` spends about an eighth of its time in two modules that only attach docstrings
(`numpy._core._add_newdocs` and `_add_newdocs_scalars`; NumPy's own documentation build mocks
the second). gradcli's programs see NumPy only through gradcli's tables, so the console script
stands empty modules in for those two before NumPy is first imported.
"""

from __future__ import annotations

import sys
import types

DOCSTRING_MODULES = ("numpy._core._add_newdocs", "numpy._core._add_newdocs_scalars")


def leave_out_docstrings() -> None:
    """Stand in empty docstring modules, unless NumPy is already imported (then nothing)."""
    if "numpy" in sys.modules:
        return
    for name in DOCSTRING_MODULES:
        sys.modules.setdefault(name, types.ModuleType(name))
