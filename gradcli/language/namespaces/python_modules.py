"""Python's small standard modules as scripts use them: time, typing, collections, functools and
itertools. Each is Python's own implementation behind a table; functions the program passes in
are called through the interpreter, never as host callables it could reach into."""

from __future__ import annotations

import collections
import functools
import itertools
import time

from gradcli.engine import errors
from gradcli.language.runtime.pytypes import PyType, TypeForm
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.signatures import Builtin, entry, table
from gradcli.language.runtime.values import DefaultDict, Namespace, dict_from, iterate
from gradcli.language.namespaces.builtins import truth
from gradcli.language.runtime.attributes import CLASS_METHODS

TIME = Namespace("time", table(
    entry("time", time.time, "", frames=0),
    entry("perf_counter", time.perf_counter, "", frames=0),
    entry("monotonic", time.monotonic, "", frames=0),
    entry("process_time", time.process_time, "", frames=0),
    entry("sleep", lambda seconds: time.sleep(max(0.0, float(seconds))), "secs, /", frames=0),
))

# typing's names, for annotations: subscripted (`List[int]`) and printed as Python's.
TYPING = Namespace("typing", {name: TypeForm(f"typing.{name}") for name in (
    "Any", "Callable", "Dict", "Iterable", "Iterator", "List", "Optional", "Sequence", "Set",
    "Tuple", "Type", "Union", "Generator", "Mapping", "Literal", "FrozenSet", "DefaultDict",
    "OrderedDict", "Counter", "Deque", "ClassVar", "Final", "Hashable", "Sized",
    "Collection", "Container", "MutableMapping", "MutableSequence", "AbstractSet", "NoReturn")})


def _ordered_dict(*args, **kwargs):
    if len(args) > 1:
        raise errors.type_error(f"expected at most 1 argument, got {len(args)}")
    return collections.OrderedDict(dict_from(args[0] if args else (), **kwargs))


def _defaultdict(ctx, default_factory=None, *args):
    factory = None if default_factory is None else (
        lambda: ctx.call(default_factory, [], {}))
    made = DefaultDict(factory, *(dict(a) if isinstance(a, dict) else a for a in args))
    made.language_factory = default_factory
    return made


def _counter(iterable=None, **kwargs):
    counter = collections.Counter()
    if iterable is not None:
        counter.update(iterable if isinstance(iterable, dict) else list(iterate(iterable)))
    counter.update(kwargs)
    return counter


COLLECTIONS = Namespace("collections", {
    "OrderedDict": PyType("collections.OrderedDict", (collections.OrderedDict,),
                          entry("OrderedDict", _ordered_dict, "*args, **kwargs", frames=0)),
    "defaultdict": PyType("collections.defaultdict", (collections.defaultdict,),
                          entry("defaultdict", _defaultdict, "default_factory=None, *args",
                                context=True, frames=0)),
    "Counter": PyType("collections.Counter", (collections.Counter,),
                      entry("Counter", _counter, "iterable=None, /, **kwds", frames=0)),
})


def _partial(ctx, func, *args, **keywords):
    """functools.partial: a callable that calls `func` with the fixed arguments first."""
    return entry("partial", lambda *more, **extra: ctx.call(func, [*args, *more],
                                                           {**keywords, **extra}),
                 "*args, **kwargs", qualname="functools.partial")


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


def _cache(ctx, function=None, maxsize=128, typed=False):
    """functools.lru_cache / cache: results kept by their (hashable) arguments."""
    def decorate(fn):
        results: dict = {}

        def cached(*args):
            if args not in results:
                results[args] = ctx.call(fn, list(args), {})
            return results[args]
        return entry(fn.name if isinstance(fn, (UserFunction, Builtin)) else "cached", cached,
                     "*args", frames=0)
    if function is None or isinstance(function, int):
        return entry("decorating_function", decorate, "user_function, /")
    return decorate(function)


FUNCTOOLS = Namespace("functools", table(
    entry("partial", _partial, "func, /, *args, **keywords", context=True, frames=0),
    entry("reduce", _reduce, "function, iterable, *initial", context=True, frames=0),
    entry("lru_cache", _cache, "maxsize=128, typed=False", context=True, frames=0),
    entry("cache", _cache, "user_function, /", context=True, frames=0),
    entry("wraps", lambda wrapped: entry("decorator", lambda fn: fn, "fn"), "wrapped, *args",
          frames=0),
))


def _function(ctx, function):
    return lambda *args: ctx.call(function, list(args), {})


def _predicate(ctx, predicate):
    return lambda item: truth(ctx.call(predicate, [item], {}))


def _accumulate(ctx, iterable, func=None, initial=None):
    """itertools.accumulate: running sums with the language's + (tensors too), or func."""
    from gradcli.language.compiler.operators import binary
    combine = (lambda a, b: binary("+", a, b)) if func is None else _function(ctx, func)
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
        _predicate(ctx, predicate) if predicate is not None else truth, iterate(it)),
        "function, iterable, /", context=True, frames=0),
    entry("starmap", lambda ctx, function, it: itertools.starmap(
        lambda *args: ctx.call(function, list(args), {}), (tuple(iterate(a)) for a in iterate(
            it))), "function, iterable, /", context=True, frames=0),
    entry("groupby", lambda ctx, it, key: itertools.groupby(iterate(it), None if key is None else
                                                            _function(ctx, key)),
          "iterable, key=None", context=True, frames=0),
    entry("compress", lambda data, selectors: itertools.compress(
        iterate(data), (truth(s) for s in iterate(selectors))), "data, selectors", frames=0),
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


MODULES = {"time": TIME, "typing": TYPING, "collections": COLLECTIONS, "functools": FUNCTOOLS,
           "itertools": ITERTOOLS}
