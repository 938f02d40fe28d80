"""Tutorial code run whole or shrunk: LLMs-from-scratch (attention, GPT blocks, LoRA, sampling, its
PyTorch appendix), nanoGPT and build-nanogpt, d2l's optimization, modern CNN, attention, recurrent,
NLP and vision chapters, PyTorch's own tutorials (nn_tutorial, basics, FGSM, DQN without gym, the
math behind training), the zero-to-mastery ViT replication and Raschka's course; with the kernel
bits they exposed (flash attention, cat/stack layouts, permuted sums, sliced linear)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("tutorials_six")
