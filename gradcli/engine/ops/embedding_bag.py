"""F.embedding_bag (nn.EmbeddingBag's forward): torch's Python checks, then ATen's CPU
_embedding_bag: each bag's rows summed in order (scaled with a fused multiply-add by
per_sample_weights), averaged by division, or their first maximum; and its backwards, the
weight's accumulated in the order of the sorted indices with ATen's scales."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine import matmul_order
from gradcli.engine.declarations import declare
from gradcli.engine.fma import fused
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, apply, defop, no_derivative, not_implemented
from gradcli.engine.ops.sorting import sort_indices
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

MODES = {"sum": 0, "mean": 1, "max": 2}


def _forward(weight, psw=None, *, indices, bags, mode, padding_idx, bag_sizes, max_indices,
             count):
    """The bags' sums, means or maxima (empty bags and padding rows give zeros)."""
    out = np.zeros((count, weight.shape[1]), weight.dtype)
    if mode == 2:
        chosen = max_indices >= 0
        out[chosen] = weight[max_indices[chosen], np.nonzero(chosen)[1]]
        return out
    for i, (index, bag) in enumerate(zip(indices.tolist(), bags.tolist())):
        if index != padding_idx:
            out[bag] = out[bag] + weight[index] if psw is None else \
                fused(psw[i], weight[index], out[bag])
    if mode == 1:
        sizes = np.maximum(bag_sizes, 1).astype(weight.dtype)
        out = (out / sizes[:, None]).astype(weight.dtype)
    return out


def _weight_backward(g, psw, *, indices, bags, mode, padding_idx, bag_sizes, max_indices, count,
                     num_weights, scale_grad_by_freq):
    """_embedding_bag_dense_backward: each gradient row times its scale (per-sample weight,
    1/frequency, 1/bag size, computed in double) added into its index's row in sorted order;
    in max mode each element into the row that gave the maximum."""
    out = np.zeros((num_weights, g.shape[1]), g.dtype)
    if mode == 2:
        rows, columns = np.nonzero(max_indices >= 0)
        for bag, column in sorted(zip(rows.tolist(), columns.tolist()), key=lambda p: p[1]):
            index = max_indices[bag, column]
            if index != padding_idx:
                out[index, column] += g[bag, column]
        return out
    order = sort_indices(indices, 0, False).tolist()
    ordered = indices[order].tolist()
    counts = np.bincount(indices, minlength=num_weights)
    group = -1
    for j, position in enumerate(order):
        if j == 0 or ordered[j] != ordered[j - 1]:
            group += 1
        index, bag = ordered[j], int(bags[position])
        if index == padding_idx:
            continue
        scale = 1.0 if psw is None else float(psw[position])
        if scale_grad_by_freq:
            scale /= int(counts[ordered[group]])
        if mode == 1 and bag_sizes[bag]:
            scale /= int(bag_sizes[bag])
        out[index] = fused(g.dtype.type(scale), g[bag], out[index])
    return out


def _sample_weights_backward(g, weight, *, indices, bags, padding_idx, **_):
    """_embedding_bag_per_sample_weights_backward: each sample's gradient row dotted with its
    embedding row (zero for the padding index)."""
    out = np.zeros(len(indices), g.dtype)
    for i, (index, bag) in enumerate(zip(indices.tolist(), bags.tolist())):
        if index != padding_idx:
            starts = (bag * g.strides[0] // g.itemsize, index * weight.strides[0] // weight.itemsize)
            found = matmul_order.dot(g[bag], weight[index], starts)
            out[i] = found if found is not None else np.dot(g[bag], weight[index])
    return out


def _weight_vjp(g, weight, psw=None, **plan):
    return F.apply_op("_embedding_bag_backward", g, psw, num_weights=weight.shape[0], **plan)


def _plan_only(plan: dict) -> dict:
    return {k: v for k, v in plan.items() if k != "scale_grad_by_freq"}


defop("_embedding_bag", "EmbeddingBagBackward0",
      lambda weight, scale_grad_by_freq, **plan: _forward(weight, **plan),
      promote="none", save=(0,), saves_params=True,
      vjp=(lambda g, weight, **plan: _weight_vjp(g, weight, **plan),))
defop("_embedding_bag.per_sample_weights", "EmbeddingBagBackward0",
      lambda weight, psw, scale_grad_by_freq, **plan: _forward(weight, psw, **plan),
      promote="none", save=(0, 1), saves_params=True,
      vjp=(lambda g, weight, psw, **plan: _weight_vjp(g, weight, psw, **plan),
           lambda g, weight, psw, **plan: F.apply_op(
               "_embedding_bag_per_sample_weights_backward", g, weight, **_plan_only(plan))))
defop("_embedding_bag_backward", "EmbeddingBagBackwardBackward0", _weight_backward,
      promote="none", saves_params=True,
      vjp=(no_derivative("_embedding_bag_backward"),) * 2)
defop("_embedding_bag_per_sample_weights_backward", "NotImplemented",
      lambda g, weight, **plan: _sample_weights_backward(g, weight, **plan),
      name="torch::autograd::NotImplemented", promote="none", saves_params=True,
      vjp=(not_implemented("aten::_embedding_bag_per_sample_weights_backward"),) * 2)


def _parsed(function: str, name: str, position: int, value, kinds: tuple, kind: str) -> None:
    """The C++ argument parser's refusal of an argument of another type."""
    if isinstance(value, Tensor) and value.ndim == 0 and (
            kind == "float" or not value.dtype.is_floating_point):
        return
    if isinstance(value, bool) and kind == "int" or not isinstance(value, kinds):
        given = "Tensor" if isinstance(value, Tensor) else type(value).__name__
        raise errors.type_error(f"{function}(): argument '{name}' (position {position}) must be "
                                f"{kind}, not {given}")


def _number(value) -> float:
    return float(value.data) if isinstance(value, Tensor) else float(value)


def _attribute(value, name: str):
    if not isinstance(value, Tensor):
        raise errors.no_attribute(value, name)
    return value


def _check_types(weight: Tensor, indices: Tensor, offsets: Tensor) -> None:
    for name, tensor, allowed, names in (
            ("indices", indices, (dtypes.int64, dtypes.int32), "Long, Int"),
            ("indices", offsets, (dtypes.int64, dtypes.int32), "Long, Int"),
            ("weight", weight, (dtypes.float16, dtypes.float32, dtypes.float64),
             "Half, BFloat16, Float, Double")):
        if tensor.dtype not in allowed:
            raise errors.runtime(
                f"Expected tensor for argument #1 '{name}' to have one of the following scalar "
                f"types: {names}; but got {tensor.dtype.type_string} instead (while "
                "checking arguments for embedding_bag)")


def _bags(indices: np.ndarray, offsets: list, include_last_offset: bool) -> tuple:
    """Each index's bag and the number of bags, from the offsets."""
    count = len(offsets) - 1 if include_last_offset else len(offsets)
    bags = np.zeros(len(indices), np.int64)
    for bag in range(1, max(count, 0)):
        bags[offsets[bag]:] = bag
    return bags, max(count, 0)


def _max_indices(weight: np.ndarray, indices: np.ndarray, bags: np.ndarray, count: int,
                 padding_idx: int) -> np.ndarray:
    """Per bag and feature, the index whose row gave the maximum (the first on ties), or -1."""
    best = np.full((count, weight.shape[1]), -1, np.int64)
    value = np.zeros((count, weight.shape[1]), weight.dtype)
    for index, bag in zip(indices.tolist(), bags.tolist()):
        if index == padding_idx:
            continue
        row = weight[index]
        take = (best[bag] < 0) | (row > value[bag])
        value[bag] = np.where(take, row, value[bag])
        best[bag] = np.where(take, index, best[bag])
    return best


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None) -> Tensor:
    if _attribute(weight, "dtype").dtype is dtypes.int64 and \
            _attribute(input, "is_floating_point").dtype.is_floating_point:
        STATE.warn("UserWarning", "Argument order of nn.functional.embedding_bag was changed. "
                   "Usage `embedding_bag(weight, input, ...)` is deprecated, and should now be "
                   "`embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and \
            _attribute(input, "size").shape != _attribute(per_sample_weights, "size").shape:
        raise errors.value_error(
            f"embedding_bag: If per_sample_weights (torch.Size({list(per_sample_weights.shape)}))"
            f" is not None, then it must have the same shape as the input "
            f"(torch.Size({list(input.shape)}))")
    if _attribute(weight, "dim").ndim != 2:
        raise errors.value_error(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                                 f"{weight.ndim}")
    if _attribute(input, "dim").ndim == 2:
        if offsets is not None:
            kind = "torch.Tensor" if isinstance(offsets, Tensor) else type(offsets).__name__
            raise errors.value_error(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                f"<class '{kind}'>")
        offsets = Tensor(np.arange(0, input.numel(), input.shape[1], dtype=input.dtype.np)
                         if input.shape[1] else np.zeros(0, input.dtype.np), input.dtype)
        include_last_offset = False
        input = F.reshape(input, (-1,))
        if per_sample_weights is not None:
            per_sample_weights = F.reshape(per_sample_weights, (-1,))
    elif input.ndim == 1:
        if offsets is None:
            raise errors.value_error("offsets has to be a 1D Tensor but got None")
        if _attribute(offsets, "dim").ndim != 1:
            raise errors.value_error("offsets has to be a 1D Tensor")
    else:
        raise errors.value_error(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                                 f"{input.ndim}")
    if not isinstance(mode, str) or mode not in MODES:
        raise errors.value_error("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise errors.value_error("max mode does not support scaling the gradient by the "
                                 "frequency")
    if mode == "max" and sparse:
        raise errors.value_error("max mode does not support sparse weights")
    if max_norm is not None:
        _parsed("embedding_renorm_", "max_norm", 3, max_norm, (int, float), "float")
        _parsed("embedding_renorm_", "norm_type", 4, norm_type, (int, float), "float")
        F.embedding_renorm(weight, input.data, _number(max_norm), _number(norm_type))
    if per_sample_weights is not None and mode != "sum":
        raise errors.TorchError(
            "NotImplementedError", "embedding_bag: per_sample_weights was not None. "
            "per_sample_weights is only supported for mode='sum' "
            f"(got mode='{mode}'). Please open a feature request on GitHub.")
    return _embedding_bag(weight, input, offsets, bool(scale_grad_by_freq), MODES[mode],
                          per_sample_weights, bool(include_last_offset), padding_idx)


def _embedding_bag(weight: Tensor, input: Tensor, offsets: Tensor, scale_grad_by_freq: bool,
                   mode: int, per_sample_weights, include_last_offset: bool, padding_idx):
    """ATen's _embedding_bag on the CPU, with its checks in its order."""
    rows = weight.shape[0]
    if padding_idx is not None:
        _parsed("embedding_bag", "padding_idx", 9, padding_idx, (int,), "int")
        padding_idx = int(padding_idx.data) if isinstance(padding_idx, Tensor) else padding_idx
    if padding_idx is None:
        padding_idx = -1
    elif not -rows <= padding_idx < rows:
        raise errors.runtime(f"padding_idx must be within the number of embeddings, -{rows} "
                             f"through {rows - 1}, but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += rows
    _check_types(weight, input, offsets)
    indices = input.data.astype(np.int64)
    starts = offsets.data.astype(np.int64).tolist()
    if starts and starts[0] != 0:
        raise errors.runtime("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                             f"has to start from position 0. However, got {starts[0]}\n"
                             "[ torch.LongTensor{} ]")
    if starts and starts[-1] > len(indices):
        raise errors.runtime(f"offsets[-1] can not be greater than input's length "
                             f"{len(indices)} but got offsets[-1] of {starts[-1]}")
    for i, index in enumerate(indices.tolist()):
        if not 0 <= index < rows:
            raise errors.runtime(f"Index {i} of input takes value {index} which is not in the "
                                 f"valid range [0, {rows})")
    if any(start < 0 for start in starts):
        raise errors.index_error("index out of range in self")
    bags, count = _bags(indices, starts, include_last_offset)
    if include_last_offset and starts or not count:  # indices past the last bag are left out
        end = starts[-1] if count else 0
        indices, bags = indices[:end], bags[:end]
    kept = indices != padding_idx
    plan = dict(indices=indices, bags=bags, mode=mode, padding_idx=padding_idx, count=count,
                bag_sizes=np.bincount(bags[kept], minlength=count)[:count],
                max_indices=_max_indices(weight.data, indices, bags, count, padding_idx)
                if mode == 2 else None)
    if per_sample_weights is None:
        return apply(OPS["_embedding_bag"], weight, scale_grad_by_freq=scale_grad_by_freq,
                     **plan)
    return apply(OPS["_embedding_bag.per_sample_weights"], weight, per_sample_weights,
                 scale_grad_by_freq=scale_grad_by_freq, **plan)


declare("embedding_bag", embedding_bag, python="input: object, weight: object, "
        "offsets: object=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, "
        "mode='mean', sparse=False, per_sample_weights: object=None, include_last_offset=False, "
        "padding_idx=None", variants="functional")

export(__name__, globals())
