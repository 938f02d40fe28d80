"""Python's `copy` module over the language's values: containers, tensors, modules and instances
of the program's classes are copied; everything else (numbers, strings, functions, classes,
dtypes, namespaces) is shared, as Python's deepcopy shares its atomic values."""

from __future__ import annotations

import copy
from collections import OrderedDict, defaultdict

import numpy as np

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import state_dict_metadata
from gradcli.language.runtime import classes
from gradcli.language.runtime.classes import UserInstance
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.uninitialized import KINDS as UNINITIALIZED, kind_of
from gradcli.language.runtime.values import Namespace, Size

_NOT_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")


def _module_type():
    from gradcli.language.namespaces.modules import Module  # the nn tables load on first use
    return Module


# torch's Tensor.__deepcopy__ for a subclass, whose new_empty() gives a plain tensor
_SUBCLASS_COPY = (
    "The default implementation of __deepcopy__() for non-wrapper subclasses only works for "
    "subclass types that implement new_empty() and for which that function returns another "
    "instance of the same subclass. You should either properly implement new_empty() for your "
    "subclass or override __deepcopy__() if it is intended behavior for new_empty() to return "
    "an instance of a different type.")


def snapshot_kinds() -> tuple:
    """The objects deepcopy copies attribute by attribute: modules and the program's instances."""
    return (_module_type(), UserInstance)


def _tensor_copy(t: Tensor, memo: dict) -> Tensor:
    """Tensor.__deepcopy__: a leaf's values, requires_grad and grad (Parameter.__deepcopy__:
    values and requires_grad only)."""
    if not t.is_leaf:
        raise errors.runtime(_NOT_LEAF)
    copied = Tensor(t.data.copy(), t.dtype, requires_grad=t.requires_grad)
    copied.is_parameter = t.is_parameter
    if kind_of(t):  # UninitializedParameter.__deepcopy__: another uninitialized one
        UNINITIALIZED[copied] = kind_of(t)
    memo[id(t)] = copied
    if t.grad is not None and not t.is_parameter:
        copied.grad = _deep(t.grad, memo)
    return copied


def _object_copy(value, memo: dict, copy_item):
    """A module or an instance of the program's class: Python's shallow copy of the object,
    whose attribute tables (and items, for a list or dict subclass) then hold `copy_item` of
    the original's."""
    copied = copy.copy(value)
    memo[id(value)] = copied
    copied.attrs = copy_item(value.attrs)
    if isinstance(value, _module_type()):
        copied.params = copy_item(value.params)
        copied.buffers = copy_item(value.buffers)
        copied.children = copy_item(value.children)
    if isinstance(value, dict):
        dict.clear(copied)
        dict.update(copied, {copy_item(key): copy_item(item) for key, item in value.items()})
    elif isinstance(value, list):
        list.__setitem__(copied, slice(None), [copy_item(item) for item in value])
    return copied


def _deep(value, memo: dict):
    if id(value) in memo:
        return memo[id(value)]
    if isinstance(value, Tensor) and classes.class_of(value) is not None:
        hook = classes.special_method(value, "__deepcopy__")  # a tensor subclass's own
        if hook is None:
            raise errors.runtime(_SUBCLASS_COPY)
        copied = memo[id(value)] = classes.call_bound(hook, [memo])
        return copied
    if isinstance(value, Tensor):
        return _tensor_copy(value, memo)
    if isinstance(value, np.ndarray):
        return value.copy()
    kind = type(value)
    if kind in (list, dict, OrderedDict, set):
        copied = kind()
        memo[id(value)] = copied
        if kind is list:
            copied.extend(_deep(item, memo) for item in value)
        elif kind is set:
            copied.update(_deep(item, memo) for item in value)
        else:
            copied.update((_deep(key, memo), _deep(item, memo)) for key, item in value.items())
            state_dict_metadata.carry(value, copied, lambda item: _deep(item, memo))
        return copied
    if kind is defaultdict:
        copied = defaultdict(value.default_factory)
        memo[id(value)] = copied
        copied.update((_deep(key, memo), _deep(item, memo)) for key, item in value.items())
        return copied
    if kind in (tuple, Size):
        items = tuple(_deep(item, memo) for item in value)
        same = all(a is b for a, b in zip(items, value))
        return value if same else kind(items)
    hook = _own_hook(value, "__deepcopy__")
    if hook is not None:
        copied = memo[id(value)] = classes.call_bound(hook, [memo])
        return copied
    if isinstance(value, snapshot_kinds()):
        return _object_copy(value, memo, lambda item: _deep(item, memo))
    return value


def _own_hook(value, name: str):
    """An instance's own __deepcopy__ / __copy__, which the copy module calls instead."""
    return classes.special_method(value, name) if isinstance(value, UserInstance) else None


def deepcopy(x, memo=None, _nil=None):
    """copy.deepcopy."""
    return _deep(x, {} if memo is None else memo)


def shallow_copy(x):
    """copy.copy: a new container or object holding the same items; a tensor's values are
    copied, as torch's reduction of a tensor rebuilds it."""
    kind = type(x)
    if kind in (list, dict, OrderedDict, set, defaultdict):
        copied = x.copy()  # an OrderedDict's copy by the copy module keeps its attributes
        if kind is OrderedDict:
            state_dict_metadata.carry(x, copied)
        return copied
    if isinstance(x, Tensor):
        copied = Tensor(x.data.copy(), x.dtype, requires_grad=x.requires_grad and x.is_leaf)
        copied.is_parameter = x.is_parameter
        return copied
    hook = _own_hook(x, "__copy__")
    if hook is not None:
        return classes.call_bound(hook, [])
    if isinstance(x, (_module_type(), UserInstance)):
        copied = copy.copy(x)  # the same tables, but its own attribute table, as a copied __dict__
        copied.attrs = dict(x.attrs)
        return copied
    return x


COPY = Namespace("copy", table(
    entry("deepcopy", deepcopy, "x, memo=None, _nil=[]"),
    entry("copy", shallow_copy, "x"),
))
