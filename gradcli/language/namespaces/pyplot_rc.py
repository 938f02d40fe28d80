"""matplotlib's rcParams: the run's settings (kept in the engine state, so each run starts from
matplotlib's defaults), a dict whose figure size new figures take."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.records import record
from gradcli.engine.state import STATE
from gradcli.language.runtime import protocols
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.values import Namespace, type_name

# the settings programs read back, with matplotlib's defaults
DEFAULTS = {"figure.figsize": [6.4, 4.8], "figure.dpi": 100.0, "savefig.dpi": "figure",
             "font.size": 10.0, "font.family": ["sans-serif"], "lines.linewidth": 1.5,
             "lines.markersize": 6.0, "axes.grid": False, "axes.titlesize": "large",
             "axes.labelsize": "medium", "legend.fontsize": "medium", "image.cmap": "viridis",
             "xtick.labelsize": "medium", "ytick.labelsize": "medium"}


def _as_is(value):
    return value


def _pair(value) -> list:
    pair = list(value) if isinstance(value, (tuple, list)) else [value]
    if len(pair) != 2:
        raise ValueError(f"Expected 2 values, but there are {len(pair)} values in {value!r}")
    return [_float(v) for v in pair]


def _float(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"Could not convert {value!r} to float") from None


def _names(value) -> list:
    return [value] if isinstance(value, str) else list(value)


_FONT_SIZES = ("xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large",
               "smaller", "larger")


def _font_size(value):
    """matplotlib's validate_fontsize: a size name (any case), else a float."""
    if isinstance(value, str):
        value = value.lower()
    if value in _FONT_SIZES:
        return value
    try:
        return float(value)
    except TypeError:
        raise errors.type_error(f"float() argument must be a string or a real number, not "
                                f"'{type_name(value)}'") from None
    except ValueError:
        raise ValueError(f"{value} is not a valid font size. Valid font sizes are "
                         f"{', '.join(_FONT_SIZES)}.") from None


_VALIDATORS = {"figure.figsize": _pair, "figure.dpi": _float, "font.size": _float,
               "lines.linewidth": _float, "lines.markersize": _float, "axes.grid": bool,
               "font.family": _names,
               **{key: _font_size for key in ("axes.titlesize", "axes.labelsize",
                                              "legend.fontsize", "xtick.labelsize",
                                              "ytick.labelsize")}}


class RcParams(dict):
    """matplotlib.RcParams: values kept as its validators make them (a size pair as a list of
    floats, a number as a float, a font family as a list)."""

    def __setitem__(self, key, value):
        try:
            value = _VALIDATORS.get(key, _as_is)(value)
        except ValueError as error:
            raise errors.value_error(f"Key {key}: {error}") from None
        super().__setitem__(key, value)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __missing__(self, key):
        raise errors.TorchError("KeyError", repr(f"{key} is not a valid rc parameter (see "
                                                 "rcParams.keys() for a list of valid parameters)"))


protocols.register_type(PyType("matplotlib.RcParams", (RcParams,)))


def rc_params() -> RcParams:
    """This run's rcParams."""
    params = STATE.flags.get("matplotlib.rcParams")
    if params is None:
        params = STATE.flags["matplotlib.rcParams"] = RcParams(
            {key: list(value) if isinstance(value, list) else value
             for key, value in DEFAULTS.items()})
    return params


def figure_size() -> tuple[float, float]:
    return tuple(rc_params()["figure.figsize"])


def figure_dpi() -> float:
    return rc_params()["figure.dpi"]


@record(frozen=True)
class RcNamespace(Namespace):
    """A module with `rcParams` among its names (matplotlib, matplotlib.pyplot)."""

    def lookup(self, attr: str):
        if attr == "rcParams":
            return rc_params()
        return super().lookup(attr)
