"""The recorded `from X import *` names (star_names.json) cover every importable module, name
only what gradcli can reach, and equal what the installed torch and Python bind."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "golden"))

from gradcli.language.namespaces.star_names import recorded  # noqa: E402
from gradcli.language.namespaces.torch_table import MODULES  # noqa: E402


def test_every_module_is_recorded():
    assert set(recorded()["names"]) == set(MODULES)


def test_references_resolve():
    for path, references in recorded()["references"].items():
        for name, reference in references.items():
            owner, _, attr = reference.partition(":")
            assert attr in MODULES if owner == "module" else attr in MODULES[owner].table, (
                path, name)


def test_record_is_current():
    """In a fresh process, as the record is made: what `import *` binds depends on which of
    torch's submodules earlier tests imported."""
    pytest.importorskip("torch")
    import json
    import subprocess
    golden = Path(__file__).resolve().parents[1] / "golden"
    program = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
               "from record_star_names import star_names; print(json.dumps(star_names()))")
    made = subprocess.run([sys.executable, "-c", program, str(golden)], capture_output=True,
                          text=True, check=True).stdout
    assert json.loads(made) == recorded()
