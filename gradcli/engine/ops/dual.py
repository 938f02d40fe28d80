"""The op rows forward-mode AD adds to graphs: the primal view unpack_dual returns."""

from __future__ import annotations

from gradcli.engine.functions import export
from gradcli.engine.ops.registry import LINEAR, apply, defop

_PRIMAL = defop("_unpack_dual", "Identity", lambda a: a.view(), promote="none", view=True,
                vjp=lambda g, a: g, jvp=LINEAR, name="torch::autograd::Identity")


def primal_view(a):
    """unpack_dual's primal: a view of `a` whose grad_fn torch calls Identity."""
    return apply(_PRIMAL, a)


export(__name__, globals())
