from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("forward_ad")
