"""torch.jit as a pass-through: script and trace give torch's wrapper objects (ScriptFunction,
RecursiveScriptModule, TopLevelTracedModule), printed as torch prints them, that run the
original code eagerly; the wrapped modules share the original's parameters and buffers, as
torch's share the Parameters. save and load keep a snapshot in memory. Not emulated: the
profiling executor's fused DifferentiableGraphBackward nodes from a second call on, and a
trace's replay of the recorded path (a traced function here runs its Python each time)."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.modules import Module, ModuleKind
from gradcli.language.namespaces.python_copy import deepcopy
from gradcli.language.namespaces.python_io import BytesIO
from gradcli.language.runtime import attributes, classes, protocols
from gradcli.language.runtime.frames import BoundMethod, UserFunction
from gradcli.language.runtime.objects import TableInstance
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import qualified_type_name, type_name

# nn.Module's methods that return the module itself: on a wrapper they return the wrapper
_RETURNING_SELF = frozenset(("train", "eval", "to", "cpu", "cuda", "double", "float", "half",
                             "bfloat16", "type", "apply", "requires_grad_", "share_memory",
                             "to_empty"))


class ScriptFunction(TableInstance):
    """torch.jit.ScriptFunction: a scripted or traced function, run as the original."""

    __slots__ = ("function", "name", "attrs")

    def __init__(self, function, name: str):
        self.function, self.name, self.attrs = function, name, {}

    @property
    def language_type(self) -> PyType:
        return SCRIPT_FUNCTION_TYPE

    def repr(self, printer) -> str:
        return f"<torch.jit.ScriptFunction object at 0x{id(self):x}>"

    def forward(self):
        return BoundMethod(self, _CALL_FUNCTION)


ScriptFunction.PROPERTIES = {"name": lambda f: f.name}
_CALL_FUNCTION = entry("__call__", lambda ctx, f, *args, **kwargs: ctx.call(
    f.function, list(args), kwargs), "self, *args, **kwargs", context=True,
    qualname="ScriptFunction.__call__")


class ScriptModuleHost(Module):
    """torch.jit.ScriptModule: a module wrapping `original`, sharing its parameter and buffer
    tables, with a copy of its attributes, and its children wrapped in turn."""

    __slots__ = ("original", "loaded")

    @property
    def is_sequence(self) -> bool:
        return self.original.is_sequence

    def item(self, key):
        """A scripted Sequential's items are the original's modules; a loaded one, which has
        no Python original, refuses (torch's empty NotImplementedError)."""
        if self.loaded:
            raise errors.TorchError("NotImplementedError", "")
        return self.original.item(key)

    def length(self) -> int:
        return self.original.length()

    def members(self) -> list:
        return self.original.members()

    def attribute(self, name: str):
        if name in self.children or name == "forward" or name not in _RETURNING_SELF and (
                name in self.attrs or name in self.params or name in self.buffers):
            return Module.attribute(self, name)
        if name in _RETURNING_SELF:
            return BoundMethod(self, _returning_self(name))
        try:
            return Module.attribute(self, name)
        except errors.TorchError:
            if not _has_marked(self.original, name):
                raise
            return attributes.get(self.original, name)

    def forward_method(self):
        return BoundMethod(self, _CALL_MODULE)

    def repr(self, printer) -> str:
        lines = [f"original_name={self.original.class_name}"] + [
            f"({key}): " + printer.repr(child).replace("\n", "\n  ")
            for key, child in self.children.items()]
        body = lines[0] if len(lines) == 1 else "\n  " + "\n  ".join(lines) + "\n"
        return f"{self.shown_name}({body})"

    @property
    def shown_name(self) -> str:
        return self.class_name


class TracedModuleHost(ScriptModuleHost):
    """torch.jit's TracedModule: printed under the original class's name."""

    __slots__ = ()

    @property
    def shown_name(self) -> str:
        return self.original.class_name


# The functions marked by torch.jit.export, ignore or unused, by id (kept alive, so ids stay
# theirs): a scripted module has those of its original's methods, and forward, no others.
_MARKED: dict = {}


def _mark(function):
    if isinstance(function, UserFunction):
        _MARKED[id(function)] = function
    return function


def _has_marked(module: Module, name: str) -> bool:
    """Whether the program's class of `module` defines `name` as a marked function."""
    cls = module.user_class()
    found = None if cls is None else cls.find(name)
    return found is not None and _MARKED.get(id(found)) is found


def _returning_self(name: str):
    """nn.Module's `name` run on the original (its tensors are the wrapper's), returning the
    wrapper; train and eval set the wrappers' own flags."""
    def run(ctx, wrapper, *args, **kwargs):
        ctx.call(attributes.get(wrapper.original, name), list(args), kwargs)
        return wrapper

    def set_mode(wrapper, mode=True):
        if not isinstance(mode, bool):
            raise errors.value_error("training mode is expected to be boolean")
        for each, _ in _pairs(wrapper):
            each.attrs["training"] = mode
        return wrapper
    if name == "train":
        return entry(name, set_mode, "self, mode=True", qualname="Module.train")
    if name == "eval":
        return entry(name, lambda wrapper: set_mode(wrapper, False), "self",
                     qualname="Module.eval")
    return entry(name, run, "self, *args, **kwargs", context=True, qualname=f"Module.{name}")


def _call_module(ctx, wrapper: ScriptModuleHost, *args, **kwargs):
    """The original module's forward, run with the wrappers' training flags (a scripted
    module's flags are its own: `scripted.eval()` leaves the original in training)."""
    pairs = list(_pairs(wrapper))
    flags = [original.attrs.get("training") for _, original in pairs]
    for each, original in pairs:
        original.attrs["training"] = each.attrs["training"]
    try:
        return ctx.call(wrapper.original, list(args), kwargs)
    finally:
        for (_, original), flag in zip(pairs, flags):
            original.attrs["training"] = flag


def _pairs(wrapper: ScriptModuleHost):
    """(wrapper, original) for the wrapper and every wrapper below it."""
    stack = [wrapper]
    while stack:
        each = stack.pop()
        yield each, each.original
        stack.extend(child for child in each.children.values() if child is not None)


_CALL_MODULE = entry("forward", _call_module, "self, *args, **kwargs", context=True,
                     qualname="RecursiveScriptModule.forward")


def _kind(name: str, path: str, host: type) -> ModuleKind:
    return ModuleKind(name, "", "", lambda ctx, m, *inputs: None, "*args", host=host, path=path)


SCRIPT_KIND = _kind("RecursiveScriptModule", "torch.jit._script", ScriptModuleHost)
TOP_TRACED_KIND = _kind("TopLevelTracedModule", "torch.jit._trace", TracedModuleHost)
TRACED_KIND = _kind("TracedModule", "torch.jit._trace", TracedModuleHost)
SCRIPT_MODULE_TYPE = PyType("torch.jit._script.ScriptModule", (ScriptModuleHost,))
SCRIPT_FUNCTION_TYPE = PyType("torch.jit.torch.jit.ScriptFunction", (ScriptFunction,))


def _wrapped(module: Module, kind: ModuleKind, child_kind: ModuleKind) -> ScriptModuleHost:
    """`module` under a wrapper of `kind`, its children under wrappers of `child_kind`."""
    wrapper = kind.host(kind)
    wrapper.original, wrapper.loaded = module, False
    wrapper.attrs = dict(module.attrs)
    wrapper.params, wrapper.buffers = module.params, module.buffers
    wrapper.children = {name: None if child is None else _wrapped(child, child_kind, child_kind)
                        for name, child in module.children.items()}
    return wrapper


def _function_name(function) -> str:
    return attributes.get(function, "__name__")


def script(ctx, obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """torch.jit.script."""
    if isinstance(obj, (ScriptModuleHost, ScriptFunction)):
        return obj
    if isinstance(obj, Module):
        return _wrapped(obj, SCRIPT_KIND, SCRIPT_KIND)
    if isinstance(obj, (PyType, classes.UserClass)):
        if _is_module_class(obj):
            raise errors.runtime(f"Type '{ctx.printer.repr(obj)}' cannot be compiled since it "
                                 "inherits from nn.Module, pass an instance instead")
        if isinstance(obj, classes.UserClass):
            return obj  # a TorchScript class: the class itself, its instances as before
    if not protocols.is_callable(obj) or isinstance(obj, PyType):
        raise errors.type_error(f"{ctx.printer.repr(protocols.type_of(obj))} is a built-in class")
    return ScriptFunction(obj, _function_name(obj))


def _is_module_class(cls) -> bool:
    from gradcli.language.namespaces.nn_table import NN_CLASSES  # loaded by the first check
    module = NN_CLASSES["Module"]
    if isinstance(cls, classes.UserClass):
        return cls.is_subclass_of(module)
    return bool(cls.hosts) and issubclass(cls.hosts[0], module.hosts)


def _inputs(example_inputs) -> list:
    """The example inputs as torch's tracer takes them: a tensor alone, else the items of an
    iterable (a string's characters too), each a tensor or a container of them."""
    if isinstance(example_inputs, Tensor):
        return [example_inputs]
    if not isinstance(example_inputs, (tuple, list, str)):
        raise errors.type_error(f"'{type_name(example_inputs)}' object is not iterable")
    items = list(example_inputs)
    if not all(isinstance(item, (Tensor, tuple, list, dict)) for item in items):
        kinds = ", ".join("Tensor" if isinstance(item, Tensor) else type_name(item)
                          for item in items)
        raise errors.runtime(f"Type 'Tuple[{kinds}]' cannot be traced. Only Tensors and "
                             "(possibly nested) Lists, Dicts, and Tuples of Tensors can be traced")
    return items


def trace(ctx, func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-05, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None, _store_inputs=True):
    """torch.jit.trace: the example inputs run once (as torch's tracer runs them), then the
    wrapper."""
    if isinstance(func, (ScriptModuleHost, ScriptFunction)):
        return func
    if example_inputs is None and not isinstance(example_kwarg_inputs, dict):
        if isinstance(func, Module):
            raise errors.runtime("example_kwarg_inputs should be a dict")
        raise errors.type_error("'NoneType' object is not iterable")
    args = [] if example_inputs is None else _inputs(example_inputs)
    kwargs = dict(example_kwarg_inputs or {})
    ctx.call(func, args, kwargs)
    if isinstance(func, Module):
        return _wrapped(func, TOP_TRACED_KIND, TRACED_KIND)
    return ScriptFunction(func, _function_name(func))


def _check_file(f) -> None:
    if not isinstance(f, (str, BytesIO)):
        raise errors.TorchError("AttributeError", f"'{qualified_type_name(f)}' object has no "
                                "attribute 'write'")


def save(ctx, m, f, _extra_files=None) -> None:
    """torch.jit.save: a snapshot of the scripted module (its original deep-copied)."""
    if not isinstance(m, ScriptModuleHost):
        raise errors.TorchError("AttributeError", f"'{qualified_type_name(m)}' object has no "
                                "attribute 'save'")
    _check_file(f)
    record = _JitRecord(deepcopy(m.original), [each.attrs["training"] for each, _ in _pairs(m)])
    if isinstance(f, BytesIO):
        f.write_record(record)
    else:
        ctx.saved[f] = record


def load(ctx, f, map_location=None, _extra_files=None, _restore_shapes=False):
    """torch.jit.load: a RecursiveScriptModule over a copy of the saved snapshot."""
    if isinstance(f, str) and f not in ctx.saved:
        raise errors.value_error(f"The provided filename {f} does not exist")
    if not isinstance(f, (str, BytesIO)):
        raise errors.TorchError("AttributeError", f"'{qualified_type_name(f)}' object has no "
                                "attribute 'read'")
    record = f.read_record() if isinstance(f, BytesIO) else ctx.saved[f]
    if not isinstance(record, _JitRecord):
        raise errors.runtime("PytorchStreamReader failed locating file constants.pkl: file not "
                             "found")
    loaded = _wrapped(deepcopy(record.module), SCRIPT_KIND, SCRIPT_KIND)
    for (each, _), training in zip(_pairs(loaded), record.training):
        each.attrs["training"], each.loaded = training, True
        for tensor in each.params.values():  # a loaded module's parameters print as plain
            if tensor is not None:
                tensor.is_parameter = False
    return loaded


class _JitRecord:
    """What torch.jit.save writes: the module as it was, and each scripted module's training
    flag."""

    def __init__(self, module: Module, training: list):
        self.module, self.training = module, training


def _ignore(drop=False, **kwargs):
    """torch.jit.ignore, bare on a function or called with options."""
    if protocols.is_callable(drop):
        return _mark(drop)
    return _MARKING


_MARKING = entry("decorator", _mark, "fn", qualname="ignore.<locals>.decorator")

JIT = table(
    entry("script", script, "obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None",
          context=True),
    entry("trace", trace, "func, example_inputs=None, optimize=None, check_trace=True, "
          "check_inputs=None, check_tolerance=1e-05, strict=True, _force_outplace=False, "
          "_module_class=None, _compilation_unit=None, example_kwarg_inputs=None, "
          "_store_inputs=True", context=True),
    entry("save", save, "m, f, _extra_files=None", context=True),
    entry("load", load, "f, map_location=None, _extra_files=None, _restore_shapes=False",
          context=True),
    entry("is_scripting", lambda: False, ""),
    entry("is_tracing", lambda: False, ""),
    entry("ignore", _ignore, "drop=False, **kwargs"),
    entry("unused", _mark, "fn"),
    entry("export", _mark, "fn"),
    entry("annotate", lambda the_type, the_value: the_value, "the_type, the_value"),
) | {"ScriptModule": SCRIPT_MODULE_TYPE, "ScriptFunction": SCRIPT_FUNCTION_TYPE,
     "RecursiveScriptModule": SCRIPT_KIND.type}
