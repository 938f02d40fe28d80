"""The limits of one command: `--timeout SECONDS` (exit 124 with a message, as coreutils'
`timeout` exits) and `--max-memory SIZE` (the engine's allocation limit). The REPL applies the
timeout to each statement instead of to the whole session."""

from __future__ import annotations

import math
import os
import sys
from contextlib import contextmanager

from gradcli.engine import memory

EXIT_TIMED_OUT = 124
DEFAULT_MEMORY_SHARE = 0.75  # of the machine's memory, when --max-memory is not given
# After the timer fires, a statement stuck inside one long NumPy call cannot be interrupted;
# this long after, the process ends from a second thread.
GRACE_SECONDS = 2.0


class TimedOut(KeyboardInterrupt):
    """Raised in the main thread when the time is up: it unwinds as Ctrl-C does, so a REPL
    statement that runs out of time is rolled back."""


def timed_out_message(seconds: float) -> str:
    return f"gradcli: timed out after {seconds:g} s (--timeout)\n"


def report_timeout(seconds: float) -> int:
    """After TimedOut: what was printed so far, the message, and timeout's exit code."""
    sys.stdout.flush()
    sys.stderr.write(timed_out_message(seconds))
    return EXIT_TIMED_OUT


@contextmanager
def time_limit(seconds: float | None):
    """Raise TimedOut in the main thread after `seconds` (None: no limit)."""
    if seconds is None:
        yield
        return

    def expire(_signum, _frame):
        raise TimedOut

    def end_process():  # the main thread did not reach Python code again in time
        os.write(2, timed_out_message(seconds).encode())
        os._exit(EXIT_TIMED_OUT)

    import signal  # only runs with a time limit set an alarm and start a thread
    import threading

    previous = signal.signal(signal.SIGALRM, expire)
    backstop = threading.Timer(seconds + GRACE_SECONDS, end_process)
    backstop.daemon = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    backstop.start()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        backstop.cancel()
        signal.signal(signal.SIGALRM, previous)


def set_memory_limit(size: int | None) -> None:
    """The largest allocation a run may make: `size` bytes, else a share of the machine's."""
    if size is None:
        physical = memory.physical_memory()
        size = int(physical * DEFAULT_MEMORY_SHARE) if physical is not None else None
    memory.LIMIT.bytes = size


def _seconds(value: float | None) -> float | None:
    if value is not None and not (math.isfinite(value) and value > 0):
        from typer import BadParameter
        raise BadParameter(f"expected a positive number of seconds, got {value:g}")
    return value


def _size(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return memory.parse_size(text)
    except ValueError:
        from typer import BadParameter
        raise BadParameter(
            f"expected a size such as 512M or 2G (powers of 1024), got {text!r}") from None


TIMEOUT_HELP = ("Stop after SECONDS with exit code 124, as `timeout` does (the REPL: each "
                "statement).")
MAX_MEMORY_HELP = ("Refuse any single allocation larger than SIZE (bytes, or 512M, 2G: powers "
                   "of 1024); default three quarters of the machine's memory.")
TIMEOUT_OPTION = dict(metavar="SECONDS", callback=_seconds, help=TIMEOUT_HELP)
MAX_MEMORY_OPTION = dict(metavar="SIZE", callback=_size, help=MAX_MEMORY_HELP)
