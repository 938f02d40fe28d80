"""torch.distributions: the namespace of the families (their methods and properties as torch's
classes have them), kl_divergence, constraints and Distribution.set_default_validate_args."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Distribution
from gradcli.language.namespaces.distribution_constraints import CONSTRAINTS, ConstraintValue
from gradcli.language.namespaces.distribution_continuous import (
    Cauchy, Chi2, Exponential, Gamma, Laplace, LogNormal, Normal, StudentT, Uniform)
from gradcli.language.namespaces.distribution_continuous_bernoulli import ContinuousBernoulli
from gradcli.language.namespaces.distribution_dirichlet import Beta, Dirichlet
from gradcli.language.namespaces.distribution_discrete import (
    Bernoulli, Binomial, Categorical, Geometric, Multinomial, OneHotCategorical,
    OneHotCategoricalStraightThrough, Poisson)
from gradcli.language.namespaces.distribution_gamma_kin import (
    FisherSnedecor, InverseGamma, Kumaraswamy)
from gradcli.language.namespaces.distribution_generalized_pareto import GeneralizedPareto
from gradcli.language.namespaces.distribution_kl import kl_divergence
from gradcli.language.namespaces.distribution_lkj import LKJCholesky
from gradcli.language.namespaces.distribution_lowrank import LowRankMultivariateNormal
from gradcli.language.namespaces.distribution_mixture import MixtureSameFamily
from gradcli.language.namespaces.distribution_negative_binomial import NegativeBinomial
from gradcli.language.namespaces.distribution_multivariate import Independent, MultivariateNormal
from gradcli.language.namespaces.distribution_relaxed import (
    ExpRelaxedCategorical, LogitRelaxedBernoulli, RelaxedBernoulli, RelaxedOneHotCategorical)
from gradcli.language.namespaces.distribution_transformed import (
    Gumbel, HalfCauchy, HalfNormal, LogisticNormal, Pareto, TransformedDistribution, Weibull)
from gradcli.language.namespaces.distribution_joined_transforms import JOINED_TRANSFORMS
from gradcli.language.namespaces.distribution_transforms import TRANSFORMS
from gradcli.language.namespaces.distribution_utils import UTILS
from gradcli.language.namespaces.distribution_von_mises import VonMises
from gradcli.language.runtime.attributes import CLASS_METHODS
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_COMMON = (
    entry("sample", lambda d, sample_shape: d.sample(sample_shape), "self, sample_shape=()"),
    entry("rsample", lambda d, sample_shape: d.rsample(sample_shape), "self, sample_shape=()"),
    entry("sample_n", lambda d, n: d.sample_n(n), "self, n"),
    entry("log_prob", lambda d, value: d.log_prob(value), "self, value"),
    entry("cdf", lambda d, value: d.cdf(value), "self, value"),
    entry("icdf", lambda d, value: d.icdf(value), "self, value"),
    entry("entropy", lambda d: d.entropy(), "self"),
    entry("perplexity", lambda d: d.perplexity(), "self"),
    entry("enumerate_support", lambda d, expand: d.enumerate_support(expand),
          "self, expand=True"),
    entry("expand", lambda d, batch_shape, _instance: d.expand(batch_shape),
          "self, batch_shape, _instance=None"),
)
_SHAPES = {"batch_shape": lambda d: d.batch_shape, "event_shape": lambda d: d.event_shape,
           "has_rsample": lambda d: d.has_rsample, "mean": lambda d: d.mean,
           "stddev": lambda d: d.stddev, "variance": lambda d: d.variance,
           "mode": lambda d: d.mode, "support": lambda d: ConstraintValue(d.support()),
           "arg_constraints": lambda d: {name: ConstraintValue(c)
                                         for name, c in d.arg_constraints().items()},
           "has_enumerate_support": lambda d: d.has_enumerate_support}


def set_default_validate_args(value) -> None:
    """Distribution.set_default_validate_args: the class default every instance without its
    own validate_args reads."""
    if value not in (True, False):
        raise errors.value_error("")
    STATE.flags[base.VALIDATE_FLAG] = value


_CLASS_METHODS = table(entry("set_default_validate_args", set_default_validate_args, "value"))
Distribution.TYPE = PyType(f"{base.MODULE}.distribution.Distribution", (Distribution,))
CLASS_METHODS[Distribution] = _CLASS_METHODS


def _family(host, module: str, spec: str, extra_properties=None) -> PyType:
    host.METHODS = table(*_COMMON)
    host.PROPERTIES = _SHAPES | (extra_properties or {})
    host.TYPE = PyType(f"{base.MODULE}.{module}.{host.NAME}", (host,), BoundMethod(None, entry(
        "__init__", lambda runtime, _, *args: host(runtime, *args), f"self, {spec}",
        qualname=f"{host.NAME}.__init__", context=True)))
    rsample_property = isinstance(host.has_rsample, property)  # an instance's, as torch's
    CLASS_METHODS[host] = _CLASS_METHODS | ({} if rsample_property else {
        "has_rsample": host.has_rsample,
        "has_enumerate_support": host.has_enumerate_support})
    return host.TYPE


_DISCRETE = {"probs": lambda d: d.probs, "logits": lambda d: d.logits,
             "param_shape": lambda d: base.attr(d._param(), "shape")}
_MATRICES = {name: (lambda d, name=name: d.lazy(name))
             for name in ("scale_tril", "covariance_matrix", "precision_matrix")}

_RELAXED = "temperature, probs=None, logits=None, validate_args=None"
_TEMPERED = {"probs": lambda d: d.base.probs, "logits": lambda d: d.base.logits,
             "temperature": lambda d: d.temperature}
_family(LogitRelaxedBernoulli, "relaxed_bernoulli", _RELAXED, _DISCRETE)
_family(ExpRelaxedCategorical, "relaxed_categorical", _RELAXED, _DISCRETE)
DISTRIBUTIONS = Namespace(base.MODULE, {
    "Distribution": Distribution.TYPE,
    "Normal": _family(Normal, "normal", "loc, scale, validate_args=None"),
    "Uniform": _family(Uniform, "uniform", "low, high, validate_args=None"),
    "Categorical": _family(Categorical, "categorical", "probs=None, logits=None, "
                           "validate_args=None", _DISCRETE),
    "Bernoulli": _family(Bernoulli, "bernoulli", "probs=None, logits=None, validate_args=None",
                         _DISCRETE),
    "Exponential": _family(Exponential, "exponential", "rate, validate_args=None"),
    "Laplace": _family(Laplace, "laplace", "loc, scale, validate_args=None"),
    "LogNormal": _family(LogNormal, "log_normal", "loc, scale, validate_args=None",
                         {"loc": lambda d: d.loc, "scale": lambda d: d.scale}),
    "MultivariateNormal": _family(MultivariateNormal, "multivariate_normal",
                                  "loc, covariance_matrix=None, precision_matrix=None, "
                                  "scale_tril=None, validate_args=None", _MATRICES),
    "Cauchy": _family(Cauchy, "cauchy", "loc, scale, validate_args=None"),
    "Gamma": _family(Gamma, "gamma", "concentration, rate, validate_args=None"),
    "Chi2": _family(Chi2, "chi2", "df, validate_args=None", {"df": lambda d: d.df}),
    "Dirichlet": _family(Dirichlet, "dirichlet", "concentration, validate_args=None",
                         {"concentration": lambda d: d.attrs["concentration"]}),
    "Beta": _family(Beta, "beta", "concentration1, concentration0, validate_args=None",
                    {"concentration1": lambda d: d.concentration(0),
                     "concentration0": lambda d: d.concentration(1)}),
    "StudentT": _family(StudentT, "studentT", "df, loc=0.0, scale=1.0, validate_args=None"),
    "Geometric": _family(Geometric, "geometric", "probs=None, logits=None, validate_args=None",
                         _DISCRETE),
    "Poisson": _family(Poisson, "poisson", "rate, validate_args=None"),
    "Binomial": _family(Binomial, "binomial", "total_count=1, probs=None, logits=None, "
                        "validate_args=None", _DISCRETE | {"total_count": lambda d: d.attrs[
                            "total_count"]}),
    "Independent": _family(Independent, "independent", "base_distribution, "
                           "reinterpreted_batch_ndims, validate_args=None"),
    "TransformedDistribution": _family(TransformedDistribution, "transformed_distribution",
                                       "base_distribution, transforms, validate_args=None"),
    "Gumbel": _family(Gumbel, "gumbel", "loc, scale, validate_args=None"),
    "HalfNormal": _family(HalfNormal, "half_normal", "scale, validate_args=None",
                          {"scale": lambda d: d.scale}),
    "HalfCauchy": _family(HalfCauchy, "half_cauchy", "scale, validate_args=None",
                          {"scale": lambda d: d.scale}),
    "Weibull": _family(Weibull, "weibull", "scale, concentration, validate_args=None"),
    "Pareto": _family(Pareto, "pareto", "scale, alpha, validate_args=None"),
    "OneHotCategorical": _family(OneHotCategorical, "one_hot_categorical", "probs=None, "
                                 "logits=None, validate_args=None", _DISCRETE),
    "NegativeBinomial": _family(NegativeBinomial, "negative_binomial", "total_count, probs=None, "
                                "logits=None, validate_args=None", _DISCRETE | {
                                    "total_count": lambda d: d.attrs["total_count"]}),
    "OneHotCategoricalStraightThrough": _family(
        OneHotCategoricalStraightThrough, "one_hot_categorical", "probs=None, logits=None, "
        "validate_args=None", _DISCRETE),
    "Multinomial": _family(Multinomial, "multinomial", "total_count=1, probs=None, logits=None, "
                           "validate_args=None", _DISCRETE | {
                               "total_count": lambda d: d.attrs["total_count"]}),
    "ContinuousBernoulli": _family(ContinuousBernoulli, "continuous_bernoulli",
                                   "probs=None, logits=None, lims=None, "
                                   "validate_args=None", _DISCRETE),
    "RelaxedBernoulli": _family(RelaxedBernoulli, "relaxed_bernoulli", _RELAXED, _TEMPERED),
    "RelaxedOneHotCategorical": _family(RelaxedOneHotCategorical, "relaxed_categorical",
                                        _RELAXED, _TEMPERED),
    "LowRankMultivariateNormal": _family(
        LowRankMultivariateNormal, "lowrank_multivariate_normal", "loc, cov_factor, cov_diag, "
        "validate_args=None", _MATRICES),
    "MixtureSameFamily": _family(MixtureSameFamily, "mixture_same_family",
                                 "mixture_distribution, component_distribution, "
                                 "validate_args=None", {
                                     "mixture_distribution": lambda d: d.mixture,
                                     "component_distribution": lambda d: d.component}),
    "InverseGamma": _family(InverseGamma, "inverse_gamma", "concentration, rate, validate_args=None",
                            {"concentration": lambda d: d.concentration, "rate": lambda d: d.rate}),
    "FisherSnedecor": _family(FisherSnedecor, "fishersnedecor", "df1, df2, validate_args=None",
                              {"df1": lambda d: d.attrs["df1"], "df2": lambda d: d.attrs["df2"]}),
    "Kumaraswamy": _family(Kumaraswamy, "kumaraswamy", "concentration1, concentration0, "
                           "validate_args=None", {
                               "concentration1": lambda d: d.attrs["concentration1"],
                               "concentration0": lambda d: d.attrs["concentration0"]}),
    "LogisticNormal": _family(LogisticNormal, "logistic_normal", "loc, scale, validate_args=None",
                              {"loc": lambda d: d.loc, "scale": lambda d: d.scale}),
    "LKJCholesky": _family(LKJCholesky, "lkj_cholesky", "dim, concentration=1.0, "
                           "validate_args=None", {"dim": lambda d: d.attrs["dim"],
                                                  "concentration": lambda d: d.attrs[
                                                      "concentration"]}),
    "VonMises": _family(VonMises, "von_mises", "loc, concentration, validate_args=None",
                        {"loc": lambda d: d.attrs["loc"],
                         "concentration": lambda d: d.attrs["concentration"]}),
    "GeneralizedPareto": _family(GeneralizedPareto, "generalized_pareto",
                                 "loc, scale, concentration, validate_args=None"),
    "kl_divergence": entry("kl_divergence", kl_divergence, "p, q"),
    "constraints": CONSTRAINTS,
    "transforms": Namespace(TRANSFORMS.name, TRANSFORMS.table | JOINED_TRANSFORMS),
    "utils": UTILS,
} | dict(TRANSFORMS.table) | JOINED_TRANSFORMS)
DISTRIBUTIONS.table["kl"] = Namespace(f"{base.MODULE}.kl", {
    "kl_divergence": DISTRIBUTIONS.table["kl_divergence"]})
