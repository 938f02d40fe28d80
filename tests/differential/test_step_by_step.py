"""Daniel Voigt Godoy's "Deep Learning with PyTorch Step-by-Step" (github.com/dvgodoy/PyTorchStepByStep),
chapters 0-6 without their plots: linear regression from NumPy to autograd, optimizers and
nn.Module, make_train_step_fn and mini-batches over TensorDataset/DataLoader/random_split, the
StepByStep class (train, predict, checkpoints, count_parameters), logistic regression with
BCEWithLogitsLoss on NumPy-made moons, image classification on the book's generated images with
index_splitter and WeightedRandomSampler, convolutions, padding, pooling, LeNet-5, forward and
gradient hooks, dropout, learning-rate schedulers and optimizer comparisons; plus the fixes they
needed (NumPy integers as indices, random_split of tensor lengths, tensors indexed by a Subset,
np.apply_along_axis, C types' names in messages)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("step_by_step")
