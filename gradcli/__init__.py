"""gradcli: PyTorch's autograd in the terminal, without PyTorch."""

from gradcli.engine import numpy_loops  # noqa: F401  (before anything imports NumPy)

__version__ = "0.1.0"
