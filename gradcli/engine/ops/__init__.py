"""The op table: one row per op overload, with forward, vjp and grad_fn label."""

from gradcli.engine.ops import (  # noqa: F401  (rows register on import)
    activation, compare, elementwise, fill, index, linalg, nn, reduce, shape, statistics, unary)
