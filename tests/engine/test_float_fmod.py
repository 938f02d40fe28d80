"""The fast float fmod is np.fmod bit for bit, over every kind of float32 and float16 value."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gradcli.engine import float_fmod

SPECIAL = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-45, -1e-45, 3.4e38, 1e-7, 65504.0]


def _values(rng, shape, scale, dtype):
    values = np.asarray(rng.standard_normal(shape) * scale).astype(dtype)
    flat = values.reshape(-1)
    flat[:len(SPECIAL)] = np.asarray(SPECIAL).astype(dtype)[:flat.size]
    rng.shuffle(flat)
    return values


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from([np.float32, np.float16]),
       scales=st.tuples(*[st.sampled_from([1e-30, 1e-3, 1.0, 7.0, 1e3, 1e9, 1e30])] * 2),
       shapes=st.sampled_from([((3000,), (3000,)), ((60, 50), (60, 1)), ((5000,), ()),
                               ((), (4000,)), ((70000,), (70000,)), ((70000,), ())]))
def test_fmod_is_numpys_bit_for_bit(seed, dtype, scales, shapes):
    rng = np.random.default_rng(seed)
    a, b = (_values(rng, shape, scale, dtype) for shape, scale in zip(shapes, scales))
    with np.errstate(all="ignore"):
        expected, got = np.fmod(a, b), float_fmod.fmod(a, b)
    bits = np.int32 if dtype == np.float32 else np.int16
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert np.array_equal(np.asarray(got).view(bits), np.asarray(expected).view(bits))


@pytest.mark.parametrize("a, b", [(np.arange(5000), 7), (np.arange(5000.0), 7.0),
                                  (np.float32(7.5), np.float32(2))])
def test_other_dtypes_and_small_sizes_are_numpys(a, b):
    assert np.array_equal(float_fmod.fmod(a, b), np.fmod(a, b))
