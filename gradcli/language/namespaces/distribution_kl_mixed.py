"""kl_divergence between distributions of two different families: torch's registered functions
for those pairs (kl.py's "Different distributions"), the same calls in the same order, and the
pairs whose divergence is infinite."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.language.namespaces.distribution_continuous import (
    Exponential, Gamma, Laplace, Normal, Uniform)
from gradcli.language.namespaces.distribution_continuous_bernoulli import ContinuousBernoulli
from gradcli.language.namespaces.distribution_dirichlet import Beta, Dirichlet
from gradcli.language.namespaces.distribution_discrete import Bernoulli, Binomial, Poisson
from gradcli.language.namespaces.distribution_base import op
from gradcli.language.namespaces.distribution_transformed import Gumbel, Pareto
from gradcli.language.runtime import protocols

_EULER = 0.57721566490153286060


def _neg(x):
    return protocols.unary("-", x)


def _m(p, t, name: str, *args):
    return p.calls.method(t, name, *args)


def _entropy_term(p):
    return _neg(p.entropy())


def _beta_mean(p):
    return op("/", p.concentration(0), op("+", p.concentration(0), p.concentration(1)))


def _infinity(like):
    """_infinite_like: inf in the shape of the parameter `like` picks from p."""
    def kl(p, q):
        return p.calls.torch("full_like", like(p), math.inf)
    return kl


def _bernoulli_poisson(p, q):
    rate = q.attrs["rate"]
    return op("-", _entropy_term(p), op("-", op("*", p.probs, _m(p, rate, "log")), rate))


def _beta_exponential(p, q):
    rate = q.attrs["rate"]
    return op("+", op("-", _entropy_term(p), _m(p, rate, "log")), op("*", rate, _beta_mean(p)))


def _beta_gamma(p, q):
    k, rate = q.attrs["concentration"], q.attrs["rate"]
    c1, c0 = p.concentration(0), p.concentration(1)
    t2 = op("-", _m(p, k, "lgamma"), op("*", k, _m(p, rate, "log")))
    t3 = op("*", op("-", k, 1), op("-", _m(p, c1, "digamma"), _m(p, op("+", c1, c0), "digamma")))
    t4 = op("/", op("*", rate, c1), op("+", c1, c0))
    return op("+", op("-", op("+", _entropy_term(p), t2), t3), t4)


def _beta_normal(p, q):
    loc, scale = q.attrs["loc"], q.attrs["scale"]
    c1, c0 = p.concentration(0), p.concentration(1)
    e_beta = op("/", c1, op("+", c1, c0))
    var_normal = _m(p, scale, "pow", 2)
    t2 = op("*", 0.5, _m(p, op("*", op("*", var_normal, 2), math.pi), "log"))
    t3 = op("*", op("+", op("/", op("*", e_beta, op("-", 1, e_beta)), op("+", op("+", c1, c0), 1)),
                    _m(p, e_beta, "pow", 2)), 0.5)
    t4 = op("*", loc, e_beta)
    t5 = op("*", _m(p, loc, "pow", 2), 0.5)
    return op("+", op("+", _entropy_term(p), t2),
              op("/", op("+", op("-", t3, t4), t5), var_normal))


def _beta_uniform(p, q):
    low, high = q.attrs["low"], q.attrs["high"]
    result = op("+", _entropy_term(p), _m(p, op("-", high, low), "log"))
    protocols.set_item(result, op("|", protocols.compare(">", low, 0.0), protocols.compare("<", high, 1.0)),
               math.inf)
    return result


def _exponential_gamma(p, q):
    k = q.attrs["concentration"]
    ratio = op("/", q.attrs["rate"], p.attrs["rate"])
    t1 = op("*", _neg(k), p.calls.torch("log", ratio))
    return op("-", op("+", op("+", op("+", t1, ratio), _m(p, k, "lgamma")), op("*", k, _EULER)),
              1 + _EULER)


def _exponential_gumbel(p, q):
    c = p.calls
    scale_rate_prod = op("*", p.attrs["rate"], q.attrs["scale"])
    loc_scale_ratio = op("/", q.attrs["loc"], q.attrs["scale"])
    t1 = op("-", _m(p, scale_rate_prod, "log"), 1)
    t2 = op("/", op("*", c.torch("exp", loc_scale_ratio), scale_rate_prod),
            op("+", scale_rate_prod, 1))
    t3 = _m(p, scale_rate_prod, "reciprocal")
    return op("+", op("+", op("-", t1, loc_scale_ratio), t2), t3)


def _exponential_normal(p, q):
    loc, rate = q.attrs["loc"], p.attrs["rate"]
    var_normal = _m(p, q.attrs["scale"], "pow", 2)
    rate_sqr = _m(p, rate, "pow", 2)
    t1 = op("*", 0.5, p.calls.torch("log", op("*", op("*", op("*", rate_sqr, var_normal), 2),
                                                 math.pi)))
    t2 = _m(p, rate_sqr, "reciprocal")
    t3 = op("/", loc, rate)
    t4 = op("*", _m(p, loc, "pow", 2), 0.5)
    return op("+", op("-", t1, 1), op("/", op("+", op("-", t2, t3), t4), var_normal))


def _gamma_exponential(p, q):
    rate = q.attrs["rate"]
    return op("+", op("-", _entropy_term(p), _m(p, rate, "log")),
              op("/", op("*", rate, p.attrs["concentration"]), p.attrs["rate"]))


def _gamma_gumbel(p, q):
    k = p.attrs["concentration"]
    beta_scale_prod = op("*", p.attrs["rate"], q.attrs["scale"])
    loc_scale_ratio = op("/", q.attrs["loc"], q.attrs["scale"])
    t1 = op("-", op("-", op("*", op("-", k, 1), _m(p, k, "digamma")), _m(p, k, "lgamma")), k)
    t2 = op("+", _m(p, beta_scale_prod, "log"), op("/", k, beta_scale_prod))
    t3 = op("-", op("*", p.calls.torch("exp", loc_scale_ratio),
                    _m(p, op("+", 1, _m(p, beta_scale_prod, "reciprocal")), "pow", _neg(k))),
            loc_scale_ratio)
    return op("+", op("+", t1, t2), t3)


def _gamma_normal(p, q):
    k, rate, loc = p.attrs["concentration"], p.attrs["rate"], q.attrs["loc"]
    var_normal = _m(p, q.attrs["scale"], "pow", 2)
    beta_sqr = _m(p, rate, "pow", 2)
    t1 = op("-", op("-", op("*", 0.5, p.calls.torch(
        "log", op("*", op("*", op("*", beta_sqr, var_normal), 2), math.pi))), k), _m(p, k, "lgamma"))
    t2 = op("/", op("*", 0.5, op("+", _m(p, k, "pow", 2), k)), beta_sqr)
    t3 = op("/", op("*", loc, k), rate)
    t4 = op("*", 0.5, _m(p, loc, "pow", 2))
    return op("+", op("+", t1, op("*", op("-", k, 1), _m(p, k, "digamma"))),
              op("/", op("+", op("-", t2, t3), t4), var_normal))


def _gumbel_normal(p, q):
    param_ratio = op("/", p.attrs["scale"], q.attrs["scale"])
    t1 = _m(p, op("/", param_ratio, math.sqrt(2 * math.pi)), "log")
    t2 = op("/", _m(p, op("*", op("*", math.pi, param_ratio), 0.5), "pow", 2), 3)
    t3 = op("*", _m(p, op("/", op("-", op("+", p.attrs["loc"], op("*", p.attrs["scale"], _EULER)),
                                     q.attrs["loc"]), q.attrs["scale"]), "pow", 2), 0.5)
    return op("-", op("+", op("+", _neg(t1), t2), t3), _EULER + 1)


def _laplace_normal(p, q):
    loc_p, loc_q = p.attrs["loc"], q.attrs["loc"]
    var_normal = _m(p, q.attrs["scale"], "pow", 2)
    ratio = op("/", _m(p, p.attrs["scale"], "pow", 2), var_normal)
    t1 = op("*", 0.5, p.calls.torch("log", op("/", op("*", 2, ratio), math.pi)))
    t2 = op("*", 0.5, _m(p, loc_p, "pow", 2))
    t3 = op("*", loc_p, loc_q)
    t4 = op("*", 0.5, _m(p, loc_q, "pow", 2))
    return op("-", op("+", op("+", _neg(t1), ratio), op("/", op("+", op("-", t2, t3), t4),
                                                       var_normal)), 1)


def _normal_gumbel(p, q):
    mean_scale_ratio = op("/", p.attrs["loc"], q.attrs["scale"])
    var_scale_sqr_ratio = _m(p, op("/", p.attrs["scale"], q.attrs["scale"]), "pow", 2)
    loc_scale_ratio = op("/", q.attrs["loc"], q.attrs["scale"])
    t1 = op("*", _m(p, var_scale_sqr_ratio, "log"), 0.5)
    t2 = op("-", mean_scale_ratio, loc_scale_ratio)
    t3 = p.calls.torch("exp", op("+", op("+", _neg(mean_scale_ratio),
                                         op("*", 0.5, var_scale_sqr_ratio)), loc_scale_ratio))
    return op("-", op("+", op("+", _neg(t1), t2), t3), 0.5 * (1 + math.log(2 * math.pi)))


def _normal_laplace(p, q):
    c = p.calls
    loc_diff = op("-", p.attrs["loc"], q.attrs["loc"])
    scale_ratio = op("/", p.attrs["scale"], q.attrs["scale"])
    loc_diff_scale_ratio = op("/", loc_diff, p.attrs["scale"])
    t1 = c.torch("log", scale_ratio)
    t2 = op("*", op("*", math.sqrt(2 / math.pi), p.attrs["scale"]),
            c.torch("exp", op("*", -0.5, _m(p, loc_diff_scale_ratio, "pow", 2))))
    t3 = op("*", loc_diff, c.torch("erf", op("*", math.sqrt(0.5), loc_diff_scale_ratio)))
    return op("-", op("+", _neg(t1), op("/", op("+", t2, t3), q.attrs["scale"])),
              0.5 * (1 + math.log(0.5 * math.pi)))


def _pareto_exponential(p, q):
    alpha = p.attrs["alpha"]
    scale_rate_prod = op("*", p.attrs["scale"], q.attrs["rate"])
    t1 = _m(p, op("/", alpha, scale_rate_prod), "log")
    t2 = _m(p, alpha, "reciprocal")
    t3 = op("/", op("*", alpha, scale_rate_prod), op("-", alpha, 1))
    result = op("-", op("+", op("-", t1, t2), t3), 1)
    protocols.set_item(result, protocols.compare("<=", alpha, 1), math.inf)
    return result


def _pareto_gamma(p, q):
    alpha, scale, k, rate = p.attrs["alpha"], p.attrs["scale"], q.attrs["concentration"], \
        q.attrs["rate"]
    common_term = op("+", _m(p, scale, "log"), _m(p, alpha, "reciprocal"))
    t1 = op("-", _m(p, alpha, "log"), common_term)
    t2 = op("-", _m(p, k, "lgamma"), op("*", k, _m(p, rate, "log")))
    t3 = op("*", op("-", 1, k), common_term)
    t4 = op("/", op("*", op("*", rate, alpha), scale), op("-", alpha, 1))
    result = op("-", op("+", op("+", op("+", t1, t2), t3), t4), 1)
    protocols.set_item(result, protocols.compare("<=", alpha, 1), math.inf)
    return result


def _pareto_normal(p, q):
    alpha, scale, loc, q_scale = p.attrs["alpha"], p.attrs["scale"], q.attrs["loc"], \
        q.attrs["scale"]
    var_normal = op("*", 2, _m(p, q_scale, "pow", 2))
    common_term = op("/", scale, op("-", alpha, 1))
    t1 = _m(p, op("/", op("*", op("*", math.sqrt(2 * math.pi), q_scale), alpha), scale), "log")
    t2 = _m(p, alpha, "reciprocal")
    t3 = op("/", op("*", alpha, _m(p, common_term, "pow", 2)), op("-", alpha, 2))
    t4 = _m(p, op("-", op("*", alpha, common_term), loc), "pow", 2)
    result = op("-", op("+", op("-", t1, t2), op("/", op("+", t3, t4), var_normal)), 1)
    protocols.set_item(result, protocols.compare("<=", alpha, 2), math.inf)
    return result


def _x_log_x(p, t):
    return p.calls.torch("xlogy", t, t)


def _uniform_beta(p, q):
    low, high = p.attrs["low"], p.attrs["high"]
    c1, c0 = q.concentration(0), q.concentration(1)
    common_term = op("-", high, low)
    t1 = p.calls.torch("log", common_term)
    t2 = op("/", op("*", op("-", c1, 1), op("-", op("-", _x_log_x(p, high), _x_log_x(p, low)),
                                            common_term)), common_term)
    t3 = op("/", op("*", op("-", c0, 1), op("+", op("-", _x_log_x(p, op("-", 1, high)),
                                                    _x_log_x(p, op("-", 1, low))), common_term)),
            common_term)
    t4 = op("-", op("+", _m(p, c1, "lgamma"), _m(p, c0, "lgamma")),
            _m(p, op("+", c1, c0), "lgamma"))
    result = op("-", op("-", op("+", t3, t4), t1), t2)
    protocols.set_item(result, op("|", protocols.compare(">", high, 1.0), protocols.compare("<", low, 0.0)),
               math.inf)
    return result


def _uniform_exponential(p, q):
    low, high, rate = p.attrs["low"], p.attrs["high"], q.attrs["rate"]
    result = op("-", op("/", op("*", rate, op("+", high, low)), 2),
                _m(p, op("*", op("-", high, low), rate), "log"))
    protocols.set_item(result, protocols.compare("<", low, 0.0), math.inf)
    return result


def _uniform_gamma(p, q):
    low, high, k, rate = p.attrs["low"], p.attrs["high"], q.attrs["concentration"], \
        q.attrs["rate"]
    common_term = op("-", high, low)
    t1 = _m(p, common_term, "log")
    t2 = op("-", _m(p, k, "lgamma"), op("*", k, _m(p, rate, "log")))
    t3 = op("/", op("*", op("-", 1, k), op("-", op("-", _x_log_x(p, high), _x_log_x(p, low)),
                                           common_term)), common_term)
    t4 = op("/", op("*", rate, op("+", high, low)), 2)
    result = op("+", op("+", op("+", _neg(t1), t2), t3), t4)
    protocols.set_item(result, protocols.compare("<", low, 0.0), math.inf)
    return result


def _uniform_gumbel(p, q):
    c, low, high, loc, scale = p.calls, p.attrs["low"], p.attrs["high"], q.attrs["loc"], \
        q.attrs["scale"]
    common_term = op("/", scale, op("-", high, low))
    high_loc_diff = op("/", op("-", high, loc), scale)
    low_loc_diff = op("/", op("-", low, loc), scale)
    t1 = op("+", _m(p, common_term, "log"), op("*", 0.5, op("+", high_loc_diff, low_loc_diff)))
    t2 = op("*", common_term, op("-", c.torch("exp", _neg(high_loc_diff)),
                                 c.torch("exp", _neg(low_loc_diff))))
    return op("-", t1, t2)


def _uniform_normal(p, q):
    low, high, loc, scale = p.attrs["low"], p.attrs["high"], q.attrs["loc"], q.attrs["scale"]
    common_term = op("-", high, low)
    t1 = _m(p, op("/", op("*", math.sqrt(math.pi * 2), scale), common_term), "log")
    t2 = op("/", _m(p, common_term, "pow", 2), 12)
    t3 = _m(p, op("/", op("-", op("+", high, low), op("*", 2, loc)), 2), "pow", 2)
    return op("+", t1, op("/", op("*", 0.5, op("+", t2, t3)), _m(p, scale, "pow", 2)))


def _beta_continuous_bernoulli(p, q):
    return op("-", op("-", op("-", _entropy_term(p), op("*", p.mean, q.logits)),
                      p.calls.torch("log1p", _neg(q.probs))), q._log_norm())


def _uniform_continuous_bernoulli(p, q):
    c = p.calls
    result = _beta_continuous_bernoulli(p, q)
    outside = c.torch("max", c.torch("ge", p.attrs["high"], 1.0), c.torch("le", p.attrs["low"], 0.0))
    return c.torch("where", outside, op("*", c.torch("ones_like", result), math.inf), result)


def _continuous_bernoulli_normal(p, q):
    c, loc, scale = p.calls, q.attrs["loc"], q.attrs["scale"]
    t2 = op("+", op("*", 0.5, op("+", math.log(2.0 * math.pi), c.torch("square", op("/", loc, scale)))),
            c.torch("log", scale))
    t3 = op("/", op("-", op("+", p.variance, c.torch("square", p.mean)),
                    op("*", op("*", 2.0, loc), p.mean)), op("*", 2.0, c.torch("square", scale)))
    return op("+", op("+", _entropy_term(p), t2), t3)


def _continuous_bernoulli_exponential(p, q):
    rate = q.attrs["rate"]
    return op("+", op("-", _entropy_term(p), p.calls.torch("log", rate)), op("*", rate, p.mean))


def _continuous_bernoulli_uniform(p, q):
    c = p.calls
    result = op("+", _entropy_term(p), _m(p, op("-", q.attrs["high"], q.attrs["low"]), "log"))
    outside = c.torch("max", c.torch("ge", q.attrs["low"], 0.0), c.torch("le", q.attrs["high"], 1.0))
    return c.torch("where", outside, op("*", c.torch("ones_like", result), math.inf), result)


def _uniform_pareto(p, q):
    low, high, alpha, scale = p.attrs["low"], p.attrs["high"], q.attrs["alpha"], q.attrs["scale"]
    support_uniform = op("-", high, low)
    t1 = _m(p, op("*", op("*", alpha, _m(p, scale, "pow", alpha)), support_uniform), "log")
    t2 = op("/", op("-", op("-", _x_log_x(p, high), _x_log_x(p, low)), support_uniform),
            support_uniform)
    result = op("-", op("*", t2, op("+", alpha, 1)), t1)
    protocols.set_item(result, protocols.compare("<", low, scale), math.inf)
    return result


def _param(name: str):
    return lambda p: p.attrs[name]


def _infinite_pairs() -> dict:
    pairs = {}
    for p_type, like, q_types in (
            (Beta, lambda p: p.concentration(0), (Pareto,)),
            (ContinuousBernoulli, lambda p: p.probs, (Pareto,)),
            (Exponential, _param("rate"), (Beta, ContinuousBernoulli, Pareto, Uniform)),
            (Gamma, _param("concentration"), (Beta, ContinuousBernoulli, Pareto, Uniform)),
            (Gumbel, _param("loc"), (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto,
                                     Uniform)),
            (Laplace, _param("loc"), (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto,
                                      Uniform)),
            (Normal, _param("loc"), (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto,
                                     Uniform)),
            (Pareto, _param("scale"), (Beta, ContinuousBernoulli, Uniform)),
            (Poisson, _param("rate"), (Bernoulli, Binomial))):
        for q_type in q_types:
            pairs[p_type, q_type] = _infinity(like)
    return pairs


MIXED = _infinite_pairs() | {
    (Bernoulli, Poisson): _bernoulli_poisson, (Beta, Exponential): _beta_exponential,
    (Beta, Gamma): _beta_gamma, (Beta, Normal): _beta_normal, (Beta, Uniform): _beta_uniform,
    (Exponential, Gamma): _exponential_gamma, (Exponential, Gumbel): _exponential_gumbel,
    (Exponential, Normal): _exponential_normal, (Gamma, Exponential): _gamma_exponential,
    (Gamma, Gumbel): _gamma_gumbel, (Gamma, Normal): _gamma_normal,
    (Gumbel, Normal): _gumbel_normal, (Laplace, Normal): _laplace_normal,
    (Normal, Gumbel): _normal_gumbel, (Normal, Laplace): _normal_laplace,
    (Pareto, Exponential): _pareto_exponential, (Pareto, Gamma): _pareto_gamma,
    (Pareto, Normal): _pareto_normal, (Uniform, Beta): _uniform_beta,
    (Uniform, Exponential): _uniform_exponential, (Uniform, Gamma): _uniform_gamma,
    (Uniform, Gumbel): _uniform_gumbel, (Uniform, Normal): _uniform_normal,
    (Uniform, Pareto): _uniform_pareto, (Beta, ContinuousBernoulli): _beta_continuous_bernoulli,
    (Uniform, ContinuousBernoulli): _uniform_continuous_bernoulli,
    (ContinuousBernoulli, Normal): _continuous_bernoulli_normal,
    (ContinuousBernoulli, Exponential): _continuous_bernoulli_exponential,
    (ContinuousBernoulli, Uniform): _continuous_bernoulli_uniform}
# torch's ExponentialFamily subclasses: two of different families have no divergence
EXPONENTIAL_FAMILIES = (Bernoulli, Beta, ContinuousBernoulli, Dirichlet, Exponential, Gamma,
                        Normal, Poisson)


def dispatch(p, q, same: dict):
    """The registered function for the most specific pair of p's and q's classes (`same` holds
    the pairs of one family), as torch's _dispatch_kl picks it; None when there is none."""
    for p_type in type(p).__mro__:
        for q_type in type(q).__mro__:
            if p_type is q_type and p_type in same:
                return same[p_type]
            if (p_type, q_type) in MIXED:
                return MIXED[p_type, q_type]
    if isinstance(p, EXPONENTIAL_FAMILIES) and isinstance(q, EXPONENTIAL_FAMILIES):
        raise errors.TorchError(
            "NotImplementedError", "The cross KL-divergence between different exponential "
            "families cannot                             be computed using Bregman divergences")
    return None
