"""torch.compile as a pass-through (functions, decorators, the OptimizedModule wrapper, the
CompiledFunctionBackward label and its argument errors) against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("compile")


# torch's first compile patches torch for the rest of the process (the snippet harness warms the
# compiler up before each snippet, so this runs in a python of its own)
CHECKS_AFTER_COMPILE = """\
import torch
from torch.distributions import Normal
for c in [lambda: torch.compile(lambda x: x, disable=True),
          lambda: torch.compile(lambda x: x, backend='nope'), lambda: torch.compile(5),
          lambda: torch.compile(lambda x: x)]:
    try:
        c()
    except Exception as e:
        print(type(e).__name__)
    try:
        print(Normal(0., -1.))
    except ValueError as e:
        print("ValueError")
"""


def test_compiling_turns_off_the_distributions_checks_as_in_torch():
    import subprocess
    import sys

    import pytest
    from snippets import run_gradcli
    pytest.importorskip("torch")
    theirs = subprocess.run([sys.executable, "-c", CHECKS_AFTER_COMPILE], capture_output=True,
                            text=True, check=True).stdout
    assert run_gradcli(CHECKS_AFTER_COMPILE.removeprefix("import torch\n"))["stdout"] == theirs
    assert theirs.count("ValueError") == 2  # the checks hold until a compile gets past its backend
