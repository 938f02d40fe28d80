"""The autograd entry points: Tensor.backward, torch.autograd.grad, retain_grad and friends."""

from __future__ import annotations

import weakref

import numpy as np

from gradcli.engine import errors, functional as F
from gradcli.engine.autograd import run_backward
from gradcli.engine.tensor import Tensor


def _shape_text(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def _root_grads(outputs: list[Tensor], grad_outputs: list, create_graph: bool) -> list[Tensor]:
    grads = []
    for i, (out, grad) in enumerate(zip(outputs, grad_outputs)):
        if grad is None:
            if out.requires_grad and out.numel() != 1:
                raise errors.runtime("grad can be implicitly created only for scalar outputs")
            grad = Tensor(np.ones(out.shape, dtype=out.dtype.np), out.dtype)
        elif not isinstance(grad, Tensor):
            grad = Tensor(np.full(out.shape, grad, dtype=out.dtype.np), out.dtype)
        elif grad.shape != out.shape:
            raise errors.runtime(
                f"Mismatch in shape: grad_output[{i}] has a shape of {_shape_text(grad.shape)} and "
                f"output[{i}] has a shape of {_shape_text(out.shape)}.")
        if grad.dtype is not out.dtype:
            grad = F.to_dtype(grad, out.dtype)
        grads.append(grad if create_graph else F.detach(grad))
    return grads


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def backward(tensor: Tensor, gradient=None, retain_graph=None, create_graph: bool = False,
             inputs=None) -> None:
    """Tensor.backward: accumulate d tensor / d leaf into every leaf's .grad (or `inputs`' only)."""
    retain = create_graph if retain_graph is None else retain_graph
    grads = _root_grads([tensor], [gradient], create_graph)
    chosen = _as_list(inputs) if inputs is not None else None
    if chosen is not None and not chosen:
        raise errors.runtime("'inputs' argument to backward() cannot be empty.")
    run_backward([tensor], grads, retain_graph=retain, create_graph=create_graph, inputs=chosen)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         allow_unused=None, materialize_grads: bool = False) -> tuple:
    """torch.autograd.grad: the gradients of `outputs` w.r.t. `inputs`, returned, not accumulated."""
    outs, ins = _as_list(outputs), _as_list(inputs)
    gouts = _as_list(grad_outputs) or [None] * len(outs)
    if len(gouts) != len(outs):
        raise errors.runtime(
            f"grad requires one grad_output per output: got {len(gouts)} grad_outputs and "
            f"{len(outs)} outputs")
    for t in ins:
        if not t.requires_grad:
            raise errors.runtime("One of the differentiated Tensors does not require grad")
    retain = create_graph if retain_graph is None else retain_graph
    grads = _root_grads(outs, gouts, create_graph)
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
                result[i] = F.zeros_like(ins[i])
    return tuple(result)


def retain_grad(tensor: Tensor) -> None:
    if not tensor.requires_grad:
        raise errors.runtime("can't retain_grad on Tensor that has requires_grad=False")
    if tensor.grad_fn is not None and not tensor.retains_grad:
        tensor.grad_fn.retained[tensor.output_nr] = weakref.ref(tensor)
        tensor.retains_grad = True


def requires_grad_(tensor: Tensor, requires_grad: bool = True) -> Tensor:
    if requires_grad and not tensor.dtype.is_floating_point:
        raise errors.runtime("only Tensors of floating point dtype can require gradients")
    tensor.requires_grad = requires_grad
    return tensor


def item(tensor: Tensor):
    if tensor.numel() != 1:
        raise errors.runtime(
            f"a Tensor with {tensor.numel()} elements cannot be converted to Scalar")
    return tensor.data.reshape(()).item()
