"""Time from launch to the first `>>> ` prompt: the gradcli REPL next to `python -q`, and next
to `python -q` that imports numpy before its prompt (issue 18's yardstick: at most twice that).
Unix pty.

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


def time_to_prompt(argv: list[str], timeout: float = 30.0, extra_env: dict | None = None) -> float:
    """Seconds from starting `argv` on a fresh pseudo-terminal until it prints the prompt."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM=os.environ.get("TERM", "xterm-256color"), **(extra_env or {}))
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
    startup = Path(__file__).resolve().parent / "floors" / "import_numpy.py"
    programs = {"python -q": ([sys.executable, "-q"], None),
                "python -q + numpy": ([sys.executable, "-q"], {"PYTHONSTARTUP": str(startup)}),
                "gradcli (REPL)": ([args.gradcli], None)}
    for argv, env in programs.values():  # warm the disk cache and the parser cache
        time_to_prompt(argv, extra_env=env)
    print(f"time to first prompt, {args.runs} runs each (interleaved)")
    times = {name: [] for name in programs}
    for _ in range(args.runs):
        for name, (argv, env) in programs.items():
            times[name].append(time_to_prompt(argv, extra_env=env) * 1000)
    for name, taken in times.items():
        print(f"  {name:<18} median {statistics.median(taken):7.1f} ms   "
              f"min {min(taken):7.1f} ms   max {max(taken):7.1f} ms")
    ratio = statistics.median(times["gradcli (REPL)"]) / statistics.median(
        times["python -q + numpy"])
    print(f"  gradcli / (python -q + numpy): {ratio:.2f}x")

if __name__ == "__main__":
    main()
