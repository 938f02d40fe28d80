"""torch.autograd.gradcheck and gradgradcheck: torch's slow mode, step for step (the same calls
of the function and of backward, in the same order), with its GradcheckError texts."""

from __future__ import annotations

import itertools

import numpy as np

from gradcli.engine import creation, dtypes, errors, grad_api
from gradcli.engine.backward import run_backward
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.exceptions import EXCEPTION_TYPES, matches, register_exception
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import Namespace


class GradcheckError(RuntimeError):
    """torch.autograd.gradcheck.GradcheckError."""


GRADCHECK_ERROR = PyType("torch.autograd.gradcheck.GradcheckError", (GradcheckError,))
register_exception(GRADCHECK_ERROR)
_UNDEFINED_NOTE = 'Please look at "Notes about undefined output gradients" in ' \
    '"tools/autograd/derivatives.yaml"'
_NONDET = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _is_runtime_error(error) -> bool:
    """Whether `error` (a TorchError or GradRuntimeError) is what `except RuntimeError` catches."""
    if isinstance(error, GradRuntimeError):
        return matches(error, EXCEPTION_TYPES["RuntimeError"])
    return error.kind == "RuntimeError"


def _failure(message: str) -> errors.TorchError:
    return errors.TorchError("GradcheckError", message)


def _as_tuple(value) -> tuple:
    if isinstance(value, tuple):
        return value
    return tuple(value) if isinstance(value, list) else (value,)


def _requires_grad(output) -> bool:
    """`output.requires_grad` as torch's gradcheck reads it, whatever the function returned."""
    if not isinstance(output, Tensor):
        raise errors.TorchError("AttributeError", f"'{errors.type_name(output)}' object has no "
                                "attribute 'requires_grad'")
    return output.requires_grad


def _differentiable(value) -> tuple:
    return tuple(o for o in _as_tuple(value) if _requires_grad(o))


def _diff_inputs(inputs: tuple) -> list:
    return [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]


def _check_inputs(inputs: tuple) -> None:
    found = False
    for index, value in enumerate(inputs):
        if isinstance(value, Tensor) and value.requires_grad:
            if value.dtype.name not in ("float64", "complex128"):
                STATE.warn("UserWarning", f"Input #{index} requires gradient and is not a double "
                           "precision floating point or complex. This check will likely fail if "
                           "all the inputs are not of double precision floating point or complex. ")
            found = True
    if not found:
        raise errors.value_error("gradcheck expects at least one input tensor to require "
                                 "gradient, but none of them have requires_grad=True.")


class _Check:
    """One gradcheck run: the function, its inputs and tolerances, and the printer for texts."""

    def __init__(self, ctx, run, inputs: tuple, eps, atol, rtol, nondet_tol):
        self.ctx, self.run, self.inputs = ctx, run, inputs
        self.eps, self.atol, self.rtol, self.nondet_tol = eps, atol, rtol, nondet_tol

    def call(self) -> tuple:
        return _as_tuple(self.run(list(self.inputs)))

    def numerical(self, outputs: tuple) -> list:
        """Per input requiring grad, per output: (input numel, output numel) central
        differences, each element of the input moved by eps in place."""
        result = []
        for tensor in _diff_inputs(self.inputs):
            columns = []
            for index in itertools.product(*[range(n) for n in tensor.shape]):
                columns.append(self._column(tensor, index))
            result.append([self._combine(columns, nr, out, tensor.numel())
                           for nr, out in enumerate(outputs) if out.dtype.is_floating_point])
        return result

    def _column(self, tensor: Tensor, index: tuple) -> list:
        orig = tensor.data[index].copy()
        step = tensor.dtype.np.type(self.eps)
        tensor.data[index] = orig - step
        before = tuple(F.clone(o) for o in self.call())
        tensor.data[index] = orig + step
        after = tuple(F.clone(o) for o in self.call())
        tensor.data[index] = orig
        for a, b in zip(before, after):
            _same_shape_and_dtype(a, b, index, self.eps)
        return [F.reshape(F.detach(F.div(F.sub(b, a), 2 * self.eps)), (-1,))
                for a, b in zip(before, after)]

    @staticmethod
    def _combine(columns: list, nr: int, out: Tensor, numel: int) -> Tensor:
        jacobian = np.zeros((numel, out.numel()), dtype=out.dtype.np)
        for k, column in enumerate(columns):
            jacobian[k] = column[nr].data
        return Tensor(jacobian, out.dtype)

    def analytical(self, output: Tensor) -> list:
        """Per input requiring grad: (input numel, output numel), row j of the transposed
        Jacobian from backward of the j-th one-hot; computed twice to check reentrancy."""
        diff_inputs = _diff_inputs(self.inputs)
        first, sizes_ok = self._rows(output, diff_inputs)
        second, _ = self._rows(output, diff_inputs)
        if not sizes_ok:
            raise _failure("Analytical gradient has incorrect size")
        for a, b in zip(first, second):
            if a.data.size and np.abs(a.data - b.data).max() > self.nondet_tol:
                raise _failure(
                    "Backward is not reentrant, i.e., running backward with same input and "
                    "grad_output multiple times gives different values, although analytical "
                    "gradient matches numerical gradient.The tolerance for nondeterminism was "
                    f"{self.nondet_tol}." + _NONDET)
        return first

    @staticmethod
    def _rows(output: Tensor, diff_inputs: list) -> tuple:
        numel = output.numel()
        jacobians = [np.zeros((t.numel(), numel), dtype=t.dtype.np) for t in diff_inputs]
        sizes_ok = True
        for j in range(numel):
            one_hot = np.zeros(numel, dtype=output.dtype.np)
            one_hot[j] = 1
            grad_out = Tensor(one_hot.reshape(output.shape), output.dtype)
            grads = grad_api.grad([output], diff_inputs, [grad_out], True, False, True)
            for jacobian, grad, inp in zip(jacobians, grads, diff_inputs):
                if grad is None:
                    continue
                if grad.shape != inp.shape:
                    sizes_ok = False
                jacobian[:, j] = grad.data.reshape(-1)
        return [Tensor(j, t.dtype) for j, t in zip(jacobians, diff_inputs)], sizes_ok

    def compare(self, outputs: tuple, func_out: tuple) -> None:
        numerical = self.numerical(func_out)
        by_output = [[per_input[nr] for per_input in numerical]
                     for nr, o in enumerate(func_out) if _requires_grad(o)]
        for i, output in enumerate(outputs):
            for j, (a, n) in enumerate(zip(self.analytical(output), by_output[i])):
                if not _allclose(a, n, self.rtol, self.atol):
                    printer = self.ctx.printer
                    raise _failure(f"Jacobian mismatch for output {i} with respect to input {j},"
                                   f"\nnumerical:{printer.repr(n)}\nanalytical:"
                                   f"{printer.repr(a)}\n")

    def zero_grads_give_zero(self, outputs: tuple, undefined: bool) -> None:
        """Backward of zero output gradients: torch's check that backward multiplies by them
        (or, for undefined ones, that it handles them)."""
        diff_inputs = _diff_inputs(self.inputs)
        if not outputs:
            return
        if undefined:  # torch's UndefinedGrad on each output: backward gets None where it does
            # not materialize its gradients
            grads = run_backward(list(outputs), [None] * len(outputs), retain_graph=False,
                                 create_graph=False, inputs=diff_inputs, accumulate=False)
        else:
            zeros = [F.zeros_like(o) for o in outputs]
            grads = grad_api.grad(list(outputs), diff_inputs, zeros, None, False, True)
        for grad, inp in zip(grads, diff_inputs):
            if grad is None:
                continue
            if not np.all(grad.data == 0):
                raise _failure("Expected all input grads to be undefined or zero when all "
                               "output grads are undefined or zero. " + _UNDEFINED_NOTE
                               if undefined else "backward not multiplied by grad_output")
            if not undefined and grad.dtype is not inp.dtype:
                raise _failure("grad is incorrect type")
            if not undefined and grad.shape != inp.shape:
                raise _failure("grad is incorrect size")


def _same_shape_and_dtype(a: Tensor, b: Tensor, index: tuple, eps) -> None:
    if a.shape != b.shape or a.dtype is not b.dtype:
        what = "shape" if a.shape != b.shape else "dtype"
        raise errors.TorchError("AssertionError", f"Expected `func` to return outputs with the "
                                f"same {what} when inputs are perturbed on index {index} by {eps}")


def _allclose(a: Tensor, b: Tensor, rtol, atol) -> bool:
    dtype = np.promote_types(a.dtype.np, b.dtype.np)
    return bool(np.all(np.abs(a.data.astype(dtype) - b.data.astype(dtype))
                       <= atol + rtol * np.abs(b.data.astype(dtype))))


def _helper(check: _Check, check_undefined_grad: bool, check_backward_ad: bool) -> bool:
    _check_inputs(check.inputs)
    func_out = check.call()
    outputs = _differentiable(func_out)
    if any(t.dtype.is_complex for t in (*_diff_inputs(check.inputs), *outputs)):
        raise errors.TorchError("NotImplementedError", "gradcli does not support gradcheck of "
                                "complex inputs or outputs yet")
    if not check_backward_ad:
        return True
    if outputs:
        check.compare(outputs, func_out)
    elif any(np.any(j.data != 0) for per_input in check.numerical(func_out) for j in per_input):
        raise _failure("Numerical gradient for function expected to be zero")
    check.zero_grads_give_zero(outputs, undefined=False)
    if check_undefined_grad:
        again = _differentiable(check.call())
        try:
            check.zero_grads_give_zero(again, undefined=True)
        except (errors.TorchError, GradRuntimeError) as error:  # (the program's backward's)
            if not _is_runtime_error(error):
                raise
            STATE.warn("UserWarning", "Backwards compatibility: New undefined gradient support "
                       "checking feature is enabled by default, but it may break existing "
                       "callers of this function. If this is true for you, you can call this "
                       'function with "check_undefined_grad=False" to disable the feature')
            raise _failure("Expected backward function to handle undefined output grads. "
                           + _UNDEFINED_NOTE) from None
    return True


def gradcheck(ctx, func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False, check_forward_ad=False,
              check_backward_ad=True, fast_mode=False, masked=None) -> bool:
    check = _Check(ctx, lambda args: ctx.call(func, args, {}), _as_tuple(inputs), eps, atol,
                   rtol, nondet_tol)
    try:
        return _helper(check, check_undefined_grad, check_backward_ad)
    except errors.TorchError as error:
        if raise_exception or error.kind != "GradcheckError":
            raise
        return False


def gradgradcheck(ctx, func, inputs, grad_outputs=None, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False) -> bool:
    """gradcheck of the function that backpropagates `grad_outputs` (random in [-1, 1) when not
    given, drawn as torch.testing.make_tensor draws them) through `func`."""
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(_random_like(o) for o in _differentiable(
            ctx.call(func, list(inputs), {})))
    grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)
    diff_args = {i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad}

    def backward_of_func(args):
        input_args = args[:-count] if count else args
        outputs = _differentiable(ctx.call(func, list(input_args), {}))
        diff_inputs = [x for i, x in enumerate(input_args) if i in diff_args]
        grads = grad_api.grad(list(outputs), diff_inputs, list(args[len(args) - count:]), None,
                              True, True)
        return tuple(g for g in grads if g is not None)

    check = _Check(ctx, backward_of_func, inputs + grad_outputs, eps, atol, rtol, nondet_tol)
    try:
        return _helper(check, check_undefined_grad, check_rev_over_rev)
    except errors.TorchError as error:
        if raise_exception or error.kind != "GradcheckError":
            raise
        return False


def _random_like(output: Tensor) -> Tensor:
    dtype = output.dtype if output.dtype.is_floating_point else dtypes.float64
    result = F.zeros_of(output.shape, dtype)
    creation.fill_random(result, "uniform", -1, 1)
    result.requires_grad = True
    return result


GRADCHECK = entry("gradcheck", gradcheck, "func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, "
                  "raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, "
                  "check_grad_dtypes=False, check_batched_grad=False, "
                  "check_batched_forward_grad=False, check_forward_ad=False, "
                  "check_backward_ad=True, fast_mode=False, masked=None", context=True)
GRADGRADCHECK = entry("gradgradcheck", gradgradcheck, "func, inputs, grad_outputs=None, *, "
                      "eps=1e-06, atol=1e-05, rtol=0.001, gen_non_contig_grad_outputs=False, "
                      "raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, "
                      "check_grad_dtypes=False, check_batched_grad=False, "
                      "check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, "
                      "masked=False", context=True)
GRADCHECK_MODULE = Namespace("torch.autograd.gradcheck", {
    "gradcheck": GRADCHECK, "gradgradcheck": GRADGRADCHECK, "GradcheckError": GRADCHECK_ERROR})
