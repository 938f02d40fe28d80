#!/usr/bin/env python3
"""The cost of provenance (issue 15): W4 and W5 under gradcli as it is, and under a copy of
gradcli with every provenance statement taken out (the source origin handed to the engine by
each operation, the origin kept by nodes, version bumps, freed graphs, leaves and no-grad
outputs, the no-history notes, and the narration hooks of backward). Runs alternate between
the two; prints median wall times and their ratio.

    benchmarks/provenance.py [--runs N] [--only w4,w5]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "gradcli"

# (file, pattern, replacement): each must match at least once, so a stale one fails loudly.
WITHOUT = [
    ("language/compiler/*.py", r"\n *(state|STATE)\.origin = origin\b[^\n]*", ""),
    ("engine/autograd.py", r"self\.origin, self\.freed_at = STATE\.origin, None",
     "self.origin = self.freed_at = None"),
    ("engine/backward.py", r"\n *node\.freed_at = STATE\.origin[^\n]*", ""),
    ("engine/backward.py", r"observer = STATE\.backward_observer", "observer = None"),
    ("engine/backward.py", r"if STATE\.backward_observer is not None:", "if False:"),
    ("engine/tensor.py", r"\n *counter\.bumped_at = STATE\.origin[^\n]*", ""),
    ("engine/tensor.py", r"\n *if flag:\n *self\._leaf_at = STATE\.origin[^\n]*", ""),
    ("engine/ops/registry.py", r"_note_no_history\(op, args, outputs, grad_enabled\)", "pass"),
    ("engine/creation.py", r"out\._made_at = origin = STATE\.origin\n.*?return out",
     "return out"),
    ("engine/state.py", r"\n *if not enabled:\n *STATE\.grad_off_at = STATE\.origin[^\n]*", ""),
]


def stripped_copy(target: Path) -> Path:
    """A copy of the gradcli package under `target`, without provenance."""
    copy = target / "gradcli"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for pattern_files, pattern, replacement in WITHOUT:
        hits = 0
        for path in sorted(copy.glob(pattern_files)):
            text = path.read_text()
            new, count = re.subn(pattern, replacement, text, flags=re.S)
            hits += count
            path.write_text(new)
        if not hits:
            raise SystemExit(f"provenance.py: {pattern!r} no longer matches {pattern_files}")
    return target


def wall(pythonpath: Path, script: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gradcli", "run", str(script)], check=True,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(pythonpath)))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="w4,w5")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        without = stripped_copy(Path(scratch))
        print("| workload | with provenance (s) | without (s) | ratio |")
        print("|---|---|---|---|")
        for name in options.only.split(","):
            script = next((HERE / "workloads").glob(f"{name}_*.py"))
            wall(HERE.parent, script), wall(without, script)  # compile caches, warm disk
            times: dict[str, list] = {"with": [], "without": []}
            for _ in range(options.runs):
                times["with"].append(wall(HERE.parent, script))
                times["without"].append(wall(without, script))
            on, off = (statistics.median(times[k]) for k in ("with", "without"))
            print(f"| {script.stem} | {on:.3f} | {off:.3f} | {on / off:.3f} |", flush=True)


if __name__ == "__main__":
    main()
