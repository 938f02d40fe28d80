"""The parts of torch's namespace, and the modules `import` finds, that load on first use.

Each loader imports one of gradcli's modules and gives what the tables take from it, under the
name each table binds (a table takes only its own names); each group lists, for one table, the
names a loader fills. tests/language/test_module_groups.py checks every group against its loader.
"""

from __future__ import annotations

# ---- loaders ------------------------------------------------------------------------------------


def _python_modules() -> dict:
    from gradcli.language.namespaces.python_modules import MODULES
    return MODULES


def _pprint() -> dict:
    from gradcli.language.namespaces.python_pprint import PPRINT
    return {"pprint": PPRINT}


def _csv() -> dict:
    from gradcli.language.namespaces.python_csv import CSV
    return {"csv": CSV}


def _sys_modules() -> dict:
    from gradcli.language.namespaces.python_sys import MODULES
    return MODULES


def _argparse() -> dict:
    from gradcli.language.namespaces.python_argparse import ARGPARSE
    return {"argparse": ARGPARSE}


def _logging() -> dict:
    from gradcli.language.namespaces.python_logging import LOGGING
    return {"logging": LOGGING}


def _contextlib() -> dict:
    from gradcli.language.namespaces.python_contextlib import CONTEXTLIB
    return {"contextlib": CONTEXTLIB}


def _abc() -> dict:
    from gradcli.language.namespaces.python_abc import ABC_MODULE
    return {"abc": ABC_MODULE}


def _enum() -> dict:
    from gradcli.language.namespaces.python_enum import ENUM_MODULE
    return {"enum": ENUM_MODULE}


def _json() -> dict:
    from gradcli.language.namespaces.python_json import JSON
    return {"json": JSON}


def _distributed() -> dict:
    from gradcli.language.namespaces.distributed import DISTRIBUTED
    return {"distributed": DISTRIBUTED, "torch.distributed": DISTRIBUTED}


def _ast() -> dict:
    from gradcli.language.namespaces.python_ast import AST
    return {"ast": AST}


def _datetime_modules() -> dict:
    from gradcli.language.namespaces.python_datetime import MODULES
    return MODULES


def _functorch_modules() -> dict:
    from gradcli.language.namespaces.functorch import MODULES
    return MODULES


def _numpy_modules() -> dict:
    from gradcli.language.namespaces.numpy_table import NUMPY_MODULES
    return NUMPY_MODULES


def _pyplot_modules() -> dict:
    from gradcli.language.namespaces.pyplot import MODULES
    return MODULES


def _text_modules() -> dict:
    from gradcli.language.namespaces.python_re import RE
    from gradcli.language.namespaces.python_text import MODULES
    return MODULES | {"re": RE}


def _collections_abc() -> dict:
    from gradcli.language.namespaces.python_collections_abc import COLLECTIONS_ABC
    return {"collections.abc": COLLECTIONS_ABC}


def _pathlib() -> dict:
    from gradcli.language.namespaces.python_pathlib import PATHLIB
    return {"pathlib": PATHLIB}


def _builtins() -> dict:
    """`from builtins import range` (Python 2 compatible code): Python's builtin names."""
    from gradcli.language.runtime.protocols import BUILTINS
    from gradcli.language.runtime.values import Namespace
    return {"builtins": Namespace("builtins", BUILTINS)}


def _types() -> dict:
    from gradcli.language.namespaces.python_types import TYPES
    return {"types": TYPES}


def _statistics() -> dict:
    from gradcli.language.namespaces.python_statistics import STATISTICS
    return {"statistics": STATISTICS}


def _inspect() -> dict:
    from gradcli.language.namespaces.python_inspect import INSPECT
    return {"inspect": INSPECT}


def _heapq_modules() -> dict:
    from gradcli.language.namespaces.python_heapq import MODULES
    return MODULES


def _math() -> dict:
    from gradcli.language.namespaces.python_math import CMATH, MATH
    return {"math": MATH, "cmath": CMATH}


def _serialization() -> dict:
    from gradcli.language.namespaces.serialization import SERIALIZATION
    return SERIALIZATION


def _dtype_info() -> dict:
    from gradcli.language.namespaces.dtype_info import DTYPE_INFO
    return DTYPE_INFO


def _random() -> dict:
    from gradcli.language.namespaces.rng import RANDOM, RANDOM_FUNCTIONS
    return {**RANDOM_FUNCTIONS, "torch.random": RANDOM}


def _backends() -> dict:
    from gradcli.language.namespaces.backends import (ACCELERATOR, BACKENDS, PROCESS_SETTINGS,
                                                      VERSION)
    return {**PROCESS_SETTINGS, "backends": BACKENDS, "accelerator": ACCELERATOR,
            "version": VERSION, "torch.backends": BACKENDS, "torch.accelerator": ACCELERATOR,
            "torch.version": VERSION,
            **{module.name: module for module in BACKENDS.table.values()}}


def _autocast() -> dict:
    from gradcli.language.namespaces.autocast_modes import AMP, AUTOCAST, CPU, CPU_AMP, CUDA_AMP
    from gradcli.language.namespaces.grad_scaler import AMP_GRAD_SCALER
    return {**AUTOCAST, "amp": AMP, "cpu": CPU, "GradScaler": AMP_GRAD_SCALER, "torch.amp": AMP,
            "torch.cpu": CPU, "torch.cpu.amp": CPU_AMP, "torch.cuda.amp": CUDA_AMP}


def _cuda_amp() -> dict:
    from gradcli.language.namespaces.autocast_modes import CUDA_AMP
    return {"amp": CUDA_AMP}


def _func() -> dict:
    from gradcli.language.namespaces.torch_func import FUNC
    return {"func": FUNC, "vmap": FUNC.table["vmap"], "torch.func": FUNC}


def _masked() -> dict:
    from gradcli.language.namespaces.torch_masked import MASKED, MASKED_OPS
    return {"masked": MASKED, "torch.masked": MASKED, "torch.masked._ops": MASKED_OPS}


def _signal() -> dict:
    from gradcli.language.namespaces.signal_windows import SIGNAL, WINDOWS
    return {"signal": SIGNAL, "torch.signal": SIGNAL, "torch.signal.windows": WINDOWS}


def _future() -> dict:
    from gradcli.language.namespaces.future import FUTURE
    return {"__future__": FUTURE, "torch.__future__": FUTURE}


def _autograd() -> dict:
    from gradcli.language.namespaces.custom_functions import FUNCTION_MODULE, FUNCTION_TYPE
    from gradcli.language.namespaces.forward_ad import FORWARD_AD
    from gradcli.language.namespaces.functional_autograd import FUNCTIONAL
    from gradcli.language.namespaces.gradcheck import GRADCHECK, GRADCHECK_MODULE, GRADGRADCHECK
    return {"functional": FUNCTIONAL, "Function": FUNCTION_TYPE, "function": FUNCTION_MODULE,
            "forward_ad": FORWARD_AD, "gradcheck": GRADCHECK, "gradgradcheck": GRADGRADCHECK,
            "torch.autograd.function": FUNCTION_MODULE, "torch.autograd.functional": FUNCTIONAL,
            "torch.autograd.forward_ad": FORWARD_AD, "torch.autograd.gradcheck": GRADCHECK_MODULE}


def _storages() -> dict:
    from gradcli.language.namespaces.storages import STORAGES
    return STORAGES


def _checkpoint() -> dict:
    from gradcli.language.namespaces.checkpoint import CHECKPOINT
    return {"checkpoint": CHECKPOINT, "torch.utils.checkpoint": CHECKPOINT}


def _swap_tensors() -> dict:
    from gradcli.language.namespaces.tensor_swap import SWAP_TENSORS
    return {"swap_tensors": SWAP_TENSORS}


# ---- groups, per table --------------------------------------------------------------------------

_BACKEND_MODULES = tuple(f"torch.backends.{name}" for name in (
    "cpu", "cudnn", "mps", "cuda", "mkldnn", "mkl", "openmp"))

# what `import` binds
MODULE_GROUPS = (
    (("__future__", "collections", "copy", "dataclasses", "functools", "gc", "io", "itertools",
      "operator", "pickle", "time", "timeit", "typing", "warnings"), _python_modules),
    (("pprint",), _pprint),
    (("csv",), _csv),
    (("sys", "os", "os.path"), _sys_modules),
    (("argparse",), _argparse),
    (("json",), _json),
    (("ast",), _ast),
    (("logging",), _logging),
    (("contextlib",), _contextlib),
    (("abc",), _abc),
    (("enum",), _enum),
    (("datetime",), _datetime_modules),
    (("functorch",), _functorch_modules),
    (("numpy", "numpy.linalg", "numpy.random", "numpy.fft"), _numpy_modules),
    (("matplotlib", "matplotlib.pyplot", "matplotlib.ticker", "matplotlib.cm",
      "matplotlib.colors", "matplotlib.style"), _pyplot_modules),
    (("math", "cmath"), _math),
    (("heapq", "bisect"), _heapq_modules),
    (("re", "string", "unicodedata", "textwrap", "keyword"), _text_modules),
    (("statistics",), _statistics),
    (("types",), _types),
    (("builtins",), _builtins),
    (("pathlib",), _pathlib),
    (("collections.abc",), _collections_abc),
    (("inspect",), _inspect),
    (("torch.autograd.function", "torch.autograd.functional", "torch.autograd.forward_ad",
      "torch.autograd.gradcheck"), _autograd),
    (("torch.func",), _func),
    (("torch.masked", "torch.masked._ops"), _masked),
    (("torch.signal", "torch.signal.windows"), _signal),
    (("torch.amp", "torch.cpu", "torch.cpu.amp", "torch.cuda.amp"), _autocast),
    (("torch.backends", "torch.accelerator", "torch.version", *_BACKEND_MODULES), _backends),
    (("torch.random",), _random),
    (("torch.__future__",), _future),
    (("torch.utils.checkpoint",), _checkpoint),
    (("torch.distributed",), _distributed),
)
# torch.X
TORCH_GROUPS = (
    (("save", "load"), _serialization),
    (("finfo", "iinfo"), _dtype_info),
    (("Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "random",
      "seed", "set_rng_state", "thread_safe_generator"), _random),
    (("are_deterministic_algorithms_enabled", "get_float32_matmul_precision",
      "get_num_interop_threads", "get_num_threads", "is_deterministic_algorithms_warn_only_enabled",
      "set_float32_matmul_precision", "set_num_threads", "use_deterministic_algorithms",
      "backends", "accelerator", "version"), _backends),
    (("autocast", "get_autocast_cpu_dtype", "get_autocast_dtype", "is_autocast_cpu_enabled",
      "is_autocast_enabled", "amp", "cpu", "GradScaler"), _autocast),
    (("func", "vmap"), _func),
    (("masked",), _masked),
    (("signal",), _signal),
    (("__future__",), _future),
    (("TypedStorage", "UntypedStorage", "is_storage"), _storages),
    (("distributed",), _distributed),
)
# torch.autograd.X
AUTOGRAD_GROUPS = (
    (("functional", "Function", "function", "forward_ad", "gradcheck", "gradgradcheck"),
     _autograd),
)
CUDA_GROUPS = ((("amp",), _cuda_amp),)  # torch.cuda.X
UTILS_GROUPS = ((("checkpoint",), _checkpoint), (("swap_tensors",), _swap_tensors))  # torch.utils
ALL_GROUPS = MODULE_GROUPS + TORCH_GROUPS + AUTOGRAD_GROUPS + CUDA_GROUPS + UTILS_GROUPS
