"""Record golden records of snippet cases by running each one with real torch 2.13.0.

Usage: python tests/golden/record_cases.py [GROUP ...]
Reads tests/cases/<group>.cases (all groups when none is named) and writes
tests/golden/cases/<group>.json (see tests/golden_machine.py for records that differ by machine).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# torch on one thread, as the tests run it (tests/conftest.py): its threaded kernels sum otherwise
os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import golden_machine  # noqa: E402
import snippets  # noqa: E402

TORCH_VERSION = "2.13.0"


def record(group: str) -> None:
    sources = snippets.load_cases(group)
    records = {name: snippets.run_torch(source) for name, source in sources.items()}
    target = snippets.golden_path(group)
    golden_machine.write_records(target, records, sources=sources)
    print(f"{target.relative_to(snippets.TESTS_DIR.parent)}: {len(records)} cases")


def main(groups: list[str]) -> int:
    import torch

    if not torch.__version__.startswith(TORCH_VERSION):
        print(f"refusing: torch is {torch.__version__}, not {TORCH_VERSION}", file=sys.stderr)
        return 1
    for group in groups or sorted(p.stem for p in snippets.CASES_DIR.glob("*.cases")):
        record(group)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
