"""Python's `pprint` module: Python's own pretty printer, over a copy of the value in which
everything but Python's plain containers and scalars stands as its language repr (a tensor
prints as torch prints it)."""

from __future__ import annotations

import pprint
from collections import Counter, OrderedDict, deque

from gradcli.engine import errors
from gradcli.language.namespaces.python_io import StringIO, host_errors
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_SCALARS = (str, int, float, bool, complex, bytes, type(None))
_CONTAINERS = (dict, list, tuple, set, frozenset, OrderedDict, Counter, deque)


class _Shown:
    """A value the pretty printer shows by the repr the language gives it."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _plain(value, printer, copies: dict):
    """`value` with Python's own containers copied (cycles kept) and any other value shown."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind not in _CONTAINERS:
        return _Shown(printer.repr(value))
    if id(value) in copies:
        return copies[id(value)]
    if kind in (list, deque):
        copy = copies[id(value)] = [] if kind is list else deque(maxlen=value.maxlen)
        copy.extend(_plain(item, printer, copies) for item in value)
    elif kind in (dict, OrderedDict, Counter):  # pprint lays out each of these its own way
        copy = copies[id(value)] = kind()
        for key, item in value.items():
            copy[_plain(key, printer, copies)] = _plain(item, printer, copies)
    else:  # tuples and sets hold no cycle of their own
        copy = copies[id(value)] = kind(_plain(item, printer, copies) for item in value)
    return copy


def _format(ctx, value, indent, width, depth, compact, sort_dicts, underscore_numbers) -> str:
    with host_errors():
        printer = pprint.PrettyPrinter(indent=indent, width=width, depth=depth, compact=compact,
                                       sort_dicts=sort_dicts,
                                       underscore_numbers=underscore_numbers)
        return printer.pformat(_plain(value, ctx.printer, {}))


def _pprint(ctx, value, stream, indent, width, depth, compact, sort_dicts, underscore_numbers):
    text = _format(ctx, value, indent, width, depth, compact, sort_dicts,
                   underscore_numbers) + "\n"
    if stream is None:
        ctx.write(text)
    elif isinstance(stream, StringIO):
        with host_errors():
            stream.host.write(text)
    else:
        raise errors.TorchError("NotImplementedError", "gradcli's pprint writes to standard "
                                "output or an io.StringIO only")


_OPTIONS = "indent=1, width=80, depth=None, *, compact=False, sort_dicts=True, " \
           "underscore_numbers=False"


class PrettyPrinter(TableInstance):
    """pprint.PrettyPrinter: its options kept (checked as Python checks them), for its pprint
    and pformat."""

    def __init__(self, stream, options: tuple):
        self.stream, self.options = stream, options
        self.attrs: dict = {}

    @property
    def language_type(self) -> PyType:
        return PRETTY_PRINTER_TYPE

    def repr(self, printer) -> str:
        return f"<pprint.PrettyPrinter object at 0x{id(self):x}>"


def _pretty_printer(indent=1, width=80, depth=None, stream=None, *, compact=False,
                    sort_dicts=True, underscore_numbers=False):
    options = (indent, width, depth, compact, sort_dicts, underscore_numbers)
    with host_errors():  # Python's own argument checks
        pprint.PrettyPrinter(indent=indent, width=width, depth=depth, compact=compact,
                             sort_dicts=sort_dicts, underscore_numbers=underscore_numbers)
    return PrettyPrinter(stream, options)


PrettyPrinter.METHODS = table(
    entry("pprint", lambda ctx, pp, value: _pprint(ctx, value, pp.stream, *pp.options),
          "self, object", context=True, qualname="PrettyPrinter.pprint"),
    entry("pformat", lambda ctx, pp, value: _format(ctx, value, *pp.options),
          "self, object", context=True, qualname="PrettyPrinter.pformat"),
)
PRETTY_PRINTER_TYPE = PyType("pprint.PrettyPrinter", (PrettyPrinter,), entry(
    "PrettyPrinter", _pretty_printer, "indent=1, width=80, depth=None, stream=None, *, "
    "compact=False, sort_dicts=True, underscore_numbers=False", frames=0))
PPRINT = Namespace("pprint", {"PrettyPrinter": PRETTY_PRINTER_TYPE} | table(
    entry("pprint", _pprint, f"object, stream=None, {_OPTIONS}", context=True),
    entry("pformat", _format, f"object, {_OPTIONS}", context=True),
    entry("pp", _pprint, f"object, stream=None, {_OPTIONS.replace('=True', '=False')}",
          context=True),
    entry("saferepr", lambda ctx, value: pprint.saferepr(_plain(value, ctx.printer, {})),
          "object", context=True),
))

