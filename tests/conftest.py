"""Shared test fixtures: the installed gradcli console script, a runner, address normalisation."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
