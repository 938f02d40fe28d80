"""F.scaled_dot_product_attention as ATen's CPU code runs it (aten/src/ATen/native/transformers):
the input checks, the choice between the fused flash kernel and the math composition, and
`_safe_softmax`, the math path's softmax whose fully masked rows give zeros.

The flash kernel's result hangs under one `ScaledDotProductFlashAttentionForCpuBackward0` node
with edges to query, key and value; gradcli computes its values in the kernel's order (scaled
scores, the row maximum, exponentials and their sum, the product with value, then the division)
and runs its backward through the math composition (its last bits may differ from torch's)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, flash_order, grad_api, layout
from gradcli.engine.autograd import RESULT
from gradcli.engine.custom import NativeNode
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

FLASH_LABEL = "ScaledDotProductFlashAttentionForCpuBackward0"
_FLASH_DTYPES = (dtypes.float32, dtypes.float64, dtypes.bfloat16, dtypes.float16)


def _safe_softmax_forward(a, dim):
    """softmax, then zeros on the rows that were all -inf."""
    out = F.softmax(Tensor(a), dim).data
    masked = np.all(a == -np.inf, axis=dim, keepdims=True)
    return np.where(masked, out.dtype.type(0), out)


defop("_safe_softmax", "SafeSoftmaxBackward0", _safe_softmax_forward, promote="float",
      save=(RESULT,), vjp=lambda g, a, dim, out: F.softmax_backward_data(g, out, dim))


def safe_softmax(a: Tensor, dim: int) -> Tensor:
    return F.apply_op("_safe_softmax", a, dim=dim % max(a.ndim, 1))


def _check_inputs(query: Tensor, key: Tensor, value: Tensor, attn_mask) -> None:
    """validate_sdpa_input: one dtype, at least two dimensions, a mask bool or float."""
    if not query.dtype is key.dtype is value.dtype:
        raise errors.runtime(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{query.dtype.cpp_name} key.dtype: {key.dtype.cpp_name} and value.dtype: "
            f"{value.dtype.cpp_name} instead.")
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise errors.runtime(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} instead.")
    if attn_mask is not None and attn_mask.dtype not in (dtypes.bool_, dtypes.float32,
                                                         query.dtype):
        raise errors.runtime(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {attn_mask.dtype.cpp_name} and  query.dtype: "
            f"{query.dtype.cpp_name} instead.")


def _size(t: Tensor, dim: int) -> int:
    """t.sym_size(dim), with ATen's IndexError for a dim out of range."""
    if not -t.ndim <= dim < t.ndim:
        raise errors.index_error(f"Dimension out of range (expected to be in range of "
                                 f"[{-t.ndim}, {t.ndim - 1}], but got {dim})")
    return t.shape[dim]


def _mask_fits_flash(mask, query: Tensor, key: Tensor) -> bool:
    """check_attn_mask_shape: no mask, or one of 2 or 4 dimensions the kernel broadcasts."""
    if mask is None:
        return True
    if mask.requires_grad:
        return False
    if _size(mask, -2) not in (query.shape[2], 1) or _size(mask, -1) not in (key.shape[2], 1):
        return False
    if mask.ndim == 2:
        return True
    return mask.ndim == 4 and mask.shape[0] in (1, query.shape[0]) \
        and mask.shape[1] in (1, query.shape[1])


def _heads_fit(query: Tensor, key: Tensor, value: Tensor, enable_gqa: bool) -> bool:
    if not query.shape[0] == key.shape[0] == value.shape[0]:
        return False
    q, k, v = query.shape[1], key.shape[1], value.shape[1]
    return q == k == v or (enable_gqa and k == v and q % k == 0)


def _uses_flash(query, key, value, mask, dropout_p, enable_gqa) -> bool:
    """select_sdp_backend_cpp: the flash kernel's constraints, in the order ATen checks them."""
    tensors = (query, key, value)
    return (dropout_p <= 0.0 and all(t.ndim == 4 for t in tensors)
            and _heads_fit(query, key, value, enable_gqa) and _mask_fits_flash(mask, query, key)
            and query.shape[-1] == key.shape[-1] == value.shape[-1]
            and key.shape[-2] == value.shape[-2]
            and query.shape[-2] > 0 and key.shape[-2] > 0
            and all(t.data.strides[-1] == t.data.itemsize or t.shape[-1] == 1
                    for t in tensors)
            and query.dtype in _FLASH_DTYPES)


def _additive(mask, dtype: dtypes.DType):
    """convert_boolean_attn_mask: a bool mask becomes 0 where kept and -inf where masked."""
    if mask is None or mask.dtype is not dtypes.bool_:
        return mask
    return Tensor(np.where(mask.data, 0.0, -np.inf).astype(dtype.np), dtype)


def _scale(query: Tensor, scale) -> float:
    return 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale


def _grouped(query: Tensor, key: Tensor, value: Tensor, enable_gqa: bool) -> tuple:
    """pre_process_group_query_attention_input: key and value repeated to query's heads."""
    if not enable_gqa:
        return key, value
    heads = [t.shape[-3] for t in (query, key, value)]
    if heads[0] == heads[1] == heads[2]:
        return key, value
    if heads[0] % heads[1] or heads[0] % heads[2]:
        raise errors.runtime("Number of heads in key and value must divide the number of heads "
                             "in ")
    return (F.repeat_interleave(key, heads[0] // heads[1], -3),
            F.repeat_interleave(value, heads[0] // heads[2], -3))


def _math(query, key, value, mask, dropout_p, is_causal, scale, enable_gqa) -> Tensor:
    """_scaled_dot_product_attention_math: query and key each scaled by sqrt(scale), the mask
    added in place, _safe_softmax, dropout, then the product with value."""
    negative = scale is not None and scale < 0
    factor = math.sqrt(_scale(query, abs(scale) if negative else scale))
    query = F.mul_scalar(query, 0.0 - factor if negative else factor)
    if is_causal:
        if mask is not None:
            raise errors.runtime("_scaled_dot_product_attention: Explicit attn_mask should not "
                                 "be set when is_causal=True")
        mask = _additive(_causal(query.shape[-2], key.shape[-2]), query.dtype)
    key, value = _grouped(query, key, value, enable_gqa)
    attn = F.matmul(query, F.mul_scalar(F.transpose(key, -2, -1), factor))
    if mask is not None:
        attn = F.apply_inplace(attn, lambda t: F.add(t, mask))
    attn = safe_softmax(attn, -1)
    if dropout_p > 0.0:  # ATen's dropout, whose refusal of a probability is a RuntimeError
        if dropout_p > 1:
            raise errors.runtime(f"dropout probability has to be between 0 and 1, but got "
                                 f"{dropout_p}")
        attn = F.dropout(attn, dropout_p, True)
    return F.matmul(attn, value)


def _causal(rows: int, columns: int) -> Tensor:
    return Tensor(np.tril(np.ones((rows, columns), bool)), dtypes.bool_)


# the bfloat16 kernel computes in float32 (bfloat16 tensors hold float32 arrays), rounding to
# bfloat16 the exps it multiplies v by and its results
_REDUCED = {dtypes.bfloat16: dtypes.round_bfloat16}


def _flash_values(query, key, value, mask, is_causal, scale) -> np.ndarray:
    """The flash kernel's arithmetic: scores = q k^T * scale (+ mask), the causal -inf, then
    exp(scores - max) and its sum, (exp @ v) times 1/sum; rows with nothing to attend are 0."""
    dtype = query.data.dtype
    rounded = _REDUCED.get(query.dtype)
    if rounded is None and (mask is None or mask.dtype is dtypes.float32):
        exact = flash_order.attention(query.data, key.data, value.data, is_causal,
                                      _scale(query, scale), None if mask is None else mask.data)
        if exact is not None:
            return _laid_out_like(exact, query.data)
    heads = query.shape[1]
    keys, values = key.data, value.data
    if key.shape[1] != heads:
        keys = np.repeat(keys, heads // key.shape[1], axis=1)
        values = np.repeat(values, heads // value.shape[1], axis=1)
    scores = np.matmul(query.data, np.swapaxes(keys, -2, -1)) * dtype.type(_scale(query, scale))
    if mask is not None:
        scores = scores + mask.data.astype(dtype)
    if is_causal:
        scores = np.where(_causal(*scores.shape[-2:]).data, scores, dtype.type(-np.inf))
    peak = np.max(scores, axis=-1, keepdims=True)
    empty = peak == -np.inf
    exps = np.exp(scores - np.where(empty, dtype.type(0), peak))
    total = np.sum(exps, axis=-1, keepdims=True)
    if rounded is not None:  # the kernel sums the float exps but multiplies v by them rounded
        exps = rounded(exps)
    out = np.matmul(exps, values) * np.where(empty, dtype.type(0), dtype.type(1) / total)
    return _laid_out_like(out if rounded is None else rounded(out), query.data)


def _laid_out_like(out: np.ndarray, query: np.ndarray) -> np.ndarray:
    """The kernel's output is empty_like(query): query's layout when its elements are dense
    (a permuted layout), else contiguous."""
    if out.shape != query.shape or layout.dense_order(query) is None:
        return np.ascontiguousarray(out)
    result = np.empty_like(query, dtype=out.dtype)
    result[...] = out
    return result


def _flash(query, key, value, mask, dropout_p, is_causal, scale, enable_gqa) -> Tensor:
    """_scaled_dot_product_flash_attention_for_cpu: its values, and its node when query, key or
    value require grad (the mask takes no gradient here)."""
    if dropout_p != 0.0:
        raise errors.runtime("scaled_dot_product_attention_flash_attention: Currently do not "
                             "support dropout > 0")
    result = Tensor(_flash_values(query, key, value, mask, is_causal, scale), query.dtype)
    inputs = (query, key, value)
    differentiable = [t for t in inputs if t.requires_grad]
    if not (STATE.grad_enabled and differentiable):
        return result
    if query.dtype is dtypes.bfloat16 and key.shape[1] == query.shape[1]:
        def gradients(grad):
            return _bfloat16_gradients(query, key, value, mask, is_causal, scale, result, grad)
    else:
        inner = _math(query, key, value, _causal_mask(mask, query, key, is_causal), 0.0, False,
                      scale, enable_gqa)

        def gradients(grad):
            found = iter(grad_api.grad([inner], differentiable, [grad], retain_graph=True,
                                       allow_unused=True))
            return tuple(next(found) if t.requires_grad else None for t in inputs)

    def backward(grads):
        creating = STATE.grad_enabled
        results = gradients(grads[0])
        if creating:
            results = _not_differentiable_again(results, (*inputs, result))
        return results

    node = NativeNode(FLASH_LABEL, inputs, (result,), backward)
    result._grad_fn, result.output_nr, result._requires_grad = node, 0, True
    return result


def _bfloat16_gradients(query, key, value, mask, is_causal, scale, out, grad) -> tuple:
    """The bfloat16 flash backward's arithmetic, in float32 as the kernel's: the probabilities
    p from the scores and their logsumexp, grad_v = bf16(p)^T @ grad_out, grad_s = p * (grad_out
    @ v^T - rowsum(grad_out * out)), and grad_q, grad_k from bf16(grad_s) scaled, each result
    rounded to bfloat16."""
    q, k, v = query.data, key.data, value.data
    factor = np.float32(_scale(query, scale))
    scores = np.matmul(q, np.swapaxes(k, -2, -1)) * factor
    if mask is not None:
        scores = scores + _additive(mask, dtypes.float32).data.astype(np.float32)
    if is_causal:
        scores = np.where(_causal(*scores.shape[-2:]).data, scores, np.float32(-np.inf))
    peak = np.max(scores, axis=-1, keepdims=True)
    empty = peak == -np.inf
    peak = np.where(empty, np.float32(0), peak)
    lse = peak + np.log(np.sum(np.exp(scores - peak), axis=-1, keepdims=True))
    probs = np.where(empty, np.float32(0), np.exp(scores - np.where(empty, np.float32(0), lse)))
    rounded = dtypes.round_bfloat16
    g = grad.data.astype(np.float32)
    grad_v = rounded(np.matmul(np.swapaxes(rounded(probs), -2, -1), g))
    row_sums = np.sum(g * out.data, axis=-1, keepdims=True)
    grad_s = rounded(probs * (np.matmul(g, np.swapaxes(v, -2, -1)) - row_sums)) * factor
    grad_q = rounded(np.matmul(grad_s, k))
    grad_k = rounded(np.matmul(np.swapaxes(grad_s, -2, -1), q))
    return tuple(Tensor(np.ascontiguousarray(r), dtypes.bfloat16) if t.requires_grad else None
                 for r, t in zip((grad_q, grad_k, grad_v), (query, key, value)))


class _NotImplemented(NativeNode):
    """torch's NotImplemented node: Python sees the class by its short name."""

    __slots__ = ()

    @property
    def class_name(self) -> str:
        return "NotImplemented"


def _not_differentiable_again(results: tuple, inputs: tuple) -> tuple:
    """The flash backward's results under torch's NotImplemented node: torch has no
    derivative for _scaled_dot_product_flash_attention_for_cpu_backward."""
    if not any(isinstance(t, Tensor) and t.requires_grad for t in inputs):
        return results

    def refuse(grads):
        raise errors.runtime("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_"
                             "backward is not implemented")

    outputs = tuple(r for r in results if r is not None)
    node = _NotImplemented("torch::autograd::NotImplemented", inputs, outputs, refuse)
    for nr, out in enumerate(results):
        if out is not None:
            out._grad_fn, out.output_nr, out._requires_grad = node, nr, True
    return results


def _causal_mask(mask, query: Tensor, key: Tensor, is_causal: bool):
    """The flash kernel applies is_causal and a mask together: one additive mask for both."""
    if not is_causal:
        return mask
    causal = _additive(_causal(query.shape[-2], key.shape[-2]), query.dtype)
    return causal if mask is None else F.add(F.detach(mask), causal)


def _empty(query: Tensor, key: Tensor, value: Tensor) -> Tensor:
    """ATen's answer for an empty input: zeros of the output's shape, joined to the inputs'
    graphs through (q.sum() + k.sum() + v.sum()) * 0."""
    batch = F.broadcast_shape(query.shape[:-2], key.shape[:-2])
    shape = batch + query.shape[-2:-1] + value.shape[-1:]
    joined = F.add(F.add(F.sum(query), F.sum(key)), F.sum(value))
    return F.add(F.mul_scalar(joined, 0.0), Tensor(np.zeros(shape, query.dtype.np), query.dtype))


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask=None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale=None,
                                 enable_gqa: bool = False) -> Tensor:
    _check_inputs(query, key, value, attn_mask)
    if 0 in (query.numel(), key.numel(), value.numel()):
        return _empty(query, key, value)
    flash = _uses_flash(query, key, value, attn_mask, dropout_p, enable_gqa)
    mask = _additive(attn_mask, query.dtype)
    run = _flash if flash else _math
    return run(query, key, value, mask, dropout_p, is_causal, scale, enable_gqa)


declare("scaled_dot_product_attention", scaled_dot_product_attention,
        "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, "
        "Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, "
        "float? scale=None, bool enable_gqa=False)", variants="functional")

export(__name__, globals())
