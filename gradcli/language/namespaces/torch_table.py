"""The `torch` namespace and its submodules as the language sees them: explicit tables only."""

from __future__ import annotations

import math
from gradcli.engine.records import record

import numpy as np

from gradcli.engine import dtypes, errors, grad_api, layouts, memory_format
from gradcli.engine.conversions import CUDA_LEGACY_NAMES
from gradcli.engine.devices import Device
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from gradcli.engine.state import STATE, grad_mode
from gradcli.language.namespaces.builtins import (LEGACY_TYPES, SIZE_TYPE, TENSOR_TYPE, entry,
                                                  register_type, table, type_of)
from gradcli.language.namespaces.declared_tables import layered
from gradcli.language.namespaces.tensor_table import set_volatile
from gradcli.language.namespaces.autograd_graph import GRAPH
from gradcli.language.namespaces.autograd_modes import ANOMALY, MODES
from gradcli.language.namespaces.math_table import (FFT, LINALG, MATH_MODULES, NN_FUNCTIONAL,
                                                    SPARSE, SPECIAL, TORCH_MATH)
from gradcli.language.namespaces import nn_parallel
from gradcli.language.namespaces.nn_init import NN_INIT
from gradcli.language.namespaces.nn_utils import NN_UTILS
from gradcli.language.namespaces.python_random import RANDOM
from gradcli.language.namespaces.torch_submodules import (AUTOGRAD_GROUPS, CUDA_GROUPS,
                                                         MODULE_GROUPS, TORCH_GROUPS,
                                                         UTILS_GROUPS)
from gradcli.language.runtime import protocols, tensor_subclasses
from gradcli.language.runtime.objects import GroupedTable, LazyTable
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.namespaces.type_names import torch_typename
from gradcli.language.runtime.signatures import NOT_GIVEN
from gradcli.language.namespaces.torch_c import TORCH_C
from gradcli.language.runtime.frames import ContextManager
from gradcli.language.runtime.values import Namespace, Size, iterate, type_name


def _grad_mode_manager(enabled: bool) -> ContextManager:
    holder = {}

    def enter():
        holder["manager"] = grad_mode(enabled)
        holder["manager"].__enter__()

    return ContextManager(enter, lambda: holder["manager"].__exit__(None, None, None),
                          label="torch.autograd.grad_mode." + ("enable_grad" if enabled
                                                                else "no_grad"))


def _grad_mode_decorator(enabled: bool):
    """torch.no_grad() / enable_grad() as a manager, or `@torch.no_grad` bare on a function
    (no_grad's own __init__ takes no argument, so an explicit None is refused)."""
    def make(ctx, orig_func=NOT_GIVEN):
        if orig_func is None and not enabled:
            raise errors.type_error("no_grad.__init__() takes 1 positional argument but 2 were "
                                    "given")
        manager = _grad_mode_manager(enabled)
        if orig_func is None or orig_func is NOT_GIVEN:
            return manager
        return ctx.call(manager, [orig_func], {})
    return make


def _set_grad_enabled(mode) -> ContextManager:
    if type(mode) is not bool:  # torch._C._set_grad_enabled takes a Python bool only
        raise errors.type_error("set_grad_enabled(): argument 'enabled' (position 1) must be "
                                f"bool, not {errors.type_name(mode)}")
    previous = STATE.grad_enabled
    STATE.grad_enabled = bool(mode)
    if not mode:
        STATE.grad_off_at = STATE.origin
    return ContextManager(lambda: None, lambda: _restore_grad_mode(previous),
                          label="torch.autograd.grad_mode.set_grad_enabled",
                          shown=f"torch.autograd.grad_mode.set_grad_enabled(mode={bool(mode)})")


def _restore_grad_mode(previous: bool) -> None:
    STATE.grad_enabled = previous


# torch.no_grad, enable_grad and set_grad_enabled, which torch.autograd and its grad_mode module
# also publish
# (classes in torch, printed as such)
GRAD_MODES = {
    **{name: PyType(f"torch.autograd.grad_mode.{name}", (), entry(
        name, _grad_mode_decorator(enabled), "orig_func=NOT_GIVEN", context=True, style="new",
        qualname="_NoParamDecoratorContextManager.__new__"))
       for name, enabled in (("no_grad", False), ("enable_grad", True))},
    "set_grad_enabled": PyType("torch.autograd.grad_mode.set_grad_enabled", (), entry(
        "set_grad_enabled", lambda mode: _set_grad_enabled(mode), "mode",
        qualname="set_grad_enabled.__init__")),
}
GRAD_MODE_MODULE = Namespace("torch.autograd.grad_mode",
                             GRAD_MODES | {"inference_mode": MODES["inference_mode"]})


def _set_printoptions(ctx, precision, threshold, edgeitems, linewidth, profile, sci_mode):
    """torch.set_printoptions: options live in the session's printer, not in the process."""
    ctx.printer.options = ctx.printer.options.updated(
        precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
        profile=profile, sci_mode=sci_mode)


def _variable(data, requires_grad, volatile):
    """torch.autograd.Variable(t): a new leaf over t's values (t itself is left alone)."""
    if volatile:
        set_volatile(data, volatile)
        if requires_grad:
            raise errors.value_error("Variable can't be volatile and require_grad at the same "
                                     "time!")
    if data is None:
        return Tensor(np.empty((0,), dtype=STATE.default_dtype.np), STATE.default_dtype)
    if not isinstance(data, Tensor):
        raise errors.type_error(
            f"Variable data has to be a tensor, but got {type_name(data)}")
    if requires_grad and not data.dtype.differentiable:
        raise errors.runtime("Only Tensors of floating point and complex dtype can require "
                             "gradients")
    result = F.detach(data)
    result.requires_grad = bool(requires_grad)
    return result


def _grad_handed(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """What torch.autograd.grad hands to handlers: outputs and inputs as tuples (a tensor-like
    alone in one, a dict's values), allow_unused defaulting to materialize_grads."""
    from gradcli.language.runtime.torch_function import overrides  # (loaded with the protocol)

    def as_tuple(value) -> tuple:
        if isinstance(value, Tensor) or overrides(value):
            return (value,)
        return tuple(value.values()) if type(value) is dict else tuple(iterate(value))
    if len(args) < 2:
        return args, kwargs
    unused = kwargs.get("allow_unused")
    return (as_tuple(args[0]), as_tuple(args[1])), {**kwargs, "allow_unused": kwargs.get(
        "materialize_grads") if unused is None else unused}


AUTOGRAD = Namespace("torch.autograd", GroupedTable(table(
    entry("grad", lambda outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs,
          allow_unused, is_grads_batched, materialize_grads: grad_api.grad(
              outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
              materialize_grads, is_grads_batched),
          "outputs, inputs, grad_outputs=None, retain_graph=None, "
          "create_graph=False, only_inputs=True, allow_unused=None, is_grads_batched=False, "
          "materialize_grads=False"),
    entry("backward", lambda tensors, grad_tensors, retain_graph, create_graph, grad_variables,
          inputs: grad_api.backward(tensors, grad_tensors, retain_graph, create_graph, inputs),
          "tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, "
          "inputs=None"),
) | {"Variable": PyType(  # a class whose instances are the tensors (VariableMeta's check)
    "torch.autograd.variable.Variable", (Tensor,),
    entry("Variable", _variable, "data=None, requires_grad=False, volatile=False"),
    metaclass="torch.autograd.variable.VariableMeta"),
    "graph": GRAPH, "grad_mode": GRAD_MODE_MODULE} | GRAD_MODES | ANOMALY,
    AUTOGRAD_GROUPS))
tensor_subclasses.HANDED[AUTOGRAD.table["grad"]] = _grad_handed



def _no_cuda(*args):
    raise errors.TorchError("AssertionError", "Torch not compiled with CUDA enabled")


def _no_binding(binding: str):
    """A torch.cuda function whose C binding a CPU-only build lacks: torch's Python reaches for
    it and fails."""
    def refuse(*args):
        raise errors.TorchError("AttributeError", f"module 'torch._C' has no attribute '{binding}'")
    return refuse


def _renamed(old: str, new: str, then):
    """A deprecated torch.cuda alias: its FutureWarning, then what `new` does."""
    def run(*args):
        STATE.warn("FutureWarning", f"`torch.cuda.{old}` has been renamed to `torch.cuda.{new}`")
        return then(*args)
    return run


def _resets_peak(old: str):
    def run(*args):
        STATE.warn("FutureWarning", f"torch.cuda.{old} now calls torch.cuda.reset_peak_memory_stats, "
                   "which resets /all/ peak memory stats.")
        return _no_binding("_cuda_resetPeakMemoryStats")()
    return run


def _unavailable_type(name: str):
    def refuse(*args, **kwargs):
        raise errors.type_error(f"type {name} not available. Torch not compiled with CUDA enabled.")
    return refuse


# torch.cuda.FloatTensor ...: classes whose construction a CPU-only torch refuses
CUDA_LEGACY_TYPES = {name: PyType(name, (), entry(name.rsplit(".", 1)[1], _unavailable_type(name),
                                                  "*args, **kwargs"), "torch.tensortype")
                     for name in CUDA_LEGACY_NAMES}


# A CPU-only torch: queries of the (never initialised) allocator answer 0, the rest refuse.
CUDA = Namespace("torch.cuda", GroupedTable({t.name.rsplit(".", 1)[1]: t
                                             for t in CUDA_LEGACY_TYPES.values()} | table(
    entry("is_available", lambda: False, ""),
    entry("device_count", lambda: 0, ""),
    entry("is_initialized", lambda: False, ""),
    entry("get_arch_list", lambda: [], ""),
    entry("is_bf16_supported", lambda including_emulation: False, "including_emulation=True"),
    *(entry(name, lambda device: 0, "device=None") for name in (
        "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved")),
    *(entry(name, lambda *args: None, spec) for name, spec in (
        ("empty_cache", ""), ("seed", ""), ("manual_seed", "seed"), ("manual_seed_all", "seed"))),
    *(entry(name, _no_cuda, spec) for name, spec in (
        ("current_device", ""), ("initial_seed", ""), ("init", ""), ("get_device_name", "device=None"),
        ("get_device_properties", "device=None"), ("get_device_capability", "device=None"),
        ("synchronize", "device=None"), ("mem_get_info", "device=None"), ("ipc_collect", ""),
        ("get_rng_state", "device='cuda'"))),
    *(entry(name, _no_binding(binding), spec) for name, binding, spec in (
        ("reset_peak_memory_stats", "_cuda_resetPeakMemoryStats", "device=None"),
        ("reset_accumulated_memory_stats", "_cuda_resetAccumulatedMemoryStats", "device=None"),
        ("memory_snapshot", "_cuda_memorySnapshot", "mempool_id=None, include_traces=True"))),
    *(entry(name, _resets_peak(name), "device=None") for name in (
        "reset_max_memory_allocated", "reset_max_memory_cached")),
    *(entry(old, _renamed(old, new, lambda device: 0), "device=None") for old, new in (
        ("memory_cached", "memory_reserved"), ("max_memory_cached", "max_memory_reserved"))),
), CUDA_GROUPS))


def _nn_classes() -> dict:
    # loaded when a program first needs one
    from gradcli.language.namespaces.nn_table import NN_CLASSES
    return NN_CLASSES


def _parametrize() -> dict:
    # loaded when a program first uses it (here, not in nn_utils: it needs the nn classes)
    from gradcli.language.namespaces.parametrize import PARAMETRIZE
    return PARAMETRIZE.table


def _weight_norms():
    # loaded when a program first uses one (here, not in nn_utils: it needs nn.Module)
    from gradcli.language.namespaces import weight_norms
    return weight_norms


def _spectral_norms():
    # loaded when a program first uses one (it needs nn.Module)
    from gradcli.language.namespaces import spectral_norms
    return spectral_norms


def _utils_more():
    from gradcli.language.namespaces import nn_utils_more
    return nn_utils_more


def _prune() -> dict:
    # loaded when a program first uses it (here, not in nn_utils: it needs nn.Module)
    from gradcli.language.namespaces.prune import PRUNE
    return PRUNE.table


def _fusion(name: str, spec: str):
    """torch.nn.utils.X for torch.nn.utils.fusion.X, loaded on first use."""
    return entry(name, lambda *args: _utils_more().FUSION.table[name].fn(*args), spec)


STATELESS = Namespace("torch.nn.utils.stateless",
                      LazyTable({}, lambda: _utils_more().STATELESS.table))
FUSION = Namespace("torch.nn.utils.fusion", LazyTable({}, lambda: _utils_more().FUSION.table))
PARAMETRIZE = Namespace("torch.nn.utils.parametrize", LazyTable({}, _parametrize))
PRUNE = Namespace("torch.nn.utils.prune", LazyTable({}, _prune))
def _orthogonal():
    # loaded when a program first uses it (it needs nn.Module)
    from gradcli.language.namespaces import orthogonal
    return orthogonal


PARAMETRIZATIONS = Namespace("torch.nn.utils.parametrizations", LazyTable({}, lambda: (
    _weight_norms().PARAMETRIZATIONS | _spectral_norms().PARAMETRIZATIONS
    | _orthogonal().PARAMETRIZATIONS)))
NN_UTILS.table.update({"parametrize": PARAMETRIZE, "parametrizations": PARAMETRIZATIONS,
                       "stateless": STATELESS, "fusion": FUSION, "prune": PRUNE} | table(
    _fusion("fuse_conv_bn_eval", "conv, bn, transpose=False"),
    _fusion("fuse_conv_bn_weights", "conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, "
            "transpose=False"),
    _fusion("fuse_linear_bn_eval", "linear, bn"),
    _fusion("fuse_linear_bn_weights", "linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b"),
    entry("convert_conv2d_weight_memory_format", lambda ctx, module, memory_format: _utils_more()
          .CONVERT_2D(ctx, module, memory_format), "module, memory_format", context=True),
    entry("convert_conv3d_weight_memory_format", lambda ctx, module, memory_format: _utils_more()
          .CONVERT_3D(ctx, module, memory_format), "module, memory_format", context=True),
    entry("skip_init", lambda ctx, module_cls, *args, **kwargs: _utils_more().skip_init(
        ctx, module_cls, *args, **kwargs), "module_cls, *args, **kwargs", context=True),
    entry("weight_norm", lambda ctx, module, name, dim: _weight_norms().old_weight_norm(
        ctx, module, name, dim), "module, name='weight', dim=0", context=True),
    entry("remove_weight_norm", lambda ctx, module, name: _weight_norms().remove_weight_norm(
        ctx, module, name), "module, name='weight'", context=True),
    entry("spectral_norm", lambda ctx, *args: _spectral_norms().spectral_norm(ctx, *args),
          "module, name='weight', n_power_iterations=1, eps=1e-12, dim=None", context=True),
    entry("remove_spectral_norm", lambda ctx, module, name: _spectral_norms()
          .remove_spectral_norm(ctx, module, name), "module, name='weight'", context=True)))
def _no_device_type(module, inputs, device_ids=None, output_device=None, dim=0,
                    module_kwargs=None):
    raise errors.runtime("device type could not be determined")


def _ddp_class():
    from gradcli.language.namespaces.distributed import DDP_KIND
    return DDP_KIND.type


# torch.nn.parallel where no accelerator is found: DataParallel keeps the module to itself
NN_PARALLEL = Namespace("torch.nn.parallel", LazyTable({"data_parallel": entry(
    "data_parallel", _no_device_type, "module, inputs, device_ids=None, output_device=None, "
    "dim=0, module_kwargs=None"), "scatter": entry(
    "scatter", nn_parallel.scatter, "inputs, target_gpus, dim=0")},
    lambda: {"DataParallel": _nn_classes()["DataParallel"],
             "DistributedDataParallel": _ddp_class()}))


def _module_module() -> dict:
    from gradcli.language.namespaces.module_hooks import GLOBAL_REGISTRATION
    return GLOBAL_REGISTRATION | {"Module": _nn_classes()["Module"]}


def _batchnorm_module() -> dict:
    from gradcli.language.namespaces.nn_table import BATCHNORM_MODULE
    return BATCHNORM_MODULE


# torch.nn.modules: the layer classes, and its modules `module` (Module, the global hooks) and
# `batchnorm` (with _BatchNorm)
NN_MODULE_MODULE = Namespace("torch.nn.modules.module", LazyTable({}, _module_module))
NN_BATCHNORM = Namespace("torch.nn.modules.batchnorm", LazyTable({}, _batchnorm_module))
NN_MODULES = Namespace("torch.nn.modules", LazyTable({"module": NN_MODULE_MODULE,
                                                     "batchnorm": NN_BATCHNORM}, _nn_classes))
NN = Namespace("torch.nn", LazyTable({"functional": NN_FUNCTIONAL, "init": NN_INIT,
                                     "grad": NN_FUNCTIONAL.table["grad"],
                                     "utils": NN_UTILS, "parallel": NN_PARALLEL,
                                     "modules": NN_MODULES}, _nn_classes))


def _optimizers() -> dict:
    # loaded when a program first needs one
    from gradcli.language.namespaces.optim import OPTIMIZERS
    from gradcli.language.namespaces.optim_more import MORE_OPTIMIZERS
    return OPTIMIZERS | MORE_OPTIMIZERS


def _schedulers() -> dict:
    from gradcli.language.namespaces.lr_scheduler import LR_SCHEDULER
    from gradcli.language.namespaces.one_cycle import ONE_CYCLE
    from gradcli.language.namespaces.lr_scheduler_more import MORE_SCHEDULERS
    from gradcli.language.namespaces.scheduler_subclasses import SCHEDULER_BASES
    return LR_SCHEDULER.table | {ONE_CYCLE.name: ONE_CYCLE.type} | MORE_SCHEDULERS \
        | SCHEDULER_BASES


def _testing() -> Namespace:
    # loaded when a program first uses torch.testing
    from gradcli.language.namespaces.testing import TESTING
    return TESTING


def _data() -> dict:
    from gradcli.language.namespaces.data import DATA
    from gradcli.language.namespaces.samplers import SAMPLERS
    from gradcli.language.namespaces import data_subclasses
    data_subclasses.register()
    return DATA.table | SAMPLERS


def _distributions() -> Namespace:
    # loaded when a program first uses torch.distributions
    from gradcli.language.namespaces.distributions import DISTRIBUTIONS
    return DISTRIBUTIONS


def _distributions_part(part: str) -> Namespace:
    return Namespace(f"torch.distributions.{part}",
                     LazyTable({}, lambda: _distributions().table[part].table))


def _family_module(module: str, family: str) -> Namespace:
    """torch.distributions.<module>, the file one family is defined in (`from
    torch.distributions import multinomial`), with that family."""
    return Namespace(f"torch.distributions.{module}",
                     LazyTable({}, lambda: {family: _distributions().table[family]}))


_FAMILY_MODULES = {  # torch's module of each family gradcli has
    "bernoulli": "Bernoulli", "beta": "Beta", "binomial": "Binomial",
    "categorical": "Categorical", "cauchy": "Cauchy", "chi2": "Chi2",
    "continuous_bernoulli": "ContinuousBernoulli", "dirichlet": "Dirichlet",
    "distribution": "Distribution", "exponential": "Exponential",
    "fishersnedecor": "FisherSnedecor", "gamma": "Gamma",
    "generalized_pareto": "GeneralizedPareto", "inverse_gamma": "InverseGamma",
    "kumaraswamy": "Kumaraswamy", "lkj_cholesky": "LKJCholesky",
    "geometric": "Geometric", "gumbel": "Gumbel", "half_cauchy": "HalfCauchy",
    "half_normal": "HalfNormal", "independent": "Independent", "laplace": "Laplace",
    "log_normal": "LogNormal",
    "logistic_normal": "LogisticNormal", "lowrank_multivariate_normal": "LowRankMultivariateNormal",
    "mixture_same_family": "MixtureSameFamily", "multinomial": "Multinomial",
    "negative_binomial": "NegativeBinomial",
    "multivariate_normal": "MultivariateNormal", "normal": "Normal",
    "one_hot_categorical": "OneHotCategorical", "pareto": "Pareto", "poisson": "Poisson",
    "relaxed_bernoulli": "RelaxedBernoulli", "relaxed_categorical": "RelaxedOneHotCategorical",
    "studentT": "StudentT", "transformed_distribution": "TransformedDistribution",
    "uniform": "Uniform", "von_mises": "VonMises", "weibull": "Weibull"}
DISTRIBUTION_PARTS = {part: _distributions_part(part)
                      for part in ("kl", "constraints", "transforms", "utils")} | {
    module: _family_module(module, family) for module, family in _FAMILY_MODULES.items()}
DISTRIBUTIONS = Namespace("torch.distributions",
                          LazyTable(DISTRIBUTION_PARTS, lambda: _distributions().table))
# torch.utils.data's submodules that define its names (`from torch.utils.data.dataset import
# random_split`), each with the names of its __all__
_DATA_SUBMODULES = {
    "dataset": ("Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
                "ChainDataset", "Subset", "random_split"),
    "dataloader": ("DataLoader", "get_worker_info", "default_collate", "default_convert"),
    "sampler": ("BatchSampler", "RandomSampler", "Sampler", "SequentialSampler",
                "SubsetRandomSampler", "WeightedRandomSampler")}
_DATA_TYPING = {"sampler": ("Iterable", "Iterator", "Sequence", "Sized")}  # its own imports


def _data_part(part: str, names: tuple) -> dict:
    from gradcli.language.namespaces.python_modules import TYPING
    return {name: DATA.lookup(name) for name in names} | {
        name: TYPING.lookup(name) for name in _DATA_TYPING.get(part, ())}


DATA_PARTS = {part: Namespace(f"torch.utils.data.{part}", LazyTable(
    {}, lambda part=part, names=names: _data_part(part, names)))
    for part, names in _DATA_SUBMODULES.items()}
DATA = Namespace("torch.utils.data", LazyTable(DATA_PARTS, _data))
TESTING = Namespace("torch.testing", LazyTable({}, lambda: _testing().table))
UTILS = Namespace("torch.utils", GroupedTable({"data": DATA}, UTILS_GROUPS))
def _swa_utils() -> dict:
    from gradcli.language.namespaces.swa_utils import SWA_UTILS
    return SWA_UTILS.table


LR_SCHEDULER = Namespace("torch.optim.lr_scheduler", LazyTable({}, _schedulers))
SWA_UTILS = Namespace("torch.optim.swa_utils", LazyTable({}, _swa_utils))
OPTIM = Namespace("torch.optim", LazyTable({"lr_scheduler": LR_SCHEDULER,
                                            "swa_utils": SWA_UTILS}, _optimizers))


def _jit() -> dict:
    # loaded when a program first uses torch.jit
    from gradcli.language.namespaces.jit import JIT
    return JIT


JIT = Namespace("torch.jit", LazyTable({}, _jit))


def _compile(ctx, *args, **kwargs):
    # loaded when a program first compiles something
    from gradcli.language.namespaces.compiled import compile_
    return compile_(ctx, *args, **kwargs)


def _split(ctx, tensor, split_size_or_sections, dim=0):
    """torch.split, Python in torch: `tensor.split(split_size_or_sections, dim)`, whatever
    `tensor` is (a str splits as Python's)."""
    from gradcli.language.runtime import attributes
    return ctx.call(attributes.get(tensor, "split"), [split_size_or_sections, dim], {})


def _broadcast_shapes(ctx, *shapes):
    """torch.broadcast_shapes (torch._refs._broadcast_shapes): the common shape, a Size."""
    shapes = [(x,) if isinstance(x, int) else x for x in shapes if x is not None]
    for shape in shapes:
        if not isinstance(shape, (tuple, list, str)):
            raise errors.runtime("Input shapes should be of type ints, a tuple of ints, or a list "
                                 f"of ints, got {shape if isinstance(shape, Tensor) else ctx.printer.str(shape)}")
    common = [1] * max((len(shape) for shape in shapes), default=0)
    for number, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise errors.value_error("Attempting to broadcast a dimension with negative "
                                             "length!")
                common[idx] = shape[idx]
            if shape[idx] != 1 and common[idx] != shape[idx]:
                raise errors.runtime(
                    f"Attempting to broadcast a dimension of length {ctx.printer.str(shape[idx])} "
                    f"at {idx}! Mismatching argument at index {number} had "
                    f"{ctx.printer.str(shape)}; but expected shape should be broadcastable to "
                    f"{ctx.printer.str(common)}")
    return Size(common)


def _set_warn_always(b) -> None:
    if not isinstance(b, bool):
        raise errors.runtime(f"setWarnOnlyOnce expects a bool, but got {type_name(b)}")
    STATE.warn_always = b


# torch.functional: the Python module that defines these torch functions (torch.functional.einsum
# is torch.einsum)
_FUNCTIONAL_NAMES = (
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
    "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu", "norm",
    "meshgrid", "pca_lowrank", "split", "stft", "svd_lowrank", "tensordot", "unique",
    "unique_consecutive", "unravel_index")


@record(frozen=True)
class _FunctionalModule(Namespace):
    def lookup(self, attr: str):
        return TORCH.lookup(attr) if attr in _FUNCTIONAL_NAMES else super().lookup(attr)


FUNCTIONAL_MODULE = _FunctionalModule("torch.functional", LazyTable({}, lambda: {
    name: TORCH_TABLE[name] for name in _FUNCTIONAL_NAMES if name in TORCH_TABLE}))


# torch.device is a class (isinstance(x, torch.device)), made by the declared constructor
DEVICE_TYPE = PyType("torch.device", (Device,), TORCH_MATH["device"])
register_type(DEVICE_TYPE)

TORCH_TABLE = layered(table(
    entry("set_printoptions", _set_printoptions, "precision=None, threshold=None, edgeitems=None, "
          "linewidth=None, profile=None, sci_mode=None", context=True),
    entry("is_grad_enabled", lambda: STATE.grad_enabled, "", style="noargs",
          qualname="torch.is_grad_enabled"),
    entry("split", _split, "tensor, split_size_or_sections, dim=0", context=True),
    entry("compile", _compile, "model=None, *, fullgraph=False, dynamic=None, backend=None, "
          "mode=None, options=None, name=None, disable=False, recompile_limit=None, "
          "isolate_recompiles=False, shapes_spec=None", context=True),
    entry("broadcast_shapes", _broadcast_shapes, "*shapes", context=True),
    entry("typename", torch_typename, "obj"),
    entry("set_warn_always", _set_warn_always, "b"),
    entry("is_warn_always_enabled", lambda: STATE.warn_always, ""),
), GRAD_MODES, GroupedTable({}, TORCH_GROUPS), TORCH_MATH, {name: dtype for name, dtype in dtypes.BY_NAME.items()}, memory_format.BY_NAME, layouts.BY_NAME, {
    "memory_format": type_of(memory_format.CONTIGUOUS), "dtype": type_of(dtypes.float32),
    "layout": type_of(layouts.STRIDED), "device": DEVICE_TYPE,
    "newaxis": None,
    "__version__": "2.13.0+cpu", "pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "autograd": AUTOGRAD, "nn": NN, "linalg": LINALG, "special": SPECIAL, "fft": FFT, "sparse": SPARSE, "overrides": MATH_MODULES["torch.overrides"], "_C": TORCH_C,
    "Tensor": TENSOR_TYPE, "Size": SIZE_TYPE,
    "cuda": CUDA, "optim": OPTIM, "utils": UTILS, "testing": TESTING,
    "distributions": DISTRIBUTIONS, "functional": FUNCTIONAL_MODULE, "jit": JIT},
    MODES, LEGACY_TYPES)


TORCH = Namespace("torch", TORCH_TABLE)


# Importable module paths and what `import` binds for each.
MODULES = GroupedTable({
    "torch": TORCH,
    "torch.autograd": AUTOGRAD,
    "torch.functional": FUNCTIONAL_MODULE,
    "torch.autograd.grad_mode": GRAD_MODE_MODULE,
    "torch.autograd.graph": GRAPH,
    "torch.jit": JIT,
    "torch.cuda": CUDA,
    "random": RANDOM,
    "torch.optim": OPTIM,
    "torch.optim.lr_scheduler": LR_SCHEDULER,
    "torch.optim.swa_utils": SWA_UTILS,
    "torch.utils": UTILS,
    "torch.utils.data": DATA,
    **{f"torch.utils.data.{part}": module for part, module in DATA_PARTS.items()},
    "torch.testing": TESTING,
    "torch.distributions": DISTRIBUTIONS,
    **{f"torch.distributions.{part}": module for part, module in DISTRIBUTION_PARTS.items()},
    "torch.nn": NN,
    "torch.nn.modules": NN_MODULES,
    "torch.nn.modules.module": NN_MODULE_MODULE,
    "torch.nn.modules.batchnorm": NN_BATCHNORM,
    "torch.nn.parallel": NN_PARALLEL,
    "torch.nn.utils.parametrize": PARAMETRIZE,
    "torch.nn.utils.parametrizations": PARAMETRIZATIONS,
    "torch.nn.utils.stateless": STATELESS,
    "torch.nn.utils.fusion": FUSION,
    "torch.nn.utils.prune": PRUNE,
    **MATH_MODULES,
    "torch._C": TORCH_C,
}, MODULE_GROUPS)
protocols.MODULES = MODULES  # what the runtime's `import` binds
