"""Andrej Karpathy's teaching code, kept as written with inline words and text in place of
names.txt and input.txt and small sizes and step counts: the "Neural Networks: Zero to Hero"
notebooks (micrograd checked against torch, makemore parts 1-5: bigram counts, the MLP,
batchnorm and activation statistics, the manual backward pass compared with torch's bit for bit,
the WaveNet layers), ng-video-lecture's bigram.py and gpt.py, micrograd's test_engine.py,
makemore.py's models and minGPT's model, with the torch behaviour they lean on (histograms of
tensors that require grad)."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("karpathy_lectures")
