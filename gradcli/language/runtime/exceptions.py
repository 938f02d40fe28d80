"""Python's exception classes as the language has them, and the values `except ... as e` binds.

An exception value is an instance of Python's own class (its args are language values), so
that `except LookupError` catches an IndexError by Python's hierarchy and `e.args`, `str(e)` and
`repr(e)` read as in Python. Only the classes listed here exist in the language.
"""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.frames import BoundMethod, GradRuntimeError, Span
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.pytypes import PyType

_CLASSES = (BaseException, Exception, ArithmeticError, ZeroDivisionError, OverflowError,
            LookupError, IndexError, KeyError, RuntimeError, NotImplementedError, RecursionError,
            ValueError, TypeError, AttributeError, NameError, UnboundLocalError, AssertionError,
            StopIteration, MemoryError, ImportError, ModuleNotFoundError, KeyboardInterrupt,
            GeneratorExit, SystemExit, OSError, FileNotFoundError, PermissionError, TimeoutError,
            ConnectionError, EOFError, FloatingPointError, SyntaxError, IndentationError,
            UnicodeError, BufferError, Warning, UserWarning, DeprecationWarning, RuntimeWarning,
            FutureWarning, UnicodeDecodeError, UnicodeEncodeError, UnicodeTranslateError,
            FileExistsError, IsADirectoryError, NotADirectoryError, InterruptedError,
            BrokenPipeError, ConnectionResetError, ConnectionRefusedError, ConnectionAbortedError,
            BlockingIOError, ChildProcessError, ProcessLookupError, TabError, SystemError,
            ReferenceError, StopAsyncIteration, PendingDeprecationWarning, SyntaxWarning,
            ImportWarning, UnicodeWarning, BytesWarning, ResourceWarning)


def _exception_class(cls: type, qualified: str | None = None) -> PyType:
    name = cls.__name__
    if issubclass(cls, ImportError):  # ImportError(msg, name=..., path=...)
        return PyType(qualified or name, (cls,), entry(name, lambda *args, **kwargs:
                      _import_error(cls, args, kwargs), "*args, **kwargs", frames=0))
    return PyType(qualified or name, (cls,), entry(name, lambda *args: cls(*args), "*args",
                                                   style="expected", frames=0))


def _import_error(cls: type, args: tuple, kwargs: dict) -> ImportError:
    """ImportError's keywords, checked in CPython's words (which name ImportError for all)."""
    if len(kwargs) > 2:
        raise errors.type_error(f"ImportError() takes at most 2 keyword arguments "
                                f"({len(kwargs)} given)")
    for key in kwargs:
        if key not in ("name", "path"):
            raise errors.type_error(f"'{key}' is an invalid keyword argument for ImportError()")
    return cls(*args, **kwargs)


EXCEPTION_TYPES: dict[str, PyType] = {cls.__name__: _exception_class(cls) for cls in _CLASSES}
_BY_HOST = {t.hosts[0]: t for t in EXCEPTION_TYPES.values()}


class UserException(classes.Instance):
    """An instance of a program's class derived from an exception class (`class E(Exception)`):
    its attributes and methods as any instance's, and BaseException's `args`, str and repr."""

    __slots__ = ("args", "language_cause", "language_context")

    def __init__(self, cls, args=()):
        super().__init__(cls)
        self.args = tuple(args)
        self.language_cause = self.language_context = None

    @property
    def host(self) -> type:
        """The builtin exception class it derives from (what `except ValueError` tests)."""
        return self.cls.base.hosts[0]

    def attribute(self, name: str):
        if name == "args":
            return self.args
        if name in CHAINING:
            return chained(self, name)
        if name in EXCEPTION_METHODS and name not in self.attrs and \
                self.cls.find(name) is classes.MISSING:
            return BoundMethod(self, EXCEPTION_METHODS[name])
        return super().attribute(name)

    def set_attribute(self, name: str, value) -> None:
        if name == "args":
            from gradcli.language.runtime.values import iterate
            self.args = tuple(iterate(value))
            return
        super().set_attribute(name, value)

    def base_attribute(self, name: str):
        """super().__str__ / super().__repr__: BaseException's, from its args."""
        if name in _BASE_TEXT:
            return BoundMethod(self, _BASE_TEXT[name])
        return super().base_attribute(name)

    def repr(self, printer) -> str:
        if self.dunder("__repr__") is not None:
            return super().repr(printer)
        return self.base_repr(printer)

    def str(self, printer) -> str:
        if self.dunder("__str__") is not None:
            return super().str(printer)
        return self.base_str(printer)

    def base_repr(self, printer) -> str:
        inner = ", ".join(printer.repr(a) for a in self.args)
        return f"{self.cls.name}({inner})"

    def base_str(self, printer) -> str:
        if len(self.args) != 1:
            return printer.repr(self.args) if self.args else ""
        if issubclass(self.host, KeyError):
            return printer.repr(self.args[0])
        return printer.str(self.args[0])


# BaseException's text, which a program's __str__/__repr__ reaches through super()
_BASE_TEXT = {
    "__str__": entry("__str__", lambda ctx, self: self.base_str(ctx.printer), "self, /",
                     context=True, style="wrapper"),
    "__repr__": entry("__repr__", lambda ctx, self: self.base_repr(ctx.printer), "self, /",
                      context=True, style="wrapper"),
}


# the exceptions a raised one was chained to, and whether `raise ... from` hid its context
CHAINING = ("__cause__", "__context__", "__suppress_context__")


def _add_note(error, note) -> None:
    """e.add_note(note): kept in the exception's __notes__ list."""
    if not isinstance(note, str):
        raise errors.type_error(f"note must be a str, not '{protocols.type_of(note).name}'")
    if isinstance(error, UserException):
        error.attrs.setdefault("__notes__", []).append(note)
    else:
        error.add_note(note)


def _with_traceback(error, tb):
    """e.with_traceback(None): `error` itself (a program holds no traceback objects)."""
    if tb is not None:
        raise errors.type_error("__traceback__ must be a traceback or None")
    return error


# BaseException's methods, for builtin exceptions and the program's own exception classes
EXCEPTION_METHODS = {"add_note": entry("add_note", _add_note, "self, note, /", style="exact"),
                     "with_traceback": entry("with_traceback", _with_traceback, "self, tb, /",
                                             style="exact")}


def chain(value, cause, context) -> None:
    """Record what `raise value from cause` inside an `except` block (of `context`) chains to
    (as language_cause and language_context: the host's own slots take host exceptions only)."""
    if cause is not NO_CAUSE:
        if is_exception_class(cause):
            cause = caught_value_of_class(cause)
        value.language_cause = cause
    if context is not None and context is not value:
        value.language_context = context


def chained(value, name: str):
    """e.__cause__, e.__context__ or e.__suppress_context__."""
    if name == "__suppress_context__":
        return hasattr(value, "language_cause")
    if name == "__cause__":
        return getattr(value, "language_cause", None)
    return getattr(value, "language_context", None)


NO_CAUSE = object()


def caught_value_of_class(cls):
    """`raise E` or `from E`: an exception class is called without arguments."""
    if isinstance(cls, classes.UserClass):
        return classes.instantiate(cls, [], {})
    return cls.hosts[0]()


def _base_exception_init(instance, *args) -> None:
    """BaseException.__init__ (reached through super().__init__(...)): the args it keeps."""
    instance.args = args


def is_exception_class(value) -> bool:
    """Whether `value` is an exception class: a builtin one or a program's class derived from
    one."""
    if isinstance(value, PyType):
        return bool(value.hosts) and value.hosts[0] in _BY_HOST
    return isinstance(value, classes.UserClass) and isinstance(value.base, PyType) and \
        value.base.hosts[0] in _BY_HOST


def _defined_names(host: type) -> frozenset:
    """The names Python's exception class `host` and its ancestors define (not object's) that
    the language gives its exceptions: a program's class after it in the MRO gives the rest."""
    return frozenset(name for cls in host.__mro__[:-1] for name in vars(cls)
                     if name in _IMPLEMENTED)


_IMPLEMENTED = frozenset(("__init__", "__str__", "__repr__", "args", "value", "code", *CHAINING))


classes.BUILTIN_ANCESTORS.update(_BY_HOST)
for _type in EXCEPTION_TYPES.values():
    classes.BASE_INSTANCES[_type] = UserException
    classes.BASE_INITS[_type] = entry("__init__", _base_exception_init, "self, *args",
                                      qualname=f"{_type.name}.__init__")
    classes.BASE_DEFINES[_type] = _defined_names(_type.hosts[0]).__contains__


_MODULE_EXCEPTIONS: dict[str, PyType] = {}


def register_exception(cls: PyType) -> None:
    """An exception class a module offers (np.linalg.LinAlgError): caught by its class, named
    by its own name; not a builtin name."""
    _MODULE_EXCEPTIONS[cls.hosts[0].__name__] = cls
    _BY_HOST[cls.hosts[0]] = cls


def module_exception(qualified: str, cls: type) -> PyType:
    """A module's exception class (statistics.StatisticsError) that programs raise too."""
    made = _exception_class(cls, qualified)
    register_exception(made)
    return made


def shown_kind(kind: str) -> str:
    """An uncaught error's class as Python's traceback names it: a module's exception class by
    its qualified name (torch._C._LinAlgError), a builtin or the program's own class by its name."""
    cls = _MODULE_EXCEPTIONS.get(kind)
    return kind if cls is None else cls.name


class _LinAlgError(RuntimeError):
    """torch._C._LinAlgError (torch.linalg.LinAlgError): a failed factorization or solve."""


LINALG_ERROR = PyType("torch._C._LinAlgError", (_LinAlgError,))
register_exception(LINALG_ERROR)


def exception_type(value):
    """The language class of an exception value, None for any other value."""
    if isinstance(value, UserException):
        return value.cls
    return _BY_HOST.get(type(value))


def exception_name(value) -> str:
    """The class name of an exception value (what a traceback's last line starts with)."""
    return value.cls.name if isinstance(value, UserException) else type(value).__name__


def caught_value(error: GradRuntimeError) -> BaseException:
    """The exception value an `except` clause binds for `error` (the raised one, when a program
    raised it)."""
    if error.value is None:
        cls = (EXCEPTION_TYPES.get(error.kind) or _MODULE_EXCEPTIONS.get(error.kind)
               or EXCEPTION_TYPES["RuntimeError"]).hosts[0]
        if error.value_args is not None:
            error.value = cls(*error.value_args)
        else:
            error.value = _with_message(cls, error.message)
        record_lookup(error)
    return error.value


def remember_lookup(error, value, name: str):
    """`error` (raised reading value.name), remembering `value` and `name` when it is an
    AttributeError that holds no such record yet, as Python's attribute lookup does (for its
    "Did you mean" and the exception's `name` and `obj`)."""
    if isinstance(error, (errors.TorchError, GradRuntimeError)) and error.looked_up is None \
            and is_attribute_error(error):
        error.looked_up = ("attribute", value, name)
        if isinstance(error, GradRuntimeError) and error.value is not None:
            record_lookup(error)
    return error


def record_lookup(error: GradRuntimeError) -> None:
    """What `error` failed to find, on its exception value as Python keeps it: NameError's
    `name`, AttributeError's `name` and `obj`, ImportError's module `name` (unless the
    program's exception holds its own)."""
    value, looked_up = error.value, error.looked_up
    if looked_up is None:
        return
    if isinstance(value, AttributeError) and looked_up[0] == "attribute" and \
            value.name is None and value.obj is None:
        value.name, value.obj = looked_up[2], looked_up[1]
    elif isinstance(value, NameError) and looked_up[0] == "name" and value.name is None:
        value.name = looked_up[1]
    elif isinstance(value, ImportError) and looked_up[0] == "module" and value.name is None:
        value.name = looked_up[1]


def _with_message(cls: type, message: str) -> BaseException:
    """An exception of `cls` whose str() is `message` (a class whose constructor takes more,
    UnicodeDecodeError's five arguments, holds the message as its one argument)."""
    try:
        return cls(message) if message else cls()
    except TypeError:
        value = cls.__new__(cls)
        value.args = (message,)
        return value


def matches(error: GradRuntimeError, handled) -> bool:
    """Whether `except handled` catches `error` (a class or a tuple of classes)."""
    if isinstance(handled, tuple):
        return any(matches(error, h) for h in handled)
    if not is_exception_class(handled):
        raise errors.type_error("catching classes that do not inherit from BaseException is not "
                                "allowed")
    value = caught_value(error)
    if isinstance(value, UserException):
        return value.cls.is_subclass_of(handled)
    return isinstance(handled, PyType) and isinstance(value, handled.hosts)


def is_attribute_error(error) -> bool:
    """Whether `error` (a TorchError or GradRuntimeError) is an AttributeError or a subclass's."""
    if isinstance(error, GradRuntimeError):
        return matches(error, EXCEPTION_TYPES["AttributeError"])
    return error.kind == "AttributeError"


protocols.is_attribute_error = is_attribute_error


def check_cause(cause) -> None:
    """`raise ... from cause`: the cause must be an exception, a class of one, or None."""
    if cause is not None and exception_type(cause) is None and not is_exception_class(cause):
        raise errors.type_error("exception causes must derive from BaseException")


def raised(value, printer, span: Span | None) -> GradRuntimeError:
    """The error that `raise value` starts (a class is instantiated without arguments)."""
    if is_exception_class(value):
        value = caught_value_of_class(value)
    if exception_type(value) is None:
        raise errors.type_error("exceptions must derive from BaseException")
    error = GradRuntimeError(exception_name(value), printer.str(value), span)
    error.value = value
    return error


def stop_iteration(stop: StopIteration) -> errors.TorchError:
    """The language's StopIteration for a host one, keeping a generator's return value."""
    if stop.value is None:
        return errors.TorchError("StopIteration", "")
    return errors.TorchError("StopIteration", str(stop.value), (stop.value,))
