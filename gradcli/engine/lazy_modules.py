"""The kernel replicas (MKL's VML, SLEEF, glibc, torch's orders of operations), imported when an
op first needs one: they cost a tenth of start-up, and most programs call few of their ops.

`from gradcli.engine.lazy_modules import sleef_df` gives a stand-in that imports the kernel
modules at the first read of one of its names; an op table, which names its kernels at import,
wraps them in `at_first_call`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable


def _kernel_modules() -> dict:
    from gradcli.engine import (complex_kernels, kernels_order, libm_float, sleef, sleef_dd,
                                sleef_df, vml)
    return {"complex_kernels": complex_kernels, "kernels_order": kernels_order,
            "libm_float": libm_float, "sleef": sleef, "sleef_dd": sleef_dd, "sleef_df": sleef_df,
            "vml": vml}


class Later(ModuleType):
    """Stands for one kernel module until one of its names is read; the module's names are then
    copied here, so that later reads cost what a module's do."""

    def __getattr__(self, name: str):
        if name.startswith("__"):  # (copy's and pickle's probes load nothing)
            raise AttributeError(name)
        names = vars(_kernel_modules()[self.__name__.rpartition(".")[2]])
        self.__dict__.update(names)
        if name not in names:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        return names[name]


complex_kernels, kernels_order, libm_float, sleef, sleef_dd, sleef_df, vml = (
    Later(f"gradcli.engine.{name}") for name in (
        "complex_kernels", "kernels_order", "libm_float", "sleef", "sleef_dd", "sleef_df", "vml"))


def at_first_call(build: Callable[[], Callable]) -> Callable:
    """A function that runs `build()` at its first call and calls what it built from then on."""
    built = None

    def call(*args, **kwargs):
        nonlocal built
        if built is None:
            built = build()
        return built(*args, **kwargs)
    return call


def vml_unary(name: str, rounded: Callable) -> Callable:
    """vml.unary(name, rounded), vml imported at the op's first run."""
    return at_first_call(lambda: vml.unary(name, rounded))
