"""Shared test fixtures: the installed gradcli console script, a runner, address normalisation."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gradcli.engine.ops import load_all

# torch as the oracle runs on one thread: snippets run in forked children (tests/snippets.py), and
# a child forked after torch's OpenMP pool has started can block forever on the pool's lock.
os.environ.setdefault("OMP_NUM_THREADS", "1")
# matplotlib as the oracle draws off screen: a desktop's show() would wait for its window.
os.environ.setdefault("MPLBACKEND", "Agg")

# gradcli loads its op areas on first use; tests that list every row or declaration (the op
# table's tests, the fuzzers) see them all, as a program that names them would.
load_all()

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")  # the same rule as tests/golden/record.py


def find_gradcli_exe() -> str | None:
    """The gradcli console script next to this interpreter, else the one on PATH, else None."""
    beside = Path(sys.executable).with_name("gradcli")
    if beside.is_file():
        return str(beside)
    return shutil.which("gradcli")


@pytest.fixture(scope="session")
def gradcli_exe() -> str:
    """Path of the installed gradcli console script; skips when it is not installed."""
    exe = find_gradcli_exe()
    if exe is None:
        pytest.skip("gradcli console script not installed; run `pip install -e .` in the venv")
    return exe


@pytest.fixture(scope="session")
def normalize_addresses():
    """A function replacing object addresses (0x7f3a...) with 0x?, as the golden recorder does."""
    return lambda text: ADDRESS.sub("0x?", text)


@pytest.fixture
def run_gradcli(gradcli_exe):
    """A function run_gradcli(args, stdin=None) that runs the console script (CompletedProcess)."""

    def run(args, stdin=None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [gradcli_exe, *args],
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
        )

    return run


def reset_torch_globals(torch) -> None:
    """Undo process-wide torch (and pyplot) settings an earlier test may have changed, before
    running a program."""
    torch.set_printoptions(profile="default")
    torch.set_default_dtype(torch.float32)
    torch.set_grad_enabled(True)
    from snippets import close_figures
    close_figures()


# A printed number: not part of a name such as MulBackward0 or float64.
_NUMBER = re.compile(r"(?<![A-Za-z_\d.])(-?(?:\d+\.\d*|\.\d+|\d+)(?:e[+-]?\d+)?|-?inf|nan)")


def _printed_unit(token: str) -> float:
    """One unit in the last printed place of a float token (1e-4 for '0.1234', 1 for '2.')."""
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (-decimals + (int(exponent) if exponent else 0))


def numbers_close(actual: str, expected: str, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """Two printed numbers agree: integers exactly, floats within two units of the last printed
    digit (so an ulp that flips the rounding of a printed digit is accepted) plus `rtol`, or both
    within `atol` of zero (rounding noise of a quantity that is exactly zero in real numbers)."""
    if actual == expected:
        return True
    floating = any(c in token for token in (actual, expected) for c in ".en")
    if not floating:
        return False
    a, b = float(actual), float(expected)
    if a != a or b != b or a in (float("inf"), float("-inf")) or b in (float("inf"), float("-inf")):
        return a == b or (a != a and b != b)
    unit = max(_printed_unit(actual), _printed_unit(expected))
    return abs(a - b) <= 2 * unit + rtol * max(abs(a), abs(b)) or max(abs(a), abs(b)) <= atol


def output_mismatch(actual: str, expected: str, rtol: float = 1e-5, atol: float = 1e-6,
                    cancellation: bool = False) -> str | None:
    """None when the texts agree except for numbers within tolerance (and the spacing numbers of
    another width bring), else a description of the first difference. With `cancellation`, a
    number may also differ by `rtol` times the largest number on its line: the rounding noise of
    a difference of nearly equal float32 values (one ulp of a 2.0 becomes 1e-3 of a 1e-4)."""
    parts_a, parts_b = _NUMBER.split(actual), _NUMBER.split(expected)
    if len(parts_a) != len(parts_b):
        return f"different structure:\n{actual}\n---- expected ----\n{expected}"
    scales = _line_scales(parts_b) if cancellation else None
    for i, (a, b) in enumerate(zip(parts_a, parts_b)):
        if i % 2:
            if not numbers_close(a, b, rtol, atol) and not (
                    scales and abs(float(a) - float(b)) <= rtol * scales[i]):
                return f"number {a} != {b}:\n{actual}\n---- expected ----\n{expected}"
        elif " ".join(a.split()) != " ".join(b.split()) or (a.strip() == "") != (b.strip() == ""):
            return f"text {a!r} != {b!r}:\n{actual}\n---- expected ----\n{expected}"
    return None


def _line_scales(parts: list) -> dict:
    """For each number (odd index of a `_NUMBER.split`), the largest finite magnitude on its line."""
    lines, line = {}, 0
    for i, part in enumerate(parts):
        if i % 2:
            lines[i] = line
        else:
            line += part.count("\n")
    largest: dict = {}
    for i, n in lines.items():
        value = abs(float(parts[i]))
        if value == value and value != float("inf"):
            largest[n] = max(largest.get(n, 0.0), value)
    return {i: largest.get(n, 0.0) for i, n in lines.items()}
