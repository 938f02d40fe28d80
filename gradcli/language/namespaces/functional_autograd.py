"""torch.autograd.functional (jacobian, hessian, vjp, jvp, hvp, vhp), step for step as torch."""

from __future__ import annotations

from gradcli.engine import errors, forward_ad, grad_api, indexing
from gradcli.engine.functions import F
from gradcli.engine.ops import shapes as shapes
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.functional_checks import (
    as_tuple, autograd_grad, check_requires_grad, fill_in_zeros, grad_postprocess, grad_preprocess,
    tuple_postprocess, validate_v)
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace


def _backward(grad_args: tuple, refs: tuple, strict: bool, create_graph: bool, stage: str):
    """The last autograd.grad call of a product (in grad mode only for create_graph), with
    zeros (or strict mode's error) for the inputs it does not reach."""
    outputs, inputs, v = grad_args
    with grad_mode(True if create_graph else STATE.grad_enabled):
        grads = autograd_grad(outputs, inputs, v, create_graph=create_graph)
        return fill_in_zeros(grads, refs, strict, create_graph, stage)


def _pair(outputs: tuple, is_outputs_tuple: bool, result: tuple, is_result_tuple: bool,
          create_graph: bool):
    """(func's output, the product) shaped as the caller gave them."""
    return (tuple_postprocess(grad_postprocess(outputs, create_graph), is_outputs_tuple),
            tuple_postprocess(grad_postprocess(result, create_graph), is_result_tuple))


def _caller(ctx, func):
    """`func` (any callable value of the language) as a function of a tuple of inputs."""
    return lambda inputs: ctx.call(func, list(inputs), {})


def _prepare_v(v, reference: tuple, is_reference_tuple: bool, fn_name: str, create_graph: bool,
               none_text: str):
    """The vector argument of vjp/jvp/hvp/vhp as a checked tuple, or None."""
    if v is not None:
        v = grad_preprocess(as_tuple(v, "v", fn_name)[1], create_graph, need_graph=False)
        validate_v(v, reference, is_reference_tuple)
        return v
    if len(reference) != 1 or reference[0].numel() != 1:
        raise errors.runtime(none_text)
    return None


_V_FOR_INPUT = ("The vector v can only be None if the input to the user-provided function is a "
                "single Tensor with a single element.")


def vjp(ctx, func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode(True):
        is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "vjp")
        inputs = grad_preprocess(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = as_tuple(_caller(ctx, func)(inputs),
                                              "outputs of the user-provided function", "vjp")
        check_requires_grad(outputs, "outputs", strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, "vjp", create_graph,
                       "The vector v can only be None if the user-provided function returns a "
                       "single Tensor with a single element.")
    result = _backward((outputs, inputs, v), inputs, strict, create_graph, "back")
    return _pair(outputs, is_outputs_tuple, result, is_inputs_tuple, create_graph)


def jvp(ctx, func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode(True):
        is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "jvp")
        inputs = grad_preprocess(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, "jvp", create_graph, _V_FOR_INPUT)
        is_outputs_tuple, outputs = as_tuple(_caller(ctx, func)(inputs),
                                              "outputs of the user-provided function", "jvp")
        check_requires_grad(outputs, "outputs", strict)
        grad_outputs = tuple(grad_api.requires_grad_(F.zeros_for(out), True) for out in outputs)
        grad_inputs = autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        check_requires_grad(grad_inputs, "grad_inputs", strict)
    result = _backward((grad_inputs, grad_outputs, v), outputs, strict, create_graph, "back_trick")
    return _pair(outputs, is_outputs_tuple, result, is_outputs_tuple, create_graph)


def jacobian(ctx, func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    return _jacobian(_caller(ctx, func), inputs, create_graph, strict, vectorize, strategy)


def _jacobian(apply, inputs, create_graph=False, strict=False, vectorize=False,
              strategy="reverse-mode"):
    """The Jacobian by one reverse pass per output element (`vectorize` gives the same values)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise errors.TorchError(
            "AssertionError", 'Expected strategy to be either "forward-mode" or "reverse-mode". '
            'Hint: If your function has more outputs than inputs, "forward-mode" tends to be '
            'more performant. Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        _check_forward_mode(create_graph, strict, vectorize)
        return _jacfwd(apply, inputs)
    with grad_mode(True):
        is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "jacobian")
        inputs = grad_preprocess(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = as_tuple(apply(inputs),
                                              "outputs of the user-provided function",
                                              "jacobian")
        check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise errors.runtime(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                "supported together. Please either set `strict=False` or `vectorize=False`.")
        rows = tuple(_jacobian_rows(i, out, inputs, create_graph, strict)
                     for i, out in enumerate(outputs))
        return tuple_postprocess(grad_postprocess(rows, create_graph),
                                 (is_outputs_tuple, is_inputs_tuple))


def _jacfwd(apply, inputs):
    """jacobian's forward mode, as torch's _jacfwd: a forward-mode pass per element of the
    inputs (the samples of its vmap), each output's tangents stacked last and shaped
    (*output, *input), in lists as torch's path leaves them."""
    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "jacobian")
    zeros = [F.zeros_for(x) for x in inputs]

    def pushforward(tangents):
        with forward_ad.dual_level():
            duals = tuple(forward_ad.make_dual(x, t) for x, t in zip(inputs, tangents))
            is_tuple, outs = as_tuple(apply(duals), "outputs", "None")
            pairs = [forward_ad.unpack_dual(out) for out in outs]
            tangents = [F.zeros_for(p) if t is None else t for p, t in pairs]
            return is_tuple, tangents, [p for p, _ in pairs]

    columns, is_outputs_tuple, outputs = [], False, None
    for i, x in enumerate(inputs):
        per_element = []
        for k in range(x.numel()):
            basis = F.zeros_for(x)
            basis.data.reshape(-1)[k] = 1
            is_outputs_tuple, tangents, outputs = pushforward(
                [basis if j == i else z for j, z in enumerate(zeros)])
            per_element.append(tangents)
        columns.append(per_element)
    if outputs is None:
        is_outputs_tuple, _, outputs = pushforward(zeros)

    def transposed(out: Tensor, o: int, x: Tensor, per_element: list) -> Tensor:
        jac = (shapes.stack([t[o] for t in per_element], 0) if per_element
               else F.zeros_of((0,) + out.shape, out.dtype))
        return shapes.reshape(shapes.permute(jac, (*range(1, jac.ndim), 0)), out.shape + x.shape)

    result = [[transposed(out, o, x, per_element) for x, per_element in zip(inputs, columns)]
              for o, out in enumerate(outputs)]
    return tuple_postprocess(result, (is_outputs_tuple, is_inputs_tuple))


def _check_forward_mode(create_graph: bool, strict: bool, vectorize: bool) -> None:
    if create_graph:
        raise errors.TorchError(
            "NotImplementedError", "torch.autograd.functional.jacobian: `create_graph=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`create_graph=False` or `strategy="reverse-mode"`.')
    if strict:
        raise errors.runtime(
            "torch.autograd.functional.jacobian: `strict=True` and `strategy=\"forward-mode\"` "
            "are not supported together (yet). Please either set `strict=False` or "
            "`strategy=\"reverse-mode\"`.")
    if not vectorize:
        raise errors.TorchError(
            "NotImplementedError", "Computing Jacobian using forward-AD or forward-over-reverse "
            "Hessian isonly implemented for `vectorize=True`.")


def _jacobian_rows(i: int, out: Tensor, inputs: tuple, create_graph: bool, strict: bool):
    """d out / d input for every input: one autograd.grad call per element of `out`."""
    per_input = tuple([] for _ in inputs)
    flat = shapes.reshape(out, (-1,))
    for j in range(out.numel()):
        grads = autograd_grad((indexing.get_item(flat, j),), inputs, retain_graph=True,
                               create_graph=create_graph)
        for index, (column, g, inp) in enumerate(zip(per_input, grads, inputs)):
            if g is not None:
                if strict and create_graph and not g.requires_grad:
                    raise errors.runtime(f"The jacobian of the user-provided function is "
                                         f"independent of input {i}. This is not allowed in "
                                         "strict mode when create_graph=True.")
                column.append(g)
            else:
                if strict:
                    raise errors.runtime(f"Output {i} of the user-provided function is "
                                         f"independent of input {index}. This is not allowed "
                                         "in strict mode.")
                column.append(F.zeros_for(inp))
    return tuple(shapes.view(shapes.stack(column, 0), out.shape + inputs[index].shape)
                 for index, column in enumerate(per_input))


def hessian(ctx, func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise errors.TorchError("AssertionError",
                                'Expected strategy to be either "forward-mode" or "reverse-mode".')
    apply = _caller(ctx, func)

    def single_output(args):
        out = apply(args)
        is_out_tuple, outs = as_tuple(out, "outputs of the user-provided function", "hessian")
        check_requires_grad(outs, "outputs", strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise errors.runtime("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise errors.runtime("The Tensor returned by the function given to hessian should "
                                 "contain a single element")
        return shapes.squeeze(out)

    def jacobian_of_inputs(args):
        if outer_jacobian_strategy == "forward-mode":
            args = tuple(grad_api.requires_grad_(t, True) for t in args)
        jac = _jacobian(single_output, args, create_graph=True)
        check_requires_grad(jac, "jacobian", strict)
        return jac

    result = _jacobian(jacobian_of_inputs, inputs, create_graph, strict, vectorize,
                       outer_jacobian_strategy)
    return tuple_postprocess(result, (is_inputs_tuple, is_inputs_tuple))


def _second_order(ctx, name: str, func, inputs, v, create_graph: bool, strict: bool):
    """What hvp and vhp share: inputs, v, the single output and its gradient with a graph."""
    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", name)
    inputs = grad_preprocess(inputs, create_graph, need_graph=True)
    v = _prepare_v(v, inputs, is_inputs_tuple, name, create_graph, _V_FOR_INPUT)
    is_outputs_tuple, outputs = as_tuple(_caller(ctx, func)(inputs),
                                          "outputs of the user-provided function", name)
    check_requires_grad(outputs, "outputs", strict)
    if is_outputs_tuple or not isinstance(outputs[0], Tensor):
        raise errors.runtime(f"The function given to {name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise errors.runtime(f"The Tensor returned by the function given to {name} should "
                             "contain a single element")
    jac = autograd_grad(outputs, inputs, create_graph=True)
    check_requires_grad(jac, "jacobian", strict)
    return is_inputs_tuple, is_outputs_tuple, inputs, v, outputs, jac


def vhp(ctx, func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode(True):
        is_inputs_tuple, is_outputs_tuple, inputs, v, outputs, jac = _second_order(
            ctx, "vhp", func, inputs, v, create_graph, strict)
    result = _backward((jac, inputs, v), inputs, strict, create_graph, "double_back")
    return _pair(outputs, is_outputs_tuple, result, is_inputs_tuple, create_graph)


def hvp(ctx, func, inputs, v=None, create_graph=False, strict=False):
    with grad_mode(True):
        is_inputs_tuple, is_outputs_tuple, inputs, v, outputs, jac = _second_order(
            ctx, "hvp", func, inputs, v, create_graph, strict)
        grad_jac = tuple(grad_api.requires_grad_(F.zeros_for(t), True) for t in inputs)
        double_back = autograd_grad(jac, inputs, grad_jac, create_graph=True)
        check_requires_grad(jac, "hessian", strict)
    result = _backward((double_back, grad_jac, v), inputs, strict, create_graph,
                       "double_back_trick")
    return _pair(outputs, is_outputs_tuple, result, is_inputs_tuple, create_graph)


_PRODUCT = "func, inputs, v=None, create_graph=False, strict=False"
FUNCTIONAL = Namespace("torch.autograd.functional", table(
    entry("jacobian", jacobian, "func, inputs, create_graph=False, strict=False, vectorize=False, "
          "strategy='reverse-mode'", context=True),
    entry("hessian", hessian, "func, inputs, create_graph=False, strict=False, vectorize=False, "
          "outer_jacobian_strategy='reverse-mode'", context=True),
    entry("vjp", vjp, _PRODUCT, context=True),
    entry("jvp", jvp, _PRODUCT, context=True),
    entry("hvp", hvp, _PRODUCT, context=True),
    entry("vhp", vhp, _PRODUCT, context=True),
))
