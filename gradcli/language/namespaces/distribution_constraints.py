"""torch.distributions.constraints: the constraint objects (repr, check, event_dim,
is_discrete) and the constructors of the bounded ones."""

from __future__ import annotations

from gradcli.engine import dtypes
from gradcli.engine.tensor import Tensor, wrap
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_lkj import CORR_CHOLESKY
from gradcli.language.namespaces.distribution_multivariate import LOWER_CHOLESKY, POSITIVE_DEFINITE
from gradcli.language.runtime import protocols
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

MODULE = f"{base.MODULE}.constraints"


class ConstraintValue(TableInstance):
    """One constraint object; its class is torch's `_<Name>` for the name its repr starts with."""

    __slots__ = ("constraint", "attrs")
    TYPES: dict = {}

    def __init__(self, constraint: base.Constraint):
        self.constraint, self.attrs = constraint, dict(constraint.fields)

    @property
    def language_type(self) -> PyType:
        name = "_" + self.constraint.kind
        if name not in self.TYPES:
            self.TYPES[name] = PyType(f"{MODULE}.{name}", (ConstraintValue,))
        return self.TYPES[name]

    def repr(self, printer) -> str:
        return self.constraint.text(printer)

    def check(self, runtime, value):
        if isinstance(value, Tensor):
            return wrap(base.check(self.constraint, value), dtypes.bool_)
        if self.constraint is base.SIMPLEX:  # torch.all(value >= 0, dim=-1), with its errors
            return runtime.call(protocols.MODULES["torch"].lookup("all"),
                                [protocols.compare(">=", value, 0)], {"dim": -1})
        return bool(self.constraint.check(value))


ConstraintValue.METHODS = table(entry("check", lambda runtime, c, value: c.check(runtime, value),
                                      "self, value", context=True))
ConstraintValue.PROPERTIES = {"event_dim": lambda c: c.constraint.event_dim,
                              "is_discrete": lambda c: c.constraint.is_discrete}


def _maker(name: str, function, spec: str):
    return entry(name, lambda *args: ConstraintValue(function(*args)), spec)


CONSTRAINTS = Namespace(MODULE, {name: ConstraintValue(c) for name, c in {
    "real": base.REAL, "real_vector": base.REAL_VECTOR, "boolean": base.BOOLEAN,
    "positive": base.POSITIVE, "nonnegative": base.NONNEGATIVE,
    "unit_interval": base.UNIT_INTERVAL, "nonnegative_integer": base.NONNEGATIVE_INTEGER,
    "simplex": base.SIMPLEX,
    "positive_definite": POSITIVE_DEFINITE, "lower_cholesky": LOWER_CHOLESKY,
    "corr_cholesky": CORR_CHOLESKY}.items()} | {
    "greater_than": _maker("greater_than", base.greater_than, "lower_bound"),
    "greater_than_eq": _maker("greater_than_eq", base.greater_than_eq, "lower_bound"),
    "less_than": _maker("less_than", base.less_than, "upper_bound"),
    "interval": _maker("interval", base.interval, "lower_bound, upper_bound"),
    "integer_interval": _maker("integer_interval", base.integer_interval,
                               "lower_bound, upper_bound"),
})
