"""torch.amp.GradScaler on a CPU-only build: loss scaling, inf checks, scale updates, state
dicts and the stage errors."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("grad_scaler")
