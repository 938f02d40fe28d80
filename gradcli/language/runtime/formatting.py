"""`str.format` and printf-style `%` for the language's values, as Python formats them."""

from __future__ import annotations

import re

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.arrays import ARRAY_TYPES
from gradcli.language.runtime import protocols
from gradcli.language.runtime.coercions import tensor_float, tensor_scalar
from gradcli.language.syntax.literals import split_braces
from gradcli.language.runtime.values import type_name


def _fields(template: str) -> list:
    """Literal text and (name, conversion, spec) fields of a format string, in order."""
    try:
        return list(split_braces(template, lambda start: _parse_field(template, start),
                                 "Single '}' encountered in format string"))
    except ValueError as error:
        raise errors.value_error(str(error)) from None


def _parse_field(template: str, i: int) -> tuple[int, tuple]:
    """The field whose `{` is at i - 1, as CPython's parse_field reads it: its name runs to a
    ':', '!' or '}' outside brackets, a conversion is one character, and the spec runs to the
    matching '}'. (index of the closing brace, (name, conversion, spec))."""
    start, end = i, len(template)
    if i == end:
        raise ValueError("Single '{' encountered in format string")
    while i < end:
        char = template[i]
        i += 1
        if char == "{":
            raise ValueError("unexpected '{' in field name")
        if char == "[":
            close = template.find("]", i)
            i = end if close < 0 else close
        elif char in "}:!":
            break
    else:
        char = ""
    name = template[start:i - 1] if char else template[start:]
    conversion = None
    if char == "!":
        if i >= end:
            raise ValueError("end of string while looking for conversion specifier")
        conversion, i = template[i], i + 1
        if i < end:
            char, i = template[i], i + 1
            if char == "}":
                return i - 1, (name, _checked(conversion), "")
            if char != ":":
                raise ValueError("expected ':' after conversion specifier")
    if char and char in ":!":
        spec_start, depth = i, 1
        while i < end:
            depth += {"{": 1, "}": -1}.get(template[i], 0)
            i += 1
            if not depth:
                return i - 1, (name, _checked(conversion), template[spec_start:i - 1])
        raise ValueError("unmatched '{' in format spec")
    if char != "}":
        raise ValueError("expected '}' before end of string")
    return i - 1, (name, None, "")


def _checked(conversion: str | None) -> str | None:
    if conversion not in (None, "r", "s", "a"):
        raise errors.value_error(f"Unknown conversion specifier {conversion}")
    return conversion


def _field_path(name: str) -> tuple[str, list]:
    """Python's split of a field name: the argument's name, then its ('.', attribute) and
    ('[', index) accessors (an index of digits is an int), with Python's errors."""
    start = min((i for i in (name.find("."), name.find("[")) if i >= 0), default=len(name))
    first, rest, path = name[:start], name[start:], []
    while rest:
        if rest[0] == ".":
            end = min((i for i in (rest.find(".", 1), rest.find("[", 1)) if i >= 0),
                      default=len(rest))
            key, rest = rest[1:end], rest[end:]
            path.append((".", key))
        else:
            end = rest.find("]")
            if end < 0:
                raise errors.value_error("Missing ']' in format string")
            key, rest = rest[1:end], rest[end + 1:]
            path.append(("[", int(key) if key.isdigit() else key))
        if key == "":
            raise errors.value_error("Empty attribute in format string")
        if path[-1][0] == "[" and rest and rest[0] not in ".[":
            raise errors.value_error("Only '.' or '[' may follow ']' in format field specifier")
    return first, path


def str_format(printer, template: str, args: tuple, kwargs: dict) -> str:
    """template.format(*args, **kwargs)."""
    out, state = [], {"next": 0, "mode": None}
    for part in _fields(template):
        if isinstance(part, str):
            out.append(part)
            continue
        name, conversion, spec = part
        value = _argument(name, args, kwargs, state)
        if "{" in spec:
            spec = _nested_spec(printer, spec, args, kwargs, state)
        out.append(printer.format_field(value, conversion, spec))
    return "".join(out)


def _nested_spec(printer, spec: str, args, kwargs, state) -> str:
    pieces = []
    for part in _fields(spec):
        if isinstance(part, str):
            pieces.append(part)
        else:
            pieces.append(printer.format(_argument(part[0], args, kwargs, state), part[2]))
    return "".join(pieces)


def _argument(field: str, args: tuple, kwargs: dict, state: dict):
    """The value a field names: its argument, then each attribute or item it reads."""
    name, path = _field_path(field)
    value = _named_argument(name, args, kwargs, state)
    for kind, key in path:
        value = protocols.get_attribute(value, key) if kind == "." else \
            protocols.get_item(value, key)
    return value


class ByItem:
    """str.format_map's mapping: each field read by the mapping's own [] (so a dict subclass's
    __missing__ answers for a missing key)."""

    __slots__ = ("mapping",)

    def __init__(self, mapping):
        self.mapping = mapping

    def __contains__(self, name) -> bool:
        return True

    def __getitem__(self, name):
        return protocols.get_item(self.mapping, name)


def _named_argument(name: str, args: tuple, kwargs: dict, state: dict):
    if isinstance(kwargs, ByItem) and (name == "" or name.isdigit()):
        raise errors.value_error("Format string contains positional fields")
    if name == "":
        if state["mode"] == "manual":
            raise errors.value_error("cannot switch from manual field specification to "
                                     "automatic field numbering")
        state["mode"], number = "auto", state["next"]
        state["next"] += 1
    elif name.isdigit():
        if state["mode"] == "auto":
            raise errors.value_error("cannot switch from automatic field numbering to manual "
                                     "field specification")
        state["mode"], number = "manual", int(name)
    else:
        if name not in kwargs:
            raise errors.TorchError("KeyError", repr(name), (name,))
        return kwargs[name]
    if number >= len(args):
        raise errors.index_error(
            f"Replacement index {number} out of range for positional args tuple")
    return args[number]


_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[#0\- +]*)(?P<width>\*|\d+)?"
                      r"(?:\.(?P<precision>\*|\d+))?[hlL]?(?P<type>.)?", re.S)
_NUMERIC = set("diouxXeEfFgGc")


def percent_format(printer, template: str, values) -> str:
    """template % values, converting the language's values to what each directive reads."""
    mapping = values if isinstance(values, dict) else None
    items = list(values) if isinstance(values, tuple) else [values]
    pieces, position, used = [], 0, 0
    for match in _PERCENT.finditer(template):
        pieces.append(template[position:match.start()])
        position = match.end()
        kind = match.group("type")
        if kind == "%":
            pieces.append("%")
            continue
        if kind is None:
            raise errors.value_error("incomplete format")
        directive = match.group(0)
        stars = [g for g in (match.group("width"), match.group("precision")) if g == "*"]
        numbers = []
        for _ in stars:
            numbers.append(_next(items, used))
            used += 1
        if match.group("key") is not None:
            if mapping is None:
                raise errors.type_error("format requires a mapping")
            if match.group("key") not in mapping:
                raise errors.TorchError("KeyError", repr(match.group("key")),
                                        (match.group("key"),))
            value = mapping[match.group("key")]
            directive = directive.replace(f"({match.group('key')})", "", 1)
        else:
            value = _next(items, used)
            used += 1
        pieces.append(_directive(printer, directive, kind, value, numbers, match.end() - 1))
    if mapping is None and used < len(items):
        raise errors.type_error("not all arguments converted during string formatting")
    pieces.append(template[position:])
    return "".join(pieces)


def _next(items: list, used: int):
    if used >= len(items):
        raise errors.type_error("not enough arguments for format string")
    return items[used]


def _directive(printer, directive: str, kind: str, value, numbers: list, at: int) -> str:
    if kind in "rsa":
        text = printer.repr(value) if kind != "s" else printer.str(value)
        if kind == "a":
            text = ascii(text)[1:-1]
        return (directive[:-1] + "s") % (*numbers, text)
    if kind not in _NUMERIC:
        raise errors.value_error(f"unsupported format character '{kind}' "
                                 f"(0x{ord(kind):x}) at index {at}")
    if isinstance(value, Tensor):
        value = tensor_float(value) if kind in "eEfFgG" else tensor_scalar(value)
    if isinstance(value, ARRAY_TYPES):  # NumPy's own __float__/__int__/__index__ decide
        try:
            return directive % (*numbers, value)
        except TypeError as error:
            raise errors.type_error(str(error)) from None
    if not isinstance(value, (int, float)) and not (kind == "c" and isinstance(value, str)):
        if kind == "c":
            raise errors.type_error("%c requires int or char")
        if kind in "eEfFgG":  # as Python's float conversion words it
            raise errors.type_error(f"must be real number, not {type_name(value)}")
        need = "an integer" if kind in "oxX" else "a real number"
        raise errors.type_error(f"%{kind} format: {need} is required, not {type_name(value)}")
    return directive % (*numbers, value)
