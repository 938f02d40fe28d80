"""torch.einsum, following ATen's algorithm step by step so results and graphs match torch's."""

from __future__ import annotations

import math

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor, require_tensors
from gradcli.engine.functions import F
from gradcli.engine.functions import export

ELLIPSIS = "..."


def _parse_operand(text: str, index: int, offset: int) -> list:
    labels, i = [], 0
    while i < len(text):
        char = text[i]
        if char == " ":
            i += 1
        elif char == ".":
            if ELLIPSIS in labels:
                raise errors.runtime(f"einsum(): found '.' for operand {index} for which an "
                                     "ellipsis was already found")
            if text[i:i + 3] != ELLIPSIS:
                raise errors.runtime(f"einsum(): found '.' for operand {index} that is not part "
                                     "of any ellipsis")
            labels.append(ELLIPSIS)
            i += 3
        elif char.isalpha() and char.isascii():
            labels.append(char)
            i += 1
        else:
            raise errors.runtime(f"einsum(): invalid subscript given at index {offset + i} in the "
                                 "equation string, subscripts must be in [a-zA-Z]")
    return labels


def _label_order(label: str) -> int:
    """ATen numbers labels A-Z then a-z."""
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + 26


def _subscript(n) -> str:
    """torch's parse_subscript: a label of the sublist format."""
    if n is Ellipsis:
        return "..."
    for low, first in ((0, "A"), (26, "a")):
        if F.truth(F.python_compare(">=", n, low)) and F.truth(
                F.python_compare("<", n, low + 26)):
            if isinstance(n, Tensor):
                n = n.data.item()
            if not isinstance(n, int):
                raise errors.type_error(f"'{errors.type_name(n)}' object cannot be interpreted "
                                        "as an integer")
            return chr(ord(first) + n - low)
    raise errors.value_error("einsum(): subscript in subscript list is not within the valid "
                             "range [0, 52)")


def _items(sublist) -> list:
    """The items `for s in sublist` gives, or Python's TypeError."""
    if isinstance(sublist, Tensor):
        if sublist.ndim == 0:
            raise errors.type_error("iteration over a 0-d tensor")
        return [F.select(sublist, 0, i) for i in range(sublist.shape[0])]
    if not isinstance(sublist, (list, tuple, str)):
        raise errors.type_error(f"'{errors.type_name(sublist)}' object is not iterable")
    return list(sublist)


def _sublist_equation(arguments: tuple) -> tuple:
    """einsum(op, sublist, op, sublist, ..., [output sublist]): the equation torch's Python code
    writes for it, and the operands."""
    def letters(sublist) -> str:
        return "".join(_subscript(s) for s in _items(sublist))
    equation = ",".join(letters(sublist) for sublist in arguments[1::2])
    if len(arguments) % 2 == 1:
        return equation + "->" + letters(arguments[-1]), arguments[:-1:2]
    return equation, arguments[::2]


def einsum(*arguments) -> Tensor:
    if len(arguments) < 2:
        raise errors.value_error("einsum(): must specify the equation string and at least one "
                                 "operand, or at least one operand and its subscripts list")
    if isinstance(arguments[0], Tensor):
        equation, operands = _sublist_equation(arguments)
    else:
        equation, *operands = arguments
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):  # the old interface
        return einsum(equation, *operands[0])
    if not isinstance(equation, str):
        raise errors.type_error("einsum(): argument 'equation' (position 1) must be str, not "
                                f"{errors.type_name(equation)}")
    require_tensors(operands, argument=1)
    if not operands:
        raise errors.runtime("einsum(): must provide at least one operand")
    lhs, arrow, rhs = equation.partition("->")
    parts = lhs.split(",")
    if len(parts) > len(operands):
        raise errors.runtime("einsum(): fewer operands were provided than specified in the "
                             "equation")
    if len(parts) < len(operands):
        raise errors.runtime("einsum(): more operands were provided than specified in the "
                             "equation")
    op_labels, position = [], 0
    for index, part in enumerate(parts):
        op_labels.append(_parse_operand(part, index, position))
        position += len(part) + 1
    counts: dict = {}
    ell_num_dim = 0
    for index, (operand, labels) in enumerate(zip(operands, op_labels)):
        named = [lab for lab in labels if lab != ELLIPSIS]
        for lab in named:
            counts[lab] = counts.get(lab, 0) + 1
        has_ellipsis = ELLIPSIS in labels
        if has_ellipsis:
            ell_num_dim = max(ell_num_dim, operand.ndim - len(named))
        if (len(named) > operand.ndim) if has_ellipsis else (len(named) != operand.ndim):
            relation = ("is more than" if has_ellipsis else "does not match")
            raise errors.runtime(
                f"einsum(): the number of subscripts in the equation ({len(named)}) {relation} "
                f"the number of dimensions ({operand.ndim}) for operand {index}"
                + ("" if has_ellipsis else " and no ellipsis was given"))
    perm_index, ell_index, ell_in_output = {}, 0, False
    next_index = 0
    if not arrow:
        next_index, ell_in_output = ell_num_dim, True
        for lab in sorted(counts, key=_label_order):
            if counts[lab] == 1:
                perm_index[lab] = next_index
                next_index += 1
    else:
        for i, lab in enumerate(_parse_operand(rhs, -1, len(lhs) + 2)):
            if lab == ELLIPSIS:
                ell_index, ell_in_output = next_index, True
                next_index += ell_num_dim
                continue
            if lab not in counts or lab in perm_index:
                problem = ("appears more than once in the output" if lab in perm_index else
                           "does not appear in the equation for any input operand")
                raise errors.runtime(f"einsum(): output subscript {lab} {problem}")
            perm_index[lab] = next_index
            next_index += 1
    out_num_dim = next_index
    if not ell_in_output:
        ell_index = next_index
        next_index += ell_num_dim
    for lab in sorted(counts, key=_label_order):
        if lab not in perm_index:
            perm_index[lab] = next_index
            next_index += 1
    ops, dim_counts = _align(operands, op_labels, perm_index, ell_index, ell_num_dim, next_index)
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_dims, b_dims = [], [], []
        for d in range(out_num_dim, next_index):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_dims.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_dims.append(d)
                    dim_counts[d] = 0
        if a_dims:
            a = F.sum(a, tuple(a_dims), True)
        if b_dims:
            b = F.sum(b, tuple(b_dims), True)
        ops.insert(0, sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if next_index - out_num_dim > 0:
        if len(operands) > 1:
            return F.view(result, result.shape[:out_num_dim])
        return F.sum(result, tuple(range(out_num_dim, next_index)))
    return result


def _align(operands, op_labels, perm_index, ell_index, ell_num_dim, total):
    """Take diagonals for repeated labels, unsqueeze missing dims and permute every operand to
    the common label order; count the operands where each dim is not 1."""
    label_size, ell_sizes, dim_counts, ops = {}, [1] * ell_num_dim, [0] * total, []
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        permutation, dim = [-1] * total, 0
        for lab in labels:
            if lab == ELLIPSIS:
                covered = op.ndim - (len(labels) - 1)
                for j in range(ell_num_dim - covered, ell_num_dim):
                    if op.shape[dim] != 1:
                        if ell_sizes[j] not in (1, op.shape[dim]):
                            raise errors.runtime(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {i}has "
                                f"size {op.shape[dim]} which does not broadcast with previously "
                                f"seen ellipsis with size {ell_sizes[j]} for the respective "
                                "dimension")
                        ell_sizes[j] = op.shape[dim]
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[perm_index[lab]] == -1:
                if op.shape[dim] != 1:
                    seen = label_size.get(lab, 1)
                    if seen not in (1, op.shape[dim]):
                        raise errors.runtime(
                            f"einsum(): subscript {lab} has size {op.shape[dim]} for operand {i} "
                            f"which does not broadcast with previously seen size {seen}")
                    label_size[lab] = op.shape[dim]
                    dim_counts[perm_index[lab]] += 1
                permutation[perm_index[lab]] = dim
                dim += 1
            else:
                previous = permutation[perm_index[lab]]
                if op.shape[dim] != op.shape[previous]:
                    raise errors.runtime(
                        f"einsum(): subscript {lab} is repeated for operand {i} but the sizes "
                        f"don't match, {op.shape[dim]} != {op.shape[previous]}")
                op = F.movedim(F.diagonal(op, 0, previous, dim), -1, previous)
        for k, value in enumerate(permutation):
            if value == -1:
                op = F.unsqueeze(op, dim)
                permutation[k] = dim
                dim += 1
        ops.append(F.permute(op, tuple(permutation)))
    return ops, dim_counts


def sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list) -> Tensor:
    """(left * right).sum(sum_dims, keepdim=True) by permutes, reshapes and one bmm."""
    if not sum_dims:
        return F.mul(left, right)
    lro, lo, ro = [], [], []
    sum_size = 1
    for i in range(left.ndim):
        in_left, in_right = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if in_left and in_right:
                if left.shape[i] != right.shape[i]:
                    raise errors.runtime("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif in_left:
                left = F.sum(left, (i,), True)
            elif in_right:
                right = F.sum(right, (i,), True)
        elif in_left and in_right:
            if left.shape[i] != right.shape[i]:
                raise errors.runtime("non-broadcast dimensions must match")
            lro.append(i)
        elif in_left:
            lo.append(i)
        else:
            ro.append(i)
    lro_size = math.prod(left.shape[d] for d in lro)
    lo_size = math.prod(left.shape[d] for d in lo)
    ro_size = math.prod(right.shape[d] for d in ro)
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    lpermutation = lro + lo + sum_dims + ro
    rpermutation = lro + sum_dims + ro + lo
    opermutation = [0] * len(out_size)
    for i, d in enumerate(lro + lo + sum_dims + ro):
        opermutation[d] = i
    left = F.reshape(F.permute(left, tuple(lpermutation)), (lro_size, lo_size, sum_size))
    right = F.reshape(F.permute(right, tuple(rpermutation)), (lro_size, sum_size, ro_size))
    result = F.bmm(left, right)
    return F.permute(F.view(result, tuple(out_size)), tuple(opermutation))


export(__name__, globals())
