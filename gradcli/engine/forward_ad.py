"""Forward-mode AD (torch.autograd.forward_ad): one dual level, tangents carried on tensors and
pushed through each op by the jvp rules declared next to its vjps in the op rows."""

from __future__ import annotations

import weakref

import numpy as np
from contextlib import contextmanager

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.functions import F
from gradcli.engine.zero_tensors import efficient_zeros

# In an op row's `jvp`: the tangent is the op itself applied to the inputs' tangents (views,
# sums, clones: ops linear in their inputs) ...
LINEAR = "linear"
# ... or the row's vjp applied to the tangent (elementwise ops, whose Jacobian is diagonal).
AS_VJP = "vjp"
# Otherwise a tuple of per-input rules `rule(tangent, *args, out=..., **params)` whose results
# are summed, or one joint rule `rule(tangents, *args, out=..., **params)` taking every input's
# tangent at once (zeros for a floating input without one), for formulas that are not a sum.
# A row with several outputs gives its first output the tangent; `out` is then all outputs.
# A linear row with a call-dependent number of outputs (split, unbind) gives each its part.

_NESTED = "Nested forward mode AD is not supported at the moment"
_NO_LEVEL = ("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
             "enter_dual_level() first.")


def enter_dual_level() -> int:
    if STATE.dual_level is not None:
        raise errors.runtime(_NESTED)
    STATE.dual_level = weakref.WeakSet()
    STATE.forward_ad = True
    return 0


def exit_dual_level(level=None) -> None:
    """Close the level: every tangent made in it is dropped, as torch does."""
    tensors = STATE.dual_level
    if tensors is None:
        raise errors.runtime("Trying to exit a forward AD level that was not the last one that "
                             "was created. This is not supported.")
    for tensor in list(tensors):
        tensor._fw_grad = None
    STATE.dual_level = None
    STATE.forward_ad = False


@contextmanager
def dual_level():
    level = enter_dual_level()
    try:
        yield level
    finally:
        exit_dual_level()


def hold(tensor: Tensor, tangent: Tensor | None) -> None:
    """Give `tensor` `tangent` (or none) in the open level."""
    tensor._fw_grad = tangent
    STATE.dual_level.add(tensor)


def make_dual_in_place(tensor: Tensor, tangent: Tensor) -> None:
    """Give `tensor` a tangent in the open level (a transform's input keeping its tangent)."""
    hold(tensor, tangent)


def _sizes(shape: tuple) -> str:
    return f"[{', '.join(str(s) for s in shape)}]"


def make_dual(tensor: Tensor, tangent: Tensor, level=None) -> Tensor:
    """A view of `tensor` carrying `tangent` at the open level."""
    if STATE.dual_level is None:
        raise errors.runtime(_NO_LEVEL)
    for value in (tensor, tangent):  # torch's Python code asks the primal, then the tangent
        if not isinstance(value, Tensor):
            raise errors.TorchError("AttributeError", f"'{errors.type_name(value)}' object has "
                                    "no attribute 'is_floating_point'")
        if value is tensor and not tensor.dtype.is_floating_point:
            raise errors.TorchError("ValueError", "Expected primal to be floating point or "
                                    f"complex, but got: {tensor.dtype!r}")
    if not tangent.dtype.is_floating_point:
        raise errors.TorchError("ValueError", "Expected tangent to be floating point or complex, "
                                f"but got: {tangent.dtype!r}")
    if tangent.shape != tensor.shape:
        raise errors.runtime(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {_sizes(tensor.shape)} "
            f"while the given forward gradient is of size {_sizes(tangent.shape)}.")
    with suspended():
        dual = F.view(tensor, tensor.shape)
    hold(dual, tangent)
    return dual


def unpack_dual(tensor: Tensor, level=None) -> tuple:
    """(primal, tangent): the primal a view without the tangent; the tangent None if none."""
    if not isinstance(tensor, Tensor):
        raise errors.type_error("_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                                f"{errors.type_name(tensor)}")
    tangent = tensor._fw_grad if STATE.dual_level is not None and STATE.forward_ad else None
    if tangent is None:
        return F.ReturnTypes("UnpackedDualTensor", tensor, None, fields=("primal", "tangent"))
    with suspended():
        primal = F.primal_view(tensor)
    return F.ReturnTypes("UnpackedDualTensor", primal, tangent, fields=("primal", "tangent"))


@contextmanager
def suspended():
    """No propagation inside: the tangent computations themselves carry no tangents."""
    previous = STATE.forward_ad
    STATE.forward_ad = False
    try:
        yield
    finally:
        STATE.forward_ad = previous


def not_supported(name: str):
    return errors.TorchError(
        "NotImplementedError",
        f"Trying to use forward AD with {name} that does not support it because it has not been "
        "implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
        "can prioritize its implementation or submit a PR adding the implementation to "
        "derivatives.yaml")


def _zeros_if_floating(value):
    """A missing tangent: zeros for a floating tensor; other inputs (indices) unchanged."""
    if type(value) is Tensor and value.dtype.is_floating_point:
        return F.zeros_for(value)
    return value


def propagate(op, args: tuple, outputs: tuple, params: dict) -> None:
    """Give the op's output the tangent its jvp rules make from the inputs' tangents."""
    tangents = [a._fw_grad if type(a) is Tensor else None for a in args]
    if all(t is None for t in tangents):
        return
    out = outputs[0]
    if out.dtype.is_complex or any(type(a) is Tensor and a.dtype.is_complex for a in args):
        raise errors.TorchError("NotImplementedError", "gradcli does not support forward-mode "
                                "AD through complex tensors yet")
    if not out.dtype.is_floating_point:
        return
    rule = op.jvp
    if rule == LINEAR and op.n_outputs is None:  # split, unbind: each output its own part
        with suspended():
            parts = F.apply_op(op.key, *[t if t is not None else _zeros_if_floating(a)
                                         for a, t in zip(args, tangents)], **params)
        for output, part in zip(outputs, parts):
            hold(output, part)
        return
    if rule is None or (op.n_outputs != 1 and (rule == LINEAR or rule == AS_VJP)):
        raise not_supported(op.key.split(".")[0])
    with suspended():
        if rule == LINEAR:
            inputs = [t if t is not None else _zeros_if_floating(a)
                      for a, t in zip(args, tangents)]
            total = F.apply_op(op.key, *inputs, **params)
        elif callable(rule):
            filled = [t if t is not None else _zeros_if_floating(a)
                      for a, t in zip(args, tangents)]
            total = rule(filled, *args, out=out if op.n_outputs == 1 else outputs, **params)
        else:
            total = _sum_of_terms(op, rule, args, tangents, out, params)
        if total.dtype is not out.dtype:
            total = F.cast(total, out.dtype)
        if total.shape != out.shape:
            total = F.expand(total, out.shape)
    hold(out, total)



def _sum_of_terms(op, rule, args: tuple, tangents: list, out, params: dict):
    """The per-input terms, summed in input order.  Where grad mode records and an input requires
    grad, torch also computes the terms of the floating inputs without a tangent, on an efficient
    zero tangent: they leave the values as they are but can make the tangent differentiable (the
    tangent of a Linear with dual parameters has grad_fn=<AddBackward0>)."""
    zero_terms = STATE.grad_enabled and any(type(a) is Tensor and a.requires_grad for a in args)
    extra = {"out": out} if (rule != AS_VJP or op.saves_result) else {}
    total = graph = None
    rules = op.vjp if rule == AS_VJP else rule
    for i, (a, t) in enumerate(zip(args, tangents)):
        fn = rules[i] if i < len(rules) else None
        if t is None:
            if not (zero_terms and fn is not None and _floating(a)):
                continue
            t = efficient_zeros(a) if type(a) is Tensor else efficient_zeros(out, ())
        if op.variadic:
            extra["input_index"] = i
        part = fn(t, *args, **params, **extra)
        if tangents[i] is not None:
            total = part if total is None else F.add(total, part)
        graph = part if graph is None else F.add(graph, part)
    if graph is total or not graph.requires_grad:
        return total
    graph.data = np.array(np.broadcast_to(total.data, graph.shape), graph.dtype.np)
    return graph


def _floating(value) -> bool:
    """A floating tensor, or a Python number torch wraps into one (`x * 2`)."""
    if type(value) is Tensor:
        return value.dtype.is_floating_point
    return type(value) is float or type(value) is int
