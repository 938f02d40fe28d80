"""Where torch's C++ raised a warning: TORCH_WARN and TORCH_WARN_ONCE end their messages with the
source file and line they were raised at, as torch 2.13.0's CPU wheel was built (warnings.warn
calls in torch's Python have no such ending)."""

from __future__ import annotations


def triggered(message: str, file: str, line: int) -> str:
    """`message` as torch's C++ at `file` (a path in torch's source tree) `line` raises it."""
    return f"{message} (Triggered internally at /__w/pytorch/pytorch/{file}:{line}.)"
