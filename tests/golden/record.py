"""Record golden outputs of every example script by running it with Python and real torch 2.13.0.

Usage: python tests/golden/record.py
Writes tests/golden/examples/<path under examples/, .py replaced by .json> for examples/**/*.py
and removes golden files whose example no longer exists.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests"))

from golden_machine import base_path, write_records  # noqa: E402

EXAMPLES_DIR = REPO_ROOT / "examples"
GOLDEN_DIR = REPO_ROOT / "tests" / "golden" / "examples"
TORCH_VERSION = "2.13.0"
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")  # the same rule as normalize_addresses in tests/conftest.py


def normalize_addresses(text: str) -> str:
    """Replace object addresses such as 0x7f3a... with 0x?, since they change from run to run."""
    return ADDRESS.sub("0x?", text)


def record(example: Path) -> dict:
    """Run one example with this interpreter and return its golden record."""
    done = subprocess.run(
        [sys.executable, str(example)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        # torch on one thread, as the tests run gradcli (tests/conftest.py)
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "OMP_NUM_THREADS": "1"},
        timeout=120,
    )
    error_lines = done.stderr.rstrip("\n").splitlines()
    return {
        "stdout": normalize_addresses(done.stdout),
        "exit_code": done.returncode,
        "error_line": normalize_addresses(error_lines[-1]) if done.returncode != 0 else None,
    }


def golden_path(example: Path) -> Path:
    """Where the golden record of an example lives."""
    return GOLDEN_DIR / example.relative_to(EXAMPLES_DIR).with_suffix(".json")


def main() -> int:
    import torch

    if not torch.__version__.startswith(TORCH_VERSION):
        print(f"refusing: torch is {torch.__version__}, not {TORCH_VERSION}", file=sys.stderr)
        return 1
    examples = sorted(EXAMPLES_DIR.rglob("*.py"))
    with ThreadPoolExecutor(max_workers=2) as pool:
        records = list(pool.map(record, examples))
    for example, golden in zip(examples, records):
        write_records(golden_path(example), golden, indent=2)
        print(f"{example.relative_to(REPO_ROOT)}: exit {golden['exit_code']}")
    wanted = {golden_path(example) for example in examples}
    # every machine kind's own records stay while their base file does
    for stale in sorted(path for path in GOLDEN_DIR.rglob("*.json") if base_path(path) not in wanted):
        stale.unlink()
        print(f"removed stale {stale.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
