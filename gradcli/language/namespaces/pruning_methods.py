"""torch.nn.utils.prune's pruning classes as torch's Python code makes them: BasePruningMethod
(apply, apply_mask, prune, remove and the forward pre-hook call), PruningContainer and the
built-in methods (their masks in pruning_masks.py), each step a call a program could make, so
a program's subclasses override any of it."""

from __future__ import annotations

from gradcli.engine import errors, grad_api
from gradcli.language.namespaces import module_hooks, pruning_masks as masks
from gradcli.language.namespaces.builtins import type_of
from gradcli.language.namespaces.distribution_base import Calls
from gradcli.language.namespaces.module_members import register_buffer, register_parameter
from gradcli.language.namespaces.modules import Members, Module
from gradcli.language.namespaces.pruning_masks import call, get, has, same, size_text
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry

PATH = "torch.nn.utils.prune"
_BASE = "BasePruningMethod"


# ---- BasePruningMethod's own methods ----

def _tensor_name(ctx, method, module, doing: str = "") -> str:
    name = get(method, "_tensor_name")
    if name is None:
        raise errors.TorchError("AssertionError",
                                f"Module {ctx.printer.str(module)} has to be pruned{doing}")
    return name


def apply_mask(ctx, method, module):
    name = _tensor_name(ctx, method, module)
    mask = get(module, protocols.binary("+", name, "_mask"))
    orig = get(module, protocols.binary("+", name, "_orig"))
    return protocols.binary("*", Calls(ctx).method(mask, "to", dtype=get(orig, "dtype")), orig)


def _recompute(ctx, method, module, inputs) -> None:
    """The forward pre-hook: the pruned tensor recomputed from its original and its mask."""
    module.set_attribute(get(method, "_tensor_name"), call(ctx, method, "apply_mask", module))


def prune(ctx, method, t, default_mask=None, importance_scores=None):
    if importance_scores is not None and get(importance_scores, "shape") != get(t, "shape"):
        raise errors.TorchError("AssertionError", "importance_scores should have the same shape "
                                f"as tensor t, got {size_text(importance_scores)} vs {size_text(t)}")
    scores = t if importance_scores is None else importance_scores
    if default_mask is None:
        default_mask = Calls(ctx).torch("ones_like", t)
    return protocols.binary("*", t, call(ctx, method, "compute_mask", scores,
                                         default_mask=default_mask))


def remove_from(ctx, method, module) -> None:
    """BasePruningMethod.remove: the pruned tensor becomes the parameter `name` again."""
    name = _tensor_name(ctx, method, module, " before pruning can be removed")
    weight = call(ctx, method, "apply_mask", module)
    if has(module, name):
        module.delete_attribute(name)
    orig = _pop(module.params, protocols.binary("+", name, "_orig"))
    grad_api.assign_data(orig, weight)
    _pop(module.buffers, protocols.binary("+", name, "_mask"))
    module.set_attribute(name, orig)


def _pop(members: dict, key: str):
    if key not in members:
        raise errors.TorchError("KeyError", repr(key), (key,))
    return members.pop(key)


def pruning_hooks(module) -> list:
    """The module's forward pre-hooks that are pruning methods, in order."""
    hooks = module.hooks["forward_pre"] if isinstance(module, Module) and module.hooks else []
    return [hook for hook in hooks if is_method(hook.fn)]


def _composite(ctx, cls, module, name, args, kwargs):
    """The method to apply: a new one, or the module's pruning of `name` extended by it."""
    get(module, "_forward_pre_hooks")
    found = [hook for hook in pruning_hooks(module) if same(get(hook.fn, "_tensor_name"), name)]
    if len(found) > 1:
        raise errors.TorchError("AssertionError", "Avoid adding multiple pruning hooks to the "
                                f"same tensor {ctx.printer.format(name, '')} of module {ctx.printer.str(module)}. Use a "
                                "PruningContainer.")
    for hook in found:
        module.hooks["forward_pre"].remove(hook)
    method = ctx.call(cls, list(args), kwargs)
    method.set_attribute("_tensor_name", name)
    if not found:
        return method
    old = found[0].fn
    if not is_container(old):
        old = ctx.call(CONTAINER.type, [old], {})
    call(ctx, old, "add_pruning_method", method)
    return old


def apply(ctx, cls, module, name, *args, importance_scores=None, **kwargs):
    """BasePruningMethod.apply: `name` becomes `name_orig` (a parameter) times `name_mask` (a
    buffer), recomputed before each forward by the method as a forward pre-hook."""
    method = _composite(ctx, cls, module, name, args, kwargs)
    orig = get(module, name)
    if importance_scores is not None and get(importance_scores, "shape") != get(orig, "shape"):
        raise errors.TorchError("AssertionError", "importance_scores should have the same shape "
                                f"as parameter {ctx.printer.format(name, '')} of {ctx.printer.str(module)}, got "
                                f"{size_text(importance_scores)} vs {size_text(orig)}")
    scores = orig if importance_scores is None else importance_scores
    calls, fresh = Calls(ctx), not is_container(method)
    if fresh:
        register_parameter(module, name + "_orig", orig)
        _pop(module.params, name)
        if not isinstance(module.params, Members):  # torch's forwards read the attribute
            module.params = Members(module, module.params)
        default_mask = calls.torch("ones_like", orig)
    else:
        default_mask = calls.method(calls.method(get(module, name + "_mask"), "detach"), "clone",
                                    memory_format=masks.contiguous_format())
    try:
        mask = call(ctx, method, "compute_mask", scores, default_mask=default_mask)
        register_buffer(module, name + "_mask", mask)
        module.set_attribute(name, call(ctx, method, "apply_mask", module))
        module_hooks.register(module, "forward_pre", method, prepend=False)
    except Exception:
        if fresh:
            module.params[name] = module.params.pop(name + "_orig")
        raise
    return method


# ---- the classes ----

def _keyword_apply(names: tuple):
    """A built-in class's own apply: its arguments passed on to BasePruningMethod.apply by
    keyword, as torch's `super().apply(module, name, amount=amount, ...)`."""
    def run(ctx, cls, module, name, *values):
        keywords = dict(zip(names, values))
        scores = keywords.pop("importance_scores", None)
        return apply(ctx, cls, module, name, importance_scores=scores, **keywords)
    return run


class Kind:
    """A built-in pruning class: its PRUNING_TYPE, __init__ (attributes from the arguments),
    compute_mask and apply's signature (None: BasePruningMethod's)."""

    def __init__(self, name: str, pruning_type, compute_mask, init=None,
                 init_spec: str = "self, *args, **kwargs",
                 apply_spec: str | None = None, parent=None):
        self.name, self.pruning_type, self.compute_mask = name, pruning_type, compute_mask
        self.host = type(name, ((parent.host,) if parent else (PruningMethod,)),
                         {"__slots__": ()})
        self.host.KIND = self
        self.init = entry("__init__", init or _no_arguments, init_spec, context=True,
                          qualname=f"{name}.__init__")
        self.type = PyType(f"{PATH}.{name}", (self.host,), entry(
            name, lambda ctx, *a, **k: _construct(ctx, self, a, k), "*args, **kwargs",
            context=True), metaclass="ABCMeta")
        names = tuple(p.split("=")[0] for p in (apply_spec or "").split(", ") if p)
        owner = name if apply_spec is not None else _BASE
        self.apply = entry("apply", apply if apply_spec is None else _keyword_apply(names),
                           ", ".join(filter(None, ("cls, module, name", (
                               "*args, importance_scores=None, **kwargs" if apply_spec is None
                               else apply_spec)))),
                           context=True, qualname=f"{owner}.apply")
        self.members = {"apply_mask": entry("apply_mask", apply_mask, "self, module",
                                            context=True, qualname=f"{_BASE}.apply_mask"),
                        "prune": entry("prune", prune, "self, t, default_mask=None, "
                                       "importance_scores=None", context=True,
                                       qualname=f"{_BASE}.prune"),
                        "remove": entry("remove", remove_from, "self, module", context=True,
                                        qualname=f"{_BASE}.remove")}
        if compute_mask is not None:
            self.members["compute_mask"] = entry("compute_mask", compute_mask,
                                                 "self, t, default_mask", context=True,
                                                 qualname=f"{name}.compute_mask")
        if parent is not None:
            self.members = parent.members | self.members
        protocols.CLASS_METHODS[self.host] = {"apply": BoundMethod(self.type, self.apply),
                                              **self.members} | (
            {"PRUNING_TYPE": pruning_type} if pruning_type else {})
        classes.BASE_INSTANCES[self.type] = self.instance
        classes.BASE_INITS[self.type] = self.init
        classes.BASE_CLASS_ATTRIBUTES[self.type] = self.class_attribute
        classes.BASE_INIT_INHERITED.add(self.type)

    def instance(self, cls, args):
        """What a program's subclass makes (abstract while nothing defines compute_mask)."""
        if self.compute_mask is None and cls.find("compute_mask") is classes.MISSING:
            raise errors.type_error(f"Can't instantiate abstract class {cls.name} with abstract "
                                    "method compute_mask")
        return UserPruningMethod(cls)

    def class_attribute(self, cls, name: str):
        if name == "apply":
            return BoundMethod(cls, self.apply)
        if name == "PRUNING_TYPE" and self.pruning_type is not None:
            return self.pruning_type
        return classes.MISSING

    def member(self, method, name: str):
        """An attribute the class gives its instances (and a program's subclasses')."""
        if name == "PRUNING_TYPE" and self.pruning_type is not None:
            return self.pruning_type
        if name == "apply":
            return BoundMethod(method.language_type, self.apply)
        found = self.members.get(name)
        return classes.MISSING if found is None else BoundMethod(method, found)


def _no_arguments(ctx, method, *args, **kwargs) -> None:
    if args or kwargs:
        raise errors.type_error(f"{method.class_name}() takes no arguments")


def _construct(ctx, kind: Kind, args, kwargs):
    if (args or kwargs) and kind.init.fn is _no_arguments:
        _no_arguments(ctx, kind.host(), *args, **kwargs)
    if kind.compute_mask is None:
        raise errors.type_error(f"Can't instantiate abstract class {kind.name} with abstract "
                                "method compute_mask")
    method = kind.host()
    ctx.call(BoundMethod(method, kind.init), list(args), kwargs)
    return method


class PruningMethod(TableObject):
    """An instance of a built-in pruning class: its attributes, then its class's."""

    __slots__ = ("attrs",)
    KIND: Kind = None

    def __init__(self):
        self.attrs: dict = {}

    @property
    def language_type(self):
        return self.KIND.type

    def attribute(self, name: str):
        if name in self.attrs:
            return self.attrs[name]
        found = self.KIND.member(self, name)
        if found is classes.MISSING:
            raise self.missing(name)
        return found

    def set_attribute(self, name: str, value) -> None:
        self.attrs[name] = value

    def repr(self, printer) -> str:
        return f"<{PATH}.{self.KIND.name} object at 0x{id(self):x}>"

    def forward(self):
        return BoundMethod(self, _CALL)

    # a PruningContainer is a sequence of its methods
    def members(self) -> list:
        return list(self.attrs.get("_pruning_methods", ()))

    def length(self) -> int:
        return len(self.members())

    def item(self, key):
        return protocols.get_item(tuple(self.members()), key)


class UserPruningMethod(classes.Instance):
    """An instance of a program's subclass: its attributes and class, then the built-in base's
    members (apply_mask, remove, the hook call...)."""

    __slots__ = ()

    def host_attribute(self, name: str):
        return self.cls.base.hosts[0].KIND.member(self, name)

    def base_attribute(self, name: str):
        found = self.host_attribute(name)
        if found is classes.MISSING:
            raise errors.TorchError("AttributeError", f"'super' object has no attribute '{name}'")
        return found

    def forward(self):
        return self.dunder("__call__") or BoundMethod(self, _CALL)


_CALL = entry("__call__", _recompute, "self, module, inputs", context=True,
              qualname="BasePruningMethod.__call__")


def is_method(value) -> bool:
    return isinstance(value, (PruningMethod, UserPruningMethod))


def is_container(value) -> bool:
    host = value.cls.base.hosts[0] if isinstance(value, UserPruningMethod) else type(value)
    return issubclass(host, CONTAINER.host)


def _amount_init(ctx, method, amount, **more) -> None:
    masks.validate_amount_init(ctx, amount)
    method.set_attribute("amount", amount)
    for name, value in more.items():
        method.set_attribute(name, value)


def _container_init(ctx, container, *args) -> None:
    container.set_attribute("_pruning_methods", ())
    if len(args) == 1:
        container.set_attribute("_tensor_name", get(args[0], "_tensor_name"))
    for method in args:
        call(ctx, container, "add_pruning_method", method)


def add_pruning_method(ctx, container, method) -> None:
    if not is_method(method) and method is not None:
        raise errors.type_error(f"{ctx.printer.repr(type_of(method))} is not a "
                                "BasePruningMethod subclass")
    if method is not None and not same(get(container, "_tensor_name"),
                                       get(method, "_tensor_name")):
        raise errors.value_error(
            "Can only add pruning methods acting on the parameter named "
            f"'{ctx.printer.format(get(container, '_tensor_name'), '')}' to PruningContainer "
            f"{ctx.printer.str(container)}. Found "
            f"'{ctx.printer.format(get(method, '_tensor_name'), '')}'")
    container.set_attribute("_pruning_methods", protocols.binary(
        "+", get(container, "_pruning_methods"), (method,)))


BASE = Kind("BasePruningMethod", None, None)
CONTAINER = Kind("PruningContainer", None, masks.container_mask, _container_init, "self, *args",
                 parent=BASE)
CONTAINER.members["add_pruning_method"] = entry(
    "add_pruning_method", add_pruning_method, "self, method", context=True,
    qualname="PruningContainer.add_pruning_method")
CONTAINER.host.is_sequence = True
IDENTITY = Kind("Identity", "unstructured", lambda ctx, method, t, default_mask: default_mask,
                apply_spec="", parent=BASE)
RANDOM_UNSTRUCTURED = Kind("RandomUnstructured", "unstructured", masks.random_unstructured,
                           _amount_init, "self, amount", "amount", BASE)
L1_UNSTRUCTURED = Kind("L1Unstructured", "unstructured", masks.l1_unstructured, _amount_init,
                       "self, amount", "amount, importance_scores=None", BASE)
RANDOM_STRUCTURED = Kind(
    "RandomStructured", "structured",
    masks.random_structured,
    lambda ctx, m, amount, dim=-1: _amount_init(ctx, m, amount, dim=dim),
    "self, amount, dim=-1", "amount, dim=-1", BASE)
LN_STRUCTURED = Kind(
    "LnStructured", "structured", masks.ln_structured,
    lambda ctx, m, amount, n, dim=-1: _amount_init(ctx, m, amount, n=n, dim=dim),
    "self, amount, n, dim=-1", "amount, n, dim, importance_scores=None", BASE)
CUSTOM_FROM_MASK = Kind("CustomFromMask", "global", masks.custom_from_mask,
                        lambda ctx, m, mask: m.set_attribute("mask", mask), "self, mask",
                        "mask", BASE)
KINDS = (BASE, CONTAINER, IDENTITY, RANDOM_UNSTRUCTURED, L1_UNSTRUCTURED, RANDOM_STRUCTURED,
         LN_STRUCTURED, CUSTOM_FROM_MASK)
