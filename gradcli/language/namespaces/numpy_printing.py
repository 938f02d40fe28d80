"""np.set_printoptions and np.get_printoptions: NumPy's print options for this session's
printer (the host's NumPy keeps its own; arrays print under the session's)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.language.runtime.signatures import entry, table

_OPTIONS = ("precision", "threshold", "edgeitems", "linewidth", "suppress", "nanstr", "infstr",
            "sign", "floatmode", "legacy")


def _set_printoptions(ctx, precision, threshold, edgeitems, linewidth, suppress, nanstr,
                      infstr, formatter, sign, floatmode, legacy, override_repr):
    if formatter is not None or override_repr is not None:
        raise errors.TorchError("NotImplementedError", "gradcli's np.set_printoptions takes no "
                                "formatter or override_repr")
    given = dict(zip(_OPTIONS, (precision, threshold, edgeitems, linewidth, suppress, nanstr,
                                infstr, sign, floatmode, legacy)))
    given = {k: v for k, v in given.items() if v is not None}
    merged = {**ctx.printer.numpy_options, **given}
    try:  # NumPy's own checks of the values, without touching the host's options
        with np.printoptions(**merged):
            pass
    except (TypeError, ValueError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None
    ctx.printer.numpy_options = merged


def _get_printoptions(ctx) -> dict:
    with np.printoptions(**ctx.printer.numpy_options):
        options = np.get_printoptions()
    return {k: v for k, v in options.items() if k != "formatter" or v is not None}


PRINT_OPTIONS = table(
    entry("set_printoptions", _set_printoptions, "precision=None, threshold=None, edgeitems=None, "
          "linewidth=None, suppress=None, nanstr=None, infstr=None, formatter=None, sign=None, "
          "floatmode=None, *, legacy=None, override_repr=None", context=True),
    entry("get_printoptions", _get_printoptions, "", context=True),
)
