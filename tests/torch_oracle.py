"""The process real torch's snippet runs fork from (tests/snippets.py starts it, once per test
session): a fresh interpreter that imports torch and never runs a snippet itself.

torch warns some things once per process (TORCH_WARN_ONCE: `.item()` of a tensor that requires
grad, `backward(create_graph=True)`...). Forked from the test process, a snippet's child would
inherit whatever earlier tests had already warned and stay silent; forked from here it warns as a
new python does. Requests and answers are JSON lines on the two pipes whose descriptors it is
given (its stdout is left to what C code prints).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile


def serve(requests, answers) -> None:
    """Answer each snippet source read from `requests` with its record, each run in its own
    forked child."""
    from snippets import prepare_torch, run_in_child
    prepare_torch()
    with tempfile.TemporaryDirectory(prefix="gradcli-torch-") as scratch:
        os.chdir(scratch)  # what a snippet saves lands there, removed when the session ends
        for line in requests:
            answers.write(json.dumps(run_in_child(json.loads(line))) + "\n")
            answers.flush()


if __name__ == "__main__":
    with os.fdopen(int(sys.argv[1]), encoding="utf-8") as requests, \
            os.fdopen(int(sys.argv[2]), "w", encoding="utf-8") as answers:
        serve(requests, answers)
