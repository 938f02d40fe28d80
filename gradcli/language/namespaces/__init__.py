"""Namespaces: builtins, importable modules, and the torch, Tensor, nn and optim tables."""
