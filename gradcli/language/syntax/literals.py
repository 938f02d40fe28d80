"""Python literals without eval: numbers, string escapes, and f-strings split into text and
fields (compiler/strings.py compiles the fields)."""

from __future__ import annotations

import re

from gradcli.engine.records import record

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"',
            "a": "\a", "b": "\b", "f": "\f", "v": "\v", "\n": ""}
_ESCAPE = re.compile(
    r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|[0-7]{1,3}|.|\n)", re.S)


def number(text: str) -> int | float | complex:
    text = text.replace("_", "")
    if text[-1] in "jJ":  # an imaginary literal
        return complex(0.0, float(text[:-1]))
    base = {"0x": 16, "0o": 8, "0b": 2}.get(text[:2].lower())
    if base is not None:
        return int(text[2:], base)
    if any(c in text for c in ".eE"):
        return float(text)
    return int(text)


def _unescape(body: str, text: bool = True) -> str:
    def replace(match):
        code = match.group(1)
        if code[0] in ("xuU" if text else "x") and len(code) > 1:
            return chr(int(code[1:], 16))
        if code[0] in "01234567":  # an octal escape, \0 among them
            return chr(int(code, 8))
        if text and code[0] == "N" and len(code) > 1:  # \N{GREEK SMALL LETTER ALPHA}
            try:
                import unicodedata  # (for \N{...} only: not at start-up)
                return unicodedata.lookup(code[2:-1])
            except KeyError:
                raise ValueError("(unicode error) 'unicodeescape' codec can't decode bytes: "
                                 "unknown Unicode character name") from None
        return _ESCAPES.get(code, "\\" + code)
    return _ESCAPE.sub(replace, body)


@record(frozen=True)
class Field:
    """One `{expression!conversion:spec}` of an f-string; the spec may hold fields of its own."""

    expression: str
    conversion: str | None
    spec: tuple
    offset: int  # where the expression starts inside the literal token
    debug: str = ""  # the text before the value for `{x=}`, else ""


def split_token(token: str) -> tuple[str, str, int]:
    """(prefix letters, body, offset of the body) of a string token."""
    prefix = re.match(r"[rRfFbBuU]*", token).group(0)
    quote = token[len(prefix):len(prefix) + 3]
    width = 3 if quote in ("'''", '"""') else 1
    return prefix.lower(), token[len(prefix) + width:len(token) - width], len(prefix) + width


def string(token: str) -> str | bytes | tuple:
    """A plain string, bytes for b"...", or for an f-string a tuple of str and Field parts."""
    prefix, body, offset = split_token(token)
    raw = "r" in prefix
    if "b" in prefix:
        if any(ord(c) > 127 for c in body):
            raise ValueError("bytes can only contain ASCII literal characters")
        return (body if raw else _unescape(body, text=False)).encode("latin-1")
    if "f" not in prefix:
        return body if raw else _unescape(body)
    return tuple(_fstring_parts(body, raw, offset))


def split_braces(text: str, read_field, lone_close: str):
    """Literal runs (maybe empty) and fields of a brace template, an f-string's or str.format's:
    `{{` and `}}` are braces, and `read_field(i)` parses the field whose `{` is at i - 1,
    returning the index of its closing brace and the field. ValueError(lone_close) for a `}`
    alone."""
    i, literal = 0, []
    while i < len(text):
        ch = text[i]
        if ch in "{}" and text[i + 1:i + 2] == ch:
            literal.append(ch)
            i += 2
        elif ch == "}":
            raise ValueError(lone_close)
        elif ch != "{":
            literal.append(ch)
            i += 1
        else:
            yield "".join(literal)
            literal = []
            end, field = read_field(i + 1)
            yield field
            i = end + 1
    yield "".join(literal)


def _fstring_parts(body: str, raw: bool, offset: int):
    for part in split_braces(body, lambda start: _field(body, start, raw, offset),
                             "f-string: single '}' is not allowed"):
        if isinstance(part, Field):
            yield part
        elif part:
            yield part if raw else _unescape(part)


_OPENER = {")": "(", "]": "[", "}": "{"}


def _field(body: str, start: int, raw: bool, offset: int) -> tuple[int, Field]:
    """Parse `expr[!c][:spec]}` from `start`: the index of the closing brace, and the field."""
    opened, i, quote = [], start, None
    while i < len(body):
        ch = body[i]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            opened.append(ch)
        elif ch in ")]" or (ch == "}" and opened):
            if not opened:
                raise ValueError(f"f-string: unmatched '{ch}'")
            opener = opened.pop()
            if opener != _OPENER[ch]:
                raise ValueError(f"f-string: closing parenthesis '{ch}' does not match "
                                 f"opening parenthesis '{opener}'")
        elif not opened and (ch in "}:" or (ch == "!" and body[i + 1:i + 2] != "=")):
            break
        i += 1
    else:
        raise ValueError("f-string: expecting '}'")
    expression, debug = body[start:i], ""
    stripped = expression.rstrip()
    if stripped.endswith("=") and stripped[-2:-1] not in ("=", "!", "<", ">"):
        debug, expression = expression, stripped[:-1]
    if not expression.strip():
        raise ValueError("f-string: empty expression not allowed")
    conversion = None
    if body[i] == "!":
        conversion, i = body[i + 1:i + 2], i + 2
        if not conversion:
            raise ValueError("f-string: expecting '}'")
        if conversion not in ("s", "r", "a"):
            raise ValueError("f-string: invalid conversion character: expected 's', 'r', or 'a'")
    spec: tuple = ()
    if i < len(body) and body[i] == ":":
        spec_start, depth = i + 1, 0
        i += 1
        while i < len(body) and (body[i] != "}" or depth):
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            i += 1
        spec = tuple(_fstring_parts(body[spec_start:i], raw, offset + spec_start))
    if i >= len(body) or body[i] != "}":
        raise ValueError("f-string: expecting '}'")
    if debug and conversion is None and not spec:
        conversion = "r"
    return i, Field(expression, conversion, spec, offset + start, debug)
