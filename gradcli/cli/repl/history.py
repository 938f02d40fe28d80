"""Input history kept across sessions in the XDG state directory, never failing when unwritable."""

from __future__ import annotations

import os
from pathlib import Path

from prompt_toolkit.history import FileHistory, History, InMemoryHistory


def history_path() -> Path:
    """$XDG_STATE_HOME/gradcli/history, or ~/.local/state/gradcli/history."""
    state = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "gradcli" / "history"


class TolerantFileHistory(FileHistory):
    """A FileHistory that treats an unreadable or unwritable file as an empty, in-memory one."""

    def load_history_strings(self):
        try:
            entries = list(super().load_history_strings())
        except (OSError, UnicodeDecodeError):
            entries = []
        yield from entries

    def store_string(self, string: str) -> None:
        try:
            super().store_string(string)
        except OSError:
            pass


def make_history() -> History:
    """The persistent history, or an in-memory one when its folder cannot be created."""
    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return InMemoryHistory()
    return TolerantFileHistory(str(path))
