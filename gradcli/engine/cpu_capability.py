"""The vector width of torch's CPU kernels, as ATen's dispatcher picks it at start-up, and
the CPU's vendor (MKL, under torch's BLAS calls, takes other kernels on other vendors).

AVX512 where the CPU has AVX512 VL, BW and DQ with FMA, AVX2 where it has AVX2 with FMA, else
the default build; the ATEN_CPU_CAPABILITY environment variable lowers the choice, as it does
in torch. Only kernels torch also builds for AVX512 (the softmax family) run 512-bit vectors
there; the reductions torch registers for AVX2 alone keep 256-bit ones.
"""

from __future__ import annotations

import os

_ORDER = ("default", "avx2", "avx512")
_NEEDS = {"avx512": {"avx512vl", "avx512bw", "avx512dq", "fma"}, "avx2": {"avx2", "fma"}}


def _cpu_info() -> tuple[str, int, set[str]]:
    """The first processor's vendor_id, cpu family and flags in /proc/cpuinfo ("", 0 and none
    if unreadable)."""
    vendor, family = "", 0
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith("vendor_id"):
                    vendor = line.partition(":")[2].strip()
                elif line.startswith("cpu family"):
                    family = int(line.partition(":")[2].strip() or 0)
                elif line.startswith("flags"):
                    return vendor, family, set(line.partition(":")[2].split())
    except (OSError, ValueError):
        pass
    return vendor, family, set()


VENDOR, FAMILY, _FLAGS = _cpu_info()  # FAMILY: 25 is AMD's Zen 3 and 4, 26 Zen 5
# oneDNN's avx512_core ISA (its AVX-512 convolution kernels)
AVX512_CORE = {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= _FLAGS


def _capability() -> str:
    hardware = next((c for c in ("avx512", "avx2") if _NEEDS[c] <= _FLAGS), "default")
    forced = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    if forced in _ORDER and _ORDER.index(forced) < _ORDER.index(hardware):
        return forced
    return hardware


CAPABILITY = _capability()
# oneDNN's avx512_core, the ISA its JIT kernels (GEMM, RNN post-GEMM) are generated for here; it
# reads the CPU itself, whatever ATEN_CPU_CAPABILITY says
ONEDNN_AVX512 = {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= _FLAGS
# Vectorized<T> of kernels built for every capability: 64 bytes on AVX512, 32 otherwise
WIDE_VECTOR_BYTES = 64 if CAPABILITY == "avx512" else 32
