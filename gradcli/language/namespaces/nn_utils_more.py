"""torch.nn.utils.stateless (the deprecated functional_call), torch.nn.utils.fusion
(a Conv or Linear folded with the BatchNorm after it, for evaluation) and skip_init."""

from __future__ import annotations

from gradcli.engine import creation, errors, parameters
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.language.namespaces.func_modules import functional_call
from gradcli.language.namespaces.modules import Module
from gradcli.language.namespaces.python_copy import deepcopy
from gradcli.language.runtime import classes
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, Printer, iterate

_DEPRECATED = ("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and "
               "will be removed in a future version of PyTorch. Please use "
               "`torch.func.functional_call` instead which is a drop-in replacement.")


def _stateless_call(ctx, module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    STATE.warn("FutureWarning", _DEPRECATED)
    return functional_call(ctx, module, parameters_and_buffers, args, kwargs,
                           tie_weights=tie_weights, strict=strict)


STATELESS = Namespace("torch.nn.utils.stateless", table(entry(
    "functional_call", _stateless_call, "module, parameters_and_buffers, args=None, kwargs=None, "
    "*, tie_weights=True, strict=False", context=True)))


def _fill_missing(given, like, value):
    return given if given is not None else F.full_like(like, value)


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """The conv weight times bn_w / sqrt(var + eps) per output channel, and the bias shifted by
    the running mean, as Parameters (of the conv's dtypes)."""
    weight_dtype = conv_w.dtype
    bias_dtype = conv_b.dtype if conv_b is not None else weight_dtype
    conv_b = _fill_missing(conv_b, bn_rm, 0)
    bn_w, bn_b = _fill_missing(bn_w, bn_rm, 1), _fill_missing(bn_b, bn_rm, 0)
    with grad_mode(False):
        rsqrt = F.rsqrt(F.add_scalar(bn_rv, bn_eps))
        shape = ([1, -1] if transpose else [-1, 1]) + [1] * (conv_w.ndim - 2)
        weight = F.mul(conv_w, F.reshape(F.mul(bn_w, rsqrt), shape))
        bias = F.add(F.mul(F.mul(F.sub(conv_b, bn_rm), rsqrt), bn_w), bn_b)
    return (parameters.parameter(F.to_dtype(weight, weight_dtype), conv_w.requires_grad),
            parameters.parameter(F.to_dtype(bias, bias_dtype), conv_b.requires_grad))


def fuse_conv_bn_eval(conv, bn, transpose=False):
    if conv.attrs["training"] or bn.attrs["training"]:
        raise errors.TorchError("AssertionError", "Fusion only for eval!")
    fused = deepcopy(conv)
    if bn.buffers.get("running_mean") is None or bn.buffers.get("running_var") is None:
        raise errors.TorchError("AssertionError",
                                "bn.running_mean and bn.running_var must not be None")
    weight, bias = fuse_conv_bn_weights(
        fused.params["weight"], fused.params.get("bias"), bn.buffers["running_mean"],
        bn.buffers["running_var"], bn.attrs["eps"], bn.params.get("weight"), bn.params.get("bias"),
        transpose)
    fused.set_attribute("weight", weight)
    fused.set_attribute("bias", bias)
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The linear weight's rows times bn_w / sqrt(var + eps), the bias shifted by the running
    mean, as Parameters (of the linear's dtypes)."""
    weight_dtype = linear_w.dtype
    bias_dtype = linear_b.dtype if linear_b is not None else weight_dtype
    linear_b = _fill_missing(linear_b, bn_rm, 0)
    scale = F.mul(bn_w, F.rsqrt(F.add_scalar(bn_rv, bn_eps)))
    weight = F.mul(linear_w, F.to_dtype(F.unsqueeze(scale, -1), weight_dtype))
    bias = F.to_dtype(F.add(F.mul(F.sub(linear_b, bn_rm), scale), bn_b), bias_dtype)
    return (parameters.parameter(weight, linear_w.requires_grad),
            parameters.parameter(bias, linear_b.requires_grad))


def fuse_linear_bn_eval(linear, bn):
    if linear.attrs["training"] or bn.attrs["training"]:
        raise errors.TorchError("AssertionError", "Fusion only for eval!")
    fused = deepcopy(linear)
    out_features, num_features = linear.attribute("out_features"), bn.attribute("num_features")
    if out_features != num_features and num_features != 1:
        raise errors.TorchError("AssertionError", (
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
            f"linear.out_features={out_features} and bn.num_features={num_features}"))
    if bn.buffers.get("running_mean") is None or bn.buffers.get("running_var") is None:
        raise errors.TorchError("AssertionError",
                                "bn.running_mean and bn.running_var must not be None")
    weight, bias = fuse_linear_bn_weights(
        fused.params["weight"], fused.params.get("bias"), bn.buffers["running_mean"],
        bn.buffers["running_var"], bn.attrs["eps"], bn.params.get("weight"), bn.params.get("bias"))
    fused.set_attribute("weight", weight)
    fused.set_attribute("bias", bias)
    return fused


FUSION = Namespace("torch.nn.utils.fusion", table(
    entry("fuse_conv_bn_eval", fuse_conv_bn_eval, "conv, bn, transpose=False"),
    entry("fuse_conv_bn_weights", fuse_conv_bn_weights, "conv_w, conv_b, bn_rm, bn_rv, bn_eps, "
          "bn_w, bn_b, transpose=False"),
    entry("fuse_linear_bn_eval", fuse_linear_bn_eval, "linear, bn"),
    entry("fuse_linear_bn_weights", fuse_linear_bn_weights, "linear_w, linear_b, bn_rm, bn_rv, "
          "bn_eps, bn_w, bn_b")))


def _parameter_names(module_cls) -> tuple:
    """What inspect.signature(module_cls) names: its __init__'s parameters."""
    init = module_cls.find("__init__") if isinstance(module_cls, classes.UserClass) \
        else classes.MISSING
    if isinstance(init, UserFunction):
        return (*init.params, *init.kwonly)
    base = module_cls.base if isinstance(module_cls, classes.UserClass) else module_cls
    construct = base.construct if isinstance(base, PyType) else None
    builtin = getattr(construct, "builtin", None)
    return tuple(p.name for p in builtin.params) if builtin is not None else ()


def skip_init(ctx, module_cls, *args, **kwargs):
    """The module built as torch builds it on the meta device: no draw from the generator (its
    values, uninitialized memory in torch, are what construction gives here)."""
    if isinstance(module_cls, classes.UserClass):
        is_module = isinstance(module_cls.base, PyType) and issubclass(
            module_cls.base.hosts[0], Module)
    elif isinstance(module_cls, PyType):
        is_module = issubclass(module_cls.hosts[0], Module)
    else:
        raise errors.type_error("issubclass() arg 1 must be a class")
    if not is_module:
        raise errors.runtime(f"Expected a Module; got {Printer().str(module_cls)}")
    if "device" not in _parameter_names(module_cls):
        raise errors.runtime("Module must support a 'device' arg to skip initialization")
    generator = creation.DEFAULT_GENERATOR.generator
    state = generator.get_state()
    module = ctx.call(module_cls, list(args), kwargs)
    generator.set_state(state)
    return module


def _convert_weight_memory_format(kinds: tuple):
    """torch.nn.utils.convert_conv{2,3}d_weight_memory_format: each Conv/ConvTranspose weight of
    the module tree given `memory_format` (its data replaced, as torch's Python does)."""
    def convert(ctx, module, memory_format):
        from gradcli.language.namespaces.distribution_base import Calls, attr
        from gradcli.language.runtime import attributes
        c = Calls(ctx)
        if isinstance(module, Module) and module.kind.name in kinds:
            weight = attr(module, "weight")
            data = c.method(c.method(weight, "detach"), "clone", memory_format=memory_format)
            attributes.set(weight, "data", c.method(data, "resize_", c.method(data, "size"),
                                                    memory_format=memory_format))
        for child in iterate(c.method(module, "children")):
            convert(ctx, child, memory_format)
        return module
    return convert


CONVERT_2D = _convert_weight_memory_format(("Conv2d", "ConvTranspose2d"))
CONVERT_3D = _convert_weight_memory_format(("Conv3d", "ConvTranspose3d"))
