"""Tensor repr as torch prints it, following _tensor_str.py: summarise, scan, format, suffix."""

from __future__ import annotations

import math
from gradcli.engine.records import record, replace

import numpy as np

from gradcli.engine.dtypes import DType, bool_, default_complex, int64, real_of

_UNCHANGED = object()

# torch.set_printoptions(profile=...) values: precision, threshold, edgeitems, linewidth.
_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


@record(frozen=True)
class PrintOptions:
    """torch's print options (torch._tensor_str.PRINT_OPTS), as a value."""

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None

    def updated(
        self,
        *,
        precision=None,
        threshold=None,
        edgeitems=None,
        linewidth=None,
        sci_mode=_UNCHANGED,
        profile=None,
    ) -> PrintOptions:
        """The options after torch.set_printoptions with these arguments.

        A known profile resets the four numeric options before the given ones apply; an unknown
        profile is ignored, as in torch. torch sets sci_mode to whatever is passed (None when
        omitted), so callers mirroring set_printoptions pass it explicitly; left out, it is kept.
        """
        opts = self
        if profile in _PROFILES:
            values = dict(zip(("precision", "threshold", "edgeitems", "linewidth"),
                              _PROFILES[profile]))
            opts = replace(opts, **values)
        given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems,
                 "linewidth": linewidth}
        opts = replace(opts, **{k: v for k, v in given.items() if v is not None})
        if sci_mode is not _UNCHANGED:
            opts = replace(opts, sci_mode=sci_mode)
        return opts


def summarize(values: np.ndarray, opts: PrintOptions) -> np.ndarray:
    """The values torch scans when summarising: edgeitems from each end of every dimension."""
    edge = opts.edgeitems
    if values.ndim == 0:
        return values
    if values.ndim == 1:
        if values.shape[0] > 2 * edge:
            return np.concatenate((values[:edge], values[-edge:]))
        return values
    if not edge:
        return np.empty((0,) * values.ndim, dtype=values.dtype)
    if values.shape[0] > 2 * edge:
        rows = list(range(edge)) + list(range(len(values) - edge, len(values)))
    else:
        rows = range(values.shape[0])
    return np.stack([summarize(values[i], opts) for i in rows])


def _distinct(flat: np.ndarray) -> np.ndarray:
    """The distinct values of a 1-d array (np.unique would import numpy.ma, 40 ms at start-up)."""
    ordered = np.sort(flat)
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if ordered.size else ordered


@record(frozen=True)
class Formatter:
    """How every element of one tensor is written: int mode, sci mode and a common width."""

    floating: bool
    int_mode: bool
    sci_mode: bool
    max_width: int
    precision: int

    @classmethod
    def from_values(cls, values: np.ndarray, dtype: DType, opts: PrintOptions) -> Formatter:
        """Scan the (summarised) values once, as torch's _Formatter does."""
        flat = values.reshape(-1)
        if not dtype.is_floating_point:
            texts = [f"{v}" for v in _distinct(flat).tolist()]
            return cls(False, True, False, max([1] + [len(t) for t in texts]), opts.precision)
        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size == 0:
            return cls(True, True, False, 1, opts.precision)
        magnitudes = np.abs(finite).astype(np.float64)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        int_mode = bool(np.all(np.ceil(finite) == finite))
        if opts.sci_mode is None:
            sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        else:
            sci_mode = bool(opts.sci_mode)
        unique = _distinct(finite).tolist()
        p = opts.precision
        if sci_mode:
            widths = [len(f"{v:.{p}e}") for v in unique]
        elif int_mode:
            widths = [len(f"{v:.0f}") + 1 for v in unique]
        else:
            widths = [len(f"{v:.{p}f}") for v in unique]
        return cls(True, int_mode, sci_mode, max([1] + widths), p)

    def format(self, value) -> str:
        """One element (a Python number from tolist), right-aligned to the common width."""
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{self.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{self.precision}f}"
        return text.rjust(self.max_width)


@record(frozen=True)
class ComplexFormatter:
    """A complex tensor's elements: real and imaginary parts each by its own Formatter (torch
    scans `t.real` and `t.imag` separately), joined with the imaginary part's sign and a `j`."""

    real: Formatter
    imag: Formatter

    @classmethod
    def from_values(cls, values: np.ndarray, dtype: DType, opts: PrintOptions) -> ComplexFormatter:
        part = real_of(dtype)
        return cls(Formatter.from_values(values.real, part, opts),
                   Formatter.from_values(values.imag, part, opts))

    @property
    def max_width(self) -> int:
        """The width torch counts per element when wrapping: both parts and the `j`."""
        return self.real.max_width + self.imag.max_width + 1

    def format(self, value) -> str:
        real = self.real.format(value.real)
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return real + imag if imag[0] in "+-" else real + "+" + imag


def _vector_body(values: np.ndarray, formatter: Formatter | ComplexFormatter, indent: int, summarized: bool,
                 opts: PrintOptions) -> str:
    """One dimension of elements, wrapped to the linewidth."""
    per_line = max(1, math.floor((opts.linewidth - indent) / (formatter.max_width + 2)))
    edge = opts.edgeitems
    if summarized and not edge:
        items = ["..."]
    elif summarized and values.shape[0] > 2 * edge:
        items = ([formatter.format(v) for v in values[:edge].tolist()] + [" ..."]
                 + [formatter.format(v) for v in values[-edge:].tolist()])
    else:
        items = [formatter.format(v) for v in values.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def tensor_body(values: np.ndarray, formatter: Formatter | ComplexFormatter, indent: int, summarized: bool,
                opts: PrintOptions) -> str:
    """The bracketed values, recursing over dimensions (torch's _tensor_str_with_formatter)."""
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        return _vector_body(values, formatter, indent, summarized, opts)
    edge = opts.edgeitems
    if summarized and values.shape[0] > 2 * edge:
        slices = ([tensor_body(values[i], formatter, indent + 1, summarized, opts)
                   for i in range(edge)] + ["..."]
                  + [tensor_body(values[i], formatter, indent + 1, summarized, opts)
                     for i in range(len(values) - edge, len(values))])
    else:
        slices = [tensor_body(v, formatter, indent + 1, summarized, opts) for v in values]
    return "[" + ("," + "\n" * (values.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int, linewidth: int,
                  force_newline: bool = False) -> str:
    """Append `, suffix` parts, starting a new line when one would pass the linewidth (and for
    the first one when `force_newline`)."""
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _body(data: np.ndarray, dtype: DType, opts: PrintOptions, indent: int) -> str:
    """The bracketed values of a tensor with elements (torch's _tensor_str)."""
    summarized = data.size > opts.threshold
    scanned = summarize(data, opts) if summarized else data
    kind = ComplexFormatter if dtype.is_complex else Formatter
    return tensor_body(data, kind.from_values(scanned, dtype, opts), indent, summarized, opts)


def _inner(prefix: str, data: np.ndarray, dtype: DType, opts: PrintOptions, indent: int) -> str:
    """`indices=tensor(...)` or `values=tensor(...)` of a sparse tensor, its size said when
    empty."""
    if data.size == 0:
        return f"{prefix}tensor([], size={tuple(data.shape)})"
    return f"{prefix}tensor({_body(data, dtype, opts, indent + len(prefix) + 7)})"


def sparse_repr(t, opts: PrintOptions, *, default_dtype: DType) -> str:
    """repr of a sparse COO tensor `t` as torch writes it: its indices and values, then size,
    nnz, dtype, layout and its autograd suffix, each suffix from a new line on."""
    indices, values, dtype = t.sparse.indices, t.sparse.values, t.dtype
    indent = len("tensor(")
    text = (_inner("indices=", indices, int64, opts, indent) + ",\n" + " " * indent
            + _inner("values=", values, dtype, opts, indent))
    suffixes = [f"size={tuple(t.shape)}", f"nnz={indices.shape[1]}"]
    if dtype not in (default_dtype, default_complex(default_dtype), int64, bool_):
        suffixes.append(f"dtype={dtype!r}")
    suffixes.append("layout=torch.sparse_coo")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.class_name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes("tensor(" + text, suffixes, indent, opts.linewidth, force_newline=True)


def tensor_repr(data: np.ndarray, dtype: DType, opts: PrintOptions, *, default_dtype: DType,
                requires_grad: bool = False, grad_fn_label: str | None = None,
                tangent: str | None = None, prefix: str = "tensor") -> str:
    """repr(tensor) (and str(tensor)) exactly as torch writes it (`prefix` the name of a
    subclass's instance's class)."""
    prefix += "("
    indent = len(prefix)
    suffixes = []
    if data.size == 0:
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype != default_dtype:
            suffixes.append(f"dtype={dtype!r}")
        body = "[]"
    else:
        if not opts.edgeitems:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype not in (default_dtype, default_complex(default_dtype), int64, bool_):
            suffixes.append(f"dtype={dtype!r}")
        body = _body(data, dtype, opts, indent)
    if grad_fn_label is not None:
        suffixes.append(f"grad_fn=<{grad_fn_label}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent, opts.linewidth)
