"""Classes a program derives from nn.Module or another torch.nn module class (`class
MyLinear(nn.Linear)`): their instances, and the torch class's __init__ that super().__init__()
reaches (or that a subclass without an __init__ inherits)."""

from __future__ import annotations

from gradcli.engine import creation, errors
from gradcli.language.namespaces.module_reset import RESET_METHODS
from gradcli.language.namespaces.modules import Module, ModuleKind, UserModule, fill
from gradcli.language.runtime import classes
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.protocols import CLASS_METHODS
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import type_name


def instance_class(kind: ModuleKind) -> type:
    """The host class of the instances: UserModule, and the torch class's own host when it has
    one (its methods, and isinstance checks written against it)."""
    if kind.host is Module:
        return UserModule
    return type(kind.host.__name__, (UserModule, kind.host), {"__slots__": ()})


def _module_init(module, *args, **kwargs) -> None:
    """nn.Module.__init__ (which names the instance's class in its errors)."""
    name = f"{type_name(module)}.__init__()"
    if not isinstance(module, UserModule):  # nn.Module.__init__(5)
        raise errors.TorchError("AttributeError", f"'{type_name(module)}' object has no "
                                "attribute 'call_super_init'")
    if kwargs:
        raise errors.type_error(f"{name} got an unexpected keyword argument "
                                f"'{next(iter(kwargs))}'")
    if args:
        raise errors.type_error(f"{name} takes 1 positional argument but {len(args) + 1} were "
                                "given")
    # a second call starts the module's tables anew, as torch's sets them (plain attributes stay)
    module.params, module.buffers, module.children, module.hooks = {}, {}, {}, None
    module.non_persistent, module.attrs["training"] = frozenset(), True
    module.initialized = True


def _class_init(kind: ModuleKind):
    """The torch class's __init__: nn.Module's, then the class's own building. Where torch's
    __init__ ends by calling self.reset_parameters(), a subclass's override of it runs instead
    of the class's draws (which leave the generator as they found it)."""
    def init(module, *values, **keywords) -> None:
        if not isinstance(module, UserModule) or module.kind is not kind:
            raise errors.type_error("super(type, obj): obj must be an instance or subtype of "
                                    "type")
        module.initialized = True
        override = kind.name in RESET_METHODS and \
            module.cls.find("reset_parameters") is not classes.MISSING
        generator = creation.DEFAULT_GENERATOR.generator if override else None
        state = generator.get_state() if override else None
        fill(module, *values, **keywords)
        if override:
            generator.set_state(state)
            module.cls.runtime.call(module.attribute("reset_parameters"), [], {})
    return entry("__init__", init, "self, " + kind.options, qualname=f"{kind.name}.__init__")


def _class_attribute(kind: ModuleKind, cls, name: str):
    """MyLinear.forward and the like: the torch class's, a classmethod (Embedding's
    from_pretrained) bound to the program's class."""
    found = CLASS_METHODS.get(kind.host, {}).get(name, classes.MISSING)
    if isinstance(found, BoundMethod) and found.receiver is kind.type:
        return BoundMethod(cls, found.builtin)
    return found


# the special methods torch 2.13's nn.Module and nn.Sequential define (vars(nn.Module))
_MODULE_DUNDERS = frozenset(("__call__", "__delattr__", "__dir__", "__getattr__", "__getstate__",
                             "__init__", "__repr__", "__setattr__", "__setstate__"))
_SEQUENTIAL_DUNDERS = frozenset(("__add__", "__delitem__", "__getitem__", "__iadd__", "__imul__",
                                 "__iter__", "__len__", "__mul__", "__rmul__", "__setitem__"))


def _defines(kind: ModuleKind, name: str) -> bool:
    """Whether the torch class of `kind` (with nn.Module) defines `name`."""
    return name in CLASS_METHODS.get(kind.host, {}) or name in _MODULE_DUNDERS or (
        kind.sequence and name in _SEQUENTIAL_DUNDERS)


def register(kinds: list) -> None:
    """Let programs derive their own classes from each of torch.nn's module classes."""
    for kind in kinds:
        make = instance_class(kind)
        classes.BASE_INSTANCES[kind.type] = \
            lambda cls, args, make=make, kind=kind: make(cls, kind)
        classes.BASE_INITS[kind.type] = entry(
            "__init__", _module_init, "self, *args, **kwargs", qualname="Module.__init__") \
            if kind.host is Module else _class_init(kind)
        classes.BASE_INIT_INHERITED.add(kind.type)
        classes.BASE_CLASS_ATTRIBUTES[kind.type] = \
            lambda cls, name, kind=kind: _class_attribute(kind, cls, name)
        classes.BASE_DEFINES[kind.type] = lambda name, kind=kind: _defines(kind, name)
        classes.BUILTIN_ANCESTORS[kind.host] = kind.type
