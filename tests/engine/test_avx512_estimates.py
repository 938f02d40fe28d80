"""vrcp14 and vrsqrt14 as gradcli computes them against the instructions' recorded results
(tests/golden/avx512_estimates.json): the same bits on every input set."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gradcli.engine.avx512_estimates import rcp14, rsqrt14
from golden.record_avx512_estimates import GOLDEN, SHOWN, entry, inputs

RECORDS = json.loads(GOLDEN.read_text(encoding="utf-8"))
SETS = inputs()


@pytest.mark.parametrize("op", [rcp14, rsqrt14], ids=["rcp14", "rsqrt14"])
@pytest.mark.parametrize("name", list(SETS))
def test_estimate_gives_the_instructions_bits(op, name):
    values = SETS[name]
    expected = RECORDS[f"{op.__name__} {name}"]
    ours = op(values)
    shown = np.frombuffer(bytes.fromhex(expected["first"]), values.dtype)
    assert ours[:SHOWN].tobytes() == shown.tobytes(), (values[:SHOWN], shown)
    assert entry(ours) == expected
