"""matplotlib.style.use and rc(): named styles (matplotlib's library, recorded in
style_params.json by tests/golden/record_matplotlib_tables.py, with the settings gradcli's
rcParams keep) and groups of settings, applied to this run's rcParams as matplotlib applies
them."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from gradcli.engine import errors
from gradcli.language.namespaces.pyplot_rc import DEFAULTS, rc_params
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate

with open(os.path.join(os.path.dirname(__file__), "style_params.json"), encoding="utf-8") as _f:
    _STYLES = json.load(_f)
_STYLE_ALIASES = {"mpl20": "default", "mpl15": "classic"}
_RC_ALIASES = {"lw": "linewidth", "ls": "linestyle", "c": "color", "fc": "facecolor",
               "ec": "edgecolor", "mew": "markeredgewidth", "aa": "antialiased",
               "sans": "sans-serif"}


def _settings(ctx, style) -> Mapping:
    """One style's settings: 'default', a library style's, or a mapping's own."""
    if isinstance(style, str):
        name = _STYLE_ALIASES.get(style, style)
        if name == "default":
            return DEFAULTS
        if name in _STYLES["library"]:
            return _STYLES["library"][name]
        raise errors.TorchError("OSError", (
            f"{ctx.printer.repr(style)} is not a valid package style, path of style file, URL "
            "of style file, or library style name (library styles are listed in "
            "`style.available`)"))
    return style


def use(ctx, style) -> None:
    """matplotlib.style.use: each style of a name, mapping or list in turn."""
    styles = [style] if isinstance(style, (str, Mapping)) else list(iterate(style))
    for each in styles:
        rc_params().update(_settings(ctx, each))


def rc(group, **kwargs) -> None:
    """matplotlib.rc('lines', lw=2): `group.name` set for each group and keyword."""
    for each in ((group,) if isinstance(group, str) else iterate(group)):
        for name, value in kwargs.items():
            rc_params()[f"{each}.{_RC_ALIASES.get(name) or name}"] = value


RC = entry("rc", rc, "group, **kwargs")
STYLE = Namespace("matplotlib.style", table(
    entry("use", use, "style", context=True),
) | {"available": _STYLES["available"], "library": _STYLES["library"]})
