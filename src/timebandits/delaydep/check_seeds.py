"""The seeds and sizes of the numerical checks of Theorem 2, Fact 1 and Theorem 4 of Cella &
Cesa-Bianchi (spec §4; random_instance_checks.py, ranker_checks.py).

A check's ``seed`` is an int or a ``numpy.random.SeedSequence``, so everything it draws is
deterministic given the seed.
"""

from __future__ import annotations

import numpy as np


def seed_sequence(seed) -> np.random.SeedSequence:
    """``seed`` as a SeedSequence (a SeedSequence is returned as it is)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int or a numpy SeedSequence, got {seed!r}")
    return np.random.SeedSequence(int(seed))


def check_count(n, name: str) -> int:
    """``n`` (instances, runs) as an int, checked to be >= 1; ``name`` names it in the error."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {n!r}")
    return int(n)
