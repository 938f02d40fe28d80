"""Python's small standard modules as scripts use them: time, typing, collections, functools and
itertools. Each is Python's own implementation behind a table; functions the program passes in
are called through the interpreter, never as host callables it could reach into."""

from __future__ import annotations

import __future__
import collections
import itertools
import time

from gradcli.engine import errors
from gradcli.language.namespaces.python_collections_abc import COLLECTIONS_ABC
from gradcli.language.namespaces.python_copy import COPY
from gradcli.language.namespaces.python_io import IO
from gradcli.language.namespaces.python_warnings import WARNINGS
from gradcli.language.namespaces.functools_dispatch import SingleDispatch
from gradcli.language.namespaces.functools_ordering import ORDERING
from gradcli.language.namespaces.python_dataclasses import DATACLASSES
from gradcli.language.namespaces.python_namedtuple import namedtuple
from gradcli.language.namespaces.python_typing import TYPING
from gradcli.language.namespaces.serialization import PICKLE_ERRORS
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.frames import BoundMethod, UserFunction
from gradcli.language.runtime.objects import LazyTable, TableObject
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import (DefaultDict, NamedTuple, Namespace, dict_from,
                                            iterate, type_name)
from gradcli.language.runtime import attributes, classes, protocols
from gradcli.language.runtime.protocols import CLASS_METHODS
from gradcli.language.runtime.classes import CachedProperty


def _sleep(seconds) -> None:
    """time.sleep, with Python's errors for a bad duration."""
    if not isinstance(seconds, (int, float)):
        raise errors.type_error(f"'{type_name(seconds)}' object cannot be interpreted "
                                "as an integer")
    if seconds < 0:
        raise errors.value_error("sleep length must be non-negative")
    time.sleep(seconds)


# time.struct_time, printed by its dotted name with its nine fields
_STRUCT_TIME = type("time.struct_time", (NamedTuple,), {
    "__slots__": (), "language_fields": time.struct_time.__match_args__})


def _struct_time(host) -> NamedTuple:
    return _STRUCT_TIME(host)


def _host_time(value):
    """A struct_time (or 9-tuple) argument as Python's time functions take it."""
    if value is None:
        return time.localtime()
    if not isinstance(value, tuple) or len(value) != 9:
        raise errors.type_error("Tuple or struct_time argument required")
    return time.struct_time(tuple(value))


def _clock_reading(host):
    """time.gmtime / localtime: the struct_time of `secs` seconds since the epoch."""
    def read(secs=None):
        if secs is not None and not isinstance(secs, (int, float)):
            raise errors.type_error(f"'{type_name(secs)}' object cannot be interpreted as an "
                                    "integer")
        return _struct_time(host(secs))
    return read


def _strftime(format, t=None) -> str:
    if not isinstance(format, str):
        raise errors.type_error(f"strftime() argument 1 must be str, not {type_name(format)}")
    try:
        return time.strftime(format, _host_time(t))
    except (TypeError, ValueError, OverflowError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


TIME = Namespace("time", table(
    entry("gmtime", _clock_reading(time.gmtime), "seconds=None, /", frames=0),
    entry("localtime", _clock_reading(time.localtime), "seconds=None, /", frames=0),
    entry("strftime", _strftime, "format, time=None, /", frames=0),
    entry("mktime", lambda t: time.mktime(_host_time(t)), "time_tuple, /", frames=0),
    entry("asctime", lambda t=None: time.asctime(_host_time(t)), "time_tuple=None, /",
          frames=0),
    entry("ctime", lambda secs=None: time.ctime(secs), "seconds=None, /", frames=0),
    entry("time", time.time, "", frames=0),
    entry("perf_counter", time.perf_counter, "", frames=0),
    entry("monotonic", time.monotonic, "", frames=0),
    entry("process_time", time.process_time, "", frames=0),
    entry("sleep", lambda seconds: _sleep(seconds), "secs, /", frames=0),
    *(entry(f"{name}_ns", vars(time)[f"{name}_ns"], "", frames=0)
      for name in ("time", "perf_counter", "monotonic", "process_time")),
))
# timeit's clock (the module's timing of statements would run source text, which is refused)
TIMEIT = Namespace("timeit", table(
    entry("default_timer", time.perf_counter, "", frames=0),
    *(entry(name, lambda *args, name=name, **kwargs: _refuse("timeit", name),
            "*args, **kwargs", frames=0) for name in ("timeit", "repeat")),
))

# gc.collect, which scripts call before timing or measuring memory; a run holds no cycles of the
# program's objects worth reporting, so it finds none
GC = Namespace("gc", table(entry("collect", lambda generation=2: 0, "generation=2", frames=0)))

# `from __future__ import annotations` and the like: Python's feature records, which change
# nothing here (gradcli never evaluates annotations, and prints and divides as Python 3 does)
FUTURE = Namespace("__future__", {name: vars(__future__)[name]
                                  for name in __future__.all_feature_names})


def _refuse(module: str, name: str):
    raise errors.TorchError("NotImplementedError", f"gradcli does not support {module}.{name} "
                            "yet")


def _unsupported_pickle(name: str):
    return entry(name, lambda *args, **kwargs: _refuse("pickle", name), "*args, **kwargs",
                 frames=0)


# pickle imports (a tutorial's `from pickle import dump` for a CUDA memory snapshot); its
# functions are refused, since the language's values are not Python's.
PICKLE = Namespace("pickle", table(*(_unsupported_pickle(name) for name in (
    "dump", "dumps", "load", "loads"))) | {"HIGHEST_PROTOCOL": 5, "DEFAULT_PROTOCOL": 4}
    | PICKLE_ERRORS)

def _ordered_dict(*args, **kwargs):
    if len(args) > 1:
        raise errors.type_error(f"expected at most 1 arguments, got {len(args)}")
    return collections.OrderedDict(dict_from(args[0] if args else (), **kwargs))


def _defaultdict(ctx, default_factory=None, *args, **kwargs):
    if default_factory is not None and not protocols.is_callable(default_factory):
        raise errors.type_error("first argument must be callable or None")
    if len(args) > 1:
        raise errors.type_error(f"dict expected at most 1 argument, got {len(args)}")
    factory = None if default_factory is None else (
        lambda: ctx.call(default_factory, [], {}))
    made = DefaultDict(factory, dict_from(args[0] if args else (), **kwargs))
    made.language_factory = default_factory
    return made


def _counter(iterable=None, **kwargs):
    counter = collections.Counter()
    if iterable is not None:
        counter.update(iterable if isinstance(iterable, dict) else list(iterate(iterable)))
    counter.update(kwargs)
    return counter


COLLECTIONS = Namespace("collections", {
    "abc": COLLECTIONS_ABC,
    "namedtuple": entry("namedtuple", namedtuple, "typename, field_names, *, rename=False, "
                        "defaults=None, module=None", frames=0),
    "deque": PyType("collections.deque", (collections.deque,), entry(
        "deque", lambda iterable=(), maxlen=None: collections.deque(iterate(iterable), maxlen),
        "iterable=(), maxlen=None", style="at_most", frames=0)),
    "OrderedDict": PyType("collections.OrderedDict", (collections.OrderedDict,),
                          entry("OrderedDict", _ordered_dict, "*args, **kwargs", frames=0)),
    "defaultdict": PyType("collections.defaultdict", (collections.defaultdict,),
                          entry("defaultdict", _defaultdict,
                                "default_factory=None, *args, **kwargs",
                                context=True, frames=0)),
    "Counter": PyType("collections.Counter", (collections.Counter,),
                      entry("Counter", _counter, "iterable=None, /, **kwds", frames=0)),
    "ChainMap": PyType("collections.ChainMap", (collections.ChainMap,),
                       entry("ChainMap", collections.ChainMap, "*maps", frames=0)),
})
# a class derived from OrderedDict (an LRU cache) makes OrderedDicts carrying its attributes
classes.BASE_INSTANCES[COLLECTIONS.table["OrderedDict"]] = \
    lambda cls, args: classes.OrderedDictInstance(cls)
classes.BASE_INITS[COLLECTIONS.table["OrderedDict"]] = entry(
    "__init__", lambda instance, *args, **kwargs: instance.update(_ordered_dict(*args, **kwargs)),
    "self, /, *args, **kwds", qualname="OrderedDict.__init__")
for _name in ("deque", "OrderedDict", "Counter", "ChainMap"):  # type(state_dict) is collections.OrderedDict
    protocols.register_type(COLLECTIONS.table[_name])


class _Wrapper(TableObject):
    """A callable functools makes around a function of the program (a partial, a cached
    function): its own attributes only, calls go through the interpreter."""

    __slots__ = ()
    type_name = ""

    @property
    def language_type(self):
        return PyType(f"functools.{self.type_name}", ())

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"'{self.type_name}' object attribute "
                                f"'{name}' is read-only")

    def forward(self):
        return BoundMethod(self, entry(self.type_name, lambda me, *args, **kwargs: me.call(
            list(args), kwargs), "self, *args, **kwargs", frames=0))


class Partial(_Wrapper):
    """functools.partial(func, *args, **keywords)."""

    __slots__ = ("ctx", "func", "args", "keywords")
    type_name = "partial"

    def __init__(self, ctx, func, args: tuple, keywords: dict):
        self.ctx, self.func, self.args, self.keywords = ctx, func, args, keywords

    def call(self, args: list, kwargs: dict):
        return self.ctx.call(self.func, [*self.args, *args], {**self.keywords, **kwargs})

    def attribute(self, name: str):
        if name in ("func", "args", "keywords"):
            return {"func": self.func, "args": self.args, "keywords": self.keywords}[name]
        raise self.missing(name)

    def repr(self, printer) -> str:
        parts = [printer.repr(self.func), *(printer.repr(a) for a in self.args),
                 *(f"{k}={printer.repr(v)}" for k, v in self.keywords.items())]
        return f"functools.partial({', '.join(parts)})"


class CacheInfo(NamedTuple):
    __slots__ = ()
    language_fields = ("hits", "misses", "maxsize", "currsize")


class CachedFunction(_Wrapper):
    """What functools.lru_cache / cache make of a function: results kept by their arguments,
    least recently used dropped beyond maxsize."""

    __slots__ = ("ctx", "function", "maxsize", "results", "hits", "misses")
    type_name = "_lru_cache_wrapper"
    own_dunders = frozenset(("__wrapped__", "__name__", "__qualname__", "__doc__", "__module__"))

    def __init__(self, ctx, function, maxsize):
        self.ctx, self.function, self.maxsize = ctx, function, maxsize
        self.results: collections.OrderedDict = collections.OrderedDict()
        self.hits = self.misses = 0

    def call(self, args: list, kwargs: dict):
        key = (*args, *(item for pair in sorted(kwargs.items()) for item in pair))
        try:
            found = key in self.results
        except TypeError as error:
            raise errors.type_error(str(error)) from None
        if found:
            self.hits += 1
            self.results.move_to_end(key)
            return self.results[key]
        self.misses += 1
        value = self.ctx.call(self.function, args, kwargs)
        if self.maxsize != 0:
            self.results[key] = value
            if self.maxsize is not None and len(self.results) > self.maxsize:
                self.results.popitem(last=False)
        return value

    def attribute(self, name: str):
        if name == "cache_info":
            return entry("cache_info", lambda: CacheInfo(
                (self.hits, self.misses, self.maxsize, len(self.results))), "")
        if name == "cache_clear":
            return entry("cache_clear", self._clear, "")
        if name == "__wrapped__":
            return self.function
        if name in self.own_dunders:  # what update_wrapper copies from the function
            return protocols.get_attribute(self.function, name)
        raise self.missing(name)

    def _clear(self) -> None:
        self.results.clear()
        self.hits = self.misses = 0

    def repr(self, printer) -> str:
        return f"<functools._lru_cache_wrapper object at 0x{id(self):x}>"


def _partial(ctx, *args, **keywords):
    """functools.partial: a callable that calls `func` with the fixed arguments first."""
    if not args:
        raise errors.type_error("type 'partial' takes at least one argument")
    func, args = args[0], args[1:]
    if not protocols.is_callable(func):
        raise errors.type_error("the first argument must be callable")
    if isinstance(func, Partial):  # partial of a partial flattens, as Python's does
        return Partial(ctx, func.func, (*func.args, *args), {**func.keywords, **keywords})
    return Partial(ctx, func, args, keywords)


_WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")


def _update_wrapper(wrapper, wrapped, assigned=None, updated=None):
    """functools.update_wrapper: the wrapped callable's names, module and docstring copied onto
    the wrapper (a function, or an instance of the program's class; names the wrapped one lacks
    left out), its __dict__ added, and itself recorded as __wrapped__."""
    assigned = _WRAPPER_ASSIGNMENTS if assigned is None else tuple(iterate(assigned))
    updated = ("__dict__",) if updated is None else tuple(iterate(updated))
    for name in assigned:
        try:
            value = protocols.get_attribute(wrapped, name)
        except errors.TorchError as error:
            if error.kind != "AttributeError":
                raise
            continue
        attributes.set(wrapper, name, value)
    if "__dict__" in updated and isinstance(wrapped, UserFunction):
        for name, value in wrapped.attrs.items():
            attributes.set(wrapper, name, value)
    attributes.set(wrapper, "__wrapped__", wrapped)
    return wrapper


def _wraps(wrapped, assigned=None, updated=None):
    """functools.wraps(wrapped): update_wrapper as a decorator."""
    return entry("decorator", lambda wrapper: _update_wrapper(wrapper, wrapped, assigned,
                                                              updated), "wrapper, /")


def _reduce(ctx, function, iterable, *initial):
    items = iter(iterate(iterable))
    if initial:
        value = initial[0]
    else:
        try:
            value = next(items)
        except StopIteration:
            raise errors.type_error("reduce() of empty iterable with no initial value") from None
    for item in items:
        value = ctx.call(function, [value, item], {})
    return value


def _lru_cache(ctx, maxsize=128, typed=False):
    """functools.lru_cache(maxsize) or @lru_cache: a CachedFunction."""
    if not (maxsize is None or isinstance(maxsize, int)):  # @lru_cache without parentheses
        return CachedFunction(ctx, maxsize, 128)
    size = None if maxsize is None else max(maxsize, 0)
    return entry("decorating_function", lambda fn: CachedFunction(ctx, fn, size),
                 "user_function, /")


FUNCTOOLS = Namespace("functools", table(
    entry("partial", _partial, "*args, **keywords", context=True, frames=0),
    entry("reduce", _reduce, "function, iterable, *initial", context=True, frames=0),
    entry("lru_cache", _lru_cache, "maxsize=128, typed=False", context=True, frames=0),
    entry("cache", lambda ctx, fn: CachedFunction(ctx, fn, None), "user_function, /",
          context=True, frames=0),
    entry("wraps", _wraps, "wrapped, assigned=None, updated=None", frames=0),
    entry("update_wrapper", _update_wrapper, "wrapper, wrapped, assigned=None, updated=None",
          frames=0),
    entry("cached_property", CachedProperty, "func", frames=0),
    entry("singledispatch", SingleDispatch, "func", context=True, frames=0),
    *ORDERING,
))


def _function(ctx, function):
    return lambda *args: ctx.call(function, list(args), {})


def _predicate(ctx, predicate):
    return lambda item: protocols.truth(ctx.call(predicate, [item], {}))


def _accumulate(ctx, iterable, func=None, initial=None):
    """itertools.accumulate: running sums with the language's + (tensors too), or func."""
    combine = (lambda a, b: protocols.binary("+", a, b)) if func is None else \
        _function(ctx, func)
    return itertools.accumulate(iterate(iterable), combine, initial=initial)


ITERTOOLS = Namespace("itertools", table(
    entry("count", lambda start, step: itertools.count(start, step), "start=0, step=1",
          frames=0),
    entry("cycle", lambda it: itertools.cycle(iterate(it)), "iterable, /", frames=0),
    entry("repeat", lambda obj, *times: itertools.repeat(obj, *times), "object, *times",
          frames=0),

    entry("islice", lambda it, *args: itertools.islice(iterate(it), *args), "iterable, *args",
          frames=0),
    entry("product", lambda *its, repeat: itertools.product(*(iterate(i) for i in its),
                                                            repeat=repeat),
          "*iterables, repeat=1", frames=0),
    entry("permutations", lambda it, r: itertools.permutations(iterate(it), r),
          "iterable, r=None", frames=0),
    entry("combinations", lambda it, r: itertools.combinations(iterate(it), r), "iterable, r",
          frames=0),
    entry("zip_longest", lambda *its, fillvalue: itertools.zip_longest(
        *(iterate(i) for i in its), fillvalue=fillvalue), "*iterables, fillvalue=None",
        frames=0),
    entry("accumulate", _accumulate, "iterable, func=None, *, initial=None", context=True,
          frames=0),
    entry("takewhile", lambda ctx, predicate, it: itertools.takewhile(
        _predicate(ctx, predicate), iterate(it)), "predicate, iterable, /", context=True,
        frames=0),
    entry("dropwhile", lambda ctx, predicate, it: itertools.dropwhile(
        _predicate(ctx, predicate), iterate(it)), "predicate, iterable, /", context=True,
        frames=0),
    entry("filterfalse", lambda ctx, predicate, it: itertools.filterfalse(
        _predicate(ctx, predicate) if predicate is not None else protocols.truth, iterate(it)),
        "function, iterable, /", context=True, frames=0),
    entry("starmap", lambda ctx, function, it: itertools.starmap(
        lambda *args: ctx.call(function, list(args), {}), (tuple(iterate(a)) for a in iterate(
            it))), "function, iterable, /", context=True, frames=0),
    entry("groupby", lambda ctx, it, key: itertools.groupby(iterate(it), None if key is None else
                                                            _function(ctx, key)),
          "iterable, key=None", context=True, frames=0),
    entry("compress", lambda data, selectors: itertools.compress(
        iterate(data), (protocols.truth(s) for s in iterate(selectors))), "data, selectors",
        frames=0),
    entry("pairwise", lambda it: itertools.pairwise(iterate(it)), "iterable, /", frames=0),
    entry("tee", lambda it, n: itertools.tee(iterate(it), n), "iterable, n=2, /", frames=0),
    entry("combinations_with_replacement", lambda it, r: itertools.combinations_with_replacement(
        iterate(it), r), "iterable, r", frames=0),
))


CHAIN_TYPE = PyType("itertools.chain", (itertools.chain,), entry(
    "chain", lambda *its: itertools.chain(*(iterate(i) for i in its)), "*iterables", frames=0))
ITERTOOLS.table["chain"] = CHAIN_TYPE
CLASS_METHODS[itertools.chain] = table(entry(
    "from_iterable", lambda its: itertools.chain.from_iterable(iterate(i) for i in iterate(its)),
    "iterable, /", qualname="from_iterable", frames=0))


def _operator_table() -> dict:
    """Python's `operator` module over the language's own operators (tensors included)."""
    from gradcli.language.namespaces.operator_extras import OPERATOR_EXTRAS
    operators = protocols

    def binary(name: str, op: str):
        return entry(name, lambda a, b: operators.binary(op, a, b), "a, b, /", style="expected",
                     frames=0)

    def comparison(name: str, op: str):
        return entry(name, lambda a, b: operators.compare(op, a, b), "a, b, /",
                     style="expected", frames=0)

    def getter(name: str, fetch):
        def make(*keys):
            if not keys:
                raise errors.type_error(f"{name} expected 1 argument, got 0")

            def get(obj):
                found = tuple(fetch(obj, k) for k in keys)
                return found[0] if len(keys) == 1 else found
            return entry(name, get, "obj, /", qualname=f"operator.{name}", frames=0)
        return entry(name, make, "*items", frames=0)

    def attribute_path(obj, path: str):
        for part in path.split("."):
            obj = protocols.get_attribute(obj, part)
        return obj

    return table(
        *(binary(n, op) for n, op in (("add", "+"), ("sub", "-"), ("mul", "*"),
                                      ("truediv", "/"), ("floordiv", "//"), ("mod", "%"),
                                      ("pow", "**"), ("matmul", "@"), ("and_", "&"),
                                      ("or_", "|"), ("xor", "^"), ("lshift", "<<"),
                                      ("rshift", ">>"), ("concat", "+"))),
        *(comparison(n, op) for n, op in (("lt", "<"), ("le", "<="), ("eq", "=="), ("ne", "!="),
                                          ("gt", ">"), ("ge", ">="), ("is_", "is"),
                                          ("is_not", "is not"))),
        entry("neg", lambda a: operators.unary("-", a), "a, /", style="expected", frames=0),
        entry("pos", lambda a: operators.unary("+", a), "a, /", style="expected", frames=0),
        entry("invert", lambda a: operators.unary("~", a), "a, /", style="expected", frames=0),
        entry("not_", lambda a: not protocols.truth(a), "a, /", style="expected", frames=0),
        entry("truth", lambda a: protocols.truth(a), "a, /", style="expected", frames=0),
        entry("contains", lambda a, b: operators.compare("in", b, a), "a, b, /",
              style="expected", frames=0),
        entry("getitem", lambda a, b: protocols.get_item(a, b), "a, b, /", style="expected",
              frames=0),
        entry("abs", lambda a: protocols.absolute(a), "a, /", style="expected", frames=0),
        getter("itemgetter", lambda obj, key: protocols.get_item(obj, key)),
        getter("attrgetter", attribute_path),
        *OPERATOR_EXTRAS,
    )


OPERATOR = LazyTable({}, _operator_table)
MODULES = {"copy": COPY, "dataclasses": DATACLASSES, "time": TIME, "typing": TYPING, "collections": COLLECTIONS,
           "functools": FUNCTOOLS, "itertools": ITERTOOLS, "operator": Namespace("operator", OPERATOR),
           "warnings": WARNINGS, "io": IO, "pickle": PICKLE, "timeit": TIMEIT,
           "__future__": FUTURE, "gc": GC}
