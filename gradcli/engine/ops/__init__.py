"""Every area of torch functions and their op rows; importing this loads them all
(rows register in OPS, functions in F)."""

from gradcli.engine.ops import (  # noqa: F401
    activation, arrange, common, comparison, convolution, decompositions, dual, gating,
    group_norm, inplace, interpolate, linalg, losses, nn_functional, padding, pointwise,
    pointwise_more, products, raw_vjps, reductions, selection, shapes, sorting)
from gradcli.engine import conversions, creation, einsum, indexing  # noqa: F401,E402

inplace.declare_written_back()
