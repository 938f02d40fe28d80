"""nn.Module's members by name: register_parameter and register_buffer with torch's checks,
and get_submodule, get_parameter and get_buffer along dotted paths."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.builtins import class_text
from gradcli.language.namespaces.modules import Module, UserModule, check_leaf_parameter
from gradcli.language.namespaces.type_names import torch_typename
from gradcli.language.runtime.exceptions import is_attribute_error
from gradcli.language.runtime.frames import GradRuntimeError
from gradcli.language.runtime.signatures import entry, table


def _has_attribute(module: Module, name: str) -> bool:
    """hasattr(module, name)."""
    try:
        module.attribute(name)
    except (errors.TorchError, GradRuntimeError) as error:  # (raised by a class's __getattr__)
        if not is_attribute_error(error):
            raise
        return False
    return True


def _check_member_name(module: Module, what: str, name, into: dict) -> None:
    """register_parameter's and register_buffer's checks of the module and the name."""
    if isinstance(module, UserModule) and not module.initialized:
        raise errors.TorchError("AttributeError",
                                f"cannot assign {what} before Module.__init__() call")
    if not isinstance(name, str):
        raise errors.type_error(f"{what} name should be a string. Got {torch_typename(name)}")
    problem = (f'{what} name can\'t contain "."' if "." in name else
               f'{what} name can\'t be empty string ""' if name == "" else
               f"attribute '{name}' already exists"
               if name not in into and _has_attribute(module, name) else None)
    if problem is not None:
        raise errors.TorchError("KeyError", repr(problem), (problem,))


def register_buffer(module: Module, name, tensor, persistent: bool = True) -> None:
    _check_member_name(module, "buffer", name, module.buffers)
    if tensor is not None and not isinstance(tensor, Tensor):
        raise errors.type_error(f"cannot assign '{torch_typename(tensor)}' object to buffer "
                                f"'{name}' (torch Tensor or None required)")
    module.buffers[name] = tensor
    module.non_persistent = (module.non_persistent - {name}) if persistent else (
        module.non_persistent | {name})


def register_parameter(module: Module, name, param) -> None:
    _check_member_name(module, "parameter", name, module.params)
    if param is not None and not (isinstance(param, Tensor) and param.is_parameter):
        raise errors.type_error(f"cannot assign '{torch_typename(param)}' object to parameter "
                                f"'{name}' (torch.nn.Parameter or None required)")
    if param is not None:
        check_leaf_parameter(name, param)
    module.params[name] = param


def add_module(module: Module, name, child) -> None:
    """Module.add_module (and register_module, and ModuleDict's item assignment), with torch's
    checks in torch's order."""
    if child is not None and not isinstance(child, Module):
        raise errors.type_error(f"{torch_typename(child)} is not a Module subclass")
    if not isinstance(name, str):
        raise errors.type_error(f"module name should be a string. Got {torch_typename(name)}")
    problem = (f"attribute '{name}' already exists"
               if name not in module.children and _has_attribute(module, name) else
               f'module name can\'t contain ".", got: {name}' if "." in name else
               'module name can\'t be empty string ""' if name == "" else None)
    if problem is not None:
        raise errors.TorchError("KeyError", repr(problem), (problem,))
    module.children[name] = child


def get_submodule(module: Module, target) -> Module:
    """Module.get_submodule: the module at a dotted path of attribute names."""
    if target == "":
        return module
    if not isinstance(target, str):
        raise errors.no_attribute(target, "split")
    for item in target.split("."):
        if not _has_attribute(module, item):
            raise errors.TorchError("AttributeError",
                                    f"{module.class_name} has no attribute `{item}`")
        module = module.attribute(item)
        if not isinstance(module, Module):
            raise errors.TorchError("AttributeError", f"`{item}` is not an nn.Module")
    return module


def set_submodule(module: Module, target, child, strict: bool = False) -> None:
    """Module.set_submodule: `child` put at a dotted path, under a module that exists (with
    strict, in place of a module already there)."""
    if target == "":
        raise errors.value_error("Cannot set the submodule without a target name!")
    if not isinstance(target, str):
        raise errors.no_attribute(target, "split")
    path, _, name = target.rpartition(".")
    if not isinstance(child, Module):
        raise errors.value_error(f"`module` is not an nn.Module, found {class_text(child)}")
    parent = get_submodule(module, path) if path else module
    present = _has_attribute(parent, name)
    if strict and not present:
        raise errors.TorchError("AttributeError", f"{parent.class_name} has no attribute `{name}`")
    if present and not isinstance(parent.attribute(name), Module):
        raise errors.TorchError("AttributeError", f"`{name}` is not an nn.Module")
    parent.set_attribute(name, child)


def _get_member(module: Module, target, what: str):
    """Module.get_parameter and get_buffer: the last name of a dotted path, on its module."""
    if not isinstance(target, str):
        raise errors.no_attribute(target, "rpartition")
    path, _, name = target.rpartition(".")
    owner = get_submodule(module, path)
    if not _has_attribute(owner, name):
        raise errors.TorchError("AttributeError",
                                f"{owner.class_name} has no attribute `{name}`")
    value = owner.attribute(name)
    if what == "parameter" and not (isinstance(value, Tensor) and value.is_parameter):
        raise errors.TorchError("AttributeError", f"`{name}` is not an nn.Parameter")
    if what == "buffer" and name not in owner.buffers:
        raise errors.TorchError("AttributeError", f"`{name}` is not a buffer")
    return value


MEMBER_METHODS = table(
    entry("register_buffer", register_buffer, "self, name, tensor, persistent=True"),
    entry("register_parameter", register_parameter, "self, name, param"),
    entry("add_module", add_module, "self, name, module"),
    entry("register_module", add_module, "self, name, module"),
    entry("get_submodule", get_submodule, "self, target"),
    entry("set_submodule", set_submodule, "self, target, module, strict=False"),
    entry("_get_name", lambda m: m.class_name, "self"),
    entry("get_parameter", lambda m, target: _get_member(m, target, "parameter"),
          "self, target"),
    entry("get_buffer", lambda m, target: _get_member(m, target, "buffer"), "self, target"),
)
