"""Wall-clock timing for the benchmark scripts (``make benchmark``); tests never time anything."""

from __future__ import annotations

import time


def fastest(run, repeats: int):
    """(the least wall time of ``repeats`` calls of ``run``, the last call's result). A kernel
    and its environment replay are timed alike, so that their difference is not the machine's
    noise."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats!r}")
    best, out = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - started)
    return best, out
