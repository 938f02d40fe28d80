"""torch.nn.utils.parametrize as torch's Python runs it: ParametrizationList, the
`Parametrized<Name>` class a module takes with a property per parametrized tensor, the cache,
and removing parametrizations, with torch's checks and texts in its order."""

from __future__ import annotations

from gradcli.engine import errors, grad_api, parameters
from gradcli.engine.state import grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.modules import (Members, Module, ModuleKind,
                                                 Parametrized, check_module)
from gradcli.language.namespaces.builtins import type_of
from gradcli.language.namespaces.nn_table import KINDS
from gradcli.language.runtime import attributes
from gradcli.language.runtime.frames import BoundMethod, ContextManager, GradRuntimeError
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate, type_name

PATH = "torch.nn.utils.parametrize"
MODULE_DICT = next(kind for kind in KINDS if kind.name == "ModuleDict")
MODULE_LIST = next(kind for kind in KINDS if kind.name == "ModuleList")


class Cache:
    """parametrize.cached()'s state: how many blocks are open, and the values computed in them
    by (module, tensor name)."""

    enabled = 0
    values: dict = {}


def _has(value, name: str) -> bool:
    """hasattr(value, name)."""
    try:
        attributes.get(value, name)
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind != "AttributeError":
            raise
        return False
    return True


def _is_sequence(value) -> bool:
    return isinstance(value, (list, tuple, str, range))


def _size(shape: tuple) -> str:
    return f"torch.Size({list(shape)})"


def _set(dest: Tensor, src: Tensor) -> None:
    """dest.set_(src) under no_grad: dest takes src's values, keeping its identity."""
    grad_api.assign_data(dest, src)
    dest.bump_version()


def _register_parameter_or_buffer(module: Module, name: str, value: Tensor) -> None:
    (module.params if value.is_parameter else module.buffers)[name] = value


def _right_inverse(ctx, parametrization, value):
    """parametrization.right_inverse(value), or `value` when it raises NotImplementedError."""
    try:
        return ctx.call(attributes.get(parametrization, "right_inverse"), [value], {})
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind != "NotImplementedError":
            raise
        return value


def _build_list(ctx, plist: Module, modules, original, unsafe=False) -> None:
    """ParametrizationList.__init__: the parametrizations, then `original` (or original0, ...)
    as right_inverse makes it, then (unless unsafe) a check that the forward keeps its dtype
    and shape."""
    modules = list(iterate(modules))
    if not modules:
        raise errors.value_error("ParametrizationList requires one or more modules.")
    for child in modules:
        check_module(child)
        plist.children[str(len(plist.children))] = child
    plist.attrs["unsafe"] = unsafe
    with grad_mode(False):
        new = original
        for child in reversed(modules):
            if _has(child, "right_inverse"):
                new = _right_inverse(ctx, child, new)
    if not isinstance(new, Tensor) and not _is_sequence(new):
        raise errors.value_error("'right_inverse' must return a Tensor or a Sequence of tensors "
                                 f"(list, tuple...). Got {type_name(new)}")
    is_tensor = isinstance(new, Tensor)
    plist.attrs.update(is_tensor=is_tensor, ntensors=1 if is_tensor else len(new))
    if is_tensor:
        if original.dtype is not new.dtype:
            raise errors.value_error(
                "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                f"original.dtype: {ctx.printer.str(original.dtype)}\n"
                f"right_inverse(original).dtype: {ctx.printer.str(new.dtype)}")
        with grad_mode(False):
            _set(original, new)
        _register_parameter_or_buffer(plist, "original", original)
    else:
        for i, part in enumerate(iterate(new)):
            if not isinstance(part, Tensor):
                raise errors.value_error(
                    "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                    f"tuple...). Got element {i} of the sequence with type {type_name(part)}.")
            if original.is_parameter:
                part = parameters.parameter(part, original.requires_grad)
            part.requires_grad = original.requires_grad
            _register_parameter_or_buffer(plist, f"original{i}", part)
    if not unsafe:
        z = ctx.call(plist, [], {})
        if not isinstance(z, Tensor):
            raise errors.value_error(f"A parametrization must return a tensor. Got "
                                     f"{type_name(z)}.")
        if z.dtype is not original.dtype:
            raise errors.value_error(
                "Registering a parametrization may not change the dtype of the tensor, unless "
                "`unsafe` flag is enabled.\n"
                f"unparametrized dtype: {ctx.printer.str(original.dtype)}\n"
                f"parametrized dtype: {ctx.printer.str(z.dtype)}")
        if z.shape != original.shape:
            raise errors.value_error(
                "Registering a parametrization may not change the shape of the tensor, unless "
                "`unsafe` flag is enabled.\n"
                f"unparametrized shape: {_size(original.shape)}\n"
                f"parametrized shape: {_size(z.shape)}")


def _list_forward(ctx, plist: Module):
    """ParametrizationList.forward: the first parametrization on the originals, then the rest."""
    if plist.attrs["is_tensor"]:
        x = ctx.call(plist.item(0), [plist.attribute("original")], {})
    else:
        originals = [plist.attribute(f"original{i}") for i in range(plist.attrs["ntensors"])]
        x = ctx.call(plist.item(0), originals, {})
    index = 1
    while _has(plist, str(index)):
        x = ctx.call(plist.item(index), [x], {})
        index += 1
    return x


def _list_right_inverse(ctx, plist: Module, value) -> None:
    """ParametrizationList.right_inverse: the right inverses in reverse order, stored in the
    originals."""
    with grad_mode(False):
        for child in reversed(list(plist.children.values())):
            if not _has(child, "right_inverse"):
                raise errors.runtime(f"parametrization {child.class_name} does not implement "
                                     "right_inverse.")
            value = ctx.call(attributes.get(child, "right_inverse"), [value], {})
        if plist.attrs["is_tensor"]:
            original = plist.attribute("original")
            if not isinstance(value, Tensor):
                raise errors.value_error(f"`right_inverse` should return a tensor. Got "
                                         f"{type_name(value)}")
            if value.dtype is not original.dtype:
                raise errors.value_error(
                    f"The tensor returned by `right_inverse` has dtype "
                    f"{ctx.printer.str(value.dtype)} while `original` has dtype "
                    f"{ctx.printer.str(original.dtype)}")
            _set(original, value)
            return
        if not _is_sequence(value):
            raise errors.value_error("'right_inverse' must return a sequence of tensors. "
                                     f"Got {type_name(value)}.")
        count = plist.attrs["ntensors"]
        if len(value) != count:
            raise errors.value_error("'right_inverse' must return a sequence of tensors of "
                                     f"length {count}. Got a sequence of length {len(value)}.")
        for i, tensor in enumerate(iterate(value)):
            original = plist.attribute(f"original{i}")
            if not isinstance(tensor, Tensor):
                raise errors.value_error(
                    "'right_inverse' must return a sequence of tensors or reference-type "
                    f"opaques. Got element {i} of type {type_name(tensor)}.")
            if original.dtype is not tensor.dtype:
                raise errors.value_error(
                    f"Tensor {i} returned by `right_inverse` has dtype "
                    f"{ctx.printer.str(tensor.dtype)} while `original{i}` has dtype "
                    f"{ctx.printer.str(original.dtype)}")
            _set(original, tensor)


class ParametrizationListHost(MODULE_LIST.host):
    """ParametrizationList: a ModuleList of parametrizations holding the original tensors."""

    __slots__ = ()
    METHODS = table(entry("right_inverse", _list_right_inverse, "self, value", context=True,
                          qualname="ParametrizationList.right_inverse"))


LIST_KIND = ModuleKind("ParametrizationList", "container", "", _list_forward, "",
                       host=ParametrizationListHost, sequence=True, grouped=True, path=PATH)


def _new_list(ctx, kind, modules, original, unsafe=False) -> Module:
    plist = ParametrizationListHost(LIST_KIND)
    _build_list(ctx, plist, modules, original, unsafe)
    return plist


LIST_TYPE = PyType(f"{PATH}.ParametrizationList", (ParametrizationListHost,), BoundMethod(
    LIST_KIND, entry("__init__", _new_list, "self, modules, original, unsafe=False",
                     context=True, qualname="ParametrizationList.__init__")))
LIST_KIND.type = LIST_TYPE


def _parametrizations(module: Module) -> Module:
    return attributes.get(module, "parametrizations")


def _property(ctx, module: Module, name: str) -> tuple:
    """The getter and setter torch's _inject_property puts on the module's class."""
    def get_parametrized(owner: Module):
        parametrization = _parametrizations(owner).item(name)
        if not Cache.enabled:
            return ctx.call(parametrization, [], {})
        key = (id(owner), name)
        tensor = Cache.values.get(key)
        if tensor is None:
            tensor = Cache.values[key] = ctx.call(parametrization, [], {})
        return tensor

    def set_original(owner: Module, value) -> None:
        ctx.call(attributes.get(_parametrizations(owner).item(name), "right_inverse"), [value],
                 {})
    return get_parametrized, set_original


def is_parametrized(module, tensor_name=None) -> bool:
    try:
        found = attributes.get(module, "parametrizations")
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind != "AttributeError":
            raise
        return False
    if not isinstance(found, Module) or found.kind is not MODULE_DICT:
        return False
    if tensor_name is None:
        return len(found.children) > 0
    return tensor_name in found.children


def _check_registered(ctx, module: Module, name: str, parametrization) -> None:
    """register_parametrization's checks of a parametrization added to a parametrized tensor."""
    y = attributes.get(module, name)
    x = ctx.call(parametrization, [y], {})
    if not isinstance(x, Tensor):
        raise errors.value_error(f"A parametrization must return a tensor. Got {type_name(x)}.")
    str_ = ctx.printer.str
    if x.dtype is not y.dtype:
        raise errors.value_error(
            "Registering a parametrization may not change the dtype of the tensor, unless the "
            f"`unsafe` flag is enabled.\nmodule.{name}.dtype: {str_(y.dtype)}\n"
            f"parametrization(module.{name}).dtype: {str_(x.dtype)}")
    if x.shape != y.shape:
        raise errors.value_error(
            "Registering a parametrization may not change the shape of the tensor, unless the "
            f"`unsafe` flag is enabled.\nmodule.{name}.shape: {_size(y.shape)}\n"
            f"parametrization(module.{name}).shape: {_size(x.shape)}")
    if not _has(parametrization, "right_inverse"):
        return
    try:
        z = ctx.call(attributes.get(parametrization, "right_inverse"), [x], {})
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind != "NotImplementedError":
            raise
        return
    if not isinstance(z, Tensor):
        raise errors.value_error(f"parametrization.right_inverse must return a tensor. Got: "
                                 f"{type_name(z)}")
    if z.dtype is not y.dtype:
        raise errors.value_error(
            "The tensor returned by parametrization.right_inverse must have the same dtype as "
            f"module.{name}, unless the `unsafe` flag is enabled.\nmodule.{name}.dtype: "
            f"{str_(y.dtype)}\nreturned dtype: {str_(z.dtype)}")
    if z.shape != y.shape:
        raise errors.value_error(
            "The tensor returned by parametrization.right_inverse must have the same shape as "
            f"module.{name}, unless the `unsafe` flag is enabled.\nmodule.{name}.shape: "
            f"{_size(y.shape)}\nreturned shape: {_size(z.shape)}")


def _inject_new_class(module: Module) -> None:
    """The module's class becomes Parametrized<Name>, derived from its class."""
    base = module.language_type
    name = f"{PATH}.Parametrized{module.class_name}"
    module.parametrized = Parametrized(PyType(name, (type(module),)), base, {})
    module.params = Members(module, module.params)
    module.buffers = Members(module, module.buffers)


def register_parametrization(ctx, module, tensor_name, parametrization, unsafe=False):
    ctx.call(attributes.get(parametrization, "train"), [attributes.get(module, "training")], {})
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_registered(ctx, module, tensor_name, parametrization)
        plist = _parametrizations(module).item(tensor_name)
        ctx.call(attributes.get(plist, "append"), [parametrization], {})
        plist.attrs["unsafe"] = plist.attrs["unsafe"] or unsafe
    elif isinstance(module, Module) and (tensor_name in module.buffers
                                         or tensor_name in module.params):
        original = attributes.get(module, tensor_name)
        plist = _new_list(ctx, LIST_KIND, [parametrization], original, unsafe)
        module.delete_attribute(tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.set_attribute("parametrizations", MODULE_DICT.host(MODULE_DICT))
        if _has(module, tensor_name):
            raise errors.TorchError("AssertionError",
                                    f"Module already has an attribute named '{tensor_name}'")
        module.parametrized.properties[tensor_name] = _property(ctx, module, tensor_name)
        _parametrizations(module).set_item(tensor_name, plist)
    else:
        raise errors.value_error(f"Module '{ctx.printer.str(module)}' does not have a "
                                 "parameter, a buffer, or a parametrized element with name "
                                 f"'{tensor_name}'")
    return module


def remove_parametrizations(ctx, module, tensor_name, leave_parametrized=True):
    if not is_parametrized(module, tensor_name):
        raise errors.value_error(f"Module {ctx.printer.str(module)} does not have a "
                                 f"parametrization on {tensor_name}")
    plist = _parametrizations(module).item(tensor_name)
    if plist.attrs["is_tensor"]:
        original = plist.attribute("original")
        if leave_parametrized:
            with grad_mode(False):
                t = attributes.get(module, tensor_name)
                _set(original, t)
    elif leave_parametrized:
        t = attributes.get(module, tensor_name)
        original = parameters.parameter(t) if t.requires_grad else t
    else:
        raise errors.value_error(
            "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
            "parametrized in terms of a sequence of tensors.")
    del module.parametrized.properties[tensor_name]
    _parametrizations(module).delete_item(tensor_name)
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        module.delete_attribute("parametrizations")
        module.parametrized = None
    return module


def type_before_parametrizations(module):
    if is_parametrized(module):
        return module.parametrized.base
    return type_of(module)


def _cached() -> ContextManager:
    def enter() -> None:
        Cache.enabled += 1

    def leave() -> None:
        Cache.enabled -= 1
        if not Cache.enabled:
            Cache.values = {}
    return ContextManager(enter, leave, label="contextlib._GeneratorContextManager")


PARAMETRIZE = Namespace(PATH, table(
    entry("register_parametrization", register_parametrization,
          "module, tensor_name, parametrization, *, unsafe=False", context=True),
    entry("is_parametrized", is_parametrized, "module, tensor_name=None"),
    entry("remove_parametrizations", remove_parametrizations,
          "module, tensor_name, leave_parametrized=True", context=True),
    entry("type_before_parametrizations", type_before_parametrizations, "module"),
    entry("cached", _cached, ""),
) | {"ParametrizationList": LIST_TYPE})
