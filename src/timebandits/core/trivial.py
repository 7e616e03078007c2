"""The largest value a metric can take, and where a bound says nothing (DESIGN.md, "Claims and
bounds"). Apart from core/verdicts/bounds.py, which compares runs with bounds, because the papers'
theory modules, which their simulations import, need these two and nothing of the comparison: an
edit to the bound tables then reruns no simulation (core/imports.py)."""

from __future__ import annotations

import numpy as np


def trivial_bound(t, rate, offset=0.0) -> np.ndarray:
    """The value a metric cannot exceed at t whatever the learner does, ``rate``·t + ``offset``:
    for regret, ``rate`` is the largest expected loss per time unit (t × the largest gap, or the
    comparator's own earnings when the learner earns ≥ 0); for a count, 1 per time unit. ``rate``
    may vary with t. A theorem's bound says something only where it is below this."""
    return np.asarray(rate, dtype=float) * np.asarray(t, dtype=float) + offset


def is_vacuous(bound, trivial) -> np.ndarray:
    """Where a bound says nothing: not below the trivial bound, or undefined (NaN)."""
    return ~(np.asarray(bound, dtype=float) < np.asarray(trivial, dtype=float))
