"""Python's exception classes as the language has them, and the values `except ... as e` binds.

An exception value is an instance of Python's own class (its args are language values), so
that `except LookupError` catches an IndexError by Python's hierarchy and `e.args`, `str(e)` and
`repr(e)` read as in Python. Only the classes listed here exist in the language.
"""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime.frames import GradRuntimeError, Span
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.pytypes import PyType

_CLASSES = (BaseException, Exception, ArithmeticError, ZeroDivisionError, OverflowError,
            LookupError, IndexError, KeyError, RuntimeError, NotImplementedError, RecursionError,
            ValueError, TypeError, AttributeError, NameError, UnboundLocalError, AssertionError,
            StopIteration, MemoryError, ImportError, ModuleNotFoundError, KeyboardInterrupt)


def _exception_class(cls: type) -> PyType:
    name = cls.__name__
    return PyType(name, (cls,), entry(name, lambda *args: cls(*args), "*args", style="expected",
                                      frames=0))


EXCEPTION_TYPES: dict[str, PyType] = {cls.__name__: _exception_class(cls) for cls in _CLASSES}
_BY_HOST = {t.hosts[0]: t for t in EXCEPTION_TYPES.values()}


def exception_type(value) -> PyType | None:
    """The language class of an exception value, None for any other value."""
    return _BY_HOST.get(type(value))


def caught_value(error: GradRuntimeError) -> BaseException:
    """The exception value an `except` clause binds for `error` (the raised one, when a program
    raised it)."""
    if error.value is None:
        cls = EXCEPTION_TYPES.get(error.kind, EXCEPTION_TYPES["RuntimeError"]).hosts[0]
        if error.value_args is not None:
            error.value = cls(*error.value_args)
        else:
            error.value = cls(error.message) if error.message else cls()
    return error.value


def matches(error: GradRuntimeError, handled) -> bool:
    """Whether `except handled` catches `error` (a class or a tuple of classes)."""
    if isinstance(handled, tuple):
        return any(matches(error, h) for h in handled)
    if not (isinstance(handled, PyType) and handled.hosts[0] in _BY_HOST):
        raise errors.type_error("catching classes that do not inherit from BaseException is not "
                                "allowed")
    return isinstance(caught_value(error), handled.hosts)


def check_cause(cause) -> None:
    """`raise ... from cause`: the cause must be an exception, a class of one, or None."""
    if cause is not None and exception_type(cause) is None and not (
            isinstance(cause, PyType) and cause.hosts[0] in _BY_HOST):
        raise errors.type_error("exception causes must derive from BaseException")


def raised(value, printer, span: Span | None) -> GradRuntimeError:
    """The error that `raise value` starts (a class is instantiated without arguments)."""
    if isinstance(value, PyType) and value.hosts[0] in _BY_HOST:
        value = value.hosts[0]()
    if exception_type(value) is None:
        raise errors.type_error("exceptions must derive from BaseException")
    error = GradRuntimeError(type(value).__name__, printer.str(value), span)
    error.value = value
    return error
