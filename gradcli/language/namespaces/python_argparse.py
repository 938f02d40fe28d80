"""Python's `argparse` as training scripts' main() uses it: Python's own parser behind a table.
A program's `type=` functions are called through the interpreter; the command line parsed by
default is the program's sys.argv; help and errors are written as Python writes them, and an
error ends the program with status 2 as Python's does."""

from __future__ import annotations

import argparse
import sys

from gradcli.engine import errors
from gradcli.language.namespaces.python_sys import STDOUT, argv, exit_program
from gradcli.language.runtime.exceptions import module_exception
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.objects import TableInstance, TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import Namespace, iterate, type_name

_FORMATTERS = {formatter.__name__: formatter for formatter in (
    argparse.HelpFormatter, argparse.ArgumentDefaultsHelpFormatter,
    argparse.RawTextHelpFormatter, argparse.RawDescriptionHelpFormatter,
    argparse.MetavarTypeHelpFormatter)}


class _Parser(argparse.ArgumentParser):
    """Python's parser, writing to the program's output and ending it with SystemExit."""

    ctx = None

    def _print_message(self, message, file=None):
        if message:
            (sys.stderr.write if file is sys.stderr else self.ctx.write)(message)

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        exit_program(status)


class ArgsNamespace(TableInstance):
    """argparse.Namespace: the parsed values as attributes, printed as Python prints them."""

    __slots__ = ("attrs",)
    own_dict = True
    own_dunders = frozenset({"__dict__"})

    def __init__(self, attrs: dict):
        self.attrs = attrs

    @property
    def language_type(self) -> PyType:
        return NAMESPACE_TYPE

    def delete_attribute(self, name: str) -> None:
        if name not in self.attrs:
            raise self.missing(name)
        del self.attrs[name]

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        if op == "in" and reflected:  # `name in args`: whether it has that attribute
            return other in self.attrs
        return NotImplemented

    def __eq__(self, other):  # Namespace.__eq__: the same attributes (and so unhashable)
        if isinstance(other, ArgsNamespace) and other.language_type is NAMESPACE_TYPE:
            return self.attrs == other.attrs
        return NotImplemented

    __hash__ = None

    def repr(self, printer) -> str:
        named = [f"{k}={printer.repr(v)}" for k, v in self.attrs.items() if k.isidentifier()]
        other = {k: v for k, v in self.attrs.items() if not k.isidentifier()}
        if other:
            named.append(f"**{printer.repr(other)}")
        return f"Namespace({', '.join(named)})"


class Action(TableObject):
    """What add_argument returns: the argument's settings, read-only."""

    __slots__ = ("host", "type")
    FIELDS = ("option_strings", "dest", "nargs", "const", "default", "type", "choices",
              "required", "help", "metavar")

    def __init__(self, host, type_):
        self.host, self.type = host, type_

    @property
    def language_type(self) -> PyType:
        return PyType(f"argparse.{type(self.host).__name__}", ())

    def attribute(self, name: str):
        if name not in self.FIELDS:
            raise self.missing(name)
        return self.type if name == "type" else vars(self.host)[name]

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("NotImplementedError", "gradcli's argparse actions are "
                                "read-only")

    def repr(self, printer) -> str:
        fields = ", ".join(f"{name}={printer.repr(self.attribute(name))}" for name in
                           self.FIELDS)
        return f"{type(self.host).__name__}({fields})"


class SubParsers(Action):
    """What add_subparsers returns: add_parser makes each sub-command's parser."""

    __slots__ = ("ctx",)

    def __init__(self, ctx, host):
        super().__init__(host, None)
        self.ctx = ctx

    def attribute(self, name: str):
        if name == "add_parser":
            return entry("add_parser", self._add_parser, "name, **kwargs",
                         qualname="_SubParsersAction.add_parser")
        return super().attribute(name)

    def _add_parser(self, name, **kwargs):
        if "parents" in kwargs or "formatter_class" in kwargs:
            raise errors.TorchError("NotImplementedError", "gradcli's add_parser takes no "
                                    "parents or formatter_class")
        parser = _host_errors(lambda: self.host.add_parser(name, **kwargs))
        parser.ctx = self.ctx
        return Group(self.ctx, parser)


def _converter(ctx, function):
    """A `type=` function for Python's parser: the program's, called through the interpreter;
    its TypeError or ValueError becomes Python's `invalid <type> value` error."""
    def convert(text):
        try:
            return ctx.call(function, [text], {})
        except (errors.TorchError, GradRuntimeError) as error:
            if error.kind in ("TypeError", "ValueError"):
                raise ValueError(error.message) from None
            if error.kind == "ArgumentTypeError":  # its message is the whole complaint
                raise argparse.ArgumentTypeError(error.message) from None
            raise
    convert.__name__ = getattr(function, "name", None) or type_name(function)
    return convert


def _host_errors(call):
    """Python's own errors from the parser's set-up (a bad option string) as the language's."""
    try:
        return call()
    except (ValueError, TypeError, argparse.ArgumentError) as error:
        kind = "ArgumentError" if isinstance(error, argparse.ArgumentError) else \
            type(error).__name__
        raise errors.TorchError(kind, str(error)) from None


class Group(TableObject):
    """A parser, or one of its argument groups: add_argument and, for a parser, parsing."""

    __slots__ = ("ctx", "host", "parser")

    def __init__(self, ctx, host, parser=None):
        self.ctx, self.host, self.parser = ctx, host, parser or host

    @property
    def language_type(self) -> PyType:
        return PARSER_TYPE if self.host is self.parser else PyType(
            f"argparse.{type(self.host).__name__}", ())

    def _add_argument(self, *names, **kwargs):
        action, type_ = kwargs.get("action"), kwargs.get("type")
        if action is not None and not isinstance(action, str):
            raise errors.TorchError("NotImplementedError", "gradcli's argparse takes an "
                                    "action's name (action='store_true'...), not a class")
        if type_ is not None:
            kwargs["type"] = _converter(self.ctx, type_)
        if "choices" in kwargs and kwargs["choices"] is not None:
            kwargs["choices"] = list(iterate(kwargs["choices"]))
        return Action(_host_errors(lambda: self.host.add_argument(*names, **kwargs)), type_)

    def _parse(self, args=None, namespace=None, known=False):
        if namespace is not None:
            raise errors.TorchError("NotImplementedError", "gradcli's parse_args takes no "
                                    "namespace")
        args = argv()[1:] if args is None else [a for a in iterate(args)]
        for arg in args:
            if not isinstance(arg, str):
                raise errors.type_error(f"expected string or bytes-like object, got "
                                        f"'{type_name(arg)}'")
        self.parser.ctx = self.ctx
        if known:
            parsed, rest = self.parser.parse_known_args(args)
            return ArgsNamespace(vars(parsed)), rest
        return ArgsNamespace(vars(self.parser.parse_args(args)))

    def _group(self, method: str, title=None, description=None, **kwargs):
        if method == "add_argument_group":
            return Group(self.ctx, self.host.add_argument_group(title, description, **kwargs),
                         self.parser)
        return Group(self.ctx, self.host.add_mutually_exclusive_group(**kwargs), self.parser)

    def _subparsers(self, **kwargs):
        if "action" in kwargs or "parser_class" in kwargs:
            raise errors.TorchError("NotImplementedError", "gradcli's add_subparsers takes no "
                                    "action or parser_class")
        return SubParsers(self.ctx, _host_errors(lambda: self.host.add_subparsers(**kwargs)))

    def _write(self, text: str, file) -> None:
        self.parser.ctx = self.ctx
        if file is not None and file is not STDOUT:
            raise errors.TorchError("NotImplementedError", "gradcli's argparse prints to "
                                    "standard output only")
        self.ctx.write(text)

    def attribute(self, name: str):
        methods = {
            "add_argument": (self._add_argument, "*args, **kwargs"),
            "add_argument_group": (lambda *a, **k: self._group(name, *a, **k),
                                   "title=None, description=None, **kwargs"),
            "add_mutually_exclusive_group": (lambda **k: self._group(name, **k),
                                             "*, required=False"),
        }
        if self.host is self.parser:
            methods["add_subparsers"] = (self._subparsers, "**kwargs")
        if self.host is self.parser:
            methods.update({
                "parse_args": (self._parse, "args=None, namespace=None"),
                "parse_known_args": (lambda args=None, namespace=None: self._parse(
                    args, namespace, known=True), "args=None, namespace=None"),
                "print_help": (lambda file=None: self._write(self.parser.format_help(), file),
                               "file=None"),
                "print_usage": (lambda file=None: self._write(self.parser.format_usage(),
                                                              file), "file=None"),
                "format_help": (self.parser.format_help, ""),
                "format_usage": (self.parser.format_usage, ""),
                "set_defaults": (lambda **kwargs: self.parser.set_defaults(**kwargs),
                                 "**kwargs"),
                "get_default": (self.parser.get_default, "dest"),
                "error": (self._error, "message"),
            })
        if name in ("prog", "description", "epilog") and self.host is self.parser:
            return vars(self.parser)[name]
        if name not in methods:
            raise self.missing(name)
        function, spec = methods[name]
        return entry(name, function, spec, qualname=f"{self.class_name}.{name}")

    def _error(self, message):
        self.parser.ctx = self.ctx
        self.parser.error(self.ctx.printer.str(message))

    def set_attribute(self, name: str, value) -> None:
        if self.host is self.parser and name in ("prog", "description", "epilog"):
            vars(self.parser)[name] = value
            return
        raise errors.TorchError("NotImplementedError", f"gradcli does not support setting "
                                f"{self.class_name}.{name}")

    def repr(self, printer) -> str:
        if self.host is not self.parser:
            return f"<argparse.{type(self.host).__name__} object at 0x{id(self):x}>"
        fields = ("prog", "usage", "description", "formatter_class", "conflict_handler",
                  "add_help")
        shown = {name: vars(self.parser)[name] for name in fields}
        shown["formatter_class"] = FORMATTER_TYPES[shown["formatter_class"].__name__]
        return f"ArgumentParser({', '.join(f'{k}={printer.repr(v)}' for k, v in shown.items())})"


def _argument_parser(ctx, prog=None, usage=None, description=None, epilog=None, parents=(),
                     formatter_class=None, prefix_chars="-", fromfile_prefix_chars=None,
                     argument_default=None, conflict_handler="error", add_help=True,
                     allow_abbrev=True, exit_on_error=True) -> Group:
    if parents:
        raise errors.TorchError("NotImplementedError", "gradcli's ArgumentParser takes no "
                                "parents")
    formatter = argparse.HelpFormatter
    if formatter_class is not None:
        formatter = next((_FORMATTERS[name] for name, kind in FORMATTER_TYPES.items()
                          if kind is formatter_class), None)
        if formatter is None:
            raise errors.TorchError("NotImplementedError", "gradcli's ArgumentParser takes "
                                    "argparse's own formatter classes only")
    if prog is None:
        prog = argv()[0].rsplit("/", 1)[-1]
    parser = _host_errors(lambda: _Parser(
        prog, usage, description, epilog, formatter_class=formatter, prefix_chars=prefix_chars,
        fromfile_prefix_chars=None, argument_default=argument_default,
        conflict_handler=conflict_handler, add_help=add_help, allow_abbrev=allow_abbrev,
        exit_on_error=exit_on_error))
    if fromfile_prefix_chars is not None:
        raise errors.TorchError("NotImplementedError", "gradcli's ArgumentParser reads no "
                                "files (fromfile_prefix_chars)")
    parser.ctx = ctx
    return Group(ctx, parser)


PARSER_TYPE = PyType("argparse.ArgumentParser", (), entry(
    "ArgumentParser", _argument_parser, "prog=None, usage=None, description=None, epilog=None, "
    "parents=(), formatter_class=None, prefix_chars='-', fromfile_prefix_chars=None, "
    "argument_default=None, conflict_handler='error', add_help=True, allow_abbrev=True, "
    "exit_on_error=True", context=True, frames=0))
NAMESPACE_TYPE = PyType("argparse.Namespace", (ArgsNamespace,), entry(
    "Namespace", lambda **kwargs: ArgsNamespace(dict(kwargs)), "**kwargs", frames=0))
FORMATTER_TYPES = {name: PyType(f"argparse.{name}", ()) for name in _FORMATTERS}

ARGPARSE = Namespace("argparse", {
    "ArgumentParser": PARSER_TYPE, "Namespace": NAMESPACE_TYPE, **FORMATTER_TYPES,
    "SUPPRESS": argparse.SUPPRESS, "REMAINDER": argparse.REMAINDER,
    "OPTIONAL": argparse.OPTIONAL, "ZERO_OR_MORE": argparse.ZERO_OR_MORE,
    "ONE_OR_MORE": argparse.ONE_OR_MORE,
    "ArgumentTypeError": module_exception("argparse.ArgumentTypeError",
                                          argparse.ArgumentTypeError),
})
