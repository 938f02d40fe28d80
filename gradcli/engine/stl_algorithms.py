"""libstdc++'s std::sort, std::nth_element and std::partial_sort, step for step.

torch's CPU kernels for topk, kthvalue, median and mode order ties however these unstable
algorithms leave them; to return the same indices, gradcli runs the same algorithms on Python
lists. `less(x, y)` is the comparator; every function rearranges `items` in place.
"""

from __future__ import annotations

THRESHOLD = 16  # libstdc++'s _S_threshold: std::sort's insertion sort below it


def _lg(n: int) -> int:
    return n.bit_length() - 1


def sort(items: list, less, first: int = 0, last: int | None = None) -> None:
    last = len(items) if last is None else last
    if last - first > 1:
        _introsort_loop(items, first, last, _lg(last - first) * 2, less)
        _final_insertion_sort(items, first, last, less)


def nth_element(items: list, nth: int, less) -> None:
    last = len(items)
    if last == 0 or nth == last:
        return
    _introselect(items, 0, nth, last, _lg(last) * 2, less)


def partial_sort(items: list, middle: int, less) -> None:
    _heap_select(items, 0, middle, len(items), less)
    _sort_heap(items, 0, middle, less)


def _introsort_loop(items, first, last, depth, less):
    while last - first > THRESHOLD:
        if depth == 0:
            _heap_select(items, first, last, last, less)
            _sort_heap(items, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(items, first, last, less)
        _introsort_loop(items, cut, last, depth, less)
        last = cut


def _introselect(items, first, nth, last, depth, less):
    while last - first > 3:
        if depth == 0:
            _heap_select(items, first, nth + 1, last, less)
            items[first], items[nth] = items[nth], items[first]
            return
        depth -= 1
        cut = _partition_pivot(items, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(items, first, last, less)


def _partition_pivot(items, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(items, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(items, first + 1, last, first, less)


def _move_median_to_first(items, result, a, b, c, less):
    if less(items[a], items[b]):
        if less(items[b], items[c]):
            pick = b
        elif less(items[a], items[c]):
            pick = c
        else:
            pick = a
    elif less(items[a], items[c]):
        pick = a
    elif less(items[b], items[c]):
        pick = c
    else:
        pick = b
    items[result], items[pick] = items[pick], items[result]


def _unguarded_partition(items, first, last, pivot, less):
    while True:
        while less(items[first], items[pivot]):
            first += 1
        last -= 1
        while less(items[pivot], items[last]):
            last -= 1
        if not first < last:
            return first
        items[first], items[last] = items[last], items[first]
        first += 1


def _final_insertion_sort(items, first, last, less):
    if last - first > THRESHOLD:
        _insertion_sort(items, first, first + THRESHOLD, less)
        for i in range(first + THRESHOLD, last):
            _unguarded_linear_insert(items, i, less)
    else:
        _insertion_sort(items, first, last, less)


def _insertion_sort(items, first, last, less):
    if first == last:
        return
    for i in range(first + 1, last):
        if less(items[i], items[first]):
            value = items[i]
            items[first + 1:i + 1] = items[first:i]
            items[first] = value
        else:
            _unguarded_linear_insert(items, i, less)


def _unguarded_linear_insert(items, last, less):
    value = items[last]
    while less(value, items[last - 1]):
        items[last] = items[last - 1]
        last -= 1
    items[last] = value


def _heap_select(items, first, middle, last, less):
    _make_heap(items, first, middle, less)
    for i in range(middle, last):
        if less(items[i], items[first]):
            _pop_heap(items, first, middle, i, less)


def _make_heap(items, first, last, less):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(items, first, parent, length, items[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(items, first, last, result, less):
    value = items[result]
    items[result] = items[first]
    _adjust_heap(items, first, 0, last - first, value, less)


def _sort_heap(items, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(items, first, last, last, less)


def _adjust_heap(items, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(items[first + child], items[first + child - 1]):
            child -= 1
        items[first + hole] = items[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[first + hole] = items[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(items[first + parent], value):
        items[first + hole] = items[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    items[first + hole] = value
