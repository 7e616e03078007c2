"""Empirical curves against theoretical bounds, in one table format shared by every paper.

One row per (experiment, algorithm, bound, checkpoint t) with columns:
  metric          the empirical quantity compared (e.g. pseudo_regret, pulls_k1_j2)
  mean, se, max   over repetitions at t
  runs_exceeding  repetitions whose value exceeds the bound at t (of n_runs)
  bound           the bound's value at t (NaN where the theorem does not apply)
  trivial         the trivial bound at t (:func:`core.trivial.trivial_bound`); the bound is
                  ``vacuous`` where it is not below it (:func:`core.trivial.is_vacuous`)
  ratio           mean / bound
The comparison notebook reads these tables for every paper without knowing the paper.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from timebandits.core.trivial import is_vacuous
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

COLUMNS = [
    "experiment",
    "algorithm",
    "bound",
    "metric",
    "t",
    "mean",
    "se",
    "max",
    "runs_exceeding",
    "n_runs",
    "bound_value",
    "trivial",
    "vacuous",
    "ratio",
]


def compare_to_bound(
    table: pd.DataFrame,
    bound: np.ndarray,
    trivial: np.ndarray,
    *,
    experiment: str,
    algorithm: str,
    bound_name: str,
    metric: str,
) -> pd.DataFrame:
    """Rows of the bound table from a (t x repetition) table of the empirical metric."""
    return compare_curves(
        table.to_numpy(dtype=float)[:, None, :],
        np.asarray(bound)[:, None],
        np.asarray(trivial)[:, None],
        t=table.index.to_numpy(),
        experiment=experiment,
        algorithm=algorithm,
        bound_names=[bound_name],
        metrics=[metric],
    )


def compare_curves(
    values: np.ndarray,
    bound: np.ndarray,
    trivial: np.ndarray,
    *,
    t: np.ndarray,
    experiment: str,
    algorithm: str,
    bound_names,
    metrics,
) -> pd.DataFrame:
    """Rows of the bound table for several curves of one run set at once: ``values`` is
    (t x curve x repetition), ``bound`` and ``trivial`` are (t x curve), and ``bound_names`` and
    ``metrics`` name each curve. The rows come curve after curve, as one
    :func:`compare_to_bound` per curve would give them, in one frame instead of hundreds."""
    values = np.asarray(values, dtype=float)
    n_t, n_curves, n = values.shape
    bound = np.asarray(bound, dtype=float)
    trivial = np.asarray(trivial, dtype=float)

    def by_curve(array):  # (t x curve) -> rows curve after curve
        return np.ascontiguousarray(np.asarray(array).T).reshape(-1)

    with np.errstate(invalid="ignore", divide="ignore"):
        mean = values.mean(axis=2)
        se = values.std(axis=2, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(mean.shape)
        frame = pd.DataFrame(
            {
                "experiment": experiment,
                "algorithm": algorithm,
                "bound": np.repeat(np.asarray(bound_names, dtype=object), n_t),
                "metric": np.repeat(np.asarray(metrics, dtype=object), n_t),
                "t": np.tile(np.asarray(t), n_curves),
                "mean": by_curve(mean),
                "se": by_curve(se),
                "max": by_curve(values.max(axis=2)),
                "runs_exceeding": by_curve((values > bound[:, :, None]).sum(axis=2)),
                "n_runs": n,
                "bound_value": by_curve(bound),
                "trivial": by_curve(trivial),
                "vacuous": by_curve(is_vacuous(bound, trivial)),
                "ratio": by_curve(mean / bound),
            }
        )
    return frame[COLUMNS]


def informative_from(rows: pd.DataFrame) -> float:
    """The first checkpoint from which the bound is informative (not vacuous) at every later
    checkpoint of ``rows`` (all of its curves); inf if it is vacuous at the last one."""
    vacuous = rows.groupby("t")["vacuous"].any().sort_index()
    if vacuous.empty or vacuous.iloc[-1]:
        return math.inf
    later = vacuous[::-1].cumsum()[::-1]  # vacuous checkpoints at or after each t
    return float(later[later == 0].index.min())


def bound_verdict(rows: pd.DataFrame) -> dict:
    """Verdict of "the mean stays below the bound", judged only where the bound is informative:
    a vacuous checkpoint never counts as support. Inconclusive if the bound is vacuous at every
    checkpoint; otherwise not reproduced if the mean exceeds it by more than 2 standard errors at
    some informative checkpoint, inconclusive if within 2 standard errors, reproduced otherwise.
    Returns {verdict, headline, statistic, max_ratio, informative_from}."""
    applicable = rows[np.isfinite(rows["bound_value"])]
    if applicable.empty:
        text = "the bound does not apply at any checkpoint"
        return {
            "verdict": INCONCLUSIVE,
            "headline": text,
            "statistic": text,
            "max_ratio": math.nan,
            "informative_from": math.inf,
        }
    start = informative_from(applicable)
    horizon = float(applicable["t"].max())
    informative = applicable[~applicable["vacuous"]]
    if informative.empty:
        text = f"bound vacuous until t > {horizon:.3g} (at every checkpoint)"
        return {
            "verdict": INCONCLUSIVE,
            "headline": text,
            "statistic": f"inconclusive: {text}; no checkpoint can support the bound",
            "max_ratio": math.nan,
            "informative_from": start,
        }
    excess = informative["mean"] - informative["bound_value"]
    worst = informative.iloc[int(np.nanargmax(informative["ratio"].to_numpy()))]
    clearly = (excess > 2 * informative["se"]).any()
    verdict = NOT_REPRODUCED if clearly else (INCONCLUSIVE if (excess > 0).any() else REPRODUCED)
    vacuous_until = (
        f"vacuous until t = {applicable.loc[applicable['vacuous'], 't'].max():.3g}"
        if applicable["vacuous"].any()
        else "informative everywhere"
    )
    return {
        "verdict": verdict,
        "headline": (
            f"largest mean/bound {worst['ratio']:.3g} over {len(informative)} informative "
            f"checkpoints ({vacuous_until})"
        ),
        "statistic": (
            f"largest mean/bound = {worst['ratio']:.3g} ({worst['metric']} vs "
            f"{worst['bound']} at t = {worst['t']:.4g}) over the informative "
            f"curve-checkpoints; with the mean above the bound: "
            f"{int((excess > 0).sum())}/{len(informative)}, with some run above it: "
            f"{int((informative['runs_exceeding'] > 0).sum())}; bound "
            f"{vacuous_until} ({int(applicable['vacuous'].sum())}/{len(applicable)} "
            f"curve-checkpoints vacuous, never counted)"
        ),
        "max_ratio": float(worst["ratio"]),
        "tightness": float(worst["ratio"]),
        "informative_from": start,
    }
