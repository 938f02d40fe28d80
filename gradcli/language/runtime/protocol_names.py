"""Which dunder names Python's and torch's own values have (`hasattr(x, "__len__")`), for the
values gradcli keeps as host objects: their special methods act through the language's
operators, not as attributes, yet programs test for them (d2l's `hasattr(X[0], "__len__")`)."""

from __future__ import annotations

import functools

import numpy as np

from gradcli.engine.tensor import Tensor

# torch.Tensor's special names (the ones a program tests for)
_TENSOR = frozenset("""__len__ __getitem__ __setitem__ __delitem__ __iter__ __contains__ __array__
__float__ __int__ __index__ __bool__ __complex__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__
__matmul__ __rmatmul__ __truediv__ __rtruediv__ __floordiv__ __rfloordiv__ __mod__ __rmod__
__pow__ __rpow__ __neg__ __pos__ __abs__ __invert__ __and__ __rand__ __or__ __ror__ __xor__
__rxor__ __lshift__ __rlshift__ __rshift__ __rrshift__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__
__hash__ __reversed__ __format__ __repr__ __str__ __iadd__ __isub__ __imul__ __itruediv__
__ifloordiv__ __imod__ __ipow__ __iand__ __ior__ __ixor__ __ilshift__ __irshift__ __deepcopy__
__reduce_ex__ __setstate__ __dict__ __dlpack__ __array_wrap__ __torch_function__ __class__
__doc__ __module__ __init__ __new__ __getattribute__ __setattr__ __dir__ __sizeof__
__array_priority__ __weakref__ __long__ __nonzero__""".split())

_HOST_KINDS = (list, tuple, dict, set, frozenset, str, bytes, int, float, complex, range,
               type(None), np.ndarray, np.generic)


@functools.cache
def _names_of(kind: type) -> frozenset:
    return frozenset(name for name in dir(kind) if name[:2] == "__" == name[-2:])


def has_special(value, name: str) -> bool | None:
    """Whether `value` has the special name `name` as Python sees it; None when the value is
    not one of the host kinds this answers for."""
    if isinstance(value, Tensor):
        return name in _TENSOR
    if isinstance(value, _HOST_KINDS):
        return name in _names_of(type(value))
    return None
