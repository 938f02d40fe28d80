"""The official PyTorch tutorials and recipes that run on CPU without downloads or extra packages
(a dataset download replaced by a small synthetic tensor of the same shape), each one's code cells
put together as one script: the polynomial examples, what is torch.nn really, the basics and
introyt series, the blitz, saved-tensor hooks, custom Functions for conv-bn fusion, named and
masked tensors, the shape and state-dict recipes and the vmap recipe."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorials_sweep")
