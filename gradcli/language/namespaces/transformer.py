"""nn.TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer, TransformerDecoder and
Transformer as torch's Python code builds and runs them (torch/nn/modules/transformer.py): the
children in torch's order (so parameters are drawn as torch draws them), forwards that call
them as modules, and the encoder's fast paths.

In eval mode with no gradient to record, an encoder layer runs
`torch._transformer_encoder_layer_fwd` and an encoder given a left-aligned padding mask runs
its layers on a nested tensor; gradcli computes both with the slow path's arithmetic and shows
what differs: the fused attention ignores is_causal and leaves fully masked rows NaN, and the
nested tensor's padding comes back as zeros."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered
from gradcli.language.namespaces import multihead as MH
from gradcli.language.namespaces.modules import Module
from gradcli.language.namespaces.python_copy import deepcopy
from gradcli.language.runtime.signatures import entry, table


def _activation(activation, functions: dict):
    """_get_activation_fn for a string; any other value is kept as given."""
    if not isinstance(activation, str):
        return activation
    if activation in ("relu", "gelu"):
        return functions[activation]
    raise errors.runtime(f"activation should be relu/gelu, not {activation}")


def build_layer(decoder: bool):
    """TransformerEncoderLayer/TransformerDecoderLayer.__init__; `make(kind_name, *options)`
    constructs a torch.nn module with all its options given."""
    def build(module: Module, d_model, nhead, dim_feedforward, dropout, activation,
              layer_norm_eps, batch_first, norm_first, bias, device, dtype, make, functions):
        def attention():
            return make("MultiheadAttention", d_model, nhead, dropout, bias, False, False, None,
                        None, batch_first, device, dtype)
        module.set_attribute("self_attn", attention())
        if decoder:
            module.set_attribute("multihead_attn", attention())
        module.set_attribute("linear1", make("Linear", d_model, dim_feedforward, bias, device,
                                             dtype))
        module.set_attribute("dropout", make("Dropout", dropout, False))
        module.set_attribute("linear2", make("Linear", dim_feedforward, d_model, bias, device,
                                             dtype))
        module.attrs["norm_first"] = norm_first
        for name in ("norm1", "norm2", "norm3") if decoder else ("norm1", "norm2"):
            module.set_attribute(name, make("LayerNorm", d_model, layer_norm_eps, True, bias,
                                            device, dtype))
        for name in ("dropout1", "dropout2", "dropout3") if decoder else ("dropout1", "dropout2"):
            module.set_attribute(name, make("Dropout", dropout, False))
        activation = _activation(activation, functions)
        if not decoder:
            kind = activation.kind.name if isinstance(activation, Module) else None
            module.attrs["activation_relu_or_gelu"] = (
                1 if activation is functions["relu"] or kind == "ReLU" else
                2 if activation is functions["gelu"] or kind == "GELU" else 0)
        module.set_attribute("activation", activation)
    return build


def _is_encoder_layer(value) -> bool:
    return isinstance(value, Module) and value.kind.name == "TransformerEncoderLayer"


def _why_not_sparsity(layer) -> str:
    """TransformerEncoder.__init__'s reason not to use nested tensors, or ''."""
    if not _is_encoder_layer(layer):
        return "encoder_layer was not TransformerEncoderLayer"
    attn = layer.children["self_attn"]
    if layer.attrs["norm_first"]:
        return "encoder_layer.norm_first was True"
    if not attn.attrs["batch_first"]:
        return ("encoder_layer.self_attn.batch_first was not True(use batch_first for better "
                "inference performance)")
    if not attn.attrs["_qkv_same_embed_dim"]:
        return "encoder_layer.self_attn._qkv_same_embed_dim was not True"
    if attn.params["in_proj_bias"] is None:
        return "encoder_layer.self_attn was passed bias=False"
    if not layer.attrs["activation_relu_or_gelu"]:
        return "encoder_layer.activation_relu_or_gelu was not True"
    if layer.children["norm1"].attrs["eps"] != layer.children["norm2"].attrs["eps"]:
        return "encoder_layer.norm1.eps was not equal to encoder_layer.norm2.eps"
    if attn.attrs["num_heads"] % 2 == 1:
        return "encoder_layer.self_attn.num_heads is odd"
    return ""


def build_stack(decoder: bool):
    """TransformerEncoder/TransformerDecoder.__init__: num_layers deep copies in a ModuleList."""
    def build(module: Module, layer, num_layers, norm=None, enable_nested_tensor=True,
              mask_check=True, *, make):
        copies = [deepcopy(layer) for _ in range(num_layers)]
        module.set_attribute("layers", make("ModuleList", copies))
        module.attrs["num_layers"] = num_layers
        module.set_attribute("norm", norm)
        if decoder:
            return
        module.attrs.update(enable_nested_tensor=enable_nested_tensor,
                            use_nested_tensor=enable_nested_tensor, mask_check=mask_check)
        why = _why_not_sparsity(layer)
        if enable_nested_tensor and why:
            STATE.warn("UserWarning", "enable_nested_tensor is True, but self.use_nested_tensor "
                       f"is False because {why}")
            module.attrs["use_nested_tensor"] = False
    return build


# ---- masks ----------------------------------------------------------------------------------

def square_subsequent_mask(sz, device=None, dtype=None) -> Tensor:
    """Transformer.generate_square_subsequent_mask: -inf above the diagonal, 0 elsewhere."""
    return F.triu(F.full((sz, sz), float("-inf"), dtype), 1)


def _detect_is_causal(mask, is_causal, size) -> bool:
    """_detect_is_causal_mask: is_causal, or (when None) whether the mask is the causal one."""
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.shape[-2]
        causal = square_subsequent_mask(sz, dtype=mask.dtype)
        if mask.shape != causal.shape:
            return False
        return bool(np.all(mask.data == causal.data))
    return is_causal is True


def _seq_len(src: Tensor, batch_first: bool):
    return src.shape[0] if src.ndim == 2 else src.shape[1 if batch_first else 0]


# ---- the layers' forwards -------------------------------------------------------------------

def _call(ctx, module: Module, name: str, *args, **kwargs):
    return ctx.call(module.attribute(name), list(args), kwargs)


def _hooked(module: Module) -> bool:
    return any(m.hooks is not None and (m.hooks["forward"] or m.hooks["forward_pre"])
               for _, m in module.named_modules())


def _encoder_fast(module: Module, src) -> bool:
    """Whether TransformerEncoderLayer.forward takes torch's fused path."""
    c = module.children
    attn = c["self_attn"]
    if (src.ndim != 3 or module.attrs["training"] or not attn.attrs["batch_first"]
            or attn.params["in_proj_bias"] is None or not attn.attrs["_qkv_same_embed_dim"]
            or not module.attrs["activation_relu_or_gelu"]
            or c["norm1"].attrs["eps"] != c["norm2"].attrs["eps"]
            or attn.attrs["num_heads"] % 2 == 1 or _hooked(module)):
        return False
    tensors = [src] + [t for _, t in attn.named_parameters()] + [
        c[name].params[key] for name in ("norm1", "norm2", "linear1", "linear2")
        for key in ("weight", "bias")]
    return not (STATE.grad_enabled and any(t is not None and t.requires_grad for t in tensors))


def _fused_encoder_layer(module: Module, src, mask, key_padding_mask) -> Tensor:
    """torch._transformer_encoder_layer_fwd's values, with the slow path's arithmetic."""
    c = module.children

    def norm(name, x):
        n = c[name]
        return F.layer_norm(x, n.attrs["normalized_shape"], n.params["weight"], n.params["bias"],
                            n.attrs["eps"])

    def attention(x):
        return MH.fused(c["self_attn"], x, key_padding_mask, mask)[0]

    def feed_forward(x):
        hidden = F.linear(x, c["linear1"].params["weight"], c["linear1"].params["bias"])
        hidden = F.relu(hidden) if module.attrs["activation_relu_or_gelu"] == 1 else \
            F.gelu(hidden)
        return F.linear(hidden, c["linear2"].params["weight"], c["linear2"].params["bias"])

    with grad_mode(False):
        if module.attrs["norm_first"]:
            x = F.add(src, attention(norm("norm1", src)))
            return F.add(x, feed_forward(norm("norm2", x)))
        x = norm("norm1", F.add(src, attention(src)))
        return norm("norm2", F.add(x, feed_forward(x)))


def encoder_layer_forward(ctx, module: Module, src, src_mask=None, src_key_padding_mask=None,
                          is_causal=False):
    """TransformerEncoderLayer.forward: canonical masks, the fused path's conditions, then
    self-attention and feed-forward blocks, each added to its input, normalized after (or
    before, with norm_first)."""
    key_padding_mask = MH.canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                         MH.dtype_of(src_mask), "src_mask", src.dtype)
    mask = MH.canonical_mask(src_mask, "src_mask", None, "", src.dtype, False)
    if _encoder_fast(module, src):
        return _fused_encoder_layer(module, src, mask, key_padding_mask)

    def self_attention(x):
        out = _call(ctx, module, "self_attn", x, x, x, attn_mask=mask,
                    key_padding_mask=key_padding_mask, need_weights=False, is_causal=is_causal)
        return _call(ctx, module, "dropout1", out[0])

    return _blocks(ctx, module, src, [self_attention])


def _feed_forward(ctx, module: Module, x, last: str):
    hidden = _call(ctx, module, "activation", _call(ctx, module, "linear1", x))
    out = _call(ctx, module, "linear2", _call(ctx, module, "dropout", hidden))
    return _call(ctx, module, last, out)


def _blocks(ctx, module: Module, x, attentions: list):
    """The residual blocks: the attention ones, then feed-forward, each with its norm."""
    blocks = attentions + [lambda y: _feed_forward(ctx, module, y, f"dropout{len(attentions) + 1}")]
    for position, block in enumerate(blocks, 1):
        norm = f"norm{position}"
        if module.attrs["norm_first"]:
            x = F.add(x, block(_call(ctx, module, norm, x)))
        else:
            x = _call(ctx, module, norm, F.add(x, block(x)))
    return x


def decoder_layer_forward(ctx, module: Module, tgt, memory, tgt_mask=None, memory_mask=None,
                          tgt_key_padding_mask=None, memory_key_padding_mask=None,
                          tgt_is_causal=False, memory_is_causal=False):
    """TransformerDecoderLayer.forward: self-attention, attention over memory, feed-forward."""
    def self_attention(x):
        out = _call(ctx, module, "self_attn", x, x, x, attn_mask=tgt_mask,
                    key_padding_mask=tgt_key_padding_mask, is_causal=tgt_is_causal,
                    need_weights=False)
        return _call(ctx, module, "dropout1", out[0])

    def memory_attention(x):
        out = _call(ctx, module, "multihead_attn", x, memory, memory, attn_mask=memory_mask,
                    key_padding_mask=memory_key_padding_mask, is_causal=memory_is_causal,
                    need_weights=False)
        return _call(ctx, module, "dropout2", out[0])

    return _blocks(ctx, module, tgt, [self_attention, memory_attention])


# ---- the stacks' forwards -------------------------------------------------------------------

def _left_aligned(key_padding_mask: Tensor) -> bool:
    """torch._nested_tensor_from_mask_left_aligned: each row keeps a prefix, pads the rest."""
    kept = ~key_padding_mask.data.astype(bool) if key_padding_mask.data.dtype == bool else \
        key_padding_mask.data == 0
    return bool(np.all(kept[:, 1:] <= kept[:, :-1]))


def _nested_path(module: Module, src, mask, key_padding_mask) -> bool:
    """Whether TransformerEncoder.forward runs its layers on a nested tensor."""
    first = module.children["layers"].children["0"]
    if (not module.attrs.get("use_nested_tensor") or first.attrs["training"] or src.ndim != 3
            or key_padding_mask is None
            or (module.attrs.get("mask_check", True) and not _left_aligned(key_padding_mask))
            or mask is not None):
        return False
    c = first.children
    attn = c["self_attn"]
    tensors = [src, attn.params["in_proj_weight"], attn.params["in_proj_bias"],
               attn.children["out_proj"].params["weight"],
               attn.children["out_proj"].params["bias"]] + [
        c[name].params[key] for name in ("norm1", "norm2", "linear1", "linear2")
        for key in ("weight", "bias")]
    return not (STATE.grad_enabled and any(t is not None and t.requires_grad for t in tensors))


def encoder_forward(ctx, module: Module, src, mask=None, src_key_padding_mask=None,
                    is_causal=None):
    """TransformerEncoder.forward: canonical masks, the nested-tensor path's conditions, the
    causal hint detected from the mask, each layer, then the norm."""
    key_padding_mask = MH.canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                         MH.dtype_of(mask), "mask", src.dtype)
    mask = MH.canonical_mask(mask, "mask", None, "", src.dtype, False)
    layers = module.children["layers"].members()
    nested = _nested_path(module, src, mask, key_padding_mask)
    if nested:
        STATE.warn("UserWarning", _NESTED_WARNING, once=True)
    batch_first = layers[0].children["self_attn"].attrs["batch_first"]
    is_causal = _detect_is_causal(mask, is_causal, _seq_len(src, batch_first))
    output = src
    for layer in layers:
        output = ctx.call(layer, [output], {"src_mask": mask, "is_causal": is_causal,
                                            "src_key_padding_mask": key_padding_mask})
    if nested:  # to_padded_tensor(0.0): the padding the nested tensor left out is zeros
        kept = Tensor(np.expand_dims(key_padding_mask.data == 0, -1))
        output = F.where(kept, output, Tensor(np.zeros((), output.dtype.np), output.dtype))
    norm = module.attribute("norm")
    return output if norm is None else ctx.call(norm, [output], {})


_NESTED_WARNING = triggered(
    "The PyTorch API of nested tensors is in prototype stage and will change in the near "
    "future. We recommend specifying layout=torch.jagged when constructing a nested tensor, as "
    "this layout receives active development, has better operator coverage, and works with "
    "torch.compile.", "aten/src/ATen/NestedTensorImpl.cpp", 177)


def decoder_forward(ctx, module: Module, tgt, memory, tgt_mask=None, memory_mask=None,
                    tgt_key_padding_mask=None, memory_key_padding_mask=None,
                    tgt_is_causal=None, memory_is_causal=False):
    layers = module.children["layers"].members()
    batch_first = layers[0].children["self_attn"].attrs["batch_first"]
    tgt_is_causal = _detect_is_causal(tgt_mask, tgt_is_causal, _seq_len(tgt, batch_first))
    output = tgt
    for layer in layers:
        output = ctx.call(layer, [output, memory], {
            "tgt_mask": tgt_mask, "memory_mask": memory_mask,
            "tgt_key_padding_mask": tgt_key_padding_mask,
            "memory_key_padding_mask": memory_key_padding_mask, "tgt_is_causal": tgt_is_causal,
            "memory_is_causal": memory_is_causal})
    norm = module.attribute("norm")
    return output if norm is None else ctx.call(norm, [output], {})


# ---- nn.Transformer -------------------------------------------------------------------------

def build_transformer(module: Module, d_model, nhead, num_encoder_layers, num_decoder_layers,
                      dim_feedforward, dropout, activation, custom_encoder, custom_decoder,
                      layer_norm_eps, batch_first, norm_first, bias, device, dtype, *, make,
                      xavier) -> None:
    """Transformer.__init__: encoder and decoder (each a layer, its norm, the stack), then
    xavier_uniform_ on every parameter of more than one dimension."""
    options = (dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
               bias, device, dtype)
    for name, custom, count in (("encoder", custom_encoder, num_encoder_layers),
                                ("decoder", custom_decoder, num_decoder_layers)):
        if custom is None:
            kind = "TransformerEncoder" if name == "encoder" else "TransformerDecoder"
            layer = make(kind + "Layer", d_model, nhead, *options)
            norm = make("LayerNorm", d_model, layer_norm_eps, True, bias, device, dtype)
            custom = make(kind, layer, count, norm, *((True, True) if name == "encoder" else ()))
        module.set_attribute(name, custom)
    for _, p in module.named_parameters():
        if p.ndim > 1:
            xavier(p, 1.0, "uniform", None)
    module.attrs.update(d_model=d_model, nhead=nhead, batch_first=batch_first)


def transformer_forward(ctx, module: Module, src, tgt, src_mask=None, tgt_mask=None,
                        memory_mask=None, src_key_padding_mask=None, tgt_key_padding_mask=None,
                        memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                        memory_is_causal=False):
    batched = src.ndim == 3
    if not isinstance(tgt, Tensor):
        raise errors.no_attribute(tgt, "size")
    batch = 0 if module.attrs["batch_first"] else 1
    if batched and src.shape[batch] != tgt.shape[batch]:
        raise errors.runtime("the batch number of src and tgt must be equal")
    d_model = module.attrs["d_model"]
    if src.shape[-1] != d_model or tgt.shape[-1] != d_model:
        raise errors.runtime("the feature number of src and tgt must be equal to d_model")
    memory = _call(ctx, module, "encoder", src, mask=src_mask,
                   src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
    return _call(ctx, module, "decoder", tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                 tgt_key_padding_mask=tgt_key_padding_mask,
                 memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                 memory_is_causal=memory_is_causal)


class TransformerHost(Module):
    """nn.Transformer's values: nn.Module's methods and generate_square_subsequent_mask."""

    __slots__ = ()
    METHODS = table(entry("generate_square_subsequent_mask",
                          lambda module, sz, device, dtype: square_subsequent_mask(sz, device,
                                                                                   dtype),
                          "self, sz, device=None, dtype=None"))


SQUARE_MASK = entry("generate_square_subsequent_mask", square_subsequent_mask,
                    "sz, device=None, dtype=None")
