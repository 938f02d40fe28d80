"""Shape op rows: views (view, expand, squeeze, transpose, split...) and copies (repeat, flip, cat)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, functional as F, selection, shapes as S
from gradcli.engine.ops.registry import defop


def _expand(a: np.ndarray, size: tuple) -> np.ndarray:
    """A writable broadcast view (as torch's expand: writes reach the shared elements)."""
    lead = len(size) - a.ndim
    strides = [0] * lead + [0 if n == 1 and m != 1 else st
                            for n, m, st in zip(a.shape, size[lead:], a.strides)]
    return np.lib.stride_tricks.as_strided(a, shape=size, strides=strides,
                                           writeable=a.flags.writeable)


def _view(a, shape, sizes):
    """Reshape without copying, or torch's error when the strides do not allow it."""
    out = a.view()
    try:
        out.shape = shape
    except AttributeError:
        raise errors.runtime(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    return out


def _unsqueeze_to(g, sizes, dims):
    """Undo a squeeze of `dims` (the size-1 dims among them) of a tensor of shape `sizes`."""
    for d in sorted(d for d in dims if d < len(sizes) and sizes[d] == 1):
        g = S.unsqueeze(g, d)
    return g


def _inverse(perm):
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return tuple(inverse)


def _repeat_backward(g, sizes, repeats):
    """torch's repeat_backward: sum away the new leading dims, then view each repeated dim d as
    (repeats[d], sizes[d]) and sum the repeats, in one reshape and one sum."""
    if 0 in repeats:
        return F.zeros_of(sizes, g.dtype)
    lead = len(repeats) - len(sizes)
    for _ in range(lead):
        g = F.sum(g, 0)
    split, sum_dims = [], []
    for repeat, size in zip(repeats[lead:], sizes):
        if repeat != 1:
            split.append(repeat)
            sum_dims.append(len(split) - 1)
        split.append(size)
    if not sum_dims:
        return g
    return F.sum(S.reshape(g, split), tuple(sum_dims))


def _split(a, sections, dim):
    return tuple(np.split(a, np.cumsum(sections)[:-1], axis=dim))


def _cat_backward(g, *args, dim, sizes, input_index):
    start = sum(sizes[:input_index])
    return S.narrow(g, dim, start, sizes[input_index])


defop("view", "ViewBackward0", _view, promote="none", view=True,
      vjp=lambda g, a, shape, sizes: S.reshape(g, sizes))
defop("_reshape_alias", "ReshapeAliasBackward0", _view, promote="none", view=True,
      vjp=lambda g, a, shape, sizes: S.reshape(g, sizes))
defop("_unsafe_view", "UnsafeViewBackward0", lambda a, shape, sizes: a.reshape(shape),
      promote="none", vjp=lambda g, a, shape, sizes: S.reshape(g, sizes))
defop("expand", "ExpandBackward0", lambda a, size, sizes: _expand(a, size),
      promote="none", view=True, vjp=lambda g, a, size, sizes: F.sum_to(g, sizes))
defop("unsqueeze", "UnsqueezeBackward0", lambda a, dim: np.expand_dims(a, dim), promote="none",
      view=True, vjp=lambda g, a, dim: S.squeeze(g, dim))
defop("squeeze", "SqueezeBackward0", lambda a, sizes: np.squeeze(a), promote="none", view=True,
      vjp=lambda g, a, sizes: _unsqueeze_to(g, sizes, range(len(sizes))))
defop("squeeze.dim", "SqueezeBackward1",
      lambda a, dim, sizes: np.squeeze(a, dim) if a.ndim and a.shape[dim] == 1 else a.view(),
      promote="none", view=True, vjp=lambda g, a, dim, sizes: _unsqueeze_to(g, sizes, (dim,)))
defop("squeeze.dims", "SqueezeBackward2",
      lambda a, dims, sizes: np.squeeze(a, tuple(d for d in dims if a.ndim and a.shape[d] == 1)),
      promote="none", view=True, vjp=lambda g, a, dims, sizes: _unsqueeze_to(g, sizes, dims))
defop("t", "TBackward0", lambda a: a.T, promote="none", view=True, vjp=lambda g, a: S.t(g))
defop("transpose.int", "TransposeBackward0", lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1),
      promote="none", view=True,
      vjp=lambda g, a, dim0, dim1: S.transpose(g, dim0, dim1))
defop("permute", "PermuteBackward0", lambda a, dims: np.transpose(a, dims), promote="none",
      view=True, vjp=lambda g, a, dims: S.permute(g, _inverse(dims)))
defop("alias", "AliasBackward0", lambda a: a.view(), promote="none", view=True, vjp=lambda g, a: g)
defop("split.Tensor", "SplitBackward0", lambda a, sections, dim: _split(a, sections, dim),
      promote="none", view=True, n_outputs=None, differentiable_outputs=None,
      vjp=lambda grads, a, sections, dim: S.cat(grads, dim))
defop("split_with_sizes", "SplitWithSizesBackward0",
      lambda a, sections, dim: _split(a, sections, dim), promote="none", view=True,
      n_outputs=None, differentiable_outputs=None,
      vjp=lambda grads, a, sections, dim: S.cat(grads, dim))
defop("unbind.int", "UnbindBackward0",
      lambda a, dim: tuple(np.moveaxis(a, dim, 0)[i, ...] for i in range(a.shape[dim])),
      promote="none", view=True, n_outputs=None,
      differentiable_outputs=None, vjp=lambda grads, a, dim: S.stack(grads, dim))
defop("clone", "CloneBackward0",
      lambda a, contiguous=False: np.array(a, copy=True, order="C" if contiguous else "K"),
      promote="none", vjp=lambda g, a, contiguous=False: g)
defop("repeat", "RepeatBackward0", lambda a, repeats, sizes: np.tile(a, repeats), promote="none",
      vjp=lambda g, a, repeats, sizes: _repeat_backward(g, sizes, repeats))
defop("flip", "FlipBackward0", lambda a, dims: np.flip(a, dims).copy(), promote="none",
      vjp=lambda g, a, dims: S.flip(g, dims))
defop("cat", "CatBackward0", lambda *arrays, dim, sizes: np.concatenate(arrays, axis=dim),
      variadic=True, vjp=_cat_backward)
defop("stack", "StackBackward0", lambda *arrays, dim: np.stack(arrays, axis=dim), variadic=True,
      vjp=lambda g, *args, dim, input_index: selection.select(g, dim, input_index))
