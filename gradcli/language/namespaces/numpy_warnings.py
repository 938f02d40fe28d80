"""NumPy's own warnings, raised in a NumPy call a program makes, as the program's (Python shows
them at the program's line): its floating-point ones as NumPy's defaults give them ('divide by
zero encountered in log'), though the engine turns them off for its own arithmetic."""

from __future__ import annotations

import warnings
from contextlib import contextmanager

import numpy as np

from gradcli.engine.state import STATE


@contextmanager
def numpy_warnings():
    """Run the block with NumPy's default floating-point error handling, then report each
    warning it raised through STATE.warn."""
    with warnings.catch_warnings(record=True) as caught, \
            np.errstate(divide="warn", over="warn", invalid="warn", under="ignore"):
        warnings.simplefilter("always")
        try:
            yield
        finally:
            for warning in caught:
                STATE.warn(warning.category.__name__, str(warning.message))
