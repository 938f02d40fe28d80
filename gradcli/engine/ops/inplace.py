"""In-place ops: torch's checks, the write, the version bump and the history rebase; rows that exist only in place."""

from __future__ import annotations

import functools

import numpy as np

from gradcli.engine import dtypes, errors, forward_ad
from gradcli.engine.autograd import move_retained, short_name
from gradcli.engine.declarations import DECLARATIONS, declare, declare_inplace
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import defop
from gradcli.engine.state import STATE
from gradcli.engine.tensor import IN_CUSTOM_FUNCTION, MULTI_OUTPUT, NO_GRAD_MODE, Tensor
from gradcli.engine.views import CopySlices, regenerate_grad_fn
from gradcli.engine.zero_tensors import IMMUTABLE_SETITEM, check_mutable


def _zeros(g, *args, **params):
    return F.zeros_for(g)


defop("zero_", "ZeroBackward0", np.zeros_like, promote="none", vjp=_zeros)
defop("fill_.Scalar", "FillBackward2",
      lambda a, value: np.full_like(a, np.asarray(value).astype(a.dtype)), promote="none",
      vjp=_zeros)
defop("fill_.Tensor", "FillBackward3", lambda a, value: np.full_like(a, value), promote="none",
      vjp=(_zeros, lambda g, a, value: F.sum(g)))
defop("copy_", "CopyBackwards",
      lambda a, src: F.cast_values(np.broadcast_to(src, a.shape), a.dtype), promote="none",
      vjp=(_zeros, lambda g, a, src: g), name="torch::autograd::CopyBackwards")


_NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked).")


def check_inplace(t: Tensor, requires_grad: bool) -> None:
    """torch's refusals of an in-place change that autograd could not follow."""
    if not (requires_grad and STATE.grad_enabled):
        return
    base = t._base
    if base is None:
        if t._grad_fn is None and t._requires_grad:
            raise errors.runtime("a leaf Variable that requires grad is being used in an in-place "
                                 "operation.").noted(leaf_note(t))
        return
    if t._creation_meta == MULTI_OUTPUT:
        raise errors.runtime(
            f"Output {t.output_nr} of {short_name(t._grad_fn.name())} is a view and is being "
            "modified inplace. This view is the output of a function that returns multiple views. "
            "Such functions do not allow the output views to be modified inplace. You should "
            "replace the inplace operation by an out-of-place one.")
    if t._creation_meta == IN_CUSTOM_FUNCTION:
        raise errors.runtime(
            f"Output {t.output_nr} of {short_name(t._grad_fn.name())} is a view and is being "
            "modified inplace. This view was created inside a custom Function (or because an "
            "input was returned as-is) and the autograd logic to handle view+inplace would "
            "override the custom backward associated with the custom Function, leading to "
            "incorrect gradients. This behavior is forbidden. You can fix this by cloning the "
            "output of the custom Function.")
    if t._creation_meta == NO_GRAD_MODE:
        raise errors.runtime(_NO_GRAD_VIEW)
    if t._requires_grad and base._grad_fn is None:  # torch: self requires grad, its base is a leaf
        raise errors.runtime("a view of a leaf Variable that requires grad is being used in an "
                             "in-place operation.").noted(leaf_note(base if base._requires_grad
                                                                    else t))


def leaf_note(t: Tensor) -> tuple:
    """Where `t` became a leaf that requires grad (None when not known)."""
    return ("made a leaf that requires grad here", getattr(t, "_leaf_at", None))


def _check_overlap(t: Tensor) -> None:
    if t.data.size and any(stride == 0 and size > 1 for stride, size in zip(t.data.strides, t.data.shape)):
        raise errors.runtime(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def _check_fits(t: Tensor, result: Tensor, cast: bool) -> None:
    """TensorIterator's checks of an in-place op's output: its shape, then its dtype."""
    if result.shape != t.shape:
        wanted = F.broadcast_shape(t.shape, result.shape)
        if wanted != t.shape:
            raise errors.runtime(f"output with shape {F.size_list(t.shape)} doesn't match the "
                                 f"broadcast shape {F.size_list(wanted)}")
    if cast:
        errors.check_cast(result.dtype, t.dtype)


def apply_inplace(t: Tensor, compute, *, cast: bool = True) -> Tensor:
    """t.op_(...): check, compute out of place from `t`, then write the result into `t`.

    `cast` False lets any result dtype be written (copy_, fill_); otherwise a result of a higher
    category than `t` (float into an integer tensor) is torch's cast error.
    """
    check_mutable(t)
    check_inplace(t, t._requires_grad)
    _check_overlap(t)
    result = compute(t)
    if result._requires_grad and not t._requires_grad:
        check_inplace(t, True)
    _check_fits(t, result, cast)
    node = result._grad_fn
    original = None
    if node is not None and node.saved_args and node.saved_args[0] is t:
        # torch saves self.clone() taken with autograd on, so double backward reaches self's
        # history through it
        original = F.clone(t) if t._requires_grad else Tensor(t.data.copy(), t.dtype)
    np.copyto(t.data, result.data if t.dtype is not dtypes.bfloat16 else
              dtypes.stored(result.data, t.dtype), casting="unsafe")
    t.bump_version()
    if STATE.forward_ad and (result._fw_grad is not None or t._fw_grad is not None):
        _take_tangent(t, result)
    if node is not None:
        node.save_original_self(t, original, t)
        _rebase_history(t, node, result.output_nr)
    return t


def _take_tangent(t: Tensor, result: Tensor) -> None:
    """Forward mode: the written tensor's tangent becomes the result's (none if it has none),
    in t's dtype, as torch's in-place formulas update self's tangent."""
    tangent = result._fw_grad
    if tangent is not None and tangent.dtype is not t.dtype:
        tangent = F.cast(tangent, t.dtype)
    if tangent is not None and tangent.shape != t.shape:
        tangent = F.expand(tangent, t.shape)
    forward_ad.hold(t, tangent)


def _rebase_history(t: Tensor, node, output_nr: int) -> None:
    """Make `node` the history of `t`, through a CopySlices on the base when `t` is a view."""
    base = t._base
    if base is None:
        old = t._grad_fn, t.output_nr
        t._grad_fn, t.output_nr, t._requires_grad = node, output_nr, True
        move_retained(t, *old)
        return
    old = base._grad_fn, base.output_nr
    base._grad_fn, base.output_nr, base._requires_grad = CopySlices(base, t, node), 0, True
    move_retained(base, *old)
    regenerate_grad_fn(t)


def _written_back(function):
    """t.op_(...) from the out-of-place `function(t, ...)`."""
    @functools.wraps(function)
    def inplace_op(t: Tensor, *args, **kwargs) -> Tensor:
        return apply_inplace(t, lambda self: function(self, *args, **kwargs))
    return inplace_op


def _cast_checked_written_back(function):
    """A bitwise op's t.op_(other): the result dtype must fit t before the kernel picks its
    code for it (TensorIterator's cast check comes first)."""
    inplace = _written_back(function)

    @functools.wraps(function)
    def inplace_op(t: Tensor, *args, **kwargs) -> Tensor:
        operands = [t, *args, *kwargs.values()]
        errors.check_cast(dtypes.result_type(operands, STATE.default_dtype), t.dtype)
        return inplace(t, *args, **kwargs)
    return inplace_op


def _clamp_written_back(function):
    """clamp_/clamp_min_/clamp_max_ with number bounds: clamp's meta function refuses any
    promotion of self's dtype, naming self's C++ type."""
    inplace = _written_back(function)

    @functools.wraps(function)
    def inplace_op(t: Tensor, *args, **kwargs) -> Tensor:
        bounds = [b for b in (*args, *kwargs.values()) if b is not None]
        if not any(isinstance(b, Tensor) for b in bounds):
            result = dtypes.result_type([t, *bounds], STATE.default_dtype)
            if result is not t.dtype and not t.dtype.is_floating_point:
                raise errors.runtime(f"result type {result.scalar_name} can't be cast to the "
                                     f"desired output type {t.dtype.cpp_name}")
        return inplace(t, *args, **kwargs)
    return inplace_op


def _double_written_back(function):
    """float_power_: its result is always double, so only a double tensor can take it."""
    inplace = _written_back(function)

    @functools.wraps(function)
    def inplace_op(t: Tensor, *args, **kwargs) -> Tensor:
        if t.dtype is not dtypes.float64:
            raise errors.runtime(f"the base given to float_power_ has dtype {t.dtype.scalar_name} "
                                 "but the operation's result requires dtype Double")
        return inplace(t, *args, **kwargs)
    return inplace_op


# torch's in-place variants: Tensor.X_ for each X, and torch.X_ as well for those torch exports.
_INPLACE_METHODS = (
    "abs absolute acos arccos acosh arccosh asin arcsin asinh arcsinh atan arctan atanh arctanh "
    "atan2 arctan2 add sub subtract mul multiply div divide true_divide floor_divide pow "
    "remainder fmod clamp clip clamp_min clamp_max ceil floor round trunc fix frac cos cosh sin "
    "sinh tan tanh exp exp2 expm1 log log10 log1p log2 lgamma digamma polygamma mvlgamma i0 neg negative reciprocal rsqrt sqrt square "
    "sigmoid relu sign sgn erf erfc erfinv lerp hypot logit nan_to_num xlogy heaviside copysign "
    "deg2rad rad2deg sinc masked_fill index_add index_copy index_fill scatter scatter_add addcmul addcdiv "
    "addmm addmv addr addbmm baddbmm tril triu cumsum cumprod eq ne lt le gt ge not_equal "
    "less less_equal "
    "greater greater_equal logical_not logical_and logical_or logical_xor float_power bitwise_and "
    "bitwise_or bitwise_xor bitwise_not bitwise_left_shift bitwise_right_shift renorm gcd "
    "lcm igamma igammac nextafter").split()
_CLAMPS = frozenset(("clamp", "clip", "clamp_min", "clamp_max"))
_BITWISE_BINARY = frozenset(
    "bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift".split())
_INPLACE_FUNCTIONS = frozenset(
    "abs acos arccos acosh arccosh asin arcsin asinh arcsinh atan arctan atanh arctanh ceil clamp "
    "clamp_min clamp_max clip cos cosh deg2rad rad2deg erf erfc exp exp2 expm1 fix floor frac log "
    "log10 log1p log2 i0 logit nan_to_num neg negative reciprocal relu round rsqrt sigmoid sin sinc "
    "sinh sqrt square tan tanh trunc xlogy".split())


def declare_written_back(names=_INPLACE_METHODS) -> None:
    """Declare the in-place variant of each of `names` (every declared function torch has one
    for) once X's own declarations are loaded, so that each X_ follows them."""
    for name in names:
        if ("method", name) in DECLARATIONS and ("method", name + "_") not in DECLARATIONS:
            write_back = (_double_written_back if name == "float_power" else
                          _cast_checked_written_back if name in _BITWISE_BINARY else
                          _clamp_written_back if name in _CLAMPS else _written_back)
            declare_inplace(name, write_back, function=name in _INPLACE_FUNCTIONS
                            and ("torch", name) in DECLARATIONS)


def index_put_(t: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    key = F.index_put_key(indices)
    return apply_inplace(t, lambda self: F.index_put(self, key, values, accumulate))


def zero_(t: Tensor) -> Tensor:
    if t.sparse is not None:
        return F.sparse_zero_(t)
    return apply_inplace(t, lambda self: F.apply_op("zero_", self), cast=False)


def fill_(t: Tensor, value) -> Tensor:
    if isinstance(value, Tensor):
        if value.ndim:
            raise errors.runtime(f"fill_ only supports 0-dimension value tensor but got tensor "
                                 f"with {value.ndim} dimensions.")
        return apply_inplace(t, lambda self: F.apply_op("fill_.Tensor", self, value), cast=False)
    dtypes.check_fill(value, t.dtype, numel=t.numel())
    return apply_inplace(t, lambda self: F.apply_op("fill_.Scalar", self, value=value), cast=False)


def fill_diagonal_(t: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """ATen's fill_diagonal_: fill_ through a strided view of the main diagonal and, given
    `wrap`, of its continuation below a tall matrix."""
    if t.ndim < 2:
        raise errors.runtime("dimensions must larger than 1")
    height, width = t.shape[:2]
    if t.ndim > 2 and any(n != height for n in t.shape[1:]):
        raise errors.runtime("all dimensions of input must be of equal length")
    offset, strides = F.storage_offset(t), F.strides(t)
    size = min(height, width)
    fill_(F.as_strided(t, (size,), (sum(strides),), offset), fill_value)
    if wrap and t.ndim == 2 and height > width + 1:
        wrapped = (t.numel() + width) // (width + 1) - size
        fill_(F.as_strided(t, (wrapped,), (sum(strides),), offset + strides[0] * (width + 1)),
              fill_value)
    return t


def copy_(t: Tensor, src: Tensor) -> Tensor:
    if src.shape != t.shape:
        F.broadcast_shape(t.shape, src.shape)
    return apply_inplace(t, lambda self: F.apply_op("copy_", self, src), cast=False)


def _leading_ones(shape: tuple) -> int:
    """How many size-1 dims lead `shape` (torch's setitem drops them from a value)."""
    return next((i for i, size in enumerate(shape) if size != 1), len(shape))


def _copy_to(target: Tensor, value: Tensor) -> None:
    if value.shape == target.shape:
        copy_(target, value)
    elif value.ndim == 0:
        fill_(target, value)
    else:
        value = F.view(value, value.shape[_leading_ones(value.shape):])
        copy_(target, value if value.shape == target.shape else F.expand(value, target.shape))


def assign_into(t: Tensor, key, value) -> None:
    """t[key] = value: copy into the view the basic indices pick, or index_put_ for the rest."""
    check_mutable(t, IMMUTABLE_SETITEM)
    if key is False:
        return
    F.check_byte_mask_fill(key, value)
    target, advanced = F.apply_basic(t, None if key is True else key, reading=False)
    if not isinstance(value, Tensor):
        value = Tensor(np.asarray(value).astype(t.dtype.np), t.dtype)  # -1 wraps in uint8
    if not advanced:
        _copy_to(target, value)
        return
    indices, out_of_bounds = F.checked_key(target, advanced)
    single_mask = len(advanced) == 1 and advanced[0][1].dtype == bool
    lead = _leading_ones(value.shape)
    if lead:
        value = F.view(value, value.shape[lead:])
    if not (single_mask and value.numel() == 1):  # else masked_fill_ takes the one value
        F.check_index_put_value(value, F.indexed_shape(target.shape, indices), target.dtype)
    if out_of_bounds is not None:
        raise errors.index_error(out_of_bounds)
    apply_inplace(target, lambda self: F.index_put(self, indices, value))


declare("zero_", zero_, "zero_(Tensor self)", variants="method")
declare("fill_", fill_, "fill_(Tensor self, Tensor value)", "fill_(Tensor self, Scalar value)",
        variants="method")
declare("fill_diagonal_", fill_diagonal_,
        "fill_diagonal_(Tensor self, Scalar fill_value, bool wrap=False)", variants="method")
declare("copy_", lambda t, src, non_blocking=False: copy_(t, src),
        "copy_(Tensor self, Tensor other, bool non_blocking=False)", variants="method",
        hidden=("copy_(Tensor self, Tensor other, bool async=False)",), numbers_as_tensors=True)
declare("index_put_", index_put_, "index_put_(Tensor self, Tensor?[] indices, Tensor values, "
        "bool accumulate=False)", variants="method")
declare("index_put", lambda t, indices, values, accumulate=False: F.index_put(
    t, F.index_put_key(indices), values, accumulate),
    "index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False)")

export(__name__, globals())
