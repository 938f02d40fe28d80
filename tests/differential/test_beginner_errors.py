"""The mistakes beginners make and ask about on Stack Overflow and the PyTorch forums, each ending
in torch's error (or catching and printing it): shape mismatches in matmul, nn.Linear, Conv2d,
recurrent layers and the losses, wrong target dtypes and class indices, dtype mismatches with
NumPy's float64, views of non-contiguous tensors, backward twice or of a non-scalar, in-place
changes to leaves, .numpy()/.item()/bool() misuse, a forgotten super().__init__(), wrong forward
arguments, indexing, cat/stack, ragged lists, optimizers' argument checks, DataLoader collation,
load_state_dict's messages, CUDA on a CPU-only machine, NumPy arrays meeting tensors in operators,
and methods used without being called."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("beginner_errors")
