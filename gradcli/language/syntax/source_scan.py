"""A scan for what Python's tokenizer rejects: brackets, strings, numbers, characters, indents."""

from __future__ import annotations

import re
from gradcli.engine.records import field, record
from gradcli.language.syntax.number_tokens import NumberError, number_end

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {v: k for k, v in _OPENERS.items()}
_STRING_START = re.compile(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\")")
_LITERAL_RUN = re.compile(r"[\w.]+")  # what a refused number literal spans, skipped
_NAME_CHAR = re.compile(r"\w", re.UNICODE)
_DIGITS = frozenset("0123456789")  # the tokenizer's digits: ASCII only
MAX_NESTING = 200  # Python's tokenizer limit on open brackets


@record(frozen=True)
class Problem:
    """A tokenizer-level error: message, kind, 1-based position and end column."""

    message: str
    line: int
    column: int
    end_column: int
    kind: str = "SyntaxError"
    found_at: tuple = ()  # where the tokenizer meets it, if before (line, column)

    @property
    def order(self) -> tuple:
        return self.found_at or (self.line, self.column)


@record
class Scan:
    """What one pass over `source` found, in source order."""

    problems: list = field(default_factory=list)  # Problems, first one first
    open_brackets: list = field(default_factory=list)  # (char, line, column) still open at EOF
    bracket_events: list = field(default_factory=list)  # (line, column, depth after) per bracket
    open_triple_quote: bool = False
    ends_with_backslash: bool = False

    def first_problem(self) -> Problem | None:
        return self.problems[0] if self.problems else None

    def open_at(self, line: int, column: int) -> list:
        """The brackets open just before (line, column)."""
        stack = []
        for char, at_line, at_column, opening in self.bracket_events:
            if (at_line, at_column) >= (line, column):
                break
            if opening:
                stack.append((char, at_line, at_column))
            elif stack:
                stack.pop()
        return stack


def scan(source: str) -> Scan:
    """Scan `source` once, as Python's tokenizer would walk it."""
    result, stack = Scan(), []
    lines = source.split("\n")
    i, line, column = 0, 1, 1
    while i < len(source):
        ch = source[i]
        if ch == "\n":
            i, line, column = i + 1, line + 1, 1
            continue
        if ch == "#":
            end = source.find("\n", i)
            end = len(source) if end < 0 else end
            column += end - i
            i = end
            continue
        match = _STRING_START.match(source, i)
        if match and (match.start(1) == match.start(2) or not _word_before(source, i)):
            end = _string_end(source, match.end(), match.group(2))
            if end is None:
                triple = len(match.group(2)) == 3
                quote_column = column  # where the string's token starts, its prefix first
                detected = len(lines) - (1 if source.endswith("\n") else 0) if triple else line
                kind = "triple-quoted string" if triple else "string"
                result.problems.append(Problem(
                    f"unterminated {kind} literal (detected at line {detected})", line,
                    quote_column, quote_column + 1))
                result.open_triple_quote = triple
                break
            text = source[i:end]
            line, column = _advance(text, line, column)
            i = end
            continue
        if ch in _DIGITS or (ch == "." and source[i + 1:i + 2] in _DIGITS):
            i, line, column = _number(source, i, line, column, result)
            continue
        if ch.isidentifier():  # a name starts here (a digit of another script cannot start one)
            start = i
            while i < len(source) and _NAME_CHAR.match(source[i]):
                i += 1
            column += i - start
            continue
        if ch in _OPENERS:
            if len(stack) >= MAX_NESTING:
                result.problems.append(Problem("too many nested parentheses", line, column,
                                               column + 1))
                break
            stack.append((ch, line, column))
            result.bracket_events.append((ch, line, column, True))
        elif ch in _CLOSERS:
            _close(ch, stack, line, column, result)
        elif ch == "\\":
            rest = source[i + 1:].split("\n", 1)[0]
            if rest.strip(" \t\f\r"):
                result.problems.append(Problem(
                    "unexpected character after line continuation character", line,
                    column + 1, column + 2, found_at=(line, column)))
            elif "\n" not in source[i:]:
                result.ends_with_backslash = True
        elif ch not in " \t\f\r" and not ch.isprintable():
            result.problems.append(Problem(f"invalid non-printable character U+{ord(ch):04X}",
                                           line, column, column + 1))
        elif not ch.isascii():
            result.problems.append(Problem(f"invalid character '{ch}' (U+{ord(ch):04X})", line,
                                           column, column + 1))
        i, column = i + 1, column + 1
    result.open_brackets = stack
    return result


def _word_before(source: str, i: int) -> bool:
    return i > 0 and bool(_NAME_CHAR.match(source[i - 1]))


def _string_end(source: str, start: int, quote: str) -> int | None:
    """The index after a string's closing quote, or None if it never closes."""
    i = start
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "\n" and len(quote) == 1:
            return None
        if source.startswith(quote, i):
            return i + len(quote)
        i += 1
    return None


def _advance(text: str, line: int, column: int) -> tuple[int, int]:
    newlines = text.count("\n")
    if not newlines:
        return line, column + len(text)
    return line + newlines, len(text) - text.rfind("\n")


def _number(source: str, i: int, line: int, column: int, result: Scan):
    try:
        end = number_end(source, i)
    except NumberError as error:
        result.problems.append(Problem(error.message, line, column + error.start - i,
                                       column + error.end - i, found_at=(line, column)))
        end = _LITERAL_RUN.match(source, i).end()
    return end, line, column + end - i


def _close(ch: str, stack: list, line: int, column: int, result: Scan) -> None:
    result.bracket_events.append((ch, line, column, False))
    if not stack:
        result.problems.append(Problem(f"unmatched '{ch}'", line, column, column + 1))
        return
    opener, open_line, _ = stack.pop()
    if _OPENERS[opener] != ch:
        where = "" if open_line == line else f" on line {open_line}"
        result.problems.append(Problem(
            f"closing parenthesis '{ch}' does not match opening parenthesis '{opener}'{where}",
            line, column, column + 1))


MAX_INDENTS = 100  # Python's tokenizer refuses the 100th level of nested blocks


def indentation_problem(source: str) -> Problem | None:
    """Python's IndentationError for a first line that is indented, a dedent that matches no
    enclosing level, or a 100th level of indentation (lines inside brackets and strings do not
    count)."""
    levels, depth, in_string = [0], 0, False
    for number, text in enumerate(source.split("\n"), start=1):
        stripped = text.lstrip(" \t\f")
        if depth == 0 and not in_string and stripped and not stripped.startswith("#"):
            width = len(text.expandtabs(8)) - len(stripped.expandtabs(8))
            raw = len(text) - len(stripped)
            if len(levels) == 1 and width and number == _first_code_line(source):
                return Problem("unexpected indent", number, raw, raw + 1, "IndentationError")
            if width < levels[-1]:
                while levels and width < levels[-1]:
                    levels.pop()
                if not levels or levels[-1] != width:
                    return Problem("unindent does not match any outer indentation level",
                                   number, len(text) + 1, len(text) + 2, "IndentationError")
            elif width > levels[-1]:
                levels.append(width)
                if len(levels) > MAX_INDENTS:
                    return Problem("too many levels of indentation", number, 1, 2,
                                   "IndentationError")
        depth, in_string = _line_state(text, depth, in_string)
    return None


def _first_code_line(source: str) -> int:
    for number, text in enumerate(source.split("\n"), start=1):
        stripped = text.strip()
        if stripped and not stripped.startswith("#"):
            return number
    return 0


def _line_state(text: str, depth: int, in_string) -> tuple[int, object]:
    """Bracket depth and open triple quote (or False) after one line."""
    i = 0
    while i < len(text):
        if in_string:
            end = text.find(in_string, i)
            if end < 0:
                return depth, in_string
            i, in_string = end + 3, False
            continue
        ch = text[i]
        if ch == "#":
            break
        if text[i:i + 3] in ("'''", '"""'):
            in_string = text[i:i + 3]
            i += 3
            continue
        if ch in "'\"":
            end = _string_end(text, i + 1, ch)
            i = len(text) if end is None else end
            continue
        depth += 1 if ch in _OPENERS else -1 if ch in _CLOSERS and depth else 0
        i += 1
    return depth, in_string
