"""Syntax highlighting from the grammar's own terminals: the regexes the parser lexes with."""

from __future__ import annotations

import re
from functools import lru_cache

from prompt_toolkit.lexers import Lexer

_SKIPPED = ("_NEWLINE", "__IGNORE")
_LEADING = ("COMMENT", "STRING", "NUMBER", "NAME")
_KEYWORD = "__KEYWORD"
_STYLES = {
    "COMMENT": "class:pygments.comment",
    "STRING": "class:pygments.literal.string",
    "NUMBER": "class:pygments.literal.number",
    "keyword": "class:pygments.keyword",
    "constant": "class:pygments.keyword.constant",
    "builtin": "class:pygments.name.builtin",
    "operator": "class:pygments.operator",
}
_CONSTANTS = ("None", "True", "False")
_PUNCTUATION = ("(", ")", "[", "]", "{", "}", ",", ":", ";", ".")


class Scanner:
    """One regex with a named group per grammar terminal, plus the grammar's keywords."""

    def __init__(self, terminals, builtin_names) -> None:
        from gradcli.language.syntax.lark_standalone import PatternStr
        usable = [t for t in terminals if not t.name.startswith(_SKIPPED)]
        words = [t for t in usable if isinstance(t.pattern, PatternStr)
                 and t.pattern.value.isidentifier()]
        self.keywords = {t.pattern.value for t in words}
        self.word_patterns = [re.compile(t.pattern.to_regexp()) for t in usable
                              if t.name not in _LEADING and not isinstance(t.pattern, PatternStr)]
        by_name = {t.name: t for t in usable}
        leading = [(name, by_name[name].pattern.to_regexp()) for name in _LEADING]
        keyword = "(?:" + "|".join(sorted(map(re.escape, self.keywords), key=len, reverse=True))
        leading.insert(_LEADING.index("NAME"), (_KEYWORD, keyword + r")(?!\w)"))
        others = sorted((t for t in usable if t.name not in _LEADING and t not in words),
                        key=lambda t: -min(t.pattern.max_width, 1000))
        self.regex = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in leading + [
            (t.name, t.pattern.to_regexp()) for t in others]))
        self.builtin_names = frozenset(builtin_names)

    def tokens(self, text: str) -> list[tuple[str, str]]:
        """(style, text) fragments covering all of `text`."""
        out, pos = [], 0
        while pos < len(text):
            if text[pos].isspace():
                end = pos + 1
                while end < len(text) and text[end].isspace():
                    end += 1
                out.append(("", text[pos:end]))
                pos = end
                continue
            match = self.regex.match(text, pos)
            if match is None or match.end() == pos:
                end = text.find("\n", pos) if text[pos] in "'\"" else pos + 1
                end = len(text) if end == -1 else end
                out.append((_STYLES["STRING"] if text[pos] in "'\"" else "", text[pos:end]))
                pos = end
                continue
            out.append((self.style(match.lastgroup, match.group()), match.group()))
            pos = match.end()
        return out

    def style(self, terminal: str, value: str) -> str:
        if terminal == _KEYWORD:
            return _STYLES["constant" if value in _CONSTANTS else "keyword"]
        if terminal == "NAME":
            if any(p.fullmatch(value) for p in self.word_patterns):
                return _STYLES["keyword"]
            return _STYLES["builtin"] if value in self.builtin_names else ""
        if terminal in _STYLES:
            return _STYLES[terminal]
        return "" if value in _PUNCTUATION or value.isalnum() else _STYLES["operator"]


@lru_cache(maxsize=1)
def scanner() -> Scanner:
    """The scanner over the language parser's terminals, built on first use."""
    from gradcli.language.namespaces.builtins import PY_BUILTINS
    from gradcli.language.syntax.parser import parser
    return Scanner(parser().terminals, [*PY_BUILTINS, "torch"])


def split_lines(fragments: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Fragments regrouped per line, a fragment spanning lines cut at each newline."""
    lines: list[list[tuple[str, str]]] = [[]]
    for style, text in fragments:
        first, *rest = text.split("\n")
        if first:
            lines[-1].append((style, first))
        for piece in rest:
            lines.append([(style, piece)] if piece else [])
    return lines


class GrammarLexer(Lexer):
    """A prompt_toolkit Lexer colouring the buffer with the grammar's terminals."""

    def lex_document(self, document):
        if not document.text.strip():
            return lambda lineno: [("", document.lines[lineno])] if lineno < len(
                document.lines) else []
        lines = split_lines(scanner().tokens(document.text))
        return lambda lineno: lines[lineno] if lineno < len(lines) else []
