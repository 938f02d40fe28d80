"""torch.nn's classes: one table row per module kind, and nn.Parameter."""

from __future__ import annotations

from gradcli.engine.records import replace

import math
from collections import OrderedDict
from typing import Callable

from gradcli.engine import dtypes, errors, parameters
from gradcli.engine.ops import convolution as CV
from gradcli.engine.ops import nn_functional as NF
from gradcli.engine.ops import pool3d as P3
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.calls import invoke
from gradcli.language.namespaces import adaptive_softmax as AS
from gradcli.language.namespaces import distance_losses
from gradcli.language.namespaces import module_containers as MC
from gradcli.language.namespaces import multihead as MH
from gradcli.language.namespaces import lazy_modules as lazy
from gradcli.language.namespaces import nn_layers_more as layers
from gradcli.language.namespaces import nn_more as more
from gradcli.language.namespaces import recurrent as R
from gradcli.language.namespaces import recurrent_packed as RP
from gradcli.language.namespaces import transformer as TR
from gradcli.language.namespaces.buffers import BUFFER_TYPE, wrapped_data
from gradcli.language.namespaces.builtins import TENSOR_TYPE, register_parameter_type
from gradcli.language.namespaces.math_table import NN_FUNCTIONAL, TORCH_MATH
from gradcli.language.namespaces.nn_init import xavier
from gradcli.language.namespaces.module_members import (MEMBER_METHODS, add_module,
                                                        register_buffer)
from gradcli.language.namespaces.module_reset import RESET_METHODS
from gradcli.language.namespaces.module_state import STATE_METHODS
from gradcli.language.namespaces.modules import (KIND_METHODS, LEGACY_OPTIONS, MODULE_DELATTR,
                                                 MODULE_METHODS, MODULE_SETATTR, Module,
                                                 SEQUENTIAL_METHODS, ModuleKind, check_module,
                                                 construct, extend, options_repr)
from gradcli.language.namespaces import module_subclasses
from gradcli.language.runtime import classes, subclass_protocol
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.protocols import CLASS_METHODS, TENSOR_METHODS
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.coercions import truth


def _functional(name: str, source: dict = NN_FUNCTIONAL.table) -> Callable:
    """A forward that calls torch's function `name` with the inputs and the stored options."""
    function = source[name]

    def forward(ctx, module: Module, *inputs):
        options = {key: module.buffers[key] if key in _LOSS_BUFFERS else module.attrs[key]
                   for key in module.kind.option_names if key not in LEGACY_OPTIONS}
        return invoke(ctx, function, list(inputs), options)
    return forward


def _options_repr(*names: str) -> Callable:
    return lambda m, printer: ", ".join(f"{n}={printer.str(m.attrs[n])}" for n in names)


def _build_linear(module: Module, in_features, out_features, bias, device, dtype) -> None:
    module.attrs.update(in_features=in_features, out_features=out_features)
    weight, bias = parameters.linear(in_features, out_features, bias, dtype)
    module.params.update(weight=weight, bias=bias)


def _linear_forward(ctx, module: Module, x):
    params = module.params
    return invoke(ctx, NN_FUNCTIONAL.table["linear"], [x, params["weight"], params["bias"]], {})


def _linear_repr(module: Module, printer) -> str:
    attrs = module.attrs
    return (f"in_features={attrs['in_features']}, out_features={attrs['out_features']}, "
            f"bias={module.params['bias'] is not None}")


def _build_sequential(module: Module, *children) -> None:
    """Sequential(m1, m2, ...) names its children 0, 1, ...; Sequential(OrderedDict) by key,
    each added as add_module adds it (refusing a dotted or empty name)."""
    if len(children) == 1 and isinstance(children[0], OrderedDict):
        for name, child in children[0].items():
            add_module(module, name, child)
        return
    for position, child in enumerate(children):
        check_module(child)
        module.children[str(position)] = child


def _build_module_list(module: Module, modules=None) -> None:
    if modules is not None:  # torch's `self += modules`
        extend(module, modules)


def _build_data_parallel(module: Module, inner, device_ids, output_device, dim) -> None:
    """DataParallel on a machine without CUDA devices: it keeps the module and no devices."""
    if isinstance(inner, Module):
        module.children["module"] = inner
    else:
        module.attrs["module"] = inner
    module.attrs["device_ids"] = []


def _sequential_forward(ctx, module: Module, x):
    for child in module.members():
        x = ctx.call(child, [x], {})
    return x


def _leaky_relu_repr(module: Module, printer) -> str:
    inplace = ", inplace=True" if truth(module.attrs["inplace"]) else ""
    return f"negative_slope={printer.str(module.attrs['negative_slope'])}{inplace}"


def _ignore(module: Module, *args, **kwargs) -> None:
    """Identity takes any arguments and keeps none."""


def _no_forward(module: Module):
    raise errors.TorchError("NotImplementedError", f'Module [{module.class_name}] is missing the '
                            'required "forward" function')


def _tuple(value, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _conv_builder(spatial: int, transposed: bool = False):
    def build(module: Module, in_channels, out_channels, kernel_size, stride, padding, *rest):
        if transposed:
            output_padding, groups, bias, dilation, padding_mode, device, dtype = rest
            if padding_mode != "zeros":
                raise errors.value_error('Only "zeros" padding mode is supported for '
                                         f"{module.class_name}")
        else:
            dilation, groups, bias, padding_mode, device, dtype = rest
            output_padding = 0
        if groups <= 0:
            raise errors.value_error("groups must be a positive integer")
        if in_channels % groups:
            raise errors.value_error("in_channels must be divisible by groups")
        if out_channels % groups:
            raise errors.value_error("out_channels must be divisible by groups")
        if isinstance(padding, str) and not transposed:
            if padding not in ("same", "valid"):
                raise errors.value_error(f"Invalid padding string {padding!r}, should be one of "
                                         f"{ {'same', 'valid'} }")  # a set, in Python's order
            if padding == "same" and any(s != 1 for s in _tuple(stride, spatial)):
                raise errors.value_error("padding='same' is not supported for strided "
                                         "convolutions")
        else:
            padding = _tuple(padding, spatial)
        modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in modes:
            raise errors.value_error(f"padding_mode must be one of {modes}, but got "
                                     f"padding_mode='{padding_mode}'")
        kernel = _tuple(kernel_size, spatial)
        module.attrs.update(in_channels=in_channels, out_channels=out_channels,
                            kernel_size=kernel, stride=_tuple(stride, spatial), padding=padding,
                            dilation=_tuple(dilation, spatial), transposed=transposed,
                            output_padding=_tuple(output_padding, spatial), groups=groups,
                            padding_mode=padding_mode)
        channels = (in_channels, out_channels // groups) if transposed else (
            out_channels, in_channels // groups)
        weight, bias = parameters.kaiming_layer(
            (*channels, *kernel), bias, channels[1] * math.prod(kernel), dtype,
            bias_size=out_channels)
        module.params.update(weight=weight, bias=bias)
    return build


def _conv_forward(name: str):
    """torch's Conv forward: F.convNd with the module's weight, bias and options, through the
    function's own argument checks; a padding mode other than zeros pads the input with F.pad
    first (_reversed_padding_repeated_twice) and convolves it unpadded."""
    def forward(ctx, module: Module, x):
        a, p = module.attrs, module.params
        padding = a["padding"]
        if a["padding_mode"] != "zeros":  # F.pad first, then the convolution pads nothing
            x = invoke(ctx, NN_FUNCTIONAL.table["pad"], [x, _reversed_padding_twice(a)],
                       {"mode": a["padding_mode"]})
            padding = (0,) * len(a["kernel_size"])
        arguments = [x, p["weight"], p["bias"], a["stride"], padding, a["dilation"],
                     a["groups"]]
        return invoke(ctx, NN_FUNCTIONAL.table[name], arguments, {})
    return forward


def _reversed_padding_twice(a: dict) -> list:
    """_ConvNd's _reversed_padding_repeated_twice: F.pad's (left, right) pairs from the last
    dimension back; 'same' splits each dimension's total padding, the odd one to the right."""
    pairs = []
    for i in reversed(range(len(a["kernel_size"]))):
        if a["padding"] == "valid":
            pairs += [0, 0]
        elif a["padding"] == "same":
            total = a["dilation"][i] * (a["kernel_size"][i] - 1)
            pairs += [total // 2, total - total // 2]
        else:
            pairs += [a["padding"][i]] * 2
    return pairs


def _conv_repr(module: Module, printer) -> str:
    a = module.attrs
    spatial = len(a["kernel_size"])
    text = (f"{a['in_channels']}, {a['out_channels']}, kernel_size={a['kernel_size']}, "
            f"stride={a['stride']}")
    if a["padding"] != (0,) * spatial:
        text += f", padding={a['padding']}"
    if a["dilation"] != (1,) * spatial:
        text += f", dilation={a['dilation']}"
    if a["output_padding"] != (0,) * spatial:
        text += f", output_padding={a['output_padding']}"
    if a["groups"] != 1:
        text += f", groups={a['groups']}"
    if module.params["bias"] is None:
        text += ", bias=False"
    if a["padding_mode"] != "zeros":
        text += f", padding_mode={a['padding_mode']}"
    return text


_CONV_OPTIONS = ("in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, "
                 "groups=1, bias=True, padding_mode='zeros', device=None, dtype=None")
_CONV_TRANSPOSE_OPTIONS = ("in_channels, out_channels, kernel_size, stride=1, padding=0, "
                           "output_padding=0, groups=1, bias=True, dilation=1, "
                           "padding_mode='zeros', device=None, dtype=None")


def _conv_transpose_forward(spatial: int):
    """torch's ConvTransposeNd forward: the output padding (from output_size when given), then
    F.conv_transposeNd."""
    def forward(ctx, module: Module, x, output_size=None):
        a, p = module.attrs, module.params
        if a["padding_mode"] != "zeros":
            raise errors.value_error("Only `zeros` padding mode is supported for "
                                     f"ConvTranspose{spatial}d")
        output_padding = a["output_padding"]
        if output_size is not None:
            output_padding = more.transposed_output_padding(ctx, x, output_size, a, spatial)
        arguments = [x, p["weight"], p["bias"], a["stride"], a["padding"], output_padding,
                     a["groups"], a["dilation"]]
        return invoke(ctx, NN_FUNCTIONAL.table[f"conv_transpose{spatial}d"], arguments, {})
    return forward


def _max_pool_forward(function):
    def forward(ctx, module: Module, x):
        a = module.attrs
        return function(x, a["kernel_size"], a["stride"], a["padding"], a["dilation"],
                        a["ceil_mode"], a["return_indices"])
    return forward


def _build_pool(module: Module, kernel_size, stride=None, padding=0, *rest, names=()) -> None:
    module.attrs.update(kernel_size=kernel_size,
                        stride=stride if stride is not None else kernel_size, padding=padding)
    module.attrs.update(zip(names, rest))


def _pool_builder(*names):
    return lambda module, kernel_size, stride, padding, *rest: _build_pool(
        module, kernel_size, stride, padding, *rest, names=names)


def _avg_forward(function):
    def forward(ctx, module: Module, x):
        a = module.attrs
        return function(x, a["kernel_size"], a["stride"], a["padding"], a["ceil_mode"],
                        a["count_include_pad"], a["divisor_override"])
    return forward


def _avg1d_forward(ctx, module: Module, x):
    a = module.attrs
    return CV.avg_pool1d(x, a["kernel_size"], a["stride"], a["padding"], a["ceil_mode"],
                         a["count_include_pad"])


def _build_avg1d(module: Module, kernel_size, stride, padding, ceil_mode,
                 count_include_pad) -> None:
    module.attrs.update(kernel_size=_tuple(kernel_size, 1),
                        stride=_tuple(stride if stride is not None else kernel_size, 1),
                        padding=_tuple(padding, 1), ceil_mode=ceil_mode,
                        count_include_pad=count_include_pad)


def _build_batch_norm(module: Module, num_features, eps, momentum, affine, track_running_stats,
                      device, dtype) -> None:
    module.attrs.update(num_features=num_features, eps=eps, momentum=momentum, affine=affine,
                        track_running_stats=track_running_stats)
    dtype = dtype or STATE.default_dtype
    if affine:
        module.params.update(weight=parameters.filled((num_features,), 1.0, dtype),
                             bias=parameters.filled((num_features,), 0.0, dtype))
    else:
        module.params.update(weight=None, bias=None)
    if track_running_stats:
        module.buffers.update(
            running_mean=parameters.buffer((num_features,), 0, dtype),
            running_var=parameters.buffer((num_features,), 1, dtype),
            num_batches_tracked=parameters.buffer((), 0, dtypes.int64))
    else:
        module.buffers.update(running_mean=None, running_var=None, num_batches_tracked=None)


def _batch_norm_forward(dims: tuple, expected: str):
    def forward(ctx, module: Module, x):
        if x.ndim not in dims:
            raise errors.value_error(f"expected {expected} input (got {x.ndim}D input)")
        a, b = module.attrs, module.buffers
        factor = 0.0 if a["momentum"] is None else a["momentum"]
        if a["training"] and a["track_running_stats"] and b["num_batches_tracked"] is not None:
            tracked = b["num_batches_tracked"]
            parameters.write(tracked, tracked.data + 1)  # add_(1): its 0-d array stays
            factor = 1.0 / float(tracked.data) if a["momentum"] is None else a["momentum"]
        training = a["training"] or (b["running_mean"] is None and b["running_var"] is None)
        keep = not a["training"] or a["track_running_stats"]
        return NF.batch_norm(x, b["running_mean"] if keep else None,
                             b["running_var"] if keep else None, module.params["weight"],
                             module.params["bias"], training, factor, a["eps"])
    return forward


def _instance_norm_forward(dims: int):
    """_InstanceNorm.forward: the input's rank, its channels against num_features, an unbatched
    input run as a batch of one."""
    def forward(ctx, module: Module, x):
        if x.ndim not in (dims, dims + 1):
            raise errors.value_error(
                f"expected {dims}D or {dims + 1}D input (got {x.ndim}D input)")
        a, b = module.attrs, module.buffers
        feature_dim = x.ndim - dims
        if x.shape[feature_dim] != a["num_features"]:
            if a["affine"]:
                raise errors.value_error(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({a['num_features']}), but got: {x.shape[feature_dim]}.")
            STATE.warn("UserWarning", f"input's size at dim={feature_dim} does not match "
                       "num_features. You can silence this warning by not passing in "
                       "num_features, which is not used because affine=False")
        unbatched = x.ndim == dims
        if unbatched:
            x = F.unsqueeze(x, 0)
        out = NF.instance_norm(x, b["running_mean"], b["running_var"], module.params["weight"],
                               module.params["bias"],
                               a["training"] or not a["track_running_stats"],
                               0.0 if a["momentum"] is None else a["momentum"], a["eps"])
        return F.squeeze(out, 0) if unbatched else out
    return forward


def _batch_norm_repr(module: Module, printer) -> str:
    a = module.attrs
    return (f"{a['num_features']}, eps={printer.str(a['eps'])}, "
            f"momentum={printer.str(a['momentum'])}, affine={a['affine']}, bias={a['affine']}, "
            f"track_running_stats={a['track_running_stats']}")


def _build_layer_norm(module: Module, normalized_shape, eps, elementwise_affine, bias, device,
                      dtype) -> None:
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
        normalized_shape)
    module.attrs.update(normalized_shape=shape, eps=eps, elementwise_affine=elementwise_affine)
    weight = parameters.filled(shape, 1.0, dtype) if elementwise_affine else None
    bias = parameters.filled(shape, 0.0, dtype) if elementwise_affine and bias else None
    module.params.update(weight=weight, bias=bias)


def _layer_norm_repr(module: Module, printer) -> str:
    a = module.attrs
    return (f"{a['normalized_shape']}, eps={printer.str(a['eps'])}, "
            f"elementwise_affine={a['elementwise_affine']}, "
            f"bias={module.params['bias'] is not None}")


def _layer_norm_forward(ctx, module: Module, x):
    a = module.attrs
    return NF.layer_norm(x, a["normalized_shape"], module.params["weight"],
                         module.params["bias"], a["eps"])


def _build_embedding(module: Module, num_embeddings, embedding_dim, padding_idx, max_norm,
                     norm_type, scale_grad_by_freq, sparse, _weight, _freeze, device,
                     dtype) -> None:
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= num_embeddings:
            raise errors.TorchError("AssertionError", "Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            if padding_idx < -num_embeddings:
                raise errors.TorchError("AssertionError",
                                        "Padding_idx must be within num_embeddings")
            padding_idx += num_embeddings
    module.attrs.update(num_embeddings=num_embeddings, embedding_dim=embedding_dim,
                        padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                        scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)
    if _weight is not None:
        if not isinstance(_weight, Tensor):
            raise errors.no_attribute(_weight, "shape")
        if list(_weight.shape) != [num_embeddings, embedding_dim]:
            raise errors.TorchError("AssertionError", "Shape of weight does not match "
                                    "num_embeddings and embedding_dim")
        weight = parameters.parameter(_weight, not _freeze)
    else:
        weight = parameters.normal((num_embeddings, embedding_dim), dtype)
        weight.requires_grad = not _freeze
        if padding_idx is not None:
            weight.data[padding_idx] = 0  # weight[padding_idx].fill_(0), a view's new version
            weight.bump_version()
    module.params.update(weight=weight)


def _embedding_forward(ctx, module: Module, x):
    a = module.attrs
    return NF.embedding(x, module.params["weight"], a["padding_idx"], a["max_norm"],
                        a["norm_type"], a["scale_grad_by_freq"], a["sparse"])


def _embedding_repr(module: Module, printer) -> str:
    a = module.attrs
    return options_repr(module, printer, f"{a['num_embeddings']}, {a['embedding_dim']}",
                        ("padding_idx", None), ("max_norm", None), ("norm_type", 2.0),
                        ("scale_grad_by_freq", False), ("sparse", False))


def _dropout_forward(function: Callable = NF.dropout) -> Callable:
    def forward(ctx, module: Module, x):
        a = module.attrs
        return function(x, a["p"], a["training"], a["inplace"])
    return forward


def _build_dropout(module: Module, p, inplace) -> None:
    if p < 0 or p > 1:
        raise errors.value_error(f"dropout probability has to be between 0 and 1, but got {p}")
    module.attrs.update(p=p, inplace=inplace)


def _unflatten_forward(ctx, module: Module, x):
    """Unflatten.forward: input.unflatten(self.dim, self.unflattened_size), the method."""
    return ctx.call(BoundMethod(x, TENSOR_METHODS["unflatten"]),
                    [module.attrs["dim"], module.attrs["unflattened_size"]], {})


def _inplace_repr(module: Module, printer) -> str:
    return "inplace=True" if truth(module.attrs.get("inplace")) else ""


def _with_inplace(*names: str) -> Callable:
    base = _options_repr(*names)
    return lambda m, printer: base(m, printer) + (", inplace=True" if truth(m.attrs["inplace"]) else "")


def _build_hardtanh(module: Module, min_val, max_val, inplace) -> None:
    module.store_options({"min_val": min_val, "max_val": max_val, "inplace": inplace})
    if not truth(max_val > min_val):
        raise errors.TorchError("AssertionError", f"max_val ({max_val}) must be greater than "
                                f"min_val ({min_val})")


def _flatten_forward(ctx, module: Module, x):
    """Flatten.forward: input.flatten(self.start_dim, self.end_dim), the method."""
    return ctx.call(BoundMethod(x, TENSOR_METHODS["flatten"]),
                    [module.attrs["start_dim"], module.attrs["end_dim"]], {})


def _activation(name: str, function: str, options: str = "inplace=False",
                extra_repr: Callable = _inplace_repr, inputs: str = "input",
                package: str = "activation") -> ModuleKind:
    return ModuleKind(name, package, options, _functional(function), inputs,
                      extra_repr=extra_repr)


_LOSS = "size_average=None, reduce=None, reduction='mean'"
_DIM_FIRST = "input; input: .dim"  # the forward's Python code calls input.dim() first
_WEIGHTED = "weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'"


_LOSS_BUFFERS = ("weight", "pos_weight")  # what _WeightedLoss and BCEWithLogitsLoss register


def _build_loss(module: Module, *values) -> None:
    """_Loss.__init__ keeps the options; a weighted loss registers its weights as buffers."""
    options = dict(zip(module.kind.option_names, values))
    module.store_options({k: v for k, v in options.items() if k not in _LOSS_BUFFERS})
    for name in _LOSS_BUFFERS:
        if name in options:
            register_buffer(module, name, options[name])


def _loss(name: str, function: str, options: str = _LOSS,
          inputs: str = "input, target") -> ModuleKind:
    return ModuleKind(name, "loss", options, _functional(function), inputs, build=_build_loss)


def _alpha_dropout_forward(name: str) -> Callable:
    """AlphaDropout.forward: F.alpha_dropout(input, self.p, self.training) (no inplace)."""
    function = NN_FUNCTIONAL.table[name]
    return lambda ctx, module, x: invoke(ctx, function, [x, module.attrs["p"],
                                                         module.attrs["training"]], {})


def _lp_pool_forward(name: str) -> Callable:
    """LPPoolNd.forward: F.lp_poolNd(input, float(self.norm_type), ...)."""
    function = NN_FUNCTIONAL.table[name]
    return lambda ctx, module, x: invoke(ctx, function, [
        x, float(module.attrs["norm_type"]), module.attrs["kernel_size"], module.attrs["stride"],
        module.attrs["ceil_mode"]], {})


def _padding(name: str, mode: str, dims: int) -> ModuleKind:
    """nn.ZeroPadNd, ConstantPadNd, ReflectionPadNd, ReplicationPadNd: F.pad with the mode."""
    constant = name.startswith("Constant")
    return ModuleKind(name, "padding", "padding, value" if constant else "padding",
                      more.padding_forward(mode), inputs="input: Tensor@pad",
                      build=more.build_padding(dims),
                      extra_repr=more.constant_padding_repr if constant else more.padding_repr)


_LINEAR_OPTIONS = "in_features, out_features, bias=True, device=None, dtype=None"
_LINEAR = ModuleKind("Linear", "linear", _LINEAR_OPTIONS, _linear_forward, extra_repr=_linear_repr,
                     build=_build_linear)
# MultiheadAttention's out_proj: a Linear subclass torch.nn does not export
_QUANTIZABLE_LINEAR = ModuleKind(
    "NonDynamicallyQuantizableLinear", "linear", _LINEAR_OPTIONS, _linear_forward,
    extra_repr=_linear_repr, build=_build_linear,
    host=type("NonDynamicallyQuantizableLinear", (_LINEAR.host,), {"__slots__": ()}))


def _build_multihead(module: Module, *options) -> None:
    MH.build(module, *options, linear=lambda *sizes: construct(_QUANTIZABLE_LINEAR, *sizes))


def _make(name: str, *options) -> Module:
    """A torch.nn module built inside another's constructor, every option given."""
    return construct(next(kind for kind in KINDS if kind.name == name), *options)


_ACTIVATIONS = {"relu": NN_FUNCTIONAL.table["relu"], "gelu": NN_FUNCTIONAL.table["gelu"]}
_LAYER_OPTIONS = ("d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu', "
                  "layer_norm_eps=1e-05, batch_first=False, norm_first=False, bias=True, "
                  "device=None, dtype=None")


def _transformer_kinds() -> list:
    """nn.Transformer and its parts (transformer.py)."""
    def layer(decoder: bool):
        build = TR.build_layer(decoder)
        return lambda module, *options: build(module, *options, make=_make,
                                              functions=_ACTIVATIONS)

    def stack(decoder: bool):
        build = TR.build_stack(decoder)
        return lambda module, *options: build(module, *options, make=_make)

    return [
        ModuleKind("TransformerEncoderLayer", "transformer", _LAYER_OPTIONS,
                   TR.encoder_layer_forward, "src, src_mask=None, src_key_padding_mask=None, "
                   "is_causal=False; src: .dim", build=layer(False)),
        ModuleKind("TransformerDecoderLayer", "transformer", _LAYER_OPTIONS,
                   TR.decoder_layer_forward, "tgt, memory, tgt_mask=None, memory_mask=None, "
                   "tgt_key_padding_mask=None, memory_key_padding_mask=None, "
                   "tgt_is_causal=False, memory_is_causal=False", build=layer(True)),
        ModuleKind("TransformerEncoder", "transformer", "encoder_layer, num_layers, norm=None, "
                   "enable_nested_tensor=True, mask_check=True", TR.encoder_forward,
                   "src, mask=None, src_key_padding_mask=None, is_causal=None; src: .dim",
                   build=stack(False)),
        ModuleKind("TransformerDecoder", "transformer", "decoder_layer, num_layers, norm=None",
                   TR.decoder_forward, "tgt, memory, tgt_mask=None, memory_mask=None, "
                   "tgt_key_padding_mask=None, memory_key_padding_mask=None, "
                   "tgt_is_causal=None, memory_is_causal=False", build=stack(True)),
        ModuleKind("Transformer", "transformer", "d_model=512, nhead=8, num_encoder_layers=6, "
                   "num_decoder_layers=6, dim_feedforward=2048, dropout=0.1, "
                   "activation='relu', custom_encoder=None, custom_decoder=None, "
                   "layer_norm_eps=1e-05, batch_first=False, norm_first=False, bias=True, "
                   "device=None, dtype=None", TR.transformer_forward,
                   "src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, "
                   "src_key_padding_mask=None, tgt_key_padding_mask=None, "
                   "memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None, "
                   "memory_is_causal=False; src: .dim",
                   build=lambda module, *options: TR.build_transformer(
                       module, *options, make=_make, xavier=xavier),
                   host=TR.TransformerHost),
    ]


KINDS = [
    ModuleKind("AdaptiveLogSoftmaxWithLoss", "adaptive", "in_features, n_classes, cutoffs, "
               "div_value=4.0, head_bias=False, device=None, dtype=None", AS.forward,
               "input_, target_", build=lambda module, *options: AS.build(module, *options,
                                                                          make=_make),
               host=AS.AdaptiveHost),
    ModuleKind("Module", "module", "", lambda ctx, m, *inputs: _no_forward(m), "*input",
               host=Module),
    _LINEAR,
    ModuleKind("Identity", "linear", "*args, **kwargs", lambda ctx, m, x: x, build=_ignore),
    ModuleKind("Flatten", "flatten", "start_dim=1, end_dim=-1", _flatten_forward,
               inputs="input; input: .flatten",
               extra_repr=_options_repr("start_dim", "end_dim")),
    ModuleKind("Sequential", "container", "*args", _sequential_forward, build=_build_sequential,
               sequence=True),
    ModuleKind("ModuleList", "container", "modules=None", lambda ctx, m, *inputs: _no_forward(m),
               "*input", build=_build_module_list, sequence=True, grouped=True),
    # without devices, forward calls the module itself
    ModuleKind("DataParallel", "", "module, device_ids=None, output_device=None, dim=0",
               lambda ctx, m, *inputs, **kwargs: ctx.call(m.attribute("module"), list(inputs), kwargs),
               "*inputs, **kwargs", build=_build_data_parallel,
               path="torch.nn.parallel.data_parallel"),
    ModuleKind("RNN", "rnn", "input_size, hidden_size, num_layers=1, nonlinearity='tanh', "
               "bias=True, batch_first=False, dropout=0.0, bidirectional=False, device=None, "
               "dtype=None", RP.forward, "input, hx=None",
               extra_repr=R.layer_repr,
               build=R.build_layer(None), host=R.host("RNN")),
    ModuleKind("LSTM", "rnn", "input_size, hidden_size, num_layers=1, bias=True, "
               "batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None, "
               "dtype=None", RP.forward, "input, hx=None",
               extra_repr=R.layer_repr,
               build=R.build_layer("LSTM"), host=R.host("LSTM")),
    ModuleKind("GRU", "rnn", "input_size, hidden_size, num_layers=1, bias=True, "
               "batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None",
               RP.forward, "input, hx=None", extra_repr=R.layer_repr,
               build=R.build_layer("GRU"), host=R.host("GRU")),
    ModuleKind("RNNCell", "rnn", "input_size, hidden_size, bias=True, nonlinearity='tanh', "
               "device=None, dtype=None", R.cell_forward, "input, hx=None; input: .dim",
               extra_repr=R.cell_repr, build=R.build_cell(None), host=R.cell_host("RNNCell")),
    ModuleKind("LSTMCell", "rnn", "input_size, hidden_size, bias=True, device=None, dtype=None",
               R.cell_forward, "input, hx=None; input: .dim", extra_repr=R.cell_repr,
               build=R.build_cell("LSTM"), host=R.cell_host("LSTMCell")),
    ModuleKind("GRUCell", "rnn", "input_size, hidden_size, bias=True, device=None, dtype=None",
               R.cell_forward, "input, hx=None; input: .dim", extra_repr=R.cell_repr,
               build=R.build_cell("GRU"), host=R.cell_host("GRUCell")),
    ModuleKind("ModuleDict", "container", "modules=None", lambda ctx, m, *inputs: _no_forward(m),
               "*input", build=MC.build_module_dict, host=MC.ModuleDictHost),
    ModuleKind("ParameterList", "container", "values=None", MC.not_callable, "*input",
               build=MC.build_parameter_list,
               host=MC.ParameterListHost, extra_repr=MC.parameter_list_repr),
    ModuleKind("ParameterDict", "container", "parameters=None", MC.not_callable, "*input",
               build=MC.build_parameter_dict,
               host=MC.ParameterDictHost, extra_repr=MC.parameter_dict_repr),
    ModuleKind("ReLU", "activation", "inplace=False", _functional("relu"),
               extra_repr=lambda m, printer: "inplace=True" if truth(m.attrs["inplace"]) else ""),
    ModuleKind("LeakyReLU", "activation", "negative_slope=0.01, inplace=False",
               _functional("leaky_relu"), extra_repr=_leaky_relu_repr),
    ModuleKind("Sigmoid", "activation", "", _functional("sigmoid", TORCH_MATH)),
    ModuleKind("Tanh", "activation", "", _functional("tanh", TORCH_MATH)),
    ModuleKind("Softmax", "activation", "dim=None", _functional("softmax"),
               extra_repr=_options_repr("dim")),
    ModuleKind("LogSoftmax", "activation", "dim=None", _functional("log_softmax"),
               extra_repr=_options_repr("dim")),
    ModuleKind("Conv1d", "conv", _CONV_OPTIONS, _conv_forward("conv1d"),
               extra_repr=_conv_repr, build=_conv_builder(1)),
    ModuleKind("Conv2d", "conv", _CONV_OPTIONS, _conv_forward("conv2d"),
               extra_repr=_conv_repr, build=_conv_builder(2)),
    ModuleKind("Conv3d", "conv", _CONV_OPTIONS, _conv_forward("conv3d"),
               extra_repr=_conv_repr, build=_conv_builder(3)),
    ModuleKind("ConvTranspose1d", "conv", _CONV_TRANSPOSE_OPTIONS, _conv_transpose_forward(1),
               "input, output_size=None", extra_repr=_conv_repr, build=_conv_builder(1, True)),
    ModuleKind("ConvTranspose2d", "conv", _CONV_TRANSPOSE_OPTIONS, _conv_transpose_forward(2),
               "input, output_size=None", extra_repr=_conv_repr, build=_conv_builder(2, True)),
    ModuleKind("ConvTranspose3d", "conv", _CONV_TRANSPOSE_OPTIONS, _conv_transpose_forward(3),
               "input, output_size=None", extra_repr=_conv_repr, build=_conv_builder(3, True)),
    ModuleKind("MaxPool1d", "pooling", "kernel_size, stride=None, padding=0, dilation=1, "
               "return_indices=False, ceil_mode=False", _max_pool_forward(CV.max_pool1d),
               inputs="input: Tensor@max_pool1d",
               extra_repr=_options_repr("kernel_size", "stride", "padding", "dilation",
                                        "ceil_mode"),
               build=_pool_builder("dilation", "return_indices", "ceil_mode")),
    *(ModuleKind(f"MaxPool{n}d", "pooling", "kernel_size, stride=None, padding=0, dilation=1, "
                 "return_indices=False, ceil_mode=False", _max_pool_forward(function),
                 inputs=f"input: Tensor@max_pool{n}d",
                 extra_repr=_options_repr("kernel_size", "stride", "padding", "dilation",
                                          "ceil_mode"),
                 build=_pool_builder("dilation", "return_indices", "ceil_mode"))
      for n, function in ((2, CV.max_pool2d), (3, P3.max_pool3d))),
    ModuleKind("AvgPool1d", "pooling", "kernel_size, stride=None, padding=0, ceil_mode=False, "
               "count_include_pad=True", _avg1d_forward, inputs="input: Tensor@avg_pool1d",
               extra_repr=_options_repr("kernel_size", "stride", "padding"),
               build=_build_avg1d),
    *(ModuleKind(f"AvgPool{n}d", "pooling", "kernel_size, stride=None, padding=0, "
                 "ceil_mode=False, count_include_pad=True, divisor_override=None",
                 _avg_forward(function), inputs=f"input: Tensor@avg_pool{n}d",
                 extra_repr=_options_repr("kernel_size", "stride", "padding"),
                 build=_pool_builder("ceil_mode", "count_include_pad", "divisor_override"))
      for n, function in ((2, CV.avg_pool2d), (3, P3.avg_pool3d))),
    ModuleKind("AdaptiveAvgPool1d", "pooling", "output_size",
               _functional("adaptive_avg_pool1d"), extra_repr=_options_repr("output_size")),
    *(ModuleKind(f"AdaptiveAvgPool{n}d", "pooling", "output_size",
                 _functional(f"adaptive_avg_pool{n}d"), extra_repr=_options_repr("output_size"))
      for n in (2, 3)),
    *(ModuleKind(f"AdaptiveMaxPool{n}d", "pooling", "output_size, return_indices=False",
                 _functional(f"adaptive_max_pool{n}d"), extra_repr=_options_repr("output_size"))
      for n in (1, 2, 3)),
    *(ModuleKind(f"FractionalMaxPool{n}d", "pooling", "kernel_size, output_size=None, "
                 "output_ratio=None, return_indices=False, _random_samples=None",
                 layers.fractional_pool_forward(n), build=layers.build_fractional_pool(n))
      for n in (2, 3)),
    *(ModuleKind(f"MaxUnpool{n}d", "pooling", "kernel_size, stride=None, padding=0",
                 layers.unpool_forward(n), "input, indices, output_size=None",
                 extra_repr=_options_repr("kernel_size", "stride", "padding"),
                 build=layers.build_unpool(n)) for n in (1, 2, 3)),
    ModuleKind("BatchNorm1d", "batchnorm", "num_features, eps=1e-05, momentum=0.1, affine=True, "
               "track_running_stats=True, device=None, dtype=None",
               _batch_norm_forward((2, 3), "2D or 3D"), inputs=_DIM_FIRST,
               extra_repr=_batch_norm_repr,
               build=_build_batch_norm),
    ModuleKind("BatchNorm2d", "batchnorm", "num_features, eps=1e-05, momentum=0.1, affine=True, "
               "track_running_stats=True, device=None, dtype=None",
               _batch_norm_forward((4,), "4D"), inputs=_DIM_FIRST, extra_repr=_batch_norm_repr,
               build=_build_batch_norm),
    ModuleKind("BatchNorm3d", "batchnorm", "num_features, eps=1e-05, momentum=0.1, affine=True, "
               "track_running_stats=True, device=None, dtype=None",
               _batch_norm_forward((5,), "5D"), inputs=_DIM_FIRST, extra_repr=_batch_norm_repr,
               build=_build_batch_norm),
    *(ModuleKind(f"InstanceNorm{dims - 1}d", "instancenorm", "num_features, eps=1e-05, "
                 "momentum=0.1, affine=False, track_running_stats=False, device=None, dtype=None",
                 _instance_norm_forward(dims), inputs=_DIM_FIRST, extra_repr=_batch_norm_repr,
                 build=_build_batch_norm) for dims in (2, 3, 4)),
    ModuleKind("LayerNorm", "normalization", "normalized_shape, eps=1e-05, "
               "elementwise_affine=True, bias=True, device=None, dtype=None",
               _layer_norm_forward, inputs="input: Tensor@layer_norm",
               extra_repr=_layer_norm_repr, build=_build_layer_norm),
    ModuleKind("LocalResponseNorm", "normalization", "size, alpha=0.0001, beta=0.75, k=1.0",
               _functional("local_response_norm"), extra_repr=layers.local_response_norm_repr),
    ModuleKind("RMSNorm", "normalization", "normalized_shape, eps=None, "
               "elementwise_affine=True, device=None, dtype=None", more.rms_norm_forward,
               extra_repr=more.rms_norm_repr, build=more.build_rms_norm),
    ModuleKind("Softmax2d", "activation", "", more.softmax2d_forward, inputs=_DIM_FIRST),
    *(ModuleKind(f"LPPool{dims}d", "pooling", "norm_type, kernel_size, stride=None, "
                 "ceil_mode=False", _lp_pool_forward(f"lp_pool{dims}d"),
                 extra_repr=_options_repr("norm_type", "kernel_size", "stride", "ceil_mode"))
      for dims in (1, 2, 3)),
    ModuleKind("ChannelShuffle", "channelshuffle", "groups", _functional("channel_shuffle"),
               extra_repr=_options_repr("groups")),
    *(ModuleKind(name, "dropout", "p=0.5, inplace=False", _alpha_dropout_forward(function),
                 extra_repr=_options_repr("p", "inplace"), build=_build_dropout)
      for name, function in (("AlphaDropout", "alpha_dropout"),
                             ("FeatureAlphaDropout", "feature_alpha_dropout"))),
    *(ModuleKind(name, "dropout", "p=0.5, inplace=False", _dropout_forward(function),
                 inputs="input: Tensor@dropout" if name == "Dropout" else _DIM_FIRST,
                 extra_repr=_options_repr("p", "inplace"), build=_build_dropout)
      for name, function in (("Dropout", NF.dropout), ("Dropout1d", NF.dropout1d),
                             ("Dropout2d", NF.dropout2d), ("Dropout3d", NF.dropout3d))),
    ModuleKind("Embedding", "sparse", "num_embeddings, embedding_dim, padding_idx=None, "
               "max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False, "
               "_weight=None, _freeze=False, device=None, dtype=None", _embedding_forward,
               extra_repr=_embedding_repr, build=_build_embedding),
    ModuleKind("EmbeddingBag", "sparse", "num_embeddings, embedding_dim, max_norm=None, "
               "norm_type=2.0, scale_grad_by_freq=False, mode='mean', sparse=False, "
               "_weight=None, include_last_offset=False, padding_idx=None, device=None, "
               "dtype=None", more.embedding_bag_forward,
               "input, offsets=None, per_sample_weights=None",
               extra_repr=more.embedding_bag_repr, build=more.build_embedding_bag),
    ModuleKind("Unflatten", "flatten", "dim, unflattened_size", _unflatten_forward,
               inputs="input; input: .unflatten",
               extra_repr=_options_repr("dim", "unflattened_size")),
    *(_padding(f"{kind}Pad{dims}d", mode, dims) for dims in (1, 2, 3)
      for kind, mode in (("Zero", "constant"), ("Constant", "constant"), ("Reflection", "reflect"),
                         ("Replication", "replicate"))),
    *(ModuleKind(f"CircularPad{dims}d", "padding", "padding", layers.circular_pad_forward(dims),
                 build=layers.build_circular_pad(dims), extra_repr=more.padding_repr)
      for dims in (1, 2, 3)),
    ModuleKind("PReLU", "activation", "num_parameters=1, init=0.25, device=None, dtype=None",
               more.prelu_forward, inputs="input: Tensor@prelu", build=more.build_prelu,
               extra_repr=lambda m, printer: f"num_parameters={m.attrs['num_parameters']}"),
    ModuleKind("RReLU", "activation", "lower=0.125, upper=0.3333333333333333, inplace=False",
               layers.rrelu_forward, extra_repr=layers.rrelu_repr),
    _activation("ReLU6", "relu6"),
    _activation("ELU", "elu", "alpha=1.0, inplace=False", _with_inplace("alpha")),
    _activation("CELU", "celu", "alpha=1.0, inplace=False", _with_inplace("alpha")),
    _activation("SELU", "selu"),
    _activation("GELU", "gelu", "approximate='none'",
                lambda m, printer: f"approximate={printer.repr(m.attrs['approximate'])}"),
    _activation("SiLU", "silu"),
    _activation("Mish", "mish"),
    _activation("Hardswish", "hardswish"),
    _activation("Hardsigmoid", "hardsigmoid"),
    _activation("Softplus", "softplus", "beta=1.0, threshold=20.0",
                _options_repr("beta", "threshold")),
    ModuleKind("Hardtanh", "activation", "min_val=-1.0, max_val=1.0, inplace=False",
               _functional("hardtanh"), "input", extra_repr=_with_inplace("min_val", "max_val"),
               build=_build_hardtanh),
    _activation("LogSigmoid", "logsigmoid", ""),
    _activation("Softsign", "softsign", ""),
    _activation("Tanhshrink", "tanhshrink", ""),
    _activation("Softmin", "softmin", "dim=None", _options_repr("dim")),
    _activation("Softshrink", "softshrink", "lambd=0.5",
                lambda m, printer: printer.str(m.attrs["lambd"])),
    _activation("Hardshrink", "hardshrink", "lambd=0.5",
                lambda m, printer: printer.str(m.attrs["lambd"])),
    _activation("Threshold", "threshold", "threshold, value, inplace=False",
                _with_inplace("threshold", "value")),
    _activation("CosineSimilarity", "cosine_similarity", "dim=1, eps=1e-08",
                lambda m, printer: "", "x1, x2", "distance"),
    _activation("PairwiseDistance", "pairwise_distance", "p=2.0, eps=1e-06, keepdim=False",
                lambda m, printer: "", "x1, x2", "distance"),
    _loss("KLDivLoss", "kl_div", _LOSS + ", log_target=False"),
    _loss("CTCLoss", "ctc_loss", "blank=0, reduction='mean', zero_infinity=False",
          "log_probs, targets, input_lengths, target_lengths"),
    _loss("HuberLoss", "huber_loss", "reduction='mean', delta=1.0"),
    _loss("MSELoss", "mse_loss"),
    _loss("L1Loss", "l1_loss"),
    _loss("SmoothL1Loss", "smooth_l1_loss", _LOSS + ", beta=1.0"),
    _loss("BCELoss", "binary_cross_entropy", "weight=None, " + _LOSS),
    ModuleKind("MultiMarginLoss", "loss", "p=1, margin=1.0, weight=None, size_average=None, "
               "reduce=None, reduction='mean'", layers.multi_margin_forward, "input, target",
               build=layers.build_multi_margin),
    _loss("MultiLabelSoftMarginLoss", "multilabel_soft_margin_loss", "weight=None, " + _LOSS),
    _loss("SoftMarginLoss", "soft_margin_loss"),
    _loss("MultiLabelMarginLoss", "multilabel_margin_loss"),
    _loss("BCEWithLogitsLoss", "binary_cross_entropy_with_logits",
          "weight=None, " + _LOSS + ", pos_weight=None"),
    _loss("CrossEntropyLoss", "cross_entropy", _WEIGHTED + ", label_smoothing=0.0"),
    _loss("NLLLoss", "nll_loss", _WEIGHTED),
    _loss("HingeEmbeddingLoss", "hinge_embedding_loss", "margin=1.0, " + _LOSS),
    _loss("PoissonNLLLoss", "poisson_nll_loss", "log_input=True, full=False, size_average=None, "
          "eps=1e-08, reduce=None, reduction='mean'", "log_input, target"),
    ModuleKind("GaussianNLLLoss", "loss", "*, full=False, eps=1e-06, reduction='mean'",
               _functional("gaussian_nll_loss"), "input, target, var",
               build=lambda module, **options: module.store_options(options)),
    _loss("MarginRankingLoss", "margin_ranking_loss", "margin=0.0, " + _LOSS,
          "input1, input2, target"),
    _loss("CosineEmbeddingLoss", "cosine_embedding_loss", "margin=0.0, " + _LOSS,
          "input1, input2, target"),
    _loss("TripletMarginLoss", "triplet_margin_loss", "margin=1.0, p=2.0, eps=1e-06, swap=False, "
          + _LOSS, "anchor, positive, negative"),
    ModuleKind("TripletMarginWithDistanceLoss", "loss", "*, distance_function=None, margin=1.0, "
               "swap=False, reduction='mean'", distance_losses.forward,
               "anchor, positive, negative", build=distance_losses.build(
                   lambda: _make("PairwiseDistance", 2.0, 1e-06, False))),
    ModuleKind("PixelShuffle", "pixelshuffle", "upscale_factor", _functional("pixel_shuffle"),
               extra_repr=_options_repr("upscale_factor")),
    ModuleKind("PixelUnshuffle", "pixelshuffle", "downscale_factor",
               _functional("pixel_unshuffle"), extra_repr=_options_repr("downscale_factor")),
    ModuleKind("Unfold", "fold", "kernel_size, dilation=1, padding=0, stride=1",
               _functional("unfold"),
               extra_repr=_options_repr("kernel_size", "dilation", "padding", "stride")),
    ModuleKind("Fold", "fold", "output_size, kernel_size, dilation=1, padding=0, stride=1",
               _functional("fold"), extra_repr=_options_repr(
                   "output_size", "kernel_size", "dilation", "padding", "stride")),
    ModuleKind("Bilinear", "linear", "in1_features, in2_features, out_features, bias=True, "
               "device=None, dtype=None", more.bilinear_forward, "input1, input2",
               extra_repr=more.bilinear_repr, build=more.build_bilinear),
    ModuleKind("GLU", "activation", "dim=-1", _functional("glu"), extra_repr=_options_repr("dim")),
    ModuleKind("GroupNorm", "normalization", "num_groups, num_channels, eps=1e-05, affine=True, "
               "device=None, dtype=None, *, bias=True", more.group_norm_forward, inputs=_DIM_FIRST,
               extra_repr=more.group_norm_repr, build=more.build_group_norm),
    ModuleKind("MultiheadAttention", "activation", "embed_dim, num_heads, dropout=0.0, bias=True, "
               "add_bias_kv=False, add_zero_attn=False, kdim=None, vdim=None, batch_first=False, "
               "device=None, dtype=None", MH.forward, "query, key, value, key_padding_mask=None, "
               "need_weights=True, attn_mask=None, average_attn_weights=True, is_causal=False"
               "; query: .dim", build=_build_multihead),
    *_transformer_kinds(),
    ModuleKind("Upsample", "upsampling", "size=None, scale_factor=None, mode='nearest', "
               "align_corners=None, recompute_scale_factor=None", more.upsample_forward,
               inputs=_DIM_FIRST,
               extra_repr=more.upsample_repr, build=more.build_upsample),
    *(ModuleKind(f"Upsampling{name}2d", "upsampling", "size=None, scale_factor=None",
                 more.upsample_forward, inputs=_DIM_FIRST, extra_repr=more.upsample_repr,
                 build=more.fixed_upsample(mode, align_corners))
      for name, mode, align_corners in (("Nearest", "nearest", None),
                                        ("Bilinear", "bilinear", True))),
]


def _from_pretrained(cls, embeddings, freeze, padding_idx, max_norm, norm_type, scale_grad_by_freq,
                     sparse) -> Module:
    """nn.Embedding.from_pretrained: an Embedding whose weight is `embeddings` (frozen by
    default)."""
    if not isinstance(embeddings, Tensor):
        raise errors.no_attribute(embeddings, "dim")
    if embeddings.ndim != 2:
        raise errors.TorchError("AssertionError",
                                "Embeddings parameter is expected to be 2-dimensional")
    if isinstance(cls, classes.UserClass):  # a subclass's: `cls(num_embeddings=rows, ...)`
        return classes.instantiate(cls, [], dict(
            num_embeddings=embeddings.shape[0], embedding_dim=embeddings.shape[1],
            _weight=embeddings, _freeze=freeze, padding_idx=padding_idx, max_norm=max_norm,
            norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse))
    kind = next(kind for kind in KINDS if kind.name == "Embedding")
    module = kind.host(kind)
    options = (*embeddings.shape, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse,
               embeddings, freeze, None, None)
    module.options = (options, {})
    _build_embedding(module, *options)
    return module


def _bag_from_pretrained(cls, embeddings, freeze, max_norm, norm_type, scale_grad_by_freq, mode,
                         sparse, include_last_offset, padding_idx) -> Module:
    """nn.EmbeddingBag.from_pretrained: an EmbeddingBag whose weight is `embeddings`, its
    requires_grad then set to `not freeze`."""
    if not isinstance(embeddings, Tensor):
        raise errors.no_attribute(embeddings, "dim")
    if embeddings.ndim != 2:
        raise errors.TorchError("AssertionError",
                                "Embeddings parameter is expected to be 2-dimensional")
    options = dict(num_embeddings=embeddings.shape[0], embedding_dim=embeddings.shape[1],
                   _weight=embeddings, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                   include_last_offset=include_last_offset, padding_idx=padding_idx)
    if isinstance(cls, classes.UserClass):
        module = classes.instantiate(cls, [], options)
    else:
        kind = next(kind for kind in KINDS if kind.name == "EmbeddingBag")
        module = kind.host(kind)
        module.options = ((), options)
        more.build_embedding_bag(module, **options, device=None, dtype=None)
    module.params["weight"].requires_grad = not freeze
    return module


class _ParameterMeta(type):
    def __instancecheck__(cls, value) -> bool:
        return isinstance(value, Tensor) and value.is_parameter


class ParameterHost(Tensor, metaclass=_ParameterMeta):
    """The class isinstance sees for nn.Parameter: a Parameter is a Tensor marked by its flag."""

    __slots__ = ()


def _parameter(cls, data, requires_grad):
    """nn.Parameter(data): a Parameter; for an instance of a tensor subclass, torch's path for
    custom tensors: the instance detached, marked as a parameter; for a program's class derived
    from nn.Parameter, an instance of it."""
    made = parameters.parameter(wrapped_data(data), requires_grad)
    owner = cls if isinstance(cls, classes.UserClass) else classes.class_of(data)
    return made if owner is None else subclass_protocol.register(made, owner)


_PARAMETER_NEW = entry("__new__", _parameter, "cls, data=None, requires_grad=True",
                       qualname="Parameter.__new__")
PARAMETER_TYPE = PyType("torch.nn.parameter.Parameter", (ParameterHost,),
                        BoundMethod(None, _PARAMETER_NEW))
# a program's classes derived from nn.Parameter: torch.Tensor's, but for Parameter's __new__
# and its handler, _disabled_torch_function_impl (results are plain tensors)
classes.BASE_NEWS[PARAMETER_TYPE] = _PARAMETER_NEW
classes.BASE_INITS[PARAMETER_TYPE] = classes.BASE_INITS[TENSOR_TYPE]
classes.BASE_INIT_INHERITED.add(PARAMETER_TYPE)
classes.BASE_CLASS_ATTRIBUTES[PARAMETER_TYPE] = lambda cls, name: \
    subclass_protocol.DISABLED_HANDLER if name == "__torch_function__" else \
    classes.BASE_CLASS_ATTRIBUTES[TENSOR_TYPE](cls, name)
subclass_protocol.PARAMETER_BASES.add(PARAMETER_TYPE)
classes.BUILTIN_ANCESTORS.update({ParameterHost: PARAMETER_TYPE, Tensor: TENSOR_TYPE})

_LAZY_INFER = {"Linear": ("last", 0), **{f"Conv{t}{n}d": ("channels", n) for n in (1, 2, 3)
                                         for t in ("", "Transpose")},
               **{f"{norm}{n}d": ("dim1", n) for n in (1, 2, 3)
                  for norm in ("BatchNorm", "InstanceNorm")}}
KINDS += [lazy.lazy_kind("Lazy" + kind.name, kind, *_LAZY_INFER[kind.name]) for kind in KINDS
          if kind.name in _LAZY_INFER]
_UNINITIALIZED_TYPES = lazy.uninitialized_types(ParameterHost)
for _name, _type in _UNINITIALIZED_TYPES.items():
    register_parameter_type(_type, _name)

# What torch.nn holds besides torch.nn.functional.
NN_CLASSES = {"Parameter": PARAMETER_TYPE, "Buffer": BUFFER_TYPE} | _UNINITIALIZED_TYPES | {
    kind.name: kind.type for kind in KINDS} | {"RNNBase": R.RNN_BASE,
                                              "RNNCellBase": R.RNN_CELL_BASE}
CLASS_METHODS[NN_CLASSES["Embedding"].hosts[0]] = {"from_pretrained": BoundMethod(
    NN_CLASSES["Embedding"], entry(
        "from_pretrained", _from_pretrained, "cls, embeddings, freeze=True, padding_idx=None, "
        "max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False",
        qualname="Embedding.from_pretrained"))}
CLASS_METHODS[NN_CLASSES["EmbeddingBag"].hosts[0]] = {"from_pretrained": BoundMethod(
    NN_CLASSES["EmbeddingBag"], entry(
        "from_pretrained", _bag_from_pretrained, "cls, embeddings, freeze=True, max_norm=None, "
        "norm_type=2.0, scale_grad_by_freq=False, mode='mean', sparse=False, "
        "include_last_offset=False, padding_idx=None",
        qualname="EmbeddingBag.from_pretrained"))}
CLASS_METHODS[TR.TransformerHost] = {"generate_square_subsequent_mask": TR.SQUARE_MASK}
MODULE_METHODS.update(MEMBER_METHODS)
MODULE_METHODS.update(STATE_METHODS)
KIND_METHODS.update(RESET_METHODS)


def _unbound(owner: str, methods: dict) -> dict:
    """A module class's methods as the class holds them, named `Owner.name` as torch's are."""
    return {name: replace(method, qualname=f"{owner}.{name}") for name, method in methods.items()}


_MODULE_CLASS_METHODS = _unbound("Module", MODULE_METHODS)
MODULE_METHODS.update(_MODULE_CLASS_METHODS)  # bound ones too: `<bound method Module.eval of ...>`
for _kind in KINDS:  # torch.nn.Module.register_forward_hook, nn.Linear.forward: unbound methods
    _host = _kind.type.hosts[0]
    CLASS_METHODS[_host] = (
        _MODULE_CLASS_METHODS | _unbound(_kind.name, _host.METHODS)
        | _unbound(_kind.name, SEQUENTIAL_METHODS if _kind.sequence else {})
        | KIND_METHODS.get(_kind.name, {}) | {"forward": _kind.forward_entry,
                                              "__setattr__": MODULE_SETATTR,
                                              "__delattr__": MODULE_DELATTR}
        | CLASS_METHODS.get(_host, {}))
module_subclasses.register(KINDS)
register_parameter_type(PARAMETER_TYPE)


# torch.nn.modules.batchnorm: its classes, and _BatchNorm, the base that code checks modules
# against (`isinstance(m, _BatchNorm)`, to keep normalization layers in eval mode)
_BATCH_NORMS = frozenset(f"{lazy}BatchNorm{n}d" for lazy in ("", "Lazy") for n in (1, 2, 3))
BATCH_NORM_BASE = PyType("torch.nn.modules.batchnorm._BatchNorm", ())
classes.ABSTRACT_CHECKS[BATCH_NORM_BASE] = \
    lambda value: isinstance(value, Module) and value.kind.name in _BATCH_NORMS
BATCHNORM_MODULE = {"_BatchNorm": BATCH_NORM_BASE} | {
    name: NN_CLASSES[name] for name in sorted(_BATCH_NORMS)}
