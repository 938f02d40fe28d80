"""torch.nn.init: a tensor's values redrawn in place, without grad, as torch's init functions
draw them (the same generator calls, so values match torch's after torch.manual_seed)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import creation, declarations, errors
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace


def _fans(t: Tensor) -> tuple[int, int]:
    """torch's _calculate_fan_in_and_fan_out."""
    if _dims(t, "dim") < 2:
        raise errors.value_error("Fan in and fan out can not be computed for tensor with fewer "
                                 "than 2 dimensions")
    receptive = math.prod(t.shape[2:])
    return t.shape[1] * receptive, t.shape[0] * receptive


def calculate_gain(nonlinearity: str, param=None) -> float:
    """torch.nn.init.calculate_gain."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif (isinstance(param, int) and not isinstance(param, bool)) or isinstance(param, float):
            slope = param
        else:
            raise errors.value_error(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise errors.value_error(f"Unsupported nonlinearity {nonlinearity}")


def _draw(t: Tensor, kind: str, low: float, high: float, generator=None) -> Tensor:
    """tensor.uniform_(a, b) or tensor.normal_(mean, std), without grad."""
    _method_of(t, f"{kind}_")
    with grad_mode(False):
        return creation.fill_random(t, kind, low, high, generator)


def _fill(t: Tensor, value, method: str = "fill_") -> Tensor:
    """tensor.fill_(value) (zeros_ calls zero_), without grad."""
    _method_of(t, method)
    with grad_mode(False):
        return declarations.call("method", "fill_", t, value)


def _method_of(t, method: str) -> None:
    """The AttributeError of torch's Python calling `tensor.<method>` on what is no tensor."""
    if not isinstance(t, Tensor):
        raise errors.no_attribute(t, method)


def _fan(t: Tensor, mode: str) -> int:
    """torch's _calculate_correct_fan: the mode is read case-insensitively."""
    if not isinstance(mode, str):
        raise errors.no_attribute(mode, "lower")
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise errors.value_error(f"Mode {mode} not supported, please use one of "
                                 "['fan_in', 'fan_out']")
    fan_in, fan_out = _fans(t)
    return fan_in if mode == "fan_in" else fan_out


def xavier(t: Tensor, gain: float, kind: str, generator) -> Tensor:
    fan_in, fan_out = _fans(t)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    if kind == "uniform":
        bound = math.sqrt(3.0) * std
        return _draw(t, "uniform", -bound, bound, generator)
    return _draw(t, "normal", 0.0, std, generator)


def _kaiming(t: Tensor, a, mode: str, nonlinearity: str, kind: str, generator) -> Tensor:
    """A zero-element tensor is left as it is, with torch's warning; the fan is checked before
    the gain, as torch reads them."""
    if isinstance(t, Tensor) and 0 in t.shape:
        STATE.warn("UserWarning", "Initializing zero-element tensors is a no-op")
        return t
    fan = _fan(t, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    if kind == "uniform":
        bound = math.sqrt(3.0) * std
        return _draw(t, "uniform", -bound, bound, generator)
    return _draw(t, "normal", 0.0, std, generator)


def _dims(t, method: str = "ndimension") -> int:
    """tensor.ndimension() (or .dim()) as torch's Python code asks it."""
    if not isinstance(t, Tensor):
        raise errors.no_attribute(t, method)
    return t.ndim


def eye_(t: Tensor) -> Tensor:
    """torch.eye(*tensor.shape, out=tensor) without grad."""
    if _dims(t) != 2:
        raise errors.value_error("Only tensors with 2 dimensions are supported")
    with grad_mode(False):
        return F.copy_(t, creation.eye(*t.shape, dtype=t.dtype))


def dirac_(t: Tensor, groups: int = 1) -> Tensor:
    """Zeros, then a 1 at the centre of each (out, in) channel pair within a group, each written
    on its own (a new version per write), as torch's loop writes them."""
    dims = _dims(t)
    if dims not in (3, 4, 5):
        raise errors.value_error("Only tensors with 3, 4, or 5 dimensions are supported")
    if t.shape[0] % groups != 0:
        raise errors.value_error("dim 0 must be divisible by groups")
    per_group = t.shape[0] // groups
    with grad_mode(False):
        F.zero_(t)
    centre = tuple(size // 2 for size in t.shape[2:])
    for group in range(groups):
        for d in range(min(per_group, t.shape[1])):
            t.data[(group * per_group + d, d) + centre] = 1
            t.bump_version()
    return t


def _number(value):
    """A one-element tensor argument as its value, as torch's arithmetic and comparisons on it
    behave; another tensor is the truth test's error its comparisons meet."""
    if not isinstance(value, Tensor):
        return value
    if value.data.size != 1:
        F.truth(value)
    return value.data.item()


def _norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def _like(t: Tensor) -> Tensor:
    return Tensor(np.empty(t.shape, t.dtype.np), t.dtype)


def _log_density(candidates: Tensor, mean, std, log_peak) -> Tensor:
    """-0.5 * ((candidates - mean) / std) ** 2 - log_peak, as torch's chain of in-place ops."""
    return F.sub(F.mul(F.pow(F.div(F.sub(candidates, mean), std), 2), -0.5), log_peak)


def trunc_normal_(t: Tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None) -> Tensor:
    """torch's _no_grad_trunc_normal_: normal draws redrawn where outside [a, b] when that
    interval holds more than 0.3 of the mass, else uniform proposals on [a, b] accepted
    against the density."""
    if not isinstance(t, Tensor):
        raise errors.no_attribute(t, "is_meta")
    bound_tensors = [isinstance(bound, Tensor) for bound in (a, b)]
    mean, std, a, b = (_number(value) for value in (mean, std, a, b))
    if mean < a - 2 * std or mean > b + 2 * std:
        STATE.warn("UserWarning", "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                   "The distribution of values may be incorrect.")
    with grad_mode(False):
        if _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std) > 0.3:
            for given in bound_tensors:  # tensor.new_tensor(bound) of each bound
                if given:
                    STATE.warn("UserWarning", creation.COPY_WARNING.replace(
                        "torch.tensor(", "tensor.new_tensor("))
            low, high = (np.asarray(bound, t.dtype.np).item() for bound in (a, b))
            result = creation.fill_random(t, "normal", mean, std, generator)
            while True:
                mask = F.logical_or(F.lt(result, low), F.gt(result, high))
                if not mask.data.any():
                    break
                drawn = creation.fill_random(_like(result), "normal", mean, std, generator)
                result = F.where(mask, drawn, result)
            return t if result is t else F.copy_(t, result)
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
        creation.fill_random(t, "uniform", a, b, generator)
        candidates = _log_density(t, mean, std, log_peak)
        accept = _like(t)
        pending = F.gt(F.log(creation.fill_random(accept, "uniform", 0.0, 1.0, generator)),
                       candidates)
        result = t
        while pending.data.any():
            candidates = creation.fill_random(_like(t), "uniform", a, b, generator)
            result = F.where(pending, candidates, result)
            candidates = _log_density(candidates, mean, std, log_peak)
            drawn = F.log(creation.fill_random(accept, "uniform", 0.0, 1.0, generator))
            pending = F.where(pending, F.gt(drawn, candidates), pending)
        return t if result is t else F.copy_(t, result)


def orthogonal_(t: Tensor, gain=1, generator=None) -> Tensor:
    """torch's orthogonal_: normal draws as a (rows, cols) matrix (transposed when wider than
    tall), its QR's Q with each column's sign that of R's diagonal, copied in and scaled."""
    if not isinstance(t, Tensor):
        raise errors.no_attribute(t, "ndimension")
    if t.ndim < 2:
        raise errors.value_error("Only tensors with 2 or more dimensions are supported")
    if t.numel() == 0:
        return t
    rows = t.shape[0]
    cols = t.numel() // rows
    flattened = creation.fill_random(Tensor(np.empty((rows, cols), t.dtype.np), t.dtype),
                                     "normal", 0, 1, generator)
    if rows < cols:
        flattened = F.t(flattened)
    q, r = declarations.call("linalg", "qr", flattened)
    q = F.mul(q, declarations.call("torch", "sign", declarations.call("torch", "diag", r, 0)))
    if rows < cols:
        q = F.t(q)
    with grad_mode(False):
        F.copy_(F.view(t, q.shape), q)
        declarations.call("method", "mul_", t, gain)
    return t


def sparse_(t: Tensor, sparsity, std=0.01, generator=None) -> Tensor:
    """N(0, std) draws, then in each column the first ceil(sparsity * rows) rows of a
    torch.randperm (from the default generator) zeroed."""
    if _dims(t) != 2:
        raise errors.value_error("Only tensors with 2 dimensions are supported")
    rows, cols = t.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with grad_mode(False):
        creation.fill_random(t, "normal", 0, std, generator)
        for col in range(cols):
            order = declarations.call("torch", "randperm", rows)
            t.data[order.data[:num_zeros], col] = 0
            t.bump_version()
    return t


_GENERATOR = ", generator=None"
NN_INIT = Namespace("torch.nn.init", table(
    entry("uniform_", lambda t, a, b, generator: _draw(t, "uniform", a, b, generator),
          "tensor, a=0.0, b=1.0" + _GENERATOR),
    entry("normal_", lambda t, mean, std, generator: _draw(t, "normal", mean, std, generator),
          "tensor, mean=0.0, std=1.0" + _GENERATOR),
    entry("constant_", _fill, "tensor, val"),
    entry("zeros_", lambda t: _fill(t, 0, "zero_"), "tensor"),
    entry("ones_", lambda t: _fill(t, 1.0), "tensor"),
    entry("xavier_uniform_", lambda t, gain, generator: xavier(t, gain, "uniform", generator),
          "tensor, gain=1.0" + _GENERATOR),
    entry("xavier_normal_", lambda t, gain, generator: xavier(t, gain, "normal", generator),
          "tensor, gain=1.0" + _GENERATOR),
    entry("kaiming_uniform_", lambda t, a, mode, nonlinearity, generator: _kaiming(
        t, a, mode, nonlinearity, "uniform", generator),
        "tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'" + _GENERATOR),
    entry("kaiming_normal_", lambda t, a, mode, nonlinearity, generator: _kaiming(
        t, a, mode, nonlinearity, "normal", generator),
        "tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'" + _GENERATOR),
    entry("calculate_gain", calculate_gain, "nonlinearity, param=None"),
    entry("_calculate_fan_in_and_fan_out", _fans, "tensor"),
    entry("_calculate_correct_fan", _fan, "tensor, mode"),
    entry("eye_", eye_, "tensor"),
    entry("dirac_", dirac_, "tensor, groups=1"),
    entry("orthogonal_", orthogonal_, "tensor, gain=1" + _GENERATOR),
    entry("trunc_normal_", trunc_normal_, "tensor, mean=0.0, std=1.0, a=-2.0, b=2.0" + _GENERATOR),
    entry("sparse_", sparse_, "tensor, sparsity, std=0.01" + _GENERATOR),
))


def _deprecated(new_name: str):
    """torch's _make_deprecate: the old name without `_` warns, then calls the new one."""
    old_name = new_name[:-1]

    def deprecated_init(ctx, *args, **kwargs):
        STATE.warn("FutureWarning", f"`nn.init.{old_name}` is now deprecated in favor of "
                   f"`nn.init.{new_name}`.")
        return ctx.call(NN_INIT.table[new_name], list(args), kwargs)
    return entry(old_name, deprecated_init, "*args, **kwargs", context=True)


NN_INIT.table.update(table(*(_deprecated(name) for name in (
    "uniform_", "normal_", "constant_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_",
    "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_"))))
