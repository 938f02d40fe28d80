"""torch.distributions.kl_divergence for the pairs of families gradcli has, each the same calls
as torch's registered function for the pair."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.language.namespaces.distribution_base import Calls, Distribution, op
from gradcli.language.namespaces.distribution_continuous import (
    Cauchy, Chi2, Exponential, Gamma, Laplace, LogNormal, Normal, Uniform)
from gradcli.language.namespaces.distribution_continuous_bernoulli import ContinuousBernoulli
from gradcli.language.namespaces.distribution_dirichlet import Beta, Dirichlet
from gradcli.language.namespaces.distribution_discrete import (
    Bernoulli, Binomial, Categorical, Geometric, OneHotCategorical, Poisson)
from gradcli.language.namespaces.distribution_transformed import (
    Gumbel, HalfNormal, Pareto, TransformedDistribution)
from gradcli.language.namespaces.distribution_transforms import same_parts
from gradcli.language.namespaces.distribution_kl_mixed import dispatch
from gradcli.language.namespaces.distribution_lowrank import (
    LowRankMultivariateNormal, lowrank_logdet, lowrank_mahalanobis)
from gradcli.language.namespaces.distribution_multivariate import (
    Independent, MultivariateNormal, batch_mahalanobis, broadcast_shapes, sum_rightmost)
from gradcli.language.runtime import protocols
from gradcli.language.runtime.values import type_name


def _set_where(t, mask, fill) -> None:
    protocols.set_item(t, mask, fill)


def _masked(calls: Calls, t, probs, fill) -> None:
    """t[(probs == 0).expand_as(t)] = fill."""
    mask = calls.method(protocols.compare("==", probs, 0), "expand_as", t)
    protocols.set_item(t, mask, fill)


def _normal(p, q):
    c, ps, qs = p.calls, p.attrs["scale"], q.attrs["scale"]
    var_ratio = c.method(op("/", ps, qs), "pow", 2)
    t1 = c.method(op("/", op("-", p.attrs["loc"], q.attrs["loc"]), qs), "pow", 2)
    return op("*", 0.5, op("-", op("-", op("+", var_ratio, t1), 1), c.method(var_ratio, "log")))


def _categorical(p, q):
    t = op("*", p.probs, op("-", p.logits, q.logits))
    _masked(p.calls, t, q.probs, math.inf)
    _masked(p.calls, t, p.probs, 0)
    return p.calls.method(t, "sum", -1)


def _bernoulli(p, q):
    c = p.calls

    def softplus(x):
        return c.functional("softplus", x)

    neg = protocols.unary
    t1 = op("*", p.probs, op("-", softplus(neg("-", q.logits)), softplus(neg("-", p.logits))))
    _set_where(t1, protocols.compare("==", q.probs, 0), math.inf)
    _set_where(t1, protocols.compare("==", p.probs, 0), 0)
    t2 = op("*", op("-", 1, p.probs), op("-", softplus(q.logits), softplus(p.logits)))
    _set_where(t2, protocols.compare("==", q.probs, 1), math.inf)
    _set_where(t2, protocols.compare("==", p.probs, 1), 0)
    return op("+", t1, t2)


def _uniform(p, q):
    c = p.calls
    result = c.method(op("/", op("-", q.attrs["high"], q.attrs["low"]),
                         op("-", p.attrs["high"], p.attrs["low"])), "log")
    outside = op("|", protocols.compare(">", q.attrs["low"], p.attrs["low"]),
                 protocols.compare("<", q.attrs["high"], p.attrs["high"]))
    _set_where(result, outside, math.inf)
    return result


def _exponential(p, q):
    rate_ratio = op("/", q.attrs["rate"], p.attrs["rate"])
    t1 = protocols.unary("-", p.calls.method(rate_ratio, "log"))
    return op("-", op("+", t1, rate_ratio), 1)


def _laplace(p, q):
    c = p.calls
    scale_ratio = op("/", p.attrs["scale"], q.attrs["scale"])
    loc_abs_diff = c.method(op("-", p.attrs["loc"], q.attrs["loc"]), "abs")
    t1 = protocols.unary("-", c.method(scale_ratio, "log"))
    t2 = op("/", loc_abs_diff, q.attrs["scale"])
    t3 = op("*", scale_ratio, c.torch("exp", op("/", protocols.unary("-", loc_abs_diff),
                                                p.attrs["scale"])))
    return op("-", op("+", op("+", t1, t2), t3), 1)


def _multivariate_normal(p, q):
    c = p.calls
    if p.event_shape != q.event_shape:
        raise errors.value_error("KL-divergence between two Multivariate Normals with"
                                 "                          different event shapes cannot be "
                                 "computed")
    half_term1 = op("-", q._half_log_det(), p._half_log_det())
    combined = broadcast_shapes(c.runtime.printer, q.tril.shape[:-2], p.tril.shape[:-2])
    n = p.event_shape[0]
    q_tril = c.method(q.tril, "expand", (*combined, n, n))
    p_tril = c.method(p.tril, "expand", (*combined, n, n))
    linalg = protocols.MODULES["torch"].lookup("linalg")
    solved = c.runtime.call(protocols.get_attribute(linalg, "solve_triangular"),
                            [q_tril, p_tril], {"upper": False})
    m = solved.shape[-2]
    flat = c.method(c.method(c.method(solved, "reshape", -1, m * n), "pow", 2), "sum", -1)
    term2 = c.method(flat, "reshape", solved.shape[:-2])
    term3 = batch_mahalanobis(c, q.tril, op("-", q.attrs["loc"], p.attrs["loc"]))
    return op("+", half_term1, op("*", 0.5, op("-", op("+", term2, term3), n)))


def _lognormal(p, q):
    """_kl_transformed_transformed: LogNormals share their transform and event shape."""
    return kl_divergence(p.base, q.base)


def _trace_xxt(c, x):
    """_batch_trace_XXT: the sum of squares over the last two dims."""
    flat = c.method(c.method(c.method(x, "reshape", -1, x.shape[-2] * x.shape[-1]), "pow", 2),
                    "sum", -1)
    return c.method(flat, "reshape", x.shape[:-2])


def _lowrank(p, q):
    c = p.calls
    if p.event_shape != q.event_shape:
        raise errors.value_error("KL-divergence between two Low Rank Multivariate Normals with"
                                 "                          different event shapes cannot be "
                                 "computed")
    term1 = op("-", lowrank_logdet(c, q.W, q.D, q.tril), lowrank_logdet(c, p.W, p.D, p.tril))
    term3 = lowrank_mahalanobis(c, q.W, q.D, op("-", q.attrs["loc"], p.attrs["loc"]), q.tril)
    qWt_qDinv = op("/", protocols.get_attribute(q.W, "mT"), c.method(q.D, "unsqueeze", -2))
    linalg = protocols.get_attribute(protocols.MODULES["torch"].lookup("linalg"),
                                     "solve_triangular")
    A = c.runtime.call(linalg, [q.tril, qWt_qDinv], {"upper": False})
    term21 = c.method(op("/", p.D, q.D), "sum", -1)
    term22 = _trace_xxt(c, op("*", p.W, c.method(c.method(q.D, "rsqrt"), "unsqueeze", -1)))
    term23 = _trace_xxt(c, op("*", A, c.method(c.method(p.D, "sqrt"), "unsqueeze", -2)))
    term24 = _trace_xxt(c, c.method(A, "matmul", p.W))
    term2 = op("-", op("-", op("+", term21, term22), term23), term24)
    return op("*", 0.5, op("-", op("+", op("+", term1, term2), term3), p.event_shape[0]))


def _transformed(p, q):
    if not same_parts(p.transforms, q.transforms) or p.event_shape != q.event_shape:
        raise errors.TorchError("NotImplementedError", "")
    return kl_divergence(p.base, q.base)


def _cauchy(p, q):
    c, ps, qs = p.calls, p.attrs["scale"], q.attrs["scale"]
    t1 = c.method(op("+", c.method(op("+", ps, qs), "pow", 2),
                     c.method(op("-", p.attrs["loc"], q.attrs["loc"]), "pow", 2)), "log")
    return op("-", t1, c.method(op("*", op("*", 4, ps), qs), "log"))


def _geometric(p, q):
    c = p.calls
    return op("-", op("-", protocols.unary("-", p.entropy()),
                      op("/", c.torch("log1p", protocols.unary("-", q.probs)), p.probs)),
              q.logits)


def _continuous_bernoulli(p, q):
    c = p.calls
    t1 = op("*", p.mean, op("-", p.logits, q.logits))
    t2 = op("+", p._log_norm(), c.torch("log1p", protocols.unary("-", p.probs)))
    t3 = op("-", protocols.unary("-", q._log_norm()), c.torch("log1p", protocols.unary(
        "-", q.probs)))
    return op("+", op("+", t1, t2), t3)


def _gamma(p, q):
    c, pk, qk = p.calls, p.attrs["concentration"], q.attrs["concentration"]
    pr, qr = p.attrs["rate"], q.attrs["rate"]
    t1 = op("*", qk, c.method(op("/", pr, qr), "log"))
    t2 = op("-", c.torch("lgamma", qk), c.torch("lgamma", pk))
    t3 = op("*", op("-", pk, qk), c.torch("digamma", pk))
    t4 = op("*", op("-", qr, pr), op("/", pk, pr))
    return op("+", op("+", op("+", t1, t2), t3), t4)


def _beta(p, q):
    c = p.calls

    def lgamma(x):
        return c.method(x, "lgamma")

    p1, p0, q1, q0 = p.concentration(0), p.concentration(1), q.concentration(0), q.concentration(1)
    sum_p, sum_q = op("+", p1, p0), op("+", q1, q0)
    t1 = op("+", op("+", lgamma(q1), lgamma(q0)), lgamma(sum_p))
    t2 = op("+", op("+", lgamma(p1), lgamma(p0)), lgamma(sum_q))
    t3 = op("*", op("-", p1, q1), c.torch("digamma", p1))
    t4 = op("*", op("-", p0, q0), c.torch("digamma", p0))
    t5 = op("*", op("-", sum_q, sum_p), c.torch("digamma", sum_p))
    return op("+", op("+", op("+", op("-", t1, t2), t3), t4), t5)


def _dirichlet(p, q):
    c, pk, qk = p.calls, p.attrs["concentration"], q.attrs["concentration"]
    sum_p, sum_q = c.method(pk, "sum", -1), c.method(qk, "sum", -1)
    t1 = op("-", c.method(sum_p, "lgamma"), c.method(sum_q, "lgamma"))
    t2 = c.method(op("-", c.method(pk, "lgamma"), c.method(qk, "lgamma")), "sum", -1)
    t3 = op("-", pk, qk)
    t4 = op("-", c.method(pk, "digamma"), c.method(c.method(sum_p, "digamma"), "unsqueeze", -1))
    return op("+", op("-", t1, t2), c.method(op("*", t3, t4), "sum", -1))


def _one_hot_categorical(p, q):
    return _categorical(p.categorical, q.categorical)


def _half_normal(p, q):
    return _normal(p.base, q.base)


def _gumbel(p, q):
    c, euler = p.calls, 0.57721566490153286060
    ct1 = op("/", p.attrs["scale"], q.attrs["scale"])
    ct2 = op("/", q.attrs["loc"], q.attrs["scale"])
    ct3 = op("/", p.attrs["loc"], q.attrs["scale"])
    t1 = op("+", op("-", protocols.unary("-", c.method(ct1, "log")), ct2), ct3)
    t3 = c.torch("exp", op("-", op("+", ct2, c.method(op("+", 1, ct1), "lgamma")), ct3))
    return op("-", op("+", op("+", t1, op("*", ct1, euler)), t3), 1 + euler)


def _pareto(p, q):
    c = p.calls
    scale_ratio = op("/", p.attrs["scale"], q.attrs["scale"])
    alpha_ratio = op("/", q.attrs["alpha"], p.attrs["alpha"])
    t1 = op("*", q.attrs["alpha"], c.method(scale_ratio, "log"))
    t2 = protocols.unary("-", c.method(alpha_ratio, "log"))
    result = op("-", op("+", op("+", t1, t2), alpha_ratio), 1)
    _set_where(result, protocols.compare("<", p.attrs["scale"], q.attrs["scale"]), math.inf)
    return result


def _poisson(p, q):
    c, pr, qr = p.calls, p.attrs["rate"], q.attrs["rate"]
    return op("-", op("*", pr, op("-", c.method(pr, "log"), c.method(qr, "log"))), op("-", pr, qr))


def _binomial(p, q):
    c, pn, qn = p.calls, p.attrs["total_count"], q.attrs["total_count"]
    if c.method(c.method(protocols.compare("<", pn, qn), "any"), "item"):
        raise errors.TorchError("NotImplementedError", "KL between Binomials where "
                                "q.total_count > p.total_count is not implemented")
    kl = op("*", pn, op("-", op("+", op("*", p.probs, op("-", p.logits, q.logits)),
                                c.method(protocols.unary("-", p.probs), "log1p")),
                        c.method(protocols.unary("-", q.probs), "log1p")))
    _set_where(kl, protocols.compare(">", pn, qn), math.inf)
    return kl


def _independent(p, q):
    if p.ndims != q.ndims:
        raise errors.TorchError("NotImplementedError", "")
    return sum_rightmost(p.calls, kl_divergence(p.base, q.base), p.ndims)


_PAIRS = {Normal: _normal, Categorical: _categorical, Bernoulli: _bernoulli, Uniform: _uniform,
          Exponential: _exponential, Laplace: _laplace, LogNormal: _lognormal,
          MultivariateNormal: _multivariate_normal, Independent: _independent, Cauchy: _cauchy,
          Geometric: _geometric, OneHotCategorical: _one_hot_categorical, Gamma: _gamma,
          Chi2: _gamma, Beta: _beta, Dirichlet: _dirichlet,
          ContinuousBernoulli: _continuous_bernoulli, LowRankMultivariateNormal: _lowrank,
          HalfNormal: _half_normal, Gumbel: _gumbel, Pareto: _pareto, Poisson: _poisson,
          Binomial: _binomial}


def kl_divergence(p, q):
    """torch.distributions.kl_divergence for the pairs of families gradcli has."""
    function = dispatch(p, q, _PAIRS)
    if function is not None:
        return function(p, q)
    if isinstance(p, TransformedDistribution) and isinstance(q, TransformedDistribution):
        return _transformed(p, q)
    raise errors.TorchError("NotImplementedError", "No KL(p || q) is implemented for p type "
                            f"{_name(p)} and q type {_name(q)}")


def _name(value) -> str:
    return value.NAME if isinstance(value, Distribution) else type_name(value)
