"""Float sums and means (whole tensor, or over the last dimension) carry torch's last bits: its
order of additions, compared bit for bit with torch itself (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli.engine.ops  # noqa: F401  (loads every area into F)
from gradcli.engine import dtypes
from gradcli.engine.functions import F
from gradcli.engine.ops import reductions as reductions_module
from gradcli.engine.tensor import Tensor

torch = pytest.importorskip("torch")

SIZES = [*range(1, 70), 100, 255, 256, 257, 999, 2000, 4095, 4096, 4097, 20000, 32768, 32769,
         70000, 200003]


def _case(rng, n: int, dtype):
    values = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4)).astype(dtype)
    if n % 2 == 0:
        values = values.reshape(2, n // 2)
        if n % 4 == 0:
            values = values.T  # a transposed view: dense in memory, not C-ordered
    return values


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_whole_tensor_reductions_match_torch_bit_for_bit(dtype, reduction):
    rng = np.random.default_rng(7)
    mismatches = []
    for n in SIZES:
        values = _case(rng, n, dtype)
        ours = getattr(F, reduction)(Tensor(values, dtypes.from_numpy(values.dtype))).data.item()
        theirs = getattr(torch.from_numpy(values), reduction)().item()
        if ours != theirs:
            mismatches.append((n, ours, theirs))
    assert not mismatches


@pytest.mark.slow
def test_many_random_sums_match_torch():
    rng = np.random.default_rng(11)
    mismatches = 0
    for _ in range(2000):
        n = int(rng.integers(1, 100_000))
        values = _case(rng, n, np.float32 if rng.random() < 0.7 else np.float64)
        ours = F.sum(Tensor(values, dtypes.from_numpy(values.dtype))).data.item()
        mismatches += ours != torch.from_numpy(values).sum().item()
    assert mismatches == 0


SIGNED_ZERO_ROWS = [[-0.0], [-0.0, -0.0], [], [-0.0, 1.0, -1.0], [1e38, 1e38, -1e38] * 2,
                    [np.nan, -0.0], [np.inf, -np.inf, 2.0], [-0.0] * 7, [-0.0] * 9,
                    [1.0000001, 3e-8, 3e-8, 3e-8, 3e-8, 3e-8, 3e-8]]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["sum", "prod", "cumsum", "cumprod"])
def test_short_rows_with_signed_zeros_and_specials_match_torch_bit_for_bit(dtype, reduction):
    """Rows shorter than a vector, whose additions start from a zero accumulator (a sum or a
    running sum of negative zeros is 0.0)."""
    args = (0,) if reduction.startswith("cum") else ()
    mismatches = []
    for row in SIGNED_ZERO_ROWS:
        values = np.array(row, dtype)
        ours = getattr(F, reduction)(Tensor(values, dtypes.from_numpy(values.dtype)), *args).data
        theirs = getattr(torch.from_numpy(values), reduction)(*args).numpy()
        if ours.tobytes() != theirs.tobytes():
            mismatches.append((row, ours.tolist(), theirs.tolist()))
    assert not mismatches


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sums_over_the_last_dimension_match_torch_bit_for_bit(dtype):
    rng = np.random.default_rng(9)
    mismatches = []
    for rows in (1, 3, 16, 100):
        for n in (*range(1, 70, 5), 100, 300):
            values = (rng.standard_normal((rows, n)) * 3).astype(dtype)
            tensor = Tensor(values, dtypes.from_numpy(values.dtype))
            for reduction, options in (("sum", {"dim": 1}), ("mean", {"dim": -1, "keepdim": True})):
                ours = getattr(F, reduction)(tensor, **options).data
                theirs = getattr(torch.from_numpy(values), reduction)(**options).numpy()
                if ours.tobytes() != theirs.tobytes() or ours.shape != theirs.shape:
                    mismatches.append((rows, n, reduction))
    assert not mismatches


def _tensor(values, requires_grad=False):
    t = Tensor(values.copy(), dtypes.from_numpy(values.dtype))
    t.requires_grad = requires_grad
    return t


SOFTMAX_SHAPES = [(7,), (100, 3), (3, 100), (50, 60, 3), (4, 5, 300), (33, 17), (257, 9),
                  (8, 40), (2, 16, 5), (6, 33, 20)]


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_family_and_gradients_match_torch_bit_for_bit(op, dtype):
    from gradcli.engine.grad_api import backward
    rng = np.random.default_rng(21)
    mismatches = []
    for shape in [*SOFTMAX_SHAPES, (1, 13), (13,), (300, 1), (9, 1, 1)] * 3:
        for dim in range(-len(shape), len(shape)):
            x = (rng.standard_normal(shape) * 3).astype(dtype)
            g = rng.standard_normal(shape).astype(dtype)
            theirs_in = torch.from_numpy(x).requires_grad_()
            theirs = getattr(torch, op)(theirs_in, dim)
            theirs.backward(torch.from_numpy(g))
            ours_in = _tensor(x, requires_grad=True)
            ours = getattr(F, op)(ours_in, dim)
            backward(ours, _tensor(g))
            if ours.data.tobytes() != theirs.detach().numpy().tobytes():
                mismatches.append((shape, dim, "forward"))
            if ours_in.grad.data.tobytes() != theirs_in.grad.numpy().tobytes():
                mismatches.append((shape, dim, "backward"))
    assert not mismatches


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_losses_and_gradients_match_torch_bit_for_bit(reduction, dtype):
    from gradcli.engine.grad_api import backward
    rng = np.random.default_rng(23)
    mismatches = []
    for trial in range(60):
        batch, classes = int(rng.integers(1, 2000)), int(rng.integers(2, 40))
        x = (rng.standard_normal((batch, classes)) * 2).astype(dtype)
        y = rng.integers(0, classes, batch)
        options = {"reduction": reduction}
        if trial % 3 == 1:
            y[rng.random(batch) < 0.2] = -100
        if trial % 3 == 2:
            options["weight"] = rng.random(classes).astype(dtype)
        theirs_in = torch.from_numpy(x).requires_grad_()
        weight = options.get("weight")
        theirs = torch.nn.functional.cross_entropy(
            theirs_in, torch.from_numpy(y), **{**options, **(
                {"weight": torch.from_numpy(weight)} if weight is not None else {})})
        theirs.sum().backward()
        ours_in = _tensor(x, requires_grad=True)
        ours = F.cross_entropy(ours_in, Tensor(y, dtypes.int64), **{**options, **(
            {"weight": _tensor(weight)} if weight is not None else {})})
        backward(F.sum(ours) if reduction == "none" else ours)
        if ours.data.tobytes() != theirs.detach().numpy().tobytes():
            mismatches.append((batch, classes, trial, "loss"))
        if ours_in.grad.data.tobytes() != theirs_in.grad.numpy().tobytes():
            mismatches.append((batch, classes, trial, "grad"))
    assert not mismatches


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sums_and_means_over_any_one_dimension_match_torch_bit_for_bit(dtype):
    rng = np.random.default_rng(31)
    mismatches = []
    for shape in [(100, 3), (3, 100), (50, 60, 3), (4, 5, 300), (33, 17), (257, 9),
                  (20, 20, 20), (1000, 40), (70, 7, 70), (40, 1), (1, 300), (50, 1, 60), (1, 9, 1, 33)]:
        for dim in range(-len(shape), len(shape)):
            keepdim = bool(rng.integers(0, 2))
            values = (rng.standard_normal(shape) * 3).astype(dtype)
            for reduction in ("sum", "mean"):
                ours = getattr(F, reduction)(_tensor(values), dim, keepdim).data
                theirs = getattr(torch.from_numpy(values), reduction)(dim, keepdim).numpy()
                if ours.tobytes() != theirs.tobytes() or ours.shape != theirs.shape:
                    mismatches.append((shape, dim, keepdim, reduction))
    assert not mismatches


@pytest.mark.parametrize("count", [300, pytest.param(3000, marks=pytest.mark.slow)])
def test_sums_and_means_over_several_dimensions_match_torch_bit_for_bit(count):
    """Global average pooling's x.mean((2, 3)), statistics over (0, 2, 3), and any other set of
    dimensions of a C-ordered tensor, in torch's order of additions."""
    rng = np.random.default_rng(37)
    mismatches = []
    for trial in range(count):
        ndim = int(rng.integers(2, 5))
        shape = tuple(int(rng.choice([1, 2, 3, 5, 8, 16, 17, 33, 64])) for _ in range(ndim))
        dims = tuple(int(d) - (ndim if rng.random() < 0.3 else 0)
                     for d in rng.choice(ndim, int(rng.integers(2, ndim + 1)), replace=False))
        keepdim = bool(rng.integers(0, 2))
        values = (rng.standard_normal(shape) * 3).astype(np.float32 if trial % 3 else np.float64)
        for reduction in ("sum", "mean"):
            ours = getattr(F, reduction)(_tensor(values), dims, keepdim).data
            theirs = getattr(torch.from_numpy(values), reduction)(dims, keepdim).numpy()
            if ours.tobytes() != theirs.tobytes() or ours.shape != theirs.shape:
                mismatches.append((shape, dims, keepdim, reduction))
    assert not mismatches, mismatches[:5]


@pytest.mark.parametrize("count", [200, pytest.param(2000, marks=pytest.mark.slow)])
def test_sums_of_permuted_tensors_walk_their_memory(count):
    """A permuted dense tensor (a batch-first RNN's output, x.permute(...)) sums as its memory
    lies, whole or over several dimensions, as torch's TensorIterator walks it."""
    rng = np.random.default_rng(41)
    mismatches = []
    for trial in range(count):
        ndim = int(rng.integers(3, 5))
        shape = tuple(int(rng.choice([2, 3, 5, 16, 17, 33, 64, 100])) for _ in range(ndim))
        values = (rng.standard_normal(shape) * 3).astype(np.float32 if trial % 3 else np.float64)
        permuted = values.transpose(rng.permutation(ndim))
        dims = tuple(int(d) for d in rng.choice(ndim, int(rng.integers(2, ndim)), replace=False))
        for args in ((), (dims,)):
            ours = F.sum(Tensor(permuted, dtypes.from_numpy(permuted.dtype)), *args).data
            theirs = torch.from_numpy(permuted).sum(*args).numpy()
            if ours.tobytes() != theirs.tobytes():
                mismatches.append((shape, permuted.strides, args))
    assert not mismatches, mismatches[:5]


def _moment_case(rng):
    """A random float32/float64 array (sometimes transposed) and var/std options for it."""
    dtype = np.float32 if rng.random() < 0.7 else np.float64
    ndim = int(rng.integers(1, 4))
    shape = tuple(int(rng.integers(1, 30 if ndim > 1 else 70_000)) for _ in range(ndim))
    values = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4)
              + rng.standard_normal() * 5).astype(dtype)
    if ndim >= 2 and rng.random() < 0.3:
        values = values.T
    options = {"correction": int(rng.integers(0, 3)), "keepdim": bool(rng.integers(0, 2))}
    choice = rng.random()
    if choice < 0.6:
        options["dim"] = int(rng.integers(-ndim, ndim))
    elif choice < 0.8 and ndim >= 2:
        options["dim"] = tuple(int(d) for d in rng.choice(ndim, 2, replace=False))
    return values, options


@pytest.mark.parametrize("count", [200, pytest.param(3000, marks=pytest.mark.slow)])
def test_var_and_std_match_torch_bit_for_bit(count):
    import warnings
    rng = np.random.default_rng(count)
    mismatches = []
    for _ in range(count):
        values, options = _moment_case(rng)
        for op in ("var", "std"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # torch's degrees-of-freedom warning
                theirs = getattr(torch.from_numpy(values), op)(**options).numpy()
            tensor = Tensor(values, dtypes.from_numpy(values.dtype))  # its layout kept
            ours = getattr(F, op)(tensor, **options).data
            if ours.tobytes() != theirs.tobytes() or ours.shape != theirs.shape:
                mismatches.append((values.shape, values.dtype, op, options))
    assert not mismatches


@pytest.mark.parametrize("count", [200, pytest.param(3000, marks=pytest.mark.slow)])
def test_prod_matches_torch_bit_for_bit(count):
    rng = np.random.default_rng(count + 1)
    mismatches = []
    for _ in range(count):
        dtype = np.float32 if rng.random() < 0.6 else np.float64
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(rng.integers(1, 40 if ndim > 1 else 100_000)) for _ in range(ndim))
        values = (1 + rng.standard_normal(shape) * 0.01).astype(dtype)
        if ndim >= 2 and rng.random() < 0.3:
            values = values.T
        options = {} if rng.random() < 0.4 else {"dim": int(rng.integers(-ndim, ndim)),
                                                 "keepdim": bool(rng.integers(0, 2))}
        theirs = torch.from_numpy(values).prod(**options).numpy()
        ours = F.prod(Tensor(values, dtypes.from_numpy(values.dtype)), **options).data
        if ours.tobytes() != theirs.tobytes() or ours.shape != theirs.shape:
            mismatches.append((values.shape, values.strides, values.dtype, options))
    assert not mismatches


# Issue 14's draw: every op below over random tensors (sizes 1 to 100,000, float32 and float64,
# C-ordered or transposed, whole or along a dim), compared as .tolist() compares. logsumexp is
# left out: torch's exp and log there are MKL's VML kernels, reproduced on AMD processors only
# (the logsumexp test below).
_DRAWN_OPS = {
    "sum": (lambda t, d: F.sum(t) if d is None else F.sum(t, d),
            lambda t, d: t.sum() if d is None else t.sum(d)),
    "mean": (lambda t, d: F.mean(t) if d is None else F.mean(t, d),
             lambda t, d: t.mean() if d is None else t.mean(d)),
    "cumsum": (lambda t, d: F.cumsum(t, d or 0), lambda t, d: t.cumsum(d or 0)),
    "prod": (lambda t, d: F.prod(t) if d is None else F.prod(t, d),
             lambda t, d: t.prod() if d is None else t.prod(d)),
    "norm": (lambda t, d: F.norm(t) if d is None else F.norm(t, dim=d),
             lambda t, d: t.norm() if d is None else t.norm(dim=d)),
    "var": (lambda t, d: F.var(t) if d is None else F.var(t, d),
            lambda t, d: t.var() if d is None else t.var(d)),
    "std": (lambda t, d: F.std(t) if d is None else F.std(t, d),
            lambda t, d: t.std() if d is None else t.std(d)),
    "softmax": (lambda t, d: F.softmax(t, -1 if d is None else d),
                lambda t, d: t.softmax(-1 if d is None else d)),
    "log_softmax": (lambda t, d: F.log_softmax(t, -1 if d is None else d),
                    lambda t, d: t.log_softmax(-1 if d is None else d)),
    "mse_loss": (lambda t, d: F.mse_loss(t, F.mul_scalar(t, 0.5)),
                 lambda t, d: torch.nn.functional.mse_loss(t, t * 0.5)),
    "cross_entropy": (lambda t, d: F.cross_entropy(t, _classes(t, Tensor)),
                      lambda t, d: torch.nn.functional.cross_entropy(t, _classes(t, torch))),
}


def _classes(t, kind):
    """Class targets for a (C,) or (N, C) input: sample i is class i mod C."""
    if t.ndim == 1:
        target = np.array(0)
    else:
        target = np.arange(t.shape[0]) % t.shape[1]
    if kind is torch:
        return torch.from_numpy(target)
    return Tensor(target, dtypes.int64)


def _drawn_tensor(rng):
    n = int(np.exp(rng.uniform(0, np.log(100_000))))
    dtype = np.float32 if rng.random() < 0.6 else np.float64
    values = (rng.standard_normal(n) * 10.0 ** rng.integers(-2, 3)).astype(dtype)
    k = int(rng.integers(2, 6))
    while n % k:
        k -= 1
    if n > 3 and k >= 2 and rng.random() < 0.6:
        values = values.reshape((k, n // k) if rng.random() < 0.5 else (n // k, k))
        if rng.random() < 0.5:
            values = values.T
    whole = (values.ndim == 1 and rng.random() < 0.5) or rng.random() < 0.3
    return values, None if whole else int(rng.integers(0, values.ndim))


def _same_list(ours: np.ndarray, theirs: np.ndarray) -> bool:
    a, b = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=True) and np.array_equal(
        np.signbit(a) & ~np.isnan(a), np.signbit(b) & ~np.isnan(b))


@pytest.mark.parametrize("count", [300, pytest.param(10_000, marks=pytest.mark.slow)])
def test_random_tensors_reduce_as_torch_does_bit_for_bit(count):
    import warnings
    rng = np.random.default_rng(count + 14)
    mismatches = []
    for i in range(count):
        values, dim = _drawn_tensor(rng)
        name = list(_DRAWN_OPS)[i % len(_DRAWN_OPS)]
        ours_of, theirs_of = _DRAWN_OPS[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # var/std of one element: torch's dof warning
            theirs = theirs_of(torch.from_numpy(values), dim).numpy()
        ours = ours_of(Tensor(values, dtypes.from_numpy(values.dtype)), dim).data
        if not _same_list(ours, theirs):
            mismatches.append((name, values.shape, values.strides, values.dtype, dim))
    assert not mismatches, mismatches[:10]


@pytest.mark.parametrize("count", [300, pytest.param(3000, marks=pytest.mark.slow)])
def test_logsumexp_sums_in_torchs_order_where_the_exponentials_agree(count):
    """torch's logsumexp takes (x - max).exp() and the sum's log from MKL's vector functions,
    which this CPU may round otherwise than gradcli (benchmarks/agreement.py measures how often):
    where those agree, the result must be torch's to the bit."""
    rng = np.random.default_rng(count + 15)
    compared, mismatches = 0, []
    for _ in range(count):
        values, dim = _drawn_tensor(rng)
        dims = list(range(values.ndim)) if dim is None else [dim]
        theirs_in = torch.from_numpy(values)
        maxes = theirs_in.amax(dims, keepdim=True)
        maxes = torch.where(maxes.isinf(), 0, maxes)
        ours_exps = reductions_module._exp(values - maxes.numpy())
        theirs_exps = (theirs_in - maxes).exp()
        if not np.array_equal(theirs_exps.numpy(), ours_exps):
            continue
        total = theirs_exps.sum(dims)
        if not np.array_equal(total.log().numpy(), reductions_module._log(total.numpy())):
            continue
        compared += 1
        ours = F.logsumexp(Tensor(values, dtypes.from_numpy(values.dtype)), dims).data
        if not _same_list(ours, theirs_in.logsumexp(dims).numpy()):
            mismatches.append((values.shape, values.strides, values.dtype, dim))
    assert compared > count // 4
    assert not mismatches, mismatches[:10]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_two_norms_along_a_dimension_keep_torchs_scalar_tail(dtype):
    rng = np.random.default_rng(41)
    mismatches = []
    for n in [*range(1, 24), 87, 203]:
        for layout in ("rows", "columns"):
            values = (rng.standard_normal((6, n)) * 3).astype(dtype)
            if layout == "columns":
                values = np.ascontiguousarray(values.T).T  # dim 1 strided: in order, no vectors
            theirs = torch.from_numpy(values).norm(dim=1).numpy()
            ours = F.norm(Tensor(values, dtypes.from_numpy(values.dtype)), dim=1).data
            if ours.tobytes() != theirs.tobytes():
                mismatches.append((n, layout))
    assert not mismatches
