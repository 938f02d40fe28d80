"""Every example script, run by the installed gradcli console script, matches its golden record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from golden_machine import BASE_MACHINE, MACHINE, is_machine_file, read_records
from known_divergences import KNOWN_DIVERGENCES, MACHINE_DIVERGENCES, MACHINE_UNREPRODUCED

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_DIR = REPO_ROOT / "examples"
GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden" / "examples"
GOLDEN_FILES = sorted(p for p in GOLDEN_DIR.rglob("*.json") if not is_machine_file(p))


def example_for(golden: Path) -> Path:
    """The example script a golden file was recorded from."""
    return EXAMPLES_DIR / golden.relative_to(GOLDEN_DIR).with_suffix(".py")


def last_line(text: str) -> str:
    """The last line of text, ignoring trailing newlines."""
    from snippets import without_notes
    lines = without_notes(text).rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def assert_matches_golden(done: subprocess.CompletedProcess, golden: Path, normalize) -> None:
    """Compare stdout, exit code and final error line with the recorded ones."""
    expected = read_records(golden)
    assert normalize(done.stdout) == expected["stdout"]
    assert done.returncode == expected["exit_code"], done.stderr
    if expected["error_line"] is not None:
        assert normalize(last_line(done.stderr)) == expected["error_line"]


def test_golden_files_exist():
    assert GOLDEN_FILES, "no golden files; run `python tests/golden/record.py`"
    for golden in GOLDEN_FILES:
        assert example_for(golden).is_file(), f"{golden} has no example; re-run the recorder"


GOLDEN_IDS = [str(golden.relative_to(GOLDEN_DIR).with_suffix("")) for golden in GOLDEN_FILES]

TUTORIALS = sorted((EXAMPLES_DIR / "tutorials").glob("*.py"))


def _param(golden: Path, name: str):
    reason = KNOWN_DIVERGENCES.get(name)
    # the list was measured where the base records were made: strict there only
    marks = [pytest.mark.xfail(reason=reason, strict=MACHINE == BASE_MACHINE)] if reason else []
    if name in MACHINE_DIVERGENCES.get(MACHINE, {}):
        marks = [pytest.mark.xfail(reason=MACHINE_DIVERGENCES[MACHINE][name], strict=True)]
    elif name in MACHINE_UNREPRODUCED.get(MACHINE, {}):
        marks = [pytest.mark.xfail(reason=MACHINE_UNREPRODUCED[MACHINE][name], strict=False)]
    return pytest.param(golden, id=name, marks=marks)


def test_known_divergences_name_existing_goldens():
    assert set(KNOWN_DIVERGENCES) <= set(GOLDEN_IDS)


def test_forty_public_tutorials_name_their_origin_and_match():
    """Issue 13: at least 40 programs of public teaching material, each naming its origin on its
    first line, with a golden record and no known divergence."""
    sourced = [p for p in TUTORIALS if p.read_text(encoding="utf-8").startswith("# From: ")]
    matching = [p for p in sourced if f"tutorials/{p.stem}" not in KNOWN_DIVERGENCES
                and (GOLDEN_DIR / "tutorials" / f"{p.stem}.json").is_file()]
    assert len(matching) >= 40, len(matching)


@pytest.mark.parametrize("golden", [_param(g, n) for g, n in zip(GOLDEN_FILES, GOLDEN_IDS)])
def test_example_matches_torch(golden, run_gradcli, normalize_addresses):
    done = run_gradcli(["run", str(example_for(golden))])
    assert_matches_golden(done, golden, normalize_addresses)


def test_python_dash_m_runs_an_example(gradcli_exe, tmp_path, normalize_addresses):
    golden = GOLDEN_DIR / "seeds" / "000_backward_call.json"
    done = subprocess.run(
        [sys.executable, "-m", "gradcli", "run", str(example_for(golden))],
        cwd=tmp_path,  # away from the source tree, so the installed package runs
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert_matches_golden(done, golden, normalize_addresses)
