"""Attribute access: every `obj.name` resolves through an explicit table for the object's kind."""

from __future__ import annotations

import collections
import random
import sys

import numpy as np

from gradcli.engine import errors, saved
from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.custom import FunctionNode
from gradcli.engine.devices import Device
from gradcli.engine.dtypes import DType
from gradcli.engine.hooks import RemovableHandle
from gradcli.engine.records import replace
from gradcli.engine.return_types import ReturnTypes
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.autograd_graph import NODE_HOOK_METHODS, raw_saved_attribute
from gradcli.language.namespaces.arrays import (ARRAY_ATTRS, ARRAY_METHODS, ARRAY_TYPES,
                                               RANDOM_STATE_KIND, RANDOM_STATE_METHODS, RNG_KIND,
                                               RNG_METHODS)
from gradcli.language.namespaces.public_names import unsupported
from gradcli.language.namespaces.python_random import RANDOM_METHODS
from gradcli.language.runtime.generators import GeneratorObject
from gradcli.language.runtime import (classes, exceptions, instance_dicts, operators, protocols,
                                      subclass_protocol)
from gradcli.language.runtime.tensor_subclasses import STATUS as SUBCLASSES
from gradcli.language.runtime.tensor_subclasses import class_of as class_of_tensor
from gradcli.language.runtime.coercions import index, length, truth
from gradcli.language.runtime.exceptions import stop_iteration
from gradcli.language.runtime.formatting import ByItem, str_format
from gradcli.language.runtime.objects import TableInstance, TableObject
from gradcli.language.runtime.pytypes import PyType, TypeForm, c_type, instance_module
from gradcli.language.runtime.frames import BoundMethod, UserFunction
from gradcli.language.runtime.signatures import C_CLASSES, Builtin, WrappedBuiltin, entry, table
from gradcli.language.runtime.torch_homes import home, program_sets, set_by_program
from gradcli.language.runtime.values import (DefaultDict, FlagNamespace, Generator, NamedTuple,
                                            Namespace, Size, builtin_kind, dict_from, iterate,
                                            python_method, type_name)

class _NodeAttrs(dict):
    """A node's attributes: these, and the `_saved_<name>` values of what it saved."""

    def get(self, name, default=None):
        if name.startswith(saved.PREFIX) and not isinstance(name, AccumulateGrad):
            return lambda n: saved.saved_value(n, name)
        if name.startswith(saved.RAW_PREFIX):
            return raw_saved_attribute(name)
        if name == "saved_tensors":
            return _function_saved_tensors
        return super().get(name, default)


def _function_saved_tensors(node):
    """A custom Function's grad_fn.saved_tensors: its ctx's (torch's node is the ctx)."""
    context = node.context if isinstance(node, FunctionNode) else None
    if context is None:
        return _missing(node, "saved_tensors")
    return context.attribute("saved_tensors")


NODE_ATTRS = _NodeAttrs({
    "next_functions": lambda n: tuple(n.next_edges),
    "metadata": lambda n: _metadata(n),
})
_METADATA: dict = {}


def _metadata(node) -> dict:
    """grad_fn.metadata: a dict of the program's own, one per node."""
    return _METADATA.setdefault(id(node), ({}, node))[0]
ACCUMULATE_GRAD_ATTRS = _NodeAttrs({**NODE_ATTRS, "variable": lambda n: n.variable})
NODE_METHODS = table(entry("name", lambda n: n.name(), "self")) | NODE_HOOK_METHODS
DTYPE_ATTRS = {
    "is_floating_point": lambda d: d.is_floating_point,
    "is_complex": lambda d: d.is_complex,
    "itemsize": lambda d: d.itemsize,
    "is_signed": lambda d: d.name not in ("uint8", "bool"),
}
RETURN_TYPES_ATTRS = {name: (lambda r, name=name: r.field(name)) for name in (
    "values", "indices", "sign", "logabsdet", "Q", "R", "U", "S", "V", "Vh", "eigenvalues",
    "eigenvectors", "primal", "tangent", "min", "max", "solution", "residuals", "rank",
    "singular_values", "mantissa", "exponent", "LU", "pivots", "info", "P", "L", "inverse",
    "result", "hist", "bin_edges", "cloned_coefficient")}
EXCEPTION_ATTRS = {"args": lambda e: e.args}

EXCEPTION_METHODS = exceptions.EXCEPTION_METHODS
STOP_ITERATION_ATTRS = EXCEPTION_ATTRS | {"value": lambda e: e.args[0] if e.args else None}
SYSTEM_EXIT_ATTRS = EXCEPTION_ATTRS | {"code": lambda e: (e.args[0] if len(e.args) == 1 else
                                                          e.args or None)}
SLICE_ATTRS = {"start": lambda s: s.start, "stop": lambda s: s.stop, "step": lambda s: s.step}
SLICE_METHODS = table(entry("indices", lambda s, length: s.indices(length), "self, length, /",
                            style="exact"))
COMPLEX_ATTRS = {"real": lambda z: z.real, "imag": lambda z: z.imag}
COMPLEX_METHODS = table(entry("conjugate", lambda z: z.conjugate(), "self, /", style="exact"))
NUMBER_ATTRS = {"real": lambda x: x.real, "imag": lambda x: x.imag}
INT_ATTRS = NUMBER_ATTRS | {"numerator": lambda n: n.numerator,
                            "denominator": lambda n: n.denominator}
HANDLE_METHODS = table(entry("remove", lambda h: h.remove(), "self"))
DEVICE_ATTRS = {"type": lambda d: d.type, "index": lambda d: d.index}
SIZE_METHODS = table(entry("numel", lambda s: _product(s), "self"))
# Methods whose arguments are iterables: what only the language can iterate (a user class with
# __iter__, a tensor) is handed to them as a list.
_TAKING_ITERABLES = frozenset("""extend extendleft join update union intersection difference
    symmetric_difference issubset issuperset isdisjoint difference_update intersection_update
    symmetric_difference_update""".split())


def _host_methods(cls: type, names: str) -> dict:
    """Python's own methods of a builtin container class, by name (from this fixed list): they
    take only plain values and raise Python's own errors, as `value.method(...)` calls them
    (`str.count() takes no keyword arguments`); a class method is bound to the value's class."""
    def method(name: str):
        host = cls.__dict__[name]
        if isinstance(host, _CLASS_METHOD):  # OrderedDict.fromkeys
            def run(receiver, *args, **kwargs):
                return host.__get__(receiver, type(receiver))(*args, **kwargs)
        elif name in _TAKING_ITERABLES:
            def run(receiver, *args, **kwargs):
                return host(receiver, *(_plain(a) for a in args), **kwargs)
        else:
            def run(receiver, *args, **kwargs):
                return host(receiver, *args, **kwargs)
        return entry(name, run, "self, *args, **kwargs", qualname=f"{cls.__name__}.{name}")
    return table(*(method(n) for n in names.split()))


_CLASS_METHOD = type(dict.__dict__["fromkeys"])


def _plain(value):
    if isinstance(value, (TableObject, Tensor)):
        return list(iterate(value))
    return value


_STR_NAMES = """capitalize casefold center count encode endswith expandtabs find index
    isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace
    istitle isupper join ljust lower lstrip partition removeprefix removesuffix replace rfind
    rindex rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title
    translate upper zfill"""
_SET_READING = """copy difference intersection isdisjoint issubset issuperset symmetric_difference
    union"""
def _index(ctx, sequence, item, start=0, stop=sys.maxsize):
    """list.index / tuple.index, finding with the language's == (torch's for tensors)."""
    start, stop = _slice_index(start), _slice_index(stop)
    window = (list(sequence) if isinstance(sequence, collections.deque) else sequence)[start:stop]
    found = operators.sequence_index(window, item)
    if found is None:
        raise errors.value_error(f"{ctx.printer.repr(item)} is not in "
                                 f"{'list' if isinstance(sequence, list) else 'deque'}"
                                 if isinstance(sequence, (list, collections.deque))
                                 else "tuple.index(x): x not in tuple")
    return found + (start if start >= 0 else max(len(sequence) + start, 0))


def _slice_index(value) -> int:
    """A bound of list.index's window: what has an __index__ (not None)."""
    if isinstance(value, (int, Tensor)) or classes.special_method(value, "__index__") is not None:
        return index(value)
    raise errors.type_error("slice indices must be integers or have an __index__ method")


def _count(sequence, item) -> int:
    return sum(1 for m in sequence if m is item or truth(operators.compare("==", m, item)))


def _remove(ctx, items: list, item) -> None:
    found = operators.sequence_index(items, item)
    if found is None:
        raise errors.value_error("list.remove(x): x not in list")
    del items[found]


def _c_method(cls: type, name: str, fn, spec: str, style: str, context: bool = False) -> Builtin:
    """A method of a class CPython writes in C, implemented here: its argument errors are
    worded by its calling convention (`style`, see signatures._WITHOUT_RECEIVER) and name it as
    CPython does (`list.count() takes exactly one argument (2 given)`). Called from the class
    (`list.count(x, 1)`), it takes a receiver of that class only."""
    if spec.startswith("self"):
        fn = _receiving(cls, name, fn, context)
    return entry(name, fn, spec, context=context, style=style,
                 qualname=f"{cls.__name__}.{name}")


def _receiving(cls: type, name: str, fn, context: bool):
    """`fn`, refusing a receiver of another class as a method descriptor does."""
    def method(*args, **kwargs):
        receiver = args[1] if context else args[0]
        if not isinstance(receiver, cls):
            raise errors.type_error(
                f"descriptor '{name}' for '{C_CLASSES[cls.__name__]}' objects doesn't apply to "
                f"a '{type_name(receiver)}' object")
        return fn(*args, **kwargs)
    return method


def _searches(cls: type) -> dict:
    """index and count, deque's index parsed as PyArg_ParseTuple does (`index() takes at least
    1 argument`), list's and tuple's by Argument Clinic (`index expected at least 1 argument`)."""
    return table(
        _c_method(cls, "index", _index, f"self, value, start=0, stop={sys.maxsize}, /",
                  "at_most" if cls is collections.deque else "expected", context=True),
        _c_method(cls, "count", _count, "self, value, /", "exact"))


def _removal(cls: type) -> dict:
    return table(_c_method(cls, "remove", _remove, "self, value, /", "exact", context=True))


def _counter_from_keys(cls, iterable, v=None):
    """Counter.fromkeys, which Counter refuses."""
    raise errors.TorchError("NotImplementedError", "Counter.fromkeys() is undefined.  Use "
                            "Counter(iterable) instead.")


def _from_keys(keys, value=None) -> dict:
    return dict.fromkeys(_plain(keys), value)


LIST_METHODS = _host_methods(list, "append extend pop insert reverse copy clear") | \
    _searches(list) | _removal(list) | table(
    _c_method(list, "sort", lambda ctx, xs, key, reverse: xs.sort(
        key=operators.sort_key(ctx, key), reverse=truth(reverse)),
        "self, *, key=None, reverse=False", "keywords", context=True),
)
DICT_METHODS = _host_methods(dict, "items keys values pop popitem setdefault get copy clear") | \
    table(
    _c_method(dict, "update", lambda d, other=(), **kwargs: d.update(dict_from(other, **kwargs)),
              "self, other=(), /, **kwargs", "expected"),
    _c_method(dict, "fromkeys", lambda d, keys, value=None: _from_keys(keys, value),
              "self, iterable, value=None, /", "expected"),
)
classes.HOST_METHODS.update({dict: DICT_METHODS, list: LIST_METHODS})
def _class_level(cls: type, names: str, from_instance: bool) -> dict:
    """Python's class and static methods of a builtin class (str.maketrans, int.from_bytes),
    as the class reaches them, or an instance (which they ignore)."""
    def method(name: str):
        function = cls.__dict__[name].__get__(None, cls)
        if from_instance:
            return entry(name, lambda receiver, *args, **kwargs: function(*args, **kwargs),
                         "self, *args, **kwargs", qualname=f"{cls.__name__}.{name}")
        return entry(name, function, "*args, **kwargs", qualname=f"{cls.__name__}.{name}")
    return table(*(method(n) for n in names.split()))


_CLASS_LEVEL = {str: "maketrans", bytes: "fromhex maketrans", int: "from_bytes",
                float: "fromhex"}
STR_METHODS = _host_methods(str, _STR_NAMES) | _class_level(str, _CLASS_LEVEL[str], True) | table(
    entry("format", lambda ctx, s, *args, **kwargs: str_format(ctx.printer, s, args, kwargs),
          "self, /, *args, **kwargs", context=True),
    entry("format_map", lambda ctx, s, mapping: str_format(ctx.printer, s, (), ByItem(mapping)),
          "self, mapping, /", context=True, style="exact", qualname="str.format_map"),
)
BYTES_METHODS = _host_methods(bytes, _STR_NAMES.replace("casefold", "decode").replace(
    "encode", "hex").replace("isdecimal", "").replace(
    "isidentifier", "").replace("isnumeric", "").replace("isprintable", "")) | \
    _class_level(bytes, _CLASS_LEVEL[bytes], True)
INT_METHODS = _host_methods(int, "bit_length bit_count as_integer_ratio conjugate to_bytes") | \
    _class_level(int, _CLASS_LEVEL[int], True)
FLOAT_METHODS = _host_methods(float, "is_integer as_integer_ratio hex conjugate") | \
    _class_level(float, _CLASS_LEVEL[float], True)
SET_METHODS = _host_methods(set, _SET_READING + """ add clear discard pop remove update
    difference_update intersection_update symmetric_difference_update""")
FROZENSET_METHODS = _host_methods(frozenset, _SET_READING)
TUPLE_METHODS = _searches(tuple)
DEQUE_METHODS = _host_methods(collections.deque, """append appendleft pop popleft extend extendleft
    rotate clear copy reverse insert""") | _searches(collections.deque) | \
    _removal(collections.deque)
ORDERED_DICT_METHODS = DICT_METHODS | _host_methods(
    collections.OrderedDict, """clear copy items keys move_to_end pop popitem setdefault values
    fromkeys update""")
classes.HOST_METHODS[collections.OrderedDict] = ORDERED_DICT_METHODS
# collections.ChainMap: its own methods and the mapping ones it inherits
CHAIN_MAP_METHODS = _host_methods(collections.ChainMap, "get new_child copy pop popitem clear") \
    | table(entry("keys", lambda m: m.keys(), "self", qualname="Mapping.keys"),
            entry("items", lambda m: m.items(), "self", qualname="Mapping.items"),
            entry("values", lambda m: m.values(), "self", qualname="Mapping.values"),
            entry("setdefault", lambda m, key, default=None: m.setdefault(key, default),
                  "self, key, default=None", qualname="MutableMapping.setdefault"),
            entry("update", lambda m, other=(), /, **kwargs: m.update(dict_from(
                other, **kwargs)), "self, other=(), /, **kwds",
                qualname="MutableMapping.update"))
CHAIN_MAP_ATTRS = {"maps": lambda m: m.maps, "parents": lambda m: m.parents}
COUNTER_METHODS = DICT_METHODS | _host_methods(collections.Counter,
                                               "copy most_common elements subtract total") | table(
    entry("update", lambda c, other=None, **kwargs: c.update(
        other if other is None or isinstance(other, dict) else list(iterate(other)), **kwargs),
        "self, iterable=None, /, **kwds", qualname="Counter.update"),
    entry("fromkeys", _counter_from_keys, "cls, iterable, v=None", qualname="Counter.fromkeys"))


def _send(generator: GeneratorObject, value):
    try:
        return generator.send(value)
    except StopIteration as stop:
        raise stop_iteration(stop) from None


def _close(generator: GeneratorObject) -> None:
    generator.close()


def _throw(ctx, generator: GeneratorObject, value, /, *rest):
    """generator.throw(error): raised where the body waits, as `raise error` there (the old
    (type, value) form calls the class with the value)."""
    if rest and rest[0] is not None and exceptions.is_exception_class(value):
        value = ctx.call(value, [rest[0]], {})
    if not exceptions.is_exception_class(value) and exceptions.exception_type(value) is None:
        raise errors.type_error("exceptions must be classes or instances deriving from "
                                f"BaseException, not {type_name(value)}")
    error = exceptions.raised(value, ctx.printer, None)
    try:
        return generator.throw(error)
    except StopIteration as stop:
        raise stop_iteration(stop) from None


GENERATOR_METHODS = table(entry("send", _send, "self, value, /"),
                          entry("throw", _throw, "self, typ, val=None, tb=None, /",
                                context=True),
                          entry("close", _close, "self"))
# a generator's names (its function's, or <genexpr>) and whether its body is running now
GENERATOR_ATTRS = {"__name__": lambda g: g.qualname.rpartition(".")[2],
                   "__qualname__": lambda g: g.qualname,
                   "gi_running": lambda g: isinstance(g, GeneratorObject) and
                   g.state == "running"}


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _missing(value, name: str):
    if isinstance(value, Tensor):
        refusal = unsupported("torch.Tensor", name)
        if refusal is not None:
            raise refusal
    qualified = protocols.type_of(value).name
    shown = qualified if c_type(qualified) else type_name(value)  # torch.finfo's tp_name
    raise errors.TorchError("AttributeError",
                            f"'{shown}' object has no attribute '{name}'")


def _from(value, name: str, attrs: dict, methods: dict):
    getter = attrs.get(name)
    if getter is not None:
        return getter(value) if not isinstance(getter, tuple) else getter[0](value)
    method = methods.get(name)
    if method is not None:
        return BoundMethod(value, method)
    return _missing(value, name)


# (kinds of value, their attributes, their methods), tried in order (Size before any tuple). A
# kind's tables hold only what works on every value of that kind (completion offers them all).
_KIND_TABLES = (
    (AccumulateGrad, ACCUMULATE_GRAD_ATTRS, NODE_METHODS), (Node, NODE_ATTRS, NODE_METHODS),
    (DType, DTYPE_ATTRS, {}), (Size, {}, SIZE_METHODS | TUPLE_METHODS),
    (ReturnTypes, RETURN_TYPES_ATTRS, {}), (StopIteration, STOP_ITERATION_ATTRS,
                                                EXCEPTION_METHODS),
    (SystemExit, SYSTEM_EXIT_ATTRS, EXCEPTION_METHODS),
    (NameError, EXCEPTION_ATTRS | {"name": lambda e: e.name}, EXCEPTION_METHODS),
    (ImportError, EXCEPTION_ATTRS | {"name": lambda e: e.name, "path": lambda e: e.path,
                                     "msg": lambda e: e.msg}, EXCEPTION_METHODS),
    (AttributeError, EXCEPTION_ATTRS | {"name": lambda e: e.name, "obj": lambda e: e.obj},
     EXCEPTION_METHODS),
    (OSError, EXCEPTION_ATTRS | {"errno": lambda e: e.errno, "strerror": lambda e: e.strerror,
                                 "filename": lambda e: e.filename}, EXCEPTION_METHODS),
    (BaseException, EXCEPTION_ATTRS, EXCEPTION_METHODS),
    (RemovableHandle, {"id": lambda h: h.id}, HANDLE_METHODS),
    (Device, DEVICE_ATTRS, {}), (ARRAY_TYPES, ARRAY_ATTRS, ARRAY_METHODS),
    (RNG_KIND, {}, RNG_METHODS), (RANDOM_STATE_KIND, {}, RANDOM_STATE_METHODS),
    (random.Random, {}, RANDOM_METHODS),
    (collections.OrderedDict, {}, ORDERED_DICT_METHODS),
    (collections.Counter, {}, COUNTER_METHODS),
    (collections.ChainMap, CHAIN_MAP_ATTRS, CHAIN_MAP_METHODS),
    (DefaultDict, {"default_factory": lambda d: d.language_factory}, DICT_METHODS),
    (list, {}, LIST_METHODS), (dict, {}, DICT_METHODS), (str, {}, STR_METHODS),
    (bytes, {}, BYTES_METHODS), (set, {}, SET_METHODS), (frozenset, {}, FROZENSET_METHODS),
    (tuple, {}, TUPLE_METHODS), (complex, COMPLEX_ATTRS, COMPLEX_METHODS),
    (int, INT_ATTRS, INT_METHODS), (float, NUMBER_ATTRS, FLOAT_METHODS),
    (GeneratorObject, GENERATOR_ATTRS, GENERATOR_METHODS), (Generator, GENERATOR_ATTRS, {}),
    (slice, SLICE_ATTRS, SLICE_METHODS),
    (range, SLICE_ATTRS, _host_methods(range, "count index")),
    (type({}.keys()), {}, _host_methods(type({}.keys()), "isdisjoint")),
    (type({}.items()), {}, _host_methods(type({}.items()), "isdisjoint")),
    (collections.deque, {"maxlen": lambda d: d.maxlen}, DEQUE_METHODS),
)
# What a builtin class's attributes are (`str.upper`, `dict.fromkeys`): its methods, unbound
# (modules' classes register theirs too).
CLASS_METHODS = protocols.CLASS_METHODS
CLASS_METHODS.update({str: STR_METHODS, bytes: BYTES_METHODS, list: LIST_METHODS,
                  dict: DICT_METHODS | table(_c_method(
                      dict, "fromkeys", _from_keys, "iterable, value=None, /", "expected")),
                  set: SET_METHODS, frozenset: FROZENSET_METHODS, tuple: TUPLE_METHODS,
                  int: INT_METHODS, float: FLOAT_METHODS,
                  np.ndarray: {name: replace(method, qualname=f"ndarray.{name}", fn=_receiving(
                      np.ndarray, name, method.fn, method.needs_context))
                      for name, method in ARRAY_METHODS.items()}})
CLASS_METHODS[collections.OrderedDict] = ORDERED_DICT_METHODS | table(entry(  # no receiver
    "fromkeys", lambda keys, value=None: collections.OrderedDict(_from_keys(keys, value)),
    "iterable, value=None, /", qualname="OrderedDict.fromkeys"))
for _cls, _names in _CLASS_LEVEL.items():  # str.maketrans: no receiver
    CLASS_METHODS[_cls] = CLASS_METHODS[_cls] | _class_level(_cls, _names, False)


def _class_attribute(cls: PyType, name: str):
    methods = CLASS_METHODS.get(cls.hosts[0]) if len(cls.hosts) == 1 else None
    if methods is not None and name in methods:
        return methods[name]
    shown = C_CLASSES.get(cls.hosts[0].__name__, cls.name.rsplit('.', 1)[-1])  # a C type's tp_name
    raise errors.TorchError("AttributeError", f"type object '{shown}' has no attribute '{name}'")


def tables_of(value) -> tuple[dict, dict] | None:
    """(attributes, methods): the tables `value.name` resolves through, for table kinds."""
    if isinstance(value, Tensor):
        return protocols.TENSOR_ATTRS, protocols.TENSOR_METHODS
    for kind, attrs, methods in _KIND_TABLES:
        if isinstance(value, kind):
            return attrs, methods
    return None


# The item protocol's methods of Python's containers and tensors, called by name
# (`d.__setitem__(k, v)`, `hasattr(x, "__len__")`): (the kinds that have it, the method).
_READABLE = (list, tuple, str, dict, Tensor, np.ndarray)
_COLLECTIONS = _READABLE + (set, frozenset)
_DUNDER_CODE = {  # name -> (the kinds that have it, the method, its parameters)
    "__getitem__": (_READABLE, lambda c, key: protocols.get_item(c, key), "self, key, /"),
    "__setitem__": ((list, dict, Tensor), lambda c, key, item: protocols.set_item(c, key, item),
                    "self, key, value, /"),
    "__delitem__": ((list, dict, Tensor, np.ndarray, collections.deque),
                    lambda c, key: protocols.delete_item(c, key),
                    "self, key, /"),
    "__contains__": (_COLLECTIONS, lambda c, key: protocols.compare("in", key, c),
                     "self, key, /"),
    "__len__": (_COLLECTIONS, length, "self, /"),
    "__iter__": (_COLLECTIONS, lambda c: iter(list(iterate(c))), "self, /"),
}
# the dunders CPython's classes define as methods (METH_O), not as slot wrappers, and those
# torch writes in Python
_C_DUNDER_METHODS = {(dict, "__contains__"), (dict, "__getitem__"), (list, "__getitem__"),
                     (set, "__contains__"), (frozenset, "__contains__")}
_TENSOR_PYTHON_DUNDERS = {"__len__": "self", "__contains__": "self, element",
                          "__iter__": "self"}


def _dunder(kind: type, name: str) -> Builtin:
    """`kind`'s item-protocol method `name`, its argument errors worded as in Python: a C
    method's, a slot wrapper's (`expected 1 argument, got 0`) or torch's Python code's."""
    fn, spec = _DUNDER_CODE[name][1:]
    if kind is TableObject:
        return entry(name, fn, spec)
    if kind is Tensor and name in _TENSOR_PYTHON_DUNDERS:
        return entry(name, fn, _TENSOR_PYTHON_DUNDERS[name], qualname=f"Tensor.{name}")
    if (kind, name) in _C_DUNDER_METHODS:
        return _c_method(kind, name, fn, spec, "exact")
    return entry(name, fn, spec, style="wrapper")


_CONTAINER_DUNDERS = {(kind, name): _dunder(kind, name) for name, (kinds, _, _) in
                      _DUNDER_CODE.items() for kind in (*kinds, TableObject)}


# host kinds whose instances have a __dict__ in Python, which a program may add attributes to
_WITH_DICT = (collections.OrderedDict, collections.Counter)


def get(value, name: str):
    """value.name, resolved only through the tables above, and for the user's own classes and
    their instances through what the program defined (its dunder methods included)."""
    if type(value) is Tensor and name[:2] != "__":  # the common case first: no other kind is one
        return _tensor_attribute(value, name)
    if isinstance(value, classes.Instance) or (
            isinstance(value, TableObject) and value.user_class() is not None):
        return value.attribute(name)
    if isinstance(value, classes.UserClass):
        return protocols.type_of(value) if name == "__class__" else value.attribute(name)
    if isinstance(value, classes.Super):
        return _from_super(value, name)
    if isinstance(value, classes.Property) and name in ("setter", "getter", "deleter"):
        return _property_decorator(value, name)
    if isinstance(value, classes.Property) and name in _PROPERTY_FIELDS:
        return _PROPERTY_FIELDS[name](value)
    if isinstance(value, TypeForm) and name in ("__name__", "__args__"):
        if name == "__name__":  # TypeVar('T').__name__, List[int].__name__
            return value.name.lstrip("~+-").rpartition(".")[2]
        if value.args is not None:
            return value.args
    if name == "__class__" and isinstance(value, (UserFunction, classes.UserMethod, Builtin,
                                                  BoundMethod)):
        return protocols.type_of(value)
    if isinstance(value, (UserFunction, classes.UserMethod, Builtin)):
        return _function_attribute(value, name)
    if isinstance(value, BoundMethod) and isinstance(value.builtin, Builtin):
        if name == "__self__":
            return value.receiver
        if python_method(value) and name not in ("__name__", "__qualname__"):
            # Python's bound method looks the name up on its function, which names itself
            raise errors.TorchError("AttributeError",
                                    f"'function' object has no attribute '{name}'")
        if name == "__qualname__" and not python_method(value) and not isinstance(
                value.receiver, PyType):  # a C method bound: named by its receiver's class
            return f"{type_name(value.receiver).rpartition('.')[2]}.{value.builtin.name}"
        return _function_attribute(value.builtin, name)
    if name.startswith("__") and name.endswith("__"):
        if isinstance(value, Namespace) and name in value.table:  # torch.__version__
            return value.table[name]
        if name == "__class__" and isinstance(value, (Tensor, TableObject, Node, AccumulateGrad,
                                                      DType, Size)):
            found = protocols.type_of(value)  # torch's classes, as in `self.__class__.__name__`
            if found.name.startswith("torch.") or found is classes.OBJECT or isinstance(
                    value, (Node, AccumulateGrad)):
                return found  # (an autograd node's class: grad_fn.__class__.__name__)
        if name == "__class__" and isinstance(value, (PyType, BaseException)):
            return protocols.type_of(value)  # a class's metaclass; e.__class__.__name__
        if isinstance(value, Namespace) and name == "__name__":  # a module's dotted name
            return value.name
        if name == "__module__" and not isinstance(value, PyType) and (
                module := instance_module(protocols.type_of(value).name)) is not None:
            return module  # an instance's: its class's (scheduler.__module__)
        if isinstance(value, BaseException) and name == "__notes__" and \
                "__notes__" in vars(value):  # what add_note() collected
            return vars(value)["__notes__"]
        if isinstance(value, BaseException) and name in exceptions.CHAINING:
            return exceptions.chained(value, name)
        if value is classes.OBJECT and name in _OBJECT_METHODS:  # object.__setattr__(self, ...)
            return _OBJECT_METHODS[name]
        if name == "__new__" and value in classes.BASE_NEWS:  # tuple.__new__(cls, items)
            return classes.BASE_NEWS[value]
        if name == "__init__" and value in classes.BASE_INITS:  # nn.Module.__init__(self)
            return classes.BASE_INITS[value]
        if isinstance(value, (GeneratorObject, Generator)) and name in GENERATOR_ATTRS:
            return GENERATOR_ATTRS[name](value)  # gen.__name__
        if isinstance(value, PyType) and name in ("__name__", "__qualname__"):
            return value.name.rsplit(".", 1)[-1]  # type(e).__name__
        if isinstance(value, PyType) and name == "__module__":  # type(e).__module__
            return value.name.rpartition(".")[0] or "builtins"
        if isinstance(value, PyType) and name == "__mro__" and value.hosts and (
                issubclass(value.hosts[0], BaseException)  # type(e).__mro__, list.__mro__
                or classes.BUILTIN_ANCESTORS.get(value.hosts[0]) is value):
            return (value, *(classes.BUILTIN_ANCESTORS[host] for host in value.hosts[0].__mro__[
                1:-1] if host in classes.BUILTIN_ANCESTORS), classes.OBJECT)
        if SUBCLASSES.made and class_of_tensor(value) is not None:
            found = class_of_tensor(value).find(name)  # an instance's class's own
            if found is not classes.MISSING:
                return classes.bind(found, value, class_of_tensor(value))
        if name == "__dict__" and SUBCLASSES.made and class_of_tensor(value) is not None:
            return instance_dicts.own_dict(value)  # (a program's class's instance)
        if isinstance(value, Tensor) and name in protocols.TENSOR_DUNDERS:
            return BoundMethod(value, CLASS_METHODS[Tensor][name])  # as torch.Tensor holds it
        if isinstance(value, PyType) and len(value.hosts) == 1 and \
                name in CLASS_METHODS.get(value.hosts[0], {}):  # torch.Tensor.__add__
            return CLASS_METHODS[value.hosts[0]][name]
        if isinstance(value, TableObject) and name in value.own_dunders:  # cached.__name__
            return value.attribute(name)
        if isinstance(value, TableInstance) and name in value.METHODS:  # Subset.__getitems__
            return BoundMethod(value, value.METHODS[name])
        kinds = _DUNDER_CODE[name][0] if name in _DUNDER_CODE else ()
        kind = next((k for k in kinds if isinstance(value, k)), None)
        if kind is None and isinstance(value, TableObject) and value.is_sequence and \
                name in value.item_methods:
            kind = TableObject  # a sequence torch writes in Python (nn.Sequential, a dataset)
        if kind is not None:
            return BoundMethod(value, _CONTAINER_DUNDERS[kind, name])  # acts.__setitem__
        return _missing(value, name)
    if isinstance(value, Namespace):
        return value.lookup(name)
    if isinstance(value, NamedTuple) and not isinstance(value, TableObject):
        return named_field(value, name)
    if isinstance(value, PyType) and value.hosts and value.hosts[0] in CLASS_METHODS:
        return _class_attribute(value, name)
    if isinstance(value, TableObject):
        return value.attribute(name)
    if isinstance(value, Tensor):
        return _tensor_attribute(value, name)
    if isinstance(value, _WITH_DICT):
        own = instance_dicts.lookup(value, name)
        if own is not instance_dicts.MISSING:
            return own
    tables = tables_of(value)
    if tables is not None:
        return _from(value, name, *tables)
    return _missing(value, name)


def tensor_method(value: Tensor, name: str):
    """The table method `value.name` resolves to; None where it resolves to anything else (an
    attribute, a dunder, what the program set on the tensor, its subclass's own)."""
    if name[:2] == "__" or name in protocols.TENSOR_ATTRS or \
            instance_dicts.lookup(value, name) is not instance_dicts.MISSING or \
            SUBCLASSES.made and class_of_tensor(value) is not None:
        return None
    return protocols.TENSOR_METHODS.get(name)


def _tensor_attribute(value: Tensor, name: str):
    """tensor.name: a subclass's own attribute, what the program stored on the tensor, else
    torch's attributes and methods."""
    cls = class_of_tensor(value) if SUBCLASSES.made else None
    if cls is not None:
        found = cls.find(name)
        if found is not classes.MISSING and (isinstance(found, classes.Property) or
                                             instance_dicts.lookup(value, name) is
                                             instance_dicts.MISSING):
            return classes.bind(found, value, cls)
    own = instance_dicts.lookup(value, name)
    if own is not instance_dicts.MISSING:
        return own
    if (cls is not None or SUBCLASSES.modes) and name in protocols.TENSOR_ATTRS:
        return subclass_protocol.getter(name, value, lambda: _from(
            value, name, protocols.TENSOR_ATTRS, protocols.TENSOR_METHODS))
    return _from(value, name, protocols.TENSOR_ATTRS, protocols.TENSOR_METHODS)



def set(value, name: str, item) -> None:
    """value.name = item, for the settable tensor attributes, table objects and user classes."""
    if isinstance(value, classes.UserClass):
        guard = next((classes.METACLASSES[owner]["setattr"] for owner in value.mro
                      if "setattr" in classes.METACLASSES.get(owner, {})), None)
        if guard is not None:  # EnumType's: its members stay
            guard(value, name)
        value.namespace[name] = item
        return
    if isinstance(value, UserFunction) or (isinstance(value, Builtin) and builtin_kind(value) == "function"):
        _set_function_attribute(value, name, item)
        return
    if isinstance(value, Builtin) and name == "__module__" and home(value) is not None:
        program_sets(value, name, item)  # a C function's module is writable (F.gelu's)
        return
    if name in _NAMED[:3] and type_name(value) == "builtin_function_or_method":
        raise errors.TorchError("AttributeError", f"attribute '{name}' of "
                                "'builtin_function_or_method' objects is not writable")
    if isinstance(value, TableObject) and (value.user_class() is not None or not (
            name.startswith("__") and name.endswith("__"))):
        value.set_attribute(name, item)
        return
    if isinstance(value, NamedTuple) and name in value.language_fields:
        raise errors.TorchError("AttributeError", "can't set attribute")
    if isinstance(value, FlagNamespace) and value.assign(name, item):
        return
    if isinstance(value, Namespace):
        value.assign_attribute(name, item)
        return
    if isinstance(value, Tensor):
        cls = class_of_tensor(value) if SUBCLASSES.made else None
        if cls is not None and classes.set_property(cls, value, name, item):
            return  # a property of the tensor's class (a subclass of torch.Tensor)
        getter_setter = protocols.TENSOR_ATTRS.get(name)
        if getter_setter is not None and getter_setter[1] is not None:
            getter_setter[1](value, item)
            return
        if getter_setter is not None:
            raise errors.TorchError("AttributeError",
                                    f"attribute '{name}' of 'torch._C.TensorBase' objects is not "
                                    "writable")
        if not (name.startswith("__") and name.endswith("__")):  # into the tensor's __dict__
            instance_dicts.store(value, name, item)
            return
    if isinstance(value, _WITH_DICT) and not (name.startswith("__") and name.endswith("__")):
        instance_dicts.store(value, name, item)  # (it may hide a method's name)
        return
    raise errors.TorchError("AttributeError",
                            f"'{type_name(value)}' object has no attribute '{name}'")


# torch's setters refuse a delete in their own words
_TENSOR_DELETE_ERRORS = {"data": "Deleting tensor data is not allowed. Delete tensor instead!",
                         "requires_grad": "requires_grad must be a bool"}


def delete(value, name: str) -> None:
    """del value.name (and delattr): a user class's own name, or what a table object allows."""
    if isinstance(value, classes.UserClass):
        if name not in value.namespace:
            raise errors.TorchError("AttributeError", f"type object '{value.name}' has no "
                                    f"attribute '{name}'")
        del value.namespace[name]
        return
    if isinstance(value, TableObject):
        value.delete_attribute(name)
        return
    if isinstance(value, UserFunction) or (isinstance(value, Builtin) and builtin_kind(value) == "function"):
        _delete_function_attribute(value, name)
        return
    if isinstance(value, Tensor):
        getter_setter = protocols.TENSOR_ATTRS.get(name)
        if getter_setter is None:
            if not instance_dicts.remove(value, name):
                _missing(value, name)
            return
        if getter_setter[1] is None:
            raise errors.TorchError("AttributeError", f"attribute '{name}' of "
                                    "'torch._C.TensorBase' objects is not writable")
        if name == "grad":  # torch's deleter sets it to None
            getter_setter[1](value, None)
            return
        if name in _TENSOR_DELETE_ERRORS:
            raise errors.runtime(_TENSOR_DELETE_ERRORS[name])
    if isinstance(value, _WITH_DICT) and instance_dicts.remove(value, name):
        return
    if isinstance(value, _WITH_DICT) and name not in tables_of(value)[1] or \
            isinstance(value, (Builtin, BoundMethod)) and name not in _NAMED:
        _missing(value, name)  # (a builtin function has no __dict__)
    raise errors.TorchError("AttributeError", f"'{type_name(value)}' object attribute "
                            f"'{name}' is read-only")


# the special attributes a program may set on a function (the rest are read-only here)
_FUNCTION_SPECIALS = ("__name__", "__qualname__", "__doc__", "__module__", "__wrapped__",
                      "__annotations__")


def _set_function_attribute(function, name: str, item) -> None:
    """function.name = item, on the program's functions and torch's Python ones (F.relu) alike:
    its names, docstring and module, or its __dict__."""
    if name in ("__name__", "__qualname__") and not isinstance(item, str):
        raise errors.type_error(f"{name} must be set to a string object")
    if name in ("__closure__", "__globals__", "__builtins__"):
        raise errors.TorchError("AttributeError", "readonly attribute")
    if name.startswith("__") and name.endswith("__") and name not in _FUNCTION_SPECIALS:
        raise errors.TorchError("AttributeError",
                                f"'function' object attribute '{name}' is read-only")
    if not isinstance(function, UserFunction):
        program_sets(function, name, item)
    elif name in _FUNCTION_WRITABLE:
        _FUNCTION_WRITABLE[name][1](function, item)
    else:
        function.attrs[name] = item


def _delete_function_attribute(function, name: str) -> None:
    """del function.name: what the program put in its __dict__."""
    own = function.attrs if isinstance(function, UserFunction) else set_by_program(function)
    if name in own and name not in _NAMED:
        del own[name]
    elif name == "__annotations__" and isinstance(function, UserFunction):
        function.annotations = {}  # Python makes a new empty one when next read
    elif name in ("__name__", "__qualname__"):  # deleting sets None, which names refuse
        raise errors.type_error(f"{name} must be set to a string object")
    elif name.startswith("__") and name.endswith("__"):
        raise errors.TorchError("AttributeError",
                                f"'function' object attribute '{name}' is read-only")
    else:
        _missing(function, name)


def _set_name(function, text):
    function.name = text


def _set_qualname(function, text):
    function.qualname = text


def _set_doc(function, text):
    function.doc = text


def _set_annotations(function, mapping):
    if not isinstance(mapping, dict):
        raise errors.type_error("__annotations__ must be set to a dict object")
    function.annotations = mapping


_NAMED = ("__name__", "__qualname__", "__doc__", "__module__")  # a function's, not its __dict__'s
# A function's writable special attributes: (getter, setter).
_FUNCTION_WRITABLE = {"__name__": (lambda f: f.name, _set_name),
                      "__qualname__": (lambda f: f.qualname, _set_qualname),
                      "__doc__": (lambda f: f.doc, _set_doc),
                      "__annotations__": (lambda f: f.annotations, _set_annotations)}


def _function_attribute(value, name: str):
    """A function's (or method's) attributes: its names, docstring and what the program set;
    a bound method's function and receiver."""
    if isinstance(value, classes.UserMethod):
        if name == "__self__":
            return value.receiver
        if name == "__func__":
            return value.function
        return _function_attribute(value.function, name)
    if isinstance(value, Builtin):
        found = home(value)
        if builtin_kind(value) == "function":  # torch's Python code
            own = set_by_program(value)
            if name in own:
                return own[name]
            if name == "__dict__":
                return {key: item for key, item in own.items() if key not in _NAMED}
        if isinstance(value, WrappedBuiltin) and name in ("__wrapped__", "__module__"):
            return value.wrapped if name == "__wrapped__" else get(value.wrapped, name)
        if name == "__name__":
            return value.name if found is None else found.name
        if name == "__qualname__":
            return value.title if found is None else found.qualname
        if name == "__module__" and found is not None:  # torch's functions'
            return found.module
        if name == "__module__" and protocols.BUILTINS.get(value.name) is value:
            return "builtins"  # print.__module__
        return _missing(value, name)
    if name in value.attrs:
        return value.attrs[name]
    if name == "__dict__":
        return {key: item for key, item in value.attrs.items() if key not in _NAMED}
    if name in _FUNCTION_WRITABLE:
        return _FUNCTION_WRITABLE[name][0](value)
    if name == "__module__":
        return "__main__"
    if name == "__closure__":
        from gradcli.language.runtime import cells  # (loaded when a program asks)
        return cells.closure(value)
    if name == "__defaults__":
        defaults = tuple(value.defaults[p] for p in value.params if p in value.defaults)
        return defaults or None
    if name == "__kwdefaults__":
        return {k: value.defaults[k] for k in value.kwonly if k in value.defaults} or None
    return _missing(value, name)


NAMED_ATTRIBUTES = ("_fields", "_asdict", "_replace")


def named_field(value: NamedTuple, name: str):
    """A namedtuple's field, or its _asdict/_replace/_fields."""
    fields = value.language_fields
    if name in fields:
        return value[fields.index(name)]
    if name == "_fields":
        return fields
    if name == "_asdict":
        return entry("_asdict", lambda: dict(zip(fields, value)), "")
    if name == "_replace":
        def replace(**changes):
            unknown = [k for k in changes if k not in fields]
            if unknown:
                raise errors.value_error(f"Got unexpected field names: {unknown!r}")
            return value.remade(changes.get(f, v) for f, v in zip(fields, value))
        return entry("_replace", replace, "**kwargs")
    if name in ("_field_defaults", "_make") and name in CLASS_METHODS.get(type(value), {}):
        return CLASS_METHODS[type(value)][name]  # its class's, as collections.namedtuple's
    methods = {**TUPLE_METHODS, **value.language_methods} if value.language_methods else \
        TUPLE_METHODS
    return _from(value, name, value.language_attrs, methods)


def _from_super(proxy: classes.Super, name: str):
    """super().name: the next definition along the MRO, else the builtin base's method."""
    found = proxy.attribute(name)
    if found is not classes.MISSING:
        return found
    if name == "__new__":  # the builtin base's __new__, or object's
        owner = proxy.instance if isinstance(proxy.instance, classes.UserClass) else \
            classes.class_of(proxy.instance)
        return classes.BASE_NEWS.get(owner.base if owner is not None else None,
                                     classes.BASE_NEWS[classes.OBJECT])
    if name == "__init__":  # object's and the builtin bases' __init__ take no further arguments
        owner = classes.class_of(proxy.instance)
        base_init = classes.BASE_INITS.get(owner.base) if owner is not None else None
        return BoundMethod(proxy.instance, base_init or _OBJECT_INIT)
    if name == "__init_subclass__" and isinstance(proxy.instance, classes.UserClass):
        return BoundMethod(proxy.instance, _OBJECT_INIT_SUBCLASS)
    if isinstance(proxy.instance, classes.Instance) and name in _OBJECT_METHODS and \
            type(proxy.instance).base_attribute is TableObject.base_attribute:
        return BoundMethod(proxy.instance, _OBJECT_METHODS[name])  # object.__setattr__
    if isinstance(proxy.instance, TableObject):
        return proxy.instance.base_attribute(name)
    if isinstance(proxy.instance, Tensor):  # torch.Tensor's own, past the program's class
        if name in protocols.TENSOR_ATTRS or name in protocols.TENSOR_METHODS:
            return _from(proxy.instance, name, protocols.TENSOR_ATTRS, protocols.TENSOR_METHODS)
        if name in protocols.TENSOR_DUNDERS:
            return BoundMethod(proxy.instance, CLASS_METHODS[Tensor][name])
    if isinstance(proxy.instance, classes.UserClass) and \
            proxy.instance.base in classes.BASE_CLASS_ATTRIBUTES:  # super() in a classmethod
        found = classes.BASE_CLASS_ATTRIBUTES[proxy.instance.base](proxy.instance, name)
        if found is not classes.MISSING:
            return found
    raise errors.TorchError("AttributeError", f"'super' object has no attribute '{name}'")


def _object_setattr(obj, name, value) -> None:
    if not isinstance(obj, classes.Instance):
        raise errors.type_error(f"can't apply this __setattr__ to {type_name(obj)} object")
    obj.set_own_attribute(name, value)


def _object_repr(obj) -> str:
    if not isinstance(obj, classes.Instance):
        raise errors.type_error(f"can't apply this __repr__ to {type_name(obj)} object")
    return obj.object_repr()


def _object_delattr(obj, name) -> None:
    if not isinstance(obj, classes.Instance):
        raise errors.type_error(f"can't apply this __delattr__ to {type_name(obj)} object")
    obj.delete_own_attribute(name)


def _object_getattribute(obj, name):
    if not isinstance(obj, classes.Instance):
        return get(obj, name)
    if name in obj.attrs:
        return obj.attrs[name]
    found = obj.cls.find(name)
    if found is classes.MISSING:
        raise obj.missing(name)
    return classes.bind(found, obj, obj.cls)


# What `object.__setattr__(self, name, value)` and friends reach: the plain behaviour a user
# class's own hooks defer to.
_OBJECT_METHODS = table(
    entry("__repr__", _object_repr, "self, /", style="wrapper"),
    entry("__str__", lambda ctx, obj: ctx.printer.repr(obj), "self, /", context=True,
          style="wrapper"),
    entry("__setattr__", _object_setattr, "self, name, value, /", style="wrapper"),
    entry("__getattribute__", _object_getattribute, "self, name, /", style="wrapper"),
    entry("__delattr__", _object_delattr, "self, name, /", style="wrapper"),
)
_OBJECT_INIT = entry("__init__", lambda self: None, "self", qualname="object.__init__",
                     style="exact")
_OBJECT_INIT_SUBCLASS = entry("__init_subclass__", classes.object_init_subclass,
                              "cls, **keywords", qualname="object.__init_subclass__")


# a property's functions, and its docstring (its getter's)
_PROPERTY_FIELDS = {"fget": lambda p: p.getter, "fset": lambda p: p.setter,
                    "fdel": lambda p: p.deleter,
                    "__doc__": lambda p: getattr(p.getter, "doc", None)}


def _property_decorator(prop: classes.Property, name: str):
    """prop.setter / prop.getter: decorators that return the property with that function."""
    if name == "setter":
        return entry("setter", lambda fn: classes.Property(prop.getter, fn, prop.deleter),
                     "fset, /")
    if name == "deleter":
        return entry("deleter", lambda fn: classes.Property(prop.getter, prop.setter, fn),
                     "fdel, /")
    return entry("getter", lambda fn: classes.Property(fn, prop.setter, prop.deleter), "fget, /")


protocols.get_attribute = get
