"""Python's datetime.datetime as scripts use it: now() stamped into a run's file names, printed
and formatted (strftime, isoformat) by Python's own datetime; and datetime.timedelta, which
training scripts print elapsed seconds with (`str(timedelta(seconds=int(t)))`)."""

from __future__ import annotations

import datetime
import operator

from gradcli.engine import errors
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.protocols import CLASS_METHODS
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_FIELDS = ("year", "month", "day", "hour", "minute", "second", "microsecond")
_GETTERS = {"year": lambda v: v.year, "month": lambda v: v.month, "day": lambda v: v.day,
            "hour": lambda v: v.hour, "minute": lambda v: v.minute, "second": lambda v: v.second,
            "microsecond": lambda v: v.microsecond}


_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
               "//": operator.floordiv, "%": operator.mod}


class _Moment(TableObject):
    """A datetime value (datetime or timedelta) around Python's own: its arithmetic and
    comparisons are Python's (`datetime.now() - start` is a timedelta), on these values and
    numbers only."""

    __slots__ = ("value",)

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        function = _ARITHMETIC.get(op)
        if function is None or not isinstance(other, (_Moment, int, float)):
            return NotImplemented
        left, right = (_host(other), self.value) if reflected else (self.value, _host(other))
        try:
            return _wrapped(function(left, right))
        except TypeError:
            return NotImplemented
        except (ZeroDivisionError, OverflowError, ValueError) as error:
            raise errors.TorchError(type(error).__name__, str(error)) from None

    def _compared(self, other, function):
        if not isinstance(other, _Moment):
            return NotImplemented
        return function(self.value, other.value)

    def __eq__(self, other):
        return self._compared(other, operator.eq)

    def __ne__(self, other):
        return self._compared(other, operator.ne)

    def __lt__(self, other):
        return self._compared(other, operator.lt)

    def __le__(self, other):
        return self._compared(other, operator.le)

    def __gt__(self, other):
        return self._compared(other, operator.gt)

    def __ge__(self, other):
        return self._compared(other, operator.ge)

    def __hash__(self):
        return hash(self.value)


def _host(value):
    return value.value if isinstance(value, _Moment) else value


def _wrapped(value):
    """Python's result as the language's value (a datetime or timedelta wrapped)."""
    if isinstance(value, datetime.datetime):
        return DateTime(value)
    if isinstance(value, datetime.timedelta):
        return TimeDelta(value)
    return value


class DateTime(_Moment):
    """A datetime.datetime (naive, local time): Python's own value inside."""

    __slots__ = ()

    def __init__(self, value: datetime.datetime):
        self.value = value

    @property
    def language_type(self) -> PyType:
        return DATETIME_TYPE

    def attribute(self, name: str):
        if name in _GETTERS:
            return _GETTERS[name](self.value)
        method = _METHODS.get(name)
        if method is None:
            raise errors.TorchError("AttributeError", f"'datetime.datetime' object has no "
                                    f"attribute '{name}'")
        return entry(name, lambda *args, **kwargs: method[0](self.value, *args, **kwargs),
                     method[1], qualname=f"datetime.{name}", frames=0)

    def set_attribute(self, name: str, value) -> None:
        if name in _FIELDS:
            owner = "date" if name in _FIELDS[:3] else "datetime"  # where Python defines it
            raise errors.TorchError("AttributeError", f"attribute '{name}' of 'datetime.{owner}'"
                                    " objects is not writable")
        if name in _METHODS:
            raise errors.TorchError("AttributeError", f"'datetime.datetime' object attribute "
                                    f"'{name}' is read-only")
        raise errors.TorchError("AttributeError", f"'datetime.datetime' object has no attribute "
                                f"'{name}'")

    def repr(self, printer) -> str:
        return repr(self.value)

    def str(self, printer) -> str:
        return str(self.value)


def _strftime(value: datetime.datetime, format) -> str:
    if not isinstance(format, str):
        raise errors.type_error(f"strftime() argument 1 must be str, not {type(format).__name__}")
    return value.strftime(format)


def _isoformat(value: datetime.datetime, sep="T", timespec="auto") -> str:
    if not isinstance(sep, str) or len(sep) != 1:
        raise errors.type_error("isoformat() argument 1 must be a unicode character, not "
                                f"{type(sep).__name__}")
    if not isinstance(timespec, str):
        raise errors.type_error(f"isoformat() argument 2 must be str, not "
                                f"{type(timespec).__name__}")
    return value.isoformat(sep, timespec)


_METHODS = {"strftime": (_strftime, "format, /"), "isoformat": (_isoformat, "sep='T', "
            "timespec='auto'"), "timestamp": (datetime.datetime.timestamp, ""),
            "weekday": (datetime.datetime.weekday, ""),
            "isoweekday": (datetime.datetime.isoweekday, "")}


def _construct(year, month, day, hour=0, minute=0, second=0, microsecond=0) -> DateTime:
    for name, number in zip(_FIELDS, (year, month, day, hour, minute, second, microsecond)):
        if not isinstance(number, int) or isinstance(number, bool):
            raise errors.type_error(f"'{type(number).__name__}' object cannot be interpreted as "
                                    "an integer")
    try:
        return DateTime(datetime.datetime(year, month, day, hour, minute, second, microsecond))
    except (ValueError, OverflowError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


def _now(tz) -> DateTime:
    if tz is not None:
        raise errors.TorchError("NotImplementedError", "gradcli does not support time zones yet")
    return DateTime(datetime.datetime.now())


DATETIME_TYPE = PyType("datetime.datetime", (DateTime,), entry(
    "datetime", _construct, "year, month, day, hour=0, minute=0, second=0, microsecond=0",
    frames=0))
CLASS_METHODS[DateTime] = table(
    entry("now", lambda tz=None: _now(tz), "tz=None", frames=0),
    entry("today", lambda: DateTime(datetime.datetime.today()), "", frames=0),
)

class TimeDelta(_Moment):
    """A datetime.timedelta: Python's own value inside."""

    __slots__ = ()

    def __init__(self, value: datetime.timedelta):
        self.value = value

    @property
    def language_type(self) -> PyType:
        return TIMEDELTA_TYPE

    def attribute(self, name: str):
        if name in _DELTA_GETTERS:
            return _DELTA_GETTERS[name](self.value)
        if name == "total_seconds":
            return entry(name, self.value.total_seconds, "", qualname="timedelta.total_seconds",
                         frames=0)
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return repr(self.value)

    def str(self, printer) -> str:
        return str(self.value)


_DELTA_GETTERS = {"days": lambda v: v.days, "seconds": lambda v: v.seconds,
                  "microseconds": lambda v: v.microseconds}
_DELTA_UNITS = ("days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks")


def _timedelta(*args, **kwargs) -> TimeDelta:
    units = dict(zip(_DELTA_UNITS, args)) | kwargs
    for unit, number in units.items():
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise errors.type_error(f"unsupported type for timedelta {unit} component: "
                                    f"{type(number).__name__}")
    try:
        return TimeDelta(datetime.timedelta(**units))
    except OverflowError as error:
        raise errors.TorchError("OverflowError", str(error)) from None


TIMEDELTA_TYPE = PyType("datetime.timedelta", (TimeDelta,), entry(
    "timedelta", _timedelta, "days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, "
    "hours=0, weeks=0", frames=0))

DATETIME = Namespace("datetime", {"datetime": DATETIME_TYPE, "timedelta": TIMEDELTA_TYPE})
MODULES = {"datetime": DATETIME}
