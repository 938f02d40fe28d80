"""Python's heapq and bisect over the program's lists, ordered by the language's own `<` (so
tuples holding tensors or instances of the program's classes compare as in Python). The
algorithms are CPython's, so a heap's layout is Python's."""

from __future__ import annotations

import heapq

from gradcli.engine import errors
from gradcli.language.runtime.operators import compare, sort_key
from gradcli.language.runtime.protocols import truth
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Generator, Namespace, iterate, type_name


def _less(a, b) -> bool:
    return truth(compare("<", a, b))


def _heap(heap, function: str, one_argument: bool = False) -> list:
    if not isinstance(heap, list):
        which = "argument" if one_argument else "argument 1"
        shown = "None" if heap is None else type_name(heap)  # (as CPython's argument clinic)
        raise errors.type_error(f"{function}() {which} must be list, not {shown}")
    return heap


def _sift_down(heap: list, start: int, pos: int) -> None:
    """Move heap[pos] up towards `start` until its parent is not greater (CPython's _siftdown)."""
    item = heap[pos]
    while pos > start:
        parent = (pos - 1) >> 1
        if not _less(item, heap[parent]):
            break
        heap[pos] = heap[parent]
        pos = parent
    heap[pos] = item


def _sift_up(heap: list, pos: int) -> None:
    """Bubble the smaller child up from `pos` to a leaf, then sift the item down (_siftup)."""
    end, start, item = len(heap), pos, heap[pos]
    child = 2 * pos + 1
    while child < end:
        right = child + 1
        if right < end and not _less(heap[child], heap[right]):
            child = right
        heap[pos] = heap[child]
        pos = child
        child = 2 * pos + 1
    heap[pos] = item
    _sift_down(heap, start, pos)


def heappush(heap, item) -> None:
    _heap(heap, "heappush").append(item)
    _sift_down(heap, 0, len(heap) - 1)


def heappop(heap):
    if not _heap(heap, "heappop", True):
        _empty()
    last = heap.pop()
    if not heap:
        return last
    top, heap[0] = heap[0], last
    _sift_up(heap, 0)
    return top


def _empty():
    raise errors.index_error("index out of range")


def heapreplace(heap, item):
    if not _heap(heap, "heapreplace"):
        _empty()
    top, heap[0] = heap[0], item
    _sift_up(heap, 0)
    return top


def heappushpop(heap, item):
    if _heap(heap, "heappushpop") and _less(heap[0], item):
        item, heap[0] = heap[0], item
        _sift_up(heap, 0)
    return item


def heapify(heap) -> None:
    for pos in reversed(range(len(_heap(heap, "heapify", True)) // 2)):
        _sift_up(heap, pos)


def _n_ordered(ctx, n, iterable, key, reverse: bool) -> list:
    """nsmallest / nlargest: the same items as sorted(...)[:n], as Python's give them."""
    return sorted(iterate(iterable), key=sort_key(ctx, key), reverse=reverse)[:max(n, 0)]


def _bisect(right: bool):
    def search(ctx, a, x, lo=0, hi=None, *, key=None):
        if lo < 0:
            raise errors.value_error("lo must be non-negative")
        hi = len(a) if hi is None else hi
        while lo < hi:  # `key` applies to the list's items; x is already a key
            mid = (lo + hi) // 2
            value = a[mid] if key is None else ctx.call(key, [a[mid]], {})
            if (_less(x, value) if right else not _less(value, x)):
                hi = mid
            else:
                lo = mid + 1
        return lo
    return search


def _insort(right: bool):
    def insort(ctx, a, x, lo=0, hi=None, *, key=None):
        probe = x if key is None else ctx.call(key, [x], {})
        a.insert(_bisect(right)(ctx, a, probe, lo, hi, key=key), x)
    return insort


def _merge(ctx, *iterables, key=None, reverse=False) -> Generator:
    """heapq.merge: Python's lazy merge, ordering with the language's `<` (after `key`)."""
    return Generator(heapq.merge(*(iterate(each) for each in iterables),
                                 key=sort_key(ctx, key), reverse=reverse), "merge")


_SEARCH = "a, x, lo=0, hi=None, *, key=None"
HEAPQ = Namespace("heapq", table(
    entry("heappush", heappush, "heap, item, /", style="expected", frames=0),
    entry("heappop", heappop, "heap, /", style="expected", frames=0),
    entry("heapreplace", heapreplace, "heap, item, /", style="expected", frames=0),
    entry("heappushpop", heappushpop, "heap, item, /", style="expected", frames=0),
    entry("heapify", heapify, "heap, /", style="expected", frames=0),
    entry("nsmallest", lambda ctx, n, iterable, key=None: _n_ordered(ctx, n, iterable, key, False),
          "n, iterable, key=None", context=True, frames=0),
    entry("nlargest", lambda ctx, n, iterable, key=None: _n_ordered(ctx, n, iterable, key, True),
          "n, iterable, key=None", context=True, frames=0),
    entry("merge", _merge, "*iterables, key=None, reverse=False", context=True, frames=0),
))
BISECT = Namespace("bisect", table(
    entry("bisect_left", _bisect(False), _SEARCH, context=True, frames=0),
    entry("bisect_right", _bisect(True), _SEARCH, context=True, frames=0),
    entry("bisect", _bisect(True), _SEARCH, context=True, frames=0),
    entry("insort_left", _insort(False), _SEARCH, context=True, frames=0),
    entry("insort_right", _insort(True), _SEARCH, context=True, frames=0),
    entry("insort", _insort(True), _SEARCH, context=True, frames=0),
))
MODULES = {"heapq": HEAPQ, "bisect": BISECT}
