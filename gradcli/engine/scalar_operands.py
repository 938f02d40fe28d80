"""A 0-d operand beside a Python number, as its NumPy scalar.

NumPy turns a Python number meeting a 0-d array into an array before its ufunc runs, which is
most of the cost of a 0-d op (about 6,000 instructions of 6,600 for a float32 multiply). A NumPy
scalar takes the number as it is: the same weak-scalar promotion, the same float arithmetic, the
same bits and errors (checked for +, -, *, / in float16, float32 and float64, with floats and
ints from 0 to 10**309, specials included).
"""

from __future__ import annotations


def unboxed(a, b):
    """`a` as a NumPy scalar when it is a 0-d floating array and `b` a Python float or int;
    else `a`."""
    if a.ndim == 0 and (type(b) is float or type(b) is int) and a.dtype.kind == "f":
        return a[()]
    return a
