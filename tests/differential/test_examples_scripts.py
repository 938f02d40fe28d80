"""Whole training scripts as pytorch/examples and from-scratch course notebooks write them (MNIST
and CIFAR nets, VAE, DCGAN, word language model, actor-critic, d2l linear, softmax and MLP
regressions, makemore bigram and batch-norm models, micrograd against torch), on seeded synthetic
data, print torch's losses, accuracies, models and state."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("examples_scripts")
