"""The Tensor record: values, dtype, autograd fields, view links and the version counter. No math."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, errors
from gradcli.engine.functions import F
from gradcli.engine.state import STATE

# How a view was made, which decides whether it may be modified in place (torch's CreationMeta).
DEFAULT, NO_GRAD_MODE, MULTI_OUTPUT = "default", "no_grad_mode", "multi_output"
IN_CUSTOM_FUNCTION = "in_custom_function"
LEAF_ONLY = "you can only change requires_grad flags of leaf variables."
DETACH_HINT = (" If you want to use a computed variable in a subgraph that doesn't require "
               "differentiation use var_no_grad = var.detach().")


_BFLOAT16 = dtypes.bfloat16


class VersionCounter:
    """Counts in-place writes; a view shares its base's counter, as in torch. The class holds
    the starting values, so that making one runs no Python code."""

    value = 0
    bumped_at = None  # where the last in-place write happened


# The counter of every tensor not yet written in place nor sharing its counter: most tensors
# never are, so they share this one (never written) rather than each making its own.
UNWRITTEN = VersionCounter()


class Tensor:
    """An n-dimensional array with torch's autograd metadata.

    A view keeps `_base` (the tensor owning the storage, never itself a view) and `_view_fn`,
    which replays the chain of view ops from the base's array to the view's array.
    """

    __slots__ = (
        "data", "dtype", "_requires_grad", "grad", "_grad_fn", "output_nr", "_version_counter",
        "_base", "_view_fn", "_view_version", "_creation_meta", "retains_grad", "_accumulator",
        "_history",  # ((text, origin), ...): why it has no history, set only where known
        "_made_at", "_leaf_at",  # origins: the op that made it (no grad_fn); where it began to
                                 # require grad as a leaf. Set only where known
        "is_parameter", "_fw_grad", "inference", "__weakref__",
        "sparse",  # a sparse COO tensor's indices and values (engine.sparse), else None
    )

    def __init__(self, data: np.ndarray, dtype: dtypes.DType | None = None, *,
                 requires_grad: bool = False, grad_fn=None, output_nr: int = 0):
        if dtype is None:
            dtype = dtypes.from_numpy(data.dtype)
        elif data.dtype is not dtype.np and data.dtype != dtype.np:
            data = data.astype(dtype.np)
        if dtype is _BFLOAT16:
            data = dtypes.round_bfloat16(data)
        self.data = data
        self.dtype = dtype
        self._requires_grad = requires_grad or grad_fn is not None
        self.grad: Tensor | None = None
        self._grad_fn = grad_fn
        self.output_nr = output_nr
        self._base = None
        self._version_counter = UNWRITTEN
        self.retains_grad = False
        self._accumulator = None
        self.is_parameter = False  # torch.nn.Parameter: same tensor, printed and typed as one
        self._fw_grad = None  # the tangent of forward-mode AD, while a dual level is open
        self._history = None
        self.inference = STATE.inference  # an inference tensor: made in inference mode
        self.sparse = None

    def make_view_of(self, source: "Tensor", view_fn, creation_meta: str = DEFAULT) -> None:
        """Link this tensor as a view of `source`'s storage (sharing its version counter)."""
        base = source._base
        if base is None:
            base, self._view_fn = source, view_fn
        else:
            parent_fn = source._view_fn
            self._view_fn = lambda array: view_fn(parent_fn(array))
        self._base = base
        self.inference = base.inference  # (a view of a normal tensor is normal)
        self._version_counter = base.own_counter()
        self._view_version = base._version_counter.value
        if source._base is not None and source._creation_meta != DEFAULT:
            creation_meta = source._creation_meta
        self._creation_meta = creation_meta

    @property
    def grad_fn(self):
        """The node that made this tensor; a view whose base changed in place since its node was
        made gets a fresh AsStridedBackward0 from the base (as torch regenerates it)."""
        if self._base is not None and self._view_version != self._version_counter.value:
            F.regenerate_grad_fn(self)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node) -> None:
        self._grad_fn = node
        if self._base is not None:
            self._view_version = self._version_counter.value

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self._grad_fn is not None:  # a non-leaf may only keep requiring grad
            if flag:
                return
            raise errors.runtime(LEAF_ONLY + DETACH_HINT)
        if flag and not self.dtype.differentiable:
            raise errors.runtime(
                "only Tensors of floating point and complex dtype can require gradients")
        if flag and self.inference and not STATE.inference:
            raise errors.runtime("Setting requires_grad=True on inference tensor outside "
                                 "InferenceMode is not allowed.")
        self._requires_grad = bool(flag)
        if flag:
            self._leaf_at = STATE.origin  # for the note on an in-place use of the leaf

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def _version(self) -> int:
        return self._version_counter.value

    def bump_version(self) -> None:
        """Count an in-place write (made already: an inference tensor refuses it only now)."""
        if self.inference and not STATE.inference:
            raise errors.runtime(
                "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
                "make a clone to get a normal tensor before doing inplace update.See "
                "https://github.com/pytorch/rfcs/pull/17 for more details.")
        counter = self.own_counter()
        counter.value += 1
        counter.bumped_at = STATE.origin  # where the in-place write happened, for error notes

    def own_counter(self) -> VersionCounter:
        """This tensor's own version counter (made now if it still had UNWRITTEN's), to write
        into or to share with a view or a handle that must see its writes."""
        counter = self._version_counter
        if counter is UNWRITTEN:
            counter = self._version_counter = VersionCounter()
        return counter

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return self.data.ndim

    def numel(self) -> int:
        return int(self.data.size)

    def is_view(self) -> bool:
        return self._base is not None

    def __repr__(self) -> str:  # for debugging; the language prints through engine.printing
        return f"Tensor({self.data!r}, dtype={self.dtype!r})"

    def __str__(self) -> str:
        """What f"{tensor}" gives in torch's own Python messages, so that no message built
        from a tensor shows the debugging repr: a 0-dim tensor's one value, else its repr with
        the default print options."""
        if self.ndim == 0:
            return str(self.data.item())
        from gradcli.engine import printing
        if self.sparse is not None:
            return printing.sparse_repr(self, printing.PrintOptions(),
                                        default_dtype=STATE.default_dtype)
        return printing.tensor_repr(
            self.data, self.dtype, printing.PrintOptions(), default_dtype=STATE.default_dtype,
            requires_grad=self.requires_grad and self.grad_fn is None,
            grad_fn_label=self.grad_fn.class_name if self.grad_fn is not None else None)


def wrap(value, dtype: dtypes.DType) -> Tensor:
    """A new leaf tensor holding `value` (array-like) as `dtype`."""
    return Tensor(np.asarray(value, dtype=dtype.np), dtype)


def require_tensors(values, argument: int = 0, allow_none: bool = False) -> None:
    """torch's TypeError for the first element of a tensor list that is not a tensor."""
    for position, value in enumerate(values):
        if not isinstance(value, Tensor) and not (allow_none and value is None):
            raise errors.type_error(f"expected Tensor as element {position} in argument "
                                    f"{argument}, but got {errors.type_name(value)}")



# the member descriptors of Tensor's slots, which swap_contents exchanges
_SLOTS = tuple(vars(Tensor)[slot] for slot in Tensor.__slots__ if slot != "__weakref__")
_UNSET = object()  # a slot a tensor never set


def swap_contents(t1: Tensor, t2: Tensor) -> None:
    """torch.utils.swap_tensors: each takes everything the other was."""
    for slot in _SLOTS:
        first, second = _read(slot, t1), _read(slot, t2)
        _write(slot, t1, second)
        _write(slot, t2, first)


def _read(slot, tensor: Tensor):
    try:
        return slot.__get__(tensor)
    except AttributeError:
        return _UNSET


def _write(slot, tensor: Tensor, value) -> None:
    if value is not _UNSET:
        slot.__set__(tensor, value)
    elif _read(slot, tensor) is not _UNSET:
        slot.__delete__(tensor)
