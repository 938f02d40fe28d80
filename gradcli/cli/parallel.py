"""Many independent points (check --samples) spread over worker processes, results in order.

Workers are forked, so they inherit the compiled expression and the points; each gets
contiguous chunks and sends back plain results. A point that fails in a worker is run again in
this process, so that its error is raised here exactly as one job would raise it."""

from __future__ import annotations

import os
from typing import Callable, Iterator

# Below this many points per worker, starting the pool costs more than it saves (a fork and a
# pool's start are tens of milliseconds; a point of `check` is about a millisecond).
MIN_POINTS_PER_JOB = 256
CHUNKS_PER_JOB = 4

_TASK: Callable | None = None  # what forked workers run, set before the pool starts


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def jobs_for(count: int, jobs: int) -> int:
    """How many workers `count` points are worth (1: no pool)."""
    wanted = min(jobs, count // MIN_POINTS_PER_JOB)
    if wanted <= 1:
        return 1
    import multiprocessing  # only where a pool may pay for itself: it is slow to import
    return wanted if "fork" in multiprocessing.get_all_start_methods() else 1


def mapped(task: Callable[[int], object], count: int, jobs: int) -> Iterator:
    """task(0), task(1), ... task(count - 1), in order, computed by up to `jobs` processes."""
    workers = jobs_for(count, jobs)
    if workers <= 1:
        yield from (task(index) for index in range(count))
        return
    global _TASK
    _TASK = task
    size = -(-count // (workers * CHUNKS_PER_JOB))
    chunks = [(start, min(start + size, count)) for start in range(0, count, size)]
    import multiprocessing
    try:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_ignore_interrupts)
    except OSError:  # no processes to be had: one job
        yield from (task(index) for index in range(count))
        return
    try:
        for results in pool.imap(_run_chunk, chunks):
            for index, ok, value in results:
                yield value if ok else task(index)  # a failed point raises here, as in one job
    finally:
        pool.terminate()
        pool.join()
        _TASK = None


def _ignore_interrupts() -> None:
    """Ctrl-C is the parent's to handle: workers are terminated, not interrupted."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(bounds: tuple[int, int]) -> list:
    results = []
    for index in range(*bounds):
        try:
            results.append((index, True, _TASK(index)))
        except Exception:  # run again in the parent, which raises it in the user's words
            results.append((index, False, None))
            break
    return results
