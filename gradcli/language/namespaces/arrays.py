"""NumPy arrays as the language has them: what `tensor.numpy()` returns, printed, indexed and
computed with as NumPy does, through these tables only (there is no `import numpy`)."""

from __future__ import annotations

import sys

import numpy as np

from gradcli.engine import creation, errors
from gradcli.engine.state import STATE
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.objects import LazyTable
from gradcli.language.runtime.signatures import entry, table

ARRAY_TYPES = (np.ndarray, np.generic)
_ARRAY_WRAP_WARNING = ("__array_wrap__ must accept context and return_scalar arguments "
                       "(positionally) in the future. (Deprecated NumPy 2.0)")


def wrapped(result, warned: bool = True):
    """torch's Tensor.__array_wrap__ on a NumPy result computed from a tensor: the array as a
    tensor sharing it (bool arrays as uint8), with the warning NumPy 2 gives about it. Where
    NumPy's own Python code wraps the result (np.argmax's fallback), the warning is its
    module's, and Python's default filters show a DeprecationWarning only from __main__: not
    `warned`."""
    if warned:
        STATE.warn("DeprecationWarning", _ARRAY_WRAP_WARNING)
    array = np.asarray(result)
    return creation.from_numpy(array.astype(np.uint8) if array.dtype == np.bool_ else array)


ARRAY_ATTRS = {
    "shape": lambda a: a.shape,
    "dtype": lambda a: a.dtype,
    "ndim": lambda a: a.ndim,
    "size": lambda a: a.size,
    "T": lambda a: a.T,
    "itemsize": lambda a: a.itemsize,
    "nbytes": lambda a: a.nbytes,
    "strides": lambda a: a.strides,
}


def _astype(a, dtype):
    """a.astype(np.float32), a.astype(float), a.astype("int64"): the class's host type, a
    dtype or a dtype's name; nothing else reaches NumPy."""
    if isinstance(dtype, PyType) and dtype.hosts and isinstance(dtype.hosts[0], type) and \
            issubclass(dtype.hosts[0], (np.generic, bool, int, float, complex)):
        dtype = dtype.hosts[0]
    elif not isinstance(dtype, (str, np.dtype)):
        raise errors.type_error("Cannot interpret the given value as a data type")
    try:
        return a.astype(dtype)
    except TypeError as error:
        raise errors.type_error(str(error)) from None


def _axis_reduction(name: str, reduce):
    return entry(name, lambda a, axis, keepdims: reduce(a, axis=axis, keepdims=keepdims),
                 "self, axis=None, keepdims=False", style="expected")


def _plain(value):
    """A Python class given as a dtype (`a.astype(float)`) as NumPy takes it."""
    from gradcli.language.runtime.pytypes import PyType
    if isinstance(value, PyType) and len(value.hosts) == 1 and isinstance(value.hosts[0], type) \
            and (value.hosts[0] in (bool, int, float, complex, str)
                 or issubclass(value.hosts[0], np.generic)):
        return value.hosts[0]
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return value


def _host_methods(cls: type, names: str) -> dict:
    """NumPy's own methods of `cls`, from this fixed list (none reads or writes files or
    reaches memory)."""
    def method(name: str):
        host = cls.__dict__[name]

        def run(receiver, *args, **kwargs):
            return host(receiver, *(_plain(a) for a in args),
                        **{k: _plain(v) for k, v in kwargs.items()})
        return entry(name, run, "self, *args, **kwargs", qualname=name)
    return table(*(method(n) for n in names.split()))


ARRAY_METHODS = _host_methods(np.ndarray, """astype ravel clip std var cumsum cumprod argsort sort
    fill squeeze any all nonzero dot repeat swapaxes trace diagonal conj""") | table(
    entry("tolist", lambda a: a.tolist(), "self", style="expected"),
    entry("item", lambda a, *args: a.item(*args), "self, *args", style="expected"),
    entry("copy", lambda a: a.copy(), "self", style="expected"),
    entry("astype", _astype, "self, dtype", style="expected"),
    entry("flatten", lambda a: a.flatten(), "self", style="expected"),
    entry("ravel", lambda a: a.ravel(), "self", style="expected"),
    entry("reshape", lambda a, *shape: a.reshape(*shape), "self, *shape", style="expected"),
    entry("transpose", lambda a, *axes: a.transpose(*axes), "self, *axes", style="expected"),
    entry("round", lambda a, decimals: a.round(decimals), "self, decimals=0", style="expected"),
    _axis_reduction("sum", np.sum),
    _axis_reduction("mean", np.mean),
    _axis_reduction("max", np.max),
    _axis_reduction("min", np.min),
    _axis_reduction("prod", np.prod),
    entry("argmax", lambda a, axis: a.argmax(axis), "self, axis=None", style="expected"),
    entry("argmin", lambda a, axis: a.argmin(axis), "self, axis=None", style="expected"),
)

# np.random.default_rng()'s Generator and np.random.RandomState. numpy.random (a sixth of NumPy's
# import time) loads only when a program uses it: the methods tables are built then, and no
# value can be one of these before.
_SAMPLERS = """normal standard_normal uniform choice permutation shuffle exponential binomial
    poisson beta gamma multivariate_normal lognormal laplace logistic geometric multinomial
    dirichlet triangular chisquare standard_exponential"""


def _rng_methods() -> dict:
    return _host_methods(np.random.Generator, f"random integers permuted {_SAMPLERS}")


def _random_state_methods() -> dict:
    return _host_methods(np.random.RandomState, f"""seed rand randn randint random random_sample
        {_SAMPLERS}""")


RNG_METHODS = LazyTable({}, _rng_methods)
RANDOM_STATE_METHODS = LazyTable({}, _random_state_methods)


class _NumpyRandomKind(type):
    def __instancecheck__(cls, value) -> bool:
        loaded = sys.modules.get("numpy.random")
        return loaded is not None and isinstance(value, vars(loaded)[cls.HOST])


class RNG_KIND(metaclass=_NumpyRandomKind):
    """isinstance(value, RNG_KIND): value is a numpy.random.Generator, without importing
    numpy.random."""

    HOST = "Generator"


class RANDOM_STATE_KIND(metaclass=_NumpyRandomKind):
    """isinstance(value, RANDOM_STATE_KIND): value is a numpy.random.RandomState."""

    HOST = "RandomState"


NUMPY_VALUES = (*ARRAY_TYPES, np.dtype, RNG_KIND, RANDOM_STATE_KIND)  # printed by NumPy itself
