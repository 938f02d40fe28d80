"""Builders, forwards and reprs of the unpooling, fractional pooling, circular padding, randomized
activation, local response norm and multi margin loss module classes (MaxUnpool1d/2d/3d,
FractionalMaxPool2d/3d, CircularPad1d/2d/3d, RReLU, LocalResponseNorm, MultiMarginLoss); their
rows are in nn_table.KINDS."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.ops import nn_functional as NF
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.math_table import NN_FUNCTIONAL
from gradcli.language.namespaces.module_members import register_buffer
from gradcli.language.runtime.calls import invoke
from gradcli.language.runtime.coercions import truth


def _sizes(value, n: int) -> tuple:
    """torch's _single/_pair: a sequence as a tuple, anything else repeated n times."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def build_unpool(n: int):
    """MaxUnpoolNd.__init__: kernel_size, stride (kernel_size by default) and padding, each as
    torch's _single/_pair keeps it."""
    def build(module, kernel_size, stride=None, padding=0) -> None:
        module.attrs.update(kernel_size=_sizes(kernel_size, n),
                            stride=_sizes(stride if stride is not None else kernel_size, n),
                            padding=_sizes(padding, n))
    return build


def unpool_forward(n: int):
    """MaxUnpoolNd.forward: F.max_unpoolNd with the stored sizes."""
    function = NN_FUNCTIONAL.table[f"max_unpool{n}d"]

    def forward(ctx, module, x, indices, output_size=None):
        a = module.attrs
        return invoke(ctx, function, [x, indices, a["kernel_size"], a["stride"], a["padding"],
                                      output_size], {})
    return forward


def build_fractional_pool(n: int):
    """FractionalMaxPoolNd.__init__: the sizes as _pair/_triple keeps them, the samples as a
    buffer, then torch's checks of the output size and ratio."""
    def build(module, kernel_size, output_size=None, output_ratio=None, return_indices=False,
              _random_samples=None) -> None:
        module.attrs.update(kernel_size=_sizes(kernel_size, n), return_indices=return_indices)
        register_buffer(module, "_random_samples", _random_samples)
        module.attrs.update(
            output_size=None if output_size is None else _sizes(output_size, n),
            output_ratio=None if output_ratio is None else _sizes(output_ratio, n))
        if output_size is None and output_ratio is None:
            raise errors.value_error(f"FractionalMaxPool{n}d requires specifying either an "
                                     "output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise errors.value_error("only one of output_size and output_ratio may be specified")
        ratio = module.attrs["output_ratio"]
        if ratio is not None and not all(0 < r < 1 for r in ratio):
            raise errors.value_error(f"output_ratio must be between 0 and 1 (got {output_ratio!r})")
    return build


def fractional_pool_forward(n: int):
    """FractionalMaxPoolNd.forward: F.fractional_max_poolNd with the stored options."""
    function = NN_FUNCTIONAL.table[f"fractional_max_pool{n}d"]

    def forward(ctx, module, x):
        a = module.attrs
        return invoke(ctx, function, [x, a["kernel_size"], a["output_size"], a["output_ratio"],
                                      a["return_indices"]],
                      {"_random_samples": module.buffers["_random_samples"]})
    return forward


def build_circular_pad(dims: int):
    """CircularPadNd.__init__: the padding as torch's _pair/_quadruple/_ntuple(6) keeps it."""
    def build(module, padding) -> None:
        module.attrs["padding"] = _sizes(padding, 2 * dims)
    return build


def circular_pad_forward(dims: int):
    """CircularPadNd.forward: its _check_input_dim, then F.pad(input, padding, 'circular')."""
    def forward(ctx, module, x):
        if not isinstance(x, Tensor):
            raise errors.no_attribute(x, "dim")
        if x.ndim not in (dims + 1, dims + 2):
            raise errors.value_error(f"expected {dims + 1}D or {dims + 2}D input (got {x.ndim}D "
                                     "input)")
        return NF.pad(x, module.attrs["padding"], "circular")
    return forward


def rrelu_forward(ctx, module, x):
    """RReLU.forward: F.rrelu(input, self.lower, self.upper, self.training, self.inplace)."""
    a = module.attrs
    return invoke(ctx, NN_FUNCTIONAL.table["rrelu"],
                  [x, a["lower"], a["upper"], a["training"], a["inplace"]], {})


def rrelu_repr(module, printer) -> str:
    a = module.attrs
    shown = f"lower={printer.str(a['lower'])}, upper={printer.str(a['upper'])}"
    return shown + (", inplace=True" if truth(a["inplace"]) else "")


def build_multi_margin(module, p, margin, weight, size_average, reduce, reduction) -> None:
    """MultiMarginLoss.__init__: its checks of p and of the weight's dimensions first."""
    if p not in (1, 2):
        raise errors.value_error("only p == 1 and p == 2 supported")
    if weight is not None and (not isinstance(weight, Tensor) or weight.ndim != 1):
        if not isinstance(weight, Tensor):
            raise errors.no_attribute(weight, "dim")
        raise errors.value_error("MultiMarginLoss: expected weight to be None or 1D tensor, got "
                                 f"{weight.ndim}D instead")
    module.store_options(dict(p=p, margin=margin, size_average=size_average, reduce=reduce,
                              reduction=reduction))
    module.buffers["weight"] = weight  # _WeightedLoss's register_buffer


def multi_margin_forward(ctx, module, x, target):
    """MultiMarginLoss.forward: F.multi_margin_loss with the stored options."""
    a = module.attrs
    return invoke(ctx, NN_FUNCTIONAL.table["multi_margin_loss"], [x, target],
                  dict(p=a["p"], margin=a["margin"], weight=module.buffers["weight"],
                       reduction=a["reduction"]))


def local_response_norm_repr(module, printer) -> str:
    a = module.attrs
    return (f"{printer.str(a['size'])}, alpha={printer.str(a['alpha'])}, "
            f"beta={printer.str(a['beta'])}, k={printer.str(a['k'])}")
