"""`matplotlib.colors`: colour specifications read as matplotlib reads them (to_rgba, to_rgb,
to_hex, is_color_like) and its colour tables. The named colours (CSS4, Tableau, xkcd) are
matplotlib's, recorded in color_names.json by tests/golden/record_matplotlib_tables.py."""

from __future__ import annotations

import json
import os
import re
from numbers import Real

import numpy as np

from gradcli.engine import errors
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

RECORD = os.path.join(os.path.dirname(__file__), "color_names.json")
with open(RECORD, encoding="utf-8") as _handle:
    _TABLES = json.load(_handle)

# matplotlib's default colour cycle (tab10), the colours 'C0'..'C9' name
CYCLE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
         "#7f7f7f", "#bcbd22", "#17becf")
# the one-letter colours, which matplotlib keeps as tuples (their alpha is the int 1)
BASE_COLORS = {"b": (0, 0, 1), "g": (0, 0.5, 0), "r": (1, 0, 0), "c": (0, 0.75, 0.75),
               "m": (0.75, 0, 0.75), "y": (0.75, 0.75, 0), "k": (0, 0, 0), "w": (1, 1, 1)}


def _full_map() -> dict:
    """matplotlib's _colors_full_map: every name, with the 'grey' spellings of 'gray' names."""
    named = {**_TABLES["XKCD_COLORS"], **_TABLES["CSS4_COLORS"], **_TABLES["TABLEAU_COLORS"]}
    named.update({k.replace("gray", "grey"): v for k, v in named.items() if "gray" in k})
    return {**named, **BASE_COLORS}


_FULL_MAP = _full_map()
_NTH = re.compile(r"\AC[0-9]+\Z")
_HEX = re.compile(r"#[a-fA-F0-9]+")


def _hex_channels(digits: str, width: int) -> list[float]:
    return [int(digits[at:at + width], 16) / (0xff if width == 2 else 0xf)
            for at in range(0, len(digits), width)]


def _from_string(ctx, c: str, alpha):
    """A named, hex or grey-level string: its RGBA, or None when it names a base tuple."""
    if c.lower() == "none":
        return (0.0, 0.0, 0.0, 0.0)
    named = _FULL_MAP.get(c)
    if named is None and len(c) != 1:
        named = _FULL_MAP.get(c.lower())
    if isinstance(named, tuple):
        return named
    text = c if named is None else named
    if _HEX.fullmatch(text):
        digits = text[1:]
        if len(digits) in (6, 3):
            return (*_hex_channels(digits, 2 if len(digits) == 6 else 1),
                    alpha if alpha is not None else 1.0)
        if len(digits) in (8, 4):
            color = _hex_channels(digits, 2 if len(digits) == 8 else 1)
            if alpha is not None:
                color[-1] = alpha
            return tuple(color)
        raise errors.value_error(f"Invalid hex color specifier: {ctx.printer.repr(c)}")
    try:
        grey = float(text)
    except ValueError:
        raise errors.value_error(f"Invalid RGBA argument: {ctx.printer.repr(c)}") from None
    if not 0 <= grey <= 1:
        raise errors.value_error(f"Invalid string grayscale value {ctx.printer.repr(c)}. "
                                 "Value must be within 0-1 range")
    return grey, grey, grey, alpha if alpha is not None else 1.0


def _rgba(ctx, c, alpha):
    """matplotlib's _to_rgba_no_colorcycle."""
    if alpha is not None and not 0 <= alpha <= 1:
        raise errors.value_error("'alpha' must be between 0 and 1, inclusive")
    original = c
    if isinstance(c, str):
        c = _from_string(ctx, c, alpha)
        if len(c) == 4:
            return c
    if isinstance(c, np.ndarray) and c.ndim == 2 and c.shape[0] == 1:
        c = c.reshape(-1)
    if not isinstance(c, (tuple, list, np.ndarray)) or (isinstance(c, np.ndarray) and c.ndim == 0):
        raise errors.value_error(f"Invalid RGBA argument: {ctx.printer.repr(original)}")
    if len(c) not in (3, 4):
        raise errors.value_error("RGBA sequence should have length 3 or 4")
    if not all(isinstance(x, Real) for x in c):
        raise errors.value_error(f"Invalid RGBA argument: {ctx.printer.repr(original)}")
    c = tuple(float(x) for x in c)
    if len(c) == 3 and alpha is None:
        alpha = 1
    if alpha is not None:
        c = c[:3] + (alpha,)
    if any(x < 0 or x > 1 for x in c):
        raise errors.value_error("RGBA values should be within 0-1 range")
    return c


def to_rgba(ctx, c, alpha=None) -> tuple:
    """matplotlib.colors.to_rgba: a (colour, alpha) pair, 'CN' from the colour cycle."""
    if isinstance(c, tuple) and len(c) == 2:
        c, alpha = c if alpha is None else (c[0], alpha)
    if isinstance(c, str) and _NTH.match(c):
        c = tuple(_hex_channels(CYCLE[int(c[1:]) % len(CYCLE)][1:], 2))
    return _rgba(ctx, c, alpha)


def _to_hex(ctx, c, keep_alpha=False) -> str:
    rgba = to_rgba(ctx, c)
    return "#" + "".join(format(round(value * 255), "02x")
                         for value in (rgba if keep_alpha else rgba[:3]))


def _is_color_like(ctx, c) -> bool:
    if isinstance(c, str) and _NTH.match(c):
        return True
    try:
        to_rgba(ctx, c)
    except errors.TorchError as error:
        if error.kind != "ValueError":
            raise
        return False
    return True


COLORS = Namespace("matplotlib.colors", table(
    entry("to_rgba", to_rgba, "c, alpha=None", context=True),
    entry("to_rgb", lambda ctx, c: to_rgba(ctx, c)[:3], "c", context=True),
    entry("to_hex", _to_hex, "c, keep_alpha=False", context=True),
    entry("is_color_like", _is_color_like, "c", context=True),
) | {"BASE_COLORS": BASE_COLORS, **{name: _TABLES[name] for name in _TABLES}})
