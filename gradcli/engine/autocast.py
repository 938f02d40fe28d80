"""CPU autocast: inside torch.autocast("cpu"), the ops of torch's lower-precision list take their
floating inputs in the autocast dtype (bfloat16 unless chosen) and those of its float32 list in
float32 (ATen's autocast_mode.cpp, the AutocastCPU kernels). torch casts at the op it lists;
here `apply` casts for the rows of the float32 list, and the other listed functions (those
composed of several rows, and those checking their operands' dtypes before their row runs)
call `cast_to_float32` or `cast_lower` first."""

from __future__ import annotations

from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

# the rows of the float32 list; the lower-precision list's functions (conv*, linear, matmul, mm,
# addmm, bmm, baddbmm, addbmm, prelu) cast in themselves
ROWS = frozenset((
    "mse_loss", "huber_loss", "smooth_l1_loss", "nll_loss_forward", "nll_loss2d_forward",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "multi_margin_loss", "prod",
    "prod.dim_int", "trace", "_cdist_forward", "avg_pool3d", "grid_sampler_2d", "max_unpool2d",
    "cholesky", "cholesky_inverse", "linalg_cholesky_ex", "linalg_qr", "_linalg_svd",
    "_linalg_eigh", "linalg_solve_ex", "linalg_lu_factor_ex", "linalg_solve_triangular",
    "reflection_pad1d", "reflection_pad2d", "replication_pad1d", "replication_pad2d",
    "replication_pad3d"))


def _eligible(value) -> bool:
    """torch's is_eligible: a floating tensor other than float64."""
    return type(value) is Tensor and value.dtype.is_floating_point and \
        value.dtype is not dtypes.float64


def _cast(dtype: dtypes.DType, args: tuple) -> tuple:
    return tuple(F.to_dtype(a, dtype) if _eligible(a) else a for a in args)


def cast_row(args: tuple) -> tuple:
    """A listed row's tensor arguments in float32 (only while autocast is on)."""
    return _cast(dtypes.float32, args)


def cast_lower(*tensors) -> tuple:
    """A lower-precision-list function's tensors in the autocast dtype while autocast is on."""
    return _cast(STATE.autocast[1], tensors) if STATE.autocast[0] else tensors


def cast_to_float32(*tensors) -> tuple:
    """An fp32-list function's tensors in float32 while autocast is on."""
    return _cast(dtypes.float32, tensors) if STATE.autocast[0] else tensors
