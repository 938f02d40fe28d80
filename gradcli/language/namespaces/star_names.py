"""What `from X import *` binds (recorded from Python and torch 2.13.0 by
tests/golden/record_star_names.py): the names, and where gradcli finds those a module re-exports."""

from __future__ import annotations

import os
from functools import cache

RECORD = os.path.join(os.path.dirname(__file__), "star_names.json")


@cache
def recorded() -> dict:
    """{"names": path -> names, "references": path -> {name: reference}}."""
    import json  # only when a program runs a star import
    with open(RECORD, encoding="utf-8") as handle:
        return json.load(handle)
