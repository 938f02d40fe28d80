"""torch.nn's keyed and parameter containers: ModuleDict, ParameterList and ParameterDict, with
torch's item access, editing methods and reprs. Their rows are in nn_table.KINDS."""

from __future__ import annotations

from collections import OrderedDict

from gradcli.engine import errors, parameters
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.module_members import add_module
from gradcli.language.namespaces.modules import Module, construct
from gradcli.language.namespaces.type_names import torch_typename
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.calls import get_item
from gradcli.language.runtime.coercions import length
from gradcli.language.runtime.values import abc_iterable, iterate, type_name


def _as_parameter(value):
    """A plain tensor put into a parameter container becomes a Parameter, as in torch."""
    if isinstance(value, Tensor) and not value.is_parameter:
        return parameters.parameter(value, True)
    return value


def _pairs(values, kind: str, wording: str):
    """update()'s argument as torch's ModuleDict and ParameterDict read it: a mapping's items,
    or an iterable of (key, value) pairs, each checked as it comes (`kind` and `wording` name
    the container in the messages: ParameterDict's wording is "ParametersDict")."""
    if isinstance(values, dict):
        return list(values.items())
    if isinstance(values, _Keyed):
        return list(values.entries().items())
    if not abc_iterable(values):
        raise errors.type_error(f"{wording}.update should be called with an iterable of key/value "
                                f"pairs, but got {type_name(values)}")
    return _checked_pairs(values, kind)


def _checked_pairs(values, kind: str):
    for number, pair in enumerate(iterate(values)):
        if not abc_iterable(pair):
            raise errors.type_error(f"{kind} update sequence element #{number} should be "
                                    f"Iterable; is{type_name(pair)}")
        if length(pair) != 2:
            raise errors.value_error(f"{kind} update sequence element #{number} has length "
                                     f"{length(pair)}; 2 is required")
        yield get_item(pair, 0), get_item(pair, 1)


class _Keyed(Module):
    """A container addressed by string keys, whose entries live in `entries()`."""

    __slots__ = ()
    is_sequence = True  # iteration, len, `in` and [] go through members/length/item
    item_methods = Module.item_methods | {"__contains__"}

    def entries(self) -> dict:
        raise NotImplementedError

    def store(self, key: str, value) -> None:
        raise NotImplementedError

    def members(self) -> list:
        return list(self.entries())

    def length(self) -> int:
        return len(self.entries())

    def item(self, key):
        entries = self.entries()
        if key not in entries:
            raise errors.TorchError("KeyError", repr(key), value_args=(key,))
        return entries[key]

    def set_item(self, key, value) -> None:
        self.store(key, value)

    def delete_item(self, key) -> None:
        self.item(key)
        del self.entries()[key]


def _pop(container: _Keyed, key):
    value = container.item(key)
    container.delete_item(key)
    return value


def _update(container: _Keyed, values) -> None:
    for key, value in _pairs(values, "ModuleDict", "ModuleDict"):
        container.store(key, value)


KEYED_METHODS = table(
    entry("keys", lambda c: c.entries().keys(), "self"),
    entry("values", lambda c: c.entries().values(), "self"),
    entry("items", lambda c: c.entries().items(), "self"),
    entry("pop", _pop, "self, key"),
    entry("update", _update, "self, modules"),
    entry("clear", lambda c: c.entries().clear(), "self"),
)


class ModuleDictHost(_Keyed):
    """nn.ModuleDict: child modules by name."""

    __slots__ = ()
    METHODS = KEYED_METHODS

    def entries(self) -> dict:
        return self.children

    def store(self, key: str, value) -> None:
        add_module(self, key, value)


class ParameterDictHost(_Keyed):
    """nn.ParameterDict: parameters by name."""

    __slots__ = ()

    def entries(self) -> dict:
        return self.params

    def store(self, key: str, value) -> None:
        self._register(self.params, _parameter_key(key), _as_parameter(value))

    def item(self, key):
        """torch's: an entry is an attribute, read by its key (a string)."""
        if _parameter_key(key) not in self.params:
            raise errors.TorchError("AttributeError",
                                    f"'ParameterDict' object has no attribute '{key}'")
        return self.params[key]

    def delete_item(self, key) -> None:
        _Keyed.item(self, key)  # a KeyError, from torch's own key list
        del self.params[key]


def _parameter_key(key) -> str:
    if not isinstance(key, str):
        raise errors.type_error("Index given to ParameterDict cannot be used as a key as it is not "
                                f"a string (type is '{type_name(key)}'). Open an issue on github "
                                "if you need non-string keys.")
    return key


def _get_parameter(container: ParameterDictHost, key, default=None):
    return container.item(key) if key in container.params else default


class ParameterListHost(Module):
    """nn.ParameterList: parameters named 0, 1, ..."""

    __slots__ = ()
    is_sequence = True
    item_methods = Module.item_methods - {"__delitem__"}

    def numbered(self) -> dict:
        return self.params

    def set_item(self, key, value) -> None:
        self.params[self._key_at(key)] = _as_parameter(value)

    def delete_item(self, key) -> None:
        TableObject.delete_item(self, key)


def _append(container: ParameterListHost, value) -> ParameterListHost:
    container.params[str(len(container.params))] = _as_parameter(value)
    return container


def _extend(container: ParameterListHost, values) -> ParameterListHost:
    for value in iterate(values):
        _append(container, value)
    return container


ParameterListHost.METHODS = table(entry("append", _append, "self, value"),
                                  entry("extend", _extend, "self, values"))


def build_module_dict(module: ModuleDictHost, modules=None) -> None:
    if modules is not None:
        _update(module, modules)


def build_parameter_list(module: ParameterListHost, values=None) -> None:
    if values is not None:
        _extend(module, values)


def build_parameter_dict(module: ParameterDictHost, parameters=None) -> None:
    if parameters is not None:
        _update_parameters(module, parameters)


def _update_parameters(container: ParameterDictHost, values) -> None:
    """ParameterDict.update: a plain mapping's entries in sorted key order, as torch adds them."""
    pairs = _pairs(values, "ParameterDict", "ParametersDict")
    if isinstance(values, dict) and not isinstance(values, OrderedDict):
        pairs.sort(key=lambda pair: pair[0])
    for key, value in pairs:
        container.store(key, value)


def _fresh_parameter_dict(container: ParameterDictHost, pairs) -> ParameterDictHost:
    """A plain nn.ParameterDict holding `pairs` in order, as torch's copy() and fromkeys() make."""
    made = construct(container.kind)
    for key, value in pairs:
        made.store(key, value)
    return made


def _setdefault(container: ParameterDictHost, key, default=None):
    if key not in container.params:
        container.store(key, default)
    return container.item(key)


def _popitem(container: ParameterDictHost):
    if not container.params:
        message = "popitem(): dictionary is empty"  # the OrderedDict of keys torch pops
        raise errors.TorchError("KeyError", repr(message), value_args=(message,))
    key = next(reversed(container.params))
    return key, _pop(container, key)


ParameterDictHost.METHODS = KEYED_METHODS | table(
    entry("update", _update_parameters, "self, parameters"),
    entry("get", _get_parameter, "self, key, default=None"),
    entry("copy", lambda c: _fresh_parameter_dict(c, c.params.items()), "self"),
    entry("fromkeys", lambda c, keys, default=None: _fresh_parameter_dict(
        c, [(key, default) for key in iterate(keys)]), "self, keys, default=None"),
    entry("setdefault", _setdefault, "self, key, default=None"),
    entry("popitem", _popitem, "self"))


def not_callable(ctx, module, *inputs):
    raise errors.runtime(f"{module.class_name} should not be called.")


def _described(value, dtype_text) -> str:
    if isinstance(value, Tensor):
        size = "x".join(str(n) for n in value.shape)
        kind = "Parameter" if value.is_parameter else "Tensor"
        return f"{kind} containing: [{dtype_text(value)} of size {size}]"
    return f"Object of type: {type_name(value)}"


def parameter_list_repr(module: ParameterListHost, printer) -> str:
    return "\n".join(f"  ({key}): " + _described(value, lambda t: printer.repr(t.dtype))
                     for key, value in module.params.items())


def parameter_dict_repr(module: ParameterDictHost, printer) -> str:
    return "\n".join(f"  ({key}): " + _described(value, torch_typename)
                     for key, value in module.params.items())

