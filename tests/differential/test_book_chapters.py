"""Code from the companion repositories of "Deep Learning with PyTorch" (chapters 3-8: tensors and
their storage, the thermometer model by hand, with autograd and with optimizers, nn.Linear and
nn.Sequential, CIFAR-shaped convnets, dropout, batchnorm, L2 by hand) and "Machine Learning with
PyTorch and Scikit-Learn" (chapters 12-13: tensors, DataLoader and Datasets, an Iris-like MLP,
computation graphs, the XOR problem, custom layers), with seeded synthetic data."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("book_chapters")
