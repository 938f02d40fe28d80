"""torch.func.rearrange: einops-style patterns ("b (h w) c -> b h w c") parsed with functorch's
checks and messages, then carried out as a reshape into the elementary axes, a permutation and
a reshape into the output's groups."""

from __future__ import annotations

import keyword
import math

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.distribution_base import Calls
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.values import type_name

_ELLIPSIS = "\u2026"  # functorch's stand-in for "..."


class DimensionBindError(Exception):
    """functorch.dim.DimensionBindError: sizes that do not bind to a pattern's axes."""


register_exception(PyType("functorch.dim.DimensionBindError", (DimensionBindError,)))


class _Parsed:
    """One side of a pattern: its composition (a list of axis-name groups, or the ellipsis)."""

    def __init__(self, expression: str):
        self.identifiers, self.composition = [], []
        self.has_ellipsis = self.ellipsis_in_group = self.anonymous = False
        if "." in expression:
            if "..." not in expression:
                raise errors.value_error("Expression may contain dots only inside ellipsis (...)")
            if expression.count("...") != 1 or expression.count(".") != 3:
                raise errors.value_error("Expression may contain dots only inside ellipsis (...); "
                                         "only one ellipsis for tensor ")
            expression = expression.replace("...", _ELLIPSIS)
            self.has_ellipsis = True
        group, current = None, None
        for char in expression:
            if char in "() ":
                if current is not None:
                    self._add(current, group)
                current = None
                if char == "(":
                    if group is not None:
                        raise errors.value_error("Axis composition is one-level (brackets inside "
                                                 "brackets not allowed)")
                    group = []
                elif char == ")":
                    if group is None:
                        raise errors.value_error("Brackets are not balanced")
                    self.composition.append(group)
                    group = None
            elif char.isalnum() or char in ("_", _ELLIPSIS):
                current = char if current is None else current + char
            else:
                raise errors.value_error(f"Unknown character '{char}'")
        if group is not None:
            raise errors.value_error(f"Imbalanced parentheses in expression: '{expression}'")
        if current is not None:
            self._add(current, group)

    def _add(self, name: str, group) -> None:
        if name in self.identifiers:
            raise errors.value_error(f"Indexing expression contains duplicate dimension '{name}'")
        if name == _ELLIPSIS:
            self.identifiers.append(name)
            if group is None:
                self.composition.append(_ELLIPSIS)
            else:
                group.append(_ELLIPSIS)
                self.ellipsis_in_group = True
            return
        if name.isdecimal():
            if int(name) == 1:
                if group is None:
                    self.composition.append([])
                return
            self.anonymous = True
        elif not name.isidentifier():
            raise errors.value_error(f"Invalid axis identifier: {name}\nnot a valid python "
                                     "identifier")
        elif name[0] == "_" or name[-1] == "_":
            raise errors.value_error(f"Invalid axis identifier: {name}\naxis name should should "
                                     "not start or end with underscore")
        elif keyword.iskeyword(name):
            from gradcli.engine.state import STATE
            STATE.warn("RuntimeWarning", f"It is discouraged to use axes names that are "
                       f"keywords: {name}")
        self.identifiers.append(name)
        if group is None:
            self.composition.append([name])
        else:
            group.append(name)


def _parse(pattern: str, axes_lengths: dict) -> tuple:
    """functorch's parse_pattern and validate_rearrange_expressions."""
    if not isinstance(pattern, str):  # (functorch's Python calls pattern.split)
        raise errors.no_attribute(pattern, "split")
    sides = pattern.split("->")
    if len(sides) != 2:
        raise errors.value_error("Pattern must contain a single '->' separator")
    left, right = _Parsed(sides[0]), _Parsed(sides[1])
    if not left.has_ellipsis and right.has_ellipsis:
        raise errors.value_error(f"Ellipsis found in right side, but not left side of a pattern "
                                 f"{pattern}")
    if left.has_ellipsis and left.ellipsis_in_group:
        raise errors.value_error(f"Ellipsis is parenthesis in the left side is not allowed: "
                                 f"{pattern}")
    for length in axes_lengths.values():
        if type(length) is not int:
            raise errors.type_error("rearrange axis lengths must be integers, got: <class "
                                    f"'{type_name(length)}'>")
    if left.anonymous or right.anonymous:
        raise errors.value_error("rearrange only supports unnamed axes of size 1")
    only_one_side = set(left.identifiers) ^ set(right.identifiers)
    if only_one_side:
        raise errors.value_error("Identifiers only on one side of rearrange expression (should "
                                 f"be on both): {_set_text(only_one_side, left, right)}")
    unmatched = [name for name in axes_lengths if name not in left.identifiers]
    if unmatched:
        raise errors.value_error("Identifiers not found in rearrange expression: "
                                 f"{_set_text(unmatched)}")
    return left, right


def _set_text(names, *sides) -> str:
    """A set of axis names as Python prints one (in the pattern's order here)."""
    order = [n for side in sides for n in side.identifiers] if sides else list(names)
    return "{" + ", ".join(repr(n) for n in dict.fromkeys(order) if n in names) + "}"


def _elementary_sizes(left: _Parsed, shape: tuple, axes_lengths: dict) -> tuple:
    """(the left side's elementary axes in order, their sizes): each group's one unknown size
    inferred from the tensor's dimension."""
    ellipsis_dims = len(shape) - (len(left.composition) - 1) if left.has_ellipsis else 0
    names, sizes, dim = [], dict(axes_lengths), 0
    for group in left.composition:
        if group == _ELLIPSIS:
            for j in range(ellipsis_dims):
                names.append((_ELLIPSIS, j))
                sizes[(_ELLIPSIS, j)] = shape[dim]
                dim += 1
            continue
        if not group:  # a unitary anonymous axis
            names.append(("1", dim))
            sizes[("1", dim)] = shape[dim]
            dim += 1
            continue
        unknown = [n for n in group if n not in sizes]
        known = math.prod(sizes[n] for n in group if n in sizes)
        dims = [f"d{len(names) + i}" for i in range(len(group))]  # functorch's dim names
        if len(unknown) > 1:
            first, second = (dims[group.index(n)] for n in unknown[:2])
            raise errors.TorchError("DimensionBindError", "cannot infer the sizes of two "
                                    f"dimensions at once {first} and {second}")
        if unknown:
            if known == 0 or shape[dim] % known:
                raise errors.TorchError("DimensionBindError", "inferred dimension does not evenly "
                                        f"fit into larger dimension: {shape[dim]} vs "
                                        f"{tuple(sizes[n] if n in sizes else '?' for n in group)}")
            sizes[unknown[0]] = shape[dim] // known
        elif known != shape[dim]:
            pack = ", ".join(dims) + ("," if len(dims) == 1 else "")
            raise errors.TorchError("DimensionBindError", f"Dimension sizes to do not match "
                                    f"({shape[dim]} != {known}) when matching dimension pack "
                                    f"({pack})")
        names.extend(group)
        dim += 1
    return names, sizes


def rearrange(runtime, tensor, pattern, **axes_lengths):
    c = Calls(runtime)
    if not isinstance(tensor, Tensor):
        tensor = c.torch("stack", tensor)
    left, right = _parse(pattern, axes_lengths)
    anonymous = sum(1 for group in left.composition if group == [])
    named = len(left.identifiers) - (1 if left.has_ellipsis else 0)
    if left.has_ellipsis:
        if anonymous + named > tensor.ndim:
            raise errors.value_error(f"Number of dimensions in pattern ({anonymous + named}) must "
                                     "be less than or equal to the number of dimensions in the "
                                     f"tensor ({tensor.ndim})")
    elif len(left.composition) != tensor.ndim:
        raise errors.value_error(f"Number of dimensions in pattern ({len(left.composition)}) "
                                 "must be equal to the number of dimensions in the tensor "
                                 f"({tensor.ndim})")
    names, sizes = _elementary_sizes(left, tuple(tensor.shape), axes_lengths)
    ellipsis_names = [n for n in names if isinstance(n, tuple) and n[0] == _ELLIPSIS]
    order, final = [], []
    for group in right.composition:
        members = ellipsis_names if group == _ELLIPSIS else [
            m for n in group for m in (ellipsis_names if n == _ELLIPSIS else [n])]
        order.extend(members)
        if group == _ELLIPSIS:
            final.extend(sizes[m] for m in members)
        else:
            final.append(math.prod(sizes[m] for m in members))
    order += [n for n in names if isinstance(n, tuple) and n[0] == "1"]  # size 1, dropped
    x = c.method(tensor, "reshape", [sizes[n] for n in names])
    x = c.method(x, "permute", [names.index(n) for n in order])
    return c.method(x, "reshape", final)
