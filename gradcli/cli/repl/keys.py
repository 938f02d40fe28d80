"""When Enter runs the input, how new lines indent, and the key bindings that apply those rules."""

from __future__ import annotations

import re

INDENT = "    "
_BLOCK_START = re.compile(r"(for|while|if|with|def)\b")
_DEDENT_AFTER = re.compile(r"(return|pass|break|continue)\b")
_TRAILING_COMMENT = re.compile(r"\s*(#[^'\"]*)?$")


def opens_block(text: str) -> bool:
    """Whether the input starts with a compound statement, which as in Python a blank line ends."""
    for line in text.split("\n"):
        code = line.lstrip()
        if code and not code.startswith("#"):
            return _BLOCK_START.match(code) is not None
    return False


def should_submit(text: str) -> bool:
    """Whether Enter at the end of `text` runs it (otherwise it continues on a new line).

    Simple input runs once it is complete. A block runs at a blank line, or once a complete
    input ends with an unindented line (a pasted or edited snippet)."""
    from gradcli.language.syntax.parser import is_incomplete
    if not text.strip() or text.lstrip().startswith("%"):
        return True
    last = text.split("\n")[-1]
    if not opens_block(text):
        return not is_incomplete(text)
    if "\n" in text and not last.strip():
        return True
    return "\n" in text and not last[:1].isspace() and not is_incomplete(text)


def next_indent(text_before_cursor: str) -> str:
    """The indentation for a new line after `text_before_cursor`."""
    line = text_before_cursor.split("\n")[-1]
    indent = line[:len(line) - len(line.lstrip())]
    code = _TRAILING_COMMENT.sub("", line)
    if code.endswith((":", "(", "[", "{")):
        return indent + INDENT
    if _DEDENT_AFTER.match(code.lstrip()):
        return indent[:-len(INDENT)] if len(indent) >= len(INDENT) else ""
    return indent


def key_bindings():
    """Enter (also on a search result), Tab, Backspace and bracketed paste for the REPL's
    buffer."""
    from prompt_toolkit.enums import DEFAULT_BUFFER
    from prompt_toolkit.filters import Condition, has_focus, has_selection, is_searching
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    bindings = KeyBindings()
    editing = has_focus(DEFAULT_BUFFER) & ~has_selection

    @Condition
    def in_leading_space() -> bool:
        from prompt_toolkit.application import get_app
        before = get_app().current_buffer.document.current_line_before_cursor
        return before != "" and not before.strip()

    @Condition
    def at_line_indent() -> bool:
        from prompt_toolkit.application import get_app
        return not get_app().current_buffer.document.current_line_before_cursor.strip()

    @bindings.add("enter", filter=editing)
    @bindings.add("c-j", filter=editing)
    def _enter(event) -> None:
        buffer = event.current_buffer
        if buffer.complete_state is not None and buffer.complete_state.current_completion:
            buffer.complete_state = None
            return
        document = buffer.document
        on_last_line = document.cursor_position_row == document.line_count - 1
        if (on_last_line or "\n" not in buffer.text) and should_submit(buffer.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n" + next_indent(document.text_before_cursor))

    @bindings.add("enter", filter=is_searching)
    @bindings.add("c-j", filter=is_searching)
    def _run_found(event) -> None:
        """Enter on a Ctrl-R search result runs it, as in bash: a block from history is whole,
        so it runs without the blank line typing one needs; incomplete input stays to edit."""
        from prompt_toolkit.search import accept_search
        from gradcli.language.syntax.parser import is_incomplete
        accept_search()
        buffer = event.app.current_buffer
        buffer.cursor_position = len(buffer.text)
        if buffer.text.strip() and not is_incomplete(buffer.text):
            buffer.validate_and_handle()

    @bindings.add("tab", filter=editing & at_line_indent)
    def _indent(event) -> None:
        event.current_buffer.insert_text(INDENT)

    @bindings.add("backspace", filter=editing & in_leading_space)
    def _dedent(event) -> None:
        before = event.current_buffer.document.current_line_before_cursor
        width = len(before) % len(INDENT) or len(INDENT)
        event.current_buffer.delete_before_cursor(min(width, len(before)))

    @bindings.add(Keys.BracketedPaste, filter=has_focus(DEFAULT_BUFFER))
    def _paste(event) -> None:
        data = event.data.replace("\r\n", "\n").replace("\r", "\n")
        buffer = event.current_buffer
        buffer.insert_text(data)
        if data.endswith("\n") and should_submit(buffer.text):
            buffer.validate_and_handle()

    return bindings
