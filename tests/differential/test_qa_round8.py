"""Whole scripts as Stack Overflow answers and PyTorch forum threads post them, an eighth round
(classes, `if __name__ == "__main__"`, f-strings, losses printed with .item()), on what earlier
rounds touched less: gather/scatter/index_select, boolean and advanced indexing, masked_fill,
unfold, einsum, repeat against expand, topk/sort/argsort, unique, bincount and cumsum tricks;
set_printoptions and the printing of large, small and mixed int, bool and complex tensors; int
division and type promotion with Python scalars and NumPy arrays; custom losses and metrics,
gradient clipping, weight initialisation, frozen layers, parameter counts, state_dict surgery
(its `_metadata` kept across copies), buffers, module containers, activation hooks, no_grad
against detach, and small training loops on synthetic data."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round8")
