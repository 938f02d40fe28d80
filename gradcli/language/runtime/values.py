"""Python-level values of the language, and print/repr/format of them as Python with torch does."""

from __future__ import annotations

import itertools
import random
import sys
from collections import ChainMap, Counter, OrderedDict, defaultdict, deque
from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView

import numpy as np

from gradcli.engine.records import record

from gradcli.engine import dtypes, errors, indexing, printing
from gradcli.engine.layouts import Layout
from gradcli.engine.memory_format import MemoryFormat
from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.custom import FunctionNode
from gradcli.engine.devices import Device
from gradcli.engine.hooks import RemovableHandle
from gradcli.engine.return_types import ReturnTypes
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.arrays import ARRAY_TYPES, NUMPY_VALUES
from gradcli.language.namespaces.public_names import unsupported
from gradcli.language.runtime import protocols, tensor_subclasses
from gradcli.language.runtime.generators import GeneratorObject
from gradcli.language.runtime.objects import TableIterator, TableObject
from gradcli.language.runtime.pytypes import OBJECT, PyType, TypeForm, c_type
from gradcli.language.runtime.signatures import C_CLASSES, WrappedBuiltin
from gradcli.language.runtime.torch_homes import home
from gradcli.language.runtime.uninitialized import kind_of

# Values whose own repr and str are Python's or torch's (numbers in arrays, torch.device).
HOST_PRINTED = (*NUMPY_VALUES, Device)


class Size(tuple):
    """torch.Size: a tuple of ints that prints as `torch.Size([2, 3])`."""


@record(frozen=True)
class Namespace:
    """A module-like table (torch, torch.nn.functional, ...): attribute names resolve only here."""

    name: str
    table: dict

    def lookup(self, attr: str):
        set_here = STATE.flags.get(_MODULE_SETS)
        if set_here and (self.name, attr) in set_here:
            return set_here[self.name, attr]
        if attr in self.table:
            return self.table[attr]
        raise unsupported(self.name, attr) or errors.TorchError(
            "AttributeError", f"module '{self.name}' has no attribute '{attr}'")

    def assign_attribute(self, attr: str, value) -> None:
        """module.attr = value (F.softargmax = F.softmax): kept for this run only, as the
        engine state is, so each run starts from the modules as imported."""
        STATE.flags.setdefault(_MODULE_SETS, {})[self.name, attr] = value


_MODULE_SETS = "module attributes"  # the engine state's {(module, name): value} of this run


@record(frozen=True)
class FlagNamespace(Namespace):
    """A module whose listed attributes a program may set (torch.backends.cudnn.deterministic):
    their values live in the engine state, so each run starts from torch's defaults."""

    defaults: dict = None

    def lookup(self, attr: str):
        if attr in self.defaults:
            return STATE.flags.get(f"{self.name}.{attr}", self.defaults[attr])
        return super().lookup(attr)

    def assign(self, attr: str, value) -> bool:
        """Set a listed attribute; False for any other name."""
        if attr not in self.defaults:
            return False
        STATE.flags[f"{self.name}.{attr}"] = value
        return True


@record(eq=False)
class Generator:
    """A generator expression's lazy values, printed as Python prints a generator."""

    values: object
    qualname: str = "<genexpr>"

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.values)


# What `for` can walk besides tensors: Python's sequences and the lazy values builtins return.
DICT_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))
MAPPING_VIEWS = (KeysView, ValuesView, ItemsView)  # of other mappings (a ChainMap's)


class SequenceIterator:
    """iter() of a user object that has __getitem__ but no __iter__: Python's `iterator`."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.items)


# Host iterators only the builtins and the tables make (map, filter, iter(), reversed(), dict
# views, itertools).
HOST_ITERATORS = (map, filter, type(iter([])), type(iter(())), type(iter(range(0))),
                   type(iter("")), type(iter("é")), type(reversed([])), type(reversed(range(0))),
                   reversed, type(iter({})), type(iter({}.values())), type(iter({}.items())),
                   type(reversed({})), type(reversed({}.values())), type(reversed({}.items())),
                   type(iter(set())), type(iter(b"")), SequenceIterator, *DICT_VIEWS,
                   itertools.count, itertools.cycle, itertools.repeat, itertools.chain,
                   itertools.islice, itertools.product, itertools.permutations,
                   itertools.combinations, itertools.zip_longest, itertools.accumulate,
                   itertools.takewhile, itertools.dropwhile, itertools.filterfalse,
                   itertools.starmap, itertools.groupby, type(next(itertools.groupby([0]))[1]),
                   itertools.compress, itertools.pairwise, type(itertools.tee([])[0]),
                   itertools.combinations_with_replacement, type(iter(int, 1)),
                   type(iter(OrderedDict())))
_ITERABLES = (list, tuple, str, bytes, range, deque, dict, ChainMap, *MAPPING_VIEWS, set,
              frozenset, Generator,
              GeneratorObject, TableIterator,
              enumerate, zip, *HOST_ITERATORS, *ARRAY_TYPES)


def iterate(value):
    """What `for` walks: a tensor's rows (as torch's unbind), or a Python iterable."""
    if isinstance(value, Tensor):
        if value.ndim == 0:
            raise errors.type_error("iteration over a 0-d tensor")
        if tensor_subclasses.STATUS.made and value in tensor_subclasses.CLASSES:
            from gradcli.language.runtime import classes  # (its class's own __iter__ first)
            own = classes.class_of(value).find("__iter__") is not classes.MISSING
            return _user_iterator(value) if own else protocols.subclass_rows(value)
        return indexing.unbind_rows(value, 0)
    if isinstance(value, _ITERABLES) and not (isinstance(value, TableObject) and
                                              _user_iterator_defined(value)):
        return value
    if isinstance(value, TableObject) and value.is_sequence:
        return value.members()
    if isinstance(value, TableObject) and isinstance(value, Mapping):  # a class's __dict__
        return iter(value)
    iterator = _user_iterator(value)
    if iterator is not None:
        return iterator
    raise errors.type_error(f"'{type_name(value)}' object is not iterable")


def abc_iterable(value) -> bool:
    """isinstance(value, collections.abc.Iterable): what has an __iter__ (a class iterated only
    through __getitem__ has none)."""
    from gradcli.language.runtime import classes
    return isinstance(value, (Tensor, *_ITERABLES)) or (
        isinstance(value, TableObject) and (value.is_sequence or isinstance(value, Mapping))) or (
        classes.special_method(value, "__iter__") is not None)


def _user_iterator_defined(value) -> bool:
    """Whether a user class derived from list or dict defines its own __iter__."""
    from gradcli.language.runtime import classes
    return classes.special_method(value, "__iter__") is not None


def _user_iterator(value):
    """A host iterator over a user instance: its __iter__ (then __next__ until StopIteration),
    or __getitem__ with 0, 1, 2... until IndexError; None when it defines neither."""
    from gradcli.language.runtime import classes
    make = classes.special_method(value, "__iter__")
    if make is not None:
        iterator = classes.call_bound(make, [])
        step = classes.special_method(checked_iterator(iterator), "__next__")
        if step is None:
            return iter(iterate(iterator))
        return _drain(step, "StopIteration", lambda: [])
    item = classes.special_method(value, "__getitem__")
    if item is not None:
        return SequenceIterator(_drain(item, "IndexError", _counter()))
    return None


def checked_iterator(value):
    """What a user __iter__ returned, when it is an iterator (else Python's TypeError)."""
    from gradcli.language.runtime import classes
    if not isinstance(value, (Iterator, TableObject)) and \
            classes.special_method(value, "__next__") is None:
        raise errors.type_error(f"iter() returned non-iterator of type '{type_name(value)}'")
    return value


def _counter():
    count = [-1]

    def next_index():
        count[0] += 1
        return [count[0]]
    return next_index


def _drain(method, stop: str, arguments):
    from gradcli.language.runtime import classes
    from gradcli.language.runtime.frames import GradRuntimeError
    while True:
        try:
            yield classes.call_bound(method, arguments())
        except (GradRuntimeError, errors.TorchError) as error:
            if error.kind == stop:
                return
            raise


class NamedTuple(tuple):
    """An instance of a collections.namedtuple class: a tuple whose class (made per
    namedtuple() call) names its fields."""

    __slots__ = ()
    language_fields: tuple = ()
    language_attrs: dict = {}  # a torch namedtuple's own attributes and methods (PackedSequence)
    language_methods: dict = {}

    def remade(self, items):
        """An instance of the same class holding `items` (_replace)."""
        return type(self)(items)


class DefaultDict(defaultdict):
    """collections.defaultdict as the language makes it: its factory is a value of the program,
    kept for printing (the host factory calls it through the interpreter)."""

    language_factory = None


def dict_from(iterable, **kwargs):
    """dict(iterable, **kwargs): a mapping copied, or key-value pairs, with Python's errors."""
    if isinstance(iterable, (dict, Mapping)):  # a mapping is copied, not walked as pairs
        return {**iterable, **kwargs}
    out = {}
    for number, item in enumerate(iterate(iterable)):
        pair = list(iterate(item)) if isinstance(item, (list, tuple, str)) else None
        if pair is None:
            raise errors.type_error(f"cannot convert dictionary update sequence element "
                                    f"#{number} to a sequence")
        if len(pair) != 2:
            raise errors.value_error(f"dictionary update sequence element #{number} has length "
                                     f"{len(pair)}; 2 is required")
        out[pair[0]] = pair[1]
    out.update(kwargs)
    return out


_NESTING_LIMIT = 999  # containers inside containers that Python can repr (its recursion limit)


class Printer:
    """Renders values as Python's repr/str would, with the session's tensor print options."""

    def __init__(self) -> None:
        self.options = printing.PrintOptions()
        self.numpy_options: dict = {}  # np.set_printoptions's, for this session's arrays
        self._printing: set[int] = set()  # ids of the containers being printed

    def host(self, render, value) -> str:
        """repr or str of a host-printed value: NumPy's under the session's NumPy options."""
        if not self.numpy_options or not isinstance(value, NUMPY_VALUES):
            return render(value)
        with np.printoptions(**self.numpy_options):
            return render(value)

    def tensor(self, t: Tensor) -> str:
        uninitialized = kind_of(t)
        if uninitialized is not None:
            return f"<{uninitialized}>"
        if tensor_subclasses.STATUS.watching:  # an instance's class, or a mode, may see it
            return protocols.subclass_repr(self, t)
        return self.plain_tensor(t)

    def plain_tensor(self, t: Tensor, prefix: str = "tensor") -> str:
        """torch's Tensor.__repr__ (`prefix` the name of a subclass's instance's class)."""
        label = t.grad_fn.class_name if t.grad_fn is not None else None
        if t.sparse is not None:
            return printing.sparse_repr(t, self.options, default_dtype=STATE.default_dtype)
        text = printing.tensor_repr(t.data, t.dtype, self.options,
                                    default_dtype=STATE.default_dtype,
                                    requires_grad=t.requires_grad and t.grad_fn is None,
                                    grad_fn_label=label, tangent=self._tangent(t),
                                    prefix=prefix)
        if t.is_parameter:  # a subclass's instance flagged as a parameter: wrapped
            return "Parameter containing:\n" + text if prefix == "tensor" else f"Parameter({text})"
        return text

    def _tangent(self, t: Tensor) -> str | None:
        """The tangent as torch's f"tangent={tangent}" formats it (a 0-dim one as its item)."""
        tangent = t._fw_grad
        if tangent is None:
            return None
        return str(tangent.data.item()) if tangent.ndim == 0 else self.tensor(tangent)

    def repr(self, value) -> str:
        if isinstance(value, Tensor):
            return self.tensor(value)
        if isinstance(value, bool) or value is None:
            return str(value)
        if isinstance(value, (int, float, complex, str, bytes, range)) or value is Ellipsis or \
                value is NotImplemented or (
                isinstance(value, slice) and all(isinstance(v, (int, type(None))) for v in (
                    value.start, value.stop, value.step))):
            return value.repr(self) if isinstance(value, TableObject) else repr(value)
        if isinstance(value, Size):
            return f"torch.Size([{', '.join(str(v) for v in value)}])"
        if isinstance(value, ReturnTypes) and value.name == "UnpackedDualTensor":
            fields = ", ".join(f"{f}={self.repr(v)}" for f, v in zip(value.fields, value))
            return f"UnpackedDualTensor({fields})"
        if isinstance(value, ReturnTypes):
            fields = ",\n".join(f"{f}={self.repr(v)}" for f, v in zip(value.fields, value))
            return f"torch.return_types.{value.name}(\n{fields})"
        if isinstance(value, (set, frozenset)):
            inner = "{" + ", ".join(self.repr(v) for v in value) + "}" if value else ""
            if isinstance(value, frozenset):
                return f"frozenset({inner})"
            return inner or "set()"
        if isinstance(value, DICT_VIEWS):
            return f"{type(value).__name__}([{', '.join(self.repr(v) for v in value)}])"
        if isinstance(value, Counter):
            inner = ", ".join(f"{self.repr(k)}: {self.repr(v)}" for k, v in value.most_common())
            return f"Counter({{{inner}}})" if inner else "Counter()"
        if isinstance(value, DefaultDict):
            return (f"defaultdict({self.repr(value.language_factory)}, "
                    f"{self._container(dict(value))})")
        if isinstance(value, NamedTuple) and not isinstance(value, TableObject):
            fields = ", ".join(f"{f}={self.repr(v)}" for f, v in zip(value.language_fields,
                                                                   value))
            return f"{type(value).__name__}({fields})"
        if isinstance(value, deque):
            inner = ", ".join(self.repr(v) for v in value)
            bound = "" if value.maxlen is None else f", maxlen={value.maxlen}"
            return f"deque([{inner}]{bound})"
        if isinstance(value, MAPPING_VIEWS):  # ItemsView(ChainMap(...))
            return f"{type(value).__name__}({self.repr(value._mapping)})"
        if isinstance(value, ChainMap):
            return f"ChainMap({', '.join(self.repr(m) for m in value.maps)})"
        if isinstance(value, OrderedDict) and not isinstance(value, TableObject):
            items = ", ".join(f"({self.repr(k)}, {self.repr(v)})" for k, v in value.items())
            return f"OrderedDict([{items}])" if items else "OrderedDict()"
        if isinstance(value, TableObject):  # a user class derived from list or dict too
            return value.repr(self)
        if isinstance(value, (tuple, list, dict)):
            return self._container(value)
        if isinstance(value, (dtypes.DType, MemoryFormat, Layout)):
            return repr(value)
        if isinstance(value, BaseException):
            return f"{type(value).__name__}({', '.join(self.repr(a) for a in value.args)})"
        if isinstance(value, HOST_PRINTED):
            return self.host(repr, value)
        if isinstance(value, TableObject):
            return value.repr(self)
        return _object_repr(value)

    def _container(self, value) -> str:
        """A tuple, list or dict, with `[...]` where it contains itself (as Python prints it)."""
        open_, close = {tuple: "()", list: "[]", dict: "{}"}[type(value)]
        if id(value) in self._printing:
            return open_ + "..." + close
        if len(self._printing) >= _NESTING_LIMIT:
            raise errors.TorchError("RecursionError", "maximum recursion depth exceeded while "
                                    "getting the repr of an object")
        self._printing.add(id(value))
        try:
            if isinstance(value, dict):
                inner = ", ".join(f"{self.repr(k)}: {self.repr(v)}" for k, v in value.items())
            else:
                inner = ", ".join(self.repr(v) for v in value)
        finally:
            self._printing.discard(id(value))
        if isinstance(value, tuple) and len(value) == 1:
            inner += ","
        return open_ + inner + close

    def str(self, value) -> str:
        if isinstance(value, str):
            return value.str(self) if isinstance(value, TableObject) else value
        if isinstance(value, BaseException):
            return self._exception_str(value)
        if isinstance(value, TableObject):
            return value.str(self)
        if isinstance(value, HOST_PRINTED):
            return self.host(str, value)
        return self.repr(value)

    def _exception_str(self, value: BaseException) -> str:
        """str(e): nothing, its one argument (a KeyError's key as a repr), or all of them."""
        args = value.args
        if isinstance(value, OSError) and value.strerror is not None:  # [Errno 2] No such file
            return str(value)
        if len(args) != 1:
            return self.repr(args) if args else ""
        return self.repr(args[0]) if isinstance(value, KeyError) else self.str(args[0])

    def format_field(self, value, conversion: str | None, spec: str) -> str:
        """A replacement field `{value!conversion:spec}`: the conversion, then the spec."""
        if conversion == "r":
            value = self.repr(value)
        elif conversion == "s":
            value = self.str(value)
        elif conversion == "a":
            value = ascii(self.repr(value))[1:-1]
        return self.format(value, spec)

    def format(self, value, spec: str) -> str:
        """format(value, spec), with torch's rule: a 0-d tensor (not a Parameter) formats as its
        item."""
        if isinstance(value, Tensor):
            if value.ndim == 0 and not value.is_parameter and \
                    tensor_subclasses.class_of(value) is None:
                return format(value.data.item(), spec)
            if spec:
                raise errors.type_error(
                    f"unsupported format string passed to {type_name(value)}.__format__")
            return self.str(value)
        if isinstance(value, (int, float, complex, str, *ARRAY_TYPES)):
            if isinstance(value, TableObject):  # class Meters(float): its own __str__/__format__
                return self._user_format(value, spec)
            try:
                return self.host(lambda v: format(v, spec), value)
            except ValueError as error:
                raise errors.value_error(str(error)) from None
        if isinstance(value, TableObject) and value.user_class() is not None:
            return self._user_format(value, spec)
        if spec:
            raise errors.type_error(
                f"unsupported format string passed to {type_name(value)}.__format__")
        return self.str(value)

    def _user_format(self, value, spec: str) -> str:
        """format() of a user class instance: its __format__, else its str() for an empty spec,
        else its builtin base's format (class Meters(float))."""
        from gradcli.language.runtime import classes
        method = classes.special_method(value, "__format__")
        if method is not None:
            text = classes.call_bound(method, [spec])
            if not isinstance(text, str):
                raise errors.type_error(f"__format__ must return a str, not {type_name(text)}")
            return text
        if not spec:
            return self.str(value)
        if isinstance(value, (int, float, str)):
            try:
                return format(value.HOST(value), spec)
            except ValueError as error:
                raise errors.value_error(str(error)) from None
        raise errors.type_error(
            f"unsupported format string passed to {type_name(value)}.__format__")


def _object_repr(value) -> str:
    """`<...>` reprs of functions, classes, modules and graph nodes, as Python shows them."""
    from gradcli.language.runtime.frames import BoundMethod, ContextManager, UserFunction
    from gradcli.language.runtime.signatures import Builtin
    from gradcli.language.runtime import classes
    if isinstance(value, PyType):
        return f"<class '{value.name}'>"
    if isinstance(value, TypeForm):
        if value.args is None and value.origin is OBJECT:  # typing.Generic, a class itself
            return f"<class '{value.name}'>"
        return value.text(_class_name)
    if isinstance(value, classes.UserClass):
        return classes.class_repr(value)
    if isinstance(value, classes.UserMethod):
        receiver = _object_repr(value.receiver) if isinstance(
            value.receiver, classes.UserClass) else value.receiver.repr(Printer())
        if isinstance(value.function, UserFunction):  # named by its qualified name, as Python
            return f"<bound method {value.function.qualname} of {receiver}>"
        owner = value.receiver.qualname if isinstance(value.receiver, classes.UserClass) else (
            type_name(value.receiver))
        return f"<bound method {owner}.{value.function.name} of {receiver}>"
    if isinstance(value, UserFunction):
        return f"<function {value.qualname} at {_address(value)}>"
    if isinstance(value, WrappedBuiltin):  # functools.wraps: the wrapped function's names
        return f"<function {value.title} at {_address(value)}>"
    found = home(value) if isinstance(value, Builtin) else None
    if found is not None:  # one of torch's functions, as where torch defines it shows it
        return found.shown(_address(value))
    declaration = getattr(value, "declaration", None)
    if declaration is not None and declaration.python:  # Python code in torch (F.relu)
        return f"<function {declaration.python_title or value.name} at {_address(value)}>"
    if declaration is not None and value.variant in ("torch", "functional"):  # C++ in torch
        return f"<built-in method {value.name} of type object at {_address(declaration)}>"
    if declaration is not None and value.variant in ("linalg", "special", "fft"):  # linalg_det
        return f"<built-in function {value.variant}_{value.name}>"
    kind = builtin_kind(value) if isinstance(value, Builtin) else None
    if kind == "method_descriptor":  # list.append, torch.Tensor.sum
        owner = C_CLASSES[value.qualname.rpartition(".")[0]]
        shown = "slot wrapper" if value.name in _SLOTS else "method"
        return f"<{shown} '{value.name}' of '{owner}' objects>"
    if isinstance(value, Builtin) and value.qualname == "getset_descriptor.__get__":
        return f"<method-wrapper '__get__' of getset_descriptor object at {_address(value)}>"
    if isinstance(value, Builtin) and value.qualname in _C_CLASS_METHODS:  # dict.fromkeys
        return f"<built-in method {value.name} of type object at {_address(value)}>"
    if isinstance(value, Builtin) and value.style == "python" and "." in value.qualname:
        return f"<function {value.title} at {_address(value)}>"  # Python in torch
    if isinstance(value, Builtin):
        return f"<built-in function {value.name}>"
    if python_method(value):
        receiver = value.receiver
        shown = _object_repr(receiver) if isinstance(receiver, PyType) else Printer().repr(receiver)
        return f"<bound method {value.builtin.qualname} of {shown}>"
    if isinstance(value, BoundMethod):
        return (f"<built-in method {value.builtin.name} of {type_name(value.receiver)} object at "
                f"{_address(value.receiver)}>")
    if isinstance(value, Namespace):  # a module compiled into the interpreter says so
        return f"<module '{value.name}'{' (built-in)' if value.name in _BUILT_IN else ''}>"
    if isinstance(value, (Generator, GeneratorObject)):
        return f"<generator object {value.qualname} at {_address(value)}>"
    if isinstance(value, ContextManager):
        return value.shown or f"<{value.label} object at {_address(value)}>"
    return f"<{qualified_type_name(value)} object at {_address(value)}>"


# the special methods of TensorBase written as type slots
_BUILT_IN = frozenset(sys.builtin_module_names)  # the modules Python's repr calls built-in
_SLOTS = frozenset(("__getitem__", "__setitem__", "__delitem__"))


def python_method(value) -> bool:
    """Whether `value` is bound to an object of a class torch writes in Python (Module.eval):
    Python's bound `method`, not a builtin."""
    from gradcli.language.runtime.frames import BoundMethod
    return isinstance(value, BoundMethod) and getattr(value.builtin, "style", "") == "python" \
        and "." in getattr(value.builtin, "qualname", "") and type(value.receiver) not in _C_TYPES \
        and builtin_kind(value.builtin) != "method_descriptor"  # x.__abs__: TensorBase.abs


def builtin_kind(value) -> str:
    """The class of a table entry in Python: "function" for Python code (torch's own, F.relu,
    or a method of a class torch writes in Python read from the class, nn.Module.train),
    "method_descriptor" for a method of a class written in C read from the class (list.append,
    torch.Tensor.sum), else "builtin_function_or_method"."""
    if isinstance(value, WrappedBuiltin):
        return "function"
    found = home(value)
    if found is not None:
        return "function" if found.kind == "function" else "builtin_function_or_method"
    owner, _, name = value.qualname.rpartition(".")
    if value.qualname in _C_CLASS_METHODS:  # bound to the class: dict.fromkeys
        return "builtin_function_or_method"
    if owner in C_CLASSES and (not name.startswith("__") or value.style == "exact" or
                               owner == "TensorBase"):
        return "method_descriptor"  # (not its slot wrappers; TensorBase's are methods)
    if owner and value.style == "python" and getattr(value, "declaration", None) is None:
        return "function"
    return "builtin_function_or_method"


# the class methods of Python's classes written in C
_C_CLASS_METHODS = frozenset(("dict.fromkeys", "int.from_bytes", "float.fromhex",
                              "bytes.fromhex", "str.maketrans", "bytes.maketrans"))


# Python's classes written in C, whose methods are builtins whatever their tables say (and
# random.Random, most of whose are).
_C_TYPES = frozenset((list, dict, set, frozenset, tuple, str, bytes, int, float, complex,
                      deque, OrderedDict, random.Random))


def _class_name(value) -> str:
    """A class as typing prints it inside brackets: `int`, `torch.Tensor`, `__main__.Point`."""
    from gradcli.language.runtime import classes
    if isinstance(value, PyType):
        return value.name
    if isinstance(value, classes.UserClass):
        return f"{value.module}.{value.qualname}"
    return _object_repr(value)


def _address(value) -> str:
    return f"0x{id(value):x}"


# Class names of the language's values, by host class (exact), for messages and type().
_CLASS_NAMES: dict[type, str] = {
    Tensor: "Tensor", Size: "torch.Size", type(None): "NoneType", Namespace: "module",
    PyType: "type", Generator: "generator", GeneratorObject: "generator",
    dtypes.DType: "torch.dtype", MemoryFormat: "torch.memory_format", Layout: "torch.layout",
    RemovableHandle: "RemovableHandle", Device: "torch.device",
    # classes written in C are named with their module
    OrderedDict: "collections.OrderedDict", DefaultDict: "collections.defaultdict",
    deque: "collections.deque", SequenceIterator: "iterator",
}


def _late_class_names() -> dict[type, str]:
    from gradcli.language.runtime import classes
    from gradcli.language.runtime.frames import BoundMethod, UserFunction
    from gradcli.language.runtime.signatures import Builtin, DeclaredBuiltin
    return {UserFunction: "function", Builtin: "builtin_function_or_method",
            DeclaredBuiltin: "builtin_function_or_method",
            BoundMethod: "builtin_function_or_method", classes.UserClass: "type",
            classes.UserMethod: "method", classes.Super: "super",
            classes.StaticMethod: "staticmethod", classes.ClassMethod: "classmethod",
            classes.Property: "property"}


def type_name(value) -> str:
    """The class name Python would report for `value` in error messages."""
    if type(value) is Tensor and kind_of(value) is not None:
        return kind_of(value)
    if type(value) is Tensor and value.is_parameter:
        return "Parameter"
    if tensor_subclasses.STATUS.made and tensor_subclasses.class_of(value) is not None:
        return tensor_subclasses.class_of(value).name
    if isinstance(value, TableObject):  # a C type by its tp_name ('torch._C.Generator')
        name = value.language_type.name
        return name if c_type(name) else value.class_name
    if isinstance(value, PyType):
        return value.metaclass
    name = _CLASS_NAMES.get(type(value))
    if name is not None:
        return name
    if isinstance(value, (Node, AccumulateGrad)):
        return value.class_name
    name = _late_class_names().get(type(value))
    if name == "builtin_function_or_method" and getattr(value, "style", "") == "new":
        return "type"  # a torch class offered as its constructor (torch.no_grad)
    if name == "builtin_function_or_method" and python_method(value):
        return "method"
    if name == "builtin_function_or_method" and hasattr(value, "qualname"):  # a table entry
        return builtin_kind(value)
    if name is not None:
        return name
    from gradcli.language.runtime.frames import ContextManager
    if isinstance(value, ContextManager):
        return value.label.rsplit(".", 1)[-1]
    if isinstance(value, ARRAY_TYPES):  # NumPy's classes are named with their module
        return f"numpy.{type(value).__name__}"
    return type(value).__name__


errors.name_types_with(type_name)  # the engine's messages name the program's classes too
# torch's parser reads Python's float, int and bool as dtypes
dtypes.read_classes_with(lambda value: value.hosts[0] if isinstance(value, PyType)
                         and len(value.hosts) == 1 else None)


def qualified_type_name(value) -> str:
    """The name `type(value)` prints: torch's classes with their module (`torch.Tensor`)."""
    if type(value) is Tensor and kind_of(value) is not None:
        return "torch.nn.parameter." + kind_of(value)
    if type(value) is Tensor and value.is_parameter:
        return "torch.nn.parameter.Parameter"
    if isinstance(value, TableObject):
        return value.language_type.name
    if isinstance(value, (Tensor, Size)):
        return "torch." + type_name(value)
    if isinstance(value, NUMPY_VALUES):
        return f"{type(value).__module__}.{type(value).__name__}"
    if isinstance(value, RemovableHandle):
        return "torch.utils.hooks.RemovableHandle"
    if isinstance(value, TypeForm):
        if value.args is None and value.origin is OBJECT:  # typing.Generic
            return "type"
        if value.name == "types.UnionType" or value.name[0] in "~+-":  # int | None, TypeVar
            return "types.UnionType" if value.name[0] == "t" else "typing.TypeVar"
        return "typing._GenericAlias" if value.name.startswith("typing.") else \
            "types.GenericAlias"
    if isinstance(value, FunctionNode) and value.custom:
        return "torch.autograd.function." + value.label
    from gradcli.language.runtime.frames import ContextManager
    if isinstance(value, ContextManager):
        return value.label
    return type_name(value)

