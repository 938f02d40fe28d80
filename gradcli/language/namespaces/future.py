"""torch.__future__: the switches for how nn.Module's conversions (.to, .double(), ...) change
parameters, kept per run. By default a parameter is converted in place (`param.data = ...`);
with overwrite, the module gets new Parameter objects; with swap, each parameter exchanges its
contents with its converted copy (torch.utils.swap_tensors), which keeps it the same object, as
the default does."""

from __future__ import annotations

from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_SWAP, _OVERWRITE = "swap_module_params_on_conversion", "overwrite_module_params_on_conversion"


def overwrites(ctx) -> bool:
    """Whether conversions give modules new Parameter objects."""
    return ctx.future.get(_OVERWRITE, False)


def _setter(name: str):
    def set_value(ctx, value) -> None:
        ctx.future[name] = value
    return set_value


def _getter(name: str):
    return lambda ctx: ctx.future.get(name, False)


FUTURE = Namespace("torch.__future__", table(*(
    entry(f"{kind}_{name}", make(name), "value" if kind == "set" else "", context=True)
    for name in (_OVERWRITE, _SWAP)
    for kind, make in (("set", _setter), ("get", _getter)))))
