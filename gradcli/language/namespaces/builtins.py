"""Python's builtin functions and classes as the language has them, each with its signature."""

from __future__ import annotations

import sys

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.functions import F
from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.dtypes import DType
from gradcli.engine.layouts import Layout
from gradcli.engine.memory_format import MemoryFormat
from gradcli.engine.return_types import ReturnTypes
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.arrays import ARRAY_TYPES
from gradcli.language.namespaces.autograd_graph import GRADIENT_EDGE_TYPE
from gradcli.language.namespaces.legacy_new import legacy_new
from gradcli.language.namespaces.public_names import Unsupported
from gradcli.language.runtime.exceptions import EXCEPTION_TYPES, exception_type, stop_iteration
from gradcli.language.runtime import (attributes, classes, exceptions, instance_dicts, operators,
                                      protocols, subclass_protocol, tensor_subclasses)
from gradcli.language.runtime.coercions import (index, length, tensor_float, tensor_scalar,
                                               truth)
from gradcli.language.runtime.generators import GeneratorObject
from gradcli.language.runtime.objects import TableInstance, TableIterator, TableObject
from gradcli.language.runtime.protocol_names import has_special
from gradcli.language.runtime.frames import (BoundMethod, ContextManager, GradRuntimeError,
                                             UserFunction)
from gradcli.language.runtime.signatures import Builtin, WrappedBuiltin, entry, table
from gradcli.language.runtime.values import (DICT_VIEWS, HOST_ITERATORS, Generator, Namespace,
                                            Printer, Size, builtin_kind, checked_iterator,
                                            dict_from, iterate, python_method,
                                            qualified_type_name, type_name)
from gradcli.language.runtime.pytypes import PyType, TypeForm
from gradcli.language.runtime.uninitialized import kind_of

__all__ = ["Builtin", "entry", "table", "PY_BUILTINS", "TENSOR_TYPE", "SIZE_TYPE", "LEGACY_TYPES",
           "LEGACY_DTYPES"]


def _scalar(value, name: str, kinds: str):
    """A Python number from a number, a string or a one-element tensor (float(), int())."""
    if isinstance(value, Tensor):
        return tensor_scalar(value)
    if isinstance(value, (bool, int, float, str, *ARRAY_TYPES)):
        return value
    raise errors.type_error(
        f"{name}() argument must be {kinds}, not '{type_name(value)}'")


def _converted(x, names: tuple, kind: type):
    """What a user class's __int__ / __index__ (or __float__) gives, else None."""
    for name in names:
        method = classes.special_method(x, name)
        if method is not None:
            result = classes.call_bound(method, [])
            if not isinstance(result, kind):
                raise errors.type_error(f"{name} returned non-{kind.__name__} (type "
                                        f"{type_name(result)})")
            return result
    return None


def _float(x):
    if isinstance(x, Tensor):
        return tensor_float(x)
    converted = _converted(x, ("__float__", "__index__"), float)
    if converted is not None:
        return converted
    return float(_scalar(x, "float", "a string or a real number"))


def _complex(real=0, imag=None):
    """complex(real, imag) from numbers, one-element tensors or (alone) a string."""
    if isinstance(real, str):
        if imag is not None:
            raise errors.type_error("complex() can't take second arg if first is a string")
        try:
            return complex(real)
        except ValueError:
            raise errors.value_error("complex() arg is a malformed string") from None
    parts = []
    for name, part in (("first", real), ("second", imag)):
        if isinstance(part, Tensor):
            part = tensor_scalar(part)
        if part is not None and not isinstance(part, (int, float, complex)):
            raise errors.type_error(f"complex() {name} argument must be a string or a number, "
                                    f"not '{type_name(part)}'")
        parts.append(part)
    return complex(parts[0]) if parts[1] is None else complex(parts[0], parts[1])


def python_int(x, base=None):
    """int(x) or int(x, base), with Python's errors (a tensor gives its number)."""
    if base is not None:
        if not isinstance(x, str):
            raise errors.type_error("int() can't convert non-string with explicit base")
        return int(x, base)
    converted = _converted(x, ("__int__", "__index__"), int)
    if converted is not None:
        return converted
    return int(_scalar(x, "int", "a string, a bytes-like object or a real number"))


def _print(ctx, *values, sep=None, end=None, file=None, flush=False):
    for name, text in (("sep", sep), ("end", end)):
        if text is not None and not isinstance(text, str):
            raise errors.type_error(f"{name} must be None or a string, not {type_name(text)}")
    # Python's print converts each value with str(), then calls the file's write method.
    if any(not isinstance(v, str) for v in values):
        ctx.check_native_call(1, "getting the str of an object")
    ctx.check_native_call(2)
    if file is None and ctx.stdout_targets:  # sys.stdout redirected (None: print does nothing)
        file = ctx.stdout_targets[-1]
        if file is None:
            return
    if file is None:
        ctx.write((" " if sep is None else sep).join(ctx.printer.str(v) for v in values)
                  + ("\n" if end is None else end))
        return
    write = attributes.get(file, "write")  # a stream, an io.StringIO, a program's object
    for i, value in enumerate(values):
        if i:
            ctx.call(write, [" " if sep is None else sep], {})
        ctx.call(write, [ctx.printer.str(value)], {})
    ctx.call(write, ["\n" if end is None else end], {})


def _abs(x, subclassing: bool = True):
    if isinstance(x, Tensor):
        if tensor_subclasses.class_of(x) is not None:  # its class's __abs__, else torch's
            return subclass_protocol.special("__abs__", [x], lambda: F.abs(x), subclassing)
        return F.abs(x)
    if isinstance(x, (int, float, complex, *ARRAY_TYPES)):
        return abs(x)
    method = classes.special_method(x, "__abs__")
    if method is not None:
        return classes.call_bound(method, [])
    raise errors.type_error(f"bad operand type for abs(): '{type_name(x)}'")


def _range(*args):
    if not args:
        raise errors.type_error("range expected at least 1 argument, got 0")
    if len(args) > 3:
        raise errors.type_error(f"range expected at most 3 arguments, got {len(args)}")
    return range(*(index(a) for a in args))


def _round(number, ndigits):
    if isinstance(number, (int, float, np.generic)):
        return round(number) if ndigits is None else round(number, index(ndigits))
    method = classes.special_method(number, "__round__")
    if method is None:
        raise errors.type_error(f"type {type_name(number)} doesn't define __round__ method")
    return classes.call_bound(method, [] if ndigits is None else [ndigits])


def _sum(iterable, start):
    if isinstance(start, str):
        raise errors.type_error("sum() can't sum strings [use ''.join(seq) instead]")
    total = start
    for item in iterate(iterable):
        total = operators.binary("+", total, item)
    return total


def _extreme(ctx, name: str, args: tuple, options: dict):
    """min() and max(): one iterable or several arguments, with key= and default=."""
    for option in options:
        if option not in ("key", "default"):
            raise errors.type_error(f"'{option}' is an invalid keyword argument for {name}()")
    if not args:
        raise errors.type_error(f"{name} expected at least 1 argument, got 0")
    items = list(iterate(args[0])) if len(args) == 1 else list(args)
    if not items:
        if "default" in options:
            return options["default"]
        raise errors.value_error(f"{name}() arg is an empty sequence")
    key = options.get("key")
    measure = (lambda v: v) if key is None else (lambda v: ctx.call(key, [v], {}))
    best, best_key = items[0], measure(items[0])
    for item in items[1:]:
        item_key = measure(item)
        if truth(operators.compare(">" if name == "max" else "<", item_key, best_key)):
            best, best_key = item, item_key
    return best


def _isinstance(obj, classinfo) -> bool:
    if isinstance(classinfo, PyType) and classinfo in LEGACY_DTYPES:  # torch.FloatTensor ...
        return isinstance(obj, Tensor) and obj.dtype is LEGACY_DTYPES[classinfo]
    if isinstance(classinfo, PyType) and classinfo in classes.ABSTRACT_CHECKS:
        return classes.ABSTRACT_CHECKS[classinfo](obj)
    if isinstance(classinfo, (PyType, classes.UserClass)):
        owner = classes.class_of(obj)
        if owner is not None and owner.is_subclass_of(classinfo):
            return True
        if classinfo is classes.OBJECT or (classinfo is TYPE_TYPE and isinstance(
                obj, (classes.UserClass, PyType))):  # every class is an instance of type
            return True
        if isinstance(classinfo, classes.UserClass) and classinfo.namespace.get("_is_protocol"):
            from gradcli.language.namespaces.typing_protocols import protocol_instance
            return protocol_instance(obj, classinfo)  # (loaded when a program checks one)
        if isinstance(obj, ContextManager):  # torch.no_grad() and friends, by their class name
            return isinstance(classinfo, PyType) and obj.label == classinfo.name
        if classinfo in _FINAL_FUNCTION_TYPES:  # F.relu is a function, F.gelu a builtin
            return type_of(obj) is classinfo
        return isinstance(classinfo, PyType) and isinstance(obj, classinfo.hosts)
    if isinstance(classinfo, tuple) and classinfo:
        return any(_isinstance(obj, c) for c in classinfo)
    if isinstance(classinfo, TypeForm) and classinfo.name == "types.UnionType":  # int | None
        return any(obj is None if c is None else _isinstance(obj, c) for c in classinfo.args)
    raise errors.type_error("isinstance() arg 2 must be a type, a tuple of types, or a union")


def _issubclass(cls, classinfo) -> bool:
    if isinstance(cls, classes.UserClass):
        if isinstance(classinfo, tuple) and classinfo:
            return any(_issubclass(cls, c) for c in classinfo)
        if not isinstance(classinfo, (PyType, classes.UserClass)):
            raise errors.type_error(
                "issubclass() arg 2 must be a class, a tuple of classes, or a union")
        return cls.is_subclass_of(classinfo)
    if not isinstance(cls, PyType):
        raise errors.type_error("issubclass() arg 1 must be a class")
    if classinfo is classes.OBJECT:
        return True
    if isinstance(classinfo, classes.UserClass):
        return False
    if isinstance(classinfo, PyType):
        return issubclass(cls.hosts[0], classinfo.hosts)
    if isinstance(classinfo, tuple) and classinfo:
        return any(_issubclass(cls, c) for c in classinfo)
    if isinstance(classinfo, TypeForm) and classinfo.name == "types.UnionType":
        return any(c is not None and _issubclass(cls, c) for c in classinfo.args)
    raise errors.type_error("issubclass() arg 2 must be a class, a tuple of classes, or a union")


_NO_DEFAULT = object()


def _attribute_name(name) -> str:
    if not isinstance(name, str):
        raise errors.type_error(f"attribute name must be string, not '{type_name(name)}'")
    return name


def _getattr(obj, name, default=_NO_DEFAULT):
    """getattr(obj, name[, default]): the same lookup as `obj.name`, through the tables."""
    try:
        return attributes.get(obj, _attribute_name(name))
    except (errors.TorchError, GradRuntimeError) as error:
        if error.kind != "AttributeError" or default is _NO_DEFAULT:
            raise exceptions.remember_lookup(error, obj, name)
        return default


def _count(name: str, args: tuple, least: int, most: int) -> tuple:
    if not least <= len(args) <= most:
        bound = f"at least {least}" if len(args) < least else f"at most {most}"
        number = least if len(args) < least else most
        raise errors.type_error(f"{name} expected {bound} argument{'s' * (number != 1)}, "
                                f"got {len(args)}")
    return args


def _setattr(obj, name, value) -> None:
    attributes.set(obj, _attribute_name(name), value)


def _delattr(obj, name) -> None:
    attributes.delete(obj, _attribute_name(name))


def _hasattr(obj, name) -> bool:
    try:
        if _getattr(obj, name, _NO_DEFAULT_FOR_HAS) is not _NO_DEFAULT_FOR_HAS:
            return True
    except Unsupported:  # torch has the name; only gradcli lacks it
        return True
    special = has_special(obj, name) if name[:2] == "__" == name[-2:] else None
    return bool(special)


_NO_DEFAULT_FOR_HAS = object()


def _super(*args):
    """super(type, obj), or super(type) unbound (the zero-argument form is compiled inside
    methods)."""
    if not args:
        raise errors.runtime("super(): no arguments")
    if len(args) > 2:
        raise errors.type_error(f"super() expected at most 2 arguments, got {len(args)}")
    cls, obj = args if len(args) == 2 else (args[0], None)
    if not isinstance(cls, classes.UserClass):
        raise errors.type_error(f"super() argument 1 must be a type, not {type_name(cls)}")
    if len(args) == 1:
        return classes.Super(cls, None)
    owner = classes.class_of(obj)
    if owner is None or not owner.is_subclass_of(cls):
        raise errors.type_error("super(type, obj): obj must be an instance or subtype of type")
    return classes.Super(cls, obj)


def _type(runtime, *args, **kwargs):
    """type(value): its class; type(name, bases, dict): a new class, as a class statement."""
    if len(args) == 3:
        return _new_class(runtime, *args, **kwargs)
    if len(args) != 1:
        raise errors.type_error("type() takes 1 or 3 arguments")
    return type_of(args[0])


def _new_class(runtime, name, bases, namespace, **keywords):
    for number, (value, kind) in enumerate(((name, str), (bases, tuple), (namespace, dict)), 1):
        if not isinstance(value, kind):
            raise errors.type_error(f"type.__new__() argument {number} must be "
                                    f"{kind.__name__}, not {type_name(value)}")
    body = {"__module__": "__main__", "__qualname__": name, "__doc__": None, **namespace}
    return classes.make_class(name, body["__qualname__"], list(bases), body, runtime, keywords)


def legacy_constructor(dtype: DType | None = None):
    """torch.Tensor / torch.FloatTensor ...: only a typed one checks a tensor's dtype."""
    return lambda *args, **kwargs: legacy_new(args, kwargs, dtype, dtype is not None)


def _str(ctx, obj, codec: tuple) -> str:
    """str(object) as print shows it, or str(bytes, encoding, errors) decoded."""
    if not codec:
        return ctx.printer.str(obj)
    if len(codec) > 2:
        raise errors.type_error(f"str() takes at most 3 arguments ({len(codec) + 1} given)")
    if isinstance(obj, str):
        raise errors.type_error("decoding str is not supported")
    if not isinstance(obj, bytes):
        raise errors.type_error(f"decoding to str: need a bytes-like object, {type_name(obj)} "
                                "found")
    for name, value in zip(("encoding", "errors"), codec):
        if not isinstance(value, str):
            raise errors.type_error(f"str() argument '{name}' must be str, not "
                                    f"{type_name(value)}")
    try:
        return obj.decode(*codec)
    except (LookupError, UnicodeDecodeError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


def _class(name: str, hosts: tuple, construct=None) -> PyType:
    """A class; one of Python's builtins also answers for its host in __mro__ (bool's int)."""
    cls = PyType(name, hosts, construct)
    if len(hosts) == 1 and hosts[0].__module__ == "builtins":
        classes.BUILTIN_ANCESTORS.setdefault(hosts[0], cls)
    return cls


INT_TYPE = _class("int", (int,), entry("int", python_int, "x=0, /, base=None", style="at_most",
                                       frames=0))
BOOL_TYPE = _class("bool", (bool,), entry("bool", truth, "x=False, /", style="expected", frames=0))
COMPLEX_TYPE = _class("complex", (complex,), entry("complex", _complex, "real=0, imag=None",
                                                   style="at_most", frames=0))
FLOAT_TYPE = _class("float", (float,), entry("float", _float, "x=0.0, /", style="expected",
                                             frames=0))
STR_TYPE = _class("str", (str,), entry("str", lambda ctx, obj, *codec: _str(ctx, obj, codec),
                                       "object='', *codec", context=True, style="at_most",
                                       while_doing="getting the str of an object"))
LIST_TYPE = _class("list", (list,), entry("list", lambda it: list(iterate(it)), "iterable=(), /",
                                          style="expected", frames=0))
TUPLE_TYPE = _class("tuple", (tuple,), entry("tuple", lambda it: tuple(iterate(it)),
                                             "iterable=(), /", style="expected", frames=0))
DICT_TYPE = _class("dict", (dict,), entry("dict", dict_from, "iterable=(), /, **kwargs",
                                          style="expected", frames=0))


def _fill_dict(instance, *args, **kwargs) -> None:
    """dict.__init__ for a user class derived from dict (super().__init__(...) or no __init__)."""
    instance.update(dict_from(*args, **kwargs))


def _fill_list(instance, iterable=()) -> None:
    instance[:] = list(iterate(iterable))


classes.BASE_INSTANCES[DICT_TYPE] = lambda cls, args: classes.DictInstance(cls)
classes.BASE_INITS[DICT_TYPE] = entry("__init__", _fill_dict, "self, iterable=(), /, **kwargs",
                                      qualname="dict.__init__", style="expected")
classes.BASE_INSTANCES[LIST_TYPE] = lambda cls, args: classes.ListInstance(cls)
classes.BASE_INITS[LIST_TYPE] = entry("__init__", _fill_list, "self, iterable=(), /",
                                      qualname="list.__init__", style="expected")


def _bytes(source=None, encoding=None, errors_=None):
    if source is None:
        return b""
    if isinstance(source, str):
        if encoding is None:
            raise errors.type_error("string argument without an encoding")
        return source.encode(encoding)
    if isinstance(source, int) and not isinstance(source, bool):
        return bytes(source)
    return bytes(iterate(source))


def _slice(*args):
    if not 1 <= len(args) <= 3:
        raise errors.type_error(f"slice expected at {'least 1' if not args else 'most 3'} "
                                f"arguments, got {len(args)}")
    return slice(*args)


SLICE_TYPE = _class("slice", (slice,), entry("slice", _slice, "*args", style="expected",
                                             frames=0))
BYTES_TYPE = _class("bytes", (bytes,), entry("bytes", _bytes, "source=None, encoding=None, "
                                             "errors_=None", style="at_most", frames=0))
RANGE_TYPE = _class("range", (range,), entry("range", _range, "*args", style="expected", frames=0))
TYPE_TYPE = _class("type", (PyType,), entry("type", _type, "*args, **kwargs", context=True,
                                             style="expected", frames=0))
TENSOR_TYPE = PyType("torch.Tensor", (Tensor,),
                     entry("Tensor", legacy_constructor(), "*data, **kwargs"),
                     "torch._C._TensorMeta")
# torch.FloatTensor ...: the legacy tensor types, and the dtype each stands for
LEGACY_TYPES = {dtype.legacy_name: PyType(f"torch.{dtype.legacy_name}", (), entry(
    dtype.legacy_name, legacy_constructor(dtype), "*data, **kwargs"), "torch.tensortype")
    for dtype in dtypes.ALL}
LEGACY_DTYPES = {LEGACY_TYPES[dtype.legacy_name]: dtype for dtype in dtypes.ALL}
def _size(sizes) -> Size:
    """torch.Size(sizes): ints, or tensors holding one integer, each as an int."""
    items = []
    for number, item in enumerate(iterate(sizes)):
        if isinstance(item, Tensor) and item.data.size == 1 and not item.dtype.is_floating_point:
            item = int(item.data.item())
        elif not isinstance(item, int):
            raise errors.type_error(f"torch.Size() takes an iterable of 'int' (item {number} is "
                                    f"'{type_name(item)}')")
        items.append(int(item))
    return Size(items)


SIZE_TYPE = _class("torch.Size", (Size,), entry("Size", _size, "sizes=(), /", style="expected",
                                                frames=0))

_TYPE_OF = {t.hosts[0]: t for t in (
    INT_TYPE, BOOL_TYPE, FLOAT_TYPE, COMPLEX_TYPE, STR_TYPE, LIST_TYPE, TUPLE_TYPE, DICT_TYPE,
    RANGE_TYPE,
    TYPE_TYPE, TENSOR_TYPE, SIZE_TYPE, BYTES_TYPE, SLICE_TYPE, GRADIENT_EDGE_TYPE)}
_TYPE_OF.update({host: _class(name, (host,)) for host, name in (
    (type(None), "NoneType"), (UserFunction, "function"), (Namespace, "module"),
    (Generator, "generator"), (DType, "torch.dtype"), (MemoryFormat, "torch.memory_format"),
    (Layout, "torch.layout"))})
_BUILTIN_FUNCTION = _class("builtin_function_or_method", (Builtin, BoundMethod))
_TYPE_OF.update({Builtin: _BUILTIN_FUNCTION, BoundMethod: _BUILTIN_FUNCTION})
_METHOD = _class("method", (BoundMethod,))
_TYPE_OF[WrappedBuiltin] = _TYPE_OF[UserFunction]
_FUNCTION_KINDS = {"function": _TYPE_OF[UserFunction],
                   "method_descriptor": _class("method_descriptor", ())}
_FINAL_FUNCTION_TYPES = (*_FUNCTION_KINDS.values(), _BUILTIN_FUNCTION)  # no subclasses in Python
_TYPE_OF.update({t.hosts[0]: t for t in EXCEPTION_TYPES.values()})
# the decorators' classes, which isinstance() and type() name as Python's
_DECORATOR_TYPES = (
    PyType("staticmethod", (classes.StaticMethod,), entry(
        "staticmethod", classes.StaticMethod, "function, /", style="exact", frames=0)),
    PyType("classmethod", (classes.ClassMethod,), entry(
        "classmethod", classes.ClassMethod, "function, /", style="exact", frames=0)),
    PyType("property", (classes.Property,), entry(
        "property", lambda fget, fset, fdel, doc: classes.Property(fget, fset, fdel),
        "fget=None, fset=None, fdel=None, doc=None", frames=0)))
_TYPE_OF.update({t.hosts[0]: t for t in _DECORATOR_TYPES})
_NODE_TYPES: dict[str, PyType] = {}


# torch.nn.Parameter, a Tensor marked by a flag: nn_table registers it when loaded, before any
# Parameter exists.
_PARAMETER_TYPE: dict = {}


def register_parameter_type(cls: PyType, name: str = "type") -> None:
    """What `type(p)` gives for an nn.Parameter `p` (name "type"), or for a lazy module's
    uninitialized tensor (name "UninitializedParameter" or "UninitializedBuffer")."""
    _PARAMETER_TYPE[name] = cls


def type_of(value) -> PyType:
    """What `type(value)` returns: the same class object for values of the same class."""
    if isinstance(value, TableObject):
        return value.language_type
    if isinstance(value, classes.UserClass):
        return TYPE_TYPE
    if tensor_subclasses.STATUS.made and classes.class_of(value) is not None:
        return classes.class_of(value)
    if type(value) is Tensor and kind_of(value) is not None:
        return _PARAMETER_TYPE[kind_of(value)]
    if type(value) is Tensor and value.is_parameter:
        return _PARAMETER_TYPE["type"]
    if isinstance(value, PyType) and "." in value.metaclass:  # torch.tensortype ...
        return _NODE_TYPES.setdefault(value.metaclass, _class(value.metaclass, ()))
    found = _TYPE_OF.get(type(value)) or exception_type(value)  # a module's: torch._C._LinAlgError
    if found is _BUILTIN_FUNCTION and python_method(value):
        return _METHOD
    if found is _BUILTIN_FUNCTION and isinstance(value, Builtin) and \
            builtin_kind(value) != "builtin_function_or_method":  # F.relu, list.append
        return _FUNCTION_KINDS[builtin_kind(value)]
    if found is not None:
        return found
    name = qualified_type_name(value)
    if isinstance(value, ReturnTypes):  # one class per structseq, as torch.return_types has
        name = ("torch.autograd.forward_ad." if value.name == "UnpackedDualTensor"
                else "torch.return_types.") + value.name
    hosts = (Node, AccumulateGrad) if isinstance(value, (Node, AccumulateGrad)) else (type(value),)
    return _NODE_TYPES.setdefault(name, _class(name, hosts))


def class_text(value) -> str:
    """repr(type(value)), as torch's messages quote it: <class 'torch.nn.modules.linear.Linear'>."""
    return Printer().repr(type_of(value))


def _sorted(ctx, iterable, key=None, reverse=False):
    return sorted(iterate(iterable), key=operators.sort_key(ctx, key), reverse=truth(reverse))


def _reversed(sequence):
    if isinstance(sequence, (list, tuple, str, bytes, range, dict, *DICT_VIEWS)):
        return reversed(sequence)
    if isinstance(sequence, Tensor):  # torch's Tensor.__reversed__: the tensor flipped on dim 0
        return sequence if sequence.ndim == 0 else F.flip(sequence, (0,))
    method = classes.special_method(sequence, "__reversed__")
    if method is not None:
        return classes.call_bound(method, [])
    item = classes.special_method(sequence, "__getitem__")
    if item is not None and classes.special_method(sequence, "__len__") is not None:
        return reversed([classes.call_bound(item, [i]) for i in range(length(sequence))])
    if isinstance(sequence, TableObject) and sequence.is_sequence:  # nn.Sequential's items
        return reversed([sequence.item(i) for i in range(sequence.length())])
    raise errors.type_error(f"'{type_name(sequence)}' object is not reversible")


def _map(ctx, function, *iterables):
    if not iterables:
        raise errors.type_error("map() must have at least two arguments.")
    return map(lambda *items: ctx.call(function, list(items), {}),
               *(iterate(i) for i in iterables))


def _filter(ctx, function, iterable):
    if function is None:
        return filter(truth, iterate(iterable))
    return filter(lambda item: truth(ctx.call(function, [item], {})), iterate(iterable))


# the builtins that are classes of iterators (`type(map)` is type, `type(map(...))` is map)
ITERATOR_TYPES = (
    _class("enumerate", (enumerate,), entry(
        "enumerate", lambda it, start: enumerate(iterate(it), index(start)), "iterable, start=0",
        style="at_most", frames=0)),
    _class("zip", (zip,), entry(
        "zip", lambda *its, strict: zip(*(iterate(i) for i in its), strict=strict),
        "*iterables, strict=False", style="expected", frames=0)),
    _class("reversed", (reversed,), entry("reversed", _reversed, "sequence, /", style="expected",
                                          frames=0)),
    _class("map", (map,), entry("map", _map, "func, *iterables", context=True, style="expected",
                                frames=0)),
    _class("filter", (filter,), entry("filter", _filter, "function, iterable, /", context=True,
                                      style="expected", frames=0)),
)
_TYPE_OF.update({t.hosts[0]: t for t in ITERATOR_TYPES})


_NO_DEFAULT_NEXT = object()


def _next(iterator, default=_NO_DEFAULT_NEXT):
    """next(): host iterators made by the builtins, or a user class's __next__."""
    method = classes.special_method(iterator, "__next__")
    try:
        if method is not None:
            try:
                return classes.call_bound(method, [])
            except (GradRuntimeError, errors.TorchError) as error:
                if error.kind != "StopIteration" or default is _NO_DEFAULT_NEXT:
                    raise
                return default
        if not isinstance(iterator, ITERATORS):
            raise errors.type_error(f"'{type_name(iterator)}' object is not an iterator")
        return next(iterator)
    except StopIteration as stop:
        if default is not _NO_DEFAULT_NEXT:
            return default
        raise stop_iteration(stop) from None


def _iter(ctx, value, sentinel=_NO_DEFAULT_NEXT):
    if sentinel is not _NO_DEFAULT_NEXT:  # iter(callable, sentinel)
        if not _callable(value):
            raise errors.type_error("iter(v, w): v must be callable")
        return iter(lambda: _until(ctx, value, sentinel), _SENTINEL_REACHED)
    if isinstance(value, ITERATORS) and not isinstance(value, DICT_VIEWS):  # views iterate anew
        return value
    method = classes.special_method(value, "__iter__")
    if method is not None:
        return checked_iterator(classes.call_bound(method, []))
    return iter(iterate(value))


_SENTINEL_REACHED = object()


def _until(ctx, function, sentinel):
    value = ctx.call(function, [], {})
    if value is sentinel or truth(operators.compare("==", value, sentinel)):
        return _SENTINEL_REACHED
    return value


def _integer_text(convert, name: str):
    def run(x):
        if isinstance(x, bool) or not isinstance(x, int):
            x = index(x)
        return convert(x)
    return run


def _chr(i):
    i = index(i)
    if not 0 <= i <= 0x10FFFF:
        raise errors.value_error("chr() arg not in range(0x110000)")
    return chr(i)


def _ord(c):
    if not isinstance(c, str):
        raise errors.type_error(f"ord() expected string of length 1, but {type_name(c)} found")
    if len(c) != 1:
        raise errors.type_error(f"ord() expected a character, but string of length {len(c)} "
                                "found")
    return ord(c)


def _vars(obj):
    """vars(obj): a plain instance's own attributes (the dict itself, as Python's __dict__)."""
    if isinstance(obj, classes.Instance) or (isinstance(obj, TableInstance) and obj.own_dict):
        return obj.attrs
    if isinstance(obj, classes.UserClass):  # a class's mappingproxy
        return obj.attribute("__dict__")
    if classes.class_of(obj) is not None and isinstance(obj, Tensor):  # a tensor subclass's
        return instance_dicts.own_dict(obj)
    found = obj.instance_dict() if isinstance(obj, TableObject) else None
    if found is None:
        raise errors.type_error("vars() argument must have __dict__ attribute")
    return found


def _hash(value):
    if isinstance(value, Tensor):  # torch's Tensor.__hash__: id(self)
        return id(value)
    try:
        return hash(value)
    except TypeError:
        raise errors.type_error(f"unhashable type: '{type_name(value)}'") from None


def _pow(base, exp, mod=None):
    if mod is None:
        return operators.binary("**", base, exp)
    if not all(isinstance(v, int) for v in (base, exp, mod)):
        raise errors.type_error("pow() 3rd argument not allowed unless all arguments are "
                                "integers")
    return pow(base, exp, mod)


def _divmod(a, b):
    if isinstance(a, Tensor) or isinstance(b, Tensor):  # torch's Tensor has no __divmod__
        raise errors.type_error(f"unsupported operand type(s) for divmod(): '{type_name(a)}' "
                                f"and '{type_name(b)}'")
    return operators.binary("//", a, b), operators.binary("%", a, b)


def _callable(value) -> bool:
    return isinstance(value, (Builtin, UserFunction, BoundMethod, PyType, classes.UserClass,
                              classes.UserMethod, Node, AccumulateGrad)) or (
        isinstance(value, TableObject) and value.forward() is not None)


def _dir(*args):
    """dir(object); dir() alone is compiled to read the scope it is written in."""
    if len(args) > 1:
        raise errors.type_error(f"dir expected at most 1 argument, got {len(args)}")
    if not args:
        raise errors.TorchError("NotImplementedError", "gradcli lists the names of a scope "
                                "only for dir() called by its name")
    from gradcli.language.namespaces.python_dir import dir_of
    return dir_of(args[0])


def _scope_reader(name: str):
    def refuse(*args):
        if args:
            raise errors.type_error(f"{name}() takes no arguments ({len(args)} given)")
        raise errors.TorchError("NotImplementedError", f"gradcli reads {name}() only when it "
                                "is called by its name")
    return entry(name, refuse, "*args", frames=0)


def _scope_names(frame, top_level: bool) -> list:
    from gradcli.language.namespaces.python_dir import scope_names
    return scope_names(frame, top_level)


def _help(*args, **kwargs):
    raise errors.TorchError("NotImplementedError", "gradcli does not support help() yet")


def _input(ctx, prompt=""):
    """input(prompt): the prompt written out, then a line of standard input without its end."""
    if prompt != "":
        ctx.write(ctx.printer.str(prompt))
    try:
        line = sys.stdin.readline() if sys.stdin is not None else ""
    except (OSError, ValueError) as error:  # a closed or unreadable stdin: Python's own error
        raise errors.TorchError(type(error).__name__, str(error)) from None
    if not line:
        raise errors.TorchError("EOFError", "EOF when reading a line")
    return line[:-1] if line.endswith("\n") else line


def _exit(code=None):
    raise errors.TorchError("SystemExit", "" if code is None else str(code), (code,))


SET_TYPE = PyType("set", (set,), entry("set", lambda it: set(iterate(it)), "iterable=(), /",
                                       style="expected", frames=0))
FROZENSET_TYPE = PyType("frozenset", (frozenset,), entry(
    "frozenset", lambda it: frozenset(iterate(it)), "iterable=(), /", style="expected", frames=0))
ITERATORS = (GeneratorObject, Generator, TableIterator, zip, enumerate, *HOST_ITERATORS)


PY_BUILTINS = table(
    entry("print", _print, "*values, sep=None, end=None, file=None, flush=False", context=True,
          style="expected", frames=0),
    entry("len", length, "obj, /", style="exact", frames=0),
    entry("abs", _abs, "x, /", style="exact"),
    entry("repr", lambda ctx, obj: ctx.printer.repr(obj), "obj, /", context=True, style="exact"),
    entry("round", _round, "number, ndigits=None", style="keywords"),
    entry("sum", _sum, "iterable, /, start=0", style="keywords"),
    entry("min", lambda ctx, *args, **options: _extreme(ctx, "min", args, options),
          "*args, **options", context=True, style="expected"),
    entry("max", lambda ctx, *args, **options: _extreme(ctx, "max", args, options),
          "*args, **options", context=True, style="expected"),
    entry("any", lambda it: any(truth(v) for v in iterate(it)), "iterable, /", style="exact"),
    entry("all", lambda it: all(truth(v) for v in iterate(it)), "iterable, /", style="exact"),
    entry("isinstance", _isinstance, "obj, classinfo, /", style="expected", frames=0),
    entry("super", _super, "*args", style="expected", frames=0),
    entry("getattr", lambda *args: _getattr(*_count("getattr", args, 2, 3)), "*args",
          style="expected"),
    entry("sorted", _sorted, "iterable, /, *, key=None, reverse=False", context=True,
          style="expected"),
    entry("next", lambda *args: _next(*_count("next", args, 1, 2)), "*args", style="expected"),
    entry("iter", lambda ctx, *args: _iter(ctx, *_count("iter", args, 1, 2)), "*args",
          context=True, style="expected"),
    entry("pow", _pow, "base, exp, mod=None", style="keywords"),
    entry("divmod", _divmod, "x, y, /", style="expected"),
    entry("chr", _chr, "i, /", style="exact"),
    entry("ord", _ord, "c, /", style="exact"),
    entry("hex", _integer_text(hex, "hex"), "number, /", style="exact"),
    entry("oct", _integer_text(oct, "oct"), "number, /", style="exact"),
    entry("bin", _integer_text(bin, "bin"), "number, /", style="exact"),
    entry("format", lambda ctx, value, spec: ctx.printer.format(value, spec),
          "value, format_spec='', /", context=True, style="at_most"),
    entry("hash", _hash, "obj, /", style="exact"),
    entry("vars", _vars, "object, /", style="exact"),
    entry("id", lambda obj: id(obj), "obj, /", style="exact", frames=0),
    entry("callable", _callable, "obj, /", style="exact", frames=0),
    entry("ascii", lambda ctx, obj: ascii(ctx.printer.repr(obj))[1:-1], "obj, /",
          context=True, style="exact"),
    entry("input", _input, "prompt='', /", context=True, style="expected"),
    entry("exit", _exit, "code=None"),
    entry("quit", _exit, "code=None"),
    entry("setattr", _setattr, "obj, name, value, /", style="expected"),
    entry("hasattr", _hasattr, "obj, name, /", style="expected"),
    entry("delattr", _delattr, "obj, name, /", style="expected"),
    entry("issubclass", _issubclass, "cls, classinfo, /", style="expected", frames=0),
    entry("dir", _dir, "*args", style="expected"),
    _scope_reader("globals"),
    _scope_reader("locals"),
    entry("help", _help, "*args, **kwds", frames=0),
) | {"set": SET_TYPE, "frozenset": FROZENSET_TYPE} | {t.construct.name: t for t in (
    INT_TYPE, BOOL_TYPE, FLOAT_TYPE, COMPLEX_TYPE, STR_TYPE, LIST_TYPE,
                                   TUPLE_TYPE, DICT_TYPE, RANGE_TYPE, TYPE_TYPE, BYTES_TYPE,
                                   SLICE_TYPE)} | \
    EXCEPTION_TYPES | {t.construct.name: t for t in ITERATOR_TYPES} | {
        "object": classes.OBJECT, "NotImplemented": NotImplemented, "Ellipsis": Ellipsis} | {
        t.name: t for t in _DECORATOR_TYPES}


def register_type(cls: PyType) -> None:
    """What `type(value)` gives for values of `cls`'s host class (a namedtuple's class)."""
    _TYPE_OF[cls.hosts[0]] = cls


protocols.absolute, protocols.register_type = _abs, register_type
protocols.type_of = type_of
protocols.BUILTINS = PY_BUILTINS
protocols.is_callable = _callable
protocols.SCOPE_CALLS.update({
    "dir": (PY_BUILTINS["dir"], _scope_names),
    "globals": (PY_BUILTINS["globals"], lambda frame, top_level: frame.root.vars),
    "locals": (PY_BUILTINS["locals"], lambda frame, top_level: frame.vars if top_level
               else dict(frame.vars)),
})
