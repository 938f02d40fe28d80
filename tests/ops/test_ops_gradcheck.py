"""Every differentiable op-table row against central finite differences in float64: analytic
vector-Jacobian products from backward agree with directional derivatives of the forward, for
each sample program (scalar, vector, matrix and broadcast operands) of op_case_table.py."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from gradcli.engine import grad_api
from gradcli.engine.errors import TorchError
from gradcli.engine.tensor import Tensor
from op_runner import case_params, gradcli_run

PARAMS = case_params()


def _program_after_inputs(case) -> str:
    return "\n".join([*case.setup, f"y = {case.expr}"]) + "\n"


def _evaluate(session, case, inputs: dict) -> np.ndarray:
    """y for the given input values (fresh leaves), re-running the program after the inputs."""
    for name, tensor in inputs.items():
        session.globals.vars[name] = Tensor(tensor.data.copy(), tensor.dtype, requires_grad=True)
    outcome = session.run(_program_after_inputs(case))
    assert outcome.error is None, outcome.error.message
    return session.globals.vars["y"].data.astype(np.float64)


@pytest.mark.parametrize("key, case", [p[1:] for p in PARAMS], ids=[p[0] for p in PARAMS])
def test_backward_matches_finite_differences(key, case):
    assert case is not None, f"op-table row {key} has no sample program in op_case_table.py"
    session, _ = gradcli_run(case.source())
    inputs = {name: session.globals.vars[name] for name in case.names}
    y = session.globals.vars["y"]
    rng = np.random.default_rng(zlib.crc32(case.expr.encode()))
    cotangent = Tensor(rng.uniform(-1, 1, y.shape).astype(y.dtype.np), y.dtype)
    if not case.grad:
        with pytest.raises(TorchError):
            grad_api.grad([y], list(inputs.values()), [cotangent], allow_unused=True)
        return
    grads = grad_api.grad([y], list(inputs.values()), [cotangent], allow_unused=True)
    eps = 1e-6 if case.dtype == "float64" else 1e-2
    for _ in range(2):
        directions = {n: rng.uniform(-1, 1, t.shape) for n, t in inputs.items()}
        moved = {}
        for sign in (1, -1):
            shifted = {n: Tensor((t.data + sign * eps * directions[n]).astype(t.dtype.np), t.dtype)
                       for n, t in inputs.items()}
            moved[sign] = _evaluate(session, case, shifted)
        numeric = float(np.sum(cotangent.data * (moved[1] - moved[-1]))) / (2 * eps)
        analytic = sum(float(np.sum(g.data * directions[n])) for n, g in zip(inputs, grads)
                       if g is not None)
        assert abs(numeric - analytic) <= case.tolerance * 10 + 1e-5 * abs(analytic), (
            f"{case.source()}numeric {numeric} != analytic {analytic}")
