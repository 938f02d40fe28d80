"""Convolutions and pooling (conv1d/2d/3d, conv_transpose1d/2d/3d, max/avg/adaptive pooling):
functions and rows.

Convolutions run as im2col + matmul over NumPy windows; every spatial rank goes through the one
N-d kernel, and transposed convolutions are the input gradient of the plain one, as in ATen.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from gradcli.engine import (autocast, cascade_sum, dtypes, errors, matmul_order, onednn_conv,
                            onednn_depthwise, onednn_pointwise, onednn_strided, schemas)
from gradcli.engine import memory_format as memory_formats
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import NOT_FLOATING, NOT_FLOATING_OR_LONG, OPS, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.triggered import triggered
from gradcli.engine.tensor import Tensor


# ---- NumPy kernels ------------------------------------------------------------------------------

def _windows(x, kernel, stride, dilation, out):
    """x (N, C, *S) -> view (N, C, *out, *kernel) of the windows each output reads."""
    n, c = x.shape[:2]
    s = x.strides
    spatial = len(kernel)
    shape = (n, c, *out, *kernel)
    strides = (s[0], s[1], *(s[2 + i] * stride[i] for i in range(spatial)),
               *(s[2 + i] * dilation[i] for i in range(spatial)))
    return np.lib.stride_tricks.as_strided(x, shape, strides, writeable=False)


def _pad_zero(x, padding):
    if not any(padding):
        return np.ascontiguousarray(x)
    return np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])


def _out_size(size, k, s, p, d):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _conv(x, w, stride, padding, dilation, groups):
    """Plain convolution: x (N, C, *S), w (O, C/groups, *K) -> (N, O, *out)."""
    kernel = w.shape[2:]
    spatial = len(kernel)
    out = tuple(_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i])
                for i in range(spatial))
    cols = _windows(_pad_zero(x, padding), kernel, stride, dilation, out)
    n = x.shape[0]
    per_in, per_out = x.shape[1] // groups, w.shape[0] // groups
    result = np.empty((n, w.shape[0], *out), x.dtype)
    k_axes = tuple(range(2 + spatial, 2 + 2 * spatial))
    for g in range(groups):
        patch = cols[:, g * per_in:(g + 1) * per_in]
        # (N, *out, C*K) @ (C*K, O)
        patch = np.moveaxis(patch, 1, 1 + spatial)  # N, *out, C, *K
        patch = patch.reshape(n, *out, -1)
        wg = w[g * per_out:(g + 1) * per_out].reshape(per_out, -1)
        y = np.matmul(patch.reshape(-1, patch.shape[-1]), wg.T).reshape(n, *out, per_out)
        result[:, g * per_out:(g + 1) * per_out] = np.moveaxis(y, -1, 1)
    del k_axes
    return result


def _conv_input_grad(g, w, input_shape, stride, padding, dilation, groups):
    """The adjoint of `_conv` in its input: g (N, O, *out), w (O, C/groups, *K) -> input_shape."""
    kernel = w.shape[2:]
    spatial = len(kernel)
    n = g.shape[0]
    per_out, per_in = w.shape[0] // groups, w.shape[1]
    padded = np.zeros((n, per_in * groups, *(input_shape[2 + i] + 2 * padding[i]
                                              for i in range(spatial))), g.dtype)
    out = g.shape[2:]
    for group in range(groups):
        gg = g[:, group * per_out:(group + 1) * per_out]
        wg = w[group * per_out:(group + 1) * per_out]
        target = padded[:, group * per_in:(group + 1) * per_in]
        for offset in itertools.product(*(range(k) for k in kernel)):
            # (N, *out, O) @ (O, C) -> (N, *out, C)
            contribution = np.matmul(np.moveaxis(gg, 1, -1), wg[(slice(None), slice(None),
                                                                 *offset)])
            key = tuple(slice(offset[i] * dilation[i],
                              offset[i] * dilation[i] + stride[i] * (out[i] - 1) + 1, stride[i])
                        for i in range(spatial))
            target[(slice(None), slice(None), *key)] += np.moveaxis(contribution, -1, 1)
    crop = tuple(slice(padding[i], padding[i] + input_shape[2 + i]) for i in range(spatial))
    return padded[(slice(None), slice(None), *crop)]


def _conv_weight_grad(g, x, weight_shape, stride, padding, dilation, groups):
    """The adjoint of `_conv` in its weight."""
    kernel = tuple(weight_shape[2:])
    spatial = len(kernel)
    out = g.shape[2:]
    cols = _windows(_pad_zero(x, padding), kernel, stride, dilation, out)
    per_in, per_out = x.shape[1] // groups, weight_shape[0] // groups
    result = np.empty(weight_shape, g.dtype)
    out_axes = tuple(range(2, 2 + spatial))
    for group in range(groups):
        patch = cols[:, group * per_in:(group + 1) * per_in]
        gg = g[:, group * per_out:(group + 1) * per_out]
        result[group * per_out:(group + 1) * per_out] = np.tensordot(
            gg, patch, axes=((0, *out_axes), (0, *out_axes)))
    return result


def _transposed_shape(x_shape, w_shape, stride, padding, output_padding, dilation, groups):
    spatial = len(w_shape) - 2
    return (x_shape[0], w_shape[1] * groups, *(
        (x_shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (w_shape[2 + i] - 1)
        + output_padding[i] + 1 for i in range(spatial)))


def _convolution(x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    if x.shape[0] == 0:  # an empty batch: an empty output of the convolution's shape
        shape = (_transposed_shape(x.shape, w.shape, stride, padding, output_padding, dilation,
                                   groups) if transposed else
                 (0, w.shape[0], *(_out_size(x.shape[2 + i], w.shape[2 + i], stride[i],
                                             padding[i], dilation[i])
                                   for i in range(w.ndim - 2))))
        return np.zeros(shape, np.result_type(x, w))
    if transposed:
        shape = _transposed_shape(x.shape, w.shape, stride, padding, output_padding, dilation,
                                  groups)
        kind = _deconvolution(x, w, shape, stride, padding, dilation, groups)
        y = (onednn_strided.backward_data(x, w, shape, stride, padding) if kind == "strided"
             else onednn_conv.backward_data(x, w, shape, padding, dilation) if kind
             else None)
        if y is None:
            y = _conv_input_grad(x, w, shape, stride, padding, dilation, groups)
    elif (kind := _onednn_kernel(x, w, stride, padding, dilation, groups)) == "pointwise":
        return _output_layout(onednn_pointwise.forward(x, w, b, stride), x, w)
    elif kind == "depthwise":
        if np.isfinite(w).all() and onednn_depthwise.forward_claimed(
                x.shape, w.shape, stride, padding, dilation, groups):
            return onednn_depthwise.forward(x, w, b, stride, padding)
        y = _conv(x, w, stride, padding, dilation, groups)
    elif kind == "grouped":
        biases = [None] * groups if b is None else np.split(b, groups)
        y = _grouped((onednn_conv.forward(xg, wg, bg, stride, padding, dilation) for xg, wg, bg
                      in zip(np.split(x, groups, 1), np.split(w, groups), biases)), 1)
        if y is not None:
            return _output_layout(y, x, w)
        y = _conv(x, w, stride, padding, dilation, groups)
    elif kind:
        y = onednn_conv.forward(x, w, b, stride, padding, dilation)
        if y is not None:
            return _output_layout(y, x, w)
        y = _conv(x, w, stride, padding, dilation, groups)
    elif (y := _slow_conv(x, w, b, stride, padding, dilation, groups)) is not None:
        return y
    else:
        y = _conv(x, w, stride, padding, dilation, groups)
    if b is not None:  # a transposed convolution reads its bias in the input's dtype
        y = y + b.astype(y.dtype, copy=False).reshape((1, -1) + (1,) * (y.ndim - 2))
    return _output_layout(y, x, w)


# The replays of torch's summation orders cost about 8 ns per multiply-add, against a fraction
# of one for NumPy's products: a convolution of more multiply-adds than this (0.15 s of replay)
# keeps NumPy's products, whose values may differ from torch's in the last bits.
EXACT_BUDGET = 16_000_000


def _affordable(x, w, stride, padding, dilation) -> bool:
    """Whether the convolution's multiply-adds fit EXACT_BUDGET."""
    out = [_out_size(x.shape[2 + i], w.shape[2 + i], stride[i], padding[i], dilation[i])
           for i in range(w.ndim - 2)]
    return x.shape[0] * math.prod(w.shape) * math.prod(out) <= EXACT_BUDGET


def _onednn_kernel(x, w, stride, padding, dilation, groups) -> str | None:
    """Which oneDNN kernel torch runs this convolution through, of those whose order
    `onednn_conv` follows: "direct" (float32, laid out contiguously), "pointwise" (its 1x1
    kernel, `onednn_pointwise`), "depthwise" (its jit_dw kernels, `onednn_depthwise`),
    "grouped" (the direct kernel group by group), "brg" (channels last, in the shapes it shares
    the direct kernel's forward order), else None (also past EXACT_BUDGET)."""
    if x.dtype != np.float32 or w.dtype != np.float32 or not _affordable(
            x, w, stride, padding, dilation):
        return None
    if any(memory_formats.suggest(a.shape, memory_formats.element_strides(a))
           is memory_formats.CHANNELS_LAST for a in (x, w) if a.ndim == 4):
        return "brg" if onednn_conv.brg_forward(x.shape, w.shape, stride, padding, dilation,
                                                groups) else None
    if onednn_depthwise.depthwise(x.shape, w.shape, stride, padding, dilation, groups):
        return "depthwise"
    if groups > 1:
        return "grouped" if _direct_groups(x.shape, w.shape, stride, padding, dilation,
                                           groups) else None
    if onednn_pointwise.forward_claimed(x.shape, w.shape, stride, padding, dilation, groups,
                                        cascade_sum.THREADS):
        return "pointwise"
    return "direct" if onednn_conv.direct_forward(x.shape, w.shape, stride, padding, dilation,
                                                  groups) else None


def _direct_groups(x_shape, w_shape, stride, padding, dilation, groups) -> bool:
    """Whether oneDNN's direct kernel runs this grouped convolution group by group in the order
    `onednn_conv` follows for one group: measured with 16, 32, 48 or 64 input and output
    channels a group (multiples of its blocks of 16)."""
    per_in, per_out = x_shape[1] // groups, w_shape[0] // groups
    return (per_in % 16 == 0 and per_out % 16 == 0 and 0 < per_in <= 64 and 0 < per_out <= 64
            and onednn_conv.direct_forward((x_shape[0], per_in, *x_shape[2:]),
                                           (per_out, *w_shape[1:]), stride, padding, dilation,
                                           1))


def _grouped(parts, axis: int):
    """The groups' results joined, or None where one is not known."""
    parts = list(parts)
    return None if any(p is None for p in parts) else np.concatenate(parts, axis)


def _aten_slow(x, w, stride, padding, dilation, groups) -> bool:
    """Whether torch convolves this itself (slow_conv2d: im2col and MKL products) in the shapes
    checked: float32, what ATen keeps from oneDNN (one sample, or 1x1 kernels of fewer than 16
    images on one thread; these of 4 or more output channels, MKL's order for 2 or 3 rows not
    followed), no dilation, not channels last, nothing empty, within EXACT_BUDGET."""
    return (x.dtype == np.float32 and w.dtype == np.float32 and groups == 1
            and x.ndim in (3, 4) and x.size * w.shape[0] > 0
            and all(d == 1 for d in dilation)
            and _affordable(x, w, stride, padding, dilation)
            and onednn_conv.aten_convolves(x.shape, w.shape, stride, groups,
                                           cascade_sum.THREADS)
            and not any(a.ndim == 4 and memory_formats.suggest(
                a.shape, memory_formats.element_strides(a)) is memory_formats.CHANNELS_LAST
                for a in (x, w)))


def _product(a, b, bias=None):
    """a @ b as slow_conv2d's sgemm sums it: as torch.mm(a, b) (`matmul_order.mm`), one output
    position as torch.mm(b.t(), a.t()).t(), the call torch makes for it (measured on one thread);
    on more threads only past 4 terms a sum, the shapes measured there."""
    if cascade_sum.THREADS > 1 and (a.shape[1] <= 4 or b.shape[1] < 2):
        return None
    if b.shape[1] == 1:
        out = matmul_order.mm(b.T, a.T, None if bias is None else bias.T)
        return None if out is None else out.T
    return matmul_order.mm(a, b, bias)


def _columns(x, kernel, stride, padding):
    """slow_conv2d's im2col of the one sample of x: (C * prod(kernel), prod(out))."""
    out = tuple(_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], 1)
                for i in range(len(kernel)))
    cols = _windows(_pad_zero(x, padding), kernel, stride, (1,) * len(kernel), out)[0]
    spatial = tuple(range(1, 1 + len(out)))
    return np.ascontiguousarray(np.moveaxis(cols, spatial, tuple(
        range(-len(out), 0)))).reshape(-1, math.prod(out)), out


def _slow_conv(x, w, b, stride, padding, dilation, groups):
    """ATen's own float32 kernel where torch keeps a convolution from oneDNN (`_aten_slow`):
    im2col, then an MKL product from the pre-filled bias (as addmm(bias, w, columns));
    measured exact on one thread, and on two past 4 terms per output.  None elsewhere."""
    if not _aten_slow(x, w, stride, padding, dilation, groups):
        return None
    weights, images = np.ascontiguousarray(w.reshape(w.shape[0], -1)), []
    for sample in x:  # ATen convolves the images one by one
        columns, out = _columns(sample[None], w.shape[2:], stride, padding)
        bias = None if b is None else np.broadcast_to(b[:, None],
                                                      (w.shape[0], columns.shape[1]))
        y = _product(weights, columns, bias)
        if y is None:
            return None
        images.append(y.reshape(w.shape[0], *out))
    return np.stack(images)


def _slow_conv_backward(g, x, w, stride, padding, mask) -> list:
    """slow_conv2d's gradients (None where not known): the input's, image by image, as col2im
    of w.T @ g, the kernel taps added in order from zero (a 1x1 kernel at stride 1 unpadded:
    w.T @ g itself); the weight's of one image as g @ columns.T from zero (these two measured on
    one thread only); the bias as torch's sum."""
    o, kernel = w.shape[0], w.shape[2:]
    grads = [None, None, None]
    if mask[2]:
        grads[2] = F.sum_values(g, g.shape, None, (0, *range(2, g.ndim)), False)
    if cascade_sum.THREADS > 1:
        return grads
    if mask[0]:
        images = [_slow_input_grad(image.reshape(o, -1), w, x.shape[1:], stride, padding)
                  for image in g]
        grads[0] = None if any(i is None for i in images) else np.stack(images)
    if mask[1] and x.shape[0] == 1:
        g2d = g.reshape(o, -1)
        columns, _ = _columns(x, kernel, stride, padding)
        weights = _product(g2d, columns.T, np.zeros((o, columns.shape[0]), np.float32))
        grads[1] = None if weights is None else weights.reshape(w.shape)
    return grads


def _slow_input_grad(g2d, w, image_shape, stride, padding):
    """One image's input gradient as slow_conv2d computes it from its output gradient g2d
    (O, positions): w.T @ g2d, then col2im (None where `_product` is not known)."""
    kernel, out = w.shape[2:], tuple(
        _out_size(image_shape[1 + i], w.shape[2 + i], stride[i], padding[i], 1)
        for i in range(w.ndim - 2))
    frame = _product(np.ascontiguousarray(w.reshape(w.shape[0], -1).T), g2d)
    if frame is None or all(k == 1 for k in kernel) and not any(padding) and all(
            s == 1 for s in stride):
        return None if frame is None else frame.reshape(image_shape)
    frame = frame.reshape(w.shape[1], *kernel, *out)
    padded = np.zeros((image_shape[0], *(image_shape[1 + i] + 2 * padding[i]
                                         for i in range(len(kernel)))), np.float32)
    for tap in itertools.product(*(range(k) for k in kernel)):
        key = tuple(slice(tap[i], tap[i] + stride[i] * (out[i] - 1) + 1, stride[i])
                    for i in range(len(kernel)))
        padded[(slice(None), *key)] += frame[(slice(None), *tap)]
    return padded[(slice(None), *(slice(padding[i], padding[i] + image_shape[1 + i])
                                  for i in range(len(kernel))))]


def _output_layout(y, x, w):
    """torch's CPU kernels write channels last when the input or the weight suggests it."""
    for fmt in (memory_formats.CHANNELS_LAST, memory_formats.CHANNELS_LAST_3D):
        if y.ndim == fmt.rank and any(
                memory_formats.suggest(a.shape, memory_formats.element_strides(a)) is fmt
                for a in (x, w)):
            return memory_formats.laid_out(y, fmt)
    return y


def _convolution_backward(g, x, w, stride, padding, dilation, transposed, output_padding,
                          groups, mask):
    empty = np.zeros(0, g.dtype)
    if x.shape[0] == 0:  # an empty batch: gradients of zeros (the weight's sums of nothing)
        return tuple(np.zeros(shape, g.dtype) if wanted else empty for wanted, shape in zip(
            mask, (x.shape, w.shape, (g.shape[1],))))
    grad_x = grad_w = grad_b = empty
    known = [None] * 3  # the gradients known in torch's order
    kind = None if transposed else _onednn_kernel(x, w, stride, padding, dilation, groups)
    if kind == "pointwise":
        known = _pointwise_backward(g, x, w, stride, padding, dilation, groups, mask)
    elif kind == "depthwise":
        known = _depthwise_backward(g, x, w, stride, padding, dilation, groups, mask)
    elif kind == "grouped":
        known = _grouped_backward(g, x, w, stride, padding, dilation, groups, mask)
    if kind == "direct":
        if mask[0] and all(s == 1 for s in stride):
            known[0] = onednn_conv.backward_data(g, w, x.shape, padding, dilation)
        if mask[1]:
            known[1] = onednn_conv.backward_weights(x, g, w.shape, stride, padding, dilation,
                                                    cascade_sum.THREADS)
        if mask[2]:
            known[2] = onednn_conv.backward_bias(g, x.shape, w.shape, stride, padding,
                                                 dilation, cascade_sum.THREADS)
    elif not transposed and _aten_slow(x, w, stride, padding, dilation, groups):
        known = _slow_conv_backward(g, x, w, stride, padding, mask)
    if mask[0] and known[0] is None and not transposed:
        known[0] = _strided_input_grad(g, x, w, stride, padding, dilation, groups)
    if transposed and _deconvolution(x, w, g.shape, stride, padding, dilation, groups):
        known = _deconvolution_backward(g, x, w, stride, padding, dilation, groups, mask)
    if mask[0] and transposed:  # output padding the strides never read leaves extra rows
        grad_x = (known[0] if known[0] is not None else
                  _conv(g, w, stride, padding, dilation, groups))[
            (slice(None), slice(None), *(slice(0, size) for size in x.shape[2:]))]
    elif mask[0]:
        grad_x = known[0] if known[0] is not None else _conv_input_grad(
            g, w, x.shape, stride, padding, dilation, groups)
    if mask[1]:
        grad_w = (known[1] if known[1] is not None else
                  _conv_weight_grad(x, g, w.shape, stride, padding, dilation, groups)
                  if transposed else
                  _conv_weight_grad(g, x, w.shape, stride, padding, dilation, groups))
    if mask[2] and known[2] is None and transposed and _slow_transposed(x, w, stride, dilation,
                                                                      groups):
        known[2] = _slow_transposed_bias_grad(g)
    if mask[2]:
        grad_b = known[2] if known[2] is not None else _bias_grad(g, groups)
    return grad_x, grad_w, grad_b


def _slow_transposed(x, w, stride, dilation, groups: int) -> bool:
    """Whether ATen runs this 1-d or 2-d transposed convolution itself (slow_conv_transpose2d,
    1-d as 2-d of height 1), laid out contiguously: float64, or float32 of one group without
    dilation that its use_mkldnn leaves (`onednn_conv.aten_convolves`)."""
    if x.ndim not in (3, 4) or x.size == 0 or x.ndim == 4 and any(
            memory_formats.suggest(a.shape, memory_formats.element_strides(a))
            is memory_formats.CHANNELS_LAST for a in (x, w)):
        return False
    if x.dtype == np.float64:
        return True
    return (x.dtype == np.float32 and all(d == 1 for d in dilation)
            and onednn_conv.aten_convolves(x.shape, w.shape, stride, groups,
                                           cascade_sum.THREADS))


def _slow_transposed_bias_grad(g):
    """slow_conv_transpose2d's bias gradient: zeros, to which each sample's channel rows add
    their sums (torch's sum along the row), sample by sample."""
    total = np.zeros(g.shape[1], g.dtype)
    for sample in g:
        rows = sample.reshape(g.shape[1], -1)
        total = total + F.sum_values(rows, rows.shape, None, (1,), False)
    return total


def _pointwise_backward(g, x, w, stride, padding, dilation, groups, mask) -> list:
    """The gradients of a 1x1 convolution oneDNN's jit_1x1 kernel runs (`onednn_pointwise`;
    None where not known): the input's at stride 1, the weight's and bias's where claimed."""
    known = [None] * 3
    if mask[0] and all(s == 1 for s in stride):
        known[0] = onednn_pointwise.forward(g, np.ascontiguousarray(np.swapaxes(w, 0, 1)), None,
                                            stride)
    if (mask[1] or mask[2]) and onednn_pointwise.weights_claimed(
            x.shape, w.shape, stride, padding, dilation, groups, cascade_sum.THREADS):
        if mask[1]:
            known[1] = onednn_pointwise.backward_weights(x, g, w.shape, stride,
                                                         cascade_sum.THREADS)
        if mask[2]:
            known[2] = onednn_pointwise.backward_bias(g, x.shape[1], cascade_sum.THREADS)
    return known


def _deconvolution(x, w, shape, stride, padding, dilation, groups) -> str | None:
    """Which of the orders followed torch's transposed float32 convolution takes: oneDNN
    runs it as the input gradient of the convolution from its output `shape` back to x, "direct"
    (stride 1: the direct backward-data kernel) or "strided" (brgconv_strided), where claimed
    for that convolution; else None (also where the replay's multiply-adds pass EXACT_BUDGET)."""
    if (x.dtype != np.float32 or w.dtype != np.float32 or x.ndim != w.ndim or groups != 1
            or all(k == 1 for k in w.shape[2:]) or x.ndim == 4 and any(
                memory_formats.suggest(a.shape, memory_formats.element_strides(a))
                is memory_formats.CHANNELS_LAST for a in (x, w))):
        return None
    planar, kernel, *_ = onednn_conv._planar(x.shape, w.shape, stride, padding, dilation)
    # the replays take every tap of every output of their stride's residue
    work = x.shape[0] * math.prod(w.shape) * math.prod(shape[2:]) // math.prod(stride)
    if not onednn_conv._onednn(planar, kernel, w.shape[1], groups) or work > EXACT_BUDGET:
        return None
    if all(s == 1 for s in stride):
        return "direct" if onednn_conv.direct_forward(shape, w.shape, stride, padding,
                                                      dilation, groups) else None
    return "strided" if onednn_strided.claimed(shape, w.shape, stride, padding, dilation,
                                               groups, cascade_sum.THREADS) else None


def _deconvolution_backward(g, x, w, stride, padding, dilation, groups, mask) -> list:
    """The gradients of a transposed convolution `_deconvolution` takes (None where not
    known): the input's as oneDNN's direct forward kernel convolves g, the weight's as its
    backward-weights kernel sums g's windows against x; the bias's as `_bias_grad`."""
    known = [None] * 3
    if mask[0] and onednn_conv.direct_forward(g.shape, w.shape, stride, padding, dilation,
                                              groups):
        known[0] = onednn_conv.forward(g, w, None, stride, padding, dilation)
    if mask[1]:
        known[1] = onednn_conv.backward_weights(g, x, w.shape, stride, padding, dilation,
                                                cascade_sum.THREADS)
    return known


def _grouped_backward(g, x, w, stride, padding, dilation, groups, mask) -> list:
    """The gradients of a grouped convolution oneDNN's direct kernels run group by group
    (None where not known): the input's at stride 1; the weight's and bias's on one thread
    only (on more, oneDNN splits the work among groups and threads otherwise)."""
    known = [None] * 3
    parts = list(zip(np.split(g, groups, 1), np.split(x, groups, 1), np.split(w, groups)))
    if mask[0] and all(s == 1 for s in stride):
        known[0] = _grouped((onednn_conv.backward_data(gg, wg, xg.shape, padding, dilation)
                             for gg, xg, wg in parts), 1)
    if cascade_sum.THREADS == 1 and mask[1]:
        known[1] = _grouped((onednn_conv.backward_weights(xg, gg, wg.shape, stride, padding,
                                                          dilation, 1)
                             for gg, xg, wg in parts), 0)
    if cascade_sum.THREADS == 1 and mask[2]:
        known[2] = _grouped((onednn_conv.backward_bias(gg, xg.shape, wg.shape, stride, padding,
                                                       dilation, 1)
                             for gg, xg, wg in parts), 0)
    return known


def _depthwise_backward(g, x, w, stride, padding, dilation, groups, mask) -> list:
    """The gradients of a depthwise convolution oneDNN's jit_dw kernels run
    (`onednn_depthwise`; None where not known, or where a NaN or infinity would reach the
    products the kernels skip)."""
    known = [None] * 3
    shapes = (x.shape, w.shape, stride, padding, dilation, groups)
    if mask[0] and np.isfinite(w).all() and onednn_depthwise.data_claimed(*shapes):
        known[0] = onednn_depthwise.backward_data(g, w, x.shape, stride, padding)
    if cascade_sum.THREADS <= 2 and onednn_depthwise.weights_claimed(*shapes):  # measured
        if mask[1] and np.isfinite(x).all():
            known[1] = onednn_depthwise.backward_weights(x, g, w.shape, stride, padding,
                                                         cascade_sum.THREADS)
        if mask[2]:
            known[2] = onednn_depthwise.backward_bias(g, cascade_sum.THREADS)
    return known


def _strided_input_grad(g, x, w, stride, padding, dilation, groups):
    """The input gradient of a strided float32 convolution as oneDNN's brgconv_strided kernel
    sums it, where `onednn_strided` claims it (contiguous, within EXACT_BUDGET); else None."""
    if (x.dtype != np.float32 or w.dtype != np.float32 or x.ndim == 4 and any(
            memory_formats.suggest(a.shape, memory_formats.element_strides(a))
            is memory_formats.CHANNELS_LAST for a in (x, w))
            or not _affordable(x, w, stride, padding, dilation)
            or not onednn_strided.claimed(x.shape, w.shape, stride, padding, dilation, groups,
                                          cascade_sum.THREADS)):
        return None
    return onednn_strided.backward_data(g, w, x.shape, stride, padding)


def _bias_grad(g, groups: int):
    """The bias gradient: oneDNN (float32, one group) adds each channel's gradients one by one,
    batch by batch and position by position; ATen's other kernels take torch's sum."""
    dims = (0, *range(2, g.ndim))
    if g.dtype != np.float32 or groups != 1 or g.size == 0:
        return F.sum_values(g, g.shape, None, dims, False)
    rows = np.moveaxis(g, 1, 0).reshape(g.shape[1], -1)
    return np.add.accumulate(rows, axis=1, dtype=np.float32)[:, -1]


# ---- rows ---------------------------------------------------------------------------------------

_CONV_PARAMS = ("stride", "padding", "dilation", "transposed", "output_padding", "groups")


def _conv_grad(index):
    def rule(g, x, w, b, **params):
        mask = tuple(i == index for i in range(3))
        return convolution_backward(g, x, w, mask=mask, **params)[index]
    return rule


def convolution_backward(g, x, w, *, mask, **params):
    if not params["transposed"] and any(params["output_padding"]):  # a double backward's conv
        raise errors.runtime("output_padding is not supported for non-transposed convolutions; "
                             f"got: {' '.join(map(str, params['output_padding']))}")
    return apply(OPS["convolution_backward"], g, x, w, mask=mask, **params)


def _masked(grads, mask) -> list:
    """The grads of the outputs this node computed (the others are placeholders)."""
    return [g if wanted else None for g, wanted in zip(grads, mask)]


def _double_backward_grad_output(gg, g, x, w, **params):
    """ggO = conv(ggI, w) + conv(x, ggW) + ggb, for the grads that reach this node."""
    ggI, ggW, ggb = _masked(gg, params.pop("mask"))
    total = None
    if ggI is not None:
        total = convolution(ggI, w, None, **params)
    if ggW is not None:
        term = convolution(x, ggW, None, **params)
        total = term if total is None else F.add(total, term)
    if ggb is not None:
        shape = [1] * g.ndim
        shape[1] = ggb.shape[0]
        term = F.expand(F.view(F.contiguous(ggb), tuple(shape)), g.shape)
        total = term if total is None else F.add(total, term)
    return total


def _double_backward_input(gg, g, x, w, stride, padding, dilation, transposed, output_padding,
                           groups, mask):
    """gI = convT(gO, ggW) (conv when transposed), narrowed to the input's size."""
    ggW = _masked(gg, mask)[1]
    if ggW is None:
        return None
    if transposed:
        result = convolution(g, ggW, None, stride, padding, dilation, False, output_padding,
                             groups)
        for i in range(2, result.ndim):
            if result.shape[i] > x.shape[i]:
                result = F.narrow(result, i, 0, x.shape[i])
        return result
    output_padding = list(output_padding)
    for i in range(len(stride)):
        expected = ((w.shape[2 + i] - 1) * dilation[i] - 2 * padding[i]
                    + (stride[i] * (g.shape[2 + i] - 1) + 1))
        if expected != x.shape[2 + i]:
            output_padding[i] = x.shape[2 + i] - expected
    return convolution(g, ggW, None, stride, padding, dilation, True, tuple(output_padding),
                       groups)


def _double_backward_weight(gg, g, x, w, stride, padding, dilation, transposed, output_padding,
                            groups, mask):
    """gW = conv(ggI, gO) over the batch (stride and dilation swapped), per group."""
    ggI = _masked(gg, mask)[0]
    if ggI is None:
        return None
    gOt, ggIt = F.transpose(g, 0, 1), F.transpose(ggI, 0, 1)
    parts = []
    for group in range(groups):
        a, b = ggIt, gOt
        if groups > 1:
            a = F.narrow(ggIt, 0, ggIt.shape[0] // groups * group, ggIt.shape[0] // groups)
            b = F.narrow(gOt, 0, gOt.shape[0] // groups * group, gOt.shape[0] // groups)
        if transposed:
            a, b = b, a
        parts.append(convolution(a, b, None, dilation, padding, stride, False, output_padding,
                                 1))
    result = F.transpose(parts[0] if groups == 1 else F.cat(parts, 1), 0, 1)
    for i in range(2, result.ndim):
        if result.shape[i] > w.shape[i]:
            result = F.narrow(result, i, 0, w.shape[i])
    return result


def _bias_tangent(t, x, w, b, out, **params):
    return F.reshape(t, (1, -1) + (1,) * (out.ndim - 2))


defop("convolution", "ConvolutionBackward0", _convolution, save=(0, 1), promote="none",
      vjp=(_conv_grad(0), _conv_grad(1), _conv_grad(2)),
      jvp=(lambda t, x, w, b, out, **params: F.apply_op("convolution", t, w, None, **params),
           lambda t, x, w, b, out, **params: F.apply_op("convolution", x, t, None, **params),
           _bias_tangent))  # linear in each of input, weight and bias
defop("convolution_backward", "ConvolutionBackwardBackward0", _convolution_backward,
      promote="none", n_outputs=3, differentiable_outputs=None, save=(0, 1, 2),
      vjp=(_double_backward_grad_output, _double_backward_input, _double_backward_weight))


def _pairs(value, n: int) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(value) * n if len(value) == 1 else tuple(value)
    return (value,) * n


def _sizes(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def convolution(x: Tensor, w: Tensor, b, stride, padding, dilation, transposed: bool,
                output_padding, groups: int) -> Tensor:
    spatial = w.ndim - 2
    return apply(OPS["convolution"], x, w, b, stride=_pairs(stride, spatial),
                 padding=_pairs(padding, spatial), dilation=_pairs(dilation, spatial),
                 transposed=transposed, output_padding=_pairs(output_padding, spatial),
                 groups=groups)


def _check_weight_groups(w, groups: int) -> None:
    """ATen's checks that the weight's first dimension splits into `groups`."""
    if w.shape[0] < groups:
        raise errors.runtime(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but "
            f"got weight of size {_sizes(w.shape)} instead")
    if w.shape[0] % groups:
        raise errors.runtime(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{_sizes(w.shape)}] instead")


def _check_conv(x: Tensor, w: Tensor, b, padding, dilation, groups: int, spatial: int,
                name: str) -> None:
    if x.ndim not in (spatial + 1, spatial + 2):
        raise errors.runtime(
            f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to {name}, "
            f"but got input of size: {_sizes(x.shape)}")
    if w.ndim != spatial + 2:
        raise errors.runtime(
            "weight should have at least three dimensions" if w.ndim < 3 else
            f"Expected {w.ndim}-dimensional input for {w.ndim}-dimensional weight "
            f"{_sizes(w.shape)}, but got {x.ndim}-dimensional input of size {_sizes(x.shape)} "
            "instead")
    if groups <= 0:
        raise errors.runtime("non-positive groups is not supported")
    _check_weight_groups(w, groups)
    channels = x.shape[1] if x.ndim == spatial + 2 else x.shape[0]
    if channels != w.shape[1] * groups:
        shown = x.shape if x.ndim == spatial + 2 else (1, *x.shape)
        raise errors.runtime(
            f"Given groups={groups}, weight of size {_sizes(w.shape)}, expected "
            f"input{_sizes(shown)} to have {w.shape[1] * groups} channels, but got {channels} "
            "channels instead")
    if b is not None and (b.ndim != 1 or b.shape[0] != w.shape[0]):
        raise errors.runtime(
            f"Given weight of size {_sizes(w.shape)}, expected bias to be 1-dimensional with "
            f"{w.shape[0]} elements, but got bias of size {_sizes(b.shape)} instead")
    sizes = x.shape[-spatial:]
    padded = [sizes[i] + 2 * padding[i] for i in range(spatial)]
    kernel = [dilation[i] * (w.shape[2 + i] - 1) + 1 for i in range(spatial)]
    if any(p < k for p, k in zip(padded, kernel)):
        raise errors.runtime(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than "
            "actual input size")
    for t in (w, b):
        if t is not None and t.dtype is not x.dtype:
            raise errors.scalar_type_mismatch(x.dtype, t.dtype)


def _check_kernel(kernel: tuple) -> None:
    """The CPU kernels' refusal of an empty kernel (a 1-d one seen as 2-d of height 1)."""
    if min(kernel) > 0:
        return
    if len(kernel) == 3:
        raise errors.runtime("kernel size should be greater than zero, but got: "
                             f"{' x '.join(map(str, kernel))} (TxHxW)")
    height, width = (1, *kernel) if len(kernel) == 1 else kernel
    raise errors.runtime(f"kernel size should be greater than zero, but got kernel_height: "
                         f"{height} kernel_width: {width}")


_SAME_COPY_WARNING = triggered(
    "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
    "copy of the input be created", "aten/src/ATen/native/Convolution.cpp", 1101)


def _conv_nd(x: Tensor, w: Tensor, b, stride, padding, dilation, groups: int, spatial: int,
             name: str) -> Tensor:
    if b is not None and b.dtype is not x.dtype and not isinstance(padding, str):
        raise errors.runtime(f"Input type ({x.dtype.cpp_name}) and bias type "
                             f"({b.dtype.cpp_name}) should be the same")
    stride, dilation = _pairs(stride, spatial), _pairs(dilation, spatial)
    pad_left = None
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise errors.runtime(f"Invalid padding string: '{padding}'")
        if padding == "valid":
            padding = (0,) * spatial
        else:
            if any(s != 1 for s in stride):
                raise errors.runtime("padding='same' is not supported for strided convolutions")
            total = [dilation[i] * (w.shape[2 + i] - 1) if w.ndim == spatial + 2 else 0
                     for i in range(spatial)]
            padding = tuple(t // 2 for t in total)
            if any(t % 2 for t in total):
                pad_left = total
    padding = _pairs(padding, spatial)
    if pad_left is not None:  # asymmetric 'same': pad the extra element on the right first
        STATE.warn("UserWarning", _SAME_COPY_WARNING, once=True)
        extra = []
        for t in reversed(pad_left):
            extra += [0, t % 2]
        x = F.constant_pad_nd(x, tuple(extra), 0.0)
    dim = w.ndim - 2
    if dim > 0 and groups > 0:  # aten::convolution's parameter checks
        stride, padding, dilation = (_expand_param(tuple(value), label, dim) for value, label in (
            (stride, "stride"), (padding, "padding"), (dilation, "dilation")))
        if any(p < 0 for p in padding):
            raise errors.runtime("negative padding is not supported")
        if any(s <= 0 for s in stride):
            raise errors.runtime("non-positive stride is not supported")
        if any(d < 0 for d in dilation):
            raise errors.runtime("dilation should be greater than zero")
    _check_conv(x, w, b, padding, dilation, groups, spatial, name)
    if any(d <= 0 for d in dilation):  # the CPU kernel's own check
        raise errors.runtime(f"dilation should be greater than zero, but got {_sizes(dilation)}")
    _check_kernel(w.shape[2:])
    unbatched = x.ndim == spatial + 1
    if unbatched:
        x = F.unsqueeze(x, 0)
    y = convolution(x, w, b, stride, padding, dilation, False, (0,) * spatial, groups)
    return F.squeeze(y, 0) if unbatched else y


def conv1d(x: Tensor, weight: Tensor, bias=None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    x, weight, bias = autocast.cast_lower(x, weight, bias)
    return _conv_nd(x, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(x: Tensor, weight: Tensor, bias=None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    x, weight, bias = autocast.cast_lower(x, weight, bias)
    return _conv_nd(x, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(x: Tensor, weight: Tensor, bias=None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    x, weight, bias = autocast.cast_lower(x, weight, bias)
    return _conv_nd(x, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _expand_param(values: tuple, name: str, dim: int) -> tuple:
    """ATen's expand_param_if_needed: one value stands for every spatial dimension."""
    if len(values) == 1:
        return values * dim
    if len(values) != dim:
        raise errors.runtime(
            f"expected {name} to be a single integer value or a list of {dim} values to match "
            f"the convolution dimensions, but got {name}={_sizes(values)}")
    return values


def _check_transposed_kernel(x: Tensor, w: Tensor, stride, padding, output_padding,
                             dilation) -> None:
    """slow_conv_transpose2d's shape check (a 1-d convolution seen as 2-d with height 1)."""
    if w.ndim == 3:
        w_shape, x_size = (*w.shape[:2], 1, w.shape[2]), (1, x.shape[-1])
        stride, padding, output_padding, dilation = (
            (1, *stride), (0, *padding), (0, *output_padding), (1, *dilation))
    else:
        w_shape, x_size = w.shape, x.shape[-2:]
    kernel = w_shape[2:]
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise errors.runtime(f"kernel size should be greater than zero, but got kernel_height: "
                             f"{kernel[0]} kernel_width: {kernel[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise errors.runtime(f"dilation should be greater than zero, but got dilation_height: "
                             f"{dilation[0]}, dilation_width: {dilation[1]}")
    if not all(output_padding[i] < stride[i] or output_padding[i] < dilation[i]
               for i in range(2)):
        raise errors.runtime(
            "output padding must be smaller than either stride or dilation, but got "
            f"output_padding_height: {output_padding[0]} output_padding_width: "
            f"{output_padding[1]} stride_height: {stride[0]} stride_width: {stride[1]} "
            f"dilation_height: {dilation[0]} dilation_width: {dilation[1]}")
    if w.numel() == 0:
        raise errors.runtime(f"non-empty 2D or 4D weight tensor expected, but got: "
                             f"{_sizes(w_shape)}")
    out = [(x_size[i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1) + 1
           + output_padding[i] for i in range(2)]
    if out[0] < 1 or out[1] < 1:
        raise errors.runtime(
            f"Given input size per channel: ({x_size[0]} x {x_size[1]}). Calculated output size "
            f"per channel: ({out[0]} x {out[1]}). Output size is too small")


def _check_transposed_kernel_3d(x: Tensor, w: Tensor, stride, padding, output_padding,
                                dilation) -> None:
    """slow_conv_transpose3d's shape check, after aten::convolution's."""
    axes = ("depth", "height", "width")
    if any(d <= 0 for d in dilation):
        raise errors.runtime("dilation should be greater than zero, but got " + ", ".join(
            f"dilation_{axis}: {d}" for axis, d in zip(axes, dilation)))
    if not all(output_padding[i] < stride[i] or output_padding[i] < dilation[i]
               for i in range(3)):
        raise errors.runtime("output padding must be smaller than either stride or dilation, but "
                             "got " + " ".join(f"{name}_{axis}: {value}" for name, values in (
                                 ("output_padding", output_padding), ("stride", stride),
                                 ("dilation", dilation)) for axis, value in zip(axes, values)))
    if w.numel() == 0:
        raise errors.runtime("non-empty 5D (n_output_plane x n_input_plane x kernel_depth x "
                             "kernel_height x kernel_width) tensor expected for weight, but got: "
                             f"{_sizes(w.shape)}")
    size = x.shape[-3:]
    out = [(size[i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (w.shape[2 + i] - 1) + 1
           + output_padding[i] for i in range(3)]
    if any(o < 1 for o in out):
        raise errors.runtime(
            f"Given input size per channel: ({' x '.join(map(str, size))}). Calculated output "
            f"size per channel: ({' x '.join(map(str, out))}). Output size is too small")


def _check_transposed(x: Tensor, w: Tensor, b, stride, padding, output_padding, dilation,
                      groups: int) -> tuple:
    """aten::convolution's checks of a transposed convolution in its order, then its CPU
    kernel's; gives the spatial parameters expanded to the weight's dimensions."""
    dim = w.ndim - 2
    if dim <= 0:
        raise errors.runtime("weight should have at least three dimensions")
    if groups <= 0:
        raise errors.runtime("non-positive groups is not supported")
    stride, padding, dilation, output_padding = (
        _expand_param(value, name, dim) for value, name in (
            (stride, "stride"), (padding, "padding"), (dilation, "dilation"),
            (output_padding, "output_padding")))
    if any(p < 0 for p in padding):
        raise errors.runtime("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise errors.runtime("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise errors.runtime("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise errors.runtime("dilation should be greater than zero")
    if w.ndim != x.ndim:
        raise errors.runtime(
            f"Expected {w.ndim}-dimensional input for {w.ndim}-dimensional weight "
            f"{_sizes(w.shape)}, but got {x.ndim}-dimensional input of size {_sizes(x.shape)} "
            "instead")
    _check_weight_groups(w, groups)
    if x.shape[1] != w.shape[0]:
        raise errors.runtime(
            f"Given transposed=1, weight of size {_sizes(w.shape)}, expected input"
            f"{_sizes(x.shape)} to have {w.shape[0]} channels, but got {x.shape[1]} channels "
            "instead")
    if b is not None and (b.ndim != 1 or b.shape[0] != w.shape[1] * groups):
        raise errors.runtime(
            f"Given transposed=1, weight of size {_sizes(w.shape)}, expected bias to be "
            f"1-dimensional with {w.shape[1] * groups} elements, but got bias of size "
            f"{_sizes(b.shape)} instead")
    if x.numel() == 0 and 0 not in x.shape[:2]:
        raise errors.runtime("Only zero batch or zero channel inputs are supported, but got "
                             f"input shape: {_sizes(x.shape)}")
    if dim <= 2:
        _check_transposed_kernel(x, w, stride, padding, output_padding, dilation)
    elif dim == 3:
        _check_transposed_kernel_3d(x, w, stride, padding, output_padding, dilation)
    if x.dtype.category < dtypes.FLOATING and x.dtype is not dtypes.int64:
        raise errors.not_implemented_for(f"slow_conv_transpose{max(dim, 2)}d_out_cpu", x.dtype)
    if w.dtype is not x.dtype:
        raise errors.scalar_type_mismatch(x.dtype, w.dtype)
    return stride, padding, dilation, output_padding


def _conv_transpose_nd(x: Tensor, w: Tensor, b, stride, padding, output_padding, groups: int,
                       dilation, spatial: int) -> Tensor:
    """F.conv_transposeNd: batchify, then aten::convolution with transposed=True."""
    name = f"conv_transpose{spatial}d"
    if x.ndim not in (spatial + 1, spatial + 2):
        raise errors.runtime(
            f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to {name}, "
            f"but got input of size: {_sizes(x.shape)}")
    unbatched = x.ndim == spatial + 1
    if unbatched:
        x = F.unsqueeze(x, 0)
    params = _check_transposed(x, w, b, *(_pairs(v, spatial) for v in (
        stride, padding, output_padding, dilation)), groups)
    stride, padding, dilation, output_padding = params
    y = convolution(x, w, b, stride, padding, dilation, True, output_padding, groups)
    return F.squeeze(y, 0) if unbatched else y


def conv_transpose1d(x: Tensor, weight: Tensor, bias=None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    x, weight, bias = autocast.cast_lower(x, weight, bias)
    return _conv_transpose_nd(x, weight, bias, stride, padding, output_padding, groups,
                              dilation, 1)


def conv_transpose2d(x: Tensor, weight: Tensor, bias=None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    x, weight, bias = autocast.cast_lower(x, weight, bias)
    return _conv_transpose_nd(x, weight, bias, stride, padding, output_padding, groups,
                              dilation, 2)


def conv_transpose3d(x: Tensor, weight: Tensor, bias=None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    x, weight, bias = autocast.cast_lower(x, weight, bias)
    return _conv_transpose_nd(x, weight, bias, stride, padding, output_padding, groups,
                              dilation, 3)


# ---- pooling ------------------------------------------------------------------------------------

def _pool_out(size, k, s, p, d, ceil_mode):
    numerator = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = numerator // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _unbatched_too(ndim: int):
    """A decorator: a kernel over batched `ndim`-D arrays (and its array arguments) that also
    takes them without the batch dimension, as torch's pooling kernels do."""
    def wrap(kernel):
        def run(x, *args, **params):
            if x.ndim == ndim - 1:
                out = kernel(x[None], *(a[None] if isinstance(a, np.ndarray) else a
                                        for a in args), **params)
                return tuple(o[0] for o in out) if isinstance(out, tuple) else out[0]
            return kernel(x, *args, **params)
        return run
    return wrap


_batched = _unbatched_too(4)


def lowest(dtype):
    """What pads a max pool's input: below every value of the dtype."""
    return -np.inf if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).min


def _max_pool2d(x, kernel, stride, padding, dilation, ceil_mode):
    n, c, h, w = x.shape
    out = tuple(_pool_out(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i],
                          ceil_mode) for i in range(2))
    extra = [max(0, (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
                 - x.shape[2 + i] - padding[i]) for i in range(2)]
    padded = np.pad(x, [(0, 0), (0, 0), (padding[0], extra[0]), (padding[1], extra[1])],
                    constant_values=lowest(x.dtype))
    positions = np.arange(h * w).reshape(h, w)
    positions = np.pad(positions, [(padding[0], extra[0]), (padding[1], extra[1])],
                       constant_values=-1)
    window = kernel[0] * kernel[1]  # (not -1: an empty batch has no size to infer it from)
    cols = _windows(padded, kernel, stride, dilation, out).reshape(n, c, *out, window)
    index_cols = _windows(positions[None, None], kernel, stride, dilation, out).reshape(
        1, 1, *out, window)
    nan = np.isnan(cols)
    picked = np.where(nan.any(-1), nan.argmax(-1), cols.argmax(-1))
    values = np.take_along_axis(cols, picked[..., None], -1)[..., 0]
    indices = np.take_along_axis(np.broadcast_to(index_cols, cols.shape), picked[..., None],
                                 -1)[..., 0]
    return values.astype(x.dtype), indices.astype(np.int64)


def _max_pool2d_backward(g, x, **params):
    if x.ndim == 3:
        return _max_pool2d_backward(g[None], x[None], **params)[0]
    _, indices = _max_pool2d(x, **params)
    n, c = x.shape[:2]
    out = np.zeros((n * c, x.shape[2] * x.shape[3]), g.dtype)
    rows = np.repeat(np.arange(n * c), math.prod(indices.shape[2:]))
    np.add.at(out, (rows, indices.reshape(-1)), g.reshape(-1))
    return out.reshape(x.shape)


def _max_pool_double_backward(gg, x, params):
    _, indices = _batched(_max_pool2d)(x.data, **params)
    n, c = (1, indices.shape[0]) if indices.ndim == 3 else indices.shape[:2]
    index = Tensor(indices.reshape(n, c, -1), dtypes.int64)
    return F.view(F.gather(F.reshape(gg, (n, c, -1)), 2, index), indices.shape)


def _max_pool2d_grad(g, x, **params):
    return F.apply_op("max_pool2d_with_indices_backward", g[0], x, **params)


defop("max_pool2d_with_indices", "MaxPool2DWithIndicesBackward0", _batched(_max_pool2d),
      promote="none", n_outputs=2, out_dtype=lambda dtype, params: (dtype, dtypes.int64),
      save=(0,), vjp=_max_pool2d_grad, refuses=("max_pool2d", (dtypes.BOOL,)))
defop("max_pool2d_with_indices_backward", "MaxPool2DWithIndicesBackwardBackward0",
      _max_pool2d_backward, promote="none", save=(1,),
      vjp=(lambda gg, g, x, **p: _max_pool_double_backward(gg, x, p),
           lambda gg, g, x, **p: F.zeros_for(x)))


def _avg_windows(size, k, s, p, out):
    """(start, stop, pool size with padding) of each output along one dimension."""
    rows = []
    for o in range(out):
        start = o * s - p
        stop = min(start + k, size + p)
        rows.append((start, stop, stop - start))
    return rows


def _avg_plan(x_shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    out = tuple(_pool_out(x_shape[2 + i], kernel[i], stride[i], padding[i], 1, ceil_mode)
                for i in range(2))
    plan = []
    rows = [_avg_windows(x_shape[2 + i], kernel[i], stride[i], padding[i], out[i])
            for i in range(2)]
    for oh, (h0, h1, hp) in enumerate(rows[0]):
        for ow, (w0, w1, wp) in enumerate(rows[1]):
            hs, he = max(h0, 0), min(h1, x_shape[2])
            ws, we = max(w0, 0), min(w1, x_shape[3])
            if divisor_override:
                divisor = divisor_override
            elif count_include_pad:
                divisor = hp * wp
            else:
                divisor = (he - hs) * (we - ws)
            plan.append((oh, ow, hs, he, ws, we, divisor))
    return out, plan


def _window_sum(x, hs, he, ws, we):
    total = None
    for i in range(hs, he):
        for j in range(ws, we):
            total = x[:, :, i, j].copy() if total is None else total + x[:, :, i, j]
    return total if total is not None else np.zeros(x.shape[:2], x.dtype)


def _avg_pool2d(x, **params):
    out, plan = _avg_plan(x.shape, **params)
    result = np.zeros((*x.shape[:2], *out), x.dtype)
    for oh, ow, hs, he, ws, we, divisor in plan:
        result[:, :, oh, ow] = _window_sum(x, hs, he, ws, we) / x.dtype.type(divisor)
    return result


def _avg_pool2d_backward(g, x, input_shape, **params):
    _, plan = _avg_plan(input_shape, **params)
    result = np.zeros(input_shape, g.dtype)
    for oh, ow, hs, he, ws, we, divisor in plan:
        result[:, :, hs:he, ws:we] += (g[:, :, oh, ow] / g.dtype.type(divisor))[:, :, None, None]
    return result


defop("avg_pool2d", "AvgPool2DBackward0", _avg_pool2d, promote="none", save=(0,),
      refuses=("avg_pool2d", NOT_FLOATING_OR_LONG),
      vjp=lambda g, x, **p: F.apply_op("avg_pool2d_backward", g, x, input_shape=x.shape,
                                       **p))
defop("avg_pool2d_backward", "AvgPool2DBackwardBackward0", _avg_pool2d_backward,
      promote="none", save=(),
      vjp=(lambda gg, g, x, input_shape, **p: F.apply_op("avg_pool2d", gg, **p),
           lambda gg, g, x, **p: _zeros_like_input(gg, p)))


def _zeros_like_input(gg, params):
    return F.zeros_of(params["input_shape"], gg.dtype)


def _adaptive_plan(x_shape, output_size):
    plan = []
    size_h, size_w = x_shape[2], x_shape[3]
    out_h, out_w = output_size
    for oh in range(out_h):
        hs, he = (oh * size_h) // out_h, -((-(oh + 1) * size_h) // out_h)
        for ow in range(out_w):
            ws, we = (ow * size_w) // out_w, -((-(ow + 1) * size_w) // out_w)
            plan.append((oh, ow, hs, he, ws, we, (he - hs) * (we - ws)))
    return plan


def _adaptive_avg_pool2d(x, output_size):
    """Each window's sum divided by its height, then by its width, as ATen's kernel does."""
    result = np.zeros((*x.shape[:2], *output_size), x.dtype)
    size = x.dtype.type
    for oh, ow, hs, he, ws, we, _ in _adaptive_plan(x.shape, output_size):
        result[:, :, oh, ow] = _window_sum(x, hs, he, ws, we) / size(he - hs) / size(we - ws)
    return result


def _adaptive_avg_pool2d_backward(g, x, output_size, input_shape):
    result = np.zeros(input_shape, g.dtype)
    size = g.dtype.type
    for oh, ow, hs, he, ws, we, _ in _adaptive_plan(input_shape, output_size):
        share = g[:, :, oh, ow] / size(he - hs) / size(we - ws)
        result[:, :, hs:he, ws:we] += share[:, :, None, None]
    return result


defop("_adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", _adaptive_avg_pool2d,
      promote="none", save=(0,), refuses=("adaptive_avg_pool2d", NOT_FLOATING),
      vjp=lambda g, x, output_size: F.apply_op("_adaptive_avg_pool2d_backward", g, x,
                                               output_size=output_size, input_shape=x.shape))
defop("_adaptive_avg_pool2d_backward", "AdaptiveAvgPool2DBackwardBackward0",
      _adaptive_avg_pool2d_backward, promote="none",
      vjp=(lambda gg, g, x, output_size, input_shape: F.apply_op(
          "_adaptive_avg_pool2d", gg, output_size=output_size),
           lambda gg, g, x, **p: _zeros_like_input(gg, p)))


# ---- pooling functions --------------------------------------------------------------------------

def _as_4d(x: Tensor, name: str):
    if x.ndim not in (3, 4):
        raise errors.runtime("non-empty 3D or 4D (batch mode) tensor expected for input")
    return (F.unsqueeze(x, 0), True) if x.ndim == 3 else (x, False)


def _check_pool(x: Tensor, kernel, stride, padding, dilation, ceil_mode,
                shape_check=None) -> tuple:
    """torch's pooling_output_shape for each spatial size (its stride and padding checks), then
    `shape_check` where given and the output size check of its pool2d_shape_check (3-d pools'
    shape checks make their own)."""
    n = len(kernel)
    for i in range(n):
        if stride[i] == 0:
            raise errors.runtime("stride should not be zero")
        if padding[i] < 0:
            raise errors.runtime(f"pad must be non-negative, but got pad: {padding[i]}")
        if padding[i] > int((dilation[i] * (kernel[i] - 1) + 1) / 2):  # C++'s division
            raise errors.runtime(
                f"pad should be at most half of effective kernel size, but got pad={padding[i]}, "
                f"kernel_size={kernel[i]} and dilation={dilation[i]}")
    out = tuple(_pool_out(x.shape[-n + i], kernel[i], stride[i], padding[i], dilation[i],
                          ceil_mode) for i in range(n))
    if shape_check is not None:
        shape_check()
    if any(o < 1 for o in out):
        lead = x.shape[-3]
        raise errors.runtime(
            f"Given input size: ({lead}x{x.shape[-2]}x{x.shape[-1]}). Calculated output size: "
            f"({lead}x{out[0]}x{out[1]}). Output size is too small")
    return out


# ATen's rules for a pool's int lists: (argument, what it must be, whether it may be empty)
_POOL_LISTS = (("kernel_size", "must either be a single int, or a tuple of {} ints", False),
               ("stride", "must either be omitted, a single int, or a tuple of {} ints", True),
               ("padding", "must either be a single int, or a tuple of {} ints", False),
               ("dilation", "must be either a single int, or a tuple of {} ints", False))
_AVG_POOL3D_LISTS = tuple((argument, rule.replace("either ", ""), empty)
                          for argument, rule, empty in _POOL_LISTS)
_MAX_POOL1D_LISTS = (("kernel_size", "must be an int, list of ints or tuple of ints", False),
                     ("stride", "must be None, an int, list of ints, or tuple of ints", True),
                     ("padding", "must be an int, list of ints, or tuple of ints", False),
                     ("dilation", "must be an int, list of ints or tuple of ints", False))


def _check_pool_lists(name: str, lists: tuple) -> None:
    """The 2-d and 3-d pools' (and max_pool1d's) checks of how many ints each list argument
    holds, `lists` in the order of _POOL_LISTS (dilation omitted where the pool has none)."""
    most = int(name[-2])
    rules = {"max_pool1d": _MAX_POOL1D_LISTS, "avg_pool3d": _AVG_POOL3D_LISTS}.get(name,
                                                                                   _POOL_LISTS)
    for (argument, rule, may_be_empty), value in zip(rules, lists):
        size = 0 if value is None else len(value) if isinstance(value, (tuple, list)) else 1
        if not (size in (1, most) or (may_be_empty and size == 0)):
            raise errors.runtime(f"{name}() {argument} {rule} of size 1 but got size {size}"
                                 if most == 1 else
                                 f"{name}: {argument} {rule.format(('two', 'three')[most - 2])}")


def _pool_args(kernel_size, stride, padding, n: int = 2) -> tuple:
    kernel = _pairs(kernel_size, n)
    stride = kernel if stride is None or stride == () or stride == [] else _pairs(stride, n)
    return kernel, stride, _pairs(padding, n)


def max_pool2d_with_indices(x: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False):
    kernel, stride, padding = _pool_args(kernel_size, stride, padding)
    dilation = _pairs(dilation, 2)
    _as_4d(x, "max_pool2d")
    _check_pool(x, kernel, stride, padding, dilation, ceil_mode,
                _pool_shape_check(x, kernel, stride, padding, dilation))
    return apply(OPS["max_pool2d_with_indices"], x, kernel=kernel, stride=stride,
                 padding=padding, dilation=dilation, ceil_mode=bool(ceil_mode))


def _max_pool_parsed(n: int, x, kernel_size, stride, padding, dilation, ceil_mode,
                     return_indices) -> None:
    """F.max_poolNd hands its arguments to torch.max_poolNd (or ..._with_indices): that C++
    function's parser checks them, then its own code the input's dimensions."""
    name = f"max_pool{n}d" + ("_with_indices" if return_indices else "")
    schemas.bind_cpp(f"{name}(Tensor self, int[{n}] kernel_size, int[{n}] stride=[], "
                     f"int[{n}] padding=0, int[{n}] dilation=1, bool ceil_mode=False)",
                     x, kernel_size, [] if stride is None else stride, padding, dilation,
                     ceil_mode)
    lists = (kernel_size, stride, padding, dilation)
    if n == 2:
        _check_pool_lists("max_pool2d", lists)
    if n == 1 and return_indices:
        _check_1d(x, "max_pool1d", kernel_size=kernel_size, stride=stride or kernel_size,
                  padding=padding, dilation=dilation)
    elif n == 1:
        if x.ndim not in (2, 3) or 0 in x.shape[x.ndim - 2:]:
            raise errors.runtime("max_pool1d: Expected 2D or 3D (batch mode) tensor with "
                                 f"optional 0 dim batch size for input, but got:"
                                 f"{F.size_list(x.shape)}")
        _check_pool_lists("max_pool1d", lists)
        _check_max_pool1d_values(x, *_pool_args(kernel_size, stride, padding, 1),
                                 _pairs(dilation, 1), ceil_mode)
        if not x.dtype.is_floating_point:  # (max_pool1d_impl: only a tensor without grad)
            raise errors.not_implemented_for("max_pool1d_impl", x.dtype)
    if n == 2 and x.ndim not in (3, 4):
        raise errors.runtime("non-empty 3D or 4D (batch mode) tensor expected for input")


def _check_max_pool1d_values(x: Tensor, kernel, stride, padding, dilation, ceil_mode) -> None:
    """torch's check_max_pool1d after its list sizes: each value, then the output's length."""
    for name, value, fine in (("kernel_size", kernel[0], kernel[0] > 0),
                              ("stride", stride[0], stride[0] > 0),
                              ("padding", padding[0], padding[0] >= 0)):
        if not fine:
            rule = "be non-negative" if name == "padding" else "be greater than zero"
            raise errors.runtime(f"max_pool1d() {name} must {rule}, but got {value}")
    if padding[0] > kernel[0] // 2:
        raise errors.runtime("max_pool1d() padding should be at most half of kernel size, but "
                             f"got padding={padding[0]} and kernel_size={kernel[0]}")
    if dilation[0] <= 0:
        raise errors.runtime(f"max_pool1d() dilation must be greater than zero, but got "
                             f"{dilation[0]}")
    out = _pool_out(x.shape[-1], kernel[0], stride[0], padding[0], dilation[0], ceil_mode)
    if out <= 0:
        raise errors.runtime(f"max_pool1d() Invalid computed output size: {out}")


def max_pool2d(x: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    _max_pool_parsed(2, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices)
    values, indices = max_pool2d_with_indices(x, kernel_size, stride, padding, dilation,
                                              ceil_mode)
    return (values, indices) if return_indices else values


def max_pool1d(x: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    _max_pool_parsed(1, x, kernel_size, stride, padding, dilation, ceil_mode, return_indices)
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 1)
    values, indices = max_pool2d_with_indices(
        F.unsqueeze(x, -2), (1, kernel[0]), (1, stride[0]), (0, padding[0]),
        (1, _pairs(dilation, 1)[0]), ceil_mode)
    values = F.squeeze(values, -2)
    return (values, F.squeeze(indices, -2)) if return_indices else values


def _pool_shape_check(x: Tensor, kernel, stride, padding, dilation=(1, 1)):
    """torch's pool2d_shape_check, before its output size check."""
    def check():
        if kernel[0] <= 0 or kernel[1] <= 0:
            raise errors.runtime(f"kernel size should be greater than zero, but got kH: "
                                 f"{kernel[0]} kW: {kernel[1]}")
        if stride[0] <= 0 or stride[1] <= 0:
            raise errors.runtime(f"stride should be greater than zero, but got dH: {stride[0]} "
                                 f"dW: {stride[1]}")
        if dilation[0] <= 0 or dilation[1] <= 0:
            raise errors.runtime(f"dilation should be greater than zero, but got dilationH: "
                                 f"{dilation[0]} dilationW: {dilation[1]}")
        if x.ndim not in (3, 4) or 0 in x.shape[1:]:
            raise errors.runtime("Expected 3D or 4D (batch mode) tensor with optional 0 dim "
                                 f"batch size for input, but got:{_sizes(x.shape)}")
        if kernel[1] // 2 < padding[1] or kernel[0] // 2 < padding[0]:
            raise errors.runtime(
                f"pad should be smaller than or equal to half of kernel size, but got padW = "
                f"{padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}")
    return check


def avg_pool2d(x: Tensor, kernel_size, stride=(), padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    _check_pool_lists("avg_pool2d", (kernel_size, stride, padding))
    kernel, stride, padding = _pool_args(kernel_size, stride, padding)
    if divisor_override is not None and divisor_override == 0:
        raise errors.runtime("divisor must be not zero")
    F.size_at(x, -3)  # torch reads the input's sizes first
    _check_pool(x, kernel, stride, padding, (1, 1), ceil_mode,
                _pool_shape_check(x, kernel, stride, padding))
    x4, unbatched = _as_4d(x, "avg_pool2d")
    y = apply(OPS["avg_pool2d"], x4, kernel=kernel, stride=stride, padding=padding,
              ceil_mode=bool(ceil_mode), count_include_pad=bool(count_include_pad),
              divisor_override=divisor_override)
    return F.squeeze(y, 0) if unbatched else y


def _check_1d(x: Tensor, name: str, **arguments) -> None:
    """torch's checkDimRange (2 or 3 dimensions) and check1d of a 1-d pooling function."""
    if x.ndim not in (2, 3):
        raise errors.runtime(f"Expected 2 to 3 dimensions, but got {x.ndim}-dimensional tensor "
                             f"for argument #1 'self' (while checking arguments for {name})")
    for argument, value in arguments.items():
        if isinstance(value, (tuple, list)) and len(value) != 1:
            raise errors.runtime(f"{name}() argument '{argument}' should contain one int (got "
                                 f"{len(value)})")


def avg_pool1d(x: Tensor, kernel_size, stride=(), padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    _check_1d(x, "avg_pool1d", kernel_size=kernel_size, stride=stride or kernel_size,
              padding=padding)
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 1)
    y = avg_pool2d(F.unsqueeze(x, -2), (1, kernel[0]), (1, stride[0]), (0, padding[0]),
                   ceil_mode, count_include_pad)
    return F.squeeze(y, -2)


def _list_with_default(output_size, shape: tuple):
    """torch's _list_with_default: an int as it is, else the sizes with None ones taken from
    the input's last dimensions."""
    if isinstance(output_size, int):
        return output_size
    if isinstance(output_size, Tensor):
        if output_size.ndim == 0:
            raise errors.type_error("len() of a 0-d tensor")
        output_size = [F.select(output_size, 0, i) for i in range(output_size.shape[0])]
    if not isinstance(output_size, (tuple, list, str)):
        raise errors.type_error(f"object of type '{errors.type_name(output_size)}' has no len()")
    if len(shape) <= len(output_size):
        raise errors.value_error(f"Input dimension should be at least {len(output_size) + 1}")
    return [d if v is None else v for v, d in zip(output_size, shape[-len(output_size):])]


def adaptive_avg_pool2d(x: Tensor, output_size) -> Tensor:
    """F.adaptive_avg_pool2d: None sizes taken from the input, then torch's C++ checks in its
    order (a 1x1 output is the input's mean over its last two dimensions)."""
    given = _list_with_default(output_size, x.shape)
    sizes = schemas.bind_cpp("adaptive_avg_pool2d(Tensor self, int[2] output_size)", x,
                             given)["output_size"]
    if not isinstance(given, (tuple, list)):  # an int stands for both sizes
        sizes = sizes * 2
    if len(sizes) != 2:
        raise errors.runtime("adaptive_avg_pool2d: output_size must be 2")
    if sizes[0] < 0 or sizes[1] < 0:
        raise errors.runtime("adaptive_avg_pool2d: elements of output_size must be greater than "
                             f"or equal to 0 but received {{{sizes[0]}, {sizes[1]}}}")
    if sizes == (1, 1):
        return F.mean(x, (-1, -2), True)
    empty = next((d for d in range(1, x.ndim) if x.shape[d] == 0), None)
    if empty is not None:
        raise errors.runtime("adaptive_avg_pool2d(): Expected input to have non-zero size for "
                             f"non-batch dimensions, but input has sizes {_sizes(x.shape)} with "
                             f"dimension {empty} being empty")
    if x.ndim not in (3, 4):
        raise errors.runtime("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                             f"{_sizes(x.shape)}")
    x4, unbatched = _as_4d(x, "adaptive_avg_pool2d")
    y = apply(OPS["_adaptive_avg_pool2d"], x4, output_size=sizes)
    return F.squeeze(y, 0) if unbatched else y


def adaptive_avg_pool1d(x: Tensor, output_size) -> Tensor:
    _check_1d(x, "adaptive_avg_pool1d", output_size=output_size)
    size = output_size[0]
    return F.squeeze(adaptive_avg_pool2d(F.unsqueeze(x, -2), (1, size)), -2)


# ---- declarations -------------------------------------------------------------------------------

_CONV = ("(Tensor input, Tensor weight, Tensor? bias=None, int[{n}] stride=1, "
         "int[{n}] padding=0, int[{n}] dilation=1, int groups=1)")
_CONV_MODE = ("(Tensor input, Tensor weight, Tensor? bias=None, int[{n}] stride=1, "
              "str padding=\"valid\", int[{n}] dilation=1, int groups=1)")
for _n, _fn in ((1, conv1d), (2, conv2d), (3, conv3d)):
    declare(f"conv{_n}d", _fn, f"conv{_n}d" + _CONV.format(n=_n),
            f"conv{_n}d" + _CONV_MODE.format(n=_n), variants="torch functional")
for _n, _fn in ((1, conv_transpose1d), (2, conv_transpose2d), (3, conv_transpose3d)):
    declare(f"conv_transpose{_n}d", _fn, f"conv_transpose{_n}d(Tensor input, Tensor weight, "
            f"Tensor? bias=None, int[{_n}] stride=1, int[{_n}] padding=0, "
            f"int[{_n}] output_padding=0, int groups=1, int[{_n}] dilation=1)",
            variants="torch functional")
# torch's max_pool1d/2d dispatch on the truth of return_indices to _max_poolNd or ..._with_indices
for _n, _fn in ((1, max_pool1d), (2, max_pool2d)):
    declare(f"max_pool{_n}d", _fn, python="input, kernel_size, stride=None, padding=0, dilation=1, "
            "ceil_mode=False, return_indices=False; return_indices: truth",
            variants="functional", title=f"_max_pool{_n}d")
    # F.max_poolNd_with_indices: the return_indices=True form, whatever return_indices says
    declare(f"max_pool{_n}d_with_indices", lambda *args, _fn=_fn: _fn(*args[:6], True),
            python="input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, "
            "return_indices=False", variants="functional")
declare("avg_pool2d", avg_pool2d, "avg_pool2d(Tensor input, int[2] kernel_size, "
        "int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, "
        "int? divisor_override=None)", variants="functional")
declare("avg_pool1d", avg_pool1d, "avg_pool1d(Tensor input, int[1] kernel_size, "
        "int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True)",
        variants="torch functional")
declare("adaptive_avg_pool2d", adaptive_avg_pool2d, python="input, output_size; input: .size",
        variants="functional")
declare("adaptive_avg_pool1d", adaptive_avg_pool1d,
        "adaptive_avg_pool1d(Tensor input, int[1] output_size)", variants="torch functional")
del _n, _fn


export(__name__, globals())
