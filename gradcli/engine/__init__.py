"""The autograd engine: tensors, ops, backward and printing, on NumPy only."""
