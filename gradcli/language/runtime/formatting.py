"""`str.format` and printf-style `%` for the language's values, as Python formats them."""

from __future__ import annotations

import re

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.coercions import tensor_float, tensor_scalar
from gradcli.language.syntax.literals import split_braces
from gradcli.language.runtime.values import type_name


def _fields(template: str) -> list:
    """Literal text and (name, conversion, spec) fields of a format string, in order."""
    def read_field(start: int):
        end, depth = start, 1
        while end < len(template) and depth:
            depth += {"{": 1, "}": -1}.get(template[end], 0)
            end += 1
        if depth:
            raise ValueError("Single '{' encountered in format string" if start == len(template)
                             else "expected '}' before end of string")
        return end - 1, _split_field(template[start:end - 1])
    try:
        return list(split_braces(template, read_field, "Single '}' encountered in format string"))
    except ValueError as error:
        raise errors.value_error(str(error)) from None


def _split_field(text: str) -> tuple[str, str | None, str]:
    name, _, spec = text.partition(":")
    name, bang, conversion = name.partition("!")
    if bang and conversion not in ("r", "s", "a"):
        raise errors.value_error(f"Unknown conversion specifier {conversion}")
    if any(c in name for c in ".["):
        raise errors.value_error("gradcli's str.format takes plain field names (no attribute "
                                 "or item access)")
    return name, conversion if bang else None, spec


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


def _argument(name: str, args: tuple, kwargs: dict, state: dict):
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
    if not isinstance(value, (int, float)) and not (kind == "c" and isinstance(value, str)):
        need = "an integer" if kind in "oxXc" else "a real number"
        raise errors.type_error(f"%{kind} format: {need} is required, not {type_name(value)}")
    return directive % (*numbers, value)
