"""The deprecated-style torch.nn.utils.spectral_norm / remove_spectral_norm: weight_orig a
parameter, weight_u and weight_v buffers, and a forward pre-hook that runs the power iteration
(in training mode) and sets `weight` to weight_orig divided by its spectral norm estimate."""

from __future__ import annotations

from gradcli.engine import creation, declarations, errors, parameters
from gradcli.engine.functions import F
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import module_hooks
from gradcli.language.namespaces.modules import Members, Module
from gradcli.language.runtime import attributes
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry


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
