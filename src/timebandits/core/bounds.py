"""Empirical curves against theoretical bounds, in one table format shared by every paper.

One row per (experiment, algorithm, bound, checkpoint t) with columns:
  metric          the empirical quantity compared (e.g. pseudo_regret, pulls_k1_j2)
  mean, se, max   over repetitions at t
  runs_exceeding  repetitions whose value exceeds the bound at t (of n_runs)
  bound           the bound's value at t (NaN where the theorem does not apply)
  trivial         the trivial bound at t (e.g. t × the largest gap); the bound is ``vacuous``
                  where it is not below it
  ratio           mean / bound
The comparison notebook reads these tables for every paper without knowing the paper.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

COLUMNS = ["experiment", "algorithm", "bound", "metric", "t", "mean", "se", "max",
           "runs_exceeding", "n_runs", "bound_value", "trivial", "vacuous", "ratio"]


def compare_to_bound(table: pd.DataFrame, bound: np.ndarray, trivial: np.ndarray, *,
                     experiment: str, algorithm: str, bound_name: str, metric: str) -> pd.DataFrame:
    """Rows of the bound table from a (t x repetition) table of the empirical metric."""
    values = table.to_numpy(dtype=float)
    n = values.shape[1]
    bound = np.asarray(bound, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = values.mean(axis=1)
        frame = pd.DataFrame({
            "experiment": experiment, "algorithm": algorithm, "bound": bound_name,
            "metric": metric, "t": table.index.to_numpy(),
            "mean": mean,
            "se": values.std(axis=1, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(len(mean)),
            "max": values.max(axis=1),
            "runs_exceeding": (values > bound[:, None]).sum(axis=1),
            "n_runs": n,
            "bound_value": bound,
            "trivial": np.asarray(trivial, dtype=float),
            "vacuous": ~(bound < np.asarray(trivial, dtype=float)),
            "ratio": mean / bound,
        })
    return frame[COLUMNS]


def bound_verdict(rows: pd.DataFrame) -> tuple[str, str]:
    """Verdict of "the mean stays below the bound at every checkpoint": not reproduced if the
    mean exceeds it by more than 2 standard errors anywhere, inconclusive if it exceeds it within
    2 standard errors, reproduced otherwise. Returns (verdict, statistic)."""
    from .claims import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

    rows = rows[np.isfinite(rows["bound_value"])]
    if rows.empty:
        return INCONCLUSIVE, "the bound does not apply at any checkpoint"
    excess = rows["mean"] - rows["bound_value"]
    worst = rows.iloc[int(np.nanargmax(rows["ratio"].to_numpy()))]
    clearly = (excess > 2 * rows["se"]).any()
    verdict = NOT_REPRODUCED if clearly else (INCONCLUSIVE if (excess > 0).any() else REPRODUCED)
    statistic = (f"largest mean/bound = {worst['ratio']:.3g} ({worst['metric']} vs "
                 f"{worst['bound']} at t = {worst['t']:.4g}); curve-checkpoints with the mean above "
                 f"the bound: {int((excess > 0).sum())}/{len(rows)}, with some run above it: "
                 f"{int((rows['runs_exceeding'] > 0).sum())}; bound vacuous at "
                 f"{int(rows['vacuous'].sum())}/{len(rows)}")
    return verdict, statistic
