"""Claims as checks over the traces, each ending in a verdict with its numbers
(DESIGN.md, "Claims and bounds").

A claim kind has ``check(claim, paper)`` (raises ValueError on a malformed claim, run when the
workflow loads) and ``evaluate(claim, context) -> list of sub-check rows``. A sub-check row is a
dict with at least ``scope`` (e.g. the experiment), ``verdict`` and ``statistic`` (one line with
the numbers). The claim's verdict combines its rows: *not reproduced* if any row is, else
*inconclusive* if any row is, else *reproduced*.

Generic kinds:
  better_at_horizon  paired one-sided t-test, at the horizon, of metric(better) < metric(worse)
                     for every (experiment, better, worse); common random numbers make the pairs.
  log_growth         ratio of the metric's increase over the last decade of time to that over
                     the decade before: ≈1 for logarithmic growth, 10^p for t^p; bootstrap CI.
  wins_in_settings   the algorithm beats every rival (paired test) in at least ``min_settings``
                     experiments.
  below_bound        the mean empirical curve stays below the paper's bound (core/bounds.py).
  sign_at_horizon    one-sided t-test, at the horizon, that the metric's mean is negative (or
                     positive) for every (experiment, algorithm).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .stats import bootstrap_ci, paired_one_sided
from .traces import concat_traces

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_CHECKABLE = "not checkable"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_CHECKABLE)

# The kind of evidence that decides a claim (or a sub-check).
STATISTICAL = "statistical test"
EXACT = "exact computation"
EVIDENCE = (STATISTICAL, EXACT, NOT_CHECKABLE)


def combine(verdicts: list[str]) -> str:
    if not verdicts:
        return INCONCLUSIVE
    if NOT_REPRODUCED in verdicts:
        return NOT_REPRODUCED
    if INCONCLUSIVE in verdicts:
        return INCONCLUSIVE
    return REPRODUCED


@dataclass
class ClaimContext:
    """What a claim may look at: the paper config, the workflow config and the traces."""

    paper: dict
    config: dict
    trace_paths: dict  # (experiment, algorithm) -> its chunk files (core/workflow.trace_paths)
    bounds: pd.DataFrame | None = None  # the paper's bound table (core/bounds.py), if any
    _cache: dict = field(default_factory=dict)

    def trace(self, experiment: str, algorithm: str) -> pd.DataFrame:
        key = (experiment, algorithm)
        if key not in self._cache:
            if key not in self.trace_paths:
                raise KeyError(f"no trace for experiment {experiment!r}, algorithm {algorithm!r}")
            self._cache[key] = concat_traces(self.trace_paths[key])
        return self._cache[key]

    def final(self, experiment: str, algorithm: str, metric: str) -> np.ndarray:
        """The metric at the last checkpoint (the horizon), one value per repetition."""
        trace = self.trace(experiment, algorithm)
        last = trace[trace["t"] == trace["t"].max()].sort_values("repetition")
        return last[metric].to_numpy(dtype=float)

    def paired(self, experiment: str, first: str, second: str, metric: str):
        """The metric at the horizon for two algorithms, paired by repetition (same runs and
        same horizon required: the pairing is what common random numbers are for)."""
        a, b = self.trace(experiment, first), self.trace(experiment, second)
        if a["t"].max() != b["t"].max() or set(a["repetition"]) != set(b["repetition"]):
            raise ValueError(f"{experiment}: {first} and {second} were not run on the same "
                             f"repetitions and horizon; rebuild their traces")
        return self.final(experiment, first, metric), self.final(experiment, second, metric)

    def at(self, experiment: str, algorithm: str, metric: str) -> pd.DataFrame:
        """The metric as a (checkpoint x repetition) table."""
        return self.trace(experiment, algorithm).pivot(index="t", columns="repetition", values=metric)

    @property
    def alpha(self) -> float:
        return float(self.config["claims"]["alpha"])

    def label(self, algorithm: str) -> str:
        return self.paper["algorithms"][algorithm]["label"]


def require_keys(claim: dict, *keys: str) -> None:
    """Raise ValueError naming the keys a claim of its kind needs but lacks."""
    missing = [k for k in keys if k not in claim]
    if missing:
        raise ValueError(f"claim kind {claim['kind']!r} needs keys {missing}")


def _check_run(claim: dict, paper: dict, experiments, algorithms) -> None:
    for exp in experiments:
        if exp not in paper["experiments"]:
            raise ValueError(f"unknown experiment {exp!r}")
        for alg in algorithms:
            if alg not in paper["experiments"][exp]["algorithms"]:
                raise ValueError(f"algorithm {alg!r} is not run in experiment {exp!r}")


def paired_verdict(test: dict, alpha: float) -> str:
    if test["p_claimed"] < alpha:
        return REPRODUCED
    if test["p_opposite"] < alpha:
        return NOT_REPRODUCED
    return INCONCLUSIVE


class BetterAtHorizon:
    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "metric", "better", "worse")
        _check_run(claim, paper, claim["experiments"], claim["better"] + claim["worse"])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            for better in claim["better"]:
                for worse in claim["worse"]:
                    low, high = ctx.paired(exp, better, worse, claim["metric"])
                    test = paired_one_sided(low, high)
                    wins = int(np.sum(low < high))
                    verdict = paired_verdict(test, ctx.alpha)
                    rows.append({
                        "scope": exp, "verdict": verdict,
                        "statistic": (f"{claim['metric']} at T: {ctx.label(better)} "
                                      f"{low.mean():.4g} ± {low.std(ddof=1) / np.sqrt(low.size):.2g} vs "
                                      f"{ctx.label(worse)} {high.mean():.4g} ± "
                                      f"{high.std(ddof=1) / np.sqrt(high.size):.2g} (mean ± s.e.); "
                                      f"{wins}/{low.size} runs lower; paired t = {test['t']:.2f}, "
                                      f"p = {test['p_claimed']:.2g}"),
                        "value_claimed_lower": float(low.mean()),
                        "value_claimed_higher": float(high.mean()),
                        "p_value": test["p_claimed"],
                    })
        return rows


def decade_ratio(table: pd.DataFrame, horizon: float) -> np.ndarray:
    """Per repetition: [m(T) − m(T/10)] / [m(T/10) − m(T/100)] from a (t x repetition) table,
    using the checkpoints nearest to T/10 and T/100."""
    ts = table.index.to_numpy(dtype=float)
    pick = [ts[np.argmin(np.abs(ts - horizon / f))] for f in (1, 10, 100)]
    m_T, m_10, m_100 = (table.loc[p].to_numpy(dtype=float) for p in pick)
    return np.column_stack([m_T - m_10, m_10 - m_100])


def _ratio_of_means(increments: np.ndarray) -> float:
    """Mean last-decade increase over mean previous-decade increase. A curve that was flat and
    then grows is infinitely faster than logarithmic (inf); one that stays flat, 0."""
    last, previous = increments[:, 0].mean(), increments[:, 1].mean()
    if previous > 0:
        return float(last / previous)
    return float("inf") if last > 0 else 0.0


class LogGrowth:
    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "metric", "max_decade_ratio")
        _check_run(claim, paper, claim["experiments"], [claim["algorithm"]])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        threshold = float(claim["max_decade_ratio"])
        for exp in claim["experiments"]:
            table = ctx.at(exp, claim["algorithm"], claim["metric"])
            horizon = float(table.index.max())
            increments = decade_ratio(table, horizon)
            est, low, high = bootstrap_ci(increments, _ratio_of_means,
                                          n_boot=int(ctx.config["claims"]["bootstrap_samples"]))
            if high <= threshold:
                verdict = REPRODUCED
            elif low > threshold:
                verdict = NOT_REPRODUCED
            else:
                verdict = INCONCLUSIVE
            rows.append({
                "scope": exp, "verdict": verdict,
                "statistic": (f"{claim['metric']} increase over [T/10, T] / over [T/100, T/10] = "
                              f"{est:.3g} (95% bootstrap CI {low:.3g}–{high:.3g}); logarithmic "
                              f"growth gives 1, t^p gives 10^p; threshold {threshold:g}"),
                "decade_ratio": est, "ci_low": low, "ci_high": high,
            })
        return rows


class WinsInSettings:
    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "against", "metric", "min_settings")
        _check_run(claim, paper, claim["experiments"], [claim["algorithm"], *claim["against"]])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        wins, losses, rows = [], [], []
        for exp in claim["experiments"]:
            verdicts = []
            for rival in claim["against"]:
                test = paired_one_sided(*ctx.paired(exp, claim["algorithm"], rival, claim["metric"]))
                verdicts.append(paired_verdict(test, ctx.alpha))
            if all(v == REPRODUCED for v in verdicts):
                wins.append(exp)
            if any(v == NOT_REPRODUCED for v in verdicts):
                losses.append(exp)
        need = int(claim["min_settings"])
        undecided = len(claim["experiments"]) - len(wins) - len(losses)
        if len(wins) >= need:
            verdict = REPRODUCED
        elif len(wins) + undecided < need:
            verdict = NOT_REPRODUCED
        else:
            verdict = INCONCLUSIVE
        rows.append({
            "scope": ",".join(claim["experiments"]), "verdict": verdict,
            "statistic": (f"{ctx.label(claim['algorithm'])} significantly better than every rival in "
                          f"{len(wins)}/{len(claim['experiments'])} settings ({', '.join(wins) or 'none'}); "
                          f"worse than some rival in {', '.join(losses) or 'none'}; needs {need}"),
        })
        return rows


class BelowBound:
    """Every empirical curve of the bound table named by ``bounds`` (name prefixes) stays below
    its bound; one sub-check per experiment and bound."""

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "bounds")
        _check_run(claim, paper, claim["experiments"], [claim["algorithm"]])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        from .bounds import bound_verdict

        if ctx.bounds is None:
            raise ValueError(f"claim {claim['id']} needs the paper's bound table")
        rows = []
        table = ctx.bounds[ctx.bounds["algorithm"] == claim["algorithm"]]
        for exp in claim["experiments"]:
            for prefix in claim["bounds"]:
                sel = table[(table["experiment"] == exp) & table["bound"].str.startswith(prefix)]
                verdict, statistic = bound_verdict(sel)
                rows.append({"scope": f"{exp} {prefix}", "verdict": verdict, "statistic": statistic})
        return rows


class SignAtHorizon:
    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithms", "metric", "sign")
        if claim["sign"] not in ("negative", "positive"):
            raise ValueError(f"sign must be 'negative' or 'positive', got {claim['sign']!r}")
        _check_run(claim, paper, claim["experiments"], claim["algorithms"])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            for alg in claim["algorithms"]:
                values = ctx.final(exp, alg, claim["metric"])
                zero = np.zeros_like(values)
                negative = claim["sign"] == "negative"
                test = paired_one_sided(values, zero) if negative else paired_one_sided(zero, values)
                se = values.std(ddof=1) / np.sqrt(values.size) if values.size > 1 else np.nan
                rows.append({
                    "scope": f"{exp} {alg}", "verdict": paired_verdict(test, ctx.alpha),
                    "statistic": (f"{claim['metric']} at T of {ctx.label(alg)}: {values.mean():.4g} "
                                  f"± {se:.2g} (mean ± s.e.), {int(np.sum(values < 0))}/"
                                  f"{values.size} runs negative; one-sided t = {test['t']:.2f}, "
                                  f"p = {test['p_claimed']:.2g} for a {claim['sign']} mean"),
                    "mean": float(values.mean()), "p_value": test["p_claimed"],
                })
        return rows


GENERIC_KINDS = {
    "below_bound": BelowBound,
    "better_at_horizon": BetterAtHorizon,
    "log_growth": LogGrowth,
    "sign_at_horizon": SignAtHorizon,
    "wins_in_settings": WinsInSettings,
}


def evaluate_claims(paper: dict, ctx: ClaimContext, kinds: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Evaluate every claim of ``paper``: (one row per claim, one row per sub-check)."""
    summary, details = [], []
    for claim in paper["claims"]:
        rows = kinds[claim["kind"]].evaluate(claim, ctx)
        for row in rows:
            details.append({"claim": claim["id"], **row})
        verdict = combine([r["verdict"] for r in rows])
        summary.append({
            "claim": claim["id"], "where": claim["where"], "text": claim["text"],
            "kind": claim["kind"], "verdict": verdict,
            "evidence": " | ".join(f"{r['scope']}: {r['verdict']} — {r['statistic']}" for r in rows),
        })
    return pd.DataFrame(summary), pd.DataFrame(details)
