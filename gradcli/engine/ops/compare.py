"""Rows for comparisons, logical and bitwise ops and value tests: bool results, no gradients."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes
from gradcli.engine.ops.registry import defop, pointwise_op


def _bool_result(dtype, params):
    return dtypes.bool_


_COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                "gt": np.greater, "ge": np.greater_equal}
for _name, _ufunc in _COMPARISONS.items():
    pointwise_op(f"{_name}.Tensor", "", _ufunc, out_dtype=_bool_result)

for _name, _ufunc in (("logical_and", np.logical_and), ("logical_or", np.logical_or),
                      ("logical_xor", np.logical_xor)):
    pointwise_op(_name, "", _ufunc, promote="none", out_dtype=_bool_result)
for _name, _ufunc in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                      ("bitwise_xor", np.bitwise_xor)):
    pointwise_op(_name, "", _ufunc)
defop("bitwise_not", "", np.invert, promote="none")
for _name, _ufunc in (("logical_not", np.logical_not), ("isnan", np.isnan), ("isinf", np.isinf),
                      ("isfinite", np.isfinite)):
    defop(_name, "", _ufunc, promote="none", out_dtype=_bool_result)
defop("any", "", lambda a, axis, keepdim: np.any(a, axis=axis, keepdims=keepdim), promote="none",
      out_dtype=_bool_result)
defop("all", "", lambda a, axis, keepdim: np.all(a, axis=axis, keepdims=keepdim), promote="none",
      out_dtype=_bool_result)
