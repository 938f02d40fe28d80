"""What torch.autograd.functional's functions share: input tuples, graph set-up, checks, texts."""

from __future__ import annotations

from gradcli.engine import errors, grad_api
from gradcli.engine.functions import F
from gradcli.engine.ops import shapes as shapes
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.builtins import class_text


def as_tuple(value, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    """(whether `value` was a tuple, its tensors as a tuple), with torch's TypeError."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            where = (f"the value at index {i} has type {class_text(item)}" if is_tuple else
                     f"the given {arg_name} has type {class_text(item)}")
            raise errors.type_error(f"The {arg_name} given to {fn_name} must be either a Tensor "
                                    f"or a tuple of Tensors but {where}.")
    return is_tuple, tuple(items)


def tuple_postprocess(result, to_unpack):
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            result = tuple(item[0] for item in result)
        if not to_unpack[0]:
            result = result[0]
    elif not to_unpack:
        result = result[0]
    return result


def grad_preprocess(inputs: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """New tensor objects for the inputs, in the graph only when a graph is wanted."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(shapes.view(t, t.shape))
        else:
            out.append(grad_api.requires_grad_(F.detach(t), need_graph))
    return tuple(out)


def grad_postprocess(items: tuple, create_graph: bool) -> tuple:
    if isinstance(items[0], Tensor):
        return items if create_graph else tuple(F.detach(t) for t in items)
    return tuple(grad_postprocess(item, create_graph) for item in items)


def size_text(t: Tensor) -> str:
    return f"torch.Size([{', '.join(str(n) for n in t.shape)}])"


def validate_v(v: tuple, other: tuple, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise errors.runtime(f"v is a tuple of invalid length: should be {len(other)} but "
                                 f"got {len(v)}.")
        raise errors.runtime("The given v should contain a single Tensor.")
    for index, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.shape != el_other.shape:
            prefix = f"Entry {index} in " if is_other_tuple else ""
            raise errors.runtime(f"{prefix}v has invalid size: should be {size_text(el_other)} "
                                 f"but got {size_text(el_v)}.")


STRICT_TEXTS = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when running "
               "in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
                   "user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
               "independent of the input. This is not allowed in strict mode. You should ensure "
               "that your function is thrice differentiable and that the hessian depends on the "
               "inputs.",
}


def check_requires_grad(items: tuple, input_type: str, strict: bool) -> None:
    if not strict:
        return
    for i, item in enumerate(items):
        if item is None:
            raise errors.runtime(f"The output of the user-provided function is independent of "
                                 f"input {i}. This is not allowed in strict mode.")
        if not item.requires_grad:
            raise errors.runtime(STRICT_TEXTS[input_type].format(i=i))


def autograd_grad(outputs: tuple, inputs: tuple, grad_outputs=None, create_graph=False,
                   retain_graph=None) -> tuple:
    """autograd.grad over the outputs that require grad; all None when none does."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    kept = [(out, g) for out, g in zip(outputs, grad_outputs)
            if out is not None and out.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return grad_api.grad([k[0] for k in kept], list(inputs), [k[1] for k in kept],
                         retain_graph=retain_graph, create_graph=create_graph,
                         allow_unused=True)


ZERO_TEXTS = {
    "back": "The output of the user-provided function is independent of input {i}. This is not "
            "allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward mode "
                         "AD.",
}


def fill_in_zeros(grads: tuple, refs: tuple, strict: bool, create_graph: bool,
                   stage: str) -> tuple:
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise errors.runtime(ZERO_TEXTS[stage].format(i=i))
            g = F.zeros_for(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise errors.runtime(f"The {what} of the user-provided function is independent of "
                                 f"input {i}. This is not allowed in strict mode when "
                                 "create_graph=True.")
        out.append(g)
    return tuple(out)
