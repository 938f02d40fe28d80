"""Spectral normalization both ways torch has it: nn.utils.spectral_norm / remove_spectral_norm
(weight_orig a parameter, weight_u and weight_v buffers, and a forward pre-hook that runs the
power iteration in training mode and sets `weight` to weight_orig over its spectral norm
estimate), and parametrizations.spectral_norm (a _SpectralNorm parametrization with _u and _v
buffers)."""

from __future__ import annotations

from gradcli.engine import creation, declarations, errors, parameters
from gradcli.engine.functions import F
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import module_hooks
from gradcli.language.namespaces.modules import Members, Module, ModuleKind, construct
from gradcli.language.namespaces.parametrize import register_parametrization
from gradcli.language.runtime import attributes
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry, table


class SpectralNorm:
    """torch.nn.utils.spectral_norm.SpectralNorm: the hook object."""

    def __init__(self, name: str, n_power_iterations: int, dim: int, eps: float):
        if n_power_iterations <= 0:
            raise errors.value_error("Expected n_power_iterations to be positive, but got "
                                     f"n_power_iterations={n_power_iterations}")
        self.name, self.n_power_iterations, self.dim, self.eps = (
            name, n_power_iterations, dim, eps)

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = declarations.call("method", "permute", weight, self.dim, *[
                d for d in range(weight.ndim) if d != self.dim])
        return declarations.call("method", "reshape", weight, weight.shape[0], -1)

    def compute_weight(self, module, do_power_iteration: bool) -> Tensor:
        weight = attributes.get(module, self.name + "_orig")
        u = attributes.get(module, self.name + "_u")
        v = attributes.get(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with grad_mode(False):
                for _ in range(self.n_power_iterations):
                    _normalize_into(v, declarations.call("torch", "mv", F.t(weight_mat), u),
                                    self.eps)
                    _normalize_into(u, declarations.call("torch", "mv", weight_mat, v), self.eps)
                u, v = F.clone(u), F.clone(v)
        sigma = declarations.call("torch", "dot", u, declarations.call("torch", "mv", weight_mat, v))
        return F.div(weight, sigma)


def _normalize_into(out: Tensor, x: Tensor, eps: float) -> None:
    """F.normalize(x, dim=0, eps=eps, out=out)."""
    out.data[...] = F.normalize(x, 2.0, 0, eps).data
    out.bump_version()


_RECOMPUTE = entry("__call__", lambda fn, module, inputs: module.set_attribute(
    fn.name, fn.compute_weight(module, bool(module.attrs["training"]))),
    "self, module, inputs")


def _hooks(module) -> list:
    hooks = module.hooks["forward_pre"] if isinstance(module, Module) and module.hooks else []
    return [h for h in hooks if isinstance(h.fn, BoundMethod)
            and isinstance(h.fn.receiver, SpectralNorm)]


def _random_unit(like: Tensor, size: int, eps: float) -> Tensor:
    """F.normalize(weight.new_empty(size).normal_(0, 1), dim=0, eps=eps)."""
    drawn = creation.fill_random(creation.empty(size, dtype=like.dtype), "normal", 0, 1)
    return F.normalize(drawn, 2.0, 0, eps)


def spectral_norm(ctx, module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """SpectralNorm.apply: u and v drawn from N(0, 1) and normalized, weight_orig registered
    in the weight's place, the weight's values kept as a plain attribute."""
    if dim is None:
        dim = 1 if isinstance(module, Module) and module.kind.name.startswith(
            "ConvTranspose") else 0
    if any(h.fn.receiver.name == name for h in _hooks(module)):
        raise errors.runtime(f"Cannot register two spectral_norm hooks on the same parameter "
                             f"{name}")
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    if not isinstance(module, Module) or name not in module.params:
        raise errors.TorchError("KeyError", repr(name), (name,))
    weight = module.params[name]
    if weight is None:
        raise errors.value_error(f"`SpectralNorm` cannot be applied as parameter `{name}` is "
                                 "None")
    with grad_mode(False):
        height, width = fn.reshape_weight_to_matrix(weight).shape
        u = _random_unit(weight, height, fn.eps)
        v = _random_unit(weight, width, fn.eps)
    del module.params[name]
    if not isinstance(module.params, Members):
        module.params = Members(module, module.params)
    module.params[name + "_orig"] = weight
    module.set_attribute(name, F.detach(weight))
    module.buffers[name + "_u"] = u
    module.buffers[name + "_v"] = v
    module_hooks.register(module, "forward_pre", BoundMethod(fn, _RECOMPUTE), prepend=False)
    return module


def remove_spectral_norm(ctx, module, name="weight"):
    for hook in _hooks(module):
        fn = hook.fn.receiver
        if fn.name == name:
            with grad_mode(False):
                weight = fn.compute_weight(module, False)
            module.delete_attribute(name)
            for suffix in ("_u", "_v", "_orig"):
                module.delete_attribute(name + suffix)
            module.set_attribute(name, parameters.parameter(F.detach(weight)))
            module.hooks["forward_pre"].remove(hook)
            return module
    raise errors.value_error(f"spectral_norm of '{name}' not found in {ctx.printer.str(module)}")


# ---- torch.nn.utils.parametrizations.spectral_norm: a _SpectralNorm parametrization ----------

def _matrix(module, weight: Tensor) -> Tensor:
    """_SpectralNorm._reshape_weight_to_matrix: `dim` first, then flatten(1)."""
    dim = module.attrs["dim"]
    if dim != 0:
        weight = declarations.call("method", "permute", weight, dim,
                                   *[d for d in range(weight.ndim) if d != dim])
    return declarations.call("method", "flatten", weight, 1)


def _power_method(module, weight_mat: Tensor, iterations: int) -> None:
    u, v, eps = module.buffers["_u"], module.buffers["_v"], module.attrs["eps"]
    with grad_mode(False):
        for _ in range(iterations):
            _normalize_into(u, declarations.call("torch", "mv", weight_mat, v), eps)
            _normalize_into(v, declarations.call("torch", "mv", F.t(weight_mat), u), eps)


def _build_parametrization(module, weight, n_power_iterations, dim, eps) -> None:
    ndim = weight.ndim
    if dim >= ndim or dim < -ndim:
        raise errors.TorchError("IndexError", f"Dimension out of range (expected to be in range "
                                f"of [-{ndim}, {ndim - 1}] but got {dim})")
    if n_power_iterations <= 0:
        raise errors.value_error("Expected n_power_iterations to be positive, but got "
                                 f"n_power_iterations={n_power_iterations}")
    module.attrs.update(dim=dim if dim >= 0 else dim + ndim, eps=eps)
    if ndim > 1:
        module.attrs["n_power_iterations"] = n_power_iterations
        with grad_mode(False):
            height, width = _matrix(module, weight).shape
            u = _random_unit(weight, height, eps)
            v = _random_unit(weight, width, eps)
        module.buffers.update(_u=u, _v=v)
        _power_method(module, _matrix(module, F.detach(weight)), 15)


def _parametrization_forward(ctx, module, weight):
    eps = module.attrs["eps"]
    if weight.ndim == 1:
        return F.normalize(weight, 2.0, 0, eps)
    weight_mat = _matrix(module, weight)
    if module.attrs["training"]:
        _power_method(module, weight_mat, module.attrs["n_power_iterations"])
    u, v = F.clone(module.buffers["_u"]), F.clone(module.buffers["_v"])
    sigma = declarations.call("torch", "vdot", u, declarations.call("torch", "mv", weight_mat, v))
    return F.div(weight, sigma)


class SpectralNormHost(Module):
    """_SpectralNorm: forward(weight) and right_inverse(value), the identity."""

    __slots__ = ()
    METHODS = table(entry("right_inverse", lambda m, value: value, "self, value",
                          qualname="_SpectralNorm.right_inverse"))


SPECTRAL_NORM = ModuleKind(
    "_SpectralNorm", "", "weight, n_power_iterations=1, dim=0, eps=1e-12",
    _parametrization_forward, inputs="weight", build=_build_parametrization,
    host=SpectralNormHost, path="torch.nn.utils.parametrizations")


def parametrized_spectral_norm(ctx, module, name="weight", n_power_iterations=1, eps=1e-12,
                               dim=None):
    """parametrizations.spectral_norm: register _SpectralNorm on `name` (its construction draws
    u and v and runs 15 power iterations)."""
    weight = attributes.get(module, name) if isinstance(module, Module) and (
        name in module.params or name in module.buffers
        or module.property_of(name) is not None) else None
    if not isinstance(weight, Tensor):
        raise errors.value_error(f"Module '{ctx.printer.str(module)}' has no parameter or buffer "
                                 f"with name '{name}'")
    if dim is None:
        dim = 1 if module.kind.name.startswith("ConvTranspose") else 0
    return register_parametrization(ctx, module, name, construct(
        SPECTRAL_NORM, weight, n_power_iterations, dim, eps))


PARAMETRIZATIONS = table(entry("spectral_norm", parametrized_spectral_norm, "module, "
                               "name='weight', n_power_iterations=1, eps=1e-12, dim=None",
                               context=True))
