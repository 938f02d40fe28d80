"""torch.testing.assert_close's comparison (torch/testing/_comparison.py): inputs paired up
through sequences and mappings, each pair compared as torch's None, boolean, number or
tensor-like pair, with torch's messages."""

from __future__ import annotations

import cmath
from collections import deque

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.ops.arrange import strides
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import protocols
from gradcli.language.runtime.operators import sort_key
from gradcli.language.runtime.values import Size, qualified_type_name, type_name

# {dtype: (rtol, atol)}, torch's _DTYPE_PRECISIONS for the dtypes gradcli has
PRECISIONS = {"float16": (0.001, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
              "complex64": (1.3e-6, 1e-5)}
_NUMBER_DTYPES = {int: "int64", float: "float64", complex: "complex128"}
_NUMBERS = (int, float, complex, np.number)
_TOLERANCES = (int, float, np.integer, np.floating)
_SEQUENCES = (list, tuple, range, deque, bytes)
_ISSUE = ("If you are a user and see this message during normal operation please file an issue "
          "at https://github.com/pytorch/pytorch/issues. If you are a developer and working on "
          "the comparison functions, please except the previous error and raise an expressive "
          "`ErrorMeta` instead.")


class Meta(Exception):
    """torch's ErrorMeta: the error a failed comparison raises, with the item it failed for."""

    def __init__(self, kind: str, msg: str, id: tuple = ()) -> None:
        super().__init__(msg)
        self.kind, self.msg, self.id = kind, msg, id

    def to_error(self, ctx, msg=None) -> errors.TorchError:
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += "\n\nThe failure occurred for item " + item_path(ctx, self.id)
            msg = ctx.printer.str(ctx.call(msg, [generated], {})) \
                if protocols.is_callable(msg) else generated
        return errors.TorchError(self.kind, msg)


class Unsupported(Exception):
    """torch's UnsupportedInputs: this kind of pair does not take these inputs."""


def item_path(ctx, id: tuple) -> str:
    return "".join(ctx.printer.str([item]) for item in id)


def _class(value) -> str:
    return f"<class '{qualified_type_name(value)}'>"


def tolerances(dtype_names, rtol, atol, id: tuple) -> tuple:
    """torch's get_tolerances: both given, both omitted (the loosest of the dtypes' defaults),
    or a ValueError."""
    if (rtol is None) != (atol is None):
        raise Meta("ValueError", "Both 'rtol' and 'atol' must be either specified or omitted, "
                   f"but got no {'rtol' if rtol is None else 'atol'}.", id)
    if rtol is not None:
        for tolerance in (rtol, atol):
            if not isinstance(tolerance, _TOLERANCES):
                raise errors.TorchError("NotImplementedError", "gradcli does not support "
                                        "torch.testing with non-number rtol or atol yet")
        return rtol, atol
    rtols, atols = zip(*[PRECISIONS.get(name, (0.0, 0.0)) for name in dtype_names])
    return max(rtols), max(atols)


def mismatch_message(identifier: str, extra: str, abs_diff, abs_idx, atol, rel_diff, rel_idx,
                     rtol, ctx) -> str:
    """torch's _make_mismatch_msg."""
    equality = rtol == 0 and atol == 0

    def diff(kind: str, value, idx, tol) -> str:
        text = (f"{kind.title()} difference: {value}" if idx is None
                else f"Greatest {kind} difference: {value} at index {idx}")
        return text + ("" if equality else f" (up to {ctx.printer.str(tol)} allowed)") + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += diff("absolute", abs_diff, abs_idx, atol) + diff("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def scalar_message(actual, expected, rtol, atol, ctx) -> str:
    """torch's make_scalar_mismatch_msg, on Python numbers."""
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return mismatch_message("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None,
                            atol, rel_diff, None, rtol, ctx)


class NonePair:
    def __init__(self, ctx, actual, expected, id: tuple, **options) -> None:
        if not (actual is None or expected is None):
            raise Unsupported
        self.ctx, self.actual, self.expected, self.id = ctx, actual, expected, id

    def compare(self) -> None:
        if not (self.actual is None and self.expected is None):
            text = self.ctx.printer.format_field
            raise Meta("AssertionError", f"None mismatch: {text(self.actual, None, '')} is not "
                       f"{text(self.expected, None, '')}", self.id)


class BooleanPair:
    def __init__(self, ctx, actual, expected, id: tuple, **options) -> None:
        if not all(isinstance(v, (bool, np.bool_)) for v in (actual, expected)):
            raise Unsupported
        self.actual, self.expected, self.id = bool(actual), bool(expected), id

    def compare(self) -> None:
        if self.actual is not self.expected:
            raise Meta("AssertionError",
                       f"Booleans mismatch: {self.actual} is not {self.expected}", self.id)


class NumberPair:
    def __init__(self, ctx, actual, expected, id: tuple, rtol, atol, equal_nan, check_dtype,
                 **options) -> None:
        if not all(isinstance(v, _NUMBERS) for v in (actual, expected)):
            raise Unsupported
        self.ctx, self.id = ctx, id
        self.actual, self.expected = (v.item() if isinstance(v, np.number) else v
                                      for v in (actual, expected))
        names = [_NUMBER_DTYPES.get(type(v)) for v in (self.actual, self.expected)]
        if None in names:  # a bool among numbers: torch's lookup fails with a KeyError
            raise KeyError
        self.rtol, self.atol = tolerances(names, rtol, atol, id)
        self.equal_nan, self.check_dtype = equal_nan, check_dtype

    def compare(self) -> None:
        actual, expected = self.actual, self.expected
        if self.check_dtype and type(actual) is not type(expected):
            raise Meta("AssertionError", f"The (d)types do not match: {_class(actual)} != "
                       f"{_class(expected)}.", self.id)
        if actual == expected or (self.equal_nan and cmath.isnan(actual)
                                  and cmath.isnan(expected)):
            return
        abs_diff = abs(actual - expected)
        if cmath.isfinite(abs_diff) and abs_diff <= self.atol + self.rtol * abs(expected):
            return
        raise Meta("AssertionError", scalar_message(actual, expected, self.rtol, self.atol,
                                                    self.ctx), self.id)


def _as_tensor(value) -> Tensor:
    if isinstance(value, Tensor):
        return value
    try:
        dtype = dtypes.from_numpy(value.dtype)
    except KeyError:
        raise Unsupported from None
    return Tensor(np.array(value), dtype)


class TensorLikePair:
    def __init__(self, ctx, actual, expected, id: tuple, allow_subclasses, rtol, atol,
                 equal_nan, check_dtype, check_stride, **options) -> None:
        kinds = {isinstance(v, Tensor) or type(v) is np.ndarray for v in (actual, expected)}
        if kinds != {True} or type(actual) is not type(expected):
            raise Unsupported
        if not allow_subclasses and qualified_type_name(actual) != qualified_type_name(expected):
            raise Unsupported
        self.ctx, self.id = ctx, id
        self.actual, self.expected = _as_tensor(actual), _as_tensor(expected)
        self.rtol, self.atol = tolerances((self.actual.dtype.name, self.expected.dtype.name),
                                          rtol, atol, id)
        self.equal_nan, self.check_dtype, self.check_stride = equal_nan, check_dtype, check_stride
        self.options = options

    def unexpected(self) -> errors.TorchError:
        """torch's RuntimeError for an exception its comparison did not expect (torch.isclose
        refusing a negative tolerance), naming the pair."""
        text = self.ctx.printer.str
        fields = [("id", self.id), ("actual", self.actual), ("expected", self.expected),
                  ("rtol", self.rtol), ("atol", self.atol), ("equal_nan", self.equal_nan),
                  ("check_device", self.options["check_device"]),
                  ("check_dtype", self.check_dtype),
                  ("check_layout", self.options["check_layout"]),
                  ("check_stride", self.check_stride)]
        body = "".join(f"    {name}={text(value)},\n" for name, value in fields)
        return errors.runtime(f"Comparing\n\nTensorLikePair(\n{body})\n\nresulted in the "
                              f"unexpected exception above. {_ISSUE}")

    def _mismatch(self, attribute: str, actual, expected):
        text = self.ctx.printer.str
        raise Meta("AssertionError", f"The values for attribute '{attribute}' do not match: "
                   f"{text(actual)} != {text(expected)}.", self.id)

    def compare(self) -> None:
        actual, expected = self.actual, self.expected
        if actual.shape != expected.shape:
            self._mismatch("shape", Size(actual.shape), Size(expected.shape))
        if self.check_stride and strides(actual) != strides(expected):
            self._mismatch("stride()", strides(actual), strides(expected))
        if self.check_dtype and actual.dtype is not expected.dtype:
            self._mismatch("dtype", actual.dtype, expected.dtype)
        a, b = actual.data, expected.data
        if actual.dtype is not expected.dtype:
            common = dtypes.promote(actual.dtype, expected.dtype).np
            a, b = a.astype(common), b.astype(common)
        if self.rtol < 0 or self.atol < 0:
            raise self.unexpected()
        with np.errstate(all="ignore"):
            matches = isclose(a, b, self.rtol, self.atol, self.equal_nan)
            if matches.all():
                return
            if a.ndim == 0:
                msg = scalar_message(a.item(), b.item(), self.rtol, self.atol, self.ctx)
            else:
                msg = self._tensor_message(a, b, matches)
        raise Meta("AssertionError", msg, self.id)

    def _tensor_message(self, a, b, matches) -> str:
        """torch's make_tensor_mismatch_msg: the greatest differences among the mismatches."""
        count = matches.size
        wrong = count - int(matches.sum())
        extra = f"Mismatched elements: {wrong} / {count} ({wrong / count:.1%})"
        a, b, matches = a.ravel(), b.ravel(), matches.ravel()
        if a.dtype.kind not in "fc":
            a, b = a.astype(np.int64), b.astype(np.int64)
        abs_diff = np.abs(a - b)
        abs_diff[matches] = 0
        divisor = np.abs(b)
        if a.dtype.kind not in "fc":  # true division of integers: in the default dtype
            abs_float = abs_diff.astype(STATE.default_dtype.np)
            rel_diff = abs_float / divisor.astype(STATE.default_dtype.np)
        else:
            rel_diff = abs_diff / divisor
        rel_diff[matches] = 0
        abs_idx, rel_idx = (_argmax(d) for d in (abs_diff, rel_diff))
        shape = self.actual.shape
        return mismatch_message("Tensor-likes", extra, abs_diff[abs_idx].item(),
                                _index(abs_idx, shape), self.atol, rel_diff[rel_idx].item(),
                                _index(rel_idx, shape), self.rtol, self.ctx)


def _index(flat: int, shape: tuple) -> tuple:
    return tuple(int(i) for i in np.unravel_index(flat, shape))


def _argmax(values) -> int:
    """torch.max(values, 0)'s index: the first NaN if there is one, else the first greatest."""
    nans = np.flatnonzero(np.isnan(values)) if values.dtype.kind == "f" else ()
    return int(nans[0]) if len(nans) else int(np.argmax(values))


def isclose(a, b, rtol, atol, equal_nan: bool):
    """torch.isclose on arrays of one dtype, computed in torch's order and precision."""
    close = a == b
    floating = a.dtype.kind in "fc"
    if equal_nan and floating:
        close |= np.isnan(a) & np.isnan(b)
    if rtol == 0 and atol == 0:
        return close
    if a.dtype == np.bool_:
        a, b = (x.astype(STATE.default_dtype.np) for x in (a, b))
    work = a.dtype if a.dtype.kind in "fc" else STATE.default_dtype.np
    op = np.float32 if work == np.float16 else work.type
    allowed = np.abs((op(rtol) * b.astype(op)).astype(work))
    allowed = (op(atol) + allowed.astype(op)).astype(work)
    error = np.abs(a - b).astype(work)
    return close | (np.isfinite(error) & (error <= allowed))


def is_sequence(value) -> bool:
    return isinstance(value, _SEQUENCES)


def originate(ctx, actual, expected, id: tuple, options: dict) -> list:
    """torch's originate_pairs: sequences and mappings item by item, then the first pair kind
    that takes the inputs."""
    if is_sequence(actual) and is_sequence(expected):
        if len(actual) != len(expected):
            raise Meta("AssertionError", "The length of the sequences mismatch: "
                       f"{len(actual)} != {len(expected)}", id)
        return [pair for idx in range(len(actual))
                for pair in originate(ctx, actual[idx], expected[idx], (*id, idx), options)]
    if isinstance(actual, dict) and isinstance(expected, dict):
        actual_keys, expected_keys = set(actual), set(expected)
        if actual_keys != expected_keys:
            order = sort_key(ctx, None)
            missing = sorted(expected_keys - actual_keys, key=order)
            additional = sorted(actual_keys - expected_keys, key=order)
            raise Meta("AssertionError", "The keys of the mappings do not match:\nMissing keys "
                       f"in the actual mapping: {ctx.printer.str(missing)}\nAdditional keys in "
                       f"the actual mapping: {ctx.printer.str(additional)}", id)
        keys = list(actual_keys)
        try:
            keys = sorted(keys, key=sort_key(ctx, None))
        except errors.TorchError:
            pass
        return [pair for key in keys
                for pair in originate(ctx, actual[key], expected[key], (*id, key), options)]
    for kind in (NonePair, BooleanPair, NumberPair, TensorLikePair):
        try:
            return [kind(ctx, actual, expected, id, **options)]
        except Unsupported:
            continue
        except KeyError:
            text = ctx.printer.format_field
            raise errors.runtime(
                f"Originating a {kind.__name__}() at item {item_path(ctx, id)} with\n\n"
                f"{type_name(actual)}(): {text(actual, None, '')}\n\nand\n\n"
                f"{type_name(expected)}(): {text(expected, None, '')}\n\nresulted in the "
                f"unexpected exception above. {_ISSUE}") from None
    raise Meta("TypeError", "No comparison pair was able to handle inputs of type "
               f"{_class(actual)} and {_class(expected)}.", id)
