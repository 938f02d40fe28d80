"""Pooling that carries indices into each input plane: adaptive max pooling (1d/2d, with
AdaptiveMaxPool2DBackward0) and max unpooling (1d/2d/3d, MaxUnpool2DBackward0 and
MaxUnpool3DBackward0)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F
from gradcli.engine.forward_ad import LINEAR
from gradcli.engine.ops.convolution import (_adaptive_plan, _batched, _check_1d,
                                            _list_with_default, _pairs, _sizes)
from gradcli.engine.ops.registry import NOT_FLOATING, OPS, apply, defop
from gradcli.engine.tensor import Tensor


@_batched
def _adaptive_max_pool2d(x, output_size):
    """(N, C, H, W) -> the maximum of each adaptive window and its index in the H*W plane: the
    first maximum, or the last NaN (ATen's `val > maxval || isnan(val)`)."""
    n, c, _, width = x.shape
    values = np.empty((n, c, *output_size), x.dtype)
    indices = np.empty((n, c, *output_size), np.int64)
    for oh, ow, hs, he, ws, we, size in _adaptive_plan(x.shape, output_size):
        window = x[:, :, hs:he, ws:we].reshape(n, c, size)
        nan = np.isnan(window)
        last_nan = size - 1 - nan[..., ::-1].argmax(-1)
        picked = np.where(nan.any(-1), last_nan, window.argmax(-1))
        values[:, :, oh, ow] = np.take_along_axis(window, picked[..., None], -1)[..., 0]
        indices[:, :, oh, ow] = (hs + picked // (we - ws)) * width + ws + picked % (we - ws)
    return values, indices


def _gather_from_planes(gg: Tensor, indices: np.ndarray, spatial: int = 2) -> Tensor:
    """torch's max_pool_double_backward: gg (N, C, *S) or (C, *S), S `spatial` sizes, read at
    the indices."""
    lead = indices.shape[:-spatial]
    index = Tensor(np.ascontiguousarray(indices).reshape(*lead, -1), dtypes.int64)
    flat = F.reshape(gg, (*lead, -1))
    return F.view(F.gather(flat, flat.ndim - 1, index), indices.shape)


@_batched
def _adaptive_max_backward(g, x, output_size):
    """Each output's gradient added at its index in its input plane."""
    indices = _adaptive_max_pool2d(x, output_size)[1]
    planes = x.shape[0] * x.shape[1]
    out = np.zeros((planes, x.shape[2] * x.shape[3]), g.dtype)
    rows = np.repeat(np.arange(planes), indices.size // planes if planes else 0)
    np.add.at(out, (rows, indices.reshape(-1)), g.reshape(-1))
    return out.reshape(x.shape)


defop("adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", _adaptive_max_pool2d,
      promote="none", n_outputs=2, out_dtype=lambda dtype, params: (dtype, dtypes.int64),
      save=(0,), refuses=("adaptive_max_pool2d", NOT_FLOATING),
      vjp=lambda g, x, output_size: F.apply_op("adaptive_max_pool2d_backward", g[0], x,
                                               output_size=output_size))
defop("adaptive_max_pool2d_backward", "AdaptiveMaxPool2DBackwardBackward0",
      _adaptive_max_backward, promote="none", save=(1,),
      vjp=(lambda gg, g, x, output_size: _gather_from_planes(
          gg, _adaptive_max_pool2d(x.data, output_size)[1]),
           lambda gg, g, x, output_size: F.zeros_for(x)))


def _adaptive_max_pool2d_checked(x: Tensor, sizes: tuple) -> tuple:
    """ATen's adaptive_max_pool2d: its checks in order, then the row."""
    if x.ndim not in (3, 4):
        raise errors.runtime(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: "
                             f"{_sizes(x.shape)}")
    empty = next((d for d in range(1, x.ndim) if x.shape[d] == 0), None)
    if empty is not None:
        raise errors.runtime("adaptive_max_pool2d(): Expected input to have non-zero size for "
                             f"non-batch dimensions, but input has sizes {_sizes(x.shape)} with "
                             f"dimension {empty} being empty")
    shape = (*x.shape[:-2], *sizes)
    if any(s < 0 for s in sizes):
        raise errors.runtime(f"Trying to create tensor with negative dimension "
                             f"{min(sizes)}: {_sizes(shape)}")
    return apply(OPS["adaptive_max_pool2d"], x, output_size=tuple(sizes))


def _adaptive_max_pool2d_indices(x: Tensor, output_size) -> tuple:
    given = _list_with_default(output_size, x.shape)
    sizes = schemas.bind_cpp("adaptive_max_pool2d(Tensor self, int[2] output_size)", x,
                             given)["output_size"]
    if not isinstance(given, (tuple, list)):  # an int stands for both sizes
        sizes = tuple(sizes) * 2
    return _adaptive_max_pool2d_checked(x, sizes)


def adaptive_max_pool1d_indices(x: Tensor, output_size) -> tuple:
    """torch.adaptive_max_pool1d: the 2d pooling of the input with a height of one."""
    _check_1d(x, "adaptive_max_pool1d", output_size=output_size)
    values, indices = _adaptive_max_pool2d_checked(F.unsqueeze(x, -2), (1, output_size[0]))
    return F.squeeze(values, -2), F.squeeze(indices, -2)


def adaptive_max_pool2d(x: Tensor, output_size, return_indices: bool = False):
    values, indices = _adaptive_max_pool2d_indices(x, output_size)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d(x: Tensor, output_size, return_indices: bool = False):
    sizes = schemas.bind_cpp("adaptive_max_pool1d(Tensor self, int[1] output_size)", x,
                             output_size)["output_size"]
    values, indices = adaptive_max_pool1d_indices(x, sizes)
    return (values, indices) if return_indices else values


def _max_unpool(x, indices, output_size):
    """Each input value written at its index in a zero volume of output_size (the last write
    wins), batched or not; the last invalid index in memory order is ATen's error."""
    if x.ndim == len(output_size) + 1:
        return _max_unpool(x[None], indices[None], output_size)[0]
    n, c = x.shape[:2]
    area = int(np.prod(output_size))
    out = np.zeros((n * c, area), x.dtype)
    if area == 0:
        return out.reshape(n, c, *output_size)
    flat = indices.reshape(n * c, -1)
    invalid = np.flatnonzero((flat < 0) | (flat >= area))
    if invalid.size:
        raise errors.runtime(f"Found an invalid max index: {flat.reshape(-1)[invalid[-1]]} "
                             f"(output volumes are of size {'x'.join(map(str, output_size))})")
    out[np.arange(n * c)[:, None], flat] = x.reshape(n * c, -1)
    return out.reshape(n, c, *output_size)


for _n in (2, 3):
    defop(f"max_unpool{_n}d", f"MaxUnpool{_n}DBackward0", _max_unpool, promote="none", save=(1,),
          refuses=(f"max_unpool{_n}d", (dtypes.BOOL, dtypes.INTEGRAL)), jvp=LINEAR,
          vjp=(lambda g, x, indices, output_size: _gather_from_planes(
              g, indices.data, len(output_size)), None))


def max_unpool2d_sized(x: Tensor, indices: Tensor, output_size) -> Tensor:
    """torch._C._nn.max_unpool2d: ATen's checks in order, then the row."""
    _check_indices_type(indices, "max_unpool2d")
    if indices.dtype is not dtypes.int64:
        raise errors.runtime("elements in indices should be type int64 but got: "
                             f"{indices.dtype.scalar_name}")
    if len(output_size) != 2:
        raise errors.runtime("There should be exactly two elements (height, width) in "
                             f"output_size, but got {len(output_size)} elements.")
    if x.ndim not in (3, 4):
        raise errors.runtime("Input to max_unpooling2d should be a 3d or 4d Tensor, but got a "
                             f"tensor with {x.ndim} dimensions.")
    _check_unpool_input(x, indices, "max_unpooling2d_forward_out_cpu()")
    return apply(OPS["max_unpool2d"], x, indices, output_size=tuple(output_size))


def _check_indices_type(indices, name: str) -> None:
    """The argument parser's check of the indices' type."""
    if not isinstance(indices, Tensor):
        raise errors.type_error(f"{name}(): argument 'indices' (position 2) must be Tensor, not "
                                f"{errors.type_name(indices)}")


def _check_unpool_input(x: Tensor, indices: Tensor, name: str) -> None:
    """ATen's unpooling checks of the indices' shape and the input's empty dimensions."""
    if x.shape != indices.shape:
        raise errors.runtime("Expected shape of indices to be same as that of the input tensor ("
                             f"{_sizes(x.shape)}) but got indices tensor with shape: "
                             f"{_sizes(indices.shape)}")
    empty = next((d for d in range(1, x.ndim) if x.shape[d] == 0), None)
    if empty is not None:
        raise errors.runtime(f"{name}: Expected input to have non-zero size for non-batch "
                             f"dimensions, but got {_sizes(x.shape)} with dimension {empty} "
                             "being empty.")


def max_unpool3d_sized(x: Tensor, indices: Tensor, output_size, stride, padding) -> Tensor:
    """torch._C._nn.max_unpool3d: ATen's max_unpooling3d_shape_check in order, then the row."""
    _check_indices_type(indices, "max_unpool3d")
    if indices.dtype is not dtypes.int64:
        raise errors.runtime("elements in indices should be type int64")
    if x.ndim not in (4, 5):
        raise errors.runtime("Input to max_unpooling3d should be a 4d or 5d Tensor, but got a "
                             f"tensor with {x.ndim} dimensions.")
    for argument, values, got in (("output_size", output_size, ""), ("stride", stride, ":"),
                                  ("padding", padding, ":")):
        if len(values) != 3:
            raise errors.runtime("There should be exactly three elements (depth, height, width) "
                                 f"in {argument}, but got{got} {len(values)} elements.")
    _check_unpool_input(x, indices, "max_unpooling3d_forward_out_cpu()")
    if min(stride) <= 0:
        raise errors.runtime(f"strides should be greater than zero, but got stride: "
                             f"{_sizes(stride)}")
    return apply(OPS["max_unpool3d"], x, indices, output_size=tuple(output_size))


def _shown(sizes, given) -> str:
    """`sizes`, cut from the list, tuple or torch.Size `given`, as Python's f"{sizes}" shows
    it."""
    items = ", ".join(str(s) for s in sizes)
    if isinstance(given, list):
        return f"[{items}]"
    if type(given).__name__ == "Size":  # the language's torch.Size, a tuple
        return f"torch.Size([{items}])"
    return f"({items},)" if len(sizes) == 1 else f"({items})"


def _unpool_output_size(x: Tensor, kernel: tuple, stride: tuple, padding: tuple,
                        output_size) -> list:
    """torch's _unpool_output_size: the default size, or the given one within a stride of it
    (its first step reads input.size(), after the kernel, stride and padding were made tuples)."""
    if not isinstance(x, Tensor):
        raise errors.no_attribute(x, "size")
    n = len(kernel)
    try:  # torch's Python arithmetic, on whatever the arguments hold
        default = [(x.shape[-n + d] - 1) * stride[d] + kernel[d] - 2 * padding[d]
                   for d in range(n)]
    except IndexError:
        raise errors.TorchError("IndexError", "tuple index out of range") from None
    except TypeError as error:
        raise errors.type_error(str(error)) from None
    if output_size is None:
        result = default
    else:
        given = output_size
        if len(output_size) == n + 2:
            output_size = output_size[2:]
        if len(output_size) != n:
            raise errors.value_error(f"output_size should be a sequence containing {n} or "
                                     f"{n + 2} elements, but it has a length of "
                                     f"'{len(output_size)}'")
        for d in range(n):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < output_size[d] < high:
                raise errors.value_error(f'invalid output_size "{_shown(output_size, given)}" '
                                         f"(dim {d} must be between {low} and {high})")
        result = output_size
    for d in range(n):
        if result[d] < 0:
            raise errors.value_error("max_unpooling: output_size must contain non-negative "
                                     f"spatial dimensions, but got output_size[{d}]={result[d]}")
    return list(result)


def _ntuple(value, n: int) -> tuple:
    """torch's _ntuple: an iterable (a string too) as its tuple, else `value` n times."""
    return tuple(value) if isinstance(value, (str, tuple, list)) else _pairs(value, n)


def _unpool_arguments(n: int, kernel_size, stride, padding) -> tuple:
    for value in (kernel_size, stride, padding):  # torch's _pair makes a tuple of a tensor
        if isinstance(value, Tensor) and value.ndim == 0:
            raise errors.type_error("iteration over a 0-d tensor")
    kernel = _ntuple(kernel_size, n)
    return kernel, kernel if stride is None else _ntuple(stride, n), _ntuple(padding, n)


def max_unpool2d(x: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    kernel, stride, padding = _unpool_arguments(2, kernel_size, stride, padding)
    sizes = _unpool_output_size(x, kernel, stride, padding, output_size)
    return max_unpool2d_sized(x, indices, sizes)


def max_unpool3d(x: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    kernel, stride, padding = _unpool_arguments(3, kernel_size, stride, padding)
    sizes = _unpool_output_size(x, kernel, stride, padding, output_size)
    return max_unpool3d_sized(x, indices, sizes, stride, padding)


def max_unpool1d(x: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    kernel, stride, padding = _unpool_arguments(1, kernel_size, stride, padding)
    sizes = _unpool_output_size(x, kernel, stride, padding, output_size) + [1]
    if not isinstance(indices, Tensor):  # torch's Python: indices.unsqueeze(-1)
        raise errors.no_attribute(indices, "unsqueeze")
    return F.squeeze(max_unpool2d_sized(F.unsqueeze(x, -1), F.unsqueeze(indices, -1), sizes), -1)


declare("adaptive_max_pool1d", adaptive_max_pool1d_indices,
        "adaptive_max_pool1d(Tensor input, int[1] output_size)", variants="torch")
for _n, _fn, _input in ((1, adaptive_max_pool1d, "input"),
                        (2, adaptive_max_pool2d, "input: .size")):  # 2d reads input.size() first
    declare(f"adaptive_max_pool{_n}d", _fn, python=f"{_input}, output_size, return_indices=False; "
            "return_indices: truth", variants="functional", title=f"_adaptive_max_pool{_n}d")
    declare(f"adaptive_max_pool{_n}d_with_indices", lambda x, size, _, _fn=_fn: _fn(x, size, True),
            python=f"{'input: object' if _n == 1 else _input}, output_size, return_indices=False",
            variants="functional")  # 1d: the C++ adaptive_max_pool1d's parser checks input
for _n, _fn in ((1, max_unpool1d), (2, max_unpool2d), (3, max_unpool3d)):
    declare(f"max_unpool{_n}d", _fn, python="input: object, indices, kernel_size, stride=None, "
            "padding=0, output_size=None", variants="functional")
del _n, _fn, _input
