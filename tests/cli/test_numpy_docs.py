"""The console script imports NumPy without its docstring modules, and NumPy still works."""

import subprocess
import sys

import pytest

from gradcli.cli.numpy_docs import DOCSTRING_MODULES

PROBE = """
import sys
from gradcli.cli.numpy_docs import leave_out_docstrings
{before}
leave_out_docstrings()
import numpy
print(sum(len(vars(sys.modules[name])) > 8 for name in {names!r}))
print(numpy.linalg.solve([[2.0, 0.0], [0.0, 4.0]], [1.0, 1.0]).tolist(), numpy.float32(1.5) + 1)
"""


@pytest.mark.parametrize("before, real_modules", [("", 0), ("import numpy", 2)])
def test_docstring_modules_stand_in_only_before_numpy(before, real_modules):
    probe = PROBE.format(before=before, names=DOCSTRING_MODULES)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [str(real_modules), "[0.5, 0.25] 2.5"]
