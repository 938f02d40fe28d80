"""torch.finfo and torch.iinfo: the limits of a floating or integer dtype, printed as torch
prints them."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.engine.dtypes import DType
from gradcli.engine.state import STATE
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import NOT_GIVEN, entry


class _Info(TableObject):
    """The facts of one dtype, as read-only attributes, in torch's order for the repr."""

    __slots__ = ("facts",)
    KIND = ""

    def __init__(self, facts: dict):
        self.facts = facts

    @property
    def language_type(self) -> PyType:
        return FINFO_TYPE if self.KIND == "finfo" else IINFO_TYPE

    def attribute(self, name: str):
        if name in self.facts:
            return self.facts[name]
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"attribute '{name}' of 'torch.{self.KIND}' "
                                "objects is not writable")

    def repr(self, printer) -> str:
        shown = ", ".join(f"{name}={value:g}" for name, value in self.facts.items()
                          if name not in ("bits", "dtype"))
        return f"{self.KIND}({shown}, dtype={self.facts['dtype']})"


class FloatInfo(_Info):
    __slots__ = ()
    KIND = "finfo"


class IntInfo(_Info):
    __slots__ = ()
    KIND = "iinfo"


def finfo(type=NOT_GIVEN) -> FloatInfo:
    dtype = STATE.default_dtype if type is NOT_GIVEN else type
    if not isinstance(dtype, DType) or not dtype.is_floating_point:
        raise errors.type_error("torch.finfo() requires a floating point input type. Use "
                                "torch.iinfo to handle 'torch.finfo'")
    if dtype.name == "bfloat16":  # NumPy has no bfloat16: c10's numeric limits of it
        return FloatInfo({"resolution": 0.01, "min": -3.3895313892515355e+38,
                          "max": 3.3895313892515355e+38, "eps": 0.0078125,
                          "smallest_normal": 1.1754943508222875e-38,
                          "tiny": 1.1754943508222875e-38, "bits": 16, "dtype": dtype.name})
    info = np.finfo(dtype.np)
    tiny = float(info.smallest_normal)
    return FloatInfo({"resolution": 10.0 ** -info.precision, "min": float(info.min),
                      "max": float(info.max), "eps": float(info.eps), "smallest_normal": tiny,
                      "tiny": tiny, "bits": info.bits, "dtype": dtype.name})


def iinfo(type) -> IntInfo:
    if type.name == "bool":
        raise errors.type_error("torch.bool is not supported by torch.iinfo")
    if type.is_floating_point:
        raise errors.type_error("torch.iinfo() requires an integer input type. Use torch.finfo "
                                "to handle 'torch.iinfo'")
    info = np.iinfo(type.np)
    return IntInfo({"min": int(info.min), "max": int(info.max), "bits": info.bits,
                    "dtype": type.name})


FINFO_TYPE = PyType("torch.finfo", (FloatInfo,), entry("finfo", finfo,
                                                       "type: ScalarType=NOT_GIVEN",
                                                       style="parser"))
IINFO_TYPE = PyType("torch.iinfo", (IntInfo,), entry("iinfo", iinfo, "type: ScalarType",
                                                     style="parser"))
DTYPE_INFO = {"finfo": FINFO_TYPE, "iinfo": IINFO_TYPE}
