"""np.finfo and np.iinfo: NumPy's own limits of a type (`np.finfo(np.float32).eps`, as the
policy-gradient examples use it), as read-only attributes that are NumPy's values."""

from __future__ import annotations

import numpy as np

from gradcli.engine import errors
from gradcli.language.namespaces.numpy_warnings import numpy_warnings
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry

# the attributes a program may read, each by its constant name
_FLOAT_FACTS = {
    "bits": lambda i: i.bits, "eps": lambda i: i.eps, "epsneg": lambda i: i.epsneg,
    "max": lambda i: i.max, "min": lambda i: i.min, "tiny": lambda i: i.tiny,
    "smallest_normal": lambda i: i.smallest_normal,
    "smallest_subnormal": lambda i: i.smallest_subnormal, "resolution": lambda i: i.resolution,
    "precision": lambda i: i.precision, "maxexp": lambda i: i.maxexp,
    "minexp": lambda i: i.minexp, "machep": lambda i: i.machep, "negep": lambda i: i.negep,
    "nexp": lambda i: i.nexp, "nmant": lambda i: i.nmant, "iexp": lambda i: i.iexp}
_INT_FACTS = {"bits": lambda i: i.bits, "min": lambda i: i.min, "max": lambda i: i.max,
              "kind": lambda i: i.kind}


class MachineInfo(TableObject):
    """One np.finfo or np.iinfo: NumPy's object, whose FACTS are readable attributes."""

    __slots__ = ("host",)

    def __init__(self, host):
        self.host = host

    FACTS: dict = {}

    @property
    def language_type(self) -> PyType:
        return FINFO if isinstance(self, FloatInfo) else IINFO

    def attribute(self, name: str):
        if name in self.FACTS:
            return self.FACTS[name](self.host)
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"'numpy.{type(self.host).__name__}' object "
                                f"attribute '{name}' is read-only")

    def repr(self, printer) -> str:
        return repr(self.host)

    def str(self, printer) -> str:
        return str(self.host)


class FloatInfo(MachineInfo):
    __slots__ = ()
    FACTS = _FLOAT_FACTS


class IntInfo(MachineInfo):
    __slots__ = ()
    FACTS = _INT_FACTS


def _info(kind, made):
    def make(dtype):
        host = dtype.hosts[0] if isinstance(dtype, PyType) and dtype.hosts else dtype
        try:
            with numpy_warnings():
                info = kind(host)
        except (TypeError, ValueError) as error:
            raise errors.TorchError(type(error).__name__, str(error)) from None
        return made(info)
    return make


FINFO = PyType("numpy.finfo", (FloatInfo,), entry("finfo", _info(np.finfo, FloatInfo), "dtype",
                                                  frames=0))
IINFO = PyType("numpy.iinfo", (IntInfo,), entry("iinfo", _info(np.iinfo, IntInfo), "int_type",
                                                frames=0))
