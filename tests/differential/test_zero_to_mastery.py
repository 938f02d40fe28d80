"""The Zero to Mastery "Learn PyTorch for Deep Learning" notebooks (learnpytorch.io, 00 fundamentals
to 05 going modular, and the course's most-common-errors notebook), cell by cell as a learner
pastes them with the displayed values printed: tensor creation, dtypes, shapes and matmul errors,
aggregation, reshaping, NumPy interop, seeding, the linear-regression workflow with nn.Parameter,
training and testing loops, state_dict save and load, binary and multi-class classification,
TinyVGG on small random images, custom Datasets and DataLoaders, and the modular train/test
engine, with seeded synthetic tensors in place of the downloads."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("zero_to_mastery")
