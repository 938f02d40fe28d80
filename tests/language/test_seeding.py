"""Seeding and generators: torch.Generator, rng state, fork_rng and generator= draws against torch."""

from snippets import case_tests

test_matches_golden, test_matches_live_torch = case_tests("seeding")


def test_each_run_starts_from_a_fresh_seed():
    import os
    import subprocess
    import sys
    program = "print(torch.initial_seed(), torch.rand(2))"
    runs = [subprocess.run([sys.executable, "-m", "gradcli", "eval", program], capture_output=True,
                           text=True, env=os.environ, check=True).stdout for _ in range(2)]
    assert runs[0] != runs[1]
