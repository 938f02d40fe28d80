"""The masks of torch.nn.utils.prune's built-in methods, as torch's compute_mask makes them
(the draws of torch.rand_like and torch.rand, then topk or kthvalue), with torch's checks of the
amount and the dim, and PruningContainer's combination of a new mask with the existing one."""

from __future__ import annotations

import numbers

from gradcli.engine import errors
from gradcli.language.namespaces.distribution_base import Calls
from gradcli.language.runtime import protocols
from gradcli.language.runtime.values import type_name


def get(value, name):
    """value.name as a program reads it (getattr's TypeError for a name that is no string)."""
    if not isinstance(name, str):
        raise errors.type_error(f"attribute name must be string, not '{type_name(name)}'")
    return protocols.get_attribute(value, name)


def has(value, name: str) -> bool:
    try:
        get(value, name)
    except errors.TorchError as error:
        if error.kind != "AttributeError":
            raise
        return False
    return True


def same(a, b) -> bool:
    """a == b as a program compares them."""
    return protocols.truth(protocols.compare("==", a, b))


def call(ctx, value, name: str, *args, **kwargs):
    """value.name(*args, **kwargs), a program's override first."""
    return ctx.call(get(value, name), list(args), kwargs)


def contiguous_format():
    """torch.contiguous_format."""
    return protocols.MODULES["torch"].lookup("contiguous_format")


# ---- amounts (torch's _validate_* and _compute_nparams_toprune) ----

def validate_amount_init(ctx, amount) -> None:
    if not isinstance(amount, numbers.Real):
        raise errors.type_error(f"Invalid type for amount: {ctx.printer.format(amount, '')}. "
                                "Must be int or float.")
    if (amount < 0 if isinstance(amount, numbers.Integral) else
            float(amount) > 1.0 or float(amount) < 0.0):
        raise errors.value_error(f"amount={ctx.printer.format(amount, '')} should either be a "
                                 "float in the range [0, 1] or a non-negative integer")


def _nparams_toprune(ctx, amount, tensor_size: int) -> int:
    count = amount if isinstance(amount, numbers.Integral) else ctx.call(
        protocols.BUILTINS["round"], [protocols.binary("*", amount, tensor_size)], {})
    if isinstance(count, numbers.Integral) and count > tensor_size:
        raise errors.value_error(f"amount={count} should be smaller than the number of "
                                 f"parameters to prune={tensor_size}")
    return count


def _structured_checks(ctx, t, dim) -> None:
    shape = get(t, "shape")
    if len(shape) <= 1:
        raise errors.value_error("Structured pruning can only be applied to multidimensional "
                                 f"tensors. Found tensor of shape {size_text(t)} with "
                                 f"{len(shape)} dims")
    if protocols.truth(protocols.compare(">=", dim, Calls(ctx).method(t, "dim"))):
        raise errors.index_error(f"Invalid index {ctx.printer.format(dim, '')} for tensor of "
                                 f"size {size_text(t)}")


def size_text(t) -> str:
    return f"torch.Size([{', '.join(str(n) for n in get(t, 'shape'))}])"


# ---- compute_mask of the built-in methods ----

def _zero_at(calls: Calls, mask, indices):
    """mask.view(-1)[indices] = 0."""
    protocols.set_item(calls.method(mask, "view", -1), indices, 0)


def _unstructured(ctx, method, t, default_mask, scores):
    calls = Calls(ctx)
    count = _nparams_toprune(ctx, get(method, "amount"), Calls(ctx).method(t, "nelement"))
    mask = calls.method(default_mask, "clone", memory_format=contiguous_format())
    if count != 0:
        _zero_at(calls, mask, get(scores(calls, t, count), "indices"))
    return mask


def random_unstructured(ctx, method, t, default_mask):
    return _unstructured(ctx, method, t, default_mask, lambda calls, t, count: calls.torch(
        "topk", calls.method(calls.torch("rand_like", t), "view", -1), k=count))


def l1_unstructured(ctx, method, t, default_mask):
    return _unstructured(ctx, method, t, default_mask, lambda calls, t, count: calls.torch(
        "topk", calls.method(calls.torch("abs", t), "view", -1), k=count, largest=False))


def _structured(ctx, method, t, default_mask, keep):
    """A mask of ones on the channels `keep(calls, dim, size, count)` selects along `dim`, times
    the default mask (the default mask itself when nothing is pruned)."""
    calls, dim = Calls(ctx), get(method, "dim")
    _structured_checks(ctx, t, dim)
    size = protocols.get_item(tuple(get(t, "shape")), dim)
    count = _nparams_toprune(ctx, get(method, "amount"), size)
    channels = keep(calls, dim, size, count)
    if count == 0:
        return default_mask
    mask = calls.torch("zeros_like", t)
    index = [slice(None)] * len(get(t, "shape"))
    index[dim] = channels
    protocols.set_item(mask, tuple(index), 1)
    return protocols.augmented("*", mask, calls.method(default_mask, "to", dtype=mask.dtype))


def _random_channels(calls: Calls, dim, size, count):
    if count == 0:
        return None
    prob = calls.torch("rand", size)
    threshold = get(calls.torch("kthvalue", prob, k=count), "values")
    return protocols.compare(">", prob, threshold)


def random_structured(ctx, method, t, default_mask):
    return _structured(ctx, method, t, default_mask, _random_channels)


def ln_structured(ctx, method, t, default_mask):
    def keep(calls, dim, size, count):
        dims = list(range(len(get(t, "shape"))))
        dims.remove(dims[dim] if dim < 0 else dim)
        norm = calls.torch("norm", t, p=get(method, "n"), dim=dims)
        return get(calls.torch("topk", norm, k=size - count, largest=True), "indices")
    return _structured(ctx, method, t, default_mask, keep)


def custom_from_mask(ctx, method, t, default_mask):
    own = get(method, "mask")
    if get(default_mask, "shape") != get(own, "shape"):
        raise errors.TorchError("AssertionError", f"default_mask shape {size_text(default_mask)} "
                                f"must match self.mask shape {size_text(own)}")
    return protocols.binary("*", default_mask, Calls(ctx).method(own, "to",
                                                                  dtype=get(default_mask, "dtype")))


def container_mask(ctx, container, t, default_mask):
    """PruningContainer.compute_mask: the newest method acts on the part of `t` the mask keeps
    (entries, channels along its dim, or all of it), and its mask is written there."""
    calls = Calls(ctx)
    method = get(container, "_pruning_methods")[-1]
    new_mask = calls.method(default_mask, "to", dtype=get(t, "dtype"))
    ndim = calls.method(t, "dim")
    kind = get(method, "PRUNING_TYPE")
    if same(kind, "unstructured"):
        index = protocols.compare("==", default_mask, 1)
    elif same(kind, "structured"):
        if not has(method, "dim"):
            raise errors.TorchError("AttributeError", 'Pruning methods of PRUNING_TYPE '
                                    '"structured" need to have the attribute `dim` defined.')
        dim = get(method, "dim")
        if protocols.truth(protocols.compare("<", dim, 0)):
            dim = protocols.binary("+", ndim, dim)
        if protocols.truth(protocols.compare("<", dim, 0)):
            raise errors.index_error(f"Index is out of bounds for tensor with dimensions {ndim}")
        kept = calls.method(default_mask, "sum", dim=[d for d in range(ndim) if d != dim])
        index = [slice(None)] * ndim
        index[dim] = protocols.compare("!=", kept, 0)
        index = tuple(index)
    elif same(kind, "global"):
        index = (slice(None),) * len(get(t, "shape"))
    else:
        raise errors.value_error(f"Unrecognized PRUNING_TYPE {ctx.printer.str(kind)}")
    partial = call(ctx, method, "compute_mask", protocols.get_item(t, index),
                   default_mask=protocols.get_item(default_mask, index))
    protocols.set_item(new_mask, index, calls.method(partial, "to", dtype=new_mask.dtype))
    return new_mask
