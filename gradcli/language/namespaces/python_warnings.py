"""Python's `warnings` module: filters that silence torch's warnings (or make them errors),
`warn` for the program's own, and `catch_warnings` to restore the filters afterwards (or to
record the warnings of a block)."""

from __future__ import annotations

import os
import re

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.runtime.exceptions import EXCEPTION_TYPES, register_exception
from gradcli.language.runtime.frames import ContextManager
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import NOT_GIVEN, entry, table
from gradcli.language.runtime.values import Namespace, type_name

RE_ERROR = PyType("re.error", (re.error,))  # a bad message pattern (and the re module's)
register_exception(RE_ERROR)
_ACTIONS = ("default", "error", "ignore", "always", "all", "module", "once")


def _assertion(message: str) -> errors.TorchError:
    return errors.TorchError("AssertionError", message)


def _warning_class(category) -> type | None:
    """The Python warning class a language class stands for (None for any other value)."""
    host = (getattr(category, "hosts", None) or (None,))[0]
    return host if isinstance(host, type) and issubclass(host, Warning) else None


def _matcher(category, message: str):
    try:
        pattern = re.compile(message, re.I) if message else None
    except re.error as error:  # as Python's warnings module compiles it
        raise errors.TorchError("error", str(error)) from None
    covered = _warning_class(category)

    def matches(name: str, text: str) -> bool:
        warned = EXCEPTION_TYPES.get(name)
        return (covered is not None and warned is not None
                and issubclass(warned.hosts[0], covered)
                and (pattern is None or pattern.match(text) is not None))
    return matches


def _add_filter(action, category, message: str, append) -> None:
    category = EXCEPTION_TYPES["Warning"] if category is NOT_GIVEN else category
    if action not in _ACTIONS:
        raise _assertion(f"invalid action: {action!r}")
    rule = (action, _matcher(category, message))
    if append:
        STATE.warning_filters.append(rule)
    else:
        STATE.warning_filters.insert(0, rule)


def _filterwarnings(action, message, category, module, lineno, append) -> None:
    if action not in _ACTIONS:
        raise _assertion(f"invalid action: {action!r}")
    if not isinstance(message, str):
        raise _assertion("message must be a string")
    if category is not NOT_GIVEN and _warning_class(category) is None:
        raise _assertion("category must be a Warning subclass")
    _add_filter(action, category, message, append)


def _simplefilter(action, category, lineno, append) -> None:
    _add_filter(action, category, "", append)


def _resetwarnings() -> None:
    STATE.warning_filters.clear()


def _warn(message, category, stacklevel, source, skip_file_prefixes) -> None:
    if isinstance(message, Warning):
        category, message = EXCEPTION_TYPES[type(message).__name__], str(message)
    elif category is None:
        category = EXCEPTION_TYPES["UserWarning"]
    elif not isinstance(message, str):
        message = str(message)
    host = _warning_class(category)
    if host is None:
        raise errors.type_error(f"category must be a Warning subclass, not "
                                f"'{type_name(category)}'")
    STATE.warn(host.__name__, message)


class WarningMessage(TableObject):
    """One warning that catch_warnings(record=True) caught: the warning, its class and place
    (in `fields`, by Python's attribute names)."""

    __slots__ = ("fields",)

    def __init__(self, message, category, filename: str, lineno: int):
        self.fields = {"message": message, "category": category, "filename": filename,
                       "lineno": lineno, "file": None, "line": None, "source": None}

    @property
    def language_type(self) -> PyType:
        return WARNING_MESSAGE_TYPE

    def attribute(self, name: str):
        if name not in self.fields:
            raise self.missing(name)
        return self.fields[name]

    def set_attribute(self, name: str, value) -> None:
        self.fields[name] = value

    def repr(self, printer) -> str:
        return f"<warnings.WarningMessage object at 0x{id(self):x}>"

    def str(self, printer) -> str:
        fields = self.fields
        category = fields["category"]
        name = category.name if isinstance(category, PyType) else None
        return (f"{{message : {printer.repr(fields['message'])}, category : {name!r}, "
                f"filename : {printer.repr(fields['filename'])}, lineno : "
                f"{printer.str(fields['lineno'])}, line : {printer.repr(fields['line'])}}}")


WARNING_MESSAGE_TYPE = PyType("warnings.WarningMessage", (WarningMessage,))


def _recorder(runtime, caught: list):
    """A warning sink that appends to `caught` what Python's filters would have shown."""
    filename = runtime.filename
    if not filename.startswith("<"):  # a script's warnings name it by its absolute path
        filename = os.path.abspath(filename)
    shown: set = set()

    def record(category: str, message: str) -> None:
        key = STATE.once_key(category, message, runtime.line)
        if key in shown:
            return
        if key is not None:
            shown.add(key)
        cls = EXCEPTION_TYPES[category]
        caught.append(WarningMessage(cls.hosts[0](message), cls, filename, runtime.line))
    return record


def _catch_warnings(runtime, record, module, action, category, lineno, append) -> ContextManager:
    """Keeps the filters (and where warnings go) on entry and puts them back on exit; with
    `record`, the block's warnings are appended to the list it binds instead of shown."""
    saved: list = []

    def enter():
        saved.append((list(STATE.warning_filters), STATE.warning_sink))
        if action is not None:
            _simplefilter(action, category, lineno, append)
        if record:
            caught: list = []
            STATE.warning_sink = _recorder(runtime, caught)
            return caught
        return None

    def leave():
        STATE.warning_filters[:], STATE.warning_sink = saved.pop()
    return ContextManager(enter, leave, label="warnings.catch_warnings")


WARNINGS = Namespace("warnings", table(
    entry("filterwarnings", _filterwarnings,
          "action, message='', category=NOT_GIVEN, module='', lineno=0, append=False"),
    entry("simplefilter", _simplefilter, "action, category=NOT_GIVEN, lineno=0, append=False"),
    entry("resetwarnings", _resetwarnings, ""),
    entry("warn", _warn, "message, category=None, stacklevel=1, source=None, *, "
          "skip_file_prefixes=()"),
    entry("catch_warnings", _catch_warnings, "*, record=False, module=None, action=None, "
          "category=NOT_GIVEN, lineno=0, append=False", context=True),
))
