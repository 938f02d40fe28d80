"""Time from launch to the first `>>> ` prompt: the gradcli REPL next to `python -q` (Unix pty).

Usage: python benchmarks/repl_startup.py [--runs 10] [--gradcli PATH]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

PROMPT = b">>>"  # prompt_toolkit moves the cursor past the prompt's space instead of printing it
CURSOR_QUERY, CURSOR_ANSWER = b"\x1b[6n", b"\x1b[1;1R"


def time_to_prompt(argv: list[str], timeout: float = 30.0) -> float:
    """Seconds from starting `argv` on a fresh pseudo-terminal until it prints the prompt."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM=os.environ.get("TERM", "xterm-256color"))
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                             start_new_session=True, close_fds=True)
    os.close(slave)
    seen = b""
    try:
        while PROMPT not in seen:
            left = timeout - (time.perf_counter() - start)
            ready, _, _ = select.select([master], [], [], max(left, 0))
            if not ready:
                raise TimeoutError(f"no prompt from {argv} within {timeout} s: {seen[-200:]!r}")
            seen += os.read(master, 4096)
            if CURSOR_QUERY in seen:  # answer as a terminal would
                os.write(master, CURSOR_ANSWER)
                seen = seen.replace(CURSOR_QUERY, b"")
        return time.perf_counter() - start
    finally:
        os.write(master, b"\x04")
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        os.close(master)


def find_gradcli() -> str:
    beside = Path(sys.executable).with_name("gradcli")
    return str(beside) if beside.is_file() else (shutil.which("gradcli") or "gradcli")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="launches per program (default 10)")
    parser.add_argument("--gradcli", default=find_gradcli(), help="the gradcli console script")
    args = parser.parse_args()
    programs = {"python -q": [sys.executable, "-q"], "gradcli (REPL)": [args.gradcli]}
    for argv in programs.values():  # warm the disk cache and lark's grammar cache
        time_to_prompt(argv)
    print(f"time to first prompt, {args.runs} runs each")
    for name, argv in programs.items():
        times = [time_to_prompt(argv) * 1000 for _ in range(args.runs)]
        print(f"  {name:<16} median {statistics.median(times):7.1f} ms   "
              f"min {min(times):7.1f} ms   max {max(times):7.1f} ms")


if __name__ == "__main__":
    main()
