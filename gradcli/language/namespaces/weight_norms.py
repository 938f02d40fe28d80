"""Weight normalisation as torch's Python code makes it: parametrizations.weight_norm (a
_WeightNorm parametrization of original0 = g and original1 = v) and the deprecated
nn.utils.weight_norm / remove_weight_norm (weight_g and weight_v parameters and a forward
pre-hook that recomputes the weight)."""

from __future__ import annotations

from gradcli.engine import declarations, errors, parameters
from gradcli.engine.state import STATE
from gradcli.language.namespaces import module_hooks
from gradcli.language.namespaces.modules import Members, Module, ModuleKind, construct
from gradcli.language.namespaces.parametrize import register_parametrization
from gradcli.language.runtime import attributes
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry, table

PATH = "torch.nn.utils.parametrizations"
_DEPRECATED = ("`torch.nn.utils.weight_norm` is deprecated in favor of "
               "`torch.nn.utils.parametrizations.weight_norm`.")


def _dim(dim):
    return -1 if dim is None else dim


class WeightNormHost(Module):
    """_WeightNorm: forward(weight_g, weight_v) and right_inverse(weight)."""

    __slots__ = ()
    METHODS = table(entry(
        "right_inverse", lambda m, weight: (
            declarations.call("torch", "norm_except_dim", weight, 2, m.attrs["dim"]), weight),
        "self, weight", qualname="_WeightNorm.right_inverse"))


WEIGHT_NORM = ModuleKind(
    "_WeightNorm", "", "dim=0",
    lambda ctx, m, weight_g, weight_v: declarations.call("torch", "_weight_norm", weight_v,
                                                         weight_g, m.attrs["dim"]),
    inputs="weight_g, weight_v", build=lambda m, dim: m.attrs.update(dim=_dim(dim)),
    host=WeightNormHost, path=PATH)


def weight_norm(ctx, module, name="weight", dim=0):
    """parametrizations.weight_norm: register _WeightNorm(dim) on `name`, unsafely."""
    return register_parametrization(ctx, module, name, construct(WEIGHT_NORM, dim), unsafe=True)


# ---- the deprecated forward pre-hook version ----

class OldWeightNorm:
    """torch.nn.utils.weight_norm.WeightNorm: the hook object, by tensor name and dim."""

    def __init__(self, name: str, dim: int):
        self.name, self.dim = name, dim

    def compute_weight(self, module):
        g = attributes.get(module, self.name + "_g")
        v = attributes.get(module, self.name + "_v")
        return declarations.call("torch", "_weight_norm", v, g, self.dim)


_RECOMPUTE = entry("__call__", lambda fn, module, inputs: module.set_attribute(
    fn.name, fn.compute_weight(module)), "self, module, inputs")


def _old_hooks(module) -> list:
    hooks = module.hooks["forward_pre"] if isinstance(module, Module) and module.hooks else []
    return [h for h in hooks if isinstance(h.fn, BoundMethod)
            and isinstance(h.fn.receiver, OldWeightNorm)]


def old_weight_norm(ctx, module, name="weight", dim=0):
    """WeightNorm.apply: weight_g and weight_v replace the parameter, the weight becomes a
    plain attribute and a forward pre-hook recomputes it."""
    STATE.warn("FutureWarning", _DEPRECATED)
    if any(h.fn.receiver.name == name for h in _old_hooks(module)):
        raise errors.runtime(f"Cannot register two weight_norm hooks on the same parameter {name}")
    fn = OldWeightNorm(name, _dim(dim))
    weight = attributes.get(module, name)
    if not isinstance(module, Module) or name not in module.params:
        raise errors.TorchError("KeyError", repr(name), (name,))
    del module.params[name]
    g = declarations.call("torch", "norm_except_dim", weight, 2, fn.dim)
    module.set_attribute(name + "_g", parameters.parameter(g))
    module.set_attribute(name + "_v", parameters.parameter(weight))
    if not isinstance(module.params, Members):
        module.params = Members(module, module.params)
    module.set_attribute(name, fn.compute_weight(module))
    module_hooks.register(module, "forward_pre", BoundMethod(fn, _RECOMPUTE), prepend=False)
    return module


def remove_weight_norm(ctx, module, name="weight"):
    for hook in _old_hooks(module):
        fn = hook.fn.receiver
        if fn.name == name:
            weight = fn.compute_weight(module)
            module.delete_attribute(name)
            del module.params[name + "_g"]
            del module.params[name + "_v"]
            module.set_attribute(name, parameters.parameter(weight))
            module.hooks["forward_pre"].remove(hook)
            return module
    raise errors.value_error(f"weight_norm of '{name}' not found in {ctx.printer.str(module)}")


PARAMETRIZATIONS = table(entry("weight_norm", weight_norm, "module, name='weight', dim=0",
                              context=True))
