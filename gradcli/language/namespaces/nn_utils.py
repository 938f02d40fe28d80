"""torch.nn.utils: gradient clipping and parameters as one vector, in torch's arithmetic order
(per-gradient norms, the norm of their stack, then a reciprocal-and-multiply coefficient)."""

from __future__ import annotations

from gradcli.engine import creation, errors, grad_api
from gradcli.engine.functions import F
from gradcli.engine.indexing import get_item
from gradcli.engine.ops import reductions as R
from gradcli.engine.ops.inplace import apply_inplace
from gradcli.engine.ops import shapes as S
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.objects import LazyTable
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.generators import GeneratorObject
from gradcli.language.runtime.values import Generator, Namespace, iterate, type_name


def _tensors(parameters) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(iterate(parameters))


def _grad(p):
    """p.grad (an AttributeError for what is not a tensor)."""
    if not isinstance(p, Tensor):
        raise errors.no_attribute(p, "grad")
    return p.grad


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None) -> Tensor:
    """The norm of the tensors' norms (torch.nn.utils.get_total_norm)."""
    tensors, norm_type = _tensors(tensors), float(norm_type)
    if not tensors:
        return creation.tensor(0.0)
    stray = next((t for t in tensors if not isinstance(t, Tensor)), tensors[0])
    if not isinstance(stray, Tensor):  # (torch reads each one's device first: p.grad left None)
        raise errors.no_attribute(stray, "device")
    with grad_mode(False):
        norms = [R.vector_norm(t, norm_type) for t in tensors]
        total = R.vector_norm(S.stack(norms), norm_type)
    if error_if_nonfinite and grad_api.item(F.logical_or(F.isnan(total), F.isinf(total))):
        raise errors.runtime(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None) -> None:
    """Each gradient times min(1, max_norm / (total_norm + 1e-6)), as torch computes it."""
    grads = [_grad(p) for p in _tensors(parameters) if _grad(p) is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    with grad_mode(False):
        coefficient = F.mul(F.reciprocal(F.add(total_norm, 1e-6)), max_norm)
        clamped = F.clamp(coefficient, None, 1.0)
        for grad in grads:
            apply_inplace(grad, lambda g: F.mul(g, clamped))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None) -> Tensor:
    generator = isinstance(parameters, (Generator, GeneratorObject))
    parameters = _tensors(parameters)
    if generator and not parameters:
        STATE.warn("UserWarning", "`parameters` is an empty generator, no gradient clipping "
                   "will occur.")
    grads = [_grad(p) for p in parameters if _grad(p) is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_value_(parameters, clip_value, foreach=None) -> None:
    """Each gradient clamped to [-clip_value, clip_value]; with no gradient at all, torch's
    grouping of the gradients by device fails."""
    clip_value = float(clip_value)
    grads = [_grad(p) for p in _tensors(parameters) if _grad(p) is not None]
    if not grads:
        raise errors.runtime("Expected !nested_tensorlist[0].empty() to be true, but got false.  "
                             "(Could this error message be improved?  If so, please report an "
                             "enhancement request to PyTorch.)")
    with grad_mode(False):
        for grad in grads:
            apply_inplace(grad, lambda g: F.clamp(g, -clip_value, clip_value))


def parameters_to_vector(parameters) -> Tensor:
    """The tensors flattened into one (torch asks each for its device first)."""
    pieces = []
    for p in iterate(parameters):
        if not isinstance(p, Tensor):
            raise errors.no_attribute(p, "device")
        pieces.append(F.view(p, (-1,)))
    return S.cat(pieces)


def vector_to_parameters(vec, parameters) -> None:
    """Each parameter's data replaced by its slice of `vec`, in order."""
    if not isinstance(vec, Tensor):
        raise errors.type_error(f"expected torch.Tensor, but got: {type_name(vec)}")
    pointer = 0
    for p in iterate(parameters):
        if not isinstance(p, Tensor):
            raise errors.no_attribute(p, "device")  # torch checks each one's device first
        count = p.numel()
        piece = F.view(get_item(vec, slice(pointer, pointer + count)), tuple(p.shape))
        grad_api.assign_data(p, F.detach(piece))
        pointer += count


def _rnn_utils() -> dict:
    # loaded when a program first uses torch.nn.utils.rnn
    from gradcli.language.namespaces.rnn_utils import RNN_UTILS
    return RNN_UTILS.table


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    STATE.warn("FutureWarning", "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
               "`torch.nn.utils.clip_grad_norm_`.")
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


NN_UTILS = Namespace("torch.nn.utils", {"rnn": Namespace("torch.nn.utils.rnn", LazyTable(
    {}, _rnn_utils)), **table(
    entry("clip_grad_norm_", clip_grad_norm_, "parameters, max_norm, norm_type=2.0, "
          "error_if_nonfinite=False, foreach=None"),
    entry("clip_grad_norm", clip_grad_norm, "parameters, max_norm, norm_type=2.0, "
          "error_if_nonfinite=False, foreach=None"),
    entry("clip_grad_value_", clip_grad_value_, "parameters, clip_value, foreach=None"),
    entry("get_total_norm", get_total_norm, "tensors, norm_type=2.0, error_if_nonfinite=False, "
          "foreach=None"),
    entry("clip_grads_with_norm_", clip_grads_with_norm_, "parameters, max_norm, total_norm, "
          "foreach=None"),
    entry("parameters_to_vector", parameters_to_vector, "parameters"),
    entry("vector_to_parameters", vector_to_parameters, "vec, parameters"),
)})
