"""nn.MultiheadAttention as torch's Python code runs it (torch/nn/modules/activation.py and
F.multi_head_attention_forward in torch/nn/functional.py): the same checks in the same order,
and the same engine functions, so values, grad_fn labels and errors are torch's. Its row is in
nn_table.KINDS; nn.Transformer* (transformer.py) build on it.

In eval mode with no gradient to record, torch takes its fast path
(`torch._native_multi_head_attention`) under the conditions of `_why_not_fast_path`; gradcli
computes that path's values with the slow path's arithmetic and shows what differs: a
contiguous output, and the weights' NaN rows also when need_weights is False."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, parameters
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.modules import Module
from gradcli.language.namespaces.nn_init import xavier
from gradcli.language.runtime.values import type_name


def _assertion(message: str) -> errors.TorchError:
    return errors.TorchError("AssertionError", message)


def size_text(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(n) for n in shape)}])"


# ---- construction ---------------------------------------------------------------------------

def build(module: Module, embed_dim, num_heads, dropout, bias, add_bias_kv, add_zero_attn,
          kdim, vdim, batch_first, device, dtype, linear) -> None:
    """MultiheadAttention.__init__: empty parameters, out_proj (a Linear, drawn first), then
    _reset_parameters: xavier_uniform_ on the projections, zero biases, xavier_normal_ on
    bias_k and bias_v."""
    if embed_dim <= 0 or num_heads <= 0:
        raise errors.value_error(f"embed_dim and num_heads must be greater than 0, got "
                                 f"embed_dim={embed_dim} and num_heads={num_heads} instead")
    kdim = embed_dim if kdim is None else kdim
    vdim = embed_dim if vdim is None else vdim
    same = kdim == embed_dim and vdim == embed_dim
    module.attrs.update(embed_dim=embed_dim, kdim=kdim, vdim=vdim, _qkv_same_embed_dim=same,
                        num_heads=num_heads, dropout=dropout, batch_first=batch_first,
                        head_dim=embed_dim // num_heads)
    if embed_dim // num_heads * num_heads != embed_dim:
        raise _assertion("embed_dim must be divisible by num_heads")
    dtype = dtype or STATE.default_dtype
    p = module.params
    if same:
        p.update(in_proj_weight=_empty((3 * embed_dim, embed_dim), dtype), q_proj_weight=None,
                 k_proj_weight=None, v_proj_weight=None)
    else:
        p.update(q_proj_weight=_empty((embed_dim, embed_dim), dtype),
                 k_proj_weight=_empty((embed_dim, kdim), dtype),
                 v_proj_weight=_empty((embed_dim, vdim), dtype), in_proj_weight=None)
    p["in_proj_bias"] = _empty((3 * embed_dim,), dtype) if bias else None
    module.children["out_proj"] = linear(embed_dim, embed_dim, bias, None, dtype)
    if add_bias_kv:
        p.update(bias_k=_empty((1, 1, embed_dim), dtype), bias_v=_empty((1, 1, embed_dim), dtype))
    else:
        module.attrs.update(bias_k=None, bias_v=None)
    module.attrs["add_zero_attn"] = add_zero_attn
    for name in ("in_proj_weight",) if same else ("q_proj_weight", "k_proj_weight",
                                                   "v_proj_weight"):
        xavier(p[name], 1.0, "uniform", None)
    if p["in_proj_bias"] is not None:
        parameters.fill_(p["in_proj_bias"], 0.0)
        parameters.fill_(module.children["out_proj"].params["bias"], 0.0)
    for name in ("bias_k", "bias_v") if add_bias_kv else ():
        xavier(p[name], 1.0, "normal", None)


def _empty(shape: tuple, dtype) -> Tensor:
    """Parameter(torch.empty(shape)), with empty's complaint about a size that is no int."""
    for position, size in enumerate(shape):
        if not isinstance(size, int) or isinstance(size, bool):
            raise errors.type_error("empty(): argument 'size' (position 1) must be tuple of ints, "
                                    f"but found element of type {type_name(size)} at pos "
                                    f"{position}")
    return parameters.parameter(Tensor(np.zeros(shape, dtype.np), dtype))


def member(module: Module, name: str):
    """A parameter or plain attribute (bias_k is one or the other), as `self.name` reads it."""
    for place in (module.params, module.attrs, module.children):
        if name in place:
            return place[name]
    raise module.missing(name)


# ---- masks ----------------------------------------------------------------------------------

def canonical_mask(mask, name: str, other_type, other_name: str, target: dtypes.DType,
                   check_other: bool = True):
    """F._canonical_mask: bool masks become 0 and -inf of `target`; float masks pass through."""
    if mask is None:
        return None
    if not isinstance(mask, Tensor):
        raise errors.no_attribute(mask, "dtype")
    if mask.dtype is not dtypes.bool_ and not mask.dtype.is_floating_point:
        raise _assertion(f"only bool and floating types of {name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        STATE.warn("UserWarning", f"Support for mismatched {name} and {other_name} is "
                   "deprecated. Use same type for both instead.")
    if mask.dtype.is_floating_point:
        return mask
    return Tensor(np.where(mask.data, -np.inf, 0.0).astype(target.np), target)


def dtype_of(mask):
    """F._none_or_dtype."""
    if mask is not None and not isinstance(mask, Tensor):
        raise errors.runtime("input to _none_or_dtype() must be None or torch.Tensor")
    return None if mask is None else mask.dtype


def _check_floating_masks(attn_mask, key_padding_mask) -> None:
    """torch.is_floating_point(mask), which MultiheadAttention.forward asks first."""
    for mask in (attn_mask, key_padding_mask):
        if mask is not None and not isinstance(mask, Tensor):
            raise errors.type_error("is_floating_point(): argument 'input' (position 1) must be "
                                    f"Tensor, not {type_name(mask)}")
        if mask is not None and mask.dtype.is_floating_point:
            return


def _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """F._mha_shape_check: whether the input is batched."""
    if query.ndim not in (2, 3):
        raise _assertion("query should be unbatched 2D or batched 3D tensor but received "
                         f"{query.ndim}-D query tensor")
    batched = query.ndim == 3
    kind, dims = ("batched (3-D)", 3) if batched else ("unbatched (2-D)", 2)
    if key.ndim != dims or value.ndim != dims:
        raise _assertion(f"For {kind} `query`, expected `key` and `value` to be {dims}-D but "
                         f"found {key.ndim}-D and {value.ndim}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.ndim != dims - 1:
        raise _assertion(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                         f"{dims - 1}-D but found {key_padding_mask.ndim}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.ndim not in (2, 3):
            raise _assertion(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                             f" but found {attn_mask.ndim}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.ndim == 3 and attn_mask.shape != expected:
            raise _assertion(f"Expected `attn_mask` shape to be {expected} but got "
                             f"{size_text(attn_mask.shape)}")
    return batched


# ---- F.multi_head_attention_forward ---------------------------------------------------------

def _heads_first(t: Tensor, size: int) -> Tensor:
    """The packed projection split in q, k, v order: unflatten, unsqueeze, transpose, squeeze,
    contiguous, as torch reshapes it."""
    e = t.shape[-1] // size
    return F.contiguous(F.squeeze(F.transpose(F.unsqueeze(F.unflatten(t, -1, (size, e)), 0),
                                              0, -2), -2))


def _in_projection_packed(q, k, v, w, b) -> tuple:
    e = q.shape[-1]
    if k is v:
        if q is k:
            proj = _heads_first(F.linear(q, w, b), 3)
            return tuple(F.select(proj, 0, i) for i in range(3))
        w_q, w_kv = F.split(w, [e, e * 2])
        b_q, b_kv = (None, None) if b is None else F.split(b, [e, e * 2])
        kv = _heads_first(F.linear(k, w_kv, b_kv), 2)
        return F.linear(q, w_q, b_q), F.select(kv, 0, 0), F.select(kv, 0, 1)
    w_q, w_k, w_v = F.chunk(w, 3)
    b_q, b_k, b_v = (None,) * 3 if b is None else F.chunk(b, 3)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _in_projection(q, k, v, weights: tuple, biases: tuple) -> tuple:
    eq, ek, ev = q.shape[-1], k.shape[-1], v.shape[-1]
    for which, w, shape in zip(("query", "key", "value"), weights, ((eq, eq), (eq, ek),
                                                                    (eq, ev))):
        if w.shape != shape:
            raise _assertion(f"expecting {which} weights shape of {shape}, but got "
                             f"{size_text(w.shape)}")
    for which, b in zip(("query", "key", "value"), biases):
        if b is not None and b.shape != (eq,):
            raise _assertion(f"expecting {which} bias shape of {(eq,)}, but got "
                             f"{size_text(b.shape)}")
    return tuple(F.linear(x, w, b) for x, w, b in zip((q, k, v), weights, biases))


def _mask_3d(attn_mask: Tensor, tgt_len: int, src_len: int, heads: int) -> Tensor:
    if attn_mask.ndim == 2:
        if attn_mask.shape != (tgt_len, src_len):
            raise errors.runtime(f"The shape of the 2D attn_mask is {size_text(attn_mask.shape)}"
                                 f", but should be {(tgt_len, src_len)}.")
        return F.unsqueeze(attn_mask, 0)
    if attn_mask.shape != (heads, tgt_len, src_len):
        raise errors.runtime(f"The shape of the 3D attn_mask is {size_text(attn_mask.shape)}, "
                             f"but should be {(heads, tgt_len, src_len)}.")
    return attn_mask


def forward_core(query, key, value, a: dict, p: dict, training: bool, key_padding_mask,
                 need_weights: bool, attn_mask, average_attn_weights: bool, is_causal: bool):
    """F.multi_head_attention_forward with a module's options `a` and parameters `p`."""
    heads = a["num_heads"]
    bias_k, bias_v = p.get("bias_k", a.get("bias_k")), p.get("bias_v", a.get("bias_v"))
    batched = _shape_check(query, key, value, key_padding_mask, attn_mask, heads)
    if not batched:
        query, key, value = (F.unsqueeze(t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = F.unsqueeze(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", dtype_of(attn_mask),
                                      "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise errors.runtime("Need attn_mask if specifying the is_causal hint. You may use the "
                             "Transformer module method `generate_square_subsequent_mask` to "
                             "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != a["embed_dim"]:
        raise _assertion(f"was expecting embedding dimension of {a['embed_dim']}, but got "
                         f"{embed_dim}")
    head_dim = embed_dim // heads
    if head_dim * heads != embed_dim:
        raise _assertion(f"embed_dim {embed_dim} not divisible by num_heads {heads}")
    separate = not a["_qkv_same_embed_dim"]
    if separate and key.shape[:2] != value.shape[:2]:
        raise _assertion(f"key's sequence and batch dims {size_text(key.shape[:2])} do not match "
                         f"value's {size_text(value.shape[:2])}")
    if not separate and key.shape != value.shape:
        raise _assertion(f"key shape {size_text(key.shape)} does not match value shape "
                         f"{size_text(value.shape)}")
    q, k, v = _project(query, key, value, p, separate)
    if attn_mask is not None:
        attn_mask = _mask_3d(attn_mask, tgt_len, src_len, bsz * heads)
    if bias_k is not None and bias_v is not None:
        k = F.cat([k, F.repeat(bias_k, (1, bsz, 1))])
        v = F.cat([v, F.repeat(bias_v, (1, bsz, 1))])
        attn_mask, key_padding_mask = _pad_masks(attn_mask, key_padding_mask)
    q = F.transpose(F.view(q, (tgt_len, bsz * heads, head_dim)), 0, 1)
    k = F.transpose(F.view(k, (k.shape[0], bsz * heads, head_dim)), 0, 1)
    v = F.transpose(F.view(v, (v.shape[0], bsz * heads, head_dim)), 0, 1)
    if a["add_zero_attn"]:
        zeros = Tensor(np.zeros((bsz * heads, 1, head_dim), k.dtype.np), k.dtype)
        k, v = F.cat([k, zeros], 1), F.cat([v, Tensor(zeros.data.copy(), v.dtype)], 1)
        attn_mask, key_padding_mask = _pad_masks(attn_mask, key_padding_mask)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise _assertion(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                             f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise _assertion(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                             f"{key_padding_mask.shape[1]}")
        key_padding_mask = F.reshape(F.expand(F.view(key_padding_mask, (bsz, 1, 1, src_len)),
                                              (-1, heads, -1, -1)), (bsz * heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else F.add(attn_mask, key_padding_mask)
    dropout_p = a["dropout"] if training else 0.0
    shape = (tgt_len, bsz, embed_dim)
    if need_weights:
        return _with_weights(q, k, v, attn_mask, dropout_p, is_causal, p, shape, heads,
                             average_attn_weights, batched)
    if attn_mask is not None:
        attn_mask = F.unsqueeze(attn_mask, 0) if attn_mask.shape[0] == 1 and \
            attn_mask.ndim == 3 else F.view(attn_mask, (bsz, heads, -1, src_len))
    q = F.view(q, (bsz, heads, tgt_len, head_dim))
    k = F.view(k, (bsz, heads, src_len, head_dim))
    v = F.view(v, (bsz, heads, src_len, head_dim))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = F.reshape(F.permute(out, (2, 0, 1, 3)), (bsz * tgt_len, embed_dim))
    out = _out_projection(out, p, shape)
    return (out if batched else F.squeeze(out, 1)), None


def _project(query, key, value, p: dict, separate: bool) -> tuple:
    bias = p["in_proj_bias"]
    if not separate:
        if p["in_proj_weight"] is None:
            raise _assertion("use_separate_proj_weight is False but in_proj_weight is None")
        return _in_projection_packed(query, key, value, p["in_proj_weight"], bias)
    for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
        if p[name] is None:
            raise _assertion(f"use_separate_proj_weight is True but {name} is None")
    biases = (None,) * 3 if bias is None else F.chunk(bias, 3)
    return _in_projection(query, key, value, (p["q_proj_weight"], p["k_proj_weight"],
                                              p["v_proj_weight"]), biases)


def _pad_masks(attn_mask, key_padding_mask) -> tuple:
    return tuple(None if m is None else F.pad(m, (0, 1)) for m in (attn_mask, key_padding_mask))


def _out_projection(out: Tensor, p: dict, shape: tuple) -> Tensor:
    out = F.linear(out, p["out_proj.weight"], p["out_proj.bias"])
    return F.view(out, (shape[0], shape[1], out.shape[1]))


def _with_weights(q, k, v, attn_mask, dropout_p, is_causal, p, shape, heads, average, batched):
    """The need_weights branch: baddbmm (or bmm) of the scaled query and key, softmax,
    dropout, bmm with value, then the weights viewed per head and averaged."""
    tgt_len, bsz, embed_dim = shape
    q_scaled = F.mul(q, math.sqrt(1.0 / float(q.shape[2])))
    if is_causal and attn_mask is None:
        raise _assertion("FIXME: is_causal not implemented for need_weights")
    scores = F.baddbmm(attn_mask, q_scaled, F.transpose(k, -2, -1)) if attn_mask is not None \
        else F.bmm(q_scaled, F.transpose(k, -2, -1))
    weights = F.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p)
    out = F.bmm(weights, v)
    out = F.reshape(F.transpose(out, 0, 1), (tgt_len * bsz, embed_dim))
    out = _out_projection(out, p, shape)
    weights = F.view(weights, (bsz, heads, tgt_len, weights.shape[-1]))
    if average:
        weights = F.mean(weights, 1)
    if not batched:
        out, weights = F.squeeze(out, 1), F.squeeze(weights, 0)
    return out, weights


# ---- the module's forward -------------------------------------------------------------------

def _why_not_fast_path(module: Module, query, key, value, attn_mask, key_padding_mask) -> bool:
    """Whether MultiheadAttention.forward leaves its fast path (in torch's order of checks)."""
    a, p = module.attrs, module.params
    bias, weight = p["in_proj_bias"], p["in_proj_weight"]
    out_proj = module.children["out_proj"].params
    floating = (attn_mask is not None and attn_mask.dtype.is_floating_point) or (
        key_padding_mask is not None and key_padding_mask.dtype.is_floating_point)
    return (floating or query.ndim != 3 or query is not key or key is not value
            or (bias is not None and query.dtype is not bias.dtype)
            or weight is None or query.dtype is not weight.dtype
            or a["training"] or a["num_heads"] % 2 != 0 or not a["batch_first"]
            or member(module, "bias_k") is not None or member(module, "bias_v") is not None
            or a["add_zero_attn"] or not a["_qkv_same_embed_dim"]
            or (STATE.grad_enabled and any(
                t is not None and t.requires_grad
                for t in (query, weight, bias, out_proj["weight"], out_proj["bias"])))
            or bias is None)


def forward(ctx, module: Module, query, key, value, key_padding_mask=None, need_weights=True,
            attn_mask=None, average_attn_weights=True, is_causal=False):
    """MultiheadAttention.forward: the masks made canonical, the fast path's conditions, the
    batch-first layout turned to sequence-first (keeping which inputs are the same tensor),
    then F.multi_head_attention_forward."""
    _check_floating_masks(attn_mask, key_padding_mask)
    batched = query.ndim == 3
    slow = _why_not_fast_path(module, query, key, value, attn_mask, key_padding_mask)
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", dtype_of(attn_mask),
                                      "attn_mask", query.dtype)
    attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
    a = module.attrs
    if not slow:
        return _fast_path(module, query, key_padding_mask, need_weights, attn_mask,
                          average_attn_weights)
    for t in (key, value):
        if not isinstance(t, Tensor):
            raise errors.no_attribute(t, "is_nested")
    if a["batch_first"] and batched:
        if key is value:
            if query is key:
                query = key = value = F.transpose(query, 1, 0)
            else:
                query, key = F.transpose(query, 1, 0), F.transpose(key, 1, 0)
                value = key
        else:
            query, key, value = (F.transpose(t, 1, 0) for t in (query, key, value))
    out, weights = forward_core(query, key, value, a, _parameters(module), a["training"],
                                key_padding_mask, need_weights, attn_mask, average_attn_weights,
                                is_causal)
    if a["batch_first"] and batched:
        out = F.transpose(out, 1, 0)
    return out, weights


def _parameters(module: Module) -> dict:
    out_proj = module.children["out_proj"]
    found = {name: member(module, name) for name in (
        "in_proj_weight", "in_proj_bias", "q_proj_weight", "k_proj_weight", "v_proj_weight",
        "bias_k", "bias_v")}
    found.update({"out_proj.weight": out_proj.attribute("weight"),
                  "out_proj.bias": out_proj.attribute("bias")})
    return found


def _fast_path(module: Module, query, key_padding_mask, need_weights, attn_mask, average):
    """torch._native_multi_head_attention's visible behaviour: the values of `fused`, a
    contiguous output, and weights only when asked for."""
    out, weights = fused(module, query, key_padding_mask, attn_mask, average)
    return F.contiguous(out), weights if need_weights else None


def fused(module: Module, query, key_padding_mask, attn_mask, average: bool = True) -> tuple:
    """The fused self-attention of batch-first `query` (the fast paths' kernel), computed with
    the slow path's arithmetic: its softmax leaves fully masked rows NaN whether or not weights
    are wanted, and it takes no is_causal hint."""
    with grad_mode(False):
        x = F.transpose(query, 1, 0)
        out, weights = forward_core(x, x, x, module.attrs, _parameters(module), False,
                                    key_padding_mask, True, attn_mask, average, False)
        return F.transpose(out, 1, 0), weights
