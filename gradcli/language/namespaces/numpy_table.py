"""`import numpy as np`: the part of NumPy that autograd tutorials use, through this table only.

Array creation, elementwise math, reductions, np.random's legacy global generator and np.linalg
basics run on the machine's NumPy itself, so values and printing are NumPy's. A tensor passed
in becomes its array as torch's `__array__` gives it (refused while it requires grad). Nothing
that reads or writes files, or reaches NumPy's internals (np.load, np.save, np.fromfile,
np.ctypeslib, np.lib), is in the table.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import conversions, errors
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.objects import LazyTable
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
    """A table entry calling `function` with NumPy's own errors as the language's."""
    def run(*args, **kwargs):
        args = [array_of(a) for a in args]
        kwargs = {k: array_of(v) for k, v in kwargs.items()}
        try:
            return function(*args, **kwargs)
        except (ValueError, TypeError, IndexError, np.linalg.LinAlgError) as error:
            raise errors.TorchError(type(error).__name__, str(error)) from None
    return entry(name, run, "*args, **kwargs", qualname=name, frames=0)


def _functions(names: str, module) -> dict:
    """Entries for NumPy's own functions `names` (fixed names from this file's lists, never the
    program's)."""
    return {name: _numpy(name, vars(module)[name]) for name in names.split()}


_CREATION = ("array asarray zeros ones empty full arange linspace logspace eye identity "
             "zeros_like ones_like full_like empty_like diag meshgrid")
_ELEMENTWISE = ("sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh exp exp2 expm1 log log2 "
                "log10 log1p sqrt square abs absolute sign floor ceil round around trunc clip "
                "maximum minimum power add subtract multiply divide negative reciprocal "
                "isnan isinf isfinite where heaviside")
_REDUCTIONS = ("sum mean std var max min argmax argmin prod cumsum cumprod median amax amin "
               "all any count_nonzero average")
_SHAPES = ("reshape transpose concatenate stack vstack hstack squeeze expand_dims ravel "
           "flip tile repeat split unique sort argsort")
_LINEAR = "dot matmul outer inner allclose isclose array_equal trace"
_RANDOM = ("seed rand randn randint random normal uniform choice shuffle permutation "
           "standard_normal")
_LINALG = "norm inv det solve eig eigh svd pinv matrix_rank"
_DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_")


def _dtype_class(name: str) -> PyType:
    host = vars(np)[name]
    return PyType(f"numpy.{name}", (host,), _numpy(name, host))


NUMPY_RANDOM = Namespace("numpy.random", LazyTable({}, lambda: _functions(_RANDOM, np.random) | {
    "default_rng": _numpy("default_rng", np.random.default_rng)}))  # imported on first use
LINALG_ERROR = PyType("numpy.linalg.LinAlgError", (np.linalg.LinAlgError,))
register_exception(LINALG_ERROR)
NUMPY_LINALG = Namespace("numpy.linalg", _functions(_LINALG, np.linalg) | {
    "LinAlgError": LINALG_ERROR})
NUMPY = Namespace("numpy", (
    _functions(_CREATION, np) | _functions(_ELEMENTWISE, np) | _functions(_REDUCTIONS, np)
    | _functions(_SHAPES, np) | _functions(_LINEAR, np)
    | {name: _dtype_class(name) for name in _DTYPES}
    | {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan, "newaxis": None,
       "ndarray": PyType("numpy.ndarray", (np.ndarray,)), "random": NUMPY_RANDOM,
       "linalg": NUMPY_LINALG, "__version__": np.__version__}))
NUMPY_MODULES = {"numpy": NUMPY, "numpy.random": NUMPY_RANDOM, "numpy.linalg": NUMPY_LINALG}
