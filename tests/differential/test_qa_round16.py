"""Whole scripts as GitHub issue threads, Q&A answers and notebooks post them, a sixteenth round:
short-time Fourier transforms (torch.stft against torch.fft.rfft, frame counts with and without
centring, zero-padded and short windows, torch.istft's output length, round trips, the NOLA
check and a masked-spectrogram loss), Kaiser windows, nn.AdaptiveLogSoftmaxWithLoss (its
output and loss, log_prob, predict, a small language model), the deprecated out-of-place
Tensor.resize and resize_as, state_dict and load_state_dict hooks, optimizer step hooks, and a
sample of answers that already matched: autograd, loss targets, packing and left padding,
scatter and one_hot, unique, bucketize and searchsorted."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("qa_round16")
