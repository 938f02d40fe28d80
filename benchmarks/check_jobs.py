"""`gradcli check --range ... --samples N` with one job and with K jobs: wall times and ratio.

Run: python benchmarks/check_jobs.py [--samples 20000] [--jobs 2] [--runs 3]. The two commands
alternate; the medians and their ratio are printed, with the load average (the ratio only means
something when the cores are free), and the outputs are checked to be byte-identical.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

EXPRESSION = "torch.sin(x) * x**2 + torch.exp(-x**2)"


def timed(command: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    gradcli = shutil.which("gradcli") or os.path.join(os.path.dirname(sys.executable), "gradcli")
    base = [gradcli, "check", EXPRESSION, "--range", "x=-3:3", "--samples", str(args.samples)]
    times: dict[int, list[float]] = {1: [], args.jobs: []}
    outputs = {}
    for _ in range(args.runs):
        for jobs in times:
            seconds, outputs[jobs] = timed(base + ["--jobs", str(jobs)])
            times[jobs].append(seconds)
    one, many = (statistics.median(times[j]) for j in (1, args.jobs))
    print(f"check --samples {args.samples}: 1 job {one:.2f} s, {args.jobs} jobs {many:.2f} s, "
          f"ratio {many / one:.2f}x (load average {os.getloadavg()[0]:.2f}, "
          f"{len(os.sched_getaffinity(0))} CPUs)")
    print("outputs identical" if outputs[1] == outputs[args.jobs] else "OUTPUTS DIFFER")


if __name__ == "__main__":
    main()
