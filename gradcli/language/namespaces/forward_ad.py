"""torch.autograd.forward_ad as the language sees it: dual_level, make_dual, unpack_dual."""

from __future__ import annotations

from gradcli.engine import forward_ad
from gradcli.language.runtime.frames import ContextManager
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace


def dual_level() -> ContextManager:
    return ContextManager(forward_ad.enter_dual_level, forward_ad.exit_dual_level,
                          label="torch.autograd.forward_ad.dual_level")


FORWARD_AD = Namespace("torch.autograd.forward_ad", table(
    entry("dual_level", dual_level, ""),
    entry("enter_dual_level", forward_ad.enter_dual_level, ""),
    entry("exit_dual_level", lambda level: forward_ad.exit_dual_level(level), "*, level=None"),
    entry("make_dual", forward_ad.make_dual, "tensor, tangent, *, level=None"),
    entry("unpack_dual", forward_ad.unpack_dual, "tensor, *, level=None"),
))
