"""More torch.nn module classes: GLU and GroupNorm."""

from __future__ import annotations

from gradcli.engine import errors, parameters
from gradcli.engine.ops import group_norm as GN
from gradcli.language.namespaces.modules import Module, ModuleKind
from gradcli.language.namespaces.nn_table import _functional, _options_repr


def _build_group_norm(module: Module, num_groups, num_channels, eps, affine, device, dtype,
                      bias) -> None:
    if num_channels % num_groups:
        raise errors.value_error(f"num_channels ({num_channels}) must be divisible by "
                                 f"num_groups ({num_groups})")
    module.attrs.update(num_groups=num_groups, num_channels=num_channels, eps=eps, affine=affine)
    shape = (num_channels,)
    module.params.update(weight=parameters.filled(shape, 1.0, dtype) if affine else None,
                         bias=parameters.filled(shape, 0.0, dtype) if affine and bias else None)


def _group_norm_forward(ctx, module: Module, x):
    a = module.attrs
    return GN.group_norm(x, a["num_groups"], module.params["weight"], module.params["bias"],
                         a["eps"])


def _group_norm_repr(module: Module, printer) -> str:
    a = module.attrs
    return (f"{a['num_groups']}, {a['num_channels']}, eps={printer.str(a['eps'])}, "
            f"affine={a['affine']}, bias={module.params.get('bias') is not None}")


KINDS = [
    ModuleKind("GLU", "activation", "dim=-1", _functional("glu"), extra_repr=_options_repr("dim")),
    ModuleKind("GroupNorm", "normalization", "num_groups, num_channels, eps=1e-05, affine=True, "
               "device=None, dtype=None, *, bias=True", _group_norm_forward,
               extra_repr=_group_norm_repr, build=_build_group_norm),
]
MORE_CLASSES = {kind.name: kind.type for kind in KINDS}
