"""Random draws from distributions (bernoulli, poisson, multinomial, exponential_, cauchy_, geometric_,
log_normal_, random_) with the
generator calls and arithmetic of torch's CPU kernels."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, reparam_grads, special_math
from gradcli.engine.creation import _leaf, check_random_range, draw_source, fill_random
from gradcli.engine.custom import FunctionNode, attach_output
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, apply, defop, not_implemented
from gradcli.engine.random import _uniform_f32, _uniform_f64
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor


def _check_inplace(t: Tensor) -> None:
    if STATE.grad_enabled and t.requires_grad and t.is_leaf:
        raise errors.runtime("a leaf Variable that requires grad is being used in an in-place "
                             "operation.")


def _write(t: Tensor, values: np.ndarray) -> Tensor:
    t.data[...] = dtypes.stored(values, t.dtype)
    t.bump_version()
    return t


def _bernoulli_tensor_draws(p: Tensor, generator, dtype: dtypes.DType) -> np.ndarray:
    """bernoulli_tensor_cpu_kernel: one uniform per element (double for a float64 result, float
    otherwise), 1 where below p."""
    if not p.dtype.is_floating_point:
        raise errors.TorchError("NotImplementedError", f'"bernoulli_tensor_cpu_p_" not '
                                f"implemented for '{p.dtype.scalar_name}'")
    wide = dtype is dtypes.float64
    probs = np.asarray(p.data, np.float64 if wide else np.float32).ravel()
    bad = np.flatnonzero(~((probs >= 0) & (probs <= 1)))
    if bad.size:  # the elements before the first bad one have drawn already
        draw_source(generator)._words(int(bad[0]) * (2 if wide else 1))
        raise errors.runtime("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                             "(Could this error message be improved?  If so, please report an "
                             "enhancement request to PyTorch.)")
    if wide:
        u = _uniform_f64(draw_source(generator)._words(2 * probs.size), 0.0, 1.0)
    else:
        u = _uniform_f32(draw_source(generator)._words(probs.size), 0.0, 1.0)
    return (u < probs).reshape(p.shape)


def _bernoulli_scalar_draws(shape, p, generator) -> np.ndarray:
    if not 0 <= p <= 1:
        raise errors.runtime(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    return draw_source(generator).bernoulli(shape, p)


defop("bernoulli", "BernoulliBackward0", lambda p, drawn: drawn.astype(p.dtype),
      vjp=(lambda g, p, drawn: F.zeros_like(g),))


def bernoulli(t: Tensor, p=None, generator=None) -> Tensor:
    """torch.bernoulli(input) draws with input's probabilities; bernoulli(input, p) with p."""
    if p is None:
        return apply(OPS["bernoulli"], t, drawn=_bernoulli_tensor_draws(t, generator, t.dtype))
    return _leaf(_bernoulli_scalar_draws(t.shape, p, generator).astype(t.dtype.np), t.dtype,
                 False)


def bernoulli_(t: Tensor, p=0.5, generator=None) -> Tensor:
    _check_inplace(t)
    if isinstance(p, Tensor):
        drawn = _bernoulli_tensor_draws(F.expand(p, t.shape), generator, t.dtype)
    else:
        drawn = _bernoulli_scalar_draws(t.shape, p, generator)
    return _write(t, drawn)


def _exponential_draws(shape, lambd: float, generator) -> np.ndarray:
    """exponential_kernel: -1/lambda * log1p(-u) on one double uniform per element."""
    n = int(np.prod(shape))
    u = _uniform_f64(draw_source(generator)._words(2 * n), 0.0, 1.0)
    return ((-1.0 / lambd) * np.log1p(-u)).reshape(shape)


def exponential_(t: Tensor, lambd=1.0, generator=None) -> Tensor:
    _check_inplace(t)
    if not lambd > 0.0:
        raise errors.runtime(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    if not t.dtype.is_floating_point:
        raise errors.runtime("Exponential distribution is a continuous probability distribution. "
                             "dtype must be a floating point but you specified "
                             f"{t.dtype.scalar_name}")
    return _write(t, _exponential_draws(t.shape, float(lambd), generator))


def _unit_draws(t: Tensor, generator) -> np.ndarray:
    """One double uniform in [0, 1) per element, as torch's serial CPU kernels draw them."""
    return _uniform_f64(draw_source(generator)._words(2 * t.data.size), 0.0, 1.0).reshape(t.shape)


_CPP_NAMES = {"Long": "long int", "Int": "int", "Short": "short int", "Char": "signed char",
              "Byte": "unsigned char", "Bool": "bool"}  # typeid names torch's cauchy_ prints


def cauchy_(t: Tensor, median=0.0, sigma=1.0, generator=None) -> Tensor:
    """cauchy_kernel: median + sigma * tan(pi * (u - 0.5)) in double, one uniform each."""
    _check_inplace(t)
    if not sigma > 0.0:
        raise errors.runtime(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    if not t.dtype.is_floating_point:
        raise errors.runtime("Cauchy distribution is a continuous probability distribution. "
                             "dtype must be a floating point but you specified "
                             f"{_CPP_NAMES.get(t.dtype.scalar_name, t.dtype.scalar_name)}")
    tan = [math.tan(math.pi * (u - 0.5)) for u in _unit_draws(t, generator).ravel().tolist()]
    return _write(t, (median + sigma * np.array(tan, np.float64)).reshape(t.shape))


def geometric_(t: Tensor, p, generator=None) -> Tensor:
    """geometric_kernel: ceil(log(u) / log1p(-p)) in double, one uniform each."""
    _check_inplace(t)
    if not 0 < p < 1:
        raise errors.runtime(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    log_q = math.log1p(-float(p))
    drawn = [math.ceil((math.log(u) if u else -math.inf) / log_q)
             for u in _unit_draws(t, generator).ravel().tolist()]
    return _write(t, np.array(drawn, np.float64).reshape(t.shape))


def log_normal_(t: Tensor, mean=1.0, std=2.0, generator=None) -> Tensor:
    """log_normal_kernel: exp of normal_distribution<double> draws, element by element."""
    _check_inplace(t)
    if not std > 0.0:
        raise errors.runtime(f"log_normal_ expects std > 0.0, but found std={std:g}")
    if not t.dtype.is_floating_point:
        raise errors.not_implemented_for("log_normal_cpu", t.dtype)
    drawn = draw_source(generator)._scalar_normals(t.data.size, float(mean), float(std))
    return _write(t, np.array([math.exp(v) for v in drawn.tolist()]).reshape(t.shape))


def _gamma_draw(source, alpha: float, single: bool) -> float:
    """sample_gamma (Marsaglia and Tsang, boosted below 1) on double uniforms and torch's cached
    double normals; a float32 alpha does its own steps in single precision, as the kernel does."""
    def uniform() -> float:
        return float(_uniform_f64(source._words(2), 0.0, 1.0)[0])

    f32 = np.float32
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        exponent = float(f32(1.0) / f32(alpha)) if single else 1.0 / alpha
        scale *= math.pow(1 - uniform(), exponent)
        alpha = float(f32(alpha) + f32(1.0)) if single else alpha + 1.0
    third = float(f32(1.0) / f32(3.0))
    d = float(f32(alpha) - f32(third)) if single else alpha - third
    c = 1.0 / math.sqrt(9.0 * d)
    squeeze = float(f32(0.0331))
    while True:
        while True:
            x = float(source._scalar_normals(1, 0.0, 1.0)[0])
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1 - uniform()
        xx = x * x
        if u < 1.0 - squeeze * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def standard_gamma_draws(alpha: Tensor, generator=None) -> np.ndarray:
    """_s_gamma_cpu: one sample_gamma per element in order, at least the dtype's tiny."""
    source, single = draw_source(generator), alpha.dtype is not dtypes.float64
    tiny = np.finfo(alpha.dtype.np).tiny
    values = [max(tiny, alpha.dtype.np.type(_gamma_draw(source, a, single)))
              for a in np.asarray(alpha.data, alpha.dtype.np).ravel().tolist()]
    return np.array(values, alpha.dtype.np).reshape(alpha.shape)


def standard_gamma(alpha: Tensor, generator=None) -> Tensor:
    """torch._standard_gamma: Gamma(alpha, 1) draws, differentiable in alpha."""
    if not alpha.dtype.is_floating_point:
        raise errors.not_implemented_for("gamma_cpu", alpha.dtype)
    return apply(OPS["_standard_gamma"], alpha, drawn=standard_gamma_draws(alpha, generator))


def _gamma_grad_refused(*_, **__):
    raise errors.TorchError("NotImplementedError",
                            "the derivative for '_standard_gamma_grad' is not implemented.")


def _same_shape(first: Tensor, *others: Tensor) -> None:
    for other in others:
        if other.shape != first.shape:
            raise errors.runtime(f"The size of tensor a ({first.shape[-1]}) must match the size "
                                 f"of tensor b ({other.shape[-1]}) at non-singleton dimension 0")


def standard_gamma_grad(alpha: Tensor, output: Tensor) -> Tensor:
    """torch._standard_gamma_grad: d(draw)/d(alpha) of Gamma(alpha, 1) draws."""
    _same_shape(alpha, output)
    return apply(OPS["_standard_gamma_grad"], alpha, output)


def dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """torch._dirichlet_grad: the scaled reparameterised gradient of Beta draws."""
    _same_shape(x, alpha, total)
    return apply(OPS["_dirichlet_grad"], x, alpha, total)


defop("_standard_gamma", "StandardGammaBackward0",
      lambda alpha, drawn: drawn, promote="none", save=(0,),
      vjp=(lambda g, alpha, drawn: F.mul(g, standard_gamma_grad(
          alpha, _leaf(drawn, alpha.dtype, False))),))
defop("_standard_gamma_grad", "StandardGammaGradBackward0",
      lambda alpha, x: reparam_grads.standard_gamma_grad(alpha, x.astype(alpha.dtype)),
      promote="none", vjp=(_gamma_grad_refused, _gamma_grad_refused))
defop("_dirichlet_grad", "NotImplemented",
      lambda x, alpha, total: reparam_grads.dirichlet_grad(
          x, alpha.astype(x.dtype), total.astype(x.dtype)),
      promote="none", name="torch::autograd::NotImplemented",
      vjp=(not_implemented("aten::_dirichlet_grad"),) * 3)


def _poisson_draw(source, lam: float) -> float:
    """sample_poisson: Hoermann's transformed rejection from rate 10, else multiplying double
    uniforms until the product falls to exp(-rate); a k beyond int64 is int64's minimum."""
    def uniform() -> float:
        return float(_uniform_f64(source._words(2), 0.0, 1.0)[0])

    if not lam >= 0:
        raise errors.runtime("invalid Poisson rate, expected rate to be non-negative")
    if lam == 0:
        return 0.0
    if lam < 10:
        enlam, x, prod = math.exp(-lam), 0, 1.0
        while True:
            prod *= uniform()
            if prod <= enlam:
                return float(x)
            x += 1
    slam, loglam = math.sqrt(lam), math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        real = (2 * a / us + b) * u + lam + 0.43
        k = math.floor(real) if abs(real) < 2.0 ** 63 else -2 ** 63  # x86's int64 cast
        if us >= 0.07 and v <= vr:
            return float(k)
        if k < 0 or (us < 0.013 and v > us):
            continue
        log_v = math.log(v) if v > 0 else -math.inf
        if (log_v + math.log(invalpha) - math.log(a / (us * us) + b)
                <= -lam + k * loglam - float(special_math.lgamma(np.array(k + 1.0)))):
            return float(k)


def poisson(rates: Tensor, generator=None) -> Tensor:
    """torch.poisson: one sample_poisson per element in order, from the rate as a double."""
    if not rates.dtype.is_floating_point:
        raise errors.not_implemented_for("poisson_cpu", rates.dtype)
    source = draw_source(generator)
    drawn = np.array([_poisson_draw(source, lam) for lam in
                      np.asarray(rates.data, np.float64).ravel().tolist()]).reshape(rates.shape)
    return apply(OPS["poisson"], rates, drawn=drawn)


defop("poisson", "PoissonBackward0", lambda rates, drawn: drawn.astype(rates.dtype),
      promote="none", vjp=(lambda g, rates, drawn: F.zeros_like(g),))


def _dirichlet_draws(alpha: Tensor, generator) -> np.ndarray:
    """_s_dirichlet_cpu: double Gamma draws normalised along the last dim, then kept within
    (0, 1) in alpha's dtype."""
    source, np_dtype = draw_source(generator), alpha.dtype.np
    tiny = np.finfo(np.float64).tiny
    gamma = np.array([max(tiny, _gamma_draw(source, a, False))
                      for a in np.asarray(alpha.data, np.float64).ravel().tolist()],
                     np.float64).reshape(alpha.shape)
    ratio = (gamma / gamma.sum(-1, keepdims=True)).astype(np_dtype)
    top = np.nextafter(np_dtype.type(1), np_dtype.type(0))
    return np.minimum(top, np.maximum(np.finfo(np_dtype).tiny, ratio))


defop("_sample_dirichlet", "NotImplemented", lambda alpha, drawn: drawn, promote="none",
      name="torch::autograd::NotImplemented",
      vjp=(not_implemented("aten::_sample_dirichlet"),))


def sample_dirichlet(alpha: Tensor, generator=None) -> Tensor:
    """torch._sample_dirichlet: Dirichlet draws (torch has no derivative for them)."""
    if not alpha.dtype.is_floating_point:
        raise errors.not_implemented_for("dirichlet", alpha.dtype)
    return apply(OPS["_sample_dirichlet"], alpha, drawn=_dirichlet_draws(alpha, generator))


def dirichlet_rsample(concentration: Tensor) -> Tensor:
    """torch.distributions.dirichlet._Dirichlet.apply: the draws, and a node (a Python Function's,
    once differentiable) whose backward is _Dirichlet_backward."""
    with grad_mode(False):
        x = sample_dirichlet(concentration)
    if not (STATE.grad_enabled and concentration.requires_grad):
        return x

    def backward(grads):
        with grad_mode(False):
            total = F.expand(F.sum(concentration, -1, keepdim=True), concentration.shape)
            grad = dirichlet_grad(x, F.detach(concentration), total)
            return F.mul(grad, F.sub(grads[0], F.sum(F.mul(x, grads[0]), -1, keepdim=True)))

    node = FunctionNode("_DirichletBackward", (concentration,), (x,), backward)
    attach_output(x, node, 0)
    return x


def random_(t: Tensor, low=None, high=None, generator=None) -> Tensor:
    """Tensor.random_(to) / random_(from, to): integers drawn as torch.randint draws them."""
    _check_inplace(t)
    if low is None:
        raise errors.TorchError("NotImplementedError",
                                "gradcli does not support torch.Tensor.random_() without bounds yet")
    low, high = (0, low) if high is None else (low, high)
    check_random_range(low, high, t.dtype)
    return _write(t, draw_source(generator).randint(int(low), int(high), t.shape, t.dtype.np))


def _check_multinomial(probs: Tensor, n: int, replacement: bool) -> None:
    if not probs.dtype.is_floating_point:
        raise errors.runtime("multinomial only supports floating-point dtypes for input, got: "
                             f"{probs.dtype.scalar_name}")
    if probs.ndim not in (1, 2):
        raise errors.runtime("prob_dist must be 1 or 2 dim")
    if n <= 0:
        raise errors.runtime("cannot sample n_sample <= 0 samples")
    if not replacement and n > probs.shape[-1]:
        raise errors.runtime("cannot sample n_sample > prob_dist.size(-1) samples without "
                             "replacement")


def _with_replacement(rows: np.ndarray, n: int, generator) -> np.ndarray:
    """multinomial_with_replacement_apply: a normalised running sum per row (in the input's
    dtype), then a binary search for one double uniform per sample."""
    out = np.empty((rows.shape[0], n), np.int64)
    for r, row in enumerate(rows):
        for value in row.tolist():  # each entry checked as the running sum reaches it
            if not value >= 0:
                raise errors.runtime("invalid multinomial distribution (encountering "
                                     "probability entry < 0)")
            if value == np.inf:
                raise errors.runtime("invalid multinomial distribution (encountering "
                                     "probability entry = infinity or NaN)")
        cumulative = np.cumsum(row, dtype=row.dtype)
        total = cumulative[-1]
        if not total > 0:
            raise errors.runtime("invalid multinomial distribution (sum of probabilities <= 0)")
        cumulative = (cumulative / total).astype(row.dtype)
        u = _uniform_f64(draw_source(generator)._words(2 * n), 0.0, 1.0)
        out[r] = np.searchsorted(cumulative.astype(np.float64), u, side="left")
    return out


def multinomial(probs: Tensor, num_samples: int, replacement=False, generator=None) -> Tensor:
    """torch.multinomial: without replacement (or one sample) the top p / Exp(1) draws, as
    torch's CPU fast path picks them; with replacement a search per sample."""
    _check_multinomial(probs, num_samples, replacement)
    rows = probs.data.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:
        if rows.size and not bool(((rows < np.inf) & (rows >= 0)).all()):
            raise errors.runtime("probability tensor contains either `inf`, `nan` or element < 0")
        if bool((rows.sum(axis=1) == 0).any()):
            raise errors.runtime("invalid multinomial distribution (sum of probabilities <= 0)")
        q = (rows / _exponential_draws(rows.shape, 1.0, generator).astype(rows.dtype)).astype(
            rows.dtype)
        picks = np.argsort(-q, axis=1, kind="stable")[:, :num_samples]
    else:
        picks = _with_replacement(rows, num_samples, generator)
    return _leaf(picks.reshape(*probs.shape[:-1], num_samples), dtypes.int64, False)


_DRAWN = "*, Generator? generator=None"
declare("bernoulli", bernoulli, f"bernoulli(Tensor self, {_DRAWN}, Tensor? out=None)",
        f"bernoulli(Tensor self, float p, {_DRAWN})",
        method=(f"bernoulli(Tensor self, {_DRAWN})", f"bernoulli(Tensor self, float p, {_DRAWN})"))
declare("bernoulli_", bernoulli_, f"bernoulli_(Tensor self, Tensor p, {_DRAWN})",
        f"bernoulli_(Tensor self, float p=0.5, {_DRAWN})", variants="method")
declare("poisson", poisson, "poisson(Tensor self, Generator? generator=None)", variants="torch")
declare("multinomial", multinomial, "multinomial(Tensor self, int num_samples, "
        f"bool replacement=False, {_DRAWN}, Tensor? out=None)")
declare("_standard_gamma", standard_gamma,
        "_standard_gamma(Tensor self, Generator? generator=None)", variants="torch")
declare("_sample_dirichlet", sample_dirichlet,
        "_sample_dirichlet(Tensor self, Generator? generator=None)", variants="torch")
declare("_standard_gamma_grad", standard_gamma_grad,
        "_standard_gamma_grad(Tensor self, Tensor output)", variants="torch")
declare("_dirichlet_grad", dirichlet_grad,
        "_dirichlet_grad(Tensor x, Tensor alpha, Tensor total)", variants="torch")
declare("random_", random_, f"random_(Tensor self, {_DRAWN})",
        f"random_(Tensor self, int from, int to, {_DRAWN})", f"random_(Tensor self, int to, {_DRAWN})",
        variants="method")
declare("exponential_", exponential_, f"exponential_(Tensor self, float lambd=1, {_DRAWN})",
        variants="method")
declare("cauchy_", cauchy_, f"cauchy_(Tensor self, float median=0, float sigma=1, {_DRAWN})",
        variants="method")
declare("geometric_", geometric_, f"geometric_(Tensor self, float p, {_DRAWN})",
        variants="method")
declare("log_normal_", log_normal_, f"log_normal_(Tensor self, float mean=1, float std=2, "
        f"{_DRAWN})", variants="method")
declare("normal_", lambda t, mean=0, std=1, generator=None: fill_random(
    t, "normal", mean, std, generator), f"normal_(Tensor self, float mean=0, float std=1, {_DRAWN})",
    variants="method")
declare("uniform_", lambda t, low=0, high=1, generator=None: fill_random(
    t, "uniform", low, high, generator), f"uniform_(Tensor self, float from=0, float to=1, {_DRAWN})",
    variants="method")

export(__name__, globals())
