"""gradcli: PyTorch's autograd in the terminal, without PyTorch."""

__version__ = "0.1.0"
