"""University deep-learning course notebooks, their cells joined in order: the UvA Deep Learning
tutorials (Introduction to PyTorch and the XOR classifier, activation functions and their
gradients, initialization and hand-written SGD/Momentum/Adam, Inception/ResNet/DenseNet blocks,
attention and Transformers, GNN layers, energy models, autoencoders, flows, PixelCNN, ViT,
few-shot and contrastive learning) and NYU's Deep Learning course (spiral classification,
regression ensembles, the autograd tutorial, custom autograd Functions, convnets, VAE,
regularization), with matplotlib.colors and types.SimpleNamespace as those notebooks use them."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("course_notebooks")
