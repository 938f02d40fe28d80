"""Functions torch publishes at its top level from aten, beside their torch.nn.functional forms
(torch.dropout, torch.selu, torch.layer_norm, torch.max_pool2d...): aten's signatures and
checks over the functional implementations; and the window functions, in aten's order of
operations."""

from __future__ import annotations

import math

from gradcli.engine import creation, devices, errors, grad_api
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor


def _probability(p: float) -> float:
    if p < 0 or p > 1:
        raise errors.runtime(f"dropout probability has to be between 0 and 1, but got {p}")
    return p


_DROPOUTS = {
    "dropout": lambda x, p, train, inplace: F.dropout(x, p, train, inplace),
    "feature_dropout": lambda x, p, train, inplace: F.dropout(
        x, p, train, inplace, noise_shape=tuple(x.shape[:2]) + (1,) * (x.ndim - 2)),
    "alpha_dropout": lambda x, p, train, inplace: F.alpha_dropout(x, p, train, inplace),
    "feature_alpha_dropout": lambda x, p, train, inplace: F.feature_alpha_dropout(
        x, p, train, inplace),
}


def _declare_dropout(name: str, run) -> None:
    declare(name, lambda input, p, train: run(input, _probability(p), train, False),
            f"{name}(Tensor input, float p, bool train)", variants="torch")
    declare(name + "_", lambda input, p, train: run(input, _probability(p), train, True),
            f"{name}_(Tensor self, float p, bool train)", variants="torch")


for _name, _run in _DROPOUTS.items():
    _declare_dropout(_name, _run)
del _name, _run

declare("selu", lambda input: F.selu(input), "selu(Tensor self)", variants="torch")
declare("selu_", lambda input: F.selu(input, True), "selu_(Tensor self)",
        variants="torch")
declare("celu", lambda input, alpha: F.celu(input, alpha),
        "celu(Tensor self, Scalar alpha=1.0)", variants="torch")
declare("celu_", lambda input, alpha: F.celu(input, alpha, True),
        "celu_(Tensor self, Scalar alpha=1.0)", variants="torch")
declare("threshold", lambda input, threshold, value: F.threshold(
    input, threshold, value), "threshold(Tensor self, Scalar threshold, Scalar value)",
        variants="torch")
declare("threshold_", lambda input, threshold, value: F.threshold(
    input, threshold, value, True), "threshold_(Tensor self, Scalar threshold, Scalar value)",
        variants="torch")
declare("layer_norm", lambda input, normalized_shape, weight, bias, eps, cudnn_enable:
        F.layer_norm(input, normalized_shape, weight, bias, eps),
        "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
        "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True)", variants="torch")
declare("group_norm", lambda input, num_groups, weight, bias, eps, cudnn_enabled:
        F.group_norm(input, num_groups, weight, bias, eps),
        "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
        "float eps=1e-05, bool cudnn_enabled=True)", variants="torch")
declare("batch_norm", lambda input, weight, bias, running_mean, running_var, training, momentum,
        eps, cudnn_enabled: F.batch_norm(input, running_mean, running_var, weight,
                                                     bias, training, momentum, eps),
        "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled)",
        variants="torch")
declare("instance_norm", lambda input, weight, bias, running_mean, running_var, use_input_stats,
        momentum, eps, cudnn_enabled: F.instance_norm(
            input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps),
        "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool use_input_stats, float momentum, float eps, "
        "bool cudnn_enabled)", variants="torch")
declare("embedding", lambda weight, indices, padding_idx, scale_grad_by_freq, sparse:
        F.embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                                None, 2.0, scale_grad_by_freq, sparse),
        "embedding(Tensor weight, Tensor indices, int padding_idx=-1, "
        "bool scale_grad_by_freq=False, bool sparse=False)", variants="torch")
declare("max_pool1d", lambda input, kernel_size, stride, padding, dilation, ceil_mode:
        F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode),
        "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
        "int[1] dilation=1, bool ceil_mode=False)", variants="torch")
declare("max_pool2d", lambda input, kernel_size, stride, padding, dilation, ceil_mode:
        F.max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode),
        "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
        "int[2] dilation=1, bool ceil_mode=False)", variants="torch")


declare("detach", lambda input: F.detach(input), "detach(Tensor self)", variants="torch")
declare("detach_", lambda input: grad_api.detach_(input), "detach_(Tensor self)", variants="torch")


# ---- queries and a factory ----------------------------------------------------------------------

declare("is_signed", lambda input: input.dtype.name not in ("uint8", "bool"), "is_signed(Tensor self)",
        variants="torch method")
declare("is_same_size", lambda input, other: input.shape == other.shape,
        "is_same_size(Tensor self, Tensor other)", variants="torch")
declare("get_device", lambda input: -1, "get_device(Tensor self)", variants="torch method")


def _scalar_tensor(s, dtype=None, layout=None, device=None, pin_memory=None) -> Tensor:
    devices.place(device)
    return creation.full((), s, dtype=dtype or STATE.default_dtype)


declare("scalar_tensor", _scalar_tensor, "scalar_tensor(Scalar s, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=None)", variants="torch")


# ---- window functions (aten's TensorFactories.cpp) ----------------------------------------------

_WINDOW_OPTIONS = ("*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                   "bool? pin_memory=False, bool requires_grad=False")


def _window(name: str, window_length: int, periodic: bool, dtype, device, requires_grad,
            shape) -> Tensor:
    """window_function_checks, the empty and one-long windows, then `shape(n, arange(n))` over
    one more point when periodic, that point dropped."""
    devices.place(device)
    dtype = dtype or STATE.default_dtype
    if window_length < 0:
        raise errors.runtime(f"{name} requires non-negative window_length, got "
                             f"window_length={window_length}")
    if not dtype.is_floating_point:
        raise errors.runtime(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                             f"{dtype.cpp_name}, device=cpu, layout=Strided (default), "
                             "requires_grad=false (default), pinned_memory=false, "
                             "memory_format=(nullopt))")
    if window_length <= 1:
        made = creation.ones((window_length,), dtype=dtype)
    else:
        length = window_length + 1 if periodic else window_length
        made = shape(length, creation.arange(length, dtype=dtype))
        if periodic:
            made = F.narrow(made, 0, 0, length - 1)
    made = F.detach(made)
    made.requires_grad = requires_grad
    return made


def _hamming(length: int, n: Tensor, alpha: float, beta: float) -> Tensor:
    """window.mul_(2 pi / (N - 1)).cos_().mul_(-beta).add_(alpha)."""
    angle = F.mul(n, math.pi * 2.0 / (length - 1))
    return F.add(F.mul(F.cos(angle), -beta), alpha)


def _bartlett(length: int, n: Tensor) -> Tensor:
    """arange * (2 / (N - 1)), its second half replaced by 2 - value."""
    window = F.mul(n, 2.0 / (length - 1))
    first = ((length - 1) >> 1) + 1
    rising = F.narrow(window, 0, 0, first)
    falling = F.add(F.mul(F.narrow(window, 0, first, length - first), -1), 2)
    return F.cat([rising, falling])


def _blackman(length: int, n: Tensor) -> Tensor:
    """0.08 cos(4 x) - 0.5 cos(2 x) + 0.42, x = arange * pi / (N - 1)."""
    x = F.mul(n, math.pi / (length - 1))
    return F.add(F.sub(F.mul(F.cos(F.mul(x, 4)), 0.08), F.mul(F.cos(F.mul(x, 2)), 0.5)), 0.42)


def _windows():
    def hamming(window_length, periodic=True, alpha=0.54, beta=0.46, dtype=None, layout=None,
                device=None, pin_memory=None, requires_grad=False):
        return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                       lambda length, n: _hamming(length, n, alpha, beta))

    def hann(window_length, periodic=True, dtype=None, layout=None, device=None,
             pin_memory=None, requires_grad=False):
        return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                       lambda length, n: _hamming(length, n, 0.5, 0.5))

    def bartlett(window_length, periodic=True, dtype=None, layout=None, device=None,
                 pin_memory=None, requires_grad=False):
        return _window("bartlett_window", window_length, periodic, dtype, device,
                       requires_grad, _bartlett)

    def blackman(window_length, periodic=True, dtype=None, layout=None, device=None,
                 pin_memory=None, requires_grad=False):
        return _window("blackman_window", window_length, periodic, dtype, device,
                       requires_grad, _blackman)
    return hamming, hann, bartlett, blackman


def _kaiser(length: int, n: Tensor, beta: float) -> Tensor:
    """kaiser_window_kernel, in the dtype's opmath type: i0(beta sqrt(|1 - ((n - alpha) /
    alpha)^2|)) / i0(beta), alpha = (N - 1) / 2."""
    import numpy as np

    from gradcli.engine import bessel_math, fma
    math_type = np.float64 if n.dtype.np == np.float64 else np.float32
    alpha, beta = math_type((length - 1) / 2.0), math_type(beta)
    with np.errstate(all="ignore"):
        ratio = (n.data.astype(math_type) - alpha) / alpha
        # 1 - pow(ratio, 2) as the compiler contracts it: one fused multiply-add
        fused = fma.fma32 if math_type is np.float32 else fma.fma64
        x = beta * np.sqrt(np.abs(fused(-ratio, ratio, math_type(1))))
        values = bessel_math.i0(x) / bessel_math.i0(np.array([beta]))[0]
    return Tensor(values.astype(n.dtype.np), n.dtype)


def _kaiser_window(window_length, periodic=True, beta=12.0, dtype=None, layout=None, device=None,
                   pin_memory=None, requires_grad=False):
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad,
                   lambda length, n: _kaiser(length, n, beta))


_HAMMING, _HANN, _BARTLETT, _BLACKMAN = _windows()
declare("kaiser_window", _kaiser_window, f"kaiser_window(int window_length, {_WINDOW_OPTIONS})",
        f"kaiser_window(int window_length, bool periodic, {_WINDOW_OPTIONS})",
        f"kaiser_window(int window_length, bool periodic, float beta, {_WINDOW_OPTIONS})",
        variants="torch")
declare("hamming_window", _HAMMING, f"hamming_window(int window_length, {_WINDOW_OPTIONS})",
        f"hamming_window(int window_length, bool periodic, {_WINDOW_OPTIONS})",
        f"hamming_window(int window_length, bool periodic, float alpha, {_WINDOW_OPTIONS})",
        f"hamming_window(int window_length, bool periodic, float alpha, float beta, "
        f"{_WINDOW_OPTIONS})", variants="torch")
for _name, _fn in (("hann_window", _HANN), ("bartlett_window", _BARTLETT),
                   ("blackman_window", _BLACKMAN)):
    declare(_name, _fn, f"{_name}(int window_length, {_WINDOW_OPTIONS})",
            f"{_name}(int window_length, bool periodic, {_WINDOW_OPTIONS})", variants="torch")
del _name, _fn
