"""Backward twice through every op-table row: torch's "backward a second time" error exactly where
torch raises it (only nodes that saved tensors fail), and no error with retain_graph=True."""

from __future__ import annotations

import pytest

from conftest import output_mismatch
from op_runner import case_params, gradcli_outcome, torch_outcome

torch = pytest.importorskip("torch")
PARAMS = case_params()


def twice_program(case, retain: bool) -> str:
    prints = "\n".join(f"print({name}.grad)" for name in case.names)
    first = "y.backward(_u, retain_graph=True)" if retain else "y.backward(_u)"
    return (case.source() + "_u = torch.full_like(y, 0.5)\n" + first + "\n" + prints + "\n"
            + "y.backward(_u)\n" + prints + "\n")


@pytest.mark.parametrize("retain", [False, True], ids=["freed", "retained"])
@pytest.mark.parametrize("key, case", [p[1:] for p in PARAMS], ids=[p[0] for p in PARAMS])
def test_second_backward_matches_torch(key, case, retain):
    assert case is not None, f"op-table row {key} has no sample program in op_case_table.py"
    program = twice_program(case, retain)
    expected_out, expected_error = torch_outcome(program)
    actual_out, actual_error = gradcli_outcome(program)
    mismatch = output_mismatch(actual_out, expected_out)
    assert mismatch is None, f"{program}\n{mismatch}"
    assert actual_error == expected_error, program
