"""F.affine_grid and F.grid_sample (2-D): torch's base grid times theta (AffineGridGenerator
Backward0), and the CPU grid sampler's vectorized kernel (GridSampler2DBackward0), bilinear or
nearest with zeros, border or reflection padding.

The kernel runs 256-bit vectors on every capability: its products and sums are contracted into
fused multiply-adds (where the CPU has FMA), and its input gradient is scattered one vector of
output positions at a time, corner by corner (nw, ne, sw, se), which fixes the order of the sums.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import declarations, dtypes, errors
from gradcli.engine.cpu_capability import CAPABILITY
from gradcli.engine.creation import _linspace_values
from gradcli.engine.declarations import declare
from gradcli.engine.fma import fused
from gradcli.engine.functions import F
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

_VECTOR_BYTES = 32
_CONTRACTED = CAPABILITY != "default"
_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to "
                  "align_corners=False since 1.3.0. Please specify align_corners=True if the old "
                  "behavior is desired. See the documentation of grid_sample for details.")


def _mul_add(a, b, c):
    return fused(a, b, c) if _CONTRACTED else a * b + c


def _sizes(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


# ---- affine_grid ---------------------------------------------------------------------------------

def _linspace_from_neg_one(steps: int, align_corners: bool, dtype) -> np.ndarray:
    if steps <= 1:
        return np.zeros(1, dtype.np)
    values = _linspace_values(-1, 1, steps, dtype)
    if not align_corners:
        kind = dtype.np.type
        values = values * kind(steps - 1) / kind(steps)
    return values


def _base_grid(size, align_corners: bool, dtype) -> np.ndarray:
    """(N, [D,] H, W, dims + 1): x, y (and z) from -1 to 1, then ones."""
    spatial = list(size[2:])
    dims = len(spatial)
    base = np.empty([size[0], *spatial, dims + 1], dtype.np)
    for axis in range(dims):  # x runs along the last spatial dim, y the one before...
        shape = [1] * dims
        shape[dims - 1 - axis] = -1
        base[..., axis] = _linspace_from_neg_one(spatial[dims - 1 - axis], align_corners,
                                                 dtype).reshape(shape)
    base[..., dims] = 1
    return base


def _affine_grid(theta: np.ndarray, size, align_corners: bool) -> np.ndarray:
    """base_grid.view(N, -1, dims + 1).bmm(theta.transpose(1, 2)): torch's kernel sums the
    few products in order, unfused."""
    base = _base_grid(size, align_corners, dtypes.from_numpy(theta.dtype))
    rows = base.reshape(size[0], -1, base.shape[-1])
    out = rows[:, :, :1] * theta[:, None, :, 0]
    for k in range(1, rows.shape[-1]):
        out = out + rows[:, :, k:k + 1] * theta[:, None, :, k]
    return out.reshape(*base.shape[:-1], theta.shape[1])


def _affine_grid_backward(g: Tensor, size, align_corners: bool) -> Tensor:
    """affine_grid_generator_backward: base_grid^T @ grad, transposed back to (N, dims, dims+1)."""
    base = Tensor(_base_grid(size, align_corners, g.dtype), g.dtype)
    n, width = size[0], base.shape[-1]
    rows = F.view(base, (n, -1, width))
    return F.transpose(F.bmm(F.transpose(rows, 1, 2), F.reshape(g, (n, -1, width - 1))), 1, 2)


defop("affine_grid_generator", "AffineGridGeneratorBackward0", _affine_grid, promote="none",
      vjp=lambda g, theta, size, align_corners: _affine_grid_backward(g, size, align_corners))


def affine_grid_generator(theta: Tensor, size, align_corners: bool) -> Tensor:
    if theta.ndim == 3 and len(size) >= 4 and theta.shape[0] != size[0]:  # its bmm's check
        raise errors.runtime(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{size[0]}, {theta.shape[2]}] but got: [{theta.shape[0]}, {theta.shape[2]}].")
    return apply(OPS["affine_grid_generator"], theta, size=tuple(size),
                 align_corners=bool(align_corners))


def _given(size) -> str:
    """`size` as torch's f-string shows it: a tuple, a list or a torch.Size."""
    if isinstance(size, (Tensor, str)):
        return str(size)
    if isinstance(size, tuple) and type(size) is not tuple:
        return f"torch.Size({_sizes(size)})"
    return repr(size)


def affine_grid(theta: Tensor, size, align_corners=None) -> Tensor:
    if align_corners is None:
        STATE.warn("UserWarning", _ALIGN_WARNING)
        align_corners = False
    if not isinstance(theta, Tensor):
        raise errors.no_attribute(theta, "is_floating_point")
    if not theta.dtype.is_floating_point:
        raise errors.value_error(f"Expected theta to have floating point type, but got "
                                 f"{theta.dtype}")
    if isinstance(size, Tensor) and size.ndim == 0:
        raise errors.type_error("len() of a 0-d tensor")
    if not isinstance(size, (list, tuple, Tensor, str)):
        raise errors.type_error(f"object of type '{errors.type_name(size)}' has no len()")
    length = size.shape[0] if isinstance(size, Tensor) else len(size)
    if length in (4, 5):
        dims = length - 2
        if theta.ndim != 3 or theta.shape[-2] != dims or theta.shape[-1] != dims + 1:
            raise errors.value_error(
                f"Expected a batch of {dims}D affine matrices of shape Nx{dims}x{dims + 1} for "
                f"size {_given(size)}. Got torch.Size({_sizes(theta.shape)}).")
    else:
        raise errors.TorchError("NotImplementedError", (
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {_given(size)}."))
    if isinstance(size, str):  # torch's min(size) <= 0 compares characters with 0
        raise errors.type_error("'<=' not supported between instances of 'str' and 'int'")
    if isinstance(size, Tensor):  # its checks read the elements, then the C++ parser refuses it
        if size.ndim > 1:
            raise errors.runtime("Boolean value of Tensor with more than one value is ambiguous")
        values = size.data.tolist()
        if not (align_corners and min(values[2:]) == 1) and min(values) <= 0:
            raise errors.value_error(f"Expected non-zero, positive output size. Got "
                                     f"{_given(size)}")
        raise errors.type_error("affine_grid_generator(): argument 'size' (position 2) must be "
                                "tuple of ints, not Tensor")
    if align_corners and min(size[2:]) == 1:
        STATE.warn("UserWarning", "Since version 1.3.0, affine_grid behavior has changed for "
                   "unit-size grids when align_corners=True. This is not an intended use case "
                   "of affine_grid. See the documentation of affine_grid for details.")
    elif min(size) <= 0:
        raise errors.value_error(f"Expected non-zero, positive output size. Got {_given(size)}")
    return affine_grid_generator(theta, size, align_corners)


# ---- grid_sample -------------------------------------------------------------------------------

def _int_type(dtype):
    return np.int32 if dtype == np.float32 else np.int64


def _to_int(v: np.ndarray) -> np.ndarray:
    """convert_to_int_of_same_size: out-of-range and NaN values become the type's minimum."""
    kind = _int_type(v.dtype)
    info = np.iinfo(kind)
    bad = ~np.isfinite(v) | (v >= info.max) | (v < info.min)
    with np.errstate(invalid="ignore"):
        return np.where(bad, info.min, np.where(bad, 0, v).astype(kind))


def _clip(v, max_val):
    """clamp_max(max_val, clamp_min(0, v)): NaN becomes 0."""
    return np.minimum(max_val, np.where(np.isnan(v), v.dtype.type(0), np.maximum(0, v)))


def _clip_get_grad(v, max_val):
    """The clipped value and whether it is strictly inside (bit-unequal to 0 and max_val)."""
    kind = _int_type(v.dtype)
    low = np.maximum(v, v.dtype.type(0))
    result = np.minimum(low, max_val)
    inside = ((low.view(kind) != np.zeros(1, v.dtype).view(kind))
              & (result.view(kind) != np.full(1, max_val, v.dtype).view(kind)))
    return result, inside


def _locations(coord: np.ndarray, size: int, padding: int, align_corners: bool):
    """ComputeLocation.apply_get_grad: the source coordinate and d coordinate / d grid."""
    kind = coord.dtype.type
    one = kind(1)
    if align_corners:
        scale, low, twice, empty = kind(size - 1) / kind(2), kind(0), kind(size - 1) * kind(2), \
            size <= 1
        x = (coord + one) * scale
    else:
        scale, low, twice, empty = kind(size) / kind(2), kind(-0.5), kind(size) * kind(2), \
            size <= 0
        x = _mul_add(coord + one, scale, kind(-0.5))
    max_val = kind(size - 1)
    grad = np.full(coord.shape, scale, coord.dtype)
    if padding == 0:
        return x, grad
    if padding == 2:
        if empty:
            x, grad = np.zeros_like(x), np.zeros_like(x)
        else:
            shifted = x if align_corners else x - low
            distance = np.abs(shifted)
            extra = distance - np.trunc(distance / twice) * twice
            reflected = twice - extra
            flip = extra > reflected
            x = np.where(flip, reflected, extra)
            if not align_corners:
                x = x + low
            grad = np.where(flip ^ (shifted < 0), kind(-1), one) * grad
    x, inside = _clip_get_grad(x, max_val)
    return x, np.where(inside, grad, kind(0))


def _forward_locations(coord, size, padding, align_corners):
    """ComputeLocation.apply (clipping maps NaN to 0, unlike the gradient's clip)."""
    if padding == 0:
        return _locations(coord, size, 0, align_corners)[0]
    kind = coord.dtype.type
    if align_corners:
        x = (coord + kind(1)) * (kind(size - 1) / kind(2))
    else:
        x = _mul_add(coord + kind(1), kind(size) / kind(2), kind(-0.5))
    if padding == 2:
        x = _reflect(x, size, align_corners)
    return _clip(x, kind(size - 1))


def _reflect(x, size: int, align_corners: bool):
    kind = x.dtype.type
    if align_corners:
        if size <= 1:
            return np.zeros_like(x)
        twice, low = kind(size - 1) * kind(2), kind(0)
    else:
        twice, low = kind(size) * kind(2), kind(-0.5)
    distance = np.abs(x - low)
    extra = distance - np.trunc(distance / twice) * twice
    return np.minimum(extra, twice - extra) + low


class _Bilinear:
    """compute_interp_params: the four corners' flat offsets, weights and in-bounds masks."""

    def __init__(self, x, y, height: int, width: int, bounded: bool):
        kind = x.dtype.type
        x_w, y_n = np.floor(x), np.floor(y)
        self.w = x - x_w
        self.e = kind(1) - self.w
        self.n = y - y_n
        self.s = kind(1) - self.n
        self.weights = (self.s * self.e, self.s * self.w, self.n * self.e, self.n * self.w)
        i_w, i_n = _to_int(x_w).astype(np.int64), _to_int(y_n).astype(np.int64)
        i_e, i_s = i_w + 1, i_n + 1
        every = np.ones(x.shape, bool)
        w_ok = every if bounded else (i_w > -1) & (i_w < width)
        n_ok = every if bounded else (i_n > -1) & (i_n < height)
        e_ok = (i_e < width) if bounded else (i_e > -1) & (i_e < width)
        s_ok = (i_s < height) if bounded else (i_s > -1) & (i_s < height)
        self.masks = (w_ok & n_ok, e_ok & n_ok, w_ok & s_ok, e_ok & s_ok)
        self.offsets = tuple(np.where(ok, row * width + col, 0) for ok, row, col in (
            (self.masks[0], i_n, i_w), (self.masks[1], i_n, i_e), (self.masks[2], i_s, i_w),
            (self.masks[3], i_s, i_e)))

    def values(self, flat_input: np.ndarray):
        """The four corners' input values per channel (0 outside)."""
        zero = flat_input.dtype.type(0)
        return [np.where(ok, flat_input[:, offset], zero)
                for ok, offset in zip(self.masks, self.offsets)]


def _nearest(x, y, height: int, width: int, bounded: bool):
    i_x = _to_int(np.rint(x)).astype(np.int64)
    i_y = _to_int(np.rint(y)).astype(np.int64)
    ok = np.ones(x.shape, bool) if bounded else (
        (i_x > -1) & (i_x < width) & (i_y > -1) & (i_y < height))
    return np.where(ok, i_y * width + i_x, 0), ok


def _coordinates(grid: np.ndarray, batch: int):
    return grid[batch, ..., 0].reshape(-1), grid[batch, ..., 1].reshape(-1)


def _grid_sampler_2d(x: np.ndarray, grid: np.ndarray, mode: int, padding: int,
                     align_corners: bool, contiguous_grid: bool) -> np.ndarray:
    batches, channels, height, width = x.shape
    out = np.empty((batches, channels, *grid.shape[1:3]), x.dtype)
    for b in range(batches):
        gx, gy = _coordinates(grid, b)
        sx = _forward_locations(gx, width, padding, align_corners)
        sy = _forward_locations(gy, height, padding, align_corners)
        flat = x[b].reshape(channels, -1)
        if mode == 1:
            offset, ok = _nearest(sx, sy, height, width, padding != 0)
            result = np.where(ok, flat[:, offset], x.dtype.type(0))
        else:
            corners = _Bilinear(sx, sy, height, width, padding != 0)
            vals = corners.values(flat)
            result = vals[0] * corners.weights[0]
            for val, weight in zip(vals[1:], corners.weights[1:]):
                result = _mul_add(val, weight, result)
        out[b] = result.reshape(channels, *grid.shape[1:3])
    return out


def _scatter_order(positions: int, row: int, contiguous: bool, itemsize: int) -> list:
    """The kernel's vectors of output positions: runs over all positions when the grid is
    contiguous, else runs within each row of the grid."""
    step = _VECTOR_BYTES // itemsize
    span = positions if contiguous else row
    return [np.arange(start + first, min(first + span, start + first + step))
            for first in range(0, positions, span) for start in range(0, span, step)]


def _grid_sampler_2d_backward(g: np.ndarray, x: np.ndarray, grid: np.ndarray, mode: int,
                              padding: int, align_corners: bool, contiguous_grid: bool) -> tuple:
    batches, channels, height, width = x.shape
    grad_input, grad_grid = np.zeros_like(x), np.zeros_like(grid)
    row = grid.shape[2]
    for b in range(batches):
        gx, gy = _coordinates(grid, b)
        flat_g = g[b].reshape(channels, -1)
        into = grad_input[b].reshape(channels, -1)
        runs = _scatter_order(gx.size, row, contiguous_grid, x.itemsize)
        if mode == 1:
            sx = _forward_locations(gx, width, padding, align_corners)
            sy = _forward_locations(gy, height, padding, align_corners)
            offset, ok = _nearest(sx, sy, height, width, padding != 0)
            order = np.concatenate(runs)
            order = order[ok[order]]
            np.add.at(into, (slice(None), offset[order]), flat_g[:, order])
            continue
        sx, mx = _locations(gx, width, padding, align_corners)
        sy, my = _locations(gy, height, padding, align_corners)
        corners = _Bilinear(sx, sy, height, width, padding != 0)
        picks, offsets, weights = [], [], []
        for run in runs:
            for ok, offset, weight in zip(corners.masks, corners.offsets, corners.weights):
                chosen = run[ok[run]]
                picks.append(chosen)
                offsets.append(offset[chosen])
                weights.append(weight[chosen])
        picks = np.concatenate(picks)
        np.add.at(into, (slice(None), np.concatenate(offsets)),
                  np.concatenate(weights) * flat_g[:, picks])
        nw, ne, sw, se = corners.values(x[b].reshape(channels, -1))
        dx = np.zeros(gx.size, x.dtype)
        dy = np.zeros(gx.size, x.dtype)
        for c in range(channels):
            tx = _mul_add(se[c] - sw[c], corners.n, (ne[c] - nw[c]) * corners.s)
            ty = _mul_add(se[c] - ne[c], corners.w, (sw[c] - nw[c]) * corners.e)
            dx = _mul_add(tx, flat_g[c], dx)
            dy = _mul_add(ty, flat_g[c], dy)
        grad_grid[b] = np.stack([dx * mx, dy * my], -1).reshape(grid.shape[1:])
    return grad_input, grad_grid


def _double_backward(slot: int):
    """The input gradient is the grid sampler's adjoint, linear in grad_output and free of the
    input: its derivative for grad_output samples again, for the input is none. The rest of
    torch's grid_sampler_2d_double_backward is refused yet."""
    def vjp(gg, g, x, grid, index, **options):
        if index == 0 and slot == 0:
            return apply(OPS["grid_sampler_2d"], gg, F.detach(grid), **options)
        if index == 0 and slot == 1:
            return None
        raise errors.TorchError("NotImplementedError", "gradcli does not support the second "
                                "derivative of grid_sample with respect to the grid yet")
    return vjp


def _sampler_grad(index: int):
    def vjp(g, x, grid, mode, padding, align_corners, contiguous_grid):
        return apply(OPS["grid_sampler_2d_backward"], g, x, grid, mode=mode, padding=padding,
                     align_corners=align_corners, contiguous_grid=contiguous_grid, index=index)
    return vjp


defop("grid_sampler_2d", "GridSampler2DBackward0", _grid_sampler_2d, promote="none",
      save=(0, 1), vjp=(_sampler_grad(0), _sampler_grad(1)))
defop("grid_sampler_2d_backward", "GridSampler2DBackwardBackward0",
      lambda g, x, grid, index, **options: _grid_sampler_2d_backward(g, x, grid, **options)[index],
      promote="none", save=(2,), vjp=(_double_backward(0), _double_backward(1), _double_backward(2)))


def _check_sampler(x: Tensor, grid: Tensor, mode: int) -> None:
    """check_grid_sampler_common, then the 2-D checks and the kernel's dtype checks."""
    if x.shape[0] != grid.shape[0]:
        raise errors.runtime(
            "grid_sampler(): expected grid and input to have same batch size, but got input with "
            f"sizes {_sizes(x.shape)} and grid with sizes {_sizes(grid.shape)}")
    if grid.shape[-1] != x.ndim - 2:
        raise errors.runtime(
            f"grid_sampler(): expected grid to have size {x.ndim - 2} in last dimension, but got "
            f"grid with sizes {_sizes(grid.shape)}")
    for d in range(2, x.ndim):
        if x.shape[d] <= 0:
            raise errors.runtime(
                "grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                f"has sizes {_sizes(x.shape)} with dimension {d} being empty")
    dims = 4 if x.ndim == 4 else 5
    if x.ndim != dims or grid.ndim != dims:
        raise errors.runtime(
            f"grid_sampler(): expected {dims}D input and grid with same number of dimensions, but "
            f"got input with sizes {_sizes(x.shape)} and grid with sizes {_sizes(grid.shape)}")
    if dims == 5 or mode == 2:
        raise errors.TorchError("NotImplementedError", "gradcli does not support 3-D or bicubic "
                                "grid_sample yet")
    if x.dtype.np not in (np.float32, np.float64):
        raise errors.not_implemented_for("grid_sampler_2d_cpu_kernel_impl", x.dtype)
    if grid.dtype is not x.dtype:
        raise errors.runtime(f"expected scalar type {x.dtype.scalar_name} but found "
                             f"{grid.dtype.scalar_name}")


def grid_sampler(x: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                 align_corners: bool) -> Tensor:
    _check_sampler(x, grid, interpolation_mode)
    return apply(OPS["grid_sampler_2d"], x, grid, mode=interpolation_mode, padding=padding_mode,
                 align_corners=bool(align_corners),
                 contiguous_grid=grid.shape[0] == 0 or bool(grid.data[0].flags.c_contiguous))


_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(x: Tensor, grid: Tensor, mode="bilinear", padding_mode="zeros",
                align_corners=None) -> Tensor:
    if not (isinstance(mode, str) and mode in _MODES):
        raise errors.value_error("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                                 f"'nearest' or 'bicubic', but got: '{mode}'")
    if not (isinstance(padding_mode, str) and padding_mode in _PADDINGS):
        raise errors.value_error("nn.functional.grid_sample(): expected padding_mode to be "
                                 "'zeros', 'border', or 'reflection', but got: "
                                 f"'{padding_mode}'")
    if align_corners is None:
        STATE.warn("UserWarning", _ALIGN_WARNING)
        align_corners = False
    return declarations.call("torch", "grid_sampler", x, grid, _MODES[mode],
                             _PADDINGS[padding_mode], align_corners)


declare("affine_grid_generator", affine_grid_generator,
        "affine_grid_generator(Tensor theta, int[] size, bool align_corners)", variants="torch")
declare("grid_sampler", grid_sampler, "grid_sampler(Tensor input, Tensor grid, "
        "int interpolation_mode, int padding_mode, bool align_corners)", variants="torch")
declare("affine_grid", affine_grid, python="theta: object, size, align_corners=None",
        variants="functional")
declare("grid_sample", grid_sample, python="input: object, grid: object, mode='bilinear', "
        "padding_mode='zeros', align_corners=None", variants="functional")
