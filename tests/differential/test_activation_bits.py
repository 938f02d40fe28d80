"""Activations whose kernels gradcli reproduces in torch's own float order (vectorised body with
SLEEF's exp, scalar tail with std::exp, GCC's fused multiply-adds), compared bit for bit with
torch itself (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.grad_api import backward
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")

SIZES = (1, 3, 8, 15, 16, 17, 31, 32, 33, 64, 100, 1000, 40_000)


def _tensor(values: np.ndarray, requires_grad: bool = False) -> Tensor:
    t = Tensor(values.copy(), dtypes.from_numpy(values.dtype))
    t.requires_grad = requires_grad
    return t


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["sigmoid", "silu", "tanh", "hardsigmoid"])
def test_activation_and_its_gradient_match_torch_bit_for_bit(name, dtype):
    """tanh's own values come from MKL in torch: its backward is checked on torch's values."""
    rng = np.random.default_rng(3)
    mismatches = []
    for size in SIZES:
        x = (rng.standard_normal(size) * 3).astype(dtype)
        g = rng.standard_normal(size).astype(dtype)
        theirs_in = torch.from_numpy(x).requires_grad_()
        theirs = getattr(torch.nn.functional, name)(theirs_in)
        theirs.backward(torch.from_numpy(g))
        if name == "tanh":
            ours_out = F.tanh_backward(_tensor(g), _tensor(theirs.detach().numpy())).data
            if ours_out.tobytes() != theirs_in.grad.numpy().tobytes():
                mismatches.append((size, "backward"))
            continue
        mismatches += _differences(size, x, g, theirs_in, theirs, getattr(F, name))
    assert not mismatches


def _differences(size, x, g, theirs_in, theirs, ours_function) -> list:
    """Where gradcli's forward and backward of `ours_function` differ from torch's run."""
    ours_in = _tensor(x, requires_grad=True)
    ours = ours_function(ours_in)
    backward(ours, _tensor(g))
    differences = []
    if ours.data.tobytes() != theirs.detach().numpy().tobytes():
        differences.append((size, "forward"))
    if ours_in.grad.data.tobytes() != theirs_in.grad.numpy().tobytes():
        differences.append((size, "backward"))
    return differences


SLEEF_ACTIVATIONS = {
    "elu": lambda f, x: f.elu(x), "elu_alpha": lambda f, x: f.elu(x, 0.3),
    "selu": lambda f, x: f.selu(x), "celu": lambda f, x: f.celu(x, 0.7),
    "softplus": lambda f, x: f.softplus(x), "softplus_beta": lambda f, x: f.softplus(x, 2.0, 5.0),
    "logsigmoid": lambda f, x: f.logsigmoid(x), "mish": lambda f, x: f.mish(x),
}


# float64 mish takes SLEEF's double tanh, which gradcli does not repeat yet
SLEEF_CASES = [(name, dtype) for name in sorted(SLEEF_ACTIVATIONS)
               for dtype in (np.float32, np.float64) if (name, dtype) != ("mish", np.float64)]


@pytest.mark.parametrize("name, dtype", SLEEF_CASES)
def test_activation_with_sleef_kernels_matches_torch_bit_for_bit(name, dtype):
    """SLEEF's expm1, exp and log1p in the vector code, glibc's in the scalar tails."""
    rng = np.random.default_rng(5)
    call = SLEEF_ACTIVATIONS[name]
    mismatches = []
    for size in SIZES:
        x = (rng.standard_normal(size) * 4).astype(dtype)
        g = rng.standard_normal(size).astype(dtype)
        theirs_in = torch.from_numpy(x).requires_grad_()
        theirs = call(torch.nn.functional, theirs_in)
        theirs.backward(torch.from_numpy(g))
        mismatches += _differences(size, x, g, theirs_in, theirs, lambda t: call(F, t))
    assert not mismatches


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_float32_gelu_and_its_gradient_match_torch_bit_for_bit(approximate):
    """oneDNN's kernels for a contiguous input of several elements (approximate='none'), ATen's
    vector code and scalar tails otherwise, 0-d tensors included."""
    rng = np.random.default_rng(11)
    mismatches = []
    for size in (None, *SIZES, 300_000):
        shape = () if size is None else (size,)
        x = np.asarray(rng.standard_normal(shape) * 3, np.float32)
        g = np.asarray(rng.standard_normal(shape), np.float32)
        theirs_in = torch.from_numpy(x.copy()).requires_grad_()
        theirs = torch.nn.functional.gelu(theirs_in, approximate=approximate)
        theirs.backward(torch.from_numpy(g.copy()))
        ours_in = _tensor(x, requires_grad=True)
        ours = F.gelu(ours_in, approximate)
        backward(ours, _tensor(g))
        if ours.data.tobytes() != theirs.detach().numpy().tobytes():
            mismatches.append((size, "forward"))
        if ours_in.grad.data.tobytes() != theirs_in.grad.numpy().tobytes():
            mismatches.append((size, "backward"))
    assert not mismatches


def test_float32_gelu_of_special_values_matches_torch():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 5.54, -5.54, 13.0, -13.0,
                  -3.624956, 88.0, -88.0], np.float32)
    for approximate in ("none", "tanh"):
        theirs = torch.nn.functional.gelu(torch.from_numpy(x), approximate=approximate).numpy()
        ours = F.gelu(_tensor(x), approximate).data
        assert np.array_equal(ours, theirs, equal_nan=True), approximate
        grad = torch.ops.aten.gelu_backward(torch.ones(x.size), torch.from_numpy(x),
                                            approximate=approximate).numpy()
        ours_grad = F.gelu_backward(_tensor(np.ones_like(x)), _tensor(x), approximate).data
        assert np.array_equal(ours_grad, grad, equal_nan=True), approximate


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_float32_gelu_of_strided_inputs_matches_torch(approximate):
    """Non-contiguous inputs run ATen's kernel in TensorIterator's order: memory order when
    dense, the scalar code alone when the innermost stride is not one."""
    rng = np.random.default_rng(12)
    base = torch.from_numpy(np.asarray(rng.standard_normal((70, 66)) * 3, np.float32))
    grad = torch.from_numpy(np.asarray(rng.standard_normal((70, 70)), np.float32))
    for x, g in ((base.t(), grad[:66]), (base.t(), grad[:, :66].t()),
                 (base[:, ::2], grad[:, :33]), (base[:, :33], grad[:, :66:2]),
                 (base[:, :1].expand(70, 40), grad[:, :40])):
        theirs = torch.nn.functional.gelu(x, approximate=approximate).numpy()
        ours = F.gelu(Tensor(x.numpy(), dtypes.float32), approximate).data  # x's own strides
        assert np.array_equal(ours, theirs)
        theirs_grad = torch.ops.aten.gelu_backward(g, x, approximate=approximate).numpy()
        ours_grad = F.gelu_backward(Tensor(g.numpy(), dtypes.float32),
                                    Tensor(x.numpy(), dtypes.float32), approximate).data
        assert np.array_equal(ours_grad, theirs_grad)
