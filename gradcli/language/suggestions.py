"""Python 3.11's "Did you mean" after an uncaught NameError's or AttributeError's message: the
name in reach closest to the missing one, by CPython's distance and limits
(Python/suggestions.c)."""

from __future__ import annotations

import builtins

_MAX_CANDIDATES = 750
_MAX_LENGTH = 40
_MOVE_COST = 2
_CASE_COST = 1
# a script's top level before its first statement, in the order of its globals()
_SCRIPT_GLOBALS = ("__name__", "__doc__", "__package__", "__loader__", "__spec__",
                   "__annotations__", "__builtins__", "__file__", "__cached__")


def did_you_mean(looked_up: tuple | None) -> str:
    """What Python's traceback adds to the message of an error that failed to find
    `looked_up` (a GradRuntimeError's record of it): ". Did you mean: 'name'?", or ''."""
    if looked_up is None or looked_up[0] not in ("name", "attribute"):
        return ""  # (a failed import's module: Python suggests nothing)
    if looked_up[0] == "name":
        _, name, varnames, top = looked_up
        globals_ = [*_SCRIPT_GLOBALS, *(n for n in top.vars if n not in _SCRIPT_GLOBALS)]
        candidate_lists = (varnames, globals_, list(vars(builtins)))
    else:
        _, value, name = looked_up
        from gradcli.language.namespaces.python_dir import dir_of
        try:
            candidate_lists = (dir_of(value),)
        except Exception:  # noqa: BLE001 - as Python's excepthook, which drops whatever error
            return ""      # listing the names raises (a program's __dir__, a kind gradcli
            #                cannot list) and offers nothing
    for candidates in candidate_lists:
        found = closest(name, candidates)
        if found is not None:
            return f". Did you mean: '{found}'?"
    return ""


def closest(name: str, candidates) -> str | None:
    """The first of the candidates nearest to `name`, within a third of the characters
    involved; None for none, or for more than 750 candidates."""
    candidates = list(candidates)
    if len(candidates) >= _MAX_CANDIDATES:
        return None
    wrong = name.encode("utf-8", "surrogatepass")
    best, best_distance = None, None
    for candidate in candidates:
        if not isinstance(candidate, str) or candidate == name:
            continue
        text = candidate.encode("utf-8", "surrogatepass")
        limit = (len(wrong) + len(text) + 3) * _MOVE_COST // 6
        if best_distance is not None:
            limit = min(limit, best_distance - 1)
        distance = _distance(wrong, text, limit)
        if distance <= limit and (best is None or distance < best_distance):
            best, best_distance = candidate, distance
    return best


def _distance(a: bytes, b: bytes, max_cost: int) -> int:
    """CPython's Levenshtein distance over UTF-8 bytes: a case flip costs 1, any other edit 2;
    max_cost + 1 once it is surely above max_cost."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    end = 0
    while end < len(a) and end < len(b) and a[-1 - end] == b[-1 - end]:
        end += 1
    a, b = a[:len(a) - end], b[:len(b) - end]
    if not a or not b:
        return (len(a) + len(b)) * _MOVE_COST
    if len(a) > _MAX_LENGTH or len(b) > _MAX_LENGTH:
        return max_cost + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE_COST > max_cost:
        return max_cost + 1
    row = [(i + 1) * _MOVE_COST for i in range(len(a))]
    result = 0
    for b_index, code in enumerate(b):
        distance = result = b_index * _MOVE_COST
        minimum = None
        for index, other in enumerate(a):
            substitute = distance + _substitution_cost(code, other)
            distance = row[index]
            result = min(min(result, distance) + _MOVE_COST, substitute)
            row[index] = result
            if minimum is None or result < minimum:
                minimum = result
        if minimum > max_cost:
            return max_cost + 1
    return result


def _substitution_cost(a: int, b: int) -> int:
    if a & 31 != b & 31:  # not the same letter, nor a case flip
        return _MOVE_COST
    if a == b:
        return 0
    lower_a = a + 32 if 65 <= a <= 90 else a
    lower_b = b + 32 if 65 <= b <= 90 else b
    return _CASE_COST if lower_a == lower_b else _MOVE_COST
