"""torch.nn.Module values: attributes, parameters, children, printing and the common methods."""

from __future__ import annotations

from collections import OrderedDict
from gradcli.engine.records import record
from typing import Callable

from gradcli.engine import (conversions, devices, dtypes, errors, grad_api, optimizers,
                            parameters)
from gradcli.engine import memory_format as memory_formats
from gradcli.engine.dtypes import DType, bfloat16, float16, float32, float64
from gradcli.engine.ops.losses import reduction_of
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from gradcli.engine.state import STATE
from gradcli.language.namespaces import buffers, future, module_hooks, python_dir
from gradcli.language.namespaces.builtins import class_text
from gradcli.language.namespaces.type_names import torch_typename
from gradcli.language.runtime import classes, protocols, subclass_protocol
from gradcli.language.runtime.coercions import index
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry, parse_signature, table
from gradcli.language.runtime.values import Generator, abc_iterable, iterate, type_name
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.uninitialized import KINDS as UNINITIALIZED, kind_of

LEGACY_OPTIONS = ("size_average", "reduce")  # turned into `reduction` when constructed


def check_leaf_parameter(name: str, param: Tensor) -> None:
    """register_parameter's check that a parameter is a leaf; torch reads param.grad_fn, which
    a tensor subclass's handler sees."""
    if subclass_protocol.getter("grad_fn", param, lambda: param.grad_fn) is not None:
        raise errors.value_error(
            f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
            f"created explicitly. To express '{name}' as a function of another Tensor, compute "
            "the value in the forward() method.")


@record(eq=False)
class ModuleKind:
    """One nn.Module class: constructor options, forward, and the extra_repr torch prints.

    `build(module, *options)` fills a new module from its bound constructor arguments (by
    default they are kept as attributes); `forward` gets the runtime, the module and its inputs.
    `host` is the Python class of its values (one per kind, so that isinstance and issubclass
    see torch's class tree).
    """

    name: str
    package: str
    options: str
    forward: Callable
    inputs: str = "input"
    extra_repr: Callable = lambda module, printer: ""
    build: Callable | None = None
    sequence: bool = False
    host: type | None = None
    grouped: bool = False  # repr shows runs of equal children once: `(0-2): 3 x Linear(...)`
    path: str = ""  # the Python module defining the class, when not torch.nn.modules.<package>

    def __post_init__(self) -> None:
        if self.host is None:
            self.host = type(self.name, (Module,), {"__slots__": ()})
        self.forward = _reading_members(self.forward)
        self.extra_repr = _reading_members(self.extra_repr, 0)
        self.option_names = [p.name for p in parse_signature(self.options)]
        self.path = self.path or f"torch.nn.modules.{self.package}"
        self.type = PyType(f"{self.path}.{self.name}", (self.host,),
                           BoundMethod(self, entry("__init__", construct, "self, " + self.options,
                                                   qualname=f"{_init_owner(self.name)}.__init__")))
        self.forward_entry = entry("forward", self.forward, ", ".join(("self", self.inputs)[
                                   :2 if self.inputs else 1]), context=True,
                                   qualname=f"{self.name}.forward")


# The base class whose __init__ a module class runs as its own (its argument errors name it):
# torch's RNN, LSTM and GRU pass their arguments on to RNNBase's.
_INIT_OWNERS = {name: owner for owner, names in {
    "_AdaptiveAvgPoolNd": "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d",
    "_AdaptiveMaxPoolNd": "AdaptiveMaxPool1d AdaptiveMaxPool2d AdaptiveMaxPool3d",
    "_BatchNorm": "BatchNorm1d BatchNorm2d BatchNorm3d",
    "_DropoutNd": "AlphaDropout Dropout Dropout1d Dropout2d Dropout3d FeatureAlphaDropout",
    "_InstanceNorm": "InstanceNorm1d InstanceNorm2d InstanceNorm3d",
    "_LPPoolNd": "LPPool1d LPPool2d LPPool3d",
    "_LazyNormBase": "LazyBatchNorm1d LazyBatchNorm2d LazyBatchNorm3d LazyInstanceNorm1d "
                     "LazyInstanceNorm2d LazyInstanceNorm3d",
    "_Loss": "L1Loss MSELoss MultiLabelMarginLoss SoftMarginLoss",
    "_MaxPoolNd": "MaxPool1d MaxPool2d MaxPool3d",
    "_WeightedLoss": "BCELoss MultiLabelSoftMarginLoss",
    "RNNBase": "RNN LSTM GRU"}.items() for name in names.split()}


def _init_owner(name: str) -> str:
    return _INIT_OWNERS.get(name, name)


def _reading_members(function: Callable, position: int = 1) -> Callable:
    """A module class's forward or extra_repr (the module at `position`) where reading a
    member the program deleted (`del linear.bias`) is the AttributeError torch's code meets."""
    def run(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except KeyError as missing:
            raise args[position].missing(missing.args[0]) from None
    return run


def construct(kind: ModuleKind, *values, **keywords):
    return fill(kind.host(kind), *values, **keywords)


def fill(module: "Module", *values, **keywords):
    """What the module class's __init__ does with its bound arguments."""
    kind = module.kind
    values = tuple(dtypes.dtype_argument(v) if name == "dtype" else v  # dtype=float: float64
                   for name, v in zip(kind.option_names, values)) + values[len(kind.option_names):]
    module.options = (values, keywords)
    if kind.build is not None:
        kind.build(module, *values, **keywords)
    else:
        module.store_options(dict(zip(kind.option_names, values)))
    if "device" in kind.option_names and any(
            t is not None for t in (*module.params.values(), *module.buffers.values())):
        devices.place_new(values[kind.option_names.index("device")]
                          if kind.option_names.index("device") < len(values) else None)
    return module


@record(eq=False)
class Parametrized:
    """The class torch.nn.utils.parametrize swaps in for a parametrized module's
    (`Parametrized<Name>`, derived from `base`), with a property per parametrized tensor:
    name -> (getter(module), setter(module, value))."""

    type: PyType
    base: object
    properties: dict


class Members(dict):
    """A module's parameters or buffers by name, where a parametrized name reads as its
    property's value and a removed one as the plain tensor attribute set in its place (the old
    weight_norm's `weight`): torch's forwards read `self.weight`, which finds either."""

    __slots__ = ("owner",)

    def __init__(self, owner: "Module", entries: dict):
        super().__init__(entries)
        self.owner = owner

    def __missing__(self, name):
        found = self.owner.property_of(name)
        if found is not None:
            return found[0](self.owner)
        if isinstance(self.owner.attrs.get(name), Tensor):
            return self.owner.attrs[name]
        raise KeyError(name)

    def get(self, name, default=None):
        if name in self or self.owner.property_of(name) or isinstance(
                self.owner.attrs.get(name), Tensor):
            return self[name]
        return default


class Module(TableObject):
    """An nn.Module: instance attributes, parameters and child modules, in insertion order."""

    __slots__ = ("kind", "attrs", "params", "buffers", "children", "hooks", "parametrized",
                 "non_persistent", "options")
    METHODS: dict = {}  # a container class's own methods
    own_dunders = frozenset(("__repr__", "__str__"))  # `module.__repr__()`

    def __init__(self, kind: ModuleKind):
        self.kind, self.hooks = kind, None  # hooks: module_hooks' table, made on first use
        self.attrs: dict = {"training": True}
        self.params: dict[str, Tensor | None] = {}
        self.buffers: dict[str, Tensor | None] = {}
        self.children: dict[str, Module | None] = {}
        self.parametrized: Parametrized | None = None
        self.non_persistent: frozenset = frozenset()  # buffers left out of the state_dict
        self.options: tuple | None = None  # the constructor's arguments (module_reset)

    @property
    def language_type(self) -> PyType:
        return self.kind.type if self.parametrized is None else self.parametrized.type

    def property_of(self, name: str):
        """The (getter, setter) of a parametrized tensor `name`, else None."""
        return None if self.parametrized is None else self.parametrized.properties.get(name)

    @property
    def is_sequence(self) -> bool:
        return self.kind.sequence

    # nn.Sequential's and nn.ModuleList's
    item_methods = frozenset(("__getitem__", "__len__", "__iter__", "__setitem__", "__delitem__"))

    def store_options(self, options: dict) -> None:
        """Keep the constructor's options as attributes (legacy loss flags become `reduction`)."""
        legacy = [options.pop(name, None) for name in LEGACY_OPTIONS]
        if any(flag is not None for flag in legacy):
            options["reduction"] = reduction_of(options["reduction"], *legacy)
        self.attrs.update(options)

    def forward(self):
        """What calling the module runs: its forward, inside the hooks when it has some."""
        return BoundMethod(self, module_hooks.CALL) if module_hooks.has_hooks(self) \
            else self.forward_method()

    def forward_method(self):
        """`module.forward`: an instance attribute of that name, else the class's."""
        if "forward" in self.attrs:
            return self.attrs["forward"]
        return BoundMethod(self, self.kind.forward_entry)

    def attribute(self, name: str):
        found = self.property_of(name)
        if found is not None:
            return found[0](self)
        for found in (self.attrs, self.params, self.buffers, self.children):
            if name in found:
                return found[name]
        return self.class_attribute(name)

    def instance_dict(self) -> dict:
        """vars(module): what torch's Module.__init__ sets (its tables, hooks by id), then the
        instance's own attributes. (A new dict: entries set in it do not reach the module.)"""
        tables = {name: read(self) for name, read in _TABLES.items() if name != "__dict__"}
        made = {"training": self.attrs.get("training", True), "_parameters": self.params,
                "_buffers": self.buffers, "_non_persistent_buffers_set": set(self.non_persistent)}
        for name in _HOOK_TABLES:
            made[name] = tables[name] if name in tables else (
                None if name == "_is_full_backward_hook" else OrderedDict())
        made["_modules"] = self.children
        made.update((k, v) for k, v in self.attrs.items() if k != "training")
        return made

    def dir_names(self) -> list:
        return python_dir.module_dir(self.kind.name, self.user_class(), list(self.attrs),
                                     [*self.params, *self.children, *self.buffers])

    def registered(self, name: str):
        """nn.Module.__getattr__: a parameter, buffer or child module of that name."""
        for found in (self.params, self.buffers, self.children):
            if name in found:
                return found[name]
        raise self.missing(name)

    def class_attribute(self, name: str):
        """What the torch class defines under `name` (its methods and read-only tables)."""
        if name == "forward":
            return self.forward_method()
        if name in _TABLES:
            return _TABLES[name](self)
        method = MODULE_METHODS.get(name) or self.METHODS.get(name) \
            or KIND_METHODS.get(self.kind.name, {}).get(name)
        if method is None and self.kind.sequence:
            method = SEQUENTIAL_METHODS.get(name)
        if method is None:
            raise self.missing(name)
        return BoundMethod(self, method)

    def set_attribute(self, name: str, value) -> None:
        """torch's Module.__setattr__: Parameters and Modules register, the rest are attributes
        (or go to a parametrized tensor's property)."""
        found = self.property_of(name)
        if found is not None and not isinstance(value, Module):
            if isinstance(value, Tensor) and value.is_parameter:  # register_parameter's check
                problem = f"attribute '{name}' already exists"
                raise errors.TorchError("KeyError", repr(problem), (problem,))
            found[1](self, value)
        elif isinstance(value, Tensor) and value.is_parameter:
            check_leaf_parameter(name, value)
            self._register(self.params, name, value)
        elif name in self.params:
            self._check_none(value, name, "parameter", "torch.nn.Parameter")
            self.params[name] = None
        elif isinstance(value, Tensor) and value in buffers.PERSISTENT:  # an nn.Buffer
            self.buffers[name] = value
            self.non_persistent = (self.non_persistent - {name}) if buffers.PERSISTENT[value] \
                else (self.non_persistent | {name})
        elif name in self.buffers and not isinstance(value, Module):
            if value is not None and not isinstance(value, Tensor):
                raise errors.type_error(f"cannot assign '{torch_typename(value)}' as buffer "
                                        f"'{name}' (torch.nn.Buffer, torch.Tensor or None "
                                        "expected)")
            self.buffers[name] = value
        elif isinstance(value, Module):
            self._register(self.children, name, value)
        elif name in self.children:
            self._check_none(value, name, "child module", "torch.nn.Module")
            self.children[name] = None
        else:
            self.attrs[name] = value

    def delete_attribute(self, name: str) -> None:
        """torch's Module.__delattr__: a parameter, buffer or child, else an attribute."""
        for place in (self.params, self.buffers, self.children, self.attrs):
            if name in place:
                del place[name]
                self.non_persistent -= {name}
                self._read_replacements()
                return
        raise self.missing(name)

    def _read_replacements(self) -> None:
        """After a parameter or buffer is deleted, the forward reads a plain tensor attribute
        set in its place (a dual tensor, forward_ad_usage's way), as torch's `self.weight` does."""
        if not isinstance(self.params, Members):
            self.params = Members(self, self.params)
        if not isinstance(self.buffers, Members):
            self.buffers = Members(self, self.buffers)

    def _register(self, into: dict, name: str, value) -> None:
        for place in (self.attrs, self.params, self.buffers, self.children):
            if place is not into:
                place.pop(name, None)
        self.non_persistent -= {name}
        into[name] = value

    @staticmethod
    def _check_none(value, name: str, what: str, expected: str) -> None:
        if value is not None:
            raise errors.type_error(f"cannot assign '{torch_typename(value)}' as {what} '{name}' "
                                    f"({expected} or None expected)")

    def repr(self, printer) -> str:
        """torch's Module.__repr__: the extra_repr, then each child indented under `(name): `."""
        extra = self.extra_repr(printer)
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + text.replace("\n", "\n  ")
                       for key, text in self._child_reprs(printer)]
        if len(extra_lines) == 1 and not child_lines:
            body = extra_lines[0]
        elif extra_lines or child_lines:
            body = "\n  " + "\n  ".join(extra_lines + child_lines) + "\n"
        else:
            body = ""
        return f"{self.class_name}({body})"

    def extra_repr(self, printer) -> str:
        return self.kind.extra_repr(self, printer)

    def _child_reprs(self, printer) -> list:
        """(label, repr) per child; a grouped kind (ModuleList) shows a run of equal reprs once."""
        reprs = [(key, printer.repr(child)) for key, child in self.children.items()]
        if not self.kind.grouped:
            return reprs
        runs: list = []
        for position, (_, text) in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = position
            else:
                runs.append([position, position, text])
        return [(f"{first}-{last}", f"{last - first + 1} x {text}") if first != last
                else (str(first), text) for first, last, text in runs]

    def named_modules(self, prefix: str = "", memo: set | None = None,
                      remove_duplicate: bool = True):
        """(name, module) for this module and every descendant, depth first, as torch's: a module
        already in `memo` is skipped, and each yielded one joins it unless `remove_duplicate` is
        false (a program's overrides are not asked)."""
        return _named_modules(self, memo, prefix, remove_duplicate, routed=False)

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> list:
        return _named_members(self, "params", prefix, recurse, remove_duplicate)

    # ---- Sequential, ModuleList (and ParameterList, numbering its parameters) ------------------

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        """Sequential's + and * (and += and *=), ModuleList's + and +=."""
        if self.kind.name == "Sequential" and (op == "*" or op == "+" and not reflected):
            return _sequential_operator(self, op, other, inplace)
        if self.kind.name == "ModuleList" and op == "+" and not reflected:
            made = self if inplace else construct(self.kind)
            return extend(made, other) if inplace else extend(extend(made, self), other)
        return NotImplemented

    def numbered(self) -> dict:
        """The entries a sequence container numbers 0, 1, ..."""
        return self.children

    def members(self) -> list:
        return list(self.numbered().values())

    def length(self) -> int:
        return len(self.numbered())

    def item(self, key):
        if isinstance(key, slice):  # Sequential keeps the names; the lists number from 0
            sliced = self.kind.host(self.kind)
            pairs = list(self.numbered().items())[key]
            sliced.numbered().update(pairs if self.kind.name == "Sequential" else
                                     ((str(i), value) for i, (_, value) in enumerate(pairs)))
            return sliced
        return self.numbered()[self._key_at(key)]

    def _key_at(self, key) -> str:
        """The entry name at index `key` (torch's _get_item_by_idx)."""
        position, size = index(key), len(self.numbered())
        if not -size <= position < size:
            raise errors.index_error(f"index {position} is out of range")
        return list(self.numbered())[position % size]

    def set_item(self, key, value) -> None:
        if not self.is_sequence:
            TableObject.set_item(self, key, value)
        self.set_attribute(self._key_at(key), value)

    def delete_item(self, key) -> None:
        """del seq[i] or seq[a:b], the rest renumbered from 0 as torch does."""
        if not self.is_sequence:
            TableObject.delete_item(self, key)
        names = list(self.children)[key] if isinstance(key, slice) else [self._key_at(key)]
        for name in names:
            del self.children[name]
        _renumber(self.children, list(self.children.values()))


def _hooks_by_id(*kinds: str):
    """module._forward_pre_hooks and the like: torch's OrderedDict of the hooks by handle id."""
    return lambda m: OrderedDict((h.id, h.fn) for kind in kinds
                                 for h in (m.hooks[kind] if m.hooks else ()))


_TABLES = {"_modules": lambda m: m.children, "_parameters": lambda m: m.params,
           "_buffers": lambda m: m.buffers,
           "_forward_pre_hooks": _hooks_by_id("forward_pre"),
           "_forward_hooks": _hooks_by_id("forward"),
           "_backward_pre_hooks": _hooks_by_id("backward_pre"),
           "_backward_hooks": _hooks_by_id("backward", "legacy_backward"),
           "_load_state_dict_post_hooks": _hooks_by_id("load_state_dict_post"),
           "_load_state_dict_pre_hooks": _hooks_by_id("load_state_dict_pre"),
           "_state_dict_pre_hooks": _hooks_by_id("state_dict_pre"),
           "_state_dict_hooks": _hooks_by_id("state_dict"),
           "__dict__": lambda m: m.instance_dict()}
# the tables torch's Module.__init__ sets, in its order
_HOOK_TABLES = ("_backward_pre_hooks", "_backward_hooks", "_is_full_backward_hook",
                "_forward_hooks", "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
                "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_state_dict_hooks",
                "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                "_load_state_dict_post_hooks")


def options_repr(module: Module, printer, leading: str, *defaults: tuple) -> str:
    """An extra_repr: `leading`, then `, name=value` for each (name, default) whose value is not
    the default, as torch's modules print their options."""
    a = module.attrs
    return leading + "".join(f", {name}={printer.str(a[name])}" for name, default in defaults
                             if a[name] != default)


def _named_children(module: Module) -> list:
    """(name, child) for each distinct child module, as torch's named_children."""
    seen, out = set(), []
    for name, child in module.children.items():
        if child is not None and id(child) not in seen:
            seen.add(id(child))
            out.append((name, child))
    return out


def _overrides(module: Module, name: str) -> bool:
    """Whether the program's class of `module` defines (or inherits) its own method `name`."""
    cls = module.user_class()
    return cls is not None and cls.find(name) is not classes.MISSING


def dispatch(module: Module, name: str, default: Callable, *args, **kwargs):
    """`self.<name>(...)` as nn.Module's own Python code calls it on `module`: the program's
    override when its class defines one, else nn.Module's (`default`)."""
    cls = module.user_class()
    found = classes.MISSING if cls is None else cls.find(name)
    if found is classes.MISSING:
        return default(module, *args, **kwargs)
    return cls.runtime.call(classes.bind(found, module, cls), list(args), kwargs)


def _each(module: Module, name: str, default: Callable, *args, **kwargs):
    """What iterating `self.<name>(...)` gives (an override may return any iterable)."""
    if not _overrides(module, name):
        return default(module, *args, **kwargs)
    return iterate(dispatch(module, name, default, *args, **kwargs))


def _children(module: Module):
    """torch's self.children(): its named_children, each through a program's override."""
    return [child for _, child in _each(module, "named_children", _named_children)]


def _named_modules(module: Module, memo=None, prefix: str = "", remove_duplicate: bool = True,
                   routed: bool = True):
    """torch's Module.named_modules (`routed`: reaching each child through its own
    named_modules, a program's override of it included)."""
    memo = set() if memo is None else memo
    if module in memo:
        return
    if remove_duplicate:
        memo.add(module)
    yield prefix, module
    for name, child in module.children.items():
        if child is not None:
            inner = f"{prefix}.{name}" if prefix else name
            yield from _each(child, "named_modules", _named_modules, memo, inner,
                             remove_duplicate) if routed else \
                _named_modules(child, memo, inner, remove_duplicate, routed=False)


def _parameters(module: Module, recurse: bool = True):
    for _, param in _each(module, "named_parameters", _named_parameters, recurse=recurse):
        yield param


def _named_parameters(module: Module, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True):
    return _named_members(module, "params", prefix, recurse, remove_duplicate, routed=True)


def _buffers(module: Module, recurse: bool = True):
    for _, buffer in _each(module, "named_buffers", _named_buffers, recurse=recurse):
        yield buffer


def _zero_grad(module: Module, set_to_none: bool = True) -> None:
    optimizers.zero_grad(list(_each(module, "parameters", _parameters)), set_to_none)


def _lazily(function: Callable, name: str):
    """A Module method that is a generator in torch: it runs when first advanced."""
    def start(*args, **kwargs):
        def run():
            yield from function(*args, **kwargs)
        return Generator(run(), f"Module.{name}")
    return start


def _train(ctx, module: Module, mode=True) -> Module:
    """nn.Module.train: `self.training = mode` (through a class's own __setattr__), then each
    child's train(mode), a program's override of it included."""
    if not isinstance(mode, bool):
        raise errors.value_error("training mode is expected to be boolean")
    if module.user_class() is None:
        module.attrs["training"] = mode
    else:
        module.set_attribute("training", mode)
    for child in _each(module, "children", _children):
        dispatch(child, "train", lambda each, mode: _train(ctx, each, mode), mode)
    return module


def _eval(ctx, module: Module) -> Module:
    """nn.Module.eval: self.train(False), the class's own train when it has one."""
    if _overrides(module, "train"):
        return ctx.call(module.attribute("train"), [False], {})
    return _train(ctx, module, False)


def _requires_grad_(module: Module, requires_grad) -> Module:
    """Each parameter's requires_grad_(requires_grad), whose parser takes only a bool."""
    for param in _each(module, "parameters", _parameters):
        if type(requires_grad) is not bool:
            raise errors.type_error("requires_grad_(): argument 'requires_grad' (position 1) "
                                    f"must be bool, not {type_name(requires_grad)}")
        param.requires_grad = requires_grad
    return module


def _apply(ctx, module: Module, fn) -> Module:
    for child in _each(module, "children", _children):
        dispatch(child, "apply", lambda each, fn: _apply(ctx, each, fn), fn)
    ctx.call(fn, [module], {})
    return module


def _converts(dtype: DType, complex_too: bool) -> bool:
    """Whether a conversion changes a tensor of `dtype`: floating ones (Module.to: complex too)."""
    return dtype.is_floating_point or complex_too and dtype.is_complex


def _cast(module: Module, dtype: DType | None, overwrite: bool = False,
          complex_too: bool = False) -> Module:
    """Module._apply of a floating conversion (dtype None: a move to the CPU): parameters (and
    their grads) take `dtype` in place (`param.data = ...`), or are replaced by new Parameters
    under torch.__future__'s overwrite; floating buffers are replaced by converted copies."""
    if overwrite:
        _new_parameters(module, dtype, complex_too)
    elif dtype is None:
        return module
    for _, param in () if overwrite else module.named_parameters():
        for t in (param, param.grad):
            if t is not None and _converts(t.dtype, complex_too) and t.dtype is not dtype:
                t.data, t.dtype = dtypes.stored(t.data, dtype), dtype
    for _, each in module.named_modules():
        for name, buffer in each.buffers.items():
            if buffer is not None and _converts(buffer.dtype, complex_too) and dtype is not None:
                each.buffers[name] = F.to_dtype(buffer, dtype)
                if kind_of(buffer) and buffer.dtype is not dtype:  # an UninitializedBuffer's
                    UNINITIALIZED[each.buffers[name]] = kind_of(buffer)  # copy stays one
    return module


def _type(module: Module, dst_type) -> Module:
    """Module.type: Module._apply of Tensor.type(dst_type) to every parameter (its data set in
    place, its grad too) and buffer, whatever their dtypes."""
    tensor_type = protocols.TENSOR_METHODS["type"].fn  # (math_table imports this module)
    for _, each in module.named_modules():
        for param in each.params.values():
            for t in (param, None if param is None else param.grad):
                if t is not None:  # (`param.data = ...`: refused for an integer type)
                    grad_api.assign_data(t, tensor_type(t, dst_type))
        for name, buffer in each.buffers.items():
            if buffer is not None:
                each.buffers[name] = tensor_type(buffer, dst_type)
    return module


def _converted(t: Tensor, dtype: DType | None, complex_too: bool) -> Tensor:
    """What Module.to's conversion gives for `t`, outside autograd: itself unless floating."""
    if dtype is None or not _converts(t.dtype, complex_too) or t.dtype is dtype:
        return t
    return F.to_dtype(F.detach(t), dtype)


def _new_parameters(module: Module, dtype: DType | None, complex_too: bool) -> None:
    """Each module's parameters replaced by new Parameters over their converted values, each
    given its old grad converted, as Module._apply does when it may not set `.data`."""
    for _, each in module.named_modules():
        for name, param in each.params.items():
            if param is not None:
                made = parameters.parameter(_converted(param, dtype, complex_too),
                                            param.requires_grad)
                if param.grad is not None:
                    made.grad = _converted(param.grad, dtype, complex_too)
                each.params[name] = made


def _to(ctx, module: Module, *args, dtype=None, device=None, non_blocking=False,
        memory_format=None) -> Module:
    """Module.to(dtype), .to(device), .to(device, dtype), .to(tensor)."""
    dtype = dtypes.dtype_argument(dtype)
    for arg in args:
        arg = dtypes.dtype_argument(arg)  # float, int and bool stand for dtypes
        if isinstance(arg, Tensor):
            dtype = arg.dtype
        elif isinstance(arg, DType):
            dtype = arg
        else:
            device = arg
    if device is not None:
        devices.device(device)  # parsed first: a bare index needs an accelerator
    if dtype is not None and not _converts(dtype, True):
        raise errors.type_error("nn.Module.to only accepts floating point or complex dtypes, but "
                                f"got desired dtype={dtype!r}")
    if dtype is not None and dtype.is_complex:
        STATE.warn("UserWarning", _COMPLEX_MODULES)
    if _holds_tensors(module):  # each tensor moves: a module without any goes anywhere
        devices.place(device, copying=True)
    if memory_format is not None:
        conversions.check_memory_format(memory_format)
        _restride(module, memory_format)
    return _cast(module, dtype, future.overwrites(ctx), complex_too=True)


_COMPLEX_MODULES = (
    "Complex modules are a new feature under active development whose design may change, and "
    "some modules might not work as expected when using complex tensors as parameters or "
    "buffers. Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
    "bug-report.yml if a complex module does not work as expected.")


def _holds_tensors(module: Module) -> bool:
    return any(t is not None for _, each in module.named_modules()
               for t in (*each.params.values(), *each.buffers.values()))


def _cuda(ctx, module: Module, device=None) -> Module:
    """Module.cuda(device): each tensor's .cuda(device), which a CPU-only torch refuses."""
    if _holds_tensors(module):
        devices.cuda(None, device)
    return module


def _restride(module: Module, fmt) -> None:
    """Module.to(memory_format=...): 4- and 5-dimensional parameters and buffers take the format
    in place, as `param.data = param.to(memory_format=...)` does."""
    tensors = [param for _, param in module.named_parameters()]
    tensors += [b for _, each in module.named_modules() for b in each.buffers.values()
                if b is not None]
    for t in tensors:
        if t.ndim in (4, 5) and memory_formats.suggest(t.shape, F.strides(t)) is not fmt:
            t.data = memory_formats.laid_out(t.data, fmt)


def check_module(value) -> None:
    if not isinstance(value, Module):
        raise errors.type_error(f"{torch_typename(value)} is not a Module subclass")


def _append(module: Module, child) -> Module:
    check_module(child)
    module.children[str(len(module.children))] = child
    return module


def _named_members(module: Module, kind: str, prefix: str = "", recurse: bool = True,
                   remove_duplicate: bool = True, routed: bool = False) -> list:
    """torch's Module._named_members: (name, tensor) of each module's params or buffers, depth
    first; with remove_duplicate, a shared module or tensor is named once (`routed`: the
    modules from named_modules, a program's override of it included)."""
    modules = [(prefix, module)] if not recurse else _each(
        module, "named_modules", _named_modules, prefix=prefix,
        remove_duplicate=remove_duplicate) if routed else module.named_modules(
        prefix, remove_duplicate=remove_duplicate)
    seen, out = set(), []
    for module_prefix, owner in modules:
        for name, value in (owner.params if kind == "params" else owner.buffers).items():
            if value is None or id(value) in seen:
                continue
            if remove_duplicate:
                seen.add(id(value))
            out.append((f"{module_prefix}.{name}" if module_prefix else name, value))
    return out


def _named_members_of(ctx, module: Module, get_members_fn, prefix: str = "",
                      recurse: bool = True, remove_duplicate: bool = True):
    """Module._named_members: (name, member) for what `get_members_fn(module)` gives for each
    module from named_modules, a member met twice named once."""
    modules = _each(module, "named_modules", _named_modules, prefix=prefix,
                    remove_duplicate=remove_duplicate) if recurse else [(prefix, module)]
    seen = set()
    for module_prefix, each in modules:
        for name, value in iterate(ctx.call(get_members_fn, [each], {})):
            if value is None or id(value) in seen:
                continue
            if remove_duplicate:
                seen.add(id(value))
            yield (f"{module_prefix}.{name}" if module_prefix else name), value


def _named_buffers(module: Module, prefix: str = "", recurse: bool = True,
                   remove_duplicate: bool = True) -> list:
    return _named_members(module, "buffers", prefix, recurse, remove_duplicate, routed=True)


KIND_METHODS: dict = {}  # methods only some torch classes define, by class name (module_reset)

MODULE_METHODS = table(
    entry("parameters", _lazily(_parameters, "parameters"), "self, recurse=True"),
    entry("named_parameters", _lazily(_named_parameters, "named_parameters"),
          "self, prefix='', recurse=True, remove_duplicate=True"),
    entry("children", _lazily(_children, "children"), "self"),
    entry("named_children", _lazily(_named_children, "named_children"), "self"),
    entry("modules", _lazily(lambda m, remove_duplicate: (each for _, each in _each(
        m, "named_modules", _named_modules, remove_duplicate=remove_duplicate)), "modules"),
        "self, remove_duplicate=True"),
    entry("named_modules", _lazily(_named_modules, "named_modules"),
          "self, memo=None, prefix='', remove_duplicate=True"),
    entry("zero_grad", _zero_grad, "self, set_to_none=True"),
    entry("_named_members", _lazily(_named_members_of, "_named_members"), "self, "
          "get_members_fn, prefix='', recurse=True, remove_duplicate=True", context=True),
    entry("train", _train, "self, mode=True", context=True),
    entry("eval", _eval, "self", context=True),
    entry("requires_grad_", _requires_grad_, "self, requires_grad=True"),
    entry("apply", _apply, "self, fn", context=True),
    entry("to", _to, "self, *args, dtype=None, device=None, non_blocking=False, "
          "memory_format=None", context=True),
    entry("cpu", lambda ctx, m: _cast(m, None, future.overwrites(ctx)), "self", context=True),
    entry("cuda", _cuda, "self, device=None",
          context=True),
    entry("type", _type, "self, dst_type"),
    *(entry(name, lambda ctx, m, dtype=dtype: _cast(m, dtype, future.overwrites(ctx)), "self",
            context=True) for name, dtype in (("double", float64), ("float", float32),
                                              ("half", float16), ("bfloat16", bfloat16))),
    entry("extra_repr", lambda ctx, m: m.kind.extra_repr(m, ctx.printer), "self", context=True),
    # nn.Module's own __repr__ (a subclass's `super().__repr__()`): the class's extra_repr and
    # the children, never the subclass's __repr__ again
    entry("__repr__", lambda ctx, m: Module.repr(m, ctx.printer), "self", context=True),
    # object.__str__, which asks the instance's class for its repr
    entry("__str__", lambda ctx, m: m.repr(ctx.printer), "self", context=True),
    entry("named_buffers", _lazily(_named_buffers, "named_buffers"),
          "self, prefix='', recurse=True, remove_duplicate=True"),
    entry("buffers", _lazily(_buffers, "buffers"), "self, recurse=True"),
    entry("register_forward_pre_hook", lambda m, hook, prepend, with_kwargs: module_hooks.register(
        m, "forward_pre", hook, prepend, with_kwargs), "self, hook, *, prepend=False, "
        "with_kwargs=False"),
    entry("register_forward_hook", lambda m, hook, prepend, with_kwargs, always_call:
          module_hooks.register(m, "forward", hook, prepend, with_kwargs, always_call),
          "self, hook, *, prepend=False, with_kwargs=False, always_call=False"),
    entry("register_full_backward_pre_hook", lambda m, hook, prepend: module_hooks.register(
        m, "backward_pre", hook, prepend), "self, hook, prepend=False"),
    entry("register_full_backward_hook", lambda m, hook, prepend: module_hooks.register(
        m, "backward", hook, prepend), "self, hook, prepend=False"),
    entry("register_backward_hook", lambda m, hook: module_hooks.register(
        m, "legacy_backward", hook, False), "self, hook"),
    # compiled in place: its calls compute what they did (gradcli runs them as written)
    entry("compile", lambda m, *args, **kwargs: None, "self, *args, **kwargs"),
)
def _renumber(children: dict, kept: list) -> None:
    """Name the children `kept` 0, 1, ... in order, in place (torch renumbers them so)."""
    children.clear()
    children.update((str(i), child) for i, child in enumerate(kept))


def _insert(module: Module, position, child):
    """Sequential.insert (checked, returns the module) and ModuleList.insert (returns None)."""
    size = len(module.children)
    if module.kind.name == "Sequential":
        if not isinstance(child, Module):
            raise errors.TorchError("AssertionError", "module should be of type: <class "
                                    "'torch.nn.modules.module.Module'>")
        if not -size <= position <= size:
            raise errors.index_error(f"Index out of range: {position}")
        position += size if position < 0 else 0
    children = module.children  # torch moves each child up one numbered key, from the end
    for number in range(size, position, -1):
        key = str(number - 1)
        if key not in children:  # (a key that is not a number, or a negative ModuleList index)
            raise errors.TorchError("KeyError", repr(key), (key,))
        children[str(number)] = children[key]
    children[str(position)] = child
    return module if module.kind.name == "Sequential" else None


def _pop(module: Module, key):
    value = module.item(key)
    module.delete_item(key)
    return value


def extend(module: Module, modules) -> Module:
    """Sequential.extend and ModuleList.extend (which the constructor and += run)."""
    if module.kind.name == "ModuleList" and not abc_iterable(modules):  # an Iterable first
        raise errors.type_error("ModuleList.extend should be called with an iterable, but got "
                                f"{type_name(modules)}")
    for child in iterate(modules):
        _append(module, child)
    return module


def _sequential_operator(module: Module, op: str, other, inplace: bool):
    """torch's Sequential.__add__/__iadd__ (another Sequential's modules after its own) and
    __mul__/__rmul__/__imul__ (its modules repeated, shared)."""
    if op == "+":
        if not (isinstance(other, Module) and other.kind.name == "Sequential"):
            raise errors.value_error("add operator supports only objects of Sequential class, "
                                     f"but {class_text(other)} is given.")
        made = module if inplace else extend(construct(module.kind), module.members())
        return extend(made, other.members())
    if not isinstance(other, int):
        raise errors.type_error(f"unsupported operand type(s) for *: {class_text(module)} and "
                                f"{class_text(other)}")
    if other <= 0:
        raise errors.value_error(f"Non-positive multiplication factor {other} for "
                                 f"{class_text(module)}")
    made = module if inplace else construct(module.kind)
    original = module.members()
    for _ in range(other - 1 if inplace else other):
        extend(made, original)
    return made


SEQUENTIAL_METHODS = table(entry("append", _append, "self, module"),
                           entry("extend", extend, "self, modules"),
                           entry("insert", _insert, "self, index, module"),
                           entry("pop", _pop, "self, key"))


# ---- Classes written in the program, derived from nn.Module or another torch.nn class ---------

_MODULE_GETATTR = entry("__getattr__", lambda m, name: m.registered(name), "self, name",
                        qualname="Module.__getattr__")
MODULE_SETATTR = entry("__setattr__", lambda m, name, value: m.set_module_attribute(name, value),
                        "self, name, value", qualname="Module.__setattr__")
MODULE_DELATTR = entry("__delattr__", lambda m, name: (
    m.delete_module_attribute if isinstance(m, UserModule) else m.delete_attribute)(name),
    "self, name", qualname="Module.__delattr__")


class UserModule(classes.UserInstance, Module):
    """An instance of a user class derived from nn.Module or another torch.nn class (`kind`):
    the module's own attributes, parameters and children, then the user's class chain, then
    the torch class's methods. A torch class with its own host class has a subclass of both
    (module_subclasses.instance_class), so that its methods and isinstance see that class."""

    __slots__ = ("cls", "initialized")

    def __init__(self, cls, kind: ModuleKind):
        super().__init__(kind)
        self.cls, self.initialized = cls, False

    @property
    def language_type(self):
        return self.cls if self.parametrized is None else self.parametrized.type

    @property
    def class_name(self) -> str:
        return self.language_type.name.rsplit(".", 1)[-1]

    def attribute(self, name: str):
        found = self.property_of(name)
        if found is not None:
            return found[0](self)
        hook = self.cls.find("__getattr__")
        if hook is not classes.MISSING:  # Python's order: what the instance and its classes
            return self._hooked_attribute(hook, name)  # hold, then the hook for the rest
        for found in (self.attrs, self.params, self.buffers, self.children):
            if name in found:
                return found[name]
        defined = self.cls.find(name)
        if isinstance(defined, classes.Property):
            return classes.read_property(defined, self, self.cls, name, self.missing)
        if defined is not classes.MISSING:
            return classes.bind(defined, self, self.cls)
        return super().attribute(name)

    def _hooked_attribute(self, hook, name: str):
        """An attribute of a class that defines __getattr__ (in place of nn.Module's, which
        finds parameters, buffers and children): asked when the instance's own attributes and
        the classes' hold no `name`."""
        if name in self.attrs:
            return self.attrs[name]
        defined = self.cls.find(name)
        if defined is not classes.MISSING:
            return classes.bind(defined, self, self.cls)
        try:
            return self.class_attribute(name)
        except errors.TorchError as error:
            if error.kind != "AttributeError":
                raise
        return self.cls.runtime.call(classes.bind(hook, self, self.cls), [name], {})

    def base_attribute(self, name: str):
        """super().name past the user's classes: the torch class's (its forward, not hooked;
        __call__, nn.Module's: hooks and forward)."""
        if name == "__call__":
            return Module.forward(self)
        if name == "forward":
            return BoundMethod(self, self.kind.forward_entry)
        if name == "__getattr__":
            return BoundMethod(self, _MODULE_GETATTR)
        if name == "__setattr__":
            return BoundMethod(self, MODULE_SETATTR)
        if name == "__delattr__":
            return BoundMethod(self, MODULE_DELATTR)
        if name in _CONTAINER_DUNDERS and self.is_sequence:
            return BoundMethod(self, _CONTAINER_DUNDERS[name])
        return super().attribute(name)

    def set_attribute(self, name: str, value) -> None:
        hook = self.cls.find("__setattr__")
        if hook is not classes.MISSING:  # the class's own, in place of nn.Module's
            self.cls.runtime.call(classes.bind(hook, self, self.cls), [name, value], {})
            return
        self.set_module_attribute(name, value)

    def set_module_attribute(self, name: str, value) -> None:
        """nn.Module.__setattr__ (for a class of the program)."""
        if self.property_of(name) is not None:  # the parametrized class's property comes first
            super().set_attribute(name, value)
            return
        if classes.set_property(self.cls, self, name, value):
            return
        if not self.initialized and (isinstance(value, Module) or (
                isinstance(value, Tensor) and value.is_parameter)):
            what = "module" if isinstance(value, Module) else "parameters"
            raise errors.TorchError("AttributeError",
                                    f"cannot assign {what} before Module.__init__() call")
        super().set_attribute(name, value)

    def delete_attribute(self, name: str) -> None:
        hook = self.cls.find("__delattr__")
        if hook is not classes.MISSING:  # the class's own, in place of nn.Module's
            self.cls.runtime.call(classes.bind(hook, self, self.cls), [name], {})
            return
        self.delete_module_attribute(name)

    def delete_module_attribute(self, name: str) -> None:
        """nn.Module.__delattr__ (for a class of the program): a parameter, buffer or child,
        else object.__delattr__ (a property's deleter, a descriptor's, the instance's own)."""
        if any(name in place for place in (self.params, self.buffers, self.children)):
            super().delete_attribute(name)
        else:
            classes.Instance.delete_own_attribute(self, name)

    def forward(self):
        """What calling the module runs: the class's own __call__ when it defines one (in
        place of nn.Module's, hooks and all), else the module's forward."""
        defined = self.cls.find("__call__")
        if defined is not classes.MISSING:
            return classes.bind(defined, self, self.cls)
        return Module.forward(self)

    def forward_method(self):
        defined = self.cls.find("forward")
        if "forward" in self.attrs or defined is classes.MISSING:
            return super().forward_method()
        return classes.bind(defined, self, self.cls)

    def extra_repr(self, printer) -> str:
        method = self.cls.find("extra_repr")
        if method is classes.MISSING:
            return super().extra_repr(printer)
        return self.cls.runtime.call(classes.bind(method, self, self.cls), [], {})

    def repr(self, printer) -> str:
        method = self.cls.find("__repr__")
        if method is classes.MISSING:
            return super().repr(printer)
        return self.cls.runtime.call(classes.bind(method, self, self.cls), [], {})

    def str(self, printer) -> str:
        """str(module): the class's __str__, else its repr (nn.Module defines no __str__)."""
        method = self.cls.find("__str__")
        if method is classes.MISSING:
            return self.repr(printer)
        return classes.text_of(self.cls.runtime.call(classes.bind(method, self, self.cls), [],
                                                     {}), "__str__")

    def _own(self, name: str, args: list):
        """The program's special method `name` called, else MISSING (for a container's item
        access, length and iteration, which the runtime reaches through item/length/members)."""
        method = self.cls.find(name)
        if method is classes.MISSING:
            return method
        return self.cls.runtime.call(classes.bind(method, self, self.cls), args, {})

    def item(self, key):
        found = self._own("__getitem__", [key])
        return self.base_item(key) if found is classes.MISSING else found

    def length(self) -> int:
        found = self._own("__len__", [])
        if found is classes.MISSING:
            return super().length()
        if not isinstance(found, int):
            raise errors.type_error(f"'{type_name(found)}' object cannot be interpreted as an "
                                    "integer")
        return found

    def members(self):
        found = self._own("__iter__", [])
        return super().members() if found is classes.MISSING else iterate(found)

    def base_item(self, key):
        """The container's own item access, where a slice is made by the program's class, as
        torch's `self.__class__(...)`: from the sliced entries, or filled by appending."""
        if not isinstance(key, slice) or self.kind.name not in _SLICE_ARGUMENTS:
            return super().item(key)
        pairs = list(self.numbered().items())[key]
        arguments = _SLICE_ARGUMENTS[self.kind.name](pairs)
        made = classes.instantiate(self.cls, arguments, {})
        if not arguments:
            for _, value in pairs:
                made.numbered()[str(len(made.numbered()))] = value
        return made


_SLICE_ARGUMENTS = {"Sequential": lambda pairs: [OrderedDict(pairs)],
                    "ModuleList": lambda pairs: [[value for _, value in pairs]],
                    "ParameterList": lambda pairs: []}
# super().__getitem__, __len__ and __iter__ in a container's subclass: the container's own
_CONTAINER_DUNDERS = table(entry("__getitem__", lambda m, key: m.base_item(key), "self, idx"),
                           entry("__len__", lambda m: super(UserModule, m).length(), "self"),
                           entry("__iter__", lambda m: iter(list(super(UserModule, m).members())),
                                 "self"))
