"""Lark's parse failures described in Python 3.11's words, at Python's line and column."""

from __future__ import annotations

import re

from gradcli.language.syntax.lark_standalone import (Token, Tree, UnexpectedCharacters,
                                                     UnexpectedInput, UnexpectedToken)

from gradcli.language.syntax.source_scan import Problem, indentation_problem, scan

# Keyword tokens that open a compound statement, and how Python names the statement.
_BLOCKS = {"IF": "'if' statement", "ELIF": "'elif' statement", "ELSE": "'else' statement",
           "WHILE": "'while' statement", "FOR": "'for' statement", "WITH": "'with' statement",
           "DEF": "function definition", "TRY": "'try' statement",
           "EXCEPT": "'except' statement", "FINALLY": "'finally' statement"}
_STATEMENT_TREES = {"simple_stmt", "suite", "if_stmt", "while_stmt", "for_stmt", "with_stmt",
                    "funcdef", "elif_clause", "else_clause", "try_stmt", "except_clause",
                    "finally_clause"}
# lark's trees of the statements before this one (a program's, a block's) and except clauses
_STATEMENT_RUNS = ("__start_star", "__suite_plus", "__try_stmt")
_SEPARATORS = {"LPAR", "LSQB", "LBRACE", "COMMA", "TRAILING_COMMA", "EQUAL", "COLON"}
# Keywords after which two adjacent expressions are not a missing comma (`for a in b c`).
_CLAUSE_KEYWORDS = {"FOR", "IN", "IF", "ELSE", "LAMBDA"}
_UNSUPPORTED = re.compile(r"(async|await)\b")
_EXPRESSION_STARTS = {"NAME", "NUMBER", "STRING", "LPAR", "LSQB", "LBRACE", "NOT", "LAMBDA",
                      "NONE", "TRUE", "FALSE", "UNARY_OP"}
_EXPRESSION_ENDS = {"NAME", "NUMBER", "STRING", "RPAR", "RSQB", "RBRACE", "NONE", "TRUE",
                    "FALSE"}


def _problem(message: str, line: int, column: int, end: int | None = None,
             kind: str = "SyntaxError") -> Problem:
    return Problem(message, line, column, max(end or column + 1, column + 1), kind)


def describe(error: UnexpectedInput, source: str) -> Problem:
    """The error Python would report for `source`, given where lark gave up."""
    found = scan(source)
    line, column = _position(error, source)
    early = found.first_problem()
    if early is not None and early.order <= (line, column):
        return early
    parsed = _parser_problem(error, source, found, line, column)
    if parsed.message == "unexpected indent":
        return parsed
    # CPython tokenizes the rest of the source when its parser fails, and an error its tokenizer
    # raises there is the one reported (a stray character after a backslash it reports later)
    later = next((p for p in found.problems if p.order > (line, column)
                  and not p.message.startswith("unexpected character after line continuation")),
                 None)
    dedent = indentation_problem(source) if later is not None else None
    if later is None or dedent is not None and line < dedent.line <= later.line:
        return parsed  # (a dedent matching no block stops that tokenizing first, silently)
    return later


def _parser_problem(error: UnexpectedInput, source: str, found, line: int,
                    column: int) -> Problem:
    """The error Python's parser would report where lark gave up."""
    if isinstance(error, UnexpectedCharacters):
        word = _UNSUPPORTED.match(source.split("\n")[line - 1], column - 1)
        if word:
            return _problem(f"'{word.group(1)}' statements are not supported by gradcli", line,
                            column, column + len(word.group(1)))
        return _problem("invalid syntax", line, column)
    token = error.token
    stack = list(error.interactive_parser.parser_state.value_stack) \
        if error.interactive_parser is not None else []
    if token.type == "_INDENT":
        width = len(str(token.value))
        return _problem("unexpected indent", token.end_line, width, width + 1, "IndentationError")
    block = _missing_block(stack, token, line, column) or _try_without_handler(stack, token,
                                                                                line, column)
    if block is not None:
        return block
    if token.type == "$END" and found.open_brackets:
        return _never_closed(found.open_brackets[-1])
    return (_header_problem(stack, token, error.expected, line, column)
            or _assignment_as_condition(stack, token, source, line, column)
            or _assignment_in_call(stack, token, column)
            or _starred_alone(stack, token, source)
            or _unparenthesized_types(stack, token, source)
            or _ternary_without_else(stack, error.expected, line, column)
            or _adjacent_expressions(stack, token, source, found, line, column)
            or _generic(found, token, line, column))


def _position(error: UnexpectedInput, source: str) -> tuple[int, int]:
    lines = source.split("\n")
    token = error.token if isinstance(error, UnexpectedToken) else None
    if token is not None and token.type == "$END":
        last = len(lines) - (1 if source.endswith("\n") else 0)
        return max(last, 1), len(lines[max(last, 1) - 1]) + 1
    if token is not None and token.type == "_NEWLINE":
        return token.line, token.column
    return error.line, error.column


def _never_closed(bracket) -> Problem:
    char, line, column = bracket
    return _problem(f"'{char}' was never closed", line, column)


def _statement_start(stack: list) -> list:
    """The stack entries of the statement being parsed."""
    start = len(stack)
    while start > 0:
        item = stack[start - 1]
        if isinstance(item, Token) and item.type in ("_NEWLINE", "_INDENT", "_DEDENT"):
            break
        if isinstance(item, Tree) and (item.data in _STATEMENT_TREES
                                       or item.data.startswith(_STATEMENT_RUNS)):
            break
        start -= 1
    return stack[start:]


def _type(item) -> str:
    return item.type if isinstance(item, Token) else ""


def _missing_block(stack: list, token: Token, line: int, column: int) -> Problem | None:
    """`for x in y:` followed by an unindented line: Python's IndentationError."""
    if len(stack) < 2 or _type(stack[-1]) != "_NEWLINE" or _type(stack[-2]) != "COLON":
        return None
    statement = _statement_start(stack[:-1])
    keyword = next((item for item in statement if _type(item) in _BLOCKS), None)
    if keyword is None:
        return None
    message = f"expected an indented block after {_BLOCKS[keyword.type]} on line {keyword.line}"
    if token.type == "$END":
        return _problem(message, line, column, None, "IndentationError")
    return _problem(message, line, column, column + len(str(token.value)), "IndentationError")


def _try_without_handler(stack: list, token: Token, line: int, column: int) -> Problem | None:
    """`try:` and its block, then neither `except` nor `finally`."""
    if len(stack) < 3 or not isinstance(stack[-1], Tree) or stack[-1].data != "suite" \
            or _type(stack[-3]) != "TRY":
        return None
    end = None if token.type == "$END" else column + len(str(token.value))
    return _problem("expected 'except' or 'finally' block", line, column, end)


def _header_problem(stack, token, expected, line, column) -> Problem | None:
    """A compound statement header without its colon, or `def` without `(`."""
    statement = _statement_start(stack)
    first = _type(statement[0]) if statement else ""
    width = 0 if token.type in ("_NEWLINE", "$END") else len(str(token.value))
    if first == "DEF" and len(statement) == 2 and token.type != "LPAR":
        return _problem("expected '('", line, column, column + width)
    if "COLON" not in expected:
        return None
    if first in ("IF", "ELIF", "WHILE", "WITH", "FOR", "EXCEPT", "CLASS") and \
            token.type == "_NEWLINE":
        return _problem("expected ':'", line, column)
    if first == "DEF" and not any(_type(item) == "RPAR" for item in statement):
        return None  # inside the parameters, where a colon would start an annotation
    if first in ("DEF", "ELSE", "TRY", "FINALLY"):
        return _problem("expected ':'", line, column, column + width)
    return None


# what Python's parser calls the targets of `if a.b = c:` (its _PyPegen_get_expr_name)
_TARGET_NAMES = {"getattr": "attribute", "getitem": "subscript", "call": "function call",
                 "number": "literal", "string": "literal", "binary": "expression"}
# what ends a bitwise_or expression: a comparison, a boolean operator, a clause keyword
_PAST_BITWISE_OR = re.compile(r"==|!=|<=|>=|<|>|:=|\b(?:and|or|if|else|in|not|is|for)\b")


def _assignment_as_condition(stack, token, source: str, line: int, column: int):
    """`if x = 2:` (and elif, while), `[a.b = 1]`, `(x = 1)`: Python's hint at '==' or ':='
    (CPython's invalid_named_expression)."""
    if token.type != "EQUAL":
        return None
    statement = _statement_start(stack)
    if len(statement) == 2 and _type(statement[0]) in ("IF", "ELIF", "WHILE"):
        target = statement[1]
    else:
        target = _bracketed_element(stack)
    if target is None:
        return None
    start_line, start_column = _start_of(target)
    if start_line != line:
        return None
    text = source.split("\n")[line - 1]
    value = column + 1 + len(text[column:]) - len(text[column:].lstrip())  # after the `=`
    end = _expression_end(source, line, value, ends=_PAST_BITWISE_OR)  # of a bitwise_or
    after = text[end - 1:].lstrip()
    if end <= value or after.startswith(":=") or (after.startswith("=") and
                                                  not after.startswith("==")):
        return None  # no value after the `=`, or a chain of them
    if _type(target) == "NAME" or isinstance(target, Tree) and target.data == "var":
        return _problem("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", line,
                        start_column, end)
    name = _TARGET_NAMES.get(target.data) if isinstance(target, Tree) else None
    if name is None:
        return None
    return _problem(f"cannot assign to {name} here. Maybe you meant '==' instead of '='?", line,
                    start_column, target.meta.end_column if target.meta.end_line == line else
                    None)


def _bracketed_element(stack):
    """The one expression just before the token, as a bracket's element (a group's, a list's,
    a set's, a subscript's; not a call's argument), or None."""
    opener = _open_bracket(stack)
    if opener is None or _type(stack[opener]) == "LPAR" and _is_call(stack, opener):
        return None
    element = _last_element(stack, opener)
    return element[0] if len(element) == 1 else None


def _last_element(stack, opener: int) -> list:
    """What the stack holds after the open bracket at `opener` and its last comma."""
    start = next((i + 1 for i in range(len(stack) - 1, opener, -1)
                  if _type(stack[i]) in ("COMMA", "TRAILING_COMMA")), opener + 1)
    return stack[start:]


def _open_bracket(stack) -> int | None:
    """The stack index of the innermost bracket still open."""
    return next((i for i in range(len(stack) - 1, -1, -1) if _type(stack[i]) in _BRACKETS), None)


def _is_call(stack, opener: int) -> bool:
    """Whether the `(` at stack[opener] opens a call's arguments (or a class's bases)."""
    callee = stack[opener - 1] if opener else None
    return isinstance(callee, Tree) and callee.data not in _STATEMENT_TREES \
        and not callee.data.startswith(_STATEMENT_RUNS) \
        or opener > 1 and _type(callee) == "NAME" and _type(stack[opener - 2]) == "CLASS"


_CONSTANTS = {"const_true": "True", "const_false": "False", "const_none": "None"}


def _assignment_in_call(stack, token, column: int) -> Problem | None:
    """`f(a.b=1)`, `nn.Conv2d(3, kernel-size=3)`: a call's argument other than a name before
    `=` (CPython's invalid_kwarg), from the argument's start."""
    if token.type != "EQUAL":
        return None
    opener = _open_bracket(stack)
    if not opener or _type(stack[opener]) != "LPAR" or not _is_call(stack, opener):
        return None
    argument = _last_element(stack, opener)
    if len(argument) != 1 or not isinstance(argument[0], Tree) or argument[0].data == "var":
        return None  # `*a=`, `**a=` stay invalid syntax; a name is a keyword
    constant = _CONSTANTS.get(argument[0].data)
    message = f"cannot assign to {constant}" if constant else \
        'expression cannot contain assignment, perhaps you meant "=="?'
    line, start_column = _start_of(argument[0])
    return _problem(message, line, start_column, column + 1)


def _unparenthesized_types(stack, token, source: str) -> Problem | None:
    """`except A, B:`, from the first type to the colon."""
    statement = _statement_start(stack)
    if len(statement) != 2 or _type(statement[0]) != "EXCEPT" \
            or token.type not in ("COMMA", "TRAILING_COMMA"):
        return None
    line, column = _start_of(statement[1])
    colon = source.split("\n")[line - 1].find(":", column)
    return _problem("multiple exception types must be parenthesized", line, column,
                    colon + 1 if colon >= 0 else None)


_BRACKETS = {"LPAR", "LSQB", "LBRACE"}


def _starred_alone(stack, token, source: str) -> Problem | None:
    """A starred expression that is neither in a call, a list, a set nor a tuple: `(*a)` (a
    group; lark stops before the `)`, or, past `*a`, at an operator the group goes on with), a
    statement's whole value (`x = *a`), or a comprehension's element (`[*a for a in b]`)."""
    if len(stack) >= 2 and isinstance(stack[-1], Tree) and stack[-1].data == "star_expr":
        meta = stack[-1].meta
        if token.type == "RPAR" and _type(stack[-2]) == "LPAR":
            return _problem("cannot use starred expression here", meta.line, meta.column,
                            meta.end_column)
        if token.type in ("_NEWLINE", "SEMICOLON") and (
                _type(stack[-2]) in ("EQUAL", "SEMICOLON")
                or _statement_start(stack) == stack[-1:]):
            return _problem("can't use starred expression here", meta.line, meta.column,
                            meta.end_column)
    if len(stack) == 1 and isinstance(stack[0], Tree) and stack[0].data == "star_expr" \
            and token.type in ("_NEWLINE", "SEMICOLON"):
        meta = stack[0].meta
        return _problem("can't use starred expression here", meta.line, meta.column,
                        meta.end_column)
    star = next((i for i in range(len(stack) - 1, 0, -1) if _type(stack[i]) == "STAR"), None)
    if star is None or _type(stack[star - 1]) not in _BRACKETS or token.type == "RPAR" \
            or any(_type(item) in _BRACKETS for item in stack[star:]):
        return None
    line, column = _start_of(stack[star])
    if token.type == "FOR" and token.line == line:  # `[*a for a in b]`
        end = len(source.split("\n")[line - 1][:token.column - 1].rstrip()) + 1
        return _problem("iterable unpacking cannot be used in comprehension", line, column, end)
    if _type(stack[star - 1]) != "LPAR":
        return None
    text = source.split("\n")[line - 1]
    end = _expression_end(source, line, column)
    starred = text[column - 1:end - 1]
    if not text[end - 1:].lstrip().startswith(")") or (token.type == "IF" and " else " not in
                                                       starred):
        return None
    if " for " in starred:  # `(*a if b else c for a in d)`
        end = column + len(starred[:starred.index(" for ")].rstrip())
        return _problem("iterable unpacking cannot be used in comprehension", line, column, end)
    return _problem("cannot use starred expression here", line, column, end)


def _ternary_without_else(stack, expected, line, column) -> Problem | None:
    """`a if b` with no `else`."""
    if "ELSE" not in expected:
        return None
    for index in range(len(stack) - 1, 0, -1):
        if _type(stack[index]) == "IF":
            start_line, start_column = _start_of(stack[index - 1])
            if start_line == line:
                return _problem("expected 'else' after 'if' expression", line, start_column,
                                column)
            return None
    return None


def _adjacent_expressions(stack, token, source, found, line, column) -> Problem | None:
    """Two expressions side by side: a missing comma inside brackets, or Python 2's print."""
    if token.type not in _EXPRESSION_STARTS or not stack:
        return None
    last = stack[-1]
    if isinstance(last, Token) and last.type not in _EXPRESSION_ENDS:
        return None
    statement = _statement_start(stack)
    end = _expression_end(source, line, column)
    legacy = _legacy_statement(statement)
    if legacy is not None:
        name, where = legacy
        return _problem(f"Missing parentheses in call to '{name}'. Did you mean {name}(...)?",
                        where.line, where.column, _expression_end(source, line, column, ","))
    if not found.open_at(line, column):
        return None
    start = len(stack)
    while start > 0 and _type(stack[start - 1]) not in _SEPARATORS | _CLAUSE_KEYWORDS:
        start -= 1
    if start > 0 and _type(stack[start - 1]) in _CLAUSE_KEYWORDS:
        return None
    first = stack[start] if start < len(stack) else last
    if _type(first) == "NAME" and statement and _type(statement[0]) == "DEF" and \
            _open_bracket(statement) == 2:  # a parameter's name is no expression
        return None
    if _type(first) == "NAME" and start == len(stack) - 1 and token.type == "STRING":
        return None
    first_line, first_column = _start_of(first)
    if found.open_brackets:  # CPython's parser reads one token on, past `token`: the end of
        after = _next_token_line(source, token)  # the source there, or a later line than the
        if after is None or after > found.open_brackets[-1][1]:  # bracket left open, names it
            return _never_closed(found.open_brackets[-1])
    return _problem("invalid syntax. Perhaps you forgot a comma?", first_line, first_column,
                    end if first_line == line else None)


def _next_token_line(source: str, token: Token) -> int | None:
    """The line of the token after `token` (past spaces, comments, blank lines and backslash
    continuations), or None at the end of the source."""
    lines = source.split("\n")
    number, i = token.end_line, token.end_column - 1
    while number <= len(lines):
        text = lines[number - 1]
        while i < len(text) and text[i] in " \t\f":
            i += 1
        if i < len(text) and text[i] not in "#\\":
            return number
        number, i = number + 1, 0
    return None


def _legacy_statement(statement: list):
    """('print', its token) when the statement so far is just the name print or exec."""
    if len(statement) != 1:
        return None
    item = statement[0]
    if isinstance(item, Tree) and item.data == "var":
        item = item.children[0]
    if _type(item) == "NAME" and item.value in ("print", "exec"):
        return item.value, item
    return None


def _start_of(item) -> tuple[int, int]:
    if isinstance(item, Token):
        return item.line, item.column
    return item.meta.line, item.meta.column


def _expression_end(source: str, line: int, column: int, within: str = "",
                    ends: re.Pattern | None = None) -> int:
    """The column after the expression starting at (line, column), on that line (`within`:
    separators that do not end it; `ends`: what else ends it outside brackets)."""
    text = source.split("\n")[line - 1]
    depth, i, quote = 0, column - 1, None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and ch not in within and (ch in ",:;#" or _is_assign(text, i) or (
                ends is not None and ends.match(text, i))):
            break
        i += 1
    return len(text[:i].rstrip()) + 1


def _is_assign(text: str, i: int) -> bool:
    """Whether text[i] is a lone `=` (not part of ==, !=, <=, >=)."""
    return text[i] == "=" and text[i + 1:i + 2] != "=" and text[i - 1:i] not in "=!<>"


def _generic(found, token: Token, line: int, column: int) -> Problem:
    """'invalid syntax' at the token, or the bracket an earlier line left open to the end of
    the source."""
    if found.open_brackets and line > found.open_brackets[-1][1]:  # still open at the end
        return _never_closed(found.open_brackets[-1])
    width = 1 if token.type in ("_NEWLINE", "$END", "_DEDENT") else len(str(token.value))
    return _problem("invalid syntax", line, column, column + width)
