"""`import numpy as np`: the part of NumPy that autograd tutorials use, through this table only.

Array creation, elementwise math, reductions, np.random's legacy global generator, np.linalg and np.fft
basics run on the machine's NumPy itself, so values and printing are NumPy's. A tensor passed
in becomes its array as torch's `__array__` gives it (refused while it requires grad). Nothing
that reads or writes files, or reaches NumPy's internals (np.load, np.save, np.fromfile,
np.ctypeslib, np.lib), is in the table.
"""

from __future__ import annotations

import functools

import numpy as np

from gradcli.engine import conversions, errors
from gradcli.engine.records import record
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.numpy_printing import PRINT_OPTIONS
from gradcli.language.namespaces.arrays import wrapped
from gradcli.language.namespaces.numpy_info import FINFO, IINFO
from gradcli.language.namespaces.numpy_nditer import nditer
from gradcli.language.namespaces.numpy_warnings import numpy_warnings
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.objects import LazyTable, TableObject
from gradcli.language.runtime import protocols
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import Namespace


_PLAIN_TYPES = (bool, int, float, complex, str, object)  # Python classes NumPy takes as dtypes


def array_of(value):
    """What NumPy sees for a language value: tensors as their arrays, containers recursively."""
    if isinstance(value, Tensor):
        return conversions.to_numpy(value)
    if isinstance(value, PyType) and value.hosts and isinstance(value.hosts[0], type) \
            and (issubclass(value.hosts[0], np.generic) or value.hosts[0] in _PLAIN_TYPES):
        return value.hosts[0]
    if isinstance(value, (list, tuple)):
        return type(value)(array_of(v) for v in value)
    return value


def _numpy(name: str, function):
    """A table entry calling `function` with NumPy's own errors as the language's. A ufunc given
    a tensor answers with a tensor (torch's `__array_wrap__`), and np.array of a tensor warns,
    as NumPy 2 does with torch's `__array__` and `__array_wrap__`."""
    ufunc = isinstance(function, np.ufunc)

    def run(*args, **kwargs):
        given_tensor = any(isinstance(a, Tensor) for a in args)
        if name == "array" and args and isinstance(args[0], Tensor):
            STATE.warn("DeprecationWarning", _ARRAY_COPY_WARNING)
        if name in _COPYING:  # NumPy asks each tensor for a copy-free array, which torch's refuses
            for _ in filter(lambda a: isinstance(a, Tensor), args):
                STATE.warn("DeprecationWarning", _ARRAY_COPY_WARNING)
        args = [array_of(a) for a in args]
        kwargs = {k: array_of(v) for k, v in kwargs.items()}
        try:
            with numpy_warnings():
                result = function(*args, **kwargs)
        except (ValueError, TypeError, IndexError, np.linalg.LinAlgError) as error:
            raise errors.TorchError(type(error).__name__, str(error)) from None
        if ufunc and given_tensor and isinstance(result, (np.ndarray, np.generic)):
            return wrapped(result)
        return result
    return entry(name, run, "*args, **kwargs", qualname=name, frames=0)


_COPYING = frozenset(("dot", "inner"))
_ARRAY_COPY_WARNING = (
    "__array__ implementation doesn't accept a copy keyword, so passing copy=False failed. "
    "__array__ must implement 'dtype' and 'copy' keyword arguments. To learn more, see the "
    "migration guide https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
    "#adapting-to-changes-in-the-copy-keyword")


# NumPy's reductions hand anything but an ndarray to its own method of the same name, with
# these keywords (numpy/_core/fromnumeric.py): name -> (its parameters after `a`, the keywords
# always passed; dtype goes only when given for sum and prod)
_REDUCED_BY_METHOD = {
    **{name: (("axis", "dtype", "out", "keepdims", "initial", "where"), ("axis", "out"))
       for name in ("sum", "prod")},
    "mean": (("axis", "dtype", "out", "keepdims"), ("axis", "dtype", "out")),
    **{name: (("axis", "dtype", "out", "ddof", "keepdims"), ("axis", "dtype", "out", "ddof"))
       for name in ("std", "var")},
    **{name: (("axis", "out", "keepdims", "initial", "where"), ("axis", "out"))
       for name in ("max", "min", "amax", "amin")},
    **{name: (("axis", "out", "keepdims"), ("axis", "out")) for name in ("all", "any")},
}
_NUMPY_DEFAULTS = {"axis": None, "dtype": None, "out": None, "ddof": 0}


def _reduced_by_method(name: str, function):
    """np.sum(tensor, ...) and friends: the tensor's own method called as NumPy calls it (torch's
    argument parser then answers, as it does under NumPy); other values go to NumPy."""
    parameters, passed = _REDUCED_BY_METHOD[name]
    method = {"amax": "max", "amin": "min"}.get(name, name)
    plain = _numpy(name, function).fn

    def run(ctx, *args, **kwargs):
        if not args or not isinstance(args[0], Tensor):
            return plain(*args, **kwargs)
        if len(args) > len(parameters) + 1:
            raise errors.type_error(f"{name}() takes from 1 to {len(parameters) + 1} positional "
                                    f"arguments but {len(args)} were given")
        unknown = next((key for key in kwargs if key not in parameters), None)
        if unknown is not None:
            raise errors.type_error(f"{name}() got an unexpected keyword argument '{unknown}'")
        given = {**dict(zip(parameters, args[1:])), **kwargs}
        keywords = {key: given.get(key, _NUMPY_DEFAULTS[key]) for key in passed}
        if "dtype" not in passed and given.get("dtype") is not None:  # sum, prod: when given
            keywords = {"axis": keywords["axis"], "dtype": given["dtype"], "out": keywords["out"]}
        keywords.update((k, v) for k, v in given.items() if k not in passed and k != "dtype")
        from gradcli.language.runtime import attributes
        return ctx.call(attributes.get(args[0], method), [], keywords)
    return entry(name, run, "*args, **kwargs", context=True, qualname=name, frames=0)


def _axis_out(a, axis=None, out=None, **options):
    return (), {"axis": axis, "out": out, **options}


def _axis_dtype_out(a, axis=None, dtype=None, out=None):
    return (), {"axis": axis, "dtype": dtype, "out": out}


def _reshape(a, shape=None, order="C", **options):
    return (shape,), {"order": order, **options}


def _clip(a, a_min=None, a_max=None, out=None, **options):
    return (a_min, a_max), {"out": out, **options}


def _round(a, decimals=0, out=None):
    return (), {"decimals": decimals, "out": out}


# NumPy functions that try the argument's own method (numpy's _wrapfunc), with NumPy's own
# parameters and the call each makes: name -> (spec, the method's arguments)
_METHOD_FIRST = {
    "argmax": ("a, axis=None, out=None, **options", _axis_out),
    "argmin": ("a, axis=None, out=None, **options", _axis_out),
    "cumsum": ("a, axis=None, dtype=None, out=None", _axis_dtype_out),
    "cumprod": ("a, axis=None, dtype=None, out=None", _axis_dtype_out),
    "reshape": ("a, shape=None, order='C', **options", _reshape),
    "transpose": ("a, axes=None", lambda a, axes=None: ((axes,), {})),
    "clip": ("a, a_min=None, a_max=None, out=None, **options", _clip),
    "round": ("a, decimals=0, out=None", _round),
    "around": ("a, decimals=0, out=None", _round),
    "repeat": ("a, repeats, axis=None", lambda a, repeats, axis=None: ((repeats,),
                                                                         {"axis": axis})),
}


def _method_first(name: str, function):
    """np.argmax(tensor) and friends: the tensor's own method called as NumPy calls it; when
    torch refuses that call with a TypeError, NumPy runs on the array and torch's
    `__array_wrap__` makes the result a tensor. Other values go to NumPy as they are."""
    spec, method_call = _METHOD_FIRST[name]
    method = "round" if name == "around" else name
    plain = _numpy(name, function).fn

    def run(ctx, *bound, **options):
        if not isinstance(bound[0], Tensor):
            return plain(*bound, **options)
        args, kwargs = method_call(*bound, **options)
        from gradcli.language.runtime import attributes
        try:
            return ctx.call(attributes.get(bound[0], method), list(args), kwargs)
        except (errors.TorchError, GradRuntimeError) as error:
            if error.kind != "TypeError":
                raise
        result = plain(conversions.to_numpy(bound[0]), *bound[1:], **options)
        return wrapped(result, warned=False)  # fromnumeric's _wrapit wraps it
    return entry(name, run, spec, context=True, qualname=name, frames=0)


def _apply_along_axis(ctx, func1d, axis, arr, *args, **kwargs):
    """np.apply_along_axis: NumPy calls the program's function on each 1-D slice of `arr`."""
    def call(piece, *rest, **options):
        return array_of(ctx.call(func1d, [piece, *rest], options))
    run = _numpy("apply_along_axis", np.apply_along_axis).fn
    return run(call, axis, arr, *args, **kwargs)


APPLY_ALONG_AXIS = entry("apply_along_axis", _apply_along_axis,
                         "func1d, axis, arr, *args, **kwargs", context=True,
                         qualname="apply_along_axis", frames=0)


def _functions(names: str, module) -> dict:
    """Entries for NumPy's own functions `names` (fixed names from this file's lists, never the
    program's)."""
    return {name: _numpy_entry(name, module) for name in names.split()}


def _numpy_entry(name: str, module):
    if module is np and name in _REDUCED_BY_METHOD:
        return _reduced_by_method(name, np.__dict__[name])
    if module is np and name in _METHOD_FIRST:
        return _method_first(name, np.__dict__[name])
    return _numpy(name, vars(module)[name])


_CREATION = ("array asarray copy zeros ones empty full arange linspace logspace eye identity "
             "zeros_like ones_like full_like empty_like diag meshgrid")
_ELEMENTWISE = ("sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh exp exp2 expm1 log log2 "
                "log10 log1p sqrt square abs absolute sign floor ceil round around trunc clip "
                "maximum minimum power add subtract multiply divide negative reciprocal "
                "isnan isinf isfinite where heaviside logical_and logical_or logical_not "
                "logical_xor equal not_equal greater greater_equal less less_equal floor_divide "
                "remainder mod fmod hypot rint arcsinh arccosh arctanh nan_to_num")
_REDUCTIONS = ("sum mean std var max min argmax argmin prod cumsum cumprod median amax amin "
               "all any count_nonzero average bincount percentile quantile histogram diff "
               "nanmax nanmin nanmean nansum ptp corrcoef cov")
_SHAPES = ("reshape transpose concatenate stack vstack hstack squeeze expand_dims ravel "
           "flip tile repeat split unique sort argsort take take_along_axis nonzero argwhere "
           "flatnonzero append roll column_stack tril triu swapaxes moveaxis broadcast_to "
           "atleast_1d diagonal searchsorted isin interp unravel_index ravel_multi_index")
_LINEAR = "dot matmul outer inner allclose isclose array_equal trace tensordot cross"
_MEMORY = "shares_memory may_share_memory"  # whether arrays (a tensor's .numpy()) overlap
_RANDOM = ("seed rand randn randint random random_sample normal uniform choice shuffle "
           "permutation standard_normal exponential binomial poisson beta gamma "
           "multivariate_normal lognormal laplace logistic geometric multinomial dirichlet "
           "triangular chisquare standard_exponential")
_LINALG = "norm inv det solve eig eigh svd pinv matrix_rank"
_FFT = ("fft ifft rfft irfft fft2 ifft2 rfft2 irfft2 fftn ifftn rfftn irfftn hfft ihfft fftfreq "
        "rfftfreq fftshift ifftshift")
_DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_",
           "bool", "int_", "double", "single", "half", "uint16", "uint32", "uint64", "complex64",
           "complex128", "intp", "uintp", "intc", "longlong")


@functools.cache
def _scalar_class(host: type) -> PyType:
    """NumPy's scalar type `host`, one class for all its names (np.bool is np.bool_), which
    type() of its scalars gives."""
    cls = PyType(f"numpy.{host.__name__}", (host,), _numpy(host.__name__, host))
    protocols.register_type(cls)
    return cls


def _dtype_class(name: str) -> PyType:
    return _scalar_class(vars(np)[name])


class IndexTrick(TableObject):
    """np.r_ and np.c_: NumPy's concatenating objects, reached only by subscription."""

    __slots__ = ("concatenate", "type")
    is_sequence = True

    def __init__(self, name: str):
        host = vars(np)[name]
        self.concatenate = _numpy(name, host.__getitem__).fn
        self.type = PyType(f"{type(host).__module__}.{type(host).__name__}", (type(host),))

    @property
    def language_type(self):
        return self.type

    def item(self, key):
        return self.concatenate(key)

    def length(self) -> int:
        return 0  # as NumPy's __len__

    def members(self):
        return iter(())

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<{self.type.name} object at 0x{id(self):x}>"


NUMPY_RANDOM = Namespace("numpy.random", LazyTable({}, lambda: _functions(_RANDOM, np.random) | {
    "default_rng": _numpy("default_rng", np.random.default_rng),
    "Generator": PyType("numpy.random._generator.Generator", (np.random.Generator,)),
    "RandomState": PyType("numpy.random.mtrand.RandomState", (np.random.RandomState,),
                          _numpy("RandomState", np.random.RandomState))}))  # on first use
LINALG_ERROR = PyType("numpy.linalg.LinAlgError", (np.linalg.LinAlgError,))
register_exception(LINALG_ERROR)
# an axis out of range: a ValueError and an IndexError, named numpy.exceptions.AxisError
register_exception(PyType("numpy.exceptions.AxisError", (np.exceptions.AxisError,)))
NUMPY_LINALG = Namespace("numpy.linalg", _functions(_LINALG, np.linalg) | {
    "LinAlgError": LINALG_ERROR})
NUMPY_FFT = Namespace("numpy.fft", LazyTable({}, lambda: _functions(_FFT, np.fft)))
@record(frozen=True)
class NumpyNamespace(Namespace):
    """numpy: a name NumPy 2 removed (np.float, np.Inf) fails with NumPy's own message."""

    def lookup(self, attr: str):
        if attr not in self.table:
            former = getattr(np, "__former_attrs__", {})  # NumPy's own tables of such names
            expired = getattr(np, "__expired_attributes__", {})
            if attr in former:
                raise errors.TorchError("AttributeError", former[attr])
            if attr in expired:
                raise errors.TorchError("AttributeError", f"`np.{attr}` was removed in the "
                                        f"NumPy 2.0 release. {expired[attr]}")
        return super().lookup(attr)


NUMPY = NumpyNamespace("numpy", (
    PRINT_OPTIONS | _functions(_CREATION, np) | _functions(_ELEMENTWISE, np) | _functions(_REDUCTIONS, np)
    | _functions(_SHAPES, np) | _functions(_LINEAR, np) | _functions(_MEMORY, np)
    | {name: _dtype_class(name) for name in _DTYPES}
    | {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan, "newaxis": None,
       "True_": np.True_, "False_": np.False_, "euler_gamma": np.euler_gamma,
       "ndarray": PyType("numpy.ndarray", (np.ndarray,)), "random": NUMPY_RANDOM,
       "linalg": NUMPY_LINALG, "fft": NUMPY_FFT, "__version__": np.__version__,
       "r_": IndexTrick("r_"), "c_": IndexTrick("c_"), "finfo": FINFO, "iinfo": IINFO,
       "apply_along_axis": APPLY_ALONG_AXIS, "nditer": nditer(array_of)}))
NUMPY_MODULES = {"numpy": NUMPY, "numpy.random": NUMPY_RANDOM, "numpy.linalg": NUMPY_LINALG,
                 "numpy.fft": NUMPY_FFT}
