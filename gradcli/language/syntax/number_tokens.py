"""Python 3.11's tokenizer over a number literal (Parser/tokenizer.c, tok_get's number branch):
where the literal ends and the syntax error it raises, worded and placed as Python's."""

from __future__ import annotations

# a number glued to one of these keywords is only a warning in Python 3.11 (`1if x else y`)
_KEYWORD_TAILS = {"a": ("nd",), "e": ("lse",), "f": ("or",), "i": ("f", "n", "s"), "o": ("r",)}
LEADING_ZEROS = ("leading zeros in decimal integer literals are not permitted; use an 0o prefix "
                 "for octal integers")


class _Reader:
    """The tokenizer's cursor: `next()` reads a character ('' past the end), `back()` undoes."""

    def __init__(self, text: str, start: int):
        self.text, self.cur = text, start

    def next(self) -> str:
        c = self.text[self.cur] if self.cur < len(self.text) else ""
        self.cur += 1
        return c

    def back(self) -> None:
        self.cur -= 1


class NumberError(Exception):
    """A literal Python refuses: its message and the 0-based offsets [start, end) it marks."""

    def __init__(self, message: str, start: int, end: int):
        super().__init__(message)
        self.message, self.start, self.end = message, start, end


def number_end(text: str, start: int) -> int:
    """The end of the number literal at text[start] (a digit, or a '.' before one); raises
    NumberError where Python's tokenizer raises its SyntaxError."""
    reader = _Reader(text, start)
    c = reader.next()
    if c == ".":
        c = _fraction(reader, reader.next())
        c = _exponent_and_imaginary(reader, c)
    elif c == "0":
        c = _after_zero(reader, start)
    else:
        c = _exponent_and_imaginary(reader, _fraction_after_integer(reader, _decimal_tail(reader)))
    reader.back()  # the character after the literal (or the end: reading past it counts too)
    return reader.cur


def _error(reader: _Reader, message: str) -> NumberError:
    """Python's syntaxerror(): marked at the cursor, which its 1-based column counts from."""
    return NumberError(message, reader.cur - 1, reader.cur)


def _is_digit(c: str) -> bool:
    return c != "" and c in "0123456789"


def _decimal_tail(reader: _Reader) -> str:
    while True:
        c = reader.next()
        while _is_digit(c):
            c = reader.next()
        if c != "_":
            return c
        c = reader.next()
        if not _is_digit(c):
            reader.back()
            raise _error(reader, "invalid decimal literal")


def _verify_end(reader: _Reader, c: str, kind: str) -> None:
    """A literal followed by an ASCII name character is an error, unless a keyword follows it
    (after any other character, the next token starts)."""
    rest = reader.text[reader.cur:]
    if any(rest.startswith(tail) for tail in _KEYWORD_TAILS.get(c, ())):
        return
    if c != "" and c.isascii() and (c.isalnum() or c == "_"):  # a name's ASCII character
        reader.back()
        raise _error(reader, f"invalid {kind} literal")


def _after_zero(reader: _Reader, start: int) -> str:
    c = reader.next()
    if c in ("x", "X"):
        return _based(reader, "hexadecimal", "0123456789abcdefABCDEF", digits_named=False)
    if c in ("o", "O"):
        return _based(reader, "octal", "01234567", digits_named=True)
    if c in ("b", "B"):
        return _based(reader, "binary", "01", digits_named=True)
    nonzero = False
    while True:  # the zeros (and underscores between them) of `0`, `00`, `0_0`, or `0777`
        if c == "_":
            c = reader.next()
            if not _is_digit(c):
                reader.back()
                raise _error(reader, "invalid decimal literal")
        if c != "0":
            break
        c = reader.next()
    zeros_end = reader.cur - 1
    if _is_digit(c):
        nonzero = True
        c = _decimal_tail(reader)
    if c == ".":
        return _exponent_and_imaginary(reader, _fraction(reader, reader.next()))
    if c in ("e", "E", "j", "J"):
        return _exponent_and_imaginary(reader, c)
    if nonzero:
        raise NumberError(LEADING_ZEROS, start, zeros_end)
    _verify_end(reader, c, "decimal")
    return c


def _based(reader: _Reader, kind: str, digits: str, digits_named: bool) -> str:
    """The digits of a 0x, 0o or 0b literal, underscores between them."""
    c = reader.next()
    while True:
        if c == "_":
            c = reader.next()
        if c == "" or c not in digits:
            if digits_named and _is_digit(c):
                raise _error(reader, f"invalid digit '{c}' in {kind} literal")
            reader.back()
            raise _error(reader, f"invalid {kind} literal")
        c = reader.next()
        while c != "" and c in digits:
            c = reader.next()
        if c != "_":
            break
    if digits_named and _is_digit(c):
        raise _error(reader, f"invalid digit '{c}' in {kind} literal")
    _verify_end(reader, c, kind)
    return c


def _fraction_after_integer(reader: _Reader, c: str) -> str:
    return _fraction(reader, reader.next()) if c == "." else c


def _fraction(reader: _Reader, c: str) -> str:
    return _decimal_tail(reader) if _is_digit(c) else c


def _exponent_and_imaginary(reader: _Reader, c: str) -> str:
    if c in ("e", "E"):
        e = c
        c = reader.next()
        if c in ("+", "-"):
            c = reader.next()
            if not _is_digit(c):
                reader.back()
                raise _error(reader, "invalid decimal literal")
        elif not _is_digit(c):
            reader.back()
            _verify_end(reader, e, "decimal")
            reader.back()  # the number ends before its `e` (then a name: `1else`)
            return reader.next()
        c = _decimal_tail(reader)
    if c in ("j", "J"):
        c = reader.next()
        _verify_end(reader, c, "imaginary")
        return c
    _verify_end(reader, c, "decimal")
    return c
