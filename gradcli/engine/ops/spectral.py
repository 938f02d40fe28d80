"""torch.fft: the three transform rows (complex to complex, real to complex, complex to real) as
ATen's _fft_c2c, _fft_r2c and _fft_c2r, the torch.fft functions built on them as
aten/src/ATen/native/SpectralOps.cpp builds them, and fftfreq, rfftfreq, fftshift, ifftshift.

torch's CPU build computes transforms with MKL's DFTI; NumPy's pocketfft sums in another order,
so values agree with torch's to within a few ulps, seldom bit for bit (about one element in five
for random inputs). Both precisions are computed in double and rounded once: NumPy's float32
transform comes no closer to MKL's.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import devices, dtypes, errors
from gradcli.engine.declarations import declare
from gradcli.engine.functions import F, export
from gradcli.engine.ops.registry import OPS, apply, defop
from gradcli.engine.ops.shapes import normalize_dims
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

# ATen's fft_norm_mode: none, by_root_n, by_n
_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def _scaled(out: np.ndarray, sizes, normalization: int) -> np.ndarray:
    n = math.prod(sizes)
    if normalization == _BY_N:
        return out * (1.0 / n)
    return out * (1.0 / math.sqrt(n)) if normalization == _BY_ROOT_N else out


def _c2c(a, dim, normalization, forward):
    wide = a.astype(np.complex128)
    out = np.fft.fftn(wide, axes=dim) if forward else np.fft.ifftn(wide, axes=dim, norm="forward")
    return _scaled(out, [a.shape[d] for d in dim], normalization).astype(a.dtype)


def _r2c(a, dim, normalization, onesided):
    out = np.fft.rfftn(a.astype(np.float64), axes=dim)
    out = _scaled(out, [a.shape[d] for d in dim], normalization)
    out = out.astype(np.result_type(a.dtype, np.complex64))
    return out if onesided else _conjugate_symmetric(out, dim, a.shape[dim[-1]])


def _conjugate_symmetric(half: np.ndarray, dim, n: int) -> np.ndarray:
    """The full transform of real values from its onesided half, the rest filled in as
    torch's _fft_fill_with_conjugate_symmetry_ does: X[k] = conj(X[-k mod n]) over `dim`."""
    last, h = dim[-1], half.shape[dim[-1]]
    mirrored = np.conj(np.roll(np.flip(half, dim[:-1]), 1, dim[:-1])) if dim[:-1] else (
        np.conj(half))
    rest = np.flip(np.take(mirrored, np.arange(1, n - h + 1), axis=last), last)
    return np.concatenate((half, rest), axis=last)


def _c2r(a, dim, normalization, last_dim_size):
    sizes = [a.shape[d] for d in dim[:-1]] + [last_dim_size]
    out = np.fft.irfftn(a.astype(np.complex128), s=sizes, axes=dim, norm="forward")
    return _scaled(out, sizes, normalization).astype(a.real.dtype)


def _r2c_backward(g, a, dim, normalization, onesided):
    """The adjoint of a real-to-complex transform: a onesided gradient padded to the full
    length with zeros, transformed back unnormalised in the other direction, its real part."""
    if onesided:
        full, half = a.shape[dim[-1]], g.shape[dim[-1]]
        if full > half:
            pad = [0] * (2 * g.ndim)
            pad[2 * (g.ndim - 1 - dim[-1]) + 1] = full - half
            g = F.constant_pad_nd(g, tuple(pad), 0.0)
    return F.real(fft_c2c(g, dim, normalization, False))


def _c2r_backward(g, a, dim, normalization, last_dim_size):
    """The adjoint of a complex-to-real transform: the onesided transform of the gradient, its
    entries that stand for two (all but the first and, for an even length, the last) doubled."""
    out = fft_r2c(g, dim, normalization, True)
    doubled = g.shape[dim[-1]] - out.shape[dim[-1]]
    if doubled <= 0:
        return out
    weight = np.ones(out.shape[dim[-1]], out.dtype.np)
    weight[1:1 + doubled] = 2
    shape = [1] * out.ndim
    shape[dim[-1]] = len(weight)
    return F.mul(out, Tensor(weight.reshape(shape), out.dtype))


defop("_fft_c2c", "FftC2CBackward0", _c2c, promote="none", complex=True,
      vjp=lambda g, a, dim, normalization, forward: fft_c2c(g, dim, normalization, not forward),
      rule=("_fft_c2c_symint(grad, dim, normalization, !forward)",))
defop("_fft_r2c", "FftR2CBackward0", _r2c, promote="none", save=(0,),
      out_dtype=lambda dtype, params: dtypes.complex_of(dtype), vjp=_r2c_backward,
      rule=("fft_r2c_backward(grad, dim, normalization, onesided, self.sym_size(dim.back()))",))
defop("_fft_c2r", "FftC2RBackward0", _c2r, promote="none", complex=True,
      out_dtype=lambda dtype, params: dtypes.real_of(dtype), vjp=_c2r_backward,
      rule=("fft_c2r_backward(grad, dim, normalization)",))


def fft_c2c(a: Tensor, dim, normalization: int, forward: bool) -> Tensor:
    return apply(OPS["_fft_c2c"], a, dim=tuple(dim), normalization=normalization,
                 forward=forward)


def fft_r2c(a: Tensor, dim, normalization: int, onesided: bool) -> Tensor:
    return apply(OPS["_fft_r2c"], a, dim=tuple(dim), normalization=normalization,
                 onesided=onesided)


def fft_c2r(a: Tensor, dim, normalization: int, last_dim_size: int) -> Tensor:
    return apply(OPS["_fft_c2r"], a, dim=tuple(dim), normalization=normalization,
                 last_dim_size=last_dim_size)


# ---- the arguments, as SpectralOps.cpp checks them ---------------------------------------------

def _normalization(norm, forward: bool) -> int:
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise errors.runtime(f'Invalid normalization mode: "{norm}"')


def _promoted(a: Tensor, complex_: bool = False) -> Tensor:
    """promote_tensor_fft: integers and bool to the default float dtype, then (when asked) to
    its complex dtype."""
    if not a.dtype.is_floating_point and not a.dtype.is_complex:
        a = F.to_dtype(a, STATE.default_dtype)
    if complex_ and not a.dtype.is_complex:
        a = F.to_dtype(a, dtypes.complex_of(a.dtype))
    return a


def _wrapped(dim: int, a: Tensor) -> int:
    if a.ndim == 0:
        raise errors.index_error(f"Dimension specified as {dim} but tensor has no dimensions")
    return normalize_dims(dim, a.ndim)[0]


def _checked(n: int) -> int:
    if n < 1:
        raise errors.runtime(f"Invalid number of data points ({n}) specified")
    return n


def _resized(a: Tensor, dims, sizes) -> Tensor:
    """resize_fft_input: each of `dims` cut (slice) or zero-padded (constant_pad_nd) to size."""
    pad, must_pad = [0] * (2 * a.ndim), False
    for d, n in zip(dims, sizes):
        if a.shape[d] > n:
            a = F.slice_dim(a, d, 0, n, 1)
        elif a.shape[d] < n:
            pad[2 * (a.ndim - 1 - d) + 1], must_pad = n - a.shape[d], True
    return F.constant_pad_nd(a, tuple(pad), 0.0) if must_pad else a


def _real_only(name: str, a: Tensor, wording: str = "a real input tensor") -> None:
    if a.dtype.is_complex:
        raise errors.runtime(f"{name} expects {wording}, but got {a.dtype.scalar_name}")


def _shape_and_dims(a: Tensor, s, dim) -> tuple[list, list]:
    """canonicalize_fft_shape_and_dim_args: the dims transformed and their signal sizes."""
    dims = None
    if dim is not None:
        dim = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = [_wrapped(d, a) for d in dim] if a.ndim == 0 else list(normalize_dims(dim, a.ndim))
        if len(set(dims)) != len(dims):
            raise errors.runtime("FFT dims must be unique")
    if s is not None:
        s = (s,) if isinstance(s, int) else tuple(s)
        if dims is not None and len(dims) != len(s):
            raise errors.runtime("When given, dim and shape arguments must have the same length")
        if len(s) > a.ndim:
            raise errors.runtime(f"Got shape with {len(s)} values but input tensor only has "
                                 f"{a.ndim} dimensions.")
        if dims is None:
            dims = list(range(a.ndim - len(s), a.ndim))
        sizes = [a.shape[d] if n == -1 else n for d, n in zip(dims, s)]
    else:
        dims = list(range(a.ndim)) if dims is None else dims
        sizes = [a.shape[d] for d in dims]
    for n in sizes:
        _checked(n)
    return dims, sizes


# ---- one dimension ---------------------------------------------------------------------------

def _c2c_1d(a, n, dim, norm, forward):
    dim = _wrapped(dim, a)
    n = _checked(a.shape[dim] if n is None else n)
    return fft_c2c(_resized(a, [dim], [n]), [dim], _normalization(norm, forward), forward)


def _r2c_1d(name, a, n, dim, norm, forward, onesided):
    _real_only(name, a)
    a = _promoted(a)
    dim = _wrapped(dim, a)
    n = _checked(a.shape[dim] if n is None else n)
    out = fft_r2c(_resized(a, [dim], [n]), [dim], _normalization(norm, forward), onesided)
    return out if forward else F.conj(out)


def _c2r_1d(a, n, dim, norm, forward):
    a = _promoted(a, True)
    dim = _wrapped(dim, a)
    n = _checked(2 * (a.shape[dim] - 1) if n is None else n)
    a = _resized(a, [dim], [n // 2 + 1]) if n is not None else a
    if forward:
        a = F.conj(a)
    return fft_c2r(a, [dim], _normalization(norm, forward), n)


def fft(input, n=None, dim=-1, norm=None):
    if input.dtype.is_complex:
        return _c2c_1d(input, n, dim, norm, True)
    return _r2c_1d("fft", input, n, dim, norm, True, False)


def ifft(input, n=None, dim=-1, norm=None):
    if input.dtype.is_complex:
        return _c2c_1d(input, n, dim, norm, False)
    return _r2c_1d("ifft", input, n, dim, norm, False, False)


def rfft(input, n=None, dim=-1, norm=None):
    return _r2c_1d("rfft", input, n, dim, norm, True, True)


def irfft(input, n=None, dim=-1, norm=None):
    return _c2r_1d(input, n, dim, norm, False)


def hfft(input, n=None, dim=-1, norm=None):
    return _c2r_1d(input, n, dim, norm, True)


def ihfft(input, n=None, dim=-1, norm=None):
    return _r2c_1d("ihfft", input, n, dim, norm, False, True)


# ---- several dimensions ----------------------------------------------------------------------

def _c2c_nd(a, s, dim, norm, forward):
    a = _promoted(a, True)
    dims, sizes = _shape_and_dims(a, s, dim)
    return fft_c2c(_resized(a, dims, sizes), dims, _normalization(norm, forward), forward)


def _rfftn(a, s, dim, norm):
    _real_only("rfftn", a, "a real-valued input tensor")
    a = _promoted(a)
    dims, sizes = _shape_and_dims(a, s, dim)
    if not dims:
        raise errors.runtime("rfftn must transform at least one axis")
    return fft_r2c(_resized(a, dims, sizes), dims, _normalization(norm, True), True)


def _c2r_shape_and_dims(name: str, a: Tensor, s, dim) -> tuple[list, list, int]:
    """canonicalize_fft_c2r_shape_and_dim_args: the dims, the input sizes they are resized
    to (the last one onesided) and the length of the last dimension of the result."""
    dims, sizes = _shape_and_dims(a, s, dim)
    if not dims:
        raise errors.runtime(f"{name} must transform at least one axis")
    given = s is not None and (s if not isinstance(s, int) else (s,))[-1] != -1
    last = _checked(sizes[-1] if given else 2 * (a.shape[dims[-1]] - 1))
    sizes[-1] = last // 2 + 1
    return dims, sizes, last


def _irfftn(a, s, dim, norm):
    dims, sizes, last = _c2r_shape_and_dims("irfftn", a, s, dim)
    a = _promoted(a, True)
    return fft_c2r(_resized(a, dims, sizes), dims, _normalization(norm, False), last)


def _hfftn(a, s, dim, norm):
    """The c2c transform over all but the last of `dim`, then the c2r one of its conjugate."""
    dims, sizes, last = _c2r_shape_and_dims("hfftn", a, s, dim)
    a = _resized(_promoted(a, True), dims, sizes)
    normalization = _normalization(norm, True)
    if len(dims) > 1:
        a = fft_c2c(a, dims[:-1], normalization, True)
    return fft_c2r(F.conj(a), dims[-1:], normalization, last)


def _ihfftn(a, s, dim, norm):
    """The onesided r2c transform over the last of `dim`, conjugated, then the inverse c2c one
    over the others."""
    dims, sizes = _shape_and_dims(a, s, dim)
    if not dims:
        raise errors.runtime("ihfftn must transform at least one axis")
    a = _resized(_promoted(a), dims, sizes)
    if a.dtype.is_complex:
        raise errors.runtime(f"Only supports floating-point dtypes, but found: "
                             f"{a.dtype.scalar_name}")
    normalization = _normalization(norm, False)
    out = fft_r2c(a, dims[-1:], normalization, True)
    if len(dims) == 1:
        return F.conj(out)
    return fft_c2c(F.conj_physical(out), dims[:-1], normalization, False)


# ---- frequencies and shifts ------------------------------------------------------------------

def _frequencies(values: np.ndarray, n: int, d: float, dtype, device, requires_grad) -> Tensor:
    """arange's values times 1 / (n d), the factor in double and the product in `dtype`."""
    devices.place(device)
    dtype = dtype or STATE.default_dtype
    factor = 1.0 / (n * d) if n * d else math.copysign(math.inf, d)  # C++'s double division
    data = values.astype(dtype.np) * dtype.np.type(factor)
    out = Tensor(data.astype(dtype.np), dtype)
    out.requires_grad = requires_grad
    return out


def fftfreq(n, d=1.0, dtype=None, layout=None, device=None, pin_memory=False,
            requires_grad=False):
    if n < 0:
        raise errors.runtime(f"Trying to create tensor with negative dimension {n}: [{n}]")
    values = np.concatenate((np.arange((n + 1) // 2), np.arange(-(n // 2), 0)))
    return _frequencies(values, n, d, dtype, device, requires_grad)


def rfftfreq(n, d=1.0, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False):
    if n < 0:
        raise errors.runtime(f"Trying to create tensor with negative dimension {n}: [{n}]")
    return _frequencies(np.arange(n // 2 + 1), n, d, dtype, device, requires_grad)


def _shifted(a: Tensor, dim, inverse: bool) -> Tensor:
    dims = list(range(a.ndim)) if dim is None else list(
        normalize_dims((dim,) if isinstance(dim, int) else tuple(dim), a.ndim))
    shifts = [(a.shape[d] + inverse) // 2 for d in dims]
    return F.roll(a, tuple(shifts), tuple(dims))


def fftshift(input, dim=None):
    return _shifted(input, dim, False)


def ifftshift(input, dim=None):
    return _shifted(input, dim, True)


# ---- short-time transforms -------------------------------------------------------------------

_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known to "
              "cause spectral leakage. Other windows such as torch.hann_window or "
              "torch.hamming_window are recommended to reduce spectral leakage.To suppress this "
              "warning and use a rectangular window, explicitly set "
              "`window=torch.ones(n_fft, device=<device>)`. (Triggered internally at "
              "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:835.)")
_REAL_PAIRS = ("stft with return_complex=False is deprecated. In a future pytorch release, stft "
               "will return complex tensors for all inputs, and return_complex=False will raise "
               "an error.\nNote: you can still call torch.view_as_real on the complex output to "
               "recover the old return format. (Triggered internally at "
               "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:874.)")


def _optional(value) -> str:
    """A c10::optional as torch's operator<< writes it: its value (a bool as 1 or 0), or None."""
    return "None" if value is None else str(int(value) if isinstance(value, bool) else value)


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
         align_to_window=None):
    """torch.stft: torch/functional.py's centring pad, then ATen's stft (SpectralOps.cpp):
    frames as a strided view, times the window, each transformed, frequencies before frames."""
    if center and align_to_window is not None:
        raise errors.runtime("stft align_to_window should only be set when center = false")
    if align_to_window:
        raise errors.TorchError("NotImplementedError",
                                "gradcli does not support stft's align_to_window=True yet")
    if center:
        if isinstance(n_fft, Tensor) and n_fft.numel() != 1:  # int(n_fft // 2) in torch
            raise errors.value_error("only one element tensors can be converted to Python "
                                     "scalars")
        signal_dim = input.ndim
        extended = (1,) * (3 - signal_dim) + tuple(input.shape)
        pad = int(n_fft // 2)
        input = F.pad(F.view(input, extended), [pad, pad], pad_mode)
        input = F.view(input, input.shape[input.ndim - signal_dim:])
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length

    def fail(text: str):
        shown = "None" if window is None else (
            f"{window.dtype.type_string}{{{_sizes(window.shape)}}}")
        raise errors.runtime(
            f"stft({input.dtype.type_string}{_sizes(input.shape)}, n_fft={n_fft}, "
            f"hop_length={hop}, win_length={win}, window={shown}, "
            f"normalized={int(bool(normalized))}, onesided={_optional(onesided)}, "
            f"return_complex={_optional(return_complex)}, "
            f"align_to_window={_optional(align_to_window)}) : {text}")

    if window is None:
        STATE.warn("UserWarning", _NO_WINDOW, once=True)
    if return_complex is None:
        return_complex = input.dtype.is_complex or (window is not None and
                                                    window.dtype.is_complex)
        if not return_complex:
            raise errors.runtime("stft requires the return_complex parameter be given for real "
                                 "inputs, and will further require that return_complex=True in a "
                                 "future PyTorch release.")
    elif not return_complex:
        STATE.warn("UserWarning", _REAL_PAIRS, once=True)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        fail("expected a tensor of floating point or complex values")
    if not 1 <= input.ndim <= 2:
        fail("expected a 1D or 2D tensor")
    frames = F.unsqueeze(input, 0) if input.ndim == 1 else input
    batch, length = frames.shape
    if n_fft <= 0 or n_fft > length:
        fail(f"expected 0 < n_fft < {length}, but got n_fft={win}")
    if hop <= 0:
        fail(f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        fail(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        fail(f"expected a 1D window tensor of size equal to win_length={win}, but got window "
             f"with size {_sizes(window.shape)}")
    if win < n_fft:  # the window centred in n_fft zeros
        left = (n_fft - win) // 2
        window = F.constant_pad_nd(F.ones((win,), dtype=input.dtype) if window is None else window,
                                   (left, n_fft - win - left), 0.0)
    count = 1 + (length - n_fft) // hop
    step = F.stride(frames)
    frames = F.as_strided(frames, (batch, count, n_fft), (step[0], hop * step[1], step[1]))
    if window is not None:
        frames = F.mul(frames, window)
    normalization = _BY_ROOT_N if normalized else _NONE
    if frames.dtype.is_complex:
        if onesided:
            raise errors.runtime("Cannot have onesided output if window or input is complex")
        out = fft_c2c(frames, [2], normalization, True)
    else:
        out = fft_r2c(frames, [2], normalization, True if onesided is None else onesided)
    F.transpose_(out, 1, 2)
    if input.ndim == 1:
        F.squeeze_(out, 0)
    return out if return_complex else F.view_as_real(out)


_ISTFT_NO_WINDOW = ("A window was not provided. A rectangular window will be applied.Please "
                    "provide the same window used by stft to make the inversion lossless.To "
                    "suppress this warning and use a rectangular window, explicitly set "
                    "`window=torch.ones(n_fft, device=<device>)`. (Triggered internally at "
                    "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:1035.)")
_PADDED_TAIL = ("The length of signal is shorter than the length parameter. Result is being "
                "padded with zeros in the tail. Please check your center and hop_length settings. "
                "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                "SpectralOps.cpp:1199.)")


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    """torch.istft (SpectralOps.cpp): each frame transformed back and windowed, the frames
    overlapped and added (unfold's backward), divided by the window's squares added likewise,
    the centring pad cut off."""
    if window is None:
        STATE.warn("UserWarning", _ISTFT_NO_WINDOW, once=True)
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    given = onesided
    if not input.dtype.is_complex:
        raise errors.runtime("istft requires a complex-valued input tensor matching the output "
                             "from stft with return_complex=True.")

    def described() -> str:
        shown = "None" if window is None else (
            f"{window.dtype.type_string}{{{_sizes(window.shape)}}}")
        return (f"istft({input.dtype.type_string}{_sizes(input.shape)}, n_fft={n_fft}, "
                f"hop_length={hop}, win_length={win}, window={shown}, center={int(bool(center))}, "
                f"normalized={int(bool(normalized))}, onesided={_optional(given)}, "
                f"length={_optional(length)}, return_complex={int(bool(return_complex))})")

    def fail(text: str):
        raise errors.runtime(f"{described()} : {text}")

    dims = input.ndim + 1  # as a real view, each value's two parts the last dim
    frames = input.shape[-1] if input.ndim else 0
    fft_size = input.shape[-2] if input.ndim > 1 else 0
    if input.numel() == 0:
        fail("input tensor cannot be empty.")
    if dims not in (3, 4):
        fail(f"expected a tensor with 3 or 4 dimensions, but got {dims}")
    onesided = fft_size != n_fft if onesided is None else onesided
    if onesided and n_fft // 2 + 1 != fft_size:
        fail("expected the frequency dimension (3rd to the last) of the input tensor to match "
             f"n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not onesided and n_fft != fft_size:
        fail("expected the frequency dimension (3rd to the last) of the input tensor to match "
             f"n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop <= win:
        fail("expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        fail("expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        fail("Invalid window shape. window has to be 1D and length of `win_length`")
    real_dtype = dtypes.real_of(input.dtype)
    shaped = F.ones((win,), dtype=real_dtype) if window is None else window
    if win != n_fft:
        left = (n_fft - win) // 2
        shaped = F.constant_pad_nd(shaped, (left, n_fft - win - left), 0.0)
    spectra = F.resolve_conj(input)
    if dims == 3:
        spectra = F.unsqueeze(spectra, 0)
    spectra = F.transpose(spectra, 1, 2)  # (channel, frames, frequencies)
    normalization = _BY_ROOT_N if normalized else _BY_N
    if return_complex:
        if onesided:
            raise errors.runtime("Cannot have onesided output if window or input is complex")
        signal = fft_c2c(spectra, [2], normalization, False)
    else:
        if window is not None and window.dtype.is_complex:
            raise errors.runtime("Complex windows are incompatible with return_complex=False")
        if not onesided:
            spectra = F.narrow(spectra, -1, 0, n_fft // 2 + 1)
        signal = fft_c2r(spectra, [2], normalization, n_fft)
    expected = n_fft + hop * (frames - 1)
    windowed = F.mul(signal, F.view(shaped, (1, 1, n_fft)))
    y = F.apply_op("unfold_backward", windowed, sizes=(windowed.shape[0], expected), dimension=1,
                   size=n_fft, step=hop)
    squares = F.expand(F.pow(shaped, 2), (1, frames, n_fft))
    envelope = F.apply_op("unfold_backward", squares, sizes=(1, expected), dimension=1,
                          size=n_fft, step=hop)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else -(n_fft // 2) if center else expected
    y = F.slice_dim(y, 1, start, end, 1)
    envelope = F.slice_dim(envelope, 1, start, end, 1)
    if bool(np.any(np.abs(envelope.data) < 1e-11)) or envelope.numel() == 0:
        raise errors.runtime(f"{described()} window overlap add min: "
                             f"{int(envelope.numel() != 0)}\n[ CPUBoolType{{}} ]")
    y = F.div(y, envelope)
    if dims == 3:
        y = F.squeeze(y, 0)
    if end > expected:
        STATE.warn("UserWarning", _PADDED_TAIL, once=True)
        y = F.constant_pad_nd(y, (0, end - expected), 0.0)
    return y


def _sizes(shape) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


_ONE = "(Tensor self, int? n=None, int dim=-1, str? norm=None, *, Tensor? out=None)"
_TWO = "(Tensor self, int[1]? s=None, int[1] dim=[-2,-1], str? norm=None, *, Tensor? out=None)"
_N = "(Tensor self, int[1]? s=None, int[1]? dim=None, str? norm=None, *, Tensor? out=None)"
_FREQ = ("(int n, float d=1.0, *, Tensor? out=None, ScalarType? dtype=None, Layout? layout=None, "
         "Device? device=None, bool? pin_memory=False, bool requires_grad=False)")
for _function, _schema in ((fft, _ONE), (ifft, _ONE), (rfft, _ONE), (irfft, _ONE), (hfft, _ONE),
                           (ihfft, _ONE), (fftfreq, _FREQ), (rfftfreq, _FREQ)):
    declare(_function.__name__, _function, _function.__name__ + _schema, variants="fft")
# the 2-d and n-d forms: one transform each, the schemas giving their different default dims
for _name, _function in (
        ("fft", lambda input, s, dim, norm: _c2c_nd(input, s, dim, norm, True)),
        ("ifft", lambda input, s, dim, norm: _c2c_nd(input, s, dim, norm, False)),
        ("rfft", _rfftn), ("irfft", _irfftn), ("hfft", _hfftn), ("ihfft", _ihfftn)):
    declare(_name + "2", _function, _name + "2" + _TWO, variants="fft")
    declare(_name + "n", _function, _name + "n" + _N, variants="fft")
del _name, _function, _schema
declare("fftshift", fftshift, "fftshift(Tensor self, int[1]? dim=None)", variants="fft")
declare("ifftshift", ifftshift, "ifftshift(Tensor self, int[1]? dim=None)", variants="fft")
declare("stft", stft, python="input, n_fft, hop_length=None, win_length=None, window=None, "
        "center=True, pad_mode='reflect', normalized=False, onesided=None, return_complex=None, "
        "align_to_window=None")
declare("istft", istft, "istft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
        "Tensor? window=None, bool center=True, bool normalized=False, bool? onesided=None, "
        "int? length=None, bool return_complex=False)", variants="torch")
# Tensor.istft is torch/_tensor.py's Python method (Python's wording for a missing argument)
declare("istft", istft, variants="method", python="self, n_fft, hop_length=None, "
        "win_length=None, window=None, center=True, normalized=False, onesided=None, "
        "length=None, return_complex=False")

export(__name__, globals())
