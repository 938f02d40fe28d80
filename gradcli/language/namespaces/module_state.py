"""nn.Module's state dict as torch's Python builds and loads it: state_dict calls each module's
_save_to_state_dict and each child's state_dict, load_state_dict each module's
_load_from_state_dict, all through a program's overrides (and get/set_extra_state)."""

from __future__ import annotations

from collections import OrderedDict

from gradcli.engine import errors, parameters
from gradcli.engine.functions import F
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import module_hooks, state_dict_metadata
from gradcli.language.namespaces.builtins import class_text
from gradcli.language.namespaces.modules import Module, dispatch
from gradcli.language.runtime import classes, instance_dicts, protocols
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.uninitialized import kind_of, materialize
from gradcli.language.runtime.values import type_name

EXTRA_STATE = "_extra_state"  # torch's _EXTRA_STATE_KEY_SUFFIX
_POSITIONAL = ("Positional args are being deprecated, use kwargs instead. Refer to "
               "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
               "#torch.nn.Module.state_dict for details.")
_NEVER_CALLED = ("Reached a code path in Module.{}() that should never be called. Please file an "
                 "issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                 "to report this bug.")
_POST_HOOK_RETURNED = (
    "Hooks registered with ``register_load_state_dict_post_hook`` are not expected to return new "
    "values, if incompatible_keys need to be modified, it should be done inplace.")


def _own(module: Module, name: str):
    """The program's class's own definition of `name` (a method or `_version`), else MISSING."""
    cls = module.user_class()
    return classes.MISSING if cls is None else cls.find(name)


def _call_own(module: Module, name: str, *args):
    cls = module.user_class()
    return cls.runtime.call(classes.bind(cls.find(name), module, cls), list(args), {})


def _version(module: Module):
    """The module class's `_version` (a program's class may set its own)."""
    own = _own(module, "_version")
    return state_dict_metadata.version(module) if own is classes.MISSING else own


def _check_prefix(prefix) -> None:
    """torch's metadata[prefix[:-1]], then prefix + name, on a prefix that is not a string."""
    if isinstance(prefix, str):
        return
    if not isinstance(prefix, (list, tuple)):
        raise errors.type_error(f"'{type_name(prefix)}' object is not subscriptable")
    if isinstance(prefix, list):
        raise errors.type_error("unhashable type: 'list'")
    raise errors.type_error('can only concatenate tuple (not "str") to tuple')


def state_dict(ctx, module: Module, *args, destination=None, prefix="", keep_vars=False):
    """Module.state_dict: the module's own state (_save_to_state_dict), then each child's
    state_dict under `prefix + name + '.'`; a new OrderedDict records each module's version."""
    if args:
        STATE.warn("FutureWarning", _POSITIONAL)
        destination = args[0] if destination is None else destination
        prefix = args[1] if len(args) > 1 and prefix == "" else prefix
        keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
    _check_prefix(prefix)
    if destination is None:
        destination = OrderedDict()
        instance_dicts.store(destination, "_metadata", OrderedDict())
    metadata = state_dict_metadata.of(destination)
    local_metadata = {"version": _version(module)}
    if isinstance(metadata, dict):
        metadata[prefix[:-1]] = local_metadata
    for hook in _hooks(module, "state_dict_pre"):
        ctx.call(hook.fn, [module, prefix, keep_vars], {})
    dispatch(module, "_save_to_state_dict", save_to_state_dict, destination, prefix, keep_vars)
    for name, child in module.children.items():
        if child is not None:
            dispatch(child, "state_dict", lambda each, **options: state_dict(ctx, each, **options),
                     destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
    for hook in _hooks(module, "state_dict"):  # (register_state_dict_post_hook's)
        if ctx.call(hook.fn, [module, destination, prefix, local_metadata], {}) is not None:
            raise errors.runtime("state_dict post-hook must return None")
    return destination


def _hooks(module: Module, kind: str) -> list:
    return list(module.hooks[kind]) if module.hooks else []


def save_to_state_dict(module: Module, destination, prefix, keep_vars) -> None:
    """Module._save_to_state_dict: the parameters, the persistent buffers (detached unless
    keep_vars; a lazy module's uninitialized ones themselves), and get_extra_state's value."""
    for name, tensor in [*module.params.items(), *module.buffers.items()]:
        if tensor is not None and name not in module.non_persistent:
            destination[prefix + name] = tensor if keep_vars or kind_of(tensor) \
                else F.detach(tensor)
    if _own(module, "get_extra_state") is not classes.MISSING:
        destination[prefix + EXTRA_STATE] = _call_own(module, "get_extra_state")


class IncompatibleKeys(TableObject):
    """load_state_dict's result: missing and unexpected keys, printed as torch prints it; a
    namedtuple of the two lists (`missing, unexpected = model.load_state_dict(...)`)."""

    __slots__ = ("missing_keys", "unexpected_keys")
    is_sequence = True

    def __init__(self, missing: list, unexpected: list):
        self.missing_keys, self.unexpected_keys = missing, unexpected

    def item(self, key):
        return protocols.get_item((self.missing_keys, self.unexpected_keys), key)

    def length(self) -> int:
        return 2

    def members(self):
        return iter((self.missing_keys, self.unexpected_keys))

    @property
    def language_type(self) -> PyType:
        return INCOMPATIBLE_KEYS_TYPE

    def attribute(self, name: str):
        if name in ("missing_keys", "unexpected_keys"):
            return self.missing_keys if name == "missing_keys" else self.unexpected_keys
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (f"_IncompatibleKeys(missing_keys={printer.repr(self.missing_keys)}, "
                f"unexpected_keys={printer.repr(self.unexpected_keys)})")


INCOMPATIBLE_KEYS_TYPE = PyType("torch.nn.modules.module._IncompatibleKeys", (IncompatibleKeys,))


def _starts(key, prefix: str) -> bool:
    if not isinstance(key, str):
        raise errors.no_attribute(key, "startswith")
    return key.startswith(prefix)


def load_state_dict(ctx, module: Module, state_dict, strict=True, assign=False):
    """Module.load_state_dict: each module's _load_from_state_dict (given the entries under its
    prefix), then its children's, then its post hooks; torch's report of what did not match."""
    if not isinstance(state_dict, dict):
        raise errors.type_error(f"Expected state_dict to be dict-like, got {class_text(state_dict)}.")
    missing, unexpected, messages = [], [], []
    metadata = state_dict_metadata.of(state_dict)
    state_dict = OrderedDict(state_dict)
    if metadata is not None:
        instance_dicts.store(state_dict, "_metadata", metadata)

    def load(each: Module, local: dict, prefix: str = "") -> None:
        local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
        if assign:
            local_metadata["assign_to_params_buffers"] = assign
        dispatch(each, "_load_from_state_dict", lambda m, *args: load_from_state_dict(
            ctx, m, *args), local, prefix, local_metadata, True, missing, unexpected, messages)
        for name, child in each.children.items():
            if child is not None:
                inner = prefix + name + "."
                load(child, {k: v for k, v in local.items() if _starts(k, inner)}, inner)
        keys = IncompatibleKeys(missing, unexpected)
        for hook in list(each.hooks["load_state_dict_post"] if each.hooks else ()):
            if ctx.call(hook.fn, [each, keys], {}) is not None:
                raise errors.TorchError("AssertionError", _POST_HOOK_RETURNED)

    load(module, state_dict)
    if strict:
        if unexpected:
            messages.insert(0, "Unexpected key(s) in state_dict: "
                            + ", ".join(f'"{k}"' for k in unexpected) + ". ")
        if missing:
            messages.insert(0, "Missing key(s) in state_dict: "
                            + ", ".join(f'"{k}"' for k in missing) + ". ")
    if messages:
        raise errors.runtime(f"Error(s) in loading state_dict for {module.class_name}:\n\t"
                             + "\n\t".join(messages))
    return IncompatibleKeys(missing, unexpected)


def _before_load(module: Module, state_dict, prefix: str, local_metadata) -> None:
    """What torch's classes do before Module's load: a lazy module materializes its tensors in
    the checkpoint's shapes (LazyModuleMixin's pre-hook); a norm layer loading a checkpoint
    from before version 2 keeps its own num_batches_tracked (_NormBase)."""
    for name, tensor in [*module.params.items(), *module.buffers.items()]:
        source = state_dict.get(prefix + name)
        if tensor is not None and kind_of(tensor) and isinstance(source, Tensor) \
                and not kind_of(source):
            materialize(tensor, source.shape)
    version = local_metadata.get("version") if isinstance(local_metadata, dict) else None
    count = module.buffers.get("num_batches_tracked")
    if state_dict_metadata.version(module) == 2 and count is not None and (version or 0) < 2:
        state_dict.setdefault(prefix + "num_batches_tracked", count)


def load_from_state_dict(ctx, module: Module, state_dict, prefix, local_metadata, strict,
                         missing_keys, unexpected_keys, error_msgs) -> None:
    """Module._load_from_state_dict: the entries under `prefix` copied into this module's
    parameters and persistent buffers (with assign, put in their places), its extra state
    given to set_extra_state, and what did not match noted in the lists."""
    for hook in _hooks(module, "load_state_dict_pre"):
        ctx.call(hook.fn, [module, state_dict, prefix, local_metadata, strict, missing_keys,
                           unexpected_keys, error_msgs], {})
    _before_load(module, state_dict, prefix, local_metadata)
    local_state = {k: v for k, v in [*module.params.items(), *(
        (k, v) for k, v in module.buffers.items() if k not in module.non_persistent)]
        if v is not None}
    assign = local_metadata.get("assign_to_params_buffers", False)
    for name, param in local_state.items():
        key = prefix + name
        if key not in state_dict:
            if strict:
                missing_keys.append(key)
            continue
        source = state_dict[key]
        if not isinstance(source, Tensor):
            error_msgs.append(f'While copying the parameter named "{key}", expected '
                              "torch.Tensor or Tensor-like object from checkpoint but received "
                              f"{class_text(source)}")
            continue
        lazy = kind_of(param)
        if not lazy and param.ndim == 0 and source.shape == (1,):  # from torch 0.3
            source = protocols.get_item(source, 0)
        if not lazy and source.shape != param.shape:
            error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                              f"torch.Size({list(source.shape)}) from checkpoint, the shape in "
                              f"current model is torch.Size({list(param.shape)}).")
            continue
        if assign:
            _assign(module, name, param, source)
        elif not lazy:
            parameters.write(param, source.data)
    _extra_state(module, state_dict, prefix, strict, missing_keys, unexpected_keys)


def _assign(module: Module, name: str, param: Tensor, source: Tensor) -> None:
    """load_state_dict(assign=True): the checkpoint's tensor set as the member, a parameter as
    a Parameter over it (keeping the old one's requires_grad) unless it is one already."""
    if param.is_parameter:
        if source.is_parameter:
            source.requires_grad = param.requires_grad
        else:
            source = parameters.parameter(source, param.requires_grad)
    module.set_attribute(name, source)


def _extra_state(module: Module, state_dict, prefix: str, strict, missing_keys,
                 unexpected_keys) -> None:
    """The end of _load_from_state_dict: the extra state, and the unexpected keys."""
    extra = prefix + EXTRA_STATE
    if _own(module, "set_extra_state") is not classes.MISSING:
        if extra in state_dict:
            _call_own(module, "set_extra_state", state_dict[extra])
        elif strict:
            missing_keys.append(extra)
    elif strict and extra in state_dict:
        unexpected_keys.append(extra)
    if not strict:
        return
    own = {k for k, v in [*module.params.items(), *module.buffers.items()]
           if v is not None and k not in module.non_persistent}
    for key in list(state_dict):
        if _starts(key, prefix) and key != extra:
            head, dot, _ = key[len(prefix):].partition(".")
            if head not in (module.children if dot else own):
                unexpected_keys.append(key)


def _never_called(name: str):
    def run(module, *args):
        raise errors.runtime(_NEVER_CALLED.format(name))
    return run


STATE_METHODS = table(
    entry("state_dict", state_dict, "self, *args, destination=None, prefix='', keep_vars=False",
          context=True),
    entry("_save_to_state_dict", save_to_state_dict, "self, destination, prefix, keep_vars"),
    entry("load_state_dict", load_state_dict, "self, state_dict, strict=True, assign=False",
          context=True),
    entry("_load_from_state_dict", load_from_state_dict, "self, state_dict, prefix, "
          "local_metadata, strict, missing_keys, unexpected_keys, error_msgs", context=True),
    entry("get_extra_state", _never_called("get_extra_state"), "self"),
    entry("set_extra_state", _never_called("set_extra_state"), "self, state"),
    *(entry(f"register_{kind}_hook", lambda m, hook, kind=kind: module_hooks.register(
        m, kind, hook, False), "self, hook") for kind in (
        "load_state_dict_post", "load_state_dict_pre", "state_dict_pre")),
    entry("register_state_dict_post_hook", lambda m, hook: module_hooks.register(
        m, "state_dict", hook, False), "self, hook"),
)
