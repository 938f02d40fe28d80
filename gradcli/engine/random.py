"""Bit-exact NumPy copy of torch's CPU generator: mt19937 plus torch's x86-64 sampling kernels."""

from __future__ import annotations

import functools
import math
import os
import struct

import numpy as np

from gradcli.engine import errors
from gradcli.engine.fma import fma32, fma64
from gradcli.engine.state import DEFAULT_SEED, STATE

_N, _M = 624, 397
_U32 = np.uint32
_RANDPERM_SMALL = 0xFFFFFFFF // 20  # below this n torch shuffles with 32-bit draws
_ROWS_PER_BLOCK = 1 << 13  # rows of 16 normals drawn at a time
_STATE_FORMAT = "<QiiQ624Q3di4xf?3x"  # torch.get_rng_state()'s CPUGeneratorImplState layout


def _f32(*values):
    return [np.float32(v) for v in values]


_LOG_P = _f32(7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
              1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
              3.3333331174e-1)
_LOG_Q1, _LOG_Q2, _SQRTHF, _HALF, _ONE = _f32(-2.12194440e-4, 0.693359375, 0.707106781186547524,
                                              0.5, 1.0)
_DP = _f32(-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)
_SIN_P = _f32(-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
_COS_P = _f32(2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)
_FOPI, _TWO_PI = _f32(1.27323954473516, 2.0 * math.pi)
_MIN_NORMAL = np.finfo(np.float32).tiny


def _log256(x: np.ndarray) -> np.ndarray:
    """log256_ps (Cephes logf) as torch's AVX2 build runs it: GCC fuses its mul-adds into FMAs."""
    x = np.maximum(x, _MIN_NORMAL)
    e = ((x.view(np.int32) >> 23) - 0x7F).astype(np.float32) + _ONE
    x = ((x.view(np.int32) & ~0x7F800000) | _HALF.view(np.int32)).view(np.float32)
    small = x < _SQRTHF
    tmp = np.where(small, x, np.float32(0))
    x = x - _ONE
    e = e - np.where(small, _ONE, np.float32(0))
    x = x + tmp
    z = x * x
    y = _LOG_P[0]
    for p in _LOG_P[1:]:
        y = fma32(y, x, p)
    y = fma32(y * x, z, e * _LOG_Q1)
    y = fma32(-z, _HALF, y)
    return fma32(e, _LOG_Q2, x + y)


def _sincos256(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps (Cephes sinf/cosf) as torch's AVX2 build runs it, for x >= 0."""
    j = ((x * _FOPI).astype(np.int32) + 1) & ~1
    y = j.astype(np.float32)
    sign_sin = (j & 4) << 29
    sign_cos = (~(j - 2) & 4) << 29
    poly = (j & 2) == 0
    for dp in _DP:
        x = fma32(dp, y, x)
    z = x * x
    c = fma32(fma32(_COS_P[0], z, _COS_P[1]), z, _COS_P[2]) * z
    c = fma32(z, c, -(z * _HALF)) + _ONE
    s = fma32(fma32(_SIN_P[0], z, _SIN_P[1]), z, _SIN_P[2]) * z
    s = fma32(x, s, x)
    zero = np.float32(0)
    sin_from_s, sin_from_c = np.where(poly, s, zero), np.where(poly, zero, c)
    sin = sin_from_s + sin_from_c
    cos = (s - sin_from_s) + (c - sin_from_c)
    return (sin.view(np.int32) ^ sign_sin).view(np.float32), \
        (cos.view(np.int32) ^ sign_cos).view(np.float32)


def _box_muller16_f32(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """torch's AVX2 NormalFill16<float> over rows of 16 uniforms (x86-64 torch on AVX2 and AVX512
    CPUs; arm64 builds take a scalar logf/sincosf path with other last bits)."""
    u1, u2 = np.float32(1) - u[:, :8], u[:, 8:]
    radius = np.sqrt(np.float32(-2) * _log256(u1))
    sin, cos = _sincos256(_TWO_PI * u2)
    mean32, std32 = np.float32(mean), np.float32(std)
    return np.hstack([fma32(radius * cos, std32, mean32), fma32(radius * sin, std32, mean32)])


def _box_muller16_f64(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """torch's NormalFill16<double> over rows of 16 uniforms, with the C library's log/cos/sin
    (the libm that torch calls too)."""
    u1, u2 = (1.0 - u[:, :8]).ravel().tolist(), (u[:, 8:] * (2.0 * math.pi)).ravel().tolist()
    radius = np.sqrt(-2.0 * np.array([math.log(v) for v in u1]))
    cos = np.array([math.cos(t) for t in u2])
    sin = np.array([math.sin(t) for t in u2])
    halves = [fma64(radius * f, std, mean).reshape(-1, 8) for f in (cos, sin)]
    return np.hstack(halves)


def _uniform_f32(words: np.ndarray, low: float, high: float) -> np.ndarray:
    x = (words & _U32(0xFFFFFF)).astype(np.float32) * np.float32(2.0**-24)
    low32 = np.float32(low)
    return fma32(x, np.float32(high) - low32, low32)


def _uniform_f64(words: np.ndarray, low: float, high: float) -> np.ndarray:
    hi, lo = words[0::2].astype(np.uint64), words[1::2].astype(np.uint64)
    x = (((hi & np.uint64(0x1FFFFF)) << np.uint64(32)) | lo).astype(np.float64) * 2.0**-53
    return fma64(x, high - low, low)


def _words64(words: np.ndarray) -> np.ndarray:
    return (words[0::2].astype(np.uint64) << np.uint64(32)) | words[1::2].astype(np.uint64)


@functools.lru_cache(maxsize=16)
def _initial_state(seed: int) -> np.ndarray:
    """mt19937's 624 words after seeding with a 32-bit `seed` (kept: a program or `check`
    reseeds with the same seed again and again)."""
    state = [seed]
    for j in range(1, _N):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
    return np.array(state, _U32)


class Generator:
    """torch.Generator() on the CPU: same seeds give the same draws, consumed in the same order."""

    def __init__(self, seed: int = DEFAULT_SEED):
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> None:
        """Seed like torch.manual_seed: negative seeds wrap to 64 bits, only the low 32 matter."""
        seed = int(seed)
        if not -(2**63) <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        self._load(_initial_state(self._seed & 0xFFFFFFFF), left=1, nxt=0)
        self._next_double_normal: float | None = None
        self._next_float_normal: float | None = None

    def seed(self) -> int:
        """Reseed from OS entropy (64 random bits, like torch.seed()) and return the seed."""
        value = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        return self._seed

    def _words(self, count: int) -> np.ndarray:
        """The next `count` tempered 32-bit outputs of the engine. torch's engine is the
        reference mt19937, as NumPy's MT19937 is: it runs from the same 624 words and position."""
        if STATE.random_refused is not None:
            raise errors.runtime(STATE.random_refused)
        if count <= 0:
            return np.empty(0, _U32)
        self._loaded = None
        return self._engine.random_raw(count).astype(_U32)

    def _load(self, key: np.ndarray, left: int, nxt: int) -> None:
        """Run the engine from torch's state words and its `left_` and `next_` counters."""
        self._engine = np.random.MT19937()
        self._engine.state = {"bit_generator": "MT19937",
                              "state": {"key": key, "pos": _N if left == 1 else nxt}}
        self._loaded = (key, left, nxt)  # torch's own counters, until the next draw

    def _counters(self) -> tuple[np.ndarray, int, int]:
        """torch's state words, `left_` and `next_` now."""
        if self._loaded is not None:
            return self._loaded
        state = self._engine.state["state"]
        nxt = int(state["pos"])
        return state["key"].astype(_U32), _N + 1 - nxt, nxt

    def uniform(self, shape, np_dtype, low=0.0, high=1.0) -> np.ndarray:
        """torch.rand / Tensor.uniform_(low, high), values in the order torch fills them."""
        dtype, n = np.dtype(np_dtype), math.prod(shape)
        if dtype == np.float64:
            def draw(k):
                return _uniform_f64(self._words(2 * k), float(low), float(high))
        elif dtype in (np.float32, np.float16):
            def draw(k):
                return _uniform_f32(self._words(k), low, high).astype(dtype, copy=False)
        else:
            raise TypeError(f"uniform is not implemented for {dtype}")
        top, bottom = (dtype.type(np.float32(v) if dtype == np.float16 else v) for v in (high, low))
        out = np.empty(n, dtype)
        step = 16 * _ROWS_PER_BLOCK
        for first in range(0, n, step):  # in blocks: memory stays near the result's
            values = draw(min(step, n - first))
            out[first:first + len(values)] = np.where(values == top, bottom, values)
        return out.reshape(shape)

    def normal(self, shape, np_dtype, mean=0.0, std=1.0, contiguous=True) -> np.ndarray:
        """torch.randn / Tensor.normal_(mean, std); contiguous=False picks torch's strided path."""
        dtype, n = np.dtype(np_dtype), math.prod(shape)
        if dtype not in (np.float16, np.float32, np.float64):
            raise TypeError(f"normal is not implemented for {dtype}")
        if n < 16 or not contiguous:
            values = self._scalar_normals(n, float(mean), float(std))
            if dtype == np.float16:  # torch narrows double to float first
                values = values.astype(np.float32)
            return values.astype(dtype).reshape(shape)
        if dtype == np.float64:
            fill, unit = _box_muller16_f64, lambda k: _uniform_f64(self._words(2 * k), 0.0, 1.0)
        else:
            fill, unit = _box_muller16_f32, lambda k: _uniform_f32(self._words(k), 0.0, 1.0)
        rows = n // 16
        out = np.empty(n, np.float64 if dtype == np.float64 else np.float32)
        for first in range(0, rows, _ROWS_PER_BLOCK):  # in blocks: memory stays near the result's
            count = min(_ROWS_PER_BLOCK, rows - first)
            block = fill(unit(16 * count).reshape(count, 16), mean, std)
            out[16 * first:16 * (first + count)] = block.ravel()
        if n % 16:
            if dtype != np.float16:  # wider types first fill all n with uniforms, float16 does not
                unit(n % 16)
            out[n - 16:] = fill(unit(16).reshape(1, 16), mean, std).ravel()
        return out.astype(dtype, copy=False).reshape(shape)

    def _scalar_normals(self, n: int, mean: float, std: float) -> np.ndarray:
        """torch's normal_distribution<double>: Box-Muller pairs, the sine half kept for later."""
        values = []
        if n and self._next_double_normal is not None:
            values.append(self._next_double_normal)
            self._next_double_normal = None
        pairs = (n - len(values) + 1) // 2
        u = _uniform_f64(self._words(4 * pairs), 0.0, 1.0).tolist()
        for u1, u2 in zip(u[0::2], u[1::2]):
            radius = math.sqrt(-2.0 * math.log1p(-u2))
            theta = 2.0 * math.pi * u1
            values += [radius * math.cos(theta), radius * math.sin(theta)]
        if len(values) > n:
            self._next_double_normal = values.pop()
        return fma64(np.array(values, np.float64), std, mean)

    def bernoulli(self, shape, p: float) -> np.ndarray:
        """Tensor.bernoulli_(p) on the CPU: one double uniform per element, 1 where below p."""
        n = math.prod(shape)
        return (_uniform_f64(self._words(2 * n), 0.0, 1.0) < p).reshape(shape)

    def randint(self, low: int, high: int, shape, np_dtype=np.int64) -> np.ndarray:
        """torch.randint(low, high, shape) / Tensor.random_(low, high)."""
        low, high, n = int(low), int(high), math.prod(shape)
        span = high - low
        if not 0 < span < 2**64:
            raise ValueError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                             f">= to={high}")
        out = np.empty(n, np_dtype)
        step = 16 * _ROWS_PER_BLOCK
        for first in range(0, n, step):  # in blocks: memory stays near the result's
            count = min(step, n - first)
            if span >= 2**28:
                draws = _words64(self._words(2 * count))
            else:
                draws = self._words(count).astype(np.uint64)
            values = (draws % np.uint64(span)) + np.uint64(low % 2**64)
            out[first:first + count] = values.view(np.int64)
        return out.reshape(shape)

    def randperm(self, n: int, np_dtype=np.int64) -> np.ndarray:
        """torch.randperm(n): Fisher-Yates on 32-bit draws; torch's 64-bit variant for huge n."""
        if n < _RANDPERM_SMALL:
            order = list(range(n))
            draws = self._words(max(n - 1, 0)).astype(np.int64)
            offsets = (draws % (n - np.arange(len(draws)))).tolist()
            for i, z in enumerate(offsets):
                order[i], order[i + z] = order[i + z], order[i]
            return np.array(order, np.int64).astype(np_dtype)
        order = np.empty(n, np.int64)
        for start in range(0, n, 1 << 20):
            stop = min(n, start + (1 << 20))
            draws = _words64(self._words(2 * (stop - start)))
            picks = (draws % np.arange(start + 1, stop + 1, dtype=np.uint64)).tolist()
            for i, z in enumerate(picks, start):
                order[i] = order[z]
                order[z] = i
        return order.astype(np_dtype)

    def get_state(self) -> np.ndarray:
        """The generator state as the uint8 bytes torch.get_rng_state() returns."""
        normal = self._next_double_normal
        fnormal = self._next_float_normal
        key, left, nxt = self._counters()
        packed = struct.pack(_STATE_FORMAT, self._seed, left, 1, nxt,
                             *key.tolist(), 0.0, normal or 0.0, 0.0, normal is not None,
                             fnormal or 0.0, fnormal is not None)
        return np.frombuffer(packed, np.uint8).copy()

    def set_state(self, state) -> None:
        """Restore a state from get_state() or torch.get_rng_state()."""
        fields = struct.unpack(_STATE_FORMAT, np.asarray(state, np.uint8).tobytes())
        seed, left, seeded, nxt = fields[:4]
        if not (seeded and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        self._seed = seed
        self._load(np.array(fields[4:4 + _N], np.uint64).astype(_U32), left, nxt)
        _, normal_y, _, normal_valid, fnormal, fnormal_valid = fields[4 + _N:]
        self._next_double_normal = normal_y if normal_valid else None
        self._next_float_normal = fnormal if fnormal_valid else None
