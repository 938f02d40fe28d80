"""A script's bytes decoded as Python decodes a source file: UTF-8, a byte-order mark dropped, a
PEP 263 coding line obeyed (for the encodings scripts declare), Python's SyntaxError otherwise."""

from __future__ import annotations

import re

_BOM = b"\xef\xbb\xbf"
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_BLANK_OR_COMMENT = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")
# Declared names -> codec, as CPython's tokenizer normalises them; only these are decoded (a
# program's text never picks a codec module to import).
_CODECS = {"utf-8": "utf-8", "utf8": "utf-8", "latin-1": "latin-1", "iso-8859-1": "latin-1",
           "iso-latin-1": "latin-1", "latin1": "latin-1", "l1": "latin-1", "iso8859-1": "latin-1",
           "ascii": "ascii", "us-ascii": "ascii", "cp1252": "cp1252", "windows-1252": "cp1252"}
_PEP_263 = "see https://peps.python.org/pep-0263/ for details"


class SourceDecodeError(Exception):
    """Why a script's bytes are not Python source text: CPython's SyntaxError message."""


def decode(data: bytes, path: str) -> str:
    """The text of the script `data` read from `path` (the name Python's message gives)."""
    bom = data.startswith(_BOM)
    if bom:
        data = data[len(_BOM):]
    declared = _declared(data)
    if declared is None:
        return _utf8(data, path)
    codec = _CODECS.get(declared.lower().replace("_", "-"))
    if bom and codec != "utf-8":
        raise SourceDecodeError(f"encoding problem: {_normal_name(declared)} with BOM")
    if codec is None:
        raise SourceDecodeError(f"encoding problem: {declared}")
    if codec == "utf-8":
        return _utf8(data, path)
    try:
        return data.decode(codec)
    except UnicodeDecodeError as error:
        raise SourceDecodeError(f"(unicode error) {error}") from None


def _declared(data: bytes) -> str | None:
    """The encoding a coding line names (the first line, or the second after a blank or comment
    first line)."""
    lines = data.split(b"\n", 2)
    for number, line in enumerate(lines[:2]):
        found = _COOKIE.match(line)
        if found:
            return found.group(1).decode("ascii")
        if number == 0 and not _BLANK_OR_COMMENT.match(line):
            return None
    return None


def _normal_name(name: str) -> str:
    """CPython's get_normal_name: utf-8 and latin-1 spellings made canonical."""
    lowered = name.lower().replace("_", "-")
    if lowered == "utf-8" or lowered.startswith("utf-8-"):
        return "utf-8"
    if lowered in ("latin-1", "iso-8859-1", "iso-latin-1") or lowered.startswith(
            ("latin-1-", "iso-8859-1-", "iso-latin-1-")):
        return "iso-8859-1"
    return name


def _utf8(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_end = data.find(b"\n", error.start)
        if b"\0" in data[:line_end if line_end >= 0 else len(data)]:  # Python reads line by
            return data.decode("utf-8", "replace")  # line: an earlier null byte's error first
        line = data.count(b"\n", 0, error.start) + 1
        raise SourceDecodeError(
            f"Non-UTF-8 code starting with '\\x{data[error.start]:02x}' in file {path} on line "
            f"{line}, but no encoding declared; {_PEP_263}") from None
