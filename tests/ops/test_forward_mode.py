"""Forward-mode derivatives (torch.autograd.forward_ad) match torch's, primal and tangent, for every
sample program of each op-table row that declares a jvp rule (float64; the dual inputs do not
require grad, so the tangents are plain values)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import output_mismatch
from gradcli.engine.ops.registry import OPS
from op_runner import case_param, case_params, gradcli_outcome, torch_outcome

torch = pytest.importorskip("torch")
# Programs that differentiate in reverse mode inside (grad_of) need inputs that require grad.
PARAMS = [p for p in case_params() if OPS[p[1]].jvp is not None
          and (p[2] is None or "autograd.grad" not in p[2].expr)]

# The functions issue 11 added by one declaration each: their rows must carry forward mode.
DECLARED_WITH_JVP = ("logaddexp", "hypot", "xlogy.Tensor", "xlogy.Scalar_Self",
                     "xlogy.Scalar_Other", "logit", "sinc", "deg2rad", "addcmul", "addcdiv")


def _literal(shape: tuple, seed: int, dtype: str) -> str:
    values = np.round(np.random.default_rng(seed).uniform(-1.5, 1.5, shape), 3)
    return f"torch.tensor({values.tolist()!r}, dtype=torch.{dtype})"


def forward_program(case) -> str:
    """The case's inputs made dual (each with its own tangent), then `y` and its unpacked dual."""
    lines = case.source().splitlines()[:-1 - len(case.setup)]
    lines += ["import torch.autograd.forward_ad as fwAD", "with fwAD.dual_level():"]
    for i, (name, shape, _) in enumerate(case.inputs):
        lines.append(f"    {name} = fwAD.make_dual({name}.detach(), {_literal(shape, i, case.dtype)})")
    lines += [f"    {line}" for line in case.setup]
    lines += [f"    y = {case.expr}", "    print(fwAD.unpack_dual(y))"]
    return "\n".join(lines) + "\n"


def test_issue_functions_declare_forward_mode():
    missing = [key for key in DECLARED_WITH_JVP if OPS[key].jvp is None]
    assert not missing, f"rows without a jvp rule: {missing}"


@pytest.mark.parametrize("key, case", [case_param(*p, {}) for p in PARAMS])
def test_forward_derivatives_match_torch(key, case):
    assert case is not None, f"op-table row {key} has no sample program in op_case_table.py"
    program = forward_program(case)
    expected_out, expected_error = torch_outcome(program)
    actual_out, actual_error = gradcli_outcome(program)
    mismatch = output_mismatch(actual_out, expected_out)
    assert mismatch is None, f"{program}\n{mismatch}"
    assert actual_error == expected_error, program
