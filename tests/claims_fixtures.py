"""What the tests of core/verdicts share (tests/test_core_combine.py, test_core_context.py,
test_core_comparisons.py, test_core_growth.py, test_core_kinds.py, test_core_bounds.py,
test_core_evaluate_claims.py, test_core_firmness.py): a claims config, a tiny paper, synthetic
traces and the claims several of them evaluate. The fixtures ``make_ctx`` and ``small_table`` are
in tests/conftest.py."""

import math

import numpy as np
import pandas as pd

from timebandits.core.verdicts.bounds import compare_to_bound

CONFIG = {
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 500,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    }
}


def ASSUMED(*names):  # noqa: N802 (reads like the config's provenance entries)
    return {name: {"source": "assumed", "why": "test"} for name in names}


REPS = 10


def make_paper(claims=(), experiments=("e",), algorithms=("a", "b")):
    return {
        "paper": {"key": "x"},
        "algorithms": {alg: {"label": alg.upper()} for alg in algorithms},
        "experiments": {exp: {"algorithms": list(algorithms)} for exp in experiments},
        "claims": list(claims),
    }


def trace_frame(values_by_t: dict, shuffle_seed=None) -> pd.DataFrame:
    """A trace with metric ``m`` from {t: values per repetition}."""
    rows = [
        {"repetition": r, "t": t, "m": float(v)}
        for t, vals in values_by_t.items()
        for r, v in enumerate(vals)
    ]
    frame = pd.DataFrame(rows)
    if shuffle_seed is not None:
        frame = frame.sample(frac=1.0, random_state=shuffle_seed).reset_index(drop=True)
    return frame


def horizon_trace(final_values, early=0.0, shuffle_seed=None):
    """Checkpoints 1, 10, 100; the claim only reads t = 100 (the horizon)."""
    final_values = np.asarray(final_values, dtype=float)
    return trace_frame(
        {1: np.full(final_values.size, early), 10: final_values / 2, 100: final_values},
        shuffle_seed,
    )


BASE = 100.0 + 1000.0 * np.arange(REPS)  # large spread across repetitions, paired noise cancels
JITTER = np.array([0.3, -0.2, 0.1, -0.4, 0.2, 0.0, -0.1, 0.4, -0.3, 0.0])


# --------------------------------------------------------------------------- shared claims

BETTER_CLAIM = {
    "id": "c1",
    "kind": "better_at_horizon",
    "where": "Fig. 1",
    "tested_as": "a beats b",
    "experiments": ["e"],
    "metric": "m",
    "better": ["a"],
    "worse": ["b"],
}

LOG_CLAIM = {
    "id": "c2",
    "kind": "log_growth",
    "where": "Thm 2",
    "tested_as": "log regret",
    "experiments": ["e"],
    "algorithm": "a",
    "metric": "m",
    "max_slope": math.log10(2),
    "provenance": ASSUMED("max_slope"),
}

BELOW_CLAIM = {
    "id": "c4",
    "kind": "below_bound",
    "where": "Thm 2",
    "tested_as": "below",
    "experiments": ["e"],
    "algorithm": "a",
    "bounds": ["theorem2"],
}


def wins_claim(min_settings, against=("b",)):
    return {
        "id": "c3",
        "kind": "wins_in_settings",
        "where": "Sec. 7",
        "tested_as": "a wins",
        "experiments": ["e", "f", "g"],
        "algorithm": "a",
        "against": list(against),
        "metric": "m",
        "min_settings": min_settings,
        "provenance": ASSUMED("min_settings"),
    }


def _without(claim, key):
    return {k: v for k, v in claim.items() if k != key}


def _compare(table, bound, trivial=(100.0, 100.0, 100.0), name="theorem2"):
    return compare_to_bound(
        table,
        np.array(bound, dtype=float),
        np.array(trivial, dtype=float),
        experiment="e",
        algorithm="a",
        bound_name=name,
        metric="m",
    )


def _note(m):
    # the multiplicity note the summary shows for m statistical sub-tests at α = 0.05
    return (
        f"{m} sub-tests: reproduced only if all {m} are at α = 0.05 (intersection–union test, "
        f"no correction needed); not reproduced if one is refuted at α/{m} = {0.05 / m:.2g} "
        f"(Bonferroni)"
    )
