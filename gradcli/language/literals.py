"""Python literals without eval: numbers, string escapes, and the pieces of an f-string."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0",
            "a": "\a", "b": "\b", "f": "\f", "v": "\v", "\n": ""}
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.|\n)", re.S)


def number(text: str) -> int | float:
    text = text.replace("_", "")
    if text[:2].lower() == "0x":
        return int(text, 16)
    if any(c in text for c in ".eE"):
        return float(text)
    return int(text)


def _unescape(body: str) -> str:
    def replace(match):
        code = match.group(1)
        if code[0] in "xuU" and len(code) > 1:
            return chr(int(code[1:], 16))
        return _ESCAPES.get(code, "\\" + code)
    return _ESCAPE.sub(replace, body)


@dataclass(frozen=True)
class Field:
    """One `{expression!conversion:spec}` of an f-string; the spec may hold fields of its own."""

    expression: str
    conversion: str | None
    spec: tuple
    offset: int  # where the expression starts inside the literal token


def split_token(token: str) -> tuple[str, str, int]:
    """(prefix letters, body, offset of the body) of a string token."""
    prefix = re.match(r"[rRfFbBuU]*", token).group(0)
    quote = token[len(prefix):len(prefix) + 3]
    width = 3 if quote in ("'''", '"""') else 1
    return prefix.lower(), token[len(prefix) + width:len(token) - width], len(prefix) + width


def string(token: str) -> str | tuple:
    """A plain string, or for an f-string a tuple of str and Field parts."""
    prefix, body, offset = split_token(token)
    raw = "r" in prefix
    if "f" not in prefix:
        return body if raw else _unescape(body)
    return tuple(_fstring_parts(body, raw, offset))


def _fstring_parts(body: str, raw: bool, offset: int):
    i, literal = 0, []
    while i < len(body):
        ch = body[i]
        if ch in "{}" and body[i + 1:i + 2] == ch:
            literal.append(ch)
            i += 2
            continue
        if ch == "}":
            raise ValueError("f-string: single '}' is not allowed")
        if ch != "{":
            literal.append(ch)
            i += 1
            continue
        if literal:
            text = "".join(literal)
            yield text if raw else _unescape(text)
            literal = []
        end, field = _field(body, i + 1, raw, offset)
        yield field
        i = end + 1
    if literal:
        text = "".join(literal)
        yield text if raw else _unescape(text)


def _field(body: str, start: int, raw: bool, offset: int) -> tuple[int, Field]:
    """Parse `expr[!c][:spec]}` from `start`; return the index of the closing brace and the field."""
    depth, i, quote = 0, start, None
    while i < len(body):
        ch = body[i]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}" and depth:
            depth -= 1
        elif depth == 0 and (ch in "}:" or (ch == "!" and body[i + 1:i + 2] != "=")):
            break
        i += 1
    else:
        raise ValueError("f-string: expecting '}'")
    expression = body[start:i]
    if not expression.strip():
        raise ValueError("f-string: valid expression required before '}'")
    conversion = None
    if body[i] == "!":
        conversion, i = body[i + 1:i + 2], i + 2
    spec: tuple = ()
    if body[i] == ":":
        spec_start, depth = i + 1, 0
        i += 1
        while i < len(body) and (body[i] != "}" or depth):
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            i += 1
        spec = tuple(_fstring_parts(body[spec_start:i], raw, offset + spec_start))
    if i >= len(body) or body[i] != "}":
        raise ValueError("f-string: expecting '}'")
    return i, Field(expression, conversion, spec, offset + start)
