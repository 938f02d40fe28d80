"""torch.testing: assert_close, the deprecated assert_allclose, and make_tensor, whose draws are
torch's under the same seed."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import creation, dtypes, errors
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.testing_pairs import Meta, is_sequence, originate
from gradcli.language.runtime import attributes, operators, protocols
from gradcli.language.runtime.coercions import truth
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_ALLCLOSE_PRECISIONS = {"float16": (1e-3, 1e-3), "float32": (1e-4, 1e-5),
                        "float64": (1e-5, 1e-8)}
_DEPRECATED = ("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in "
               "a future release. Please use `torch.testing.assert_close()` instead. You can find "
               "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.")


def assert_close(ctx, actual, expected, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None) -> None:
    """torch.testing.assert_close: the first failing pair's error, `msg` replacing its text (a
    string) or rewriting it (a callable). Inputs that cannot be paired fail without `msg`."""
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol,
               "equal_nan": equal_nan, "check_device": check_device, "check_dtype": check_dtype,
               "check_layout": check_layout, "check_stride": check_stride}
    try:
        pairs = originate(ctx, actual, expected, (), options)
    except Meta as meta:
        raise meta.to_error(ctx) from None
    for pair in pairs:
        try:
            pair.compare()
        except Meta as meta:
            raise meta.to_error(ctx, msg) from None


def assert_allclose(ctx, actual, expected, rtol=None, atol=None, equal_nan=True, msg="") -> None:
    """torch.testing.assert_allclose (deprecated): tensors made of both, compared without the
    dtype check, with its own default tolerances."""
    STATE.warn("FutureWarning", _DEPRECATED)
    if not isinstance(actual, Tensor):
        actual = ctx.call(_torch("tensor"), [actual], {})
    if not isinstance(expected, Tensor):
        expected = ctx.call(_torch("tensor"), [expected], {"dtype": actual.dtype})
    if rtol is None and atol is None:
        rtol, atol = (max(values) for values in zip(*(
            _ALLCLOSE_PRECISIONS.get(t.dtype.name, (0.0, 0.0)) for t in (actual, expected))))
    assert_close(ctx, actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg if truth(msg) else None)


def _torch(name: str):
    """torch.<name> as programs call it, with its argument errors."""
    return attributes.get(protocols.MODULES["torch"], name)


def _bounds(ctx, dtype, low, high, lowest, highest, default_low, default_high) -> tuple:
    """make_tensor's modify_low_high: the defaults, torch's checks, clamped to the dtype."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    text = ctx.printer.format_field

    def holds(op: str, a, b) -> bool:
        return truth(operators.compare(op, a, b))

    if any(isinstance(value, float) and math.isnan(value) for value in (low, high)):
        raise errors.value_error(f"`low` and `high` cannot be NaN, but got low={low!r} and "
                                 f"high={high!r}")
    if holds("==", low, high) and dtype.is_floating_point:
        STATE.warn("FutureWarning", "Passing `low==high` to `torch.testing.make_tensor` for "
                   "floating or complex types is deprecated since 2.1 and will be removed in "
                   "2.3. Use `torch.full(...)` instead.")
    elif holds(">=", low, high):
        raise errors.value_error(f"`low` must be less than `high`, but got {text(low, None, '')} "
                                 f">= {text(high, None, '')}")
    elif holds("<", high, lowest) or holds(">=", low, highest):
        raise errors.value_error(f"The value interval specified by `low` and `high` is "
                                 f"[{text(low, None, '')}, {text(high, None, '')}), but {dtype} "
                                 f"only supports [{lowest}, {highest})")
    if not all(isinstance(value, (int, float)) for value in (low, high)):
        raise errors.TorchError("NotImplementedError", "gradcli does not support "
                                "torch.testing.make_tensor with non-number low or high yet")
    low, high = (min(max(value, lowest), highest) for value in (low, high))
    if not dtype.is_floating_point:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(ctx, *shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None) -> Tensor:
    """torch.testing.make_tensor: values drawn uniformly from [low, high) as torch draws them."""
    if len(shape) == 1 and (is_sequence(shape[0]) or isinstance(shape[0], str)):
        shape = shape[0]
    shape = tuple(shape)
    if truth(noncontiguous) and memory_format is not None:
        raise errors.value_error("The parameters `noncontiguous` and `memory_format` are mutually "
                                 f"exclusive, but got noncontiguous={ctx.printer.repr(noncontiguous)}"
                                 f" and memory_format={ctx.printer.repr(memory_format)}")
    known = isinstance(dtype, dtypes.DType)
    if truth(requires_grad) and known and not dtype.is_floating_point:
        raise errors.value_error("`requires_grad=True` is not supported for boolean and integral "
                                 f"dtypes, but got dtype={dtype}")
    if truth(noncontiguous):
        count = 1
        for size in shape:
            count = operators.binary("*", count, size)
        noncontiguous = truth(operators.compare(">", count, 1))
        if noncontiguous:
            shape = (*shape[:-1], operators.binary("*", 2, shape[-1]))
    if not known:
        raise errors.type_error(f"The requested dtype '{ctx.printer.format_field(dtype, None, '')}'"
                                " is not supported by "
                                "torch.testing.make_tensor(). To request support, file an issue "
                                "at: https://github.com/pytorch/pytorch/issues")
    placed = {"device": device, "dtype": dtype}
    if not dtype.is_floating_point:
        info = np.iinfo(dtype.np) if dtype is not dtypes.bool_ else None
        low, high = _bounds(ctx, dtype, low, high, *((0, 2, 0, 2) if info is None else (
            int(info.min), int(info.max) + (dtype is not dtypes.int64), -9, 10)))
        result = ctx.call(_torch("randint"), [low, high, shape], placed)
    else:
        biggest = float(np.finfo(dtype.np).max)
        low, high = _bounds(ctx, dtype, low, high, -biggest, biggest, -9, 9)
        result = ctx.call(_torch("empty"), [shape], placed)
        if high - low >= biggest:
            creation.fill_random(result, "uniform", low / 2, high / 2)
            result.data *= 2
        else:
            creation.fill_random(result, "uniform", low, high)
    if noncontiguous:
        result = F.slice_dim(result, result.ndim - 1, 1, None, 2)
    if truth(exclude_zero):
        result.data[result.data == 0] = (float(np.finfo(dtype.np).tiny)
                                         if dtype.is_floating_point else 1)
    if dtype.is_floating_point:
        result.requires_grad = truth(requires_grad)
    return result


TESTING = Namespace("torch.testing", table(
    entry("assert_close", assert_close, "actual, expected, *, allow_subclasses=True, rtol=None, "
          "atol=None, equal_nan=False, check_device=True, check_dtype=True, check_layout=True, "
          "check_stride=False, msg=None", context=True),
    entry("assert_allclose", assert_allclose, "actual, expected, rtol=None, atol=None, "
          "equal_nan=True, msg=''", context=True),
    entry("make_tensor", make_tensor, "*shape, dtype, device, low=None, high=None, "
          "requires_grad=False, noncontiguous=False, exclude_zero=False, memory_format=None",
          context=True),
))
