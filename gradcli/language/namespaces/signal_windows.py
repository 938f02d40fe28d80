"""torch.signal.windows: the window functions, built from torch's own calls in torch's order
(linspace, then the elementwise formula), so that float32 results round as torch's do."""

from __future__ import annotations

import math

from gradcli.engine import dtypes, errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.distribution_base import Calls, attr, op
from gradcli.language.runtime import protocols
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_FACTORY = "sym=True, dtype=None, layout=None, device=None, requires_grad=False"


class _Window:
    """One call's M, factory arguments and the checks every window makes."""

    def __init__(self, runtime, name, M, sym, dtype, layout, device, requires_grad):
        self.c, self.M, self.sym = Calls(runtime), M, sym
        dtype = self.c.torch("get_default_dtype") if dtype is None else dtype
        if M < 0:
            raise errors.value_error(
                f"{name} requires non-negative window length, got M={M}")
        if layout is not _strided():
            raise errors.value_error(
                f"{name} is implemented for strided tensors only, got: {layout}")
        if dtype not in (dtypes.float32, dtypes.float64):
            raise errors.value_error(f"{name} expects float32 or float64 dtypes, got: {dtype}")
        self.factory = {"dtype": dtype, "layout": layout, "device": device,
                        "requires_grad": requires_grad}

    def trivial(self, ones: bool = True):
        """The empty window for M == 0 and (if `ones`) [1.] for M == 1; else None."""
        if self.M == 0:
            return self.c.torch("empty", (0,), **self.factory)
        if self.M == 1 and ones:
            return self.c.torch("ones", (1,), **self.factory)
        return None

    def linspace(self, start, end):
        return self.c.torch("linspace", start=start, end=end, steps=self.M, **self.factory)

    @property
    def span(self):
        """M - 1 for a symmetric window, M for a periodic one (of more than one point)."""
        return self.M if not self.sym and self.M > 1 else self.M - 1


def _strided():
    return protocols.MODULES["torch"].lookup("strided")


def _window(name: str, build, extra: str = "", checked_as: str = ""):
    """The table entry of window `name`; its checks' messages name `checked_as` (the function
    torch's checks run in, general_cosine for the windows that only call it)."""
    def run(runtime, M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False,
            **options):
        layout = _strided() if layout is None else layout
        w = _Window(runtime, checked_as or name, M, sym, dtype, layout, device, requires_grad)
        return build(w, **options)
    keywords = f"{extra}, " if extra else ""
    return entry(name, run, f"M, *, {keywords}{_FACTORY}", context=True)


def _exponential(w: _Window, center=None, tau=1.0):
    if tau <= 0:
        raise errors.value_error(f"Tau must be positive, got: {tau} instead.")
    if w.sym and center is not None:
        raise errors.value_error("Center must be None for symmetric windows")
    if (empty := w.trivial(ones=False)) is not None:
        return empty
    center = w.span / 2.0 if center is None else center
    constant = 1 / tau
    k = w.linspace(-center * constant, (-center + (w.M - 1)) * constant)
    return w.c.torch("exp", w.c.torch("neg", w.c.torch("abs", k)))


def _cosine(w: _Window):
    if (empty := w.trivial(ones=False)) is not None:
        return empty
    constant = math.pi / (w.M + 1 if not w.sym and w.M > 1 else w.M)
    return w.c.torch("sin", w.linspace(0.5 * constant, (0.5 + (w.M - 1)) * constant))


def _gaussian(w: _Window, std=1.0):
    if std <= 0:
        raise errors.value_error(f"Standard deviation must be positive, got: {std} instead.")
    if (empty := w.trivial(ones=False)) is not None:
        return empty
    start = -w.span / 2.0
    constant = 1 / (std * math.sqrt(2))
    k = w.linspace(start * constant, (start + (w.M - 1)) * constant)
    return w.c.torch("exp", w.c.torch("neg", op("**", k, 2)))


def _kaiser(w: _Window, beta=12.0):
    if beta < 0:
        raise errors.value_error(f"beta must be non-negative, got: {beta} instead.")
    if (trivial := w.trivial()) is not None:
        return trivial
    c = w.c
    beta = c.torch("tensor", beta, dtype=w.factory["dtype"], device=w.factory["device"])
    start = c.torch("neg", beta)
    constant = op("/", op("*", 2.0, beta), w.M if not w.sym else w.M - 1)
    end = c.torch("minimum", beta, op("+", start, op("*", w.M - 1, constant)))
    k = w.linspace(start, end)
    root = c.torch("sqrt", op("-", op("*", beta, beta), c.torch("pow", k, 2)))
    return op("/", c.torch("i0", root), c.torch("i0", beta))


def _bartlett(w: _Window):
    if (trivial := w.trivial()) is not None:
        return trivial
    constant = 2 / (w.M if not w.sym else w.M - 1)
    return op("-", 1, w.c.torch("abs", w.linspace(-1, -1 + (w.M - 1) * constant)))


def _general_cosine(w: _Window, a):
    if (trivial := w.trivial()) is not None:
        return trivial
    if not isinstance(a, (list, tuple, Tensor)):
        raise errors.type_error("Coefficients must be a list/tuple")
    if len(a) == 0:
        raise errors.value_error("Coefficients cannot be empty")
    c = w.c
    constant = 2 * math.pi / (w.M if not w.sym else w.M - 1)
    k = w.linspace(0, (w.M - 1) * constant)
    a_i = c.torch("tensor", [op("*", (-1) ** i, value) for i, value in enumerate(a)],
                  device=w.factory["device"], dtype=w.factory["dtype"],
                  requires_grad=w.factory["requires_grad"])
    i = c.torch("arange", attr(a_i, "shape")[0], dtype=a_i.dtype,
                device=attr(a_i, "device"), requires_grad=a_i.requires_grad)
    terms = op("*", c.method(a_i, "unsqueeze", -1),
               c.torch("cos", op("*", c.method(i, "unsqueeze", -1), k)))
    return c.method(terms, "sum", 0)


def _coefficients(a):
    return lambda w: _general_cosine(w, a)


def _general_hamming(w: _Window, alpha=0.54):
    return _general_cosine(w, [alpha, 1.0 - alpha])


WINDOWS = Namespace("torch.signal.windows", table(
    _window("bartlett", _bartlett),
    _window("blackman", _coefficients([0.42, 0.5, 0.08])),
    _window("cosine", _cosine),
    _window("exponential", _exponential, "center=None, tau=1.0"),
    _window("gaussian", _gaussian, "std=1.0"),
    _window("general_cosine", _general_cosine, "a"),
    _window("general_hamming", _general_hamming, "alpha=0.54", "general_cosine"),
    _window("hamming", _general_hamming, checked_as="general_cosine"),
    _window("hann", lambda w: _general_hamming(w, 0.5), checked_as="general_cosine"),
    _window("kaiser", _kaiser, "beta=12.0"),
    _window("nuttall", _coefficients([0.3635819, 0.4891775, 0.1365995, 0.0106411]),
            checked_as="general_cosine"),
))
SIGNAL = Namespace("torch.signal", {"windows": WINDOWS})
