"""The autograd entry points: backward, torch.autograd.grad, and the tensor's autograd attributes."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors, vmap_batched
from gradcli.engine.autograd import GradientEdge, retain_on
from gradcli.engine.backward import GRAD_DTYPES, check_roots, run_backward
from gradcli.engine.dtypes import FLOATING, DType
from gradcli.engine.indexing import ZERO_DIM_INDEX
from gradcli.engine.state import STATE
from gradcli.engine.tensor import DETACH_HINT, LEAF_ONLY, Tensor
from gradcli.engine.triggered import triggered
from gradcli.engine.functions import F

NON_LEAF_GRAD = triggered(
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.",
    "build/aten/src/ATen/core/TensorBody.h", 493)
CREATE_GRAPH_CYCLE = triggered(
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak.",
    "torch/csrc/autograd/engine.cpp", 1307)

_BATCHED_MISMATCH = (
    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the "
    "batch dimension. The sizes of the remaining dimensions are expected to match the shape of "
    "corresponding output, but a mismatch was detected: grad_output[{}] has a shape of {} and "
    "output[{}] has a shape of {}. If you only want some tensors in `grad_output` to be "
    "considered batched, consider using vmap.")


def _shape_text(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def _as_tuple(value) -> list:
    """A tensor or an iterable of them as a list: torch's `(t,) if is_tensor_like(t) else
    tuple(t)`, a dict giving its keys as `tuple` does."""
    if isinstance(value, (Tensor, GradientEdge)):
        return [value]
    if isinstance(value, (list, tuple, str, dict)):
        return list(value)
    try:  # a generator (model.parameters()), a dict view, an iterator
        items = iter(value)
    except TypeError:
        raise errors.type_error(f"'{errors.type_name(value)}' object is not iterable") from None
    return list(items)


def _chosen_inputs(inputs, caller: str) -> list:
    """The `inputs` of backward or grad as torch takes them: a tensor, a dict's values, or an
    iterable, never empty."""
    chosen = list(inputs.values()) if isinstance(inputs, dict) else _as_tuple(inputs)
    if not chosen:
        raise errors.runtime(f"`inputs` argument to `{caller}()` cannot be empty.")
    return chosen


def _checked_by_engine(outputs: list, grads: list, inputs: list | None) -> None:
    """The checks torch's C++ engine makes before it runs: as many gradients as outputs, roots
    that require grad, inputs that are tensors."""
    if len(grads) != len(outputs):
        raise errors.runtime(f"got {len(outputs)} tensors and {len(grads)} gradients")
    check_roots(outputs)
    for t in inputs or ():
        if not isinstance(t, (Tensor, GradientEdge)):
            raise errors.runtime("all inputs have to be Tensors or GradientEdges, but got "
                                 f"{errors.type_name(t)}")


def _root_grads(outputs: list, grad_outputs: list) -> list[Tensor]:
    """One starting gradient per output, checked in torch's `_make_grads` order: ones for a scalar,
    else the given one. A given one is used as it is, as torch's engine does: a node that passes it
    through unchanged (an add, a clone) hands on the same tensor, its grad_fn included."""
    grads = []
    for i, (out, grad) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(out, Tensor):
            raise errors.TorchError("AssertionError", "Expected output to be a torch.Tensor")
        if isinstance(grad, Tensor):
            if grad.shape != out.shape:
                raise errors.runtime(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {_shape_text(grad.shape)} "
                    f"and output[{i}] has a shape of {_shape_text(out.shape)}.")
        elif grad is not None:
            raise errors.type_error("gradients can be either Tensors or None, but got "
                                    f"{errors.type_name(grad)}")
        elif out._requires_grad:
            if out.data.size != 1:
                raise errors.runtime("grad can be implicitly created only for scalar outputs")
            if out.dtype.category != FLOATING:
                raise errors.runtime("grad can be implicitly created only for real scalar outputs "
                                     f"but got {out.dtype}")
            grad = _ones_like(out)
        else:
            grad = _ones_like(out)
        if grad.dtype is not out.dtype:
            grad = F.cast(grad, out.dtype)
        grads.append(grad)
    return grads


def _ones_like(out: Tensor) -> Tensor:
    """The implicit starting gradient (a scalar's, in the common case: np.array is the quicker)."""
    np_dtype = out.dtype.np
    data = np.array(1, np_dtype) if not out.data.ndim else np.ones(out.data.shape, np_dtype)
    return Tensor(data, out.dtype)


def _given_grads(grad_outputs, count: int) -> list:
    """torch's `_tensor_or_tensors_to_tuple`: None for each output when none are given."""
    return [None] * count if grad_outputs is None else _as_tuple(grad_outputs)


def backward(tensors, gradient=None, retain_graph=None, create_graph: bool = False,
             inputs=None) -> None:
    """Tensor.backward and torch.autograd.backward: accumulate into the leaves' (or `inputs`')
    .grad."""
    chosen = None if inputs is None else _chosen_inputs(inputs, "backward")
    roots = _as_tuple(tensors)
    grads = _root_grads(roots, _given_grads(gradient, len(roots)))
    _checked_by_engine(roots, grads, chosen)
    for t in chosen or ():  # torch's engine retains each input's grad, then runs its node
        retain_grad(t)
    if create_graph and chosen is None:
        STATE.warn("UserWarning", CREATE_GRAPH_CYCLE, once=True)
    retain = create_graph if retain_graph is None else retain_graph
    run_backward(roots, grads, retain_graph=retain, create_graph=create_graph, inputs=chosen)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         allow_unused=None, materialize_grads: bool = False, is_grads_batched: bool = False) -> tuple:
    """torch.autograd.grad: the gradients of `outputs` w.r.t. `inputs`, returned, not accumulated.
    With `is_grads_batched`, each grad_output's first dim is a batch of grad_outputs."""
    if materialize_grads and allow_unused is False:  # checked before the arguments are read
        raise errors.value_error("Expected allow_unused to be True or not passed when "
                                 "materialize_grads=True, but got: allow_unused=False.")
    outs, ins = _as_tuple(outputs), _chosen_inputs(inputs, "grad")
    given = _given_grads(grad_outputs, len(outs))
    if is_grads_batched:
        return _batched_grad(outs, ins, given, retain_graph, create_graph, allow_unused,
                             materialize_grads)
    grads = _root_grads(outs, given)
    _checked_by_engine(outs, grads, ins)
    for t in ins:
        if isinstance(t, Tensor) and not t.requires_grad:
            raise errors.runtime("One of the differentiated Tensors does not require grad")
    retain = STATE.graph_kept or (create_graph if retain_graph is None else retain_graph)
    result = run_backward(outs, grads, retain_graph=retain, create_graph=create_graph,
                          inputs=ins, accumulate=False)
    allow_unused = materialize_grads if allow_unused is None else allow_unused
    for i, g in enumerate(result):
        if g is None:
            if not allow_unused:
                raise errors.runtime(
                    f"The differentiated Tensor at index {i} appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                if isinstance(ins[i], GradientEdge):
                    raise errors.runtime("materialize_grads cannot be used when the given input "
                                         "is a GradientEdge")
                result[i] = F.zeros_for(ins[i])
    return dict(zip(inputs, result)) if isinstance(inputs, dict) else tuple(result)


def _batched_grad(outs, ins, grad_outputs, retain_graph, create_graph, allow_unused,
                  materialize_grads) -> tuple:
    """One backward per batch entry, the results stacked (torch vmaps the backward instead)."""
    for i, (out, given) in enumerate(zip(outs, grad_outputs)):
        if isinstance(out, Tensor) and isinstance(given, Tensor):
            if given.ndim == 0:
                raise errors.index_error(ZERO_DIM_INDEX)
            if given.shape[1:] != out.shape:  # torch prints the entry's shape past its first dim
                raise errors.runtime(_BATCHED_MISMATCH.format(
                    i, _shape_text(given.shape[2:]), i, _shape_text(out.shape)))
    grad_outputs = [g if g is not None else _root_grads([out], [None])[0]  # torch's errors
                    for out, g in zip(outs, grad_outputs)]
    if any(g.ndim == 0 for g in grad_outputs):
        raise errors.value_error(
            "vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input is "
            "a Tensor of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0.")
    size = grad_outputs[0].shape[0]
    rows = []
    for b in range(size):
        last = b == size - 1
        rows.append(grad(outs, ins, [F.select(g, 0, b) for g in grad_outputs],
                         retain_graph if last else True, create_graph, allow_unused,
                         materialize_grads))
    return tuple(None if column[0] is None else F.stack(column) for column in zip(*rows))


def retain_grad(tensor: Tensor) -> None:
    if not tensor.requires_grad:
        raise errors.runtime("can't retain_grad on Tensor that has requires_grad=False")
    node = tensor.grad_fn
    if node is not None and not tensor.retains_grad:
        retain_on(tensor, node, tensor.output_nr)
        tensor.retains_grad = True


def read_grad(tensor: Tensor):
    """tensor.grad, with torch's warning when a non-leaf's unpopulated .grad is read."""
    if tensor.grad is None and tensor.grad_fn is not None and not tensor.retains_grad:
        STATE.warn("UserWarning", NON_LEAF_GRAD, notes=((
            f"computed here by {tensor.grad_fn.name()}, so it is not a leaf: call .retain_grad() "
            "on it before backward() to keep its .grad", getattr(tensor.grad_fn, "origin", None)),))
    return tensor.grad


def assign_grad(tensor: Tensor, value) -> None:
    """tensor.grad = value, with torch's type, shape and dtype checks."""
    if value is not None:
        if not isinstance(value, Tensor):
            raise errors.type_error("assigned grad expected to be a Tensor or None but got grad "
                                    f"of type {errors.type_name(value)}")
        allowed = GRAD_DTYPES.get(tensor, tensor.dtype)
        if allowed is not None and value.dtype is not allowed:
            raise errors.runtime(
                f"attempting to assign a gradient with dtype '{value.dtype.cpp_name}' to a "
                f"tensor with grad_dtype '{allowed.scalar_name}'. The "
                "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You "
                "can set the tensor's grad_dtype attribute with a specific dtype, or None to allow "
                "any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                "gradient may break downstream systems that assume they match.")
        if value.shape != tensor.shape:
            raise errors.runtime(
                f"attempting to assign a gradient of size '{_sizes(value.shape)}' to a tensor of "
                f"size '{_sizes(tensor.shape)}'. Please ensure that the gradient and the tensor "
                "are the same size")
    tensor.grad = value


def grad_dtype(tensor: Tensor):
    """Tensor.grad_dtype: the dtype AccumulateGrad casts to, the leaf's own unless set."""
    if tensor.grad_fn is not None:
        raise errors.runtime("grad_dtype can only be accessed on leaf tensors.")
    return GRAD_DTYPES.get(tensor, tensor.dtype)


def set_grad_dtype(tensor: Tensor, value) -> None:
    """tensor.grad_dtype = value (a dtype or None), torch's checks in its order."""
    if tensor.grad_fn is not None:
        read_grad(tensor)  # torch reads .grad first, with its warning
        raise errors.runtime("grad_dtype can only be set on leaf tensors.")
    if value is not None and not isinstance(value, DType):
        raise errors.runtime(f"grad_dtype must be a torch.dtype or None, but got "
                             f"{errors.type_name(value)}")
    if value is not None and tensor.grad is not None and tensor.grad.dtype is not value:
        raise errors.runtime(
            f"Cannot set grad_dtype to '{value.scalar_name}' because there is already a gradient "
            f"with dtype '{tensor.grad.dtype.cpp_name}'. Please clear the gradient (.grad = "
            "None) before changing grad_dtype, or ensure the new grad_dtype matches the existing "
            "gradient's dtype.")
    GRAD_DTYPES[tensor] = value


def _sizes(shape: tuple) -> str:
    return f"[{', '.join(str(s) for s in shape)}]"


def set_requires_grad(tensor: Tensor, flag) -> None:
    """tensor.requires_grad = flag: a bool, on leaves only (requires_grad_ lets a non-leaf keep
    True)."""
    if type(flag) is not bool:
        raise errors.runtime("requires_grad must be a bool")
    if tensor.grad_fn is not None:
        raise errors.runtime(LEAF_ONLY if flag else LEAF_ONLY + DETACH_HINT)
    tensor.requires_grad = bool(flag)


def requires_grad_(tensor: Tensor, requires_grad: bool = True) -> Tensor:
    if requires_grad and not tensor.dtype.differentiable:
        raise errors.runtime("only Tensors of floating point dtype can require gradients")
    tensor.requires_grad = requires_grad
    return tensor


def detach_(tensor: Tensor) -> Tensor:
    """Cut `tensor` from its graph in place."""
    if tensor._base is not None:
        raise errors.runtime(
            "Can't detach views in-place. Use detach() instead. If you are using "
            "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
            "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
            "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
            "function in torch/optim/optimizer.py as the solution.")
    tensor._grad_fn, tensor._requires_grad, tensor.output_nr = None, False, 0
    return tensor


def read_data(tensor: Tensor) -> Tensor:
    """tensor.data: the same values, cut from the graph, with a version counter of its own (so
    writes through it go unnoticed by autograd, as in torch)."""
    out = Tensor(tensor.data, tensor.dtype)
    out.sparse = tensor.sparse
    return out


def assign_data(tensor: Tensor, value) -> None:
    """tensor.data = value: swap the values in, keeping the autograd history."""
    if not isinstance(value, Tensor):
        raise errors.type_error(
            f"Variable data has to be a tensor, but got {errors.type_name(value)}")
    if tensor.requires_grad and not value.dtype.differentiable:
        raise errors.runtime("data set to a tensor that requires gradients must be floating "
                             "point or complex dtype")
    tensor.data, tensor.dtype = value.data, value.dtype


def item(tensor: Tensor):
    vmap_batched.check_item(tensor)
    if tensor.numel() != 1:
        raise errors.runtime(
            f"a Tensor with {tensor.numel()} elements cannot be converted to Scalar")
    return tensor.data.reshape(()).item()


def tolist(tensor: Tensor):
    vmap_batched.refuse(tensor, vmap_batched.STORAGE)
    return tensor.data.tolist()
