"""torch.ctc_loss and F.ctc_loss: ATen's CPU kernels (the log-space alpha recursion, then beta
and the collected alpha*beta of the backward, CtcLossBackward0) in the kernel's own float
arithmetic, and what ctc_loss adds around them (zero_infinity's where, the mean over the
clamped target lengths)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.kernels_order import glibc_expf
from gradcli.engine.ops.registry import OPS, RESULT, apply, defop, not_implemented
from gradcli.engine.tensor import Tensor

_EXP64 = np.frompyfunc(math.exp, 1, 1)
_LOG64 = np.frompyfunc(lambda v: math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan),
                       1, 1)


def _exp(x: np.ndarray) -> np.ndarray:
    """std::exp in the kernel's scalar type: glibc's expf or exp."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        return glibc_expf(x)
    return np.asarray(_EXP64(x), np.float64).reshape(x.shape)


def _log(x: np.ndarray) -> np.ndarray:
    """std::log in the kernel's scalar type (logf as glibc's double log rounded)."""
    x = np.asarray(x)
    return np.asarray(_LOG64(x.astype(np.float64)), np.float64).reshape(x.shape).astype(x.dtype)


def _log_sum(terms: list, top: np.ndarray) -> np.ndarray:
    """log(exp(a-m)+exp(b-m)+...)+m, the kernel's logsumexp of two or three summands."""
    total = _exp(terms[0] - top)
    for term in terms[1:]:
        total = total + _exp(term - top)
    return _log(total) + top


def _primes(targets: np.ndarray, offset: int, length: int, blank: int,
            labels: int) -> np.ndarray:
    """l': the target with a blank before, between and after its labels (a label out of range,
    which torch's kernel reads past the row for, kept in range)."""
    primes = np.full(2 * length + 1, blank, np.int64)
    primes[1::2] = targets[offset:offset + length] if targets.ndim == 1 else \
        targets[offset, :length]
    return np.clip(primes, 0, labels - 1)


def _shifted(row: np.ndarray, by: int) -> np.ndarray:
    """row[s - by] at each s (row[s + |by|] for a negative `by`), -inf beyond its ends."""
    out = np.full_like(row, -np.inf)
    if by > 0:
        out[by:] = row[:len(row) - by] if by < len(row) else out[by:]
    else:
        out[:len(row) + by] = row[-by:] if -by < len(row) else out[:0]
    return out


def _offsets(targets: np.ndarray, target_lengths: tuple) -> list:
    if targets.ndim == 1:
        return [int(v) for v in np.concatenate(([0], np.cumsum(target_lengths)[:-1]))]
    return list(range(len(target_lengths)))


def _ctc_forward(log_probs, targets, input_lengths, target_lengths, blank):
    """ctc_loss_cpu_template: each batch item's negative log likelihood and its log alphas."""
    neginf = log_probs.dtype.type(-np.inf)
    batch = log_probs.shape[1]
    longest = max(target_lengths, default=0)
    log_alpha = np.full((batch, log_probs.shape[0], 2 * longest + 1), neginf, log_probs.dtype)
    nll = np.empty(batch, log_probs.dtype)
    for b, offset in enumerate(_offsets(targets, target_lengths)):
        steps, length = input_lengths[b], target_lengths[b]
        if steps == 0:
            nll[b] = -(log_probs.dtype.type(0) if length == 0 else neginf)
            continue
        lp, la = log_probs[:, b], log_alpha[b]
        primes = _primes(targets, offset, length, blank, log_probs.shape[2])
        width = 2 * length + 1
        la[0, 0] = lp[0, blank]
        if length > 0:
            la[0, 1] = lp[0, primes[1]]
        skip = np.zeros(width, bool)
        skip[2:] = primes[2:] != primes[:-2]
        for t in range(1, steps):
            previous = la[t - 1, :width]
            la1 = previous
            la2 = _shifted(previous, 1)
            la3 = np.where(skip, _shifted(previous, 2), neginf)
            top = np.maximum(np.maximum(la1, la2), la3)
            top = np.where(top == neginf, top.dtype.type(0), top)
            la[t, :width] = _log_sum([la1, la2, la3], top) + lp[t, primes]
        if length == 0:
            nll[b] = -la[steps - 1, 0]
        else:
            ends = la[steps - 1, 2 * length - 1:2 * length + 1][::-1]
            top = max(ends[0], ends[1])
            top = log_probs.dtype.type(0) if top == neginf else top
            nll[b] = -_log_sum([ends[0:1], ends[1:2]], top)[0]
    return nll, log_alpha


def _log_betas(lp, primes, steps, width, dtype) -> np.ndarray:
    """Eq (10) and (11): the log betas, from the last step back."""
    neginf = dtype.type(-np.inf)
    lb = np.full((steps, width), neginf, dtype)
    lb[steps - 1, width - 1] = lp[steps - 1, primes[width - 1]]
    if width > 1:
        lb[steps - 1, width - 2] = lp[steps - 1, primes[width - 2]]
    skip = np.zeros(width, bool)
    skip[:-2] = primes[2:] != primes[:-2]
    for t in range(steps - 2, -1, -1):
        following = lb[t + 1]
        lb1 = following
        lb2 = _shifted(following, -1)
        lb3 = np.where(skip, _shifted(following, -2), neginf)
        top = np.maximum(np.maximum(lb1, lb2), lb3)
        top = np.where(top == neginf, dtype.type(0), top)
        lb[t] = _log_sum([lb1, lb2, lb3], top) + lp[t, primes]
    return lb


def _ctc_backward(grad_out, log_probs, targets, nll, log_alpha, input_lengths, target_lengths,
                  blank, zero_infinity):
    """ctc_loss_backward_cpu_template: alpha*beta collected per label, descending s, then
    (exp(lp) - exp(collected + nll - lp)) * grad."""
    dtype = log_probs.dtype
    neginf = dtype.type(-np.inf)
    grad = np.zeros_like(log_probs)
    grad_out = np.broadcast_to(grad_out, nll.shape)
    for b, offset in enumerate(_offsets(targets, target_lengths)):
        steps, length = input_lengths[b], target_lengths[b]
        if (zero_infinity and nll[b] == np.inf) or steps == 0:
            continue
        lp = log_probs[:steps, b]
        primes = _primes(targets, offset, length, blank, log_probs.shape[2])
        width = 2 * length + 1
        lb = _log_betas(lp, primes, steps, width, dtype)
        alpha_beta = log_alpha[b, :steps, :width] + lb
        collected = np.full(lp.shape, neginf, dtype)
        for s in range(width - 1, -1, -1):
            column, value = collected[:, primes[s]], alpha_beta[:, s]
            top = np.maximum(column, value)
            with np.errstate(invalid="ignore"):
                summed = _log_sum([column, value], top)
            collected[:, primes[s]] = np.where(column == neginf, value, summed)
        grad[:steps, b] = (_exp(lp) - _exp(collected + nll[b] - lp)) * grad_out[b]
    return grad


def _lengths_vjp(grads, log_probs, targets, out, *, input_lengths, target_lengths, blank,
                 zero_infinity):
    g = grads[0] if isinstance(grads, (tuple, list)) else grads
    nll, log_alpha = out
    return F.apply_op("_ctc_loss_backward", g, log_probs, targets, nll, log_alpha,
                      input_lengths=input_lengths, target_lengths=target_lengths, blank=blank,
                      zero_infinity=zero_infinity)


defop("_ctc_loss", "CtcLossBackward0",
      lambda lp, targets, input_lengths, target_lengths, blank, zero_infinity: _ctc_forward(
          lp, targets, input_lengths, target_lengths, blank),
      promote="none", n_outputs=2, save=(0, 1, RESULT), vjp=(_lengths_vjp,))
defop("_ctc_loss_backward", "NotImplemented",
      lambda g, lp, targets, nll, log_alpha, input_lengths, target_lengths, blank,
      zero_infinity: _ctc_backward(g, lp, targets, nll, log_alpha, input_lengths,
                                   target_lengths, blank, zero_infinity),
      name="torch::autograd::NotImplemented", promote="none",
      vjp=(not_implemented("aten::_ctc_loss_backward"),) * 2)


def _checked_arguments(log_probs: Tensor, targets: Tensor, input_lengths: tuple,
                       target_lengths: tuple, blank: int) -> None:
    """ctc_loss_allocate_outputs' checks, in its order."""
    where = "(while checking arguments for ctc_loss_allocate_outputs)"
    if log_probs.ndim != 3:
        raise errors.runtime(f"Expected 3-dimensional tensor, but got {log_probs.ndim}-dimensional "
                             f"tensor for argument #1 'log_probs' {where}")
    if not 1 <= targets.ndim < 3:
        raise errors.runtime(f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional "
                             f"tensor for argument #2 'targets' {where}")
    batch, labels = log_probs.shape[1:]
    if not 0 <= blank < labels:
        raise errors.runtime("blank must be in label range")
    if len(input_lengths) != batch:
        raise errors.runtime("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise errors.runtime("target_lengths must be of size batch_size")
    for length in target_lengths:
        if length < 0:
            raise errors.runtime(f"Expected target_lengths to have value at least 0, but got "
                                 f"value {length} {where}")
    longest = max(target_lengths, default=0)
    expected = sum(target_lengths) if targets.ndim == 1 else batch
    if targets.shape[0] != expected:
        raise errors.runtime(f"Expected tensor to have size {expected} at dimension 0, but got "
                             f"size {targets.shape[0]} for argument #2 'targets' {where}")
    if targets.ndim == 2 and targets.shape[1] < longest:
        raise errors.runtime(f"Expected tensor to have size at least {longest} at dimension 1, "
                             f"but got size {targets.shape[1]} for argument #2 'targets' {where}")
    for length in input_lengths:
        if length < 0:
            raise errors.runtime(f"Expected input_lengths to have value at least 0, but got "
                                 f"value {length} {where}")
        if length > log_probs.shape[0]:
            raise errors.runtime(f"Expected input_lengths to have value at most "
                                 f"{log_probs.shape[0]}, but got value {length} {where}")


def _as_lengths(value, name: str) -> tuple:
    if isinstance(value, Tensor):
        if value.dtype.category != dtypes.INTEGRAL:
            raise errors.runtime(f"{name} must be integral")
        return tuple(int(v) for v in np.reshape(value.data, -1))
    return tuple(int(v) for v in value)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: int = 0, zero_infinity: bool = False) -> Tensor:
    """torch.ctc_loss (ctc_loss_impl): the kernel on a batch (an unbatched input as a batch of
    one), zero_infinity's where, then the reduction."""
    input_lengths = _as_lengths(input_lengths, "input_lengths")
    target_lengths = _as_lengths(target_lengths, "target_lengths")
    batched = log_probs.ndim == 3
    lp = log_probs if batched else F.unsqueeze(log_probs, 1)
    if not lp.dtype.is_floating_point or lp.dtype.itemsize < 4:
        raise errors.not_implemented_for("ctc_loss_cpu", lp.dtype)
    targets = F.to_dtype(targets, dtypes.int64)
    if lp.numel() == 0:
        raise errors.runtime("log_probs tensor must not be empty")
    _checked_arguments(lp, targets, input_lengths, target_lengths, blank)
    res, _ = apply(OPS["_ctc_loss"], lp, targets, input_lengths=input_lengths,
                   target_lengths=target_lengths, blank=blank, zero_infinity=zero_infinity)
    if zero_infinity:
        res = F.where(F.compare("eq", res, math.inf), Tensor(np.zeros((), res.dtype.np),
                                                             res.dtype), res)
    if reduction == 1:
        lengths = Tensor(np.maximum(np.asarray(target_lengths, res.dtype.np), 1), res.dtype)
        return F.mean(F.div(res, lengths))
    if reduction == 2:
        return F.sum(res)
    return res if batched else F.squeeze(res, 0)


_SCHEMAS = ("ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, "
            "int[] target_lengths, int blank=0, int reduction=at::Reduction::Mean, "
            "bool zero_infinity=False)",
            "ctc_loss(Tensor log_probs, Tensor targets, Tensor input_lengths, "
            "Tensor target_lengths, int blank=0, int reduction=at::Reduction::Mean, "
            "bool zero_infinity=False)")


def functional_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
                        reduction="mean", zero_infinity=False) -> Tensor:
    """F.ctc_loss: torch.ctc_loss with the reduction's enum."""
    if reduction not in F.REDUCTIONS:
        raise errors.value_error(f"{reduction} is not a valid value for reduction")
    bound = schemas.bind_cpp(_SCHEMAS, log_probs, targets, input_lengths, target_lengths, blank,
                             F.REDUCTIONS.index(reduction), zero_infinity)
    return ctc_loss(*bound.values())


declare("ctc_loss", ctc_loss, *_SCHEMAS, variants="torch")
declare("ctc_loss", functional_ctc_loss, python="log_probs, targets, input_lengths, "
        "target_lengths, blank=0, reduction='mean', zero_infinity=False",
        variants="functional")
export(__name__, globals())
