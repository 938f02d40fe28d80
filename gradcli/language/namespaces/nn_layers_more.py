"""Builders, forwards and reprs of the unpooling module classes (MaxUnpool1d/2d); their rows are
in nn_table.KINDS."""

from __future__ import annotations

from gradcli.language.namespaces.math_table import NN_FUNCTIONAL
from gradcli.language.runtime.calls import invoke


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
