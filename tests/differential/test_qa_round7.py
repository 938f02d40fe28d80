"""Autograd and small-training questions as Stack Overflow answers, PyTorch forum threads and
issue reports post them, a seventh round of whole scripts (classes, `if __name__ ==
"__main__"`, f-strings, a loss printed every epoch): leaves moved into the graph, in-place
errors, second backwards, .data against .detach(), hooks, create_graph and MAML inner loops,
custom Functions with wrong gradient counts, torch.where's NaN gradients, dtype, shape and
target errors, DataLoader loops and collate functions, REINFORCE, VAE, GAN, LSTM and siamese
training, early stopping and the ImageNet example's meters, legacy constructors and
Tensor.new, NamedTuple records, heapq beam searches, seeding helpers and NumPy 2's removed
names."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round7")
