"""np.set_printoptions, np.get_printoptions and np.array2string: NumPy's print options as
options of the session's printer for its arrays (the host's NumPy keeps its own)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import conversions, errors
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.signatures import entry, table


def _set_printoptions(ctx, precision=None, threshold=None, edgeitems=None, linewidth=None,
                      suppress=None, nanstr=None, infstr=None, formatter=None, sign=None,
                      floatmode=None, *, legacy=None, override_repr=None):
    """np.set_printoptions: options of the session's printer for its arrays (NumPy checks
    them), not of the process."""
    if formatter is not None or override_repr is not None:
        raise errors.TorchError("NotImplementedError", "gradcli's np.set_printoptions takes no "
                                "formatter or override_repr")
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                 linewidth=linewidth, suppress=suppress, nanstr=nanstr, infstr=infstr,
                 sign=sign, floatmode=floatmode, legacy=legacy)
    options = {**ctx.printer.numpy_options,
               **{name: value for name, value in given.items() if value is not None}}
    try:
        with np.printoptions(**options):
            pass
    except (TypeError, ValueError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None
    ctx.printer.numpy_options = options


def _array2string(ctx, a, max_line_width=None, precision=None, suppress_small=None,
                  separator=" ", prefix="", *, threshold=None, edgeitems=None, sign=None,
                  floatmode=None, suffix="", legacy=None):
    """np.array2string of an array, under the session's NumPy print options."""
    if isinstance(a, Tensor):
        a = conversions.to_numpy(a)
    if not isinstance(a, np.ndarray):
        raise errors.no_attribute(a, "shape")
    try:
        with np.printoptions(**ctx.printer.numpy_options):
            return np.array2string(a, max_line_width, precision, suppress_small, separator,
                                   prefix, threshold=threshold, edgeitems=edgeitems, sign=sign,
                                   floatmode=floatmode, suffix=suffix, legacy=legacy)
    except (TypeError, ValueError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


def _get_printoptions(ctx) -> dict:
    with np.printoptions(**ctx.printer.numpy_options):
        return np.get_printoptions()


PRINT_OPTIONS = table(
    entry("set_printoptions", _set_printoptions, "precision=None, threshold=None, "
          "edgeitems=None, linewidth=None, suppress=None, nanstr=None, infstr=None, "
          "formatter=None, sign=None, floatmode=None, *, legacy=None, override_repr=None",
          context=True),
    entry("get_printoptions", _get_printoptions, "", context=True),
    entry("array2string", _array2string, "a, max_line_width=None, precision=None, "
          "suppress_small=None, separator=' ', prefix='', *, threshold=None, edgeitems=None, "
          "sign=None, floatmode=None, suffix='', legacy=None", context=True))
