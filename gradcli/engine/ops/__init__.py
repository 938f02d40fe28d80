"""The op table: one row per op overload, with forward, vjp and grad_fn label."""

from gradcli.engine.ops import elementwise, reduce, shape  # noqa: F401  (rows register on import)
