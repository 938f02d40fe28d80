"""Python's `logging` as scripts use it: basicConfig, the module's functions, getLogger's
loggers, StreamHandler and Formatter. Records are formatted by Python's own Formatter (the
'{' style naming fields only, as the '%' and '$' styles read them by key) and written through
the stream's write method; each run starts unconfigured, with the root logger at WARNING."""

from __future__ import annotations

import logging
import os
import string

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.runtime import attributes, protocols
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate, type_name

LEVELS = {"CRITICAL": 50, "FATAL": 50, "ERROR": 40, "WARNING": 30, "WARN": 30, "INFO": 20,
          "DEBUG": 10, "NOTSET": 0}
_NAMES = {50: "CRITICAL", 40: "ERROR", 30: "WARNING", 20: "INFO", 10: "DEBUG", 0: "NOTSET"}
_DEFAULT_FORMAT = "%(levelname)s:%(name)s:%(message)s"


def level_name(level):
    """logging.getLevelName: a level's name, or a name's level."""
    if isinstance(level, str) and level in LEVELS:
        return LEVELS[level]
    return _NAMES.get(level, f"Level {level}")


def _read_only(value, name: str):
    raise errors.TorchError("NotImplementedError", f"gradcli's logging does not let a program "
                            f"set {value.class_name}.{name}")


def _handler(value) -> "StreamHandler":
    if not isinstance(value, StreamHandler):
        raise errors.TorchError("NotImplementedError", "gradcli's logging emits through "
                                "logging.StreamHandler only")
    return value


def _check_level(level) -> int:
    if isinstance(level, int) and not isinstance(level, bool):
        return level
    if isinstance(level, str):
        if level not in LEVELS:
            raise errors.value_error(f"Unknown level: {level!r}")
        return LEVELS[level]
    raise errors.type_error(f"Level not an integer or a valid string: {level!r}")


def _plain_fields(fmt: str) -> None:
    """A '{'-style format may name the record's fields only: no attribute or item lookups
    (which would reach into the host record's values)."""
    try:
        parts = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # Python's Formatter reports the malformed format itself
    for _, field, _, spec in parts:
        if field and not field.isidentifier():
            raise errors.TorchError("NotImplementedError", "gradcli's logging formats name "
                                    "the record's fields only, without '.' or '[...]'")
        if spec:
            _plain_fields(spec)


class Formatter(TableObject):
    """logging.Formatter: Python's own, in any of its styles ('%', '{', '$')."""

    __slots__ = ("host",)

    def __init__(self, fmt=None, datefmt=None, style="%", validate=True):
        for text in (fmt, datefmt):
            if text is not None and not isinstance(text, str):
                raise errors.type_error("expected string or bytes-like object, got "
                                        f"'{type_name(text)}'")
        if style == "{" and fmt is not None:
            _plain_fields(fmt)
        try:
            self.host = logging.Formatter(fmt, datefmt, style, protocols.truth(validate))
        except (ValueError, TypeError) as error:
            raise errors.TorchError(type(error).__name__, str(error)) from None

    @property
    def language_type(self):
        return FORMATTER_TYPE

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        _read_only(self, name)

    def repr(self, printer) -> str:
        return f"<logging.Formatter object at 0x{id(self):x}>"


class StreamHandler(TableObject):
    """logging.StreamHandler: formatted records written to a stream of the program."""

    __slots__ = ("stream", "formatter", "level")

    def __init__(self, stream=None):
        self.stream, self.formatter, self.level = stream, None, 0

    @property
    def language_type(self):
        return HANDLER_TYPE

    def attribute(self, name: str):
        if name == "setFormatter":
            return entry("setFormatter", self._set_formatter, "fmt")
        if name == "setLevel":
            return entry("setLevel", self._set_level, "level")
        if name in ("level", "formatter", "stream"):
            return {"level": self.level, "formatter": self.formatter,
                    "stream": self._stream()}[name]
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        _read_only(self, name)

    def _set_formatter(self, fmt) -> None:
        self.formatter = fmt

    def _set_level(self, level) -> None:
        self.level = _check_level(level)

    def _stream(self):
        if self.stream is not None:
            return self.stream
        from gradcli.language.namespaces.python_sys import STDERR
        return STDERR

    def emit(self, ctx, record: logging.LogRecord) -> None:
        host = self.formatter.host if isinstance(self.formatter, Formatter) else _PLAIN
        try:
            text = host.format(record)
        except (ValueError, TypeError, KeyError) as error:
            raise errors.TorchError(type(error).__name__, str(error)) from None
        ctx.call(attributes.get(self._stream(), "write"), [text + "\n"], {})

    def repr(self, printer) -> str:
        return f"<StreamHandler {printer.repr(self._stream())} ({level_name(self.level)})>" \
            if self.stream is not None else f"<StreamHandler <stderr> ({level_name(self.level)})>"


_PLAIN = logging.Formatter()  # a handler without a formatter writes the message alone


class Logger(TableObject):
    """A logger of getLogger(name) (the root logger when `name` is "root")."""

    __slots__ = ("name", "level", "handlers", "propagate")

    def __init__(self, name: str, level: int = 0):
        self.name, self.level, self.handlers, self.propagate = name, level, [], True

    @property
    def language_type(self):
        return ROOT_LOGGER_TYPE if self.name == "root" else LOGGER_TYPE

    def parent(self) -> "Logger | None":
        if self.name == "root":
            return None
        loggers, name = _loggers(), self.name
        while "." in name:
            name = name.rsplit(".", 1)[0]
            if name in loggers:
                return loggers[name]
        return loggers["root"]

    def effective_level(self) -> int:
        logger = self
        while logger is not None:
            if logger.level:
                return logger.level
            logger = logger.parent()
        return 0

    def attribute(self, name: str):
        if name in _METHODS:
            return entry(name, lambda ctx, *args, **kwargs: _METHODS[name](ctx, self, *args,
                                                                           **kwargs),
                         "*args, **kwargs", context=True, qualname=f"Logger.{name}")
        if name in ("name", "level", "handlers", "propagate"):
            return {"name": self.name, "level": self.level, "handlers": self.handlers,
                    "propagate": self.propagate}[name]
        if name == "parent":
            return self.parent()
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        if name == "propagate":
            self.propagate = value
        elif name == "level":
            self.level = _check_level(value)
        else:
            _read_only(self, name)

    def log(self, ctx, level: int, msg, args: tuple) -> None:
        if level < self.effective_level():
            return
        message = ctx.printer.str(msg)
        if args:
            single = args[0] if len(args) == 1 and isinstance(args[0], dict) else args
            message = protocols.binary("%", message, single)
        record = logging.LogRecord(self.name, level, ctx.filename, ctx.line, message, None,
                                   None)
        record.module = os.path.splitext(os.path.basename(ctx.filename))[0]
        record.funcName = ctx.calls[-1][0] if ctx.calls else "<module>"
        found, logger = False, self
        while logger is not None:
            for handler in map(_handler, list(logger.handlers)):
                found = True
                if level >= handler.level:
                    handler.emit(ctx, record)
            logger = logger.parent() if logger.propagate else None
        if not found and level >= LEVELS["WARNING"]:  # Python's handler of last resort
            StreamHandler().emit(ctx, record)

    def repr(self, printer) -> str:
        kind = "RootLogger" if self.name == "root" else "Logger"
        return f"<{kind} {self.name} ({level_name(self.effective_level())})>"


def _loggers() -> dict:
    """This run's loggers by name (the engine's flags start empty for each run)."""
    loggers = STATE.flags.get("logging.loggers")
    if loggers is None:
        loggers = STATE.flags["logging.loggers"] = {"root": Logger("root", LEVELS["WARNING"])}
    return loggers


def library_warning(ctx, name: str, message: str) -> None:
    """A library's `logging.getLogger(name).warning(message)` (matplotlib's loggers): through
    the program's handlers, or Python's handler of last resort."""
    _get_logger(name).log(ctx, LEVELS["WARNING"], message, ())


def _get_logger(name=None):
    if name is not None and not isinstance(name, str):
        raise errors.type_error("A logger name must be a string")
    loggers = _loggers()
    if not name or name == "root":
        return loggers["root"]
    if name not in loggers:
        loggers[name] = Logger(name)
    return loggers[name]


def _at(name: str, level_of):
    def log(ctx, logger, *args, **kwargs):
        level, args = level_of(name, args)
        if not args:
            raise errors.type_error(f"Logger.{name}() missing 1 required positional argument: "
                                    "'msg'")
        for key in kwargs:
            if key not in ("exc_info", "stack_info", "stacklevel", "extra"):
                raise errors.type_error(f"Logger.{name}() got an unexpected keyword argument "
                                        f"'{key}'")
        logger.log(ctx, level, args[0], args[1:])
    return log


def _leveled(name: str, args: tuple):
    if not args:
        raise errors.type_error("Logger.log() missing 2 required positional arguments: 'level' "
                                "and 'msg'")
    level = args[0]
    if not isinstance(level, int) or isinstance(level, bool):
        raise errors.type_error("level must be an integer")
    return level, args[1:]


_METHODS = {
    **{name.lower(): _at(name.lower(), lambda name, args, level=level: (level, args))
       for name, level in (
        ("DEBUG", 10), ("INFO", 20), ("WARNING", 30), ("WARN", 30), ("ERROR", 40),
        ("CRITICAL", 50), ("FATAL", 50))},
    "log": _at("log", _leveled),
    "setLevel": lambda ctx, logger, level: setattr(logger, "level", _check_level(level)),
    "getEffectiveLevel": lambda ctx, logger: logger.effective_level(),
    "isEnabledFor": lambda ctx, logger, level: level >= logger.effective_level(),
    "addHandler": lambda ctx, logger, handler: logger.handlers.append(handler)
    if handler not in logger.handlers else None,
    "removeHandler": lambda ctx, logger, handler: logger.handlers.remove(handler)
    if handler in logger.handlers else None,
    "hasHandlers": lambda ctx, logger: _has_handlers(logger),
    "getChild": lambda ctx, logger, suffix: _get_logger(
        suffix if logger.name == "root" else f"{logger.name}.{suffix}"),
}


def _has_handlers(logger) -> bool:
    while logger is not None:
        if logger.handlers:
            return True
        logger = logger.parent() if logger.propagate else None
    return False


def _basic_config(**kwargs) -> None:
    """logging.basicConfig: a handler on the root logger, unless it has one (or force=True)."""
    root = _loggers()["root"]
    if kwargs.pop("force", False):
        root.handlers.clear()
    if root.handlers:
        return
    if "filename" in kwargs or "filemode" in kwargs:
        if "stream" in kwargs:
            raise errors.value_error("'stream' and 'filename' should not be specified together")
        raise errors.TorchError("NotImplementedError", "gradcli's logging does not write files")
    handlers = kwargs.pop("handlers", None)
    if handlers is not None and "stream" in kwargs:
        raise errors.value_error("'stream' and 'handlers' should not be specified together")
    stream = kwargs.pop("stream", None)
    style = kwargs.pop("style", "%")
    formatter = Formatter(kwargs.pop("format", _DEFAULT_FORMAT), kwargs.pop("datefmt", None),
                          style)
    level = kwargs.pop("level", None)
    kwargs.pop("encoding", None), kwargs.pop("errors", None)
    if kwargs:
        raise errors.value_error(f"Unrecognised argument(s): {', '.join(kwargs)}")
    for handler in map(_handler, list(iterate(handlers)) if handlers is not None
                       else [StreamHandler(stream)]):
        if handler.formatter is None:
            handler.formatter = formatter
        root.handlers.append(handler)
    if level is not None:
        root.level = _check_level(level)


def _module_function(name: str):
    def log(ctx, *args, **kwargs):
        root = _loggers()["root"]
        if not root.handlers:
            _basic_config()
        _METHODS[name](ctx, root, *args, **kwargs)
    return entry(name, log, "*args, **kwargs", context=True, frames=0)


def _refused(name: str):
    def refuse(*args, **kwargs):
        raise errors.TorchError("NotImplementedError", f"gradcli does not support logging.{name} "
                                "yet")
    return entry(name, refuse, "*args, **kwargs", frames=0)


LOGGER_TYPE = PyType("logging.Logger", (Logger,))
ROOT_LOGGER_TYPE = PyType("logging.RootLogger", (Logger,))
FORMATTER_TYPE = PyType("logging.Formatter", (Formatter,), entry(
    "Formatter", Formatter, "fmt=None, datefmt=None, style='%', validate=True", frames=0))
HANDLER_TYPE = PyType("logging.StreamHandler", (StreamHandler,), entry(
    "StreamHandler", StreamHandler, "stream=None", frames=0))
LOGGING = Namespace("logging", table(
    entry("basicConfig", _basic_config, "**kwargs", frames=0),
    entry("getLogger", _get_logger, "name=None", frames=0),
    entry("getLevelName", level_name, "level", frames=0),
    *(_module_function(name) for name in ("debug", "info", "warning", "warn", "error",
                                          "critical", "fatal", "log")),
    *(_refused(name) for name in ("exception", "FileHandler", "disable", "captureWarnings",
                                  "addLevelName", "shutdown")),
) | LEVELS | {"Logger": LOGGER_TYPE, "Formatter": FORMATTER_TYPE, "StreamHandler": HANDLER_TYPE})
