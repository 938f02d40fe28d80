"""torch.backends, torch.accelerator and torch's process settings, as a CPU-only build has them."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.cascade_sum import THREADS
from gradcli.engine.cpu_capability import CAPABILITY
from gradcli.engine.state import STATE
from gradcli.engine.triggered import triggered
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import FlagNamespace, Namespace, type_name


def _false() -> bool:
    return False


def _availability(name: str, **flags) -> FlagNamespace:
    """A backend this build lacks: is_available() is False, its flags keep what is set."""
    return FlagNamespace(f"torch.backends.{name}", table(
        entry("is_available", _false, ""), entry("is_built", _false, "")), flags)


_CPU = Namespace("torch.backends.cpu", table(
    entry("get_cpu_capability", lambda: CAPABILITY.upper() if CAPABILITY != "default"
          else "DEFAULT", "")))

class CuBLASFlags(FlagNamespace):
    """torch.backends.cuda.matmul, which a CPU build has too: allow_tf32 reads and sets the
    float32 matmul precision ('high' when allowed, else 'highest'), as torch's setter does."""

    def lookup(self, attr: str):
        if attr == "allow_tf32":
            return STATE.flags.get("matmul_precision", "highest") != "highest"
        if attr in self.defaults:
            return super().lookup(attr)
        raise errors.TorchError("AttributeError", f"Unknown attribute {attr}")

    def assign(self, attr: str, value) -> bool:
        if attr != "allow_tf32":
            if attr not in self.defaults:
                raise errors.TorchError("AttributeError", f"Unknown attribute {attr}")
            return super().assign(attr, value)
        if not isinstance(value, bool):
            raise errors.runtime(f"set_allow_tf32_cublas expects a bool, but got "
                                 f"{type_name(value)}")
        STATE.flags["matmul_precision"] = "high" if value else "highest"
        return True


_CUDA = FlagNamespace("torch.backends.cuda", table(
    entry("is_available", _false, ""), entry("is_built", _false, "")) | {
    "matmul": CuBLASFlags("torch.backends.cuda.matmul", {}, {
        "allow_fp16_reduced_precision_reduction": True,
        "allow_bf16_reduced_precision_reduction": True, "allow_fp16_accumulation": False})}, {})

BACKENDS = Namespace("torch.backends", {
    "cpu": _CPU,
    "cudnn": FlagNamespace("torch.backends.cudnn", table(
        entry("is_available", _false, ""), entry("version", lambda: None, "")),
        {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}),
    "mps": _availability("mps"),
    "cuda": _CUDA,
    "mkldnn": FlagNamespace("torch.backends.mkldnn", table(
        entry("is_available", lambda: True, "")), {"enabled": True}),
    "mkl": Namespace("torch.backends.mkl", table(entry("is_available", lambda: True, ""))),
    "openmp": Namespace("torch.backends.openmp", table(entry("is_available", lambda: True, ""))),
})

# torch.version, as torch 2.13.0's CPU wheel has it
VERSION = Namespace("torch.version", {
    "__version__": "2.13.0+cpu", "cuda": None, "debug": False, "hip": None, "rocm": None,
    "xpu": None, "git_version": "cf30153c4c131c8164ee7798e5022d810682e2cb"})

ACCELERATOR = Namespace("torch.accelerator", table(
    entry("is_available", _false, ""),
    entry("current_accelerator", lambda check_available: None, "check_available=False"),
    entry("device_count", lambda: 0, ""),
))


def _set_num_threads(count) -> None:
    """torch.set_num_threads: checked and kept; gradcli's sums keep modelling the thread count
    torch starts with (OMP_NUM_THREADS or the cores)."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise errors.runtime(f"set_num_threads expects an int, but got {type_name(count)}")
    if count <= 0:
        raise errors.runtime("set_num_threads expects a positive integer")
    STATE.flags["num_threads"] = count


_PRECISIONS = ("highest", "high", "medium")


def _set_matmul_precision(precision) -> None:
    if not isinstance(precision, str):
        raise errors.runtime("set_float32_matmul_precision expects a str, but got "
                             f"{type_name(precision)}")
    if precision in _PRECISIONS:
        STATE.flags["matmul_precision"] = precision
    else:
        STATE.warn("UserWarning", triggered(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the "
            "currentsetFloat32MatmulPrecision call has no effect.", "aten/src/ATen/Context.cpp",
            458))


def _use_deterministic(mode, warn_only) -> None:
    """torch's Python hands both to torch._C._set_deterministic_algorithms, whose parser wants
    bools."""
    for name, value, where in (("mode", mode, " (position 1)"), ("warn_only", warn_only, "")):
        if not isinstance(value, bool):
            raise errors.type_error(f"_set_deterministic_algorithms(): argument '{name}'{where} "
                                    f"must be bool, not {type_name(value)}")
    STATE.flags["deterministic"] = (mode, warn_only)


PROCESS_SETTINGS = table(
    entry("set_num_threads", _set_num_threads, "int, /", style="exact",
          qualname="torch.set_num_threads"),
    entry("get_num_threads", lambda: STATE.flags.get("num_threads", THREADS), "",
          style="noargs", qualname="torch.get_num_threads"),
    entry("get_num_interop_threads", lambda: THREADS, "", style="noargs",
          qualname="torch.get_num_interop_threads"),
    entry("set_float32_matmul_precision", _set_matmul_precision, "precision"),
    entry("get_float32_matmul_precision",
          lambda: STATE.flags.get("matmul_precision", "highest"), ""),
    entry("use_deterministic_algorithms", _use_deterministic, "mode, *, warn_only=False"),
    entry("are_deterministic_algorithms_enabled",
          lambda: STATE.flags.get("deterministic", (False, False))[0], ""),
    entry("is_deterministic_algorithms_warn_only_enabled",
          lambda: STATE.flags.get("deterministic", (False, False))[1], ""),
)
