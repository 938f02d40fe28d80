"""Generative and probabilistic models as tutorials, blog posts and course notebooks write them:
VAEs (pytorch/examples, conditional, Gumbel-softmax, VQ-VAE), DCGAN, GANs and WGANs (clipping,
gradient penalty) on Gaussian mixtures, minimal DDPM on 2-D toy data, normalizing flows, energy
models with Langevin steps, mixture density networks, makemore's character models, and
variational inference with torch.distributions, on small seeded synthetic data."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("generative_models")
