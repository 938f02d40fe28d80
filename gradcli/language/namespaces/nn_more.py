"""Builders, forwards and reprs of more torch.nn module classes (GroupNorm, RMSNorm, Upsample,
the padding layers, PReLU, Softmax2d, ConvTransposeNd's output size, Bilinear, EmbeddingBag);
their rows are in nn_table.KINDS."""

from __future__ import annotations

import math


from gradcli.engine import errors, parameters
from gradcli.engine.ops import activation as A
from gradcli.engine.ops import embedding_bag as EB
from gradcli.engine.ops import nn_functional as NF
from gradcli.engine.ops import interpolate as I
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.math_table import NN_FUNCTIONAL
from gradcli.language.runtime.calls import invoke
from gradcli.language.runtime.values import Size


def build_group_norm(module, num_groups, num_channels, eps, affine, device, dtype,
                     bias) -> None:
    if num_channels % num_groups:
        raise errors.value_error(f"num_channels ({num_channels}) must be divisible by "
                                 f"num_groups ({num_groups})")
    module.attrs.update(num_groups=num_groups, num_channels=num_channels, eps=eps, affine=affine)
    shape = (num_channels,)
    module.params.update(weight=parameters.filled(shape, 1.0, dtype) if affine else None,
                         bias=parameters.filled(shape, 0.0, dtype) if affine and bias else None)


def group_norm_forward(ctx, module, x):
    a = module.attrs
    return invoke(ctx, NN_FUNCTIONAL.table["group_norm"], [x, a["num_groups"],
                  module.params["weight"], module.params["bias"], a["eps"]], {})


def group_norm_repr(module, printer) -> str:
    a = module.attrs
    return (f"{a['num_groups']}, {a['num_channels']}, eps={printer.str(a['eps'])}, "
            f"affine={a['affine']}, bias={module.params['bias'] is not None}")


def build_rms_norm(module, normalized_shape, eps, elementwise_affine, device, dtype) -> None:
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
        normalized_shape)
    module.attrs.update(normalized_shape=shape, eps=eps, elementwise_affine=elementwise_affine)
    module.params["weight"] = parameters.filled(shape, 1.0, dtype) if elementwise_affine else None


def rms_norm_forward(ctx, module, x):
    a = module.attrs
    return invoke(ctx, NN_FUNCTIONAL.table["rms_norm"], [x, list(a["normalized_shape"]),
                  module.params["weight"], a["eps"]], {})


def rms_norm_repr(module, printer) -> str:
    a = module.attrs
    return (f"{printer.str(a['normalized_shape'])}, eps={printer.str(a['eps'])}, "
            f"elementwise_affine={a['elementwise_affine']}")


def softmax2d_forward(ctx, module, x):
    if x.ndim not in (3, 4):
        raise errors.value_error(f"Softmax2d: expected input to be 3D or 4D, got {x.ndim}D "
                                 "instead")
    return invoke(ctx, NN_FUNCTIONAL.table["softmax"], [x, -3], {"_stacklevel": 5})


def build_upsample(module, size, scale_factor, mode, align_corners,
                   recompute_scale_factor) -> None:
    if isinstance(scale_factor, (list, tuple)):
        scale_factor = tuple(float(f) for f in scale_factor)
    elif scale_factor:
        scale_factor = float(scale_factor)
    else:
        scale_factor = None
    module.attrs.update(size=size, scale_factor=scale_factor, mode=mode,
                        align_corners=align_corners,
                        recompute_scale_factor=recompute_scale_factor)


def fixed_upsample(mode: str, align_corners):
    """UpsamplingNearest2d, UpsamplingBilinear2d: an Upsample of one mode."""
    return lambda module, size, scale_factor: build_upsample(module, size, scale_factor, mode,
                                                             align_corners, None)


def upsample_forward(ctx, module, x):
    a = module.attrs
    return I.interpolate(x, a["size"], a["scale_factor"], a["mode"], a["align_corners"],
                         a["recompute_scale_factor"])


def upsample_repr(module, printer) -> str:
    a = module.attrs
    shown = (f"scale_factor={printer.repr(a['scale_factor'])}" if a["scale_factor"] is not None
             else f"size={printer.repr(a['size'])}")
    return f"{shown}, mode={printer.repr(a['mode'])}"


def build_padding(dims: int):
    """ZeroPadNd/ConstantPadNd/ReflectionPadNd/ReplicationPadNd: an int pads every side."""
    def build(module, padding, value=0.0) -> None:
        if isinstance(padding, int):
            padding = (padding,) * (2 * dims)
        module.attrs.update(padding=tuple(padding), value=value)
    return build


def padding_forward(mode: str):
    def forward(ctx, module, x):
        a = module.attrs
        if mode == "constant":
            return NF.pad(x, a["padding"], "constant", a["value"])
        return NF.pad(x, a["padding"], mode)
    return forward


def padding_repr(module, printer) -> str:
    return printer.repr(module.attrs["padding"])


def constant_padding_repr(module, printer) -> str:
    a = module.attrs
    return f"padding={printer.repr(a['padding'])}, value={printer.str(a['value'])}"


def build_prelu(module, num_parameters, init, device, dtype) -> None:
    module.attrs.update(num_parameters=num_parameters, init=init)
    module.params["weight"] = parameters.filled((num_parameters,), init, dtype)


def prelu_forward(ctx, module, x):
    return A.prelu(x, module.params["weight"])


def transposed_output_padding(ctx, x, output_size, attrs, spatial: int) -> list:
    """_ConvTransposeNd._output_padding: the output padding that makes the output `output_size`
    (its spatial sizes, or all of them), refused outside the sizes the stride can reach."""
    batched = x.ndim == spatial + 2
    lead = 2 if batched else 1
    if not isinstance(output_size, (list, tuple)):
        raise errors.type_error(f"object of type '{errors.type_name(output_size)}' has no len()")
    if len(output_size) == lead + spatial:
        output_size = output_size[lead:]
        if isinstance(output_size, tuple) and not isinstance(output_size, Size):
            output_size = Size(output_size)
    if len(output_size) != spatial:
        raise errors.value_error(
            f"ConvTranspose{spatial}D: for {x.ndim}D input, output_size must have {spatial} or "
            f"{lead + spatial} elements (got {len(output_size)})")
    stride, padding = attrs["stride"], attrs["padding"]
    kernel, dilation = attrs["kernel_size"], attrs["dilation"]
    min_sizes = [(x.shape[d + lead] - 1) * stride[d] - 2 * padding[d]
                 + dilation[d] * (kernel[d] - 1) + 1 for d in range(spatial)]
    max_sizes = [min_sizes[d] + stride[d] - 1 for d in range(spatial)]
    for size, low, high in zip(output_size, min_sizes, max_sizes):
        if size < low or size > high:
            raise errors.value_error(
                f"requested an output size of {ctx.printer.str(output_size)}, but valid sizes "
                f"range from {min_sizes} to {max_sizes} (for an input of "
                f"{ctx.printer.str(Size(x.shape[2:]))})")
    return [output_size[d] - min_sizes[d] for d in range(spatial)]


def build_bilinear(module, in1_features, in2_features, out_features, bias, device, dtype) -> None:
    """nn.Bilinear's reset_parameters: weight, then bias, uniform in +-1/sqrt(in1_features)."""
    module.attrs.update(in1_features=in1_features, in2_features=in2_features,
                        out_features=out_features)
    bound = 1 / math.sqrt(in1_features)
    weight = parameters.uniform((out_features, in1_features, in2_features), bound, dtype)
    module.params.update(weight=weight,
                         bias=parameters.uniform((out_features,), bound, dtype) if bias else None)


def bilinear_forward(ctx, module, input1, input2):
    return invoke(ctx, NN_FUNCTIONAL.table["bilinear"],
                  [input1, input2, module.params["weight"], module.params["bias"]], {})


def bilinear_repr(module, printer) -> str:
    a = module.attrs
    return (f"in1_features={a['in1_features']}, in2_features={a['in2_features']}, "
            f"out_features={a['out_features']}, bias={module.params['bias'] is not None}")


def build_embedding_bag(module, num_embeddings, embedding_dim, max_norm, norm_type,
                        scale_grad_by_freq, mode, sparse, _weight, include_last_offset,
                        padding_idx, device, dtype) -> None:
    """EmbeddingBag.__init__: padding_idx checked and made non-negative, the weight drawn from
    N(0, 1) (its padding row zeroed) or `_weight` of the right shape."""
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= num_embeddings or \
                padding_idx < 0 and padding_idx < -num_embeddings:
            raise errors.TorchError("AssertionError", "padding_idx must be within num_embeddings")
        if padding_idx < 0:
            padding_idx += num_embeddings
    module.attrs.update(num_embeddings=num_embeddings, embedding_dim=embedding_dim,
                        max_norm=max_norm, norm_type=norm_type,
                        scale_grad_by_freq=scale_grad_by_freq, padding_idx=padding_idx)
    if _weight is None:
        weight = parameters.normal((num_embeddings, embedding_dim), dtype)
        if padding_idx is not None:
            weight.data[padding_idx] = 0  # weight[padding_idx].fill_(0) under no_grad
            weight.bump_version()
    else:
        if not isinstance(_weight, Tensor):
            raise errors.no_attribute(_weight, "shape")
        if list(_weight.shape) != [num_embeddings, embedding_dim]:
            raise errors.TorchError("AssertionError", "Shape of weight does not match "
                                    "num_embeddings and embedding_dim")
        weight = parameters.parameter(_weight, True)
    module.params.update(weight=weight)
    module.attrs.update(mode=mode, sparse=sparse, include_last_offset=include_last_offset)


def embedding_bag_forward(ctx, module, input, offsets=None, per_sample_weights=None):
    a = module.attrs
    return EB.embedding_bag(input, module.params["weight"], offsets, a["max_norm"],
                            a["norm_type"], a["scale_grad_by_freq"], a["mode"], a["sparse"],
                            per_sample_weights, a["include_last_offset"], a["padding_idx"])


def embedding_bag_repr(module, printer) -> str:
    a = module.attrs
    text = f"{printer.repr(a['num_embeddings'])}, {printer.repr(a['embedding_dim'])}"
    if a["max_norm"] is not None:
        text += f", max_norm={printer.repr(a['max_norm'])}"
    if a["norm_type"] != 2:
        text += f", norm_type={printer.repr(a['norm_type'])}"
    if a["scale_grad_by_freq"] is not False:
        text += f", scale_grad_by_freq={printer.repr(a['scale_grad_by_freq'])}"
    text += f", mode={printer.repr(a['mode'])}"
    if a["padding_idx"] is not None:
        text += f", padding_idx={printer.repr(a['padding_idx'])}"
    return text
