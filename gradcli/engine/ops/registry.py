"""The OpDef record, the OPS table, and `apply`: the one place that promotes, runs forwards and builds nodes."""

from __future__ import annotations

from gradcli.engine.records import field, record
from typing import Callable

import numpy as np

from gradcli.engine import autocast, dtypes, errors, forward_ad, vmap_batched
from gradcli.engine.forward_ad import AS_VJP, LINEAR
from gradcli.engine.declarations import declare
from gradcli.engine.autograd import RESULT, Node, no_grad_history
from gradcli.engine.layout import torch_layout
from gradcli.engine.state import STATE
from gradcli.engine.tensor import DEFAULT, MULTI_OUTPUT, NO_GRAD_MODE, Tensor
from gradcli.engine.functions import F, LateTable, export

_FLOATING = dtypes.FLOATING
_BFLOAT16 = dtypes.bfloat16
_HALF = dtypes.float16
_NATIVE_FLOATS = frozenset((dtypes.float32, dtypes.float64))  # apply's fast path computes these
NOT_FLOATING = (dtypes.BOOL, dtypes.INTEGRAL)  # what a floating-only kernel refuses
# what a floating kernel that also takes int64 refuses (a row's refuses names categories or dtypes)
NOT_FLOATING_OR_LONG = (dtypes.BOOL, dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32)
_SCALAR_CATEGORY = {bool: dtypes.BOOL, int: dtypes.INTEGRAL, float: dtypes.FLOATING,
                    complex: dtypes.COMPLEX}


# Rows that only move, pick or copy elements, which take complex tensors as any others
_MOVES_ELEMENTS = frozenset((
    "view", "_reshape_alias", "expand", "unsqueeze", "squeeze", "squeeze.dim", "squeeze.dims", "t",
    "transpose.int", "permute", "clone", "cat", "stack", "select.int", "slice.Tensor",
    "index.Tensor", "index_select", "flip", "roll", "as_strided", "unbind.int", "split.Tensor",
    "split_with_sizes", "diagonal", "unfold", "repeat", "alias", "slice_backward",
    "select_backward", "diagonal_backward", "as_strided_backward", "unfold_backward",
    "select_scatter", "slice_scatter", "diagonal_scatter", "as_strided_scatter", "index_put",
    "_index_put_impl_", "index_copy", "index_fill.int_Scalar", "index_fill.int_Tensor",
    "masked_fill.Scalar", "masked_fill.Tensor", "masked_scatter", "fill_.Scalar", "fill_.Tensor",
    "copy_", "constant_pad_nd", "_unsafe_view", "squeeze_", "squeeze_.dim", "squeeze_.dims",
    "unsqueeze_", "t_", "transpose_.int"))


# torch's own refusals of complex inputs, by row: a kernel's name ("not implemented for") or
# the (kind, message) torch raises
_NOT_SUPPORTED = ("NotImplementedError", "clamp is not supported for complex types")
_COMPLEX_REFUSALS = {
    "relu": _NOT_SUPPORTED, "clamp": _NOT_SUPPORTED, "clamp.Tensor": _NOT_SUPPORTED,
    **{name: ("NotImplementedError", f"{name} is not supported for complex inputs")
       for name in ("floor", "ceil", "trunc")},
    "sign": ("NotImplementedError", "Unlike NumPy, torch.sign is not intended to support complex "
             "numbers. Please use torch.sgn instead."),
    "maximum": ("RuntimeError", "maximum not implemented for complex tensors."),
    "minimum": ("RuntimeError", "minimum not implemented for complex tensors."),
    "round": "round_vml_cpu", "remainder.Scalar": "remainder_cpu",
    "remainder.Tensor": "remainder_cpu", "floor_divide": "div_floor_cpu", "atan2": "atan2_cpu",
    "frac": "frac_cpu",
    # what orders or compares values: torch has no complex kernel for them
    "max": "max_all", "min": "min_all", "amax": "max_values_cpu", "amin": "min_values_cpu",
    "max.dim": ("RuntimeError", "max(): does not support complex input"),
    "min.dim": ("RuntimeError", "min(): does not support complex input"),
    "aminmax": "aminmax_cpu", "median": "median_cpu", "nanmedian": "median_cpu",
    "cummax": "cummax_cpu", "cummin": "cummin_cpu", "_unique2": "unique",
    "sort": ("RuntimeError", " Sort does not support complex dtypes on CPU"),
    "sort.stable": ("RuntimeError", " Sort does not support complex dtypes on CPU"),
    "topk": ("RuntimeError", " topk does not support complex dtypes on CPU"),
    "kthvalue": "kthvalue_cpu", "median.dim": "median_out", "nanmedian.dim": "median_out",
    "mode": "mode_cpu",
}


def refusal_of_complex(op, dtype) -> errors.TorchError:
    """The error for a complex `dtype` reaching a row without complex support: torch's own
    where torch refuses too, else gradcli's gap."""
    refusal = _COMPLEX_REFUSALS.get(op.key)
    if isinstance(refusal, str):
        return errors.not_implemented_for(refusal, dtype)
    if refusal is not None:
        return errors.TorchError(*refusal)
    return errors.TorchError("NotImplementedError", "gradcli does not support complex tensors "
                             f"in {op.key.split('.')[0]} yet")


@record(frozen=True)
class OpDef:
    """One op overload: its forward on arrays, one vjp per differentiable input, and its grad_fn label.

    `promote` says how input dtypes combine: "none" keeps the first tensor's dtype, "binary" is
    torch.result_type over the positional operands, "float" is that with integers raised to the
    default float dtype. `out_dtype` maps that compute dtype to the result's (e.g. comparisons give
    bool). `save` lists the positional inputs (by index) and/or RESULT that the vjps read;
    `save_for`, one tuple per vjp, narrows that to what each input's vjp reads; `saves_params`
    says the params hold what torch saves (an index tensor), so a second backward fails there
    too. A view op's result
    shares its input's storage and version counter. `n_outputs` is None when the forward returns
    a tuple whose length depends on the call (split, unbind); `differentiable_outputs` None means
    all outputs. A `variadic` op (cat, stack) takes any number of tensors and has one vjp for all,
    called with `input_index=i`.
    """

    key: str
    label: str
    forward: Callable
    vjp: tuple = ()
    save: tuple = ()
    promote: str = "binary"
    out_dtype: Callable | None = None
    view: bool = False
    n_outputs: int | None = 1
    differentiable_outputs: tuple | None = (0,)
    save_for: tuple | None = None
    variadic: bool = False
    name: str = ""  # torch's grad_fn.name() when it differs from the class name (the label)
    saves_params: bool = False  # params hold tensors torch saves (index tensors): freed likewise
    pointwise: bool = False  # a TensorIterator op: its result is laid out in memory as torch's
    # The vjps as readable formulas, one per vjp (None where there is none), in the names of
    # torch's derivatives.yaml: `grad`, the inputs (self, other...), `result`; for explain.
    rule: tuple = ()
    # Forward mode: one rule per input, `rule(tangent, *args, out=result, **params)` giving that
    # input's share of the output's tangent; or LINEAR (the op on the tangents) or AS_VJP (the
    # vjps on the tangent, for elementwise ops); None: forward AD fails as torch's does.
    jvp: object = None
    # torch's CPU kernel and the dtype categories it has no code for: its "not implemented for"
    # error, raised before the forward runs.
    refuses: tuple = ()
    # Whether the forward and vjps take complex dtypes; a row without it refuses them as
    # gradcli's gap (rows torch refuses them for say so in `refuses`)
    complex: bool = False
    # False: an unused output's gradient reaches the vjps as None (torch's undefined gradient),
    # not as zeros, for a multi-output op whose formula skips it (aminmax)
    materialize: bool = True
    # Derived once from the fields above, so that `apply` does no scanning per call.
    edge_slots: tuple = field(init=False, repr=False, compare=False)
    saves_result: bool = field(init=False, repr=False, compare=False)
    # One output, not a view, not variadic, its dtype the compute dtype (a reduction's, when no
    # `dtype` is asked for): `apply`'s fast path serves it when its tensors are all of one
    # floating dtype.
    plain: bool = field(init=False, repr=False, compare=False)
    # How many operands from the first have an edge: a call with no more operands than this
    # needs grad when one of its tensors does (no scan of `edge_slots`).
    leading_edges: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        assert not (self.variadic and self.save_for), "a variadic op's vjp reads all it saves"
        slots = tuple(i for i, rule in enumerate(self.vjp) if rule is not None)
        object.__setattr__(self, "edge_slots", slots)
        object.__setattr__(self, "leading_edges", len(slots) if slots == tuple(range(len(slots)))
                           else 0)
        object.__setattr__(self, "saves_result", RESULT in self.save)
        object.__setattr__(self, "plain", self.n_outputs == 1 and not self.view and
                           not self.variadic and self.out_dtype in (None, reduction_dtype)
                           and _FLOATING not in (self.refuses[1] if self.refuses else ())
                           and self.differentiable_outputs in (None, (0,)))


OPS: dict[str, OpDef] = LateTable("row")


def defop(key: str, label: str, forward: Callable, **fields) -> OpDef:
    """Declare one op overload and add it to the OPS table."""
    if "vjp" in fields and callable(fields["vjp"]):
        fields["vjp"] = (fields["vjp"],)
    op = OpDef(key, label, forward, **fields)
    OPS[key] = op
    return op


def pointwise_op(key: str, label: str, forward: Callable, **fields) -> OpDef:
    """Declare an elementwise op over several operands, laid out in memory as torch lays it out."""
    return defop(key, label, forward, pointwise=True, **fields)


def reduction_dtype(dtype: dtypes.DType, params: dict) -> dtypes.DType:
    """The out_dtype of sums, products and scans: the `dtype` asked for, else the input's, an
    integer or bool one raised to int64."""
    if params.get("dtype") is not None:
        return params["dtype"]
    return dtype if dtype.differentiable else dtypes.int64


def compute_dtype(op: OpDef, args: tuple) -> dtypes.DType:
    """The dtype the forward computes in, following the op's promotion rule."""
    common, uniform, scalar_category = None, True, -1
    for a in args:
        if type(a) is Tensor:
            if common is None:
                common = a.dtype
                if op.promote == "none":
                    return common
            elif a.dtype is not common:
                uniform = False
        else:
            category = _SCALAR_CATEGORY.get(type(a))
            if category is not None and category > scalar_category:
                scalar_category = category
    if uniform and common is not None and scalar_category <= common.category:
        result = common
    else:
        operands = [a for a in args if type(a) is Tensor or type(a) in _SCALAR_CATEGORY]
        result = dtypes.result_type(operands, STATE.default_dtype)
    if op.promote == "float" and result.category < dtypes.FLOATING:
        return STATE.default_dtype
    return result


def apply(op: OpDef, *args, **params):
    """Run `op` on tensors and Python scalars; record a backward node when grad mode asks for one.

    The fast path serves the common case, every tensor operand of one floating dtype (so no
    promotion and no cast) and no forward-mode AD level open; it does what the general path does
    for such a call, with fewer steps."""
    if STATE.autocast[0] and op.key in autocast.ROWS:
        args = autocast.cast_row(args)
    first = args[0] if args else None
    if op.plain and type(first) is Tensor and first.dtype in _NATIVE_FLOATS and \
            (op.out_dtype is None or params.get("dtype") is None) and first.sparse is None and \
            not STATE.forward_ad and STATE.vmap_batched is None:
        dtype, requires_grad = first.dtype, first._requires_grad
        history = first._history
        if len(args) == 1:
            raw = op.forward(first.data, **params)
        elif len(args) == 2 and type(args[1]) is not Tensor and type(args[1]) is not complex:
            raw = op.forward(first.data, args[1], **params)  # tensor op number, the commonest
        else:
            arrays = [first.data]
            for a in args[1:]:
                if type(a) is Tensor:
                    if a.dtype is not dtype or a.sparse is not None:
                        return _apply(op, args, params)
                    arrays.append(a.data)
                    requires_grad = requires_grad or a._requires_grad
                    history = history or a._history
                elif type(a) is complex:
                    return _apply(op, args, params)
                else:
                    arrays.append(a)
            raw = op.forward(*arrays, **params)
        if op.pointwise and raw.ndim > 1:
            raw = torch_layout(raw, [a.data for a in args if type(a) is Tensor])
        out = Tensor(raw if type(raw) is np.ndarray else np.asarray(raw), dtype)
        if requires_grad and STATE.grad_enabled and (len(args) <= op.leading_edges or
                                                     _needs_grad(op, args)):
            out._grad_fn = Node(op, args, (out,), params, op.edge_slots)
            out._requires_grad = True
        elif requires_grad or history is not None:
            _note_no_history(op, args, (out,), STATE.grad_enabled)
        else:
            out._made_at = STATE.origin  # for the notes of a shape error
        return out
    return _apply(op, args, params)


def _apply(op: OpDef, args: tuple, params: dict):
    """apply's general path: promotion, casts, views, several outputs, forward-mode AD."""
    for a in args:
        if type(a) is Tensor and a.sparse is not None:
            return F.sparse_valuewise(op, args, params)
    dtype = compute_dtype(op, args)
    if op.refuses and (dtype.category in op.refuses[1] or dtype in op.refuses[1]):
        raise errors.not_implemented_for(op.refuses[0], dtype)
    if dtype.category == dtypes.COMPLEX and not op.complex and op.key not in _MOVES_ELEMENTS:
        raise refusal_of_complex(op, dtype)
    rounded = _REDUCED.get(dtype) if not (dtype is _HALF and op.view) else None
    if op.promote == "none":
        arrays = [(a.data.astype(np.float32) if a.dtype is _HALF and rounded else a.data)
                  if type(a) is Tensor else a for a in args]
    elif rounded is not None:
        arrays, params = _reduced_operands(op, args, params, rounded)
    else:
        arrays = [(a.data if a.dtype is dtype else a.data.astype(dtype.np))
                  if type(a) is Tensor else a for a in args]
    if rounded is not None:
        raw = _reduced_forward(op, arrays, params, dtype)
    else:
        raw = op.forward(*arrays, **params)
    if op.pointwise:
        raw = torch_layout(raw, [a.data for a in args if type(a) is Tensor])
    out_dtype = op.out_dtype(dtype, params) if op.out_dtype is not None else dtype
    grad_enabled = STATE.grad_enabled
    needs_grad = grad_enabled and _needs_grad(op, args)
    if op.n_outputs == 1:
        outputs = (Tensor(raw if type(raw) is np.ndarray else np.asarray(raw), out_dtype),)
    else:
        if not isinstance(out_dtype, tuple):
            out_dtype = (out_dtype,) * len(raw)
        outputs = tuple(Tensor(np.asarray(r), d) for r, d in zip(raw, out_dtype))
    shared = _share_counters(args, outputs) if op.n_outputs != 1 and not op.view else None
    if op.view:
        _link_views(op, args[0], outputs, params, grad_enabled, needs_grad)
    if STATE.forward_ad:
        forward_ad.propagate(op, args, outputs, params)
    if STATE.vmap_batched is not None:
        vmap_batched.spread(args, outputs)
    if not needs_grad:
        _note_no_history(op, args, outputs, grad_enabled)
    else:
        slots = op.edge_slots if not op.variadic else tuple(range(len(args)))
        node = Node(op, args, outputs, params, slots)
        if shared:  # what torch saves is the output: its shape in a version error
            node.saved_versions = tuple((shared.get(id(t), t), version, is_output)
                                        for t, version, is_output in node.saved_versions)
        wanted = op.differentiable_outputs
        for nr in (range(len(outputs)) if wanted is None else wanted):
            out = outputs[nr]
            out._grad_fn, out.output_nr, out._requires_grad = node, nr, True
    return outputs[0] if op.n_outputs == 1 else outputs


def _share_counters(args: tuple, outputs: tuple) -> dict:
    """An output over all of an input's memory (a value-selecting op's indices, which its node
    saves as that input) shares the input's version counter, as the output torch saves does:
    writing into it is seen at backward. Returns id(input) -> output."""
    shared = {}
    for out in outputs:
        for a in args:
            if type(a) is Tensor and out.data.size == a.data.size and \
                    np.may_share_memory(out.data, a.data):
                out._version_counter = a.own_counter()
                shared[id(a)] = out
                break
    return shared


# The ops whose Python numbers torch wraps into tensors cast to the operands' dtype (their kernels
# see a bfloat16 number, and so a bfloat16 alpha or exponent); the ops taking a Scalar argument
# read the number in float32, and mul and div read a one-element operand as it was, in float32.
_WRAPS_SCALARS = frozenset(("add", "sub", "rsub", "fmod", "remainder", "floor_divide", "eq", "ne",
                            "lt", "le", "gt", "ge", "pow"))
_READS_ORIGINAL = frozenset(("mul", "div"))


def _bfloat16(values) -> np.ndarray:
    return dtypes.round_bfloat16(np.asarray(values).astype(np.float32))


# torch's CPU kernels compute bfloat16 and float16 tensors in float32, rounding the result (a
# view of a float16 tensor is its own storage's, which bfloat16's float32 one already is)
_REDUCED = {_BFLOAT16: _bfloat16, _HALF: dtypes.round_float16}


def _reduced_operands(op: OpDef, args: tuple, params: dict, rounded) -> tuple:
    """The arrays a forward computing in bfloat16 or float16 gets (float32 arrays of that
    dtype's values, `rounded` rounding float32 ones to them, as torch casts its operands), and
    its params with a wrapped `alpha` rounded likewise."""
    name = op.key.split(".")[0]
    wraps, original = name in _WRAPS_SCALARS, name in _READS_ORIGINAL
    arrays = []
    for a in args:
        if type(a) is Tensor:
            if a.dtype is _BFLOAT16 and rounded is _bfloat16:
                a = a.data
            else:
                a = a.data.astype(np.float32) if original and a.data.ndim == 0 else rounded(a.data)
        elif wraps and type(a) in (int, float):
            a = float(rounded(a))
        arrays.append(a)
    if wraps and type(params.get("alpha")) in (int, float):
        params = dict(params, alpha=float(rounded(params["alpha"])))
    return arrays, params


def _reduced_forward(op: OpDef, arrays: list, params: dict, dtype: dtypes.DType):
    """The forward run with STATE.reduced_kernel set to `dtype` (the result is rounded as it
    becomes a tensor of it)."""
    outer, STATE.reduced_kernel = STATE.reduced_kernel, dtype
    try:
        return op.forward(*arrays, **params)
    finally:
        STATE.reduced_kernel = outer


def _note_no_history(op: OpDef, args: tuple, outputs: tuple, grad_enabled: bool) -> None:
    """Mark outputs that have no history with where they were made and why they have none
    (grad mode off, an op that is not differentiable, or an input's own reason), so that
    backward from them, or a shape error, can say so."""
    note, origin = None, STATE.origin
    for out in outputs:
        out._made_at = origin
    if grad_enabled and not op.edge_slots:
        if any(type(a) is Tensor and a._requires_grad for a in args):
            note = not_differentiable(op.key.split(".")[0])
    elif not grad_enabled and _needs_grad(op, args):
        note = no_grad_history(origin)
    if note is None:
        for a in args:
            if type(a) is Tensor:
                note = a._history
                if note is not None:
                    break
        else:
            return
        if note is None:
            return
    for out in outputs:
        out._history = note


def not_implemented(name: str) -> Callable:
    """The vjp of an op torch has no derivative for (its grad_fn is NotImplemented)."""
    def vjp(*_, **__):
        raise errors.runtime(f"derivative for {name} is not implemented")
    return vjp


def no_derivative(name: str) -> Callable:
    """The vjp of an input derivatives.yaml marks not_implemented(name): torch's
    NotImplementedError when the backward reaches it."""
    def vjp(*_, **__):
        raise errors.TorchError("NotImplementedError",
                                f"the derivative for '{name}' is not implemented.")
    return vjp


def not_differentiable(name: str) -> tuple:
    """The note on an output of op `name` made from a tensor that requires grad."""
    return ((f"computed here by {name}, which is not differentiable", STATE.origin),)


def _needs_grad(op: OpDef, args: tuple) -> bool:
    for i in (op.edge_slots if not op.variadic else range(len(args))):
        a = args[i]
        if type(a) is Tensor and a._requires_grad:
            return True
    return False


def _link_views(op: OpDef, source: Tensor, outputs: tuple, params: dict, grad_enabled: bool,
                needs_grad: bool) -> None:
    """Make each output a view of `source`'s base, replaying `op` to find it from the base."""
    forward = op.forward
    if not grad_enabled:
        meta = NO_GRAD_MODE
    elif len(outputs) > 1 and needs_grad:
        meta = MULTI_OUTPUT
    else:
        meta = DEFAULT
    if op.n_outputs == 1:
        outputs[0].make_view_of(source, lambda array: forward(array, **params), meta)
    else:
        for nr, out in enumerate(outputs):
            out.make_view_of(source, lambda array, nr=nr: forward(array, **params)[nr], meta)
    if meta == NO_GRAD_MODE and source._requires_grad:
        for out in outputs:  # torch's views keep requiring grad when made without grad mode
            out._requires_grad = True


def broadcast_shape(a: tuple, b: tuple) -> tuple:
    """The broadcast of two shapes, failing with torch's message (which names the last
    mismatching dimension, counting from the left of the result)."""
    ndim = max(len(a), len(b))
    out = [0] * ndim
    for i in range(ndim - 1, -1, -1):
        offset = ndim - 1 - i
        size_a = a[len(a) - 1 - offset] if len(a) - 1 - offset >= 0 else 1
        size_b = b[len(b) - 1 - offset] if len(b) - 1 - offset >= 0 else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            raise errors.runtime(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at "
                f"non-singleton dimension {i}")
        out[i] = size_a if size_a != 1 else size_b
    return tuple(out)


def define(schema: str, label: str, forward: Callable, *, variants: str = "torch method",
           hidden: tuple = (), **fields) -> Callable:
    """A one-overload elementwise function in one declaration: its op row (forward, vjps,
    label), its torch-level function (broadcast check, then `apply`) and its public names."""
    name = schema.split("(", 1)[0]
    op = pointwise_op(name, label, forward, **fields)

    def function(*args, **params):
        shapes = [a.shape for a in args if type(a) is Tensor]
        for shape in shapes[1:]:
            broadcast_shape(shapes[0], shape)
        return apply(op, *args, **params)

    function.__name__ = name
    return declare(name, function, schema, variants=variants, hidden=hidden)


export(__name__, globals())
