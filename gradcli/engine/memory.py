"""Memory: the machine's, and the limit a run sets (`--max-memory`). Allocations whose size is
known before any work (creation functions, Python sequence repetition) are checked here, so that
an impossible request fails at once instead of climbing until the system refuses it."""

from __future__ import annotations

import os
import re

from gradcli.engine import errors

ALLOCATION_FAILED = (
    "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
    "you tried to allocate {} bytes. Error code 12 (Cannot allocate memory)")
_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def physical_memory() -> int | None:
    """The machine's memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


class MemoryLimit:
    """The most one allocation may take, in bytes (None: only the machine's memory)."""

    def __init__(self) -> None:
        self.bytes: int | None = None

    def exceeded_by(self, nbytes: int) -> str | None:
        """The message for an allocation of `nbytes` over the limit, else None."""
        if self.bytes is None or nbytes <= self.bytes:
            return None
        return (f"gradcli: allocating {describe(nbytes)} exceeds the memory limit of "
                f"{describe(self.bytes)} (--max-memory)")


LIMIT = MemoryLimit()


def check_tensor_bytes(nbytes: int) -> None:
    """Fail as torch's allocator fails when the machine cannot hold `nbytes`, and with gradcli's
    own message when they pass the run's limit."""
    memory = physical_memory()
    if memory is not None and nbytes > memory:
        raise errors.runtime(ALLOCATION_FAILED.format(nbytes))
    message = LIMIT.exceeded_by(nbytes)
    if message is not None:
        raise errors.runtime(message)


def describe(nbytes: int) -> str:
    """`nbytes` in the largest binary unit that keeps it at least 1: '1.5 GiB', '100 MiB'."""
    value, unit = float(nbytes), 0
    while value >= 1024 and unit < len(_UNITS) - 1:
        value, unit = value / 1024, unit + 1
    if unit == 0:
        return f"{nbytes} bytes"
    return f"{value:.1f}".removesuffix(".0") + f" {_UNITS[unit]}"


def parse_size(text: str) -> int:
    """A size as a user writes it: bytes, or a number with K, M, G or T (powers of 1024, an
    optional 'iB' or 'B' after the letter): '512M', '1.5GiB', '2g'. ValueError otherwise."""
    stripped = text.strip()
    lowered = stripped.lower().removesuffix("ib").removesuffix("b")
    power = 0
    if lowered and lowered[-1] in "kmgt":
        power = "kmgt".index(lowered[-1]) + 1
        lowered = lowered[:-1]
    number = float(lowered)  # ValueError for anything else
    size = number * 1024 ** power
    if not (size == size and 0 < size < 2**63):
        raise ValueError(text)
    return int(size)


def check_repetition(sequence, count) -> None:
    """Before `sequence * count` (a str, bytes, list or tuple): Python's MemoryError, bare as
    Python raises it past the machine's memory, with the limit's message past the run's limit
    (a list's items are 8-byte references)."""
    item_bytes = 1 if isinstance(sequence, (str, bytes)) else 8
    nbytes = len(sequence) * max(count, 0) * item_bytes
    physical = physical_memory()
    message = "" if physical is not None and nbytes > physical else LIMIT.exceeded_by(nbytes)
    if message is not None:
        raise errors.TorchError("MemoryError", message)


def python_memory_error(error: MemoryError) -> tuple[str, str]:
    """The kind and message a MemoryError raised while running shows: NumPy's refusal of an
    array is torch's allocator failing (its size in bytes), anything else is Python's own."""
    nbytes = getattr(error, "_total_size", None)  # numpy's _ArrayMemoryError
    if isinstance(nbytes, int):
        return "RuntimeError", ALLOCATION_FAILED.format(nbytes)
    return "MemoryError", str(error)


MAX_DIMS = 64  # NumPy's limit on an array's dimensions (torch's tensors may have more)
_NUMPY_DIMENSION_ERRORS = ("maximum supported dimension for an ndarray",
                           "number of dimensions must be within",
                           "exceed the maximum number of dimension")


def too_many_dimensions(count: int | None = None) -> str:
    needed = "" if count is None else f"; this one would have {count}"
    return f"gradcli: a tensor has at most {MAX_DIMS} dimensions (NumPy's limit){needed}"


def numpy_dimension_error(error: ValueError) -> str | None:
    """gradcli's message when NumPy refuses an array of more than MAX_DIMS dimensions."""
    text = str(error)
    if not any(part in text for part in _NUMPY_DIMENSION_ERRORS):
        return None
    found = re.search(r"(?:found|got) (\d+)$", text)
    return too_many_dimensions(int(found.group(1)) if found else None)
