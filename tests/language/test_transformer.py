"""nn.TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer, TransformerDecoder
and Transformer against torch: reprs, seeded parameters, values, labels, gradients, masks,
fast paths, warnings and errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("transformer")
