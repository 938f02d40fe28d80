"""The record of torch's Python functions that hand calls to __torch_function__ handlers."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "golden"))
from record_overridable import RECORD, python_overridable  # noqa: E402


def test_record_is_current():
    pytest.importorskip("torch")
    assert json.loads(RECORD.read_text()) == python_overridable(), \
        "run python tests/golden/record_overridable.py"
