"""Running fuzz inputs through gradcli in-process, with a per-input time limit.

The oracle of the language fuzzers: a program may fail (a syntax error, a runtime error, a
clean refusal), but no Python exception may escape Session.run (that is gradcli's internal
error), and no input may hang. A program that loops for ever as Python would (a mutated
`while` condition) is stopped at the limit and counted, not failed: Python would hang as well.
"""

from __future__ import annotations

import io
import os
import signal
import sys
from contextlib import contextmanager

from gradcli.engine.state import STATE
from gradcli.language.session import Session

LONG = os.environ.get("GRADCLI_FUZZ") == "long"
TIME_LIMIT = 2.0  # seconds per input


class OutOfTime(BaseException):
    """Raised by the alarm into a run that passed the time limit (no `except` of the language
    catches a host BaseException)."""


@contextmanager
def time_limit(seconds: float):
    def alarm(signum, frame):
        raise OutOfTime()
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Tally:
    """What a batch of inputs did: internal errors (failures) and inputs stopped at the limit."""

    def __init__(self, limit: float = TIME_LIMIT):
        self.limit = limit
        self.internal: list[str] = []
        self.timeouts: list[str] = []
        self.ran = 0
        self.ok = 0

    def run(self, source: str) -> None:
        self.ran += 1
        previous_sink = STATE.warning_sink
        STATE.warning_sink = lambda category, message: None
        limit = sys.getrecursionlimit()
        try:
            with time_limit(self.limit):
                outcome = Session(write=io.StringIO().write).run(source)
            self.ok += outcome.ok
        except OutOfTime:
            self.timeouts.append(source)
        except (Exception, RecursionError) as error:  # any escape is an internal error
            self.internal.append(f"{type(error).__name__}: {error}\n--- input ---\n{source}")
        finally:
            STATE.warning_sink = previous_sink
            sys.setrecursionlimit(limit)

    def report(self) -> str:
        shown = "\n\n".join(self.internal[:10])
        return (f"{len(self.internal)} internal errors in {self.ran} inputs "
                f"({len(self.timeouts)} stopped at {self.limit} s):\n{shown}")
