"""torch.distributions' Distribution base and constraints: shapes, argument and sample
validation with torch's messages, and the repr; families compose torch's own functions through
the language's tables, as torch's Python code calls them."""

from __future__ import annotations

import numbers

import numpy as np

from gradcli.engine import errors
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import protocols
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.values import Size, type_name

MODULE = "torch.distributions"
VALIDATE_FLAG = "distributions.validate_args"  # Distribution._validate_args, when a program set it


class Calls:
    """torch functions and Tensor methods called as a program calls them."""

    def __init__(self, runtime):
        self.runtime = runtime

    def torch(self, name: str, *args, **kwargs):
        return self.runtime.call(protocols.MODULES["torch"].lookup(name), list(args), kwargs)

    def functional(self, name: str, *args, **kwargs):
        return self.runtime.call(protocols.MODULES["torch.nn.functional"].lookup(name),
                                 list(args), kwargs)

    def method(self, tensor, name: str, *args, **kwargs):
        return self.runtime.call(protocols.get_attribute(tensor, name), list(args), kwargs)


def op(symbol: str, a, b):
    return protocols.binary(symbol, a, b)


def attr(value, name: str):
    """value.name as a program reads it (a parameter a program replaced may be anything)."""
    return protocols.get_attribute(value, name)


# ---- constraints: (repr, check on arrays) ----

class Constraint:
    """A constraint's repr (given the printer) and its check on arrays (None: on the tensor)."""

    def __init__(self, text, check, event_dim: int = 0, is_discrete: bool = False,
                 kind: str = "", **fields):
        self.text, self.check, self.fields = text, check, fields  # fields: its bounds
        self.event_dim, self.is_discrete = event_dim, is_discrete
        self.kind = kind or text(None).split("(", 1)[0]  # torch's class is _<kind>


def _bound(printer, value) -> str:
    return printer.format(value, "")


def _array(value):
    return value.data if isinstance(value, Tensor) else value


REAL = Constraint(lambda p: "Real()", lambda v: v == v)
BOOLEAN = Constraint(lambda p: "Boolean()", lambda v: (v == 0) | (v == 1), is_discrete=True)
REAL_VECTOR = Constraint(lambda p: "IndependentConstraint(Real(), 1)",
                         lambda v: np.all(v == v, axis=-1), event_dim=1)


def greater_than(bound) -> Constraint:
    return Constraint(lambda p: f"GreaterThan(lower_bound={_bound(p, bound)})",
                      lambda v: _array(bound) < v, kind="GreaterThan",
                      lower_bound=bound)


def greater_than_eq(bound) -> Constraint:
    return Constraint(lambda p: f"GreaterThanEq(lower_bound={_bound(p, bound)})",
                      lambda v: _array(bound) <= v, kind="GreaterThanEq",
                      lower_bound=bound)


def less_than(bound) -> Constraint:
    return Constraint(lambda p: f"LessThan(upper_bound={_bound(p, bound)})",
                      lambda v: v < _array(bound), kind="LessThan",
                      upper_bound=bound)


def interval(low, high) -> Constraint:
    return Constraint(
        lambda p: f"Interval(lower_bound={_bound(p, low)}, upper_bound={_bound(p, high)})",
        lambda v: (_array(low) <= v) & (v <= _array(high)), kind="Interval",
        lower_bound=low, upper_bound=high)


def half_open_interval(low, high) -> Constraint:
    return Constraint(
        lambda p: f"HalfOpenInterval(lower_bound={_bound(p, low)}, upper_bound={_bound(p, high)})",
        lambda v: (_array(low) <= v) & (v < _array(high)), kind="HalfOpenInterval",
        lower_bound=low, upper_bound=high)


def integer_interval(low, high) -> Constraint:
    """Integers in [low, high]; a bound may be a tensor (Binomial's total_count)."""
    def shown(printer, bound):
        return _bound(printer, bound) if isinstance(bound, Tensor) else bound
    return Constraint(lambda p: f"IntegerInterval(lower_bound={shown(p, low)}, "
                      f"upper_bound={shown(p, high)})",
                      lambda v: (v % 1 == 0) & (_array(low) <= v) & (v <= _array(high)),
                      is_discrete=True, kind="IntegerInterval", lower_bound=low, upper_bound=high)


def integer_greater_than_eq(low: int) -> Constraint:
    return Constraint(lambda p: f"IntegerGreaterThan(lower_bound={low})",
                      lambda v: (v % 1 == 0) & (v >= low), is_discrete=True, lower_bound=low)


POSITIVE = greater_than(0.0)
NONNEGATIVE_INTEGER = integer_greater_than_eq(0)
NONNEGATIVE = greater_than_eq(0.0)
UNIT_INTERVAL = interval(0.0, 1.0)


def independent(constraint: Constraint, n: int) -> Constraint:
    """constraints.independent(constraint, n): the check holds over the rightmost n dims."""
    def check_all(v):
        result = constraint.check(v)
        return np.all(result, axis=tuple(range(-n, 0))) if n else result
    return Constraint(lambda p: f"IndependentConstraint({constraint.text(p)}, {n})", check_all,
                      event_dim=constraint.event_dim + n, kind="IndependentConstraint")


def _simplex_check(value: Tensor):
    total = F.sum(value, -1).data.astype(value.dtype.np)
    return np.all(value.data >= 0, axis=-1) & (np.abs(total - 1) < 1e-6)


SIMPLEX = Constraint(lambda p: "Simplex()", None, event_dim=1)
ONE_HOT = Constraint(lambda p: "OneHot()", lambda v: np.all((v == 0) | (v == 1), axis=-1) & (
    np.sum(v, axis=-1) == 1), event_dim=1, is_discrete=True)


def check(constraint: Constraint, value: Tensor) -> np.ndarray:
    """constraint.check(value) as an array."""
    if constraint is SIMPLEX:
        return _simplex_check(value)
    with grad_mode(False):
        return np.asarray(constraint.check(value.data))


def satisfied(constraint: Constraint, value: Tensor) -> bool:
    return bool(np.all(check(constraint, value)))


# ---- the base class ----

class Distribution(TableInstance):
    """One distribution value: its parameters live in `attrs` (torch's __dict__), in the
    order torch sets them."""

    __slots__ = ("attrs", "calls", "batch_shape", "event_shape", "validate_args")
    TYPE: PyType = None
    NAME = "Distribution"
    has_rsample = has_enumerate_support = False

    @property
    def language_type(self) -> PyType:
        return self.TYPE

    def setup_broadcast(self, runtime, validate_args, **parameters) -> None:
        """The common __init__: the parameters broadcast together into attrs (torch's
        broadcast_all), a batch shape of () when none of them is a tensor, then setup."""
        self.calls, self.attrs = Calls(runtime), {}
        values = broadcast_all(self.calls, *parameters.values())
        self.attrs.update(zip(parameters, values))
        scalars = not any(isinstance(v, Tensor) for v in parameters.values())
        self.setup(runtime, () if scalars else values[0].shape, validate_args)

    def setup(self, runtime, batch_shape, validate_args, event_shape=()) -> None:
        """Distribution.__init__: the shapes, then each parameter checked against its
        constraint (lazily made ones are skipped until they exist)."""
        self.batch_shape, self.event_shape = Size(batch_shape), Size(event_shape)
        self.validate_args = validate_args
        if not self.validate:
            return
        for name, constraint in self.arg_constraints().items():
            value = self.arg_value(name)
            if value is None:
                continue
            if not satisfied(constraint, value):
                printer = self.calls.runtime.printer
                raise errors.value_error(
                    f"Expected parameter {name} ({type_name(value)} of shape "
                    f"{tuple(value.shape)}) of distribution {self.repr(printer)} to satisfy the "
                    f"constraint {constraint.text(printer)}, but found invalid values:\n"
                    f"{printer.format(value, '')}")

    @property
    def validate(self) -> bool:
        """self._validate_args: the instance's, else the class default (read when used)."""
        if self.validate_args is None:
            return bool(STATE.flags.get(VALIDATE_FLAG, True))
        return bool(self.validate_args)

    def arg_constraints(self) -> dict:
        return {}

    def arg_value(self, name: str):
        """The parameter Distribution.__init__ validates (None: a lazy one not made yet)."""
        return self.attrs.get(name)

    def support(self) -> Constraint:
        raise errors.TorchError("NotImplementedError", "")

    def repr(self, printer) -> str:
        parts = []
        for name in self.arg_constraints():
            if name in self.attrs:
                value = self.attrs[name]
                if not isinstance(value, Tensor):
                    raise errors.TorchError("AttributeError", f"'{type_name(value)}' object has "
                                            "no attribute 'numel'")
                shown = printer.format(value, "") if value.data.size == 1 else printer.str(
                    Size(value.shape))
                parts.append(f"{name}: {shown}")
        return f"{self.NAME}({', '.join(parts)})"

    def extended_shape(self, sample_shape=()) -> Size:
        sample_shape = self.to_size(sample_shape)
        return Size((*sample_shape, *self.batch_shape, *self.event_shape))

    def validate_sample(self, value) -> None:
        if not isinstance(value, Tensor):
            raise errors.value_error("The value argument to log_prob must be a Tensor")
        printer = self.calls.runtime.printer
        size = Size(value.shape)
        start = len(size) - len(self.event_shape)
        if size[start:] != self.event_shape:
            raise errors.value_error(
                f"The right-most size of value must match event_shape: {printer.str(size)} vs "
                f"{printer.str(self.event_shape)}.")
        expected = Size((*self.batch_shape, *self.event_shape))
        for i, j in zip(reversed(size), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise errors.value_error(
                    f"Value is not broadcastable with batch_shape+event_shape: "
                    f"{printer.str(size)} vs {printer.str(expected)}.")
        support = self.support()
        if not satisfied(support, value):
            raise errors.value_error(
                f"Expected value argument ({type_name(value)} of shape {tuple(value.shape)}) to "
                f"be within the support ({support.text(printer)}) of the distribution "
                f"{self.repr(printer)}, but found invalid values:\n{printer.format(value, '')}")

    def sample(self, sample_shape=()):
        with grad_mode(False):
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        raise errors.TorchError("NotImplementedError", "")

    def sample_n(self, n):
        STATE.warn("FutureWarning", "`sample_n(n)` will be deprecated. Use `sample((n,))` "
                   "instead.")
        return self.sample(self.to_size((n,)))

    def cdf(self, value):
        raise errors.TorchError("NotImplementedError", "")

    def icdf(self, value):
        raise errors.TorchError("NotImplementedError", "")

    def enumerate_support(self, expand=True):
        raise errors.TorchError("NotImplementedError", "")

    def entropy(self):
        raise errors.TorchError("NotImplementedError", "")

    @property
    def mean(self):
        raise errors.TorchError("NotImplementedError", "")

    @property
    def variance(self):
        raise errors.TorchError("NotImplementedError", "")

    def perplexity(self):
        return self.calls.torch("exp", self.entropy())

    @property
    def mode(self):
        raise errors.TorchError("NotImplementedError", f"<class '{self.TYPE.name}'> does not "
                                "implement mode")

    # the names a family's expand() broadcasts (torch's `new.x = self.x.expand(batch_shape)`)
    EXPANDED: tuple = ()

    def expand(self, batch_shape):
        """Distribution.expand: a new instance, its parameters expanded, never validated."""
        batch_shape = self.to_size(batch_shape)
        new = object.__new__(type(self))
        new.calls, new.attrs = self.calls, {}
        self.expand_into(new, batch_shape)
        new.batch_shape, new.event_shape = batch_shape, self.event_shape
        new.validate_args = self.validate
        return new

    def expand_into(self, new, batch_shape) -> None:
        if not self.EXPANDED:
            raise errors.TorchError("NotImplementedError", "")
        for name in self.EXPANDED:
            new.attrs[name] = self.calls.method(self.attrs[name], "expand", batch_shape)

    def to_size(self, shape) -> Size:
        """torch.Size(shape), with its errors."""
        if isinstance(shape, Size):
            return shape
        return self.calls.runtime.call(protocols.MODULES["torch"].lookup("Size"), [shape], {})

    @property
    def stddev(self):
        return self.calls.method(self.variance, "sqrt")


def empty_like_param(calls: Calls, param, shape):
    """param.new(shape): an uninitialised tensor of param's dtype."""
    return calls.torch("empty", shape, dtype=attr(param, "dtype"))


def broadcast_all(calls: Calls, *values) -> tuple:
    """torch.distributions.utils.broadcast_all: numbers become tensors of the first tensor's
    dtype (else the default dtype), then all are broadcast together; tensor-likes (a
    __torch_function__ of their own) take part as tensors."""
    from gradcli.language.runtime.torch_function import overrides

    def tensor_like(value) -> bool:
        return isinstance(value, Tensor) or overrides(value)

    if not all(tensor_like(v) or isinstance(v, (bool, numbers.Number)) for v in values):
        raise errors.value_error("Input arguments must all be instances of Number, torch.Tensor "
                                 "or objects implementing __torch_function__.")
    if not all(tensor_like(v) for v in values):
        first = next((v for v in values if isinstance(v, Tensor)), None)
        options = {"dtype": calls.torch("get_default_dtype") if first is None else first.dtype}
        values = [v if tensor_like(v) else calls.torch("tensor", v, **options) for v in values]
    return tuple(calls.torch("broadcast_tensors", *values))
