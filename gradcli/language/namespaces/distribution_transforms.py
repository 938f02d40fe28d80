"""torch.distributions.transforms: the bijections TransformedDistribution pushes samples
through (Exp, Affine, Sigmoid, Tanh, Softmax, StickBreaking, Power, Abs, their composition and inverses), the
same calls as torch's Python code."""

from __future__ import annotations

import math

from gradcli.engine import creation, errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import distribution_base as base
from gradcli.language.namespaces.distribution_base import Calls, op
from gradcli.language.namespaces.distribution_constraints import ConstraintValue
from gradcli.language.namespaces.distribution_multivariate import broadcast_shapes, sum_rightmost
from gradcli.language.runtime import protocols
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, Size, type_name

MODULE = f"{base.MODULE}.transforms"


def _neg(value):
    return protocols.unary("-", value)


def _shape_of(value) -> tuple:
    return tuple(value.shape) if isinstance(value, Tensor) else ()


class Transform(TableInstance):
    """One transform: `apply` and `invert` map values, `ladj` is log|dy/dx|."""

    __slots__ = ("calls", "attrs", "inverse")
    TYPE: PyType = None
    NAME = "Transform"
    DOMAIN = CODOMAIN = base.REAL
    BIJECTIVE = True
    SIGN = 1  # None: torch raises NotImplementedError

    def __init__(self, runtime, cache_size=0):
        self.calls, self.attrs, self.inverse = Calls(runtime), {}, None

    @property
    def language_type(self) -> PyType:
        return self.TYPE

    def repr(self, printer) -> str:
        return f"{self.NAME}()"

    def forward(self):
        return BoundMethod(self, entry("__call__", lambda t, x: t.apply(x), "self, x"))

    def domain(self) -> base.Constraint:
        return self.DOMAIN

    def codomain(self) -> base.Constraint:
        return self.CODOMAIN

    def sign(self):
        if self.SIGN is None:
            raise errors.TorchError("NotImplementedError", "")
        return self.SIGN

    def event_dim(self) -> int:
        if self.domain().event_dim == self.codomain().event_dim:
            return self.domain().event_dim
        raise errors.value_error("Please use either .domain.event_dim or .codomain.event_dim")

    def inv(self) -> Transform:
        if self.inverse is None:
            self.inverse = _Inverse(self)
        return self.inverse

    def apply(self, x):
        raise errors.TorchError("NotImplementedError", "")

    def invert(self, y):
        raise errors.TorchError("NotImplementedError", "")

    def ladj(self, x, y):
        raise errors.TorchError("NotImplementedError", "")

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape

    def equals(self, other) -> bool:
        """Transform.__eq__: identity, unless the class compares its kind or parameters."""
        return self is other

    def __eq__(self, other) -> bool:  # a script's == and != (unhashable, as torch's)
        return self.equals(other)

    def __ne__(self, other) -> bool:
        return not self.equals(other)

    def _same_values(self, a, b) -> bool:
        if not isinstance(a, Tensor) and not isinstance(b, Tensor):
            return a == b
        return bool(self.calls.method(self.calls.method(protocols.compare("==", a, b), "all"),
                                      "item"))


class _Stateless(Transform):
    """A transform without parameters: equal to any other of its class."""

    __slots__ = ()

    def equals(self, other) -> bool:
        return isinstance(other, type(self))


class _Inverse(Transform):
    __slots__ = ()
    NAME = "_InverseTransform"

    def __init__(self, transform: Transform):
        super().__init__(transform.calls.runtime)
        self.inverse = transform

    def repr(self, printer) -> str:
        return f"_InverseTransform({self.inverse.repr(printer)})"

    def domain(self):
        return self.inverse.codomain()

    def codomain(self):
        return self.inverse.domain()

    @property
    def BIJECTIVE(self):
        return self.inverse.BIJECTIVE

    def sign(self):
        return self.inverse.sign()

    def inv(self):
        return self.inverse

    def equals(self, other) -> bool:
        return isinstance(other, _Inverse) and self.inverse.equals(other.inverse)

    def apply(self, x):
        return self.inverse.invert(x)

    def invert(self, y):
        return self.inverse.apply(y)

    def ladj(self, x, y):
        return _neg(self.inverse.ladj(y, x))

    def forward_shape(self, shape):
        return self.inverse.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self.inverse.forward_shape(shape)


class ExpTransform(_Stateless):
    __slots__ = ()
    NAME, CODOMAIN = "ExpTransform", base.POSITIVE

    def apply(self, x):
        return self.calls.method(x, "exp")

    def invert(self, y):
        return self.calls.method(y, "log")

    def ladj(self, x, y):
        return x


class _Broadcasting(Transform):
    """A transform with tensor parameters: its shapes broadcast with theirs."""

    __slots__ = ()
    PARAMS: tuple = ()

    def forward_shape(self, shape):
        return self._broadcast(shape)

    def inverse_shape(self, shape):
        return self._broadcast(shape)

    def _broadcast(self, shape):
        return broadcast_shapes(self.calls.runtime.printer, tuple(shape),
                                *(_shape_of(self.attrs[name]) for name in self.PARAMS))


class AffineTransform(_Broadcasting):
    __slots__ = ()
    NAME, PARAMS = "AffineTransform", ("loc", "scale")

    def __init__(self, runtime, loc, scale, event_dim=0, cache_size=0):
        super().__init__(runtime, cache_size)
        self.attrs.update(loc=loc, scale=scale, _event_dim=event_dim)

    def domain(self):
        n = self.attrs["_event_dim"]
        return base.REAL if n == 0 else base.independent(base.REAL, n)

    codomain = domain

    def event_dim(self):
        return self.attrs["_event_dim"]

    def equals(self, other) -> bool:
        return isinstance(other, AffineTransform) and all(
            self._same_values(self.attrs[name], other.attrs[name]) for name in ("loc", "scale"))

    def sign(self):
        scale = self.attrs["scale"]
        if isinstance(scale, Tensor):
            return self.calls.method(scale, "sign")
        return 1 if float(scale) > 0 else -1 if float(scale) < 0 else 0

    def apply(self, x):
        return op("+", self.attrs["loc"], op("*", self.attrs["scale"], x))

    def invert(self, y):
        return op("/", op("-", y, self.attrs["loc"]), self.attrs["scale"])

    def ladj(self, x, y):
        c, scale, n = self.calls, self.attrs["scale"], self.attrs["_event_dim"]
        shape = x.shape
        if isinstance(scale, Tensor):
            result = c.method(c.torch("abs", scale), "log")
        else:
            result = c.torch("full_like", x, math.log(abs(scale)))
        if n:
            result = c.method(c.method(result, "view", (*result.shape[:-n], -1)), "sum", -1)
            shape = shape[:-n]
        return c.method(result, "expand", shape)


def _finfo(calls: Calls, value, name):
    return protocols.get_attribute(calls.torch("finfo", base.attr(value, "dtype")), name)


def _clipped_sigmoid(calls: Calls, x):
    """sigmoid(x) kept inside [tiny, 1 - eps] of x's dtype."""
    return calls.torch("clamp", calls.torch("sigmoid", x), min=_finfo(calls, x, "tiny"),
                       max=1.0 - _finfo(calls, x, "eps"))


class SigmoidTransform(_Stateless):
    __slots__ = ()
    NAME, CODOMAIN = "SigmoidTransform", base.UNIT_INTERVAL

    def apply(self, x):
        return _clipped_sigmoid(self.calls, x)

    def invert(self, y):
        c = self.calls
        y = c.method(y, "clamp", min=_finfo(c, y, "tiny"), max=1.0 - _finfo(c, y, "eps"))
        return op("-", c.method(y, "log"), c.method(_neg(y), "log1p"))

    def ladj(self, x, y):
        c = self.calls
        return op("-", _neg(c.functional("softplus", _neg(x))), c.functional("softplus", x))


class TanhTransform(_Stateless):
    __slots__ = ()
    NAME, CODOMAIN = "TanhTransform", base.interval(-1.0, 1.0)

    def apply(self, x):
        return self.calls.method(x, "tanh")

    def invert(self, y):
        return self.calls.torch("atanh", y)

    def ladj(self, x, y):
        softplus = self.calls.functional("softplus", op("*", -2.0, x))
        return op("*", 2.0, op("-", op("-", math.log(2.0), x), softplus))


class SoftmaxTransform(_Stateless):
    __slots__ = ()
    NAME, DOMAIN, CODOMAIN = "SoftmaxTransform", base.REAL_VECTOR, base.SIMPLEX
    BIJECTIVE, SIGN = False, None

    def apply(self, x):
        c = self.calls
        probs = c.method(op("-", x, protocols.get_item(c.method(x, "max", -1, True), 0)), "exp")
        return op("/", probs, c.method(probs, "sum", -1, True))

    def invert(self, y):
        return self.calls.method(y, "log")

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise errors.value_error("Too few dimensions on input")
        return shape

    inverse_shape = forward_shape


class StickBreakingTransform(_Stateless):
    """Unconstrained vectors onto the simplex of one more dimension, by iterated sigmoids."""

    __slots__ = ()
    NAME, DOMAIN, CODOMAIN, SIGN = ("StickBreakingTransform", base.REAL_VECTOR, base.SIMPLEX,
                                    None)

    def _log_offset(self, x, n):
        """log(n + 1 - x.new_ones(x.shape[-1]).cumsum(-1)) over x's last dimension."""
        c = self.calls
        ones = c.method(x, "new_ones", _shape_of(x)[-1])
        return c.method(op("-", n + 1, c.method(ones, "cumsum", -1)), "log")

    def apply(self, x):
        c = self.calls
        z = _clipped_sigmoid(c, op("-", x, self._log_offset(x, _shape_of(x)[-1])))
        z_cumprod = c.method(op("-", 1, z), "cumprod", -1)
        return op("*", c.functional("pad", z, [0, 1], value=1),
                  c.functional("pad", z_cumprod, [1, 0], value=1))

    def invert(self, y):
        c = self.calls
        y_crop = protocols.get_item(y, (Ellipsis, slice(None, -1)))
        offset = self._log_offset(y_crop, _shape_of(y)[-1] - 1)
        sf = c.torch("clamp", op("-", 1, c.method(y_crop, "cumsum", -1)),
                     min=_finfo(c, y, "tiny"))
        return op("+", op("-", c.method(y_crop, "log"), c.method(sf, "log")), offset)

    def ladj(self, x, y):
        c = self.calls
        x = op("-", x, self._log_offset(x, _shape_of(x)[-1]))
        y_crop = protocols.get_item(y, (Ellipsis, slice(None, -1)))
        return c.method(op("+", op("+", _neg(x), c.functional("logsigmoid", x)),
                               c.method(y_crop, "log")), "sum", -1)

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise errors.value_error("Too few dimensions on input")
        return (*shape[:-1], shape[-1] + 1)

    def inverse_shape(self, shape):
        if len(shape) < 1:
            raise errors.value_error("Too few dimensions on input")
        return (*shape[:-1], shape[-1] - 1)


class PowerTransform(_Broadcasting):
    __slots__ = ()
    NAME, DOMAIN, CODOMAIN, PARAMS = "PowerTransform", base.POSITIVE, base.POSITIVE, ("exponent",)

    def __init__(self, runtime, exponent, cache_size=0):
        super().__init__(runtime, cache_size)
        (self.attrs["exponent"],) = base.broadcast_all(self.calls, exponent)

    def sign(self):
        return self.calls.method(self.attrs["exponent"], "sign")

    def equals(self, other) -> bool:
        return isinstance(other, PowerTransform) and self._same_values(
            self.attrs["exponent"], other.attrs["exponent"])

    def apply(self, x):
        return self.calls.method(x, "pow", self.attrs["exponent"])

    def invert(self, y):
        return self.calls.method(y, "pow", op("/", 1, self.attrs["exponent"]))

    def ladj(self, x, y):
        ratio = op("/", op("*", self.attrs["exponent"], y), x)
        return self.calls.method(self.calls.method(ratio, "abs"), "log")


class AbsTransform(_Stateless):
    __slots__ = ()
    NAME, CODOMAIN, BIJECTIVE, SIGN = "AbsTransform", base.POSITIVE, False, None

    def apply(self, x):
        return self.calls.method(x, "abs")

    def invert(self, y):
        return y


class ComposeTransform(Transform):
    """parts applied in order; domain and codomain widened to the event dims they need."""

    __slots__ = ()
    NAME = "ComposeTransform"

    def __init__(self, runtime, parts, cache_size=0):
        super().__init__(runtime, cache_size)
        self.attrs["parts"] = parts

    @property
    def parts(self) -> list:
        return list(self.attrs["parts"])

    def repr(self, printer) -> str:
        return "ComposeTransform(\n    " + ",\n    ".join(
            p.repr(printer) for p in self.parts) + "\n)"

    def equals(self, other) -> bool:
        return isinstance(other, ComposeTransform) and same_parts(self.parts, other.parts)

    def domain(self):
        parts = self.parts
        if not parts:
            return base.REAL
        domain, event_dim = parts[0].domain(), parts[-1].codomain().event_dim
        for part in reversed(parts):
            event_dim += part.domain().event_dim - part.codomain().event_dim
            event_dim = max(event_dim, part.domain().event_dim)
        if event_dim > domain.event_dim:
            domain = base.independent(domain, event_dim - domain.event_dim)
        return domain

    def codomain(self):
        parts = self.parts
        if not parts:
            return base.REAL
        codomain, event_dim = parts[-1].codomain(), parts[0].domain().event_dim
        for part in parts:
            event_dim += part.codomain().event_dim - part.domain().event_dim
            event_dim = max(event_dim, part.codomain().event_dim)
        if event_dim > codomain.event_dim:
            codomain = base.independent(codomain, event_dim - codomain.event_dim)
        return codomain

    @property
    def BIJECTIVE(self):
        return all(p.BIJECTIVE for p in self.parts)

    def sign(self):
        sign = 1
        for part in self.parts:
            sign = op("*", sign, part.sign())
        return sign

    def inv(self):
        if self.inverse is None:
            self.inverse = ComposeTransform(self.calls.runtime,
                                            [p.inv() for p in reversed(self.parts)])
            self.inverse.inverse = self
        return self.inverse

    def apply(self, x):
        for part in self.parts:
            x = part.apply(x)
        return x

    def ladj(self, x, y):
        parts = self.parts
        if not parts:  # (identity_transform has no runtime to call torch.zeros_like through)
            if not isinstance(x, Tensor):
                raise errors.type_error("zeros_like(): argument 'input' (position 1) must be "
                                        f"Tensor, not {type_name(x)}")
            return creation.zeros_like(x)
        xs = [x]
        for part in parts[:-1]:
            xs.append(part.apply(xs[-1]))
        xs.append(y)
        total, event_dim = None, self.domain().event_dim
        for part, a, b in zip(parts, xs[:-1], xs[1:]):
            term = sum_rightmost(self.calls, part.ladj(a, b),
                                  event_dim - part.domain().event_dim)
            total = term if total is None else op("+", total, term)
            event_dim += part.codomain().event_dim - part.domain().event_dim
        return total

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape


def same_parts(a: list, b: list) -> bool:
    """list == list for transforms: the same length and each pair equal."""
    return len(a) == len(b) and all(x.equals(y) for x, y in zip(a, b))


def _shape_result(given, shape):
    """What a shape method returns: the given shape itself where the transform keeps it (a
    tuple or list stays one), else a torch.Size."""
    return given if shape is given else Size(shape)


_METHODS = table(
    entry("log_abs_det_jacobian", lambda t, x, y: t.ladj(x, y), "self, x, y"),
    entry("forward_shape", lambda t, shape: _shape_result(shape, t.forward_shape(shape)),
          "self, shape"),
    entry("inverse_shape", lambda t, shape: _shape_result(shape, t.inverse_shape(shape)),
          "self, shape"),
)
_PROPERTIES = {"inv": lambda t: t.inv(), "sign": lambda t: t.sign(),
               "domain": lambda t: ConstraintValue(t.domain()),
               "codomain": lambda t: ConstraintValue(t.codomain()),
               "bijective": lambda t: t.BIJECTIVE, "event_dim": lambda t: t.event_dim()}


def _kind(host, spec: str) -> PyType:
    host.METHODS, host.PROPERTIES = _METHODS, _PROPERTIES
    host.TYPE = PyType(f"{MODULE}.{host.NAME}", (host,), None if spec is None else BoundMethod(
        None, entry("__init__", lambda runtime, _, *args: host(runtime, *args),
                    f"self, {spec}" if spec else "self", qualname=f"{host.NAME}.__init__",
                    context=True)))
    return host.TYPE


_kind(_Inverse, None)
TRANSFORMS = Namespace(MODULE, {
    "Transform": _kind(Transform, "cache_size=0"),
    "ExpTransform": _kind(ExpTransform, "cache_size=0"),
    "AffineTransform": _kind(AffineTransform, "loc, scale, event_dim=0, cache_size=0"),
    "SigmoidTransform": _kind(SigmoidTransform, "cache_size=0"),
    "TanhTransform": _kind(TanhTransform, "cache_size=0"),
    "SoftmaxTransform": _kind(SoftmaxTransform, "cache_size=0"),
    "PowerTransform": _kind(PowerTransform, "exponent, cache_size=0"),
    "StickBreakingTransform": _kind(StickBreakingTransform, "cache_size=0"),
    "AbsTransform": _kind(AbsTransform, "cache_size=0"),
    "ComposeTransform": _kind(ComposeTransform, "parts, cache_size=0"),
    "identity_transform": ComposeTransform(None, []),
})
