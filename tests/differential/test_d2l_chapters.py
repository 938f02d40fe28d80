"""Whole scripts from Dive into Deep Learning's PyTorch chapters past the builders' guide (those
are in textbook_notebooks): convolutions from scratch, padding, channels, pooling and LeNet; the
modern CNNs at tiny sizes (AlexNet, VGG, NiN, GoogLeNet, batch normalization, ResNet, ResNeXt,
DenseNet); text preprocessing, language models and RNNs from scratch and concise, GRU, LSTM, deep
and bidirectional RNNs, encoder-decoder and seq2seq; attention pooling, scoring functions,
Bahdanau, multi-head and self-attention, positional encoding, the Transformer and ViT; the
optimization chapter's algorithms from scratch and torch.optim; and the computational
performance chapter's CPU parts. Seeded inline data replaces the book's downloads."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("d2l_chapters")
