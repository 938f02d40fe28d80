"""`import functorch`: the deprecated aliases of torch.func's transforms, each warning as
functorch does, and make_functional(_with_buffers) over torch.func.functional_call."""

from __future__ import annotations

from gradcli.engine.records import replace

from gradcli.engine import errors
from gradcli.engine.grad_api import requires_grad_
from gradcli.engine.state import STATE
from gradcli.language.namespaces.func_modules import functional_call
from gradcli.language.namespaces.python_copy import deepcopy
from gradcli.language.namespaces.torch_func import FUNC
from gradcli.language.runtime.signatures import Builtin, entry, table
from gradcli.language.runtime.values import Namespace, type_name


def _warn(api: str, new_api: str) -> None:
    STATE.warn("FutureWarning", f"We've integrated functorch into PyTorch. As the final step of "
               f"the integration, `functorch.{api}` is deprecated as of PyTorch 2.0 and will be "
               f"deleted in a future version of PyTorch >= 2.3. Please use `{new_api}` instead; "
               "see the PyTorch 2.0 release notes and/or the `torch.func` migration guide for "
               "more details https://pytorch.org/docs/main/func.migrating.html")


def _deprecated(name: str, new_api: str = "") -> Builtin:
    """functorch.NAME: the warning, then torch.func.NAME."""
    target: Builtin = FUNC.table[name]

    def call(*args, **kwargs):
        _warn(name, new_api or f"torch.func.{name}")
        return target.fn(*args, **kwargs)
    return replace(target, fn=call)


def _make_functional(ctx, model, disable_autograd_tracking=False, with_buffers=False):
    """(func, params[, buffers]): func(params[, buffers], *args) calls the model with them."""
    from gradcli.language.namespaces.modules import Module, _named_buffers
    if not isinstance(model, Module):
        raise errors.TorchError("AttributeError", f"'{type_name(model)}' object has no attribute "
                                "'named_parameters'")
    model = deepcopy(model)  # torch's stateless copy: its tensors are the ones returned
    named = model.named_parameters()
    names, params = [n for n, _ in named], tuple(p for _, p in named)
    if disable_autograd_tracking:
        for param in params:
            requires_grad_(param, False)
    named_buffers = _named_buffers(model) if with_buffers else []
    buffer_names, buffers = [n for n, _ in named_buffers], tuple(b for _, b in named_buffers)

    def func(new_params, *rest, **kwargs):
        given = dict(zip(names, new_params))
        if with_buffers:
            given.update(zip(buffer_names, rest[0]))
            rest = rest[1:]
        return functional_call(ctx, model, given, tuple(rest), kwargs)
    made = entry("FunctionalModuleWithBuffers" if with_buffers else "FunctionalModule", func,
                 "*args, **kwargs")
    return (made, params, buffers) if with_buffers else (made, params)


FUNCTORCH = Namespace("functorch", table(
    *(_deprecated(name) for name in ("grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd",
                                     "hessian")),
    _deprecated("vmap", "torch.vmap"),
    entry("make_functional", lambda ctx, model, disable_autograd_tracking=False: (
        _warn("make_functional", "torch.func.functional_call"),
        _make_functional(ctx, model, disable_autograd_tracking))[1],
        "model, disable_autograd_tracking=False", context=True),
    entry("make_functional_with_buffers", lambda ctx, model, disable_autograd_tracking=False: (
        _warn("make_functional_with_buffers", "torch.func.functional_call"),
        _make_functional(ctx, model, disable_autograd_tracking, with_buffers=True))[1],
        "model, disable_autograd_tracking=False", context=True),
))
MODULES = {"functorch": FUNCTORCH}
