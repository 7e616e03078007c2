"""Claims as checks over the traces, each ending in a verdict with its numbers
(DESIGN.md, "Claims and bounds").

A claim kind has ``evidence`` (what decides its claims: a statistical test over runs, an exact
computation, or nothing: not checkable), ``check(claim, paper)`` (raises ValueError on a
malformed claim, run when the workflow loads) and ``evaluate(claim, context) -> list of
sub-check rows``. A sub-check row is a dict with at least ``scope`` (e.g. the experiment),
``verdict``, ``headline`` (the number that decides it, one short line) and ``statistic`` (every
number); optionally ``evidence`` and ``role``. A row's ``role`` is ``decides`` (the default) or
``supports``: only deciding rows make the claim's verdict, and they must all carry the kind's
evidence, so a claim judged by a test is never decided by a sub-check whose outcome follows from
the config alone (that becomes a supporting row or a claim of its own). Statistical rows carry
``p_claimed`` and ``p_opposite`` where they come from a p-value; :func:`combine` uses them for
multiplicity.

Generic kinds:
  better_at_horizon  paired one-sided t-test, at the horizon, that metric(worse) > ρ·metric(better)
                     for every (experiment, better, worse); ρ = ``min_ratio`` (1 unless the paper
                     says "much better"); common random numbers make the pairs. With
                     ``direction: higher`` (a reward, not a regret) the claim is
                     metric(better) > ρ·metric(worse).
  close_at_horizon   paired equivalence test (TOST), at the horizon, that the two algorithms of
                     ``pair`` differ by less than ``tolerance`` × their mean metric.
  log_growth         the metric's growth exponent over the window [max(T/100, regime start), T],
                     as a ratio per decade: ≈1 for logarithmic growth, 10^p for t^p; bootstrap CI.
                     Inconclusive when the window does not reach the claim's regime or is flat.
  wins_in_settings   the algorithm beats every rival (paired test) in at least ``min_settings``
                     experiments.
  below_bound        the mean empirical curve stays below the paper's bound at every checkpoint
                     where the bound is informative (core/bounds.py).
  sign_at_horizon    one-sided t-test, at the horizon, that the metric's mean is negative (or
                     positive) for every (experiment, algorithm).
  not_checkable      a claim no computation can decide (e.g. NP-hardness), with its reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd
from scipy.stats import binom

from .bounds import bound_verdict, informative_from
from .decidability import bound_witness, decide, linear, power, scale, with_curves
from .stats import bootstrap_ci, equivalence_test, paired_one_sided

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_CHECKABLE = "not checkable"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_CHECKABLE)

# The kind of evidence that decides a claim (or a sub-check).
STATISTICAL = "statistical test"
EXACT = "exact computation"
EVIDENCE = (STATISTICAL, EXACT, NOT_CHECKABLE)

# The role of a sub-check in its claim.
DECIDES = "decides"
SUPPORTS = "supports"

SUMMARY_COLUMNS = ["claim", "scope", "where", "text", "kind", "evidence", "verdict", "decided_by",
                   "can_reproduce", "can_refute", "decidability", "thresholds", "multiplicity"]

# The scope of a claim: the paper's claim at the paper's setting, our sensitivity runs and
# extra experiments, or a statement of the paper shown false ("not reproduced" confirms it).
PAPER, EXTENSION, ERRATUM = "paper", "extension", "erratum"
SCOPES = (PAPER, EXTENSION, ERRATUM)
DETAIL_COLUMNS = ["claim", "scope", "evidence", "role", "verdict", "headline", "statistic"]


def combine(rows: list[dict], evidence: str, alpha: float) -> tuple[str, str]:
    """The claim's verdict from its deciding rows, and how pooled tests were combined.

    Exact rows: *not reproduced* if any fails, *inconclusive* if any is, else *reproduced*.
    Statistical rows, m of them, for a claim that holds only if every one holds: *reproduced*
    only if every row is reproduced at level α (an intersection–union test, which needs no
    correction); *not reproduced* if some row's opposite p-value is below α/m (Bonferroni: a
    family-wise level α for "some sub-claim fails"; rows without a p-value, such as the bound
    checks, count with their own verdict); else *inconclusive*.
    """
    if evidence == NOT_CHECKABLE:
        return NOT_CHECKABLE, ""
    verdicts = [r["verdict"] for r in rows]
    if not verdicts:
        return INCONCLUSIVE, ""
    m = len(rows)
    if evidence == EXACT or m == 1:
        if NOT_REPRODUCED in verdicts:
            return NOT_REPRODUCED, ""
        return (INCONCLUSIVE if INCONCLUSIVE in verdicts else REPRODUCED), ""
    note = (f"{m} sub-tests: reproduced only if all {m} are at α = {alpha:g} (intersection–union "
            f"test, no correction needed); not reproduced if one is refuted at α/{m} = "
            f"{alpha / m:.2g} (Bonferroni)")
    refuted = [r for r in rows if r["verdict"] == NOT_REPRODUCED
               and _p_value(r, "p_opposite", 0.0) < alpha / m]
    if refuted:
        return NOT_REPRODUCED, note
    if all(v == REPRODUCED for v in verdicts):
        return REPRODUCED, note
    return INCONCLUSIVE, note


def _p_value(row: dict, key: str, missing: float) -> float:
    value = row.get(key)
    return missing if value is None or value != value else float(value)


def decided_by(rows: list[dict], verdict: str) -> str:
    """One short line: the deciding row that settles ``verdict``, with its scope and number. When
    every row agrees on *reproduced* it is the weakest (largest p-value); otherwise the strongest
    row of the verdict (smallest opposite p-value), or the first."""
    if not rows:
        return "no sub-check"
    agreeing = [r for r in rows if r["verdict"] == verdict] or rows
    if verdict == REPRODUCED:
        row = max(agreeing, key=lambda r: _p_value(r, "p_claimed", -1.0))
    else:
        row = min(agreeing, key=lambda r: _p_value(r, "p_opposite", 0.0))
    suffix = f" ({len(agreeing)} of {len(rows)} sub-checks {verdict})" if len(rows) > 1 else ""
    return f"{row['scope']}: {row['headline']}{suffix}"


def fraction_test(successes: int, n: int, level: float, alpha: float) -> dict:
    """Exact one-sided binomial tests that an event holds with probability ≥ ``level``:
    ``p_claimed`` = P(X ≥ successes | p = level) (small: the event is more frequent than level),
    ``p_opposite`` = P(X ≤ successes | p = level) (small: it is rarer). With ``verdict``."""
    p_claimed = float(binom.sf(successes - 1, n, level)) if n else math.nan
    p_opposite = float(binom.cdf(successes, n, level)) if n else math.nan
    return {"p_claimed": p_claimed, "p_opposite": p_opposite,
            "verdict": paired_verdict({"p_claimed": p_claimed, "p_opposite": p_opposite}, alpha)}


@dataclass
class ClaimContext:
    """What a claim may look at: the paper config, the workflow config and the traces."""

    paper: dict
    config: dict
    trace_of: Callable[[str, str], pd.DataFrame]  # (experiment, algorithm) -> its trace (core/workflow.trace_reader)
    bounds: pd.DataFrame | None = None  # the paper's bound table (core/bounds.py), if any
    _cache: dict = field(default_factory=dict)
    # A decidability witness's replacements of computed quantities (core/decidability.py):
    # key -> function of the real value.
    overrides: dict = field(default_factory=dict)

    def quantity(self, key: str, compute: Callable[[], object]):
        """A quantity an exact claim decides on, ``compute()``, unless a witness replaces it."""
        value = compute()
        return self.overrides[key](value) if key in self.overrides else value

    def trace(self, experiment: str, algorithm: str) -> pd.DataFrame:
        key = (experiment, algorithm)
        if key not in self._cache:
            self._cache[key] = self.trace_of(experiment, algorithm)
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


def check_run(claim: dict, paper: dict, experiments, algorithms) -> None:
    """Raise ValueError if an experiment is unknown or does not run one of the algorithms."""
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


def _se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(values.size)) if values.size > 1 else math.nan


def last_crossing(first: pd.Series, second: pd.Series) -> float | None:
    """The first checkpoint after the last change of sign of ``first − second`` (mean curves on
    the same checkpoints): from then on their order is the one at the horizon. None if they never
    cross."""
    sign = np.sign((first - second).to_numpy(dtype=float))
    changes = np.flatnonzero(sign[1:] * sign[:-1] < 0)
    return None if changes.size == 0 else float(first.index[changes[-1] + 1])


class BetterAtHorizon:
    """metric(better) < metric(worse) at T, paired over runs. With ``min_ratio`` ρ > 1 (a paper
    that says "much better" or "clearly"), the claim is metric(worse) > ρ·metric(better): the
    paired test is on worse − ρ·better, and the evidence shows the ratio of the means next to the
    p-value. ``direction: higher`` turns the order round for a metric to maximise (a reward):
    metric(better) > ρ·metric(worse). The statistic also records where the mean curves last
    cross."""

    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "metric", "better", "worse")
        check_run(claim, paper, claim["experiments"], claim["better"] + claim["worse"])
        if float(claim.get("min_ratio", 1.0)) < 1.0:
            raise ValueError(f"min_ratio must be >= 1, got {claim['min_ratio']!r}")
        if claim.get("direction", "lower") not in ("lower", "higher"):
            raise ValueError(f"direction must be 'lower' or 'higher', got {claim['direction']!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        ratio = float(claim.get("min_ratio", 1.0))
        metric = claim["metric"]
        higher = claim.get("direction", "lower") == "higher"
        side = "higher" if higher else "lower"
        for exp in claim["experiments"]:
            for better in claim["better"]:
                for worse in claim["worse"]:
                    ours, theirs = ctx.paired(exp, better, worse, metric)
                    # The claim is "high > ratio · low": who is low depends on the direction.
                    low, high = (theirs, ours) if higher else (ours, theirs)
                    test = paired_one_sided(ratio * low, high)
                    wins = int(np.sum(low < high))
                    crossing = last_crossing(ctx.at(exp, better, metric).mean(axis=1),
                                             ctx.at(exp, worse, metric).mean(axis=1))
                    means = (f"{ctx.label(worse)}/{ctx.label(better)} = "
                             f"{theirs.mean() / ours.mean():.3g}"
                             if ours.mean() > 0 and theirs.mean() > 0
                             else "ratio undefined (a mean ≤ 0)")
                    effect = (f"{means} (needs {'<' if higher else '>'} "
                              f"{1 / ratio if higher else ratio:g}); " if ratio > 1 else "")
                    rows.append({
                        "scope": f"{exp} {ctx.label(better)} vs {ctx.label(worse)}",
                        "verdict": paired_verdict(test, ctx.alpha),
                        "headline": f"{effect}p = {test['p_claimed']:.2g}"
                                    + ("" if ratio > 1 else f", {wins}/{low.size} runs {side}"),
                        "statistic": (f"{metric} at T: {ctx.label(better)} {ours.mean():.4g} ± "
                                      f"{_se(ours):.2g} vs {ctx.label(worse)} {theirs.mean():.4g} ± "
                                      f"{_se(theirs):.2g} (mean ± s.e.); {wins}/{low.size} runs "
                                      f"{side}; {effect}paired t = {test['t']:.2f}, "
                                      f"p = {test['p_claimed']:.2g}; mean curves "
                                      + (f"last cross at t = {crossing:.3g}" if crossing is not None
                                         else "never cross")),
                        "value_claimed_lower": float(low.mean()),
                        "value_claimed_higher": float(high.mean()),
                        "p_claimed": test["p_claimed"], "p_opposite": test["p_opposite"],
                        "last_crossing": crossing,
                    })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The claimed-higher side at 3ρ times the other (favourable), or the reverse."""
        ratio = float(claim.get("min_ratio", 1.0))
        higher = claim.get("direction", "lower") == "higher"
        low, high = (claim["worse"], claim["better"]) if higher else (claim["better"], claim["worse"])
        s = scale(ctx, claim["experiments"], low + high, claim["metric"])
        return {side: with_curves(ctx, claim["metric"],
                                  {**{a: linear(s * (1 if good else 3 * ratio)) for a in low},
                                   **{a: linear(s * (3 * ratio if good else 1)) for a in high}})
                for side, good in (("favourable", True), ("unfavourable", False))}


class CloseAtHorizon:
    """metric(first) ≈ metric(second) at T for the two algorithms of ``pair``: a paired
    equivalence test (TOST) that the mean of the per-run differences lies within ±``tolerance``
    × m, with m the mean of both algorithms' metric at T (taken as fixed). *Not reproduced* when
    the difference is shown to lie outside the margin."""

    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "metric", "pair", "tolerance")
        if not (isinstance(claim["pair"], list) and len(claim["pair"]) == 2):
            raise ValueError(f"pair must list two algorithms, got {claim['pair']!r}")
        check_run(claim, paper, claim["experiments"], claim["pair"])
        if not float(claim["tolerance"]) > 0:
            raise ValueError(f"tolerance must be > 0, got {claim['tolerance']!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        first, second = claim["pair"]
        tol, metric = float(claim["tolerance"]), claim["metric"]
        for exp in claim["experiments"]:
            a, b = ctx.paired(exp, first, second, metric)
            scale = abs(float(np.concatenate([a, b]).mean()))
            margin = tol * scale
            test = equivalence_test(a - b, 0.0, margin)
            relative = (a.mean() - b.mean()) / scale if scale > 0 else math.nan
            rows.append({
                "scope": f"{exp} {ctx.label(first)} vs {ctx.label(second)}",
                "verdict": paired_verdict(test, ctx.alpha),
                "headline": f"difference {relative:+.2%} of the mean (margin ±{tol:.0%}), "
                            f"p = {test['p_claimed']:.2g}",
                "statistic": (f"{metric} at T: {ctx.label(first)} {a.mean():.4g} ± {_se(a):.2g} "
                              f"vs {ctx.label(second)} {b.mean():.4g} ± {_se(b):.2g} (mean ± "
                              f"s.e.); paired difference {(a - b).mean():.4g} ± {_se(a - b):.2g}, "
                              f"margin ±{margin:.4g} ({tol:g} × {scale:.4g}); TOST p = "
                              f"{test['p_claimed']:.2g}, outside the margin p = "
                              f"{test['p_opposite']:.2g}"),
                **test,
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Both algorithms on one curve (favourable), or 4 × the tolerance apart."""
        first, second = claim["pair"]
        s = scale(ctx, claim["experiments"], claim["pair"], claim["metric"])
        apart = 1.0 + 4.0 * float(claim["tolerance"])
        return {"favourable": with_curves(ctx, claim["metric"], {first: linear(s), second: linear(s)}),
                "unfavourable": with_curves(ctx, claim["metric"],
                                            {first: linear(s), second: linear(s * apart)})}


def growth_increments(table: pd.DataFrame, start: float, horizon: float) -> tuple[np.ndarray, float]:
    """Per repetition, the metric's increase over the two geometric halves of [start, T],
    [√(start·T), T] and [start, √(start·T)], from a (t x repetition) table, using the
    checkpoints nearest to those times; and log10 of the half-window's span, T/√(start·T).
    For t^p growth the ratio of the increments is 10^(p·span); for logarithmic growth it is 1."""
    ts = table.index.to_numpy(dtype=float)
    middle = math.sqrt(start * horizon)
    pick = [ts[np.argmin(np.abs(ts - x))] for x in (horizon, middle, start)]
    m_T, m_mid, m_start = (table.loc[p].to_numpy(dtype=float) for p in pick)
    return np.column_stack([m_T - m_mid, m_mid - m_start]), math.log10(pick[0] / pick[1])


def _decade_ratio(span: float):
    """Mean last-half increase over mean first-half increase, as a ratio per decade of time.
    An earlier half with no increase leaves the ratio undefined (NaN)."""
    def statistic(increments: np.ndarray) -> float:
        last, previous = increments[:, 0].mean(), increments[:, 1].mean()
        if previous <= 0:
            return math.nan
        return float(max(last, 0.0) / previous) ** (1.0 / span)
    return statistic


def regime_start(claim: dict, ctx: "ClaimContext", experiment: str) -> tuple[float, str]:
    """Where the regime a growth claim is about begins, and why: ``regime: {bound: <name
    prefix>}`` is the first checkpoint from which the paper's bound for the claim's algorithm is
    informative (below the trivial bound) up to T, inf if it never is; ``regime: {from_t: t}``
    is a fixed time. No ``regime``: 0."""
    regime = claim.get("regime")
    if regime is None:
        return 0.0, ""
    if "from_t" in regime:
        return float(regime["from_t"]), f"regime from t = {float(regime['from_t']):.3g} (config)"
    rows = ctx.bounds[(ctx.bounds["experiment"] == experiment)
                      & (ctx.bounds["algorithm"] == claim["algorithm"])
                      & ctx.bounds["bound"].str.startswith(regime["bound"])]
    start = informative_from(rows)
    return start, f"{regime['bound']} bound informative from t = {start:.3g}"


class LogGrowth:
    """Growth no faster than logarithmic (and, with ``min_decade_ratio``, no slower): the ratio
    of the metric's increase over the later to the earlier half of the window, per decade of
    time, with a bootstrap CI over runs. The window is [max(T/100, regime start), T]; a window
    shorter than a decade, one that starts before the regime (``regime``, see
    :func:`regime_start`), or one whose earlier half does not grow gives *inconclusive*."""

    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "metric", "max_decade_ratio")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"]])
        regime = claim.get("regime")
        if regime is not None and not (isinstance(regime, dict) and len(regime) == 1
                                       and set(regime) <= {"bound", "from_t"}):
            raise ValueError(f"regime must be {{bound: <name>}} or {{from_t: <time>}}, got {regime!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        high_threshold = float(claim["max_decade_ratio"])
        low_threshold = float(claim.get("min_decade_ratio", 0.0))
        for exp in claim["experiments"]:
            table = ctx.at(exp, claim["algorithm"], claim["metric"])
            horizon = float(table.index.max())
            start, why = regime_start(claim, ctx, exp)
            window_start = max(horizon / 100, start)
            row = {"scope": exp, "window_start": window_start}
            if horizon / window_start < 10:
                reason = (f"regime not reached: {why}" if start >= horizon
                          else f"window [{window_start:.3g}, {horizon:.3g}] is under a decade ({why})")
                rows.append({**row, "verdict": INCONCLUSIVE, "headline": reason,
                             "statistic": f"{reason}; the growth rate is judged over at least a "
                                          f"decade of the regime the claim is about"})
                continue
            increments, span = growth_increments(table, window_start, horizon)
            statistic = _decade_ratio(span)
            window = f"over [{window_start:.3g}, {horizon:.3g}]" + (f" ({why})" if why else "")
            if not np.isfinite(statistic(increments)):
                rows.append({**row, "verdict": INCONCLUSIVE,
                             "headline": f"flat {window}: no growth to compare",
                             "statistic": (f"{claim['metric']} does not increase over the first "
                                           f"half of the window {window}: the growth rate is "
                                           f"undefined")})
                continue
            est, low, high = bootstrap_ci(increments, statistic,
                                          n_boot=int(ctx.config["claims"]["bootstrap_samples"]))
            if low_threshold <= low and high <= high_threshold:
                verdict = REPRODUCED
            elif low > high_threshold or high < low_threshold:
                verdict = NOT_REPRODUCED
            else:
                verdict = INCONCLUSIVE
            bounds_text = (f"{low_threshold:g}–{high_threshold:g}" if low_threshold > 0
                           else f"≤ {high_threshold:g}")
            rows.append({
                **row, "verdict": verdict,
                "headline": f"growth per decade {est:.3g} (CI {low:.3g}–{high:.3g}; needs {bounds_text})",
                "statistic": (f"{claim['metric']} growth {window}: later-half increase / "
                              f"earlier-half increase, per decade of time = {est:.3g} (95% "
                              f"bootstrap CI {low:.3g}–{high:.3g}); logarithmic growth gives 1, "
                              f"t^p gives 10^p; needs {bounds_text}"),
                "decade_ratio": est, "ci_low": low, "ci_high": high,
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Growth at the middle of the claimed range of decade ratios (logarithmic where it admits
        1), or at 4 × its upper end."""
        high = float(claim["max_decade_ratio"])
        low = float(claim.get("min_decade_ratio", 0.0))
        inside = 1.0 if low <= 1.0 <= high else math.sqrt(max(low, 1e-3) * high)
        s = scale(ctx, claim["experiments"], [claim["algorithm"]], claim["metric"])
        return {side: with_curves(ctx, claim["metric"], {claim["algorithm"]: power(s, ratio)})
                for side, ratio in (("favourable", inside), ("unfavourable", 4.0 * high))}


class WinsInSettings:
    """The algorithm beats every rival in at least ``min_settings`` of the experiments. A win is
    a paired t-test against every rival at level α/m in a setting (m settings; Bonferroni, as
    any ``min_settings`` of them may be the wins; α when every setting must be won); a loss is a
    rival better at α/(m·r) (r rivals: a loss in any setting against any rival counts). Not
    reproduced when the wins and the undecided settings together fall short."""

    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "against", "metric", "min_settings")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"], *claim["against"]])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        wins, losses = [], []
        m, need = len(claim["experiments"]), int(claim["min_settings"])
        win_level = ctx.alpha if need >= m else ctx.alpha / m
        loss_level = ctx.alpha / (m * len(claim["against"]))
        for exp in claim["experiments"]:
            tests = [paired_one_sided(*ctx.paired(exp, claim["algorithm"], rival, claim["metric"]))
                     for rival in claim["against"]]
            if all(t["p_claimed"] < win_level for t in tests):
                wins.append(exp)
            if any(t["p_opposite"] < loss_level for t in tests):
                losses.append(exp)
        undecided = m - len(wins) - len(losses)
        if len(wins) >= need:
            verdict = REPRODUCED
        elif len(wins) + undecided < need:
            verdict = NOT_REPRODUCED
        else:
            verdict = INCONCLUSIVE
        return [{
            "scope": ",".join(claim["experiments"]), "verdict": verdict,
            "headline": f"wins in {len(wins)}/{m} settings, needs {need}",
            "statistic": (f"{ctx.label(claim['algorithm'])} significantly better than every rival in "
                          f"{len(wins)}/{m} settings ({', '.join(wins) or 'none'}); "
                          f"worse than some rival in {', '.join(losses) or 'none'}; needs {need} "
                          f"(a win: paired t-tests against every rival at α = {win_level:.2g}; a "
                          f"loss: some rival better at {loss_level:.2g})"),
        }]

    @staticmethod
    def witnesses(claim, ctx):
        """The algorithm at a third of every rival in every setting, or at three times."""
        algs = [claim["algorithm"], *claim["against"]]
        s = scale(ctx, claim["experiments"], algs, claim["metric"])
        return {side: with_curves(ctx, claim["metric"],
                                  {a: linear(s * (1 if (a == claim["algorithm"]) == good else 3))
                                   for a in algs})
                for side, good in (("favourable", True), ("unfavourable", False))}


class BelowBound:
    """Every empirical curve of the bound table named by ``bounds`` (name prefixes) stays below
    its bound where the bound is informative; one sub-check per experiment and bound."""

    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "bounds")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"]])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        if ctx.bounds is None:
            raise ValueError(f"claim {claim['id']} needs the paper's bound table")
        rows = []
        table = ctx.bounds[ctx.bounds["algorithm"] == claim["algorithm"]]
        for exp in claim["experiments"]:
            for prefix in claim["bounds"]:
                sel = table[(table["experiment"] == exp) & table["bound"].str.startswith(prefix)]
                rows.append({"scope": f"{exp} {prefix}", **bound_verdict(sel)})
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every curve at 0, or at the trivial bound (the largest value its metric can take)."""
        from .decidability import derived
        return {side: derived(ctx, bounds=bound_witness(ctx.bounds, good))
                for side, good in (("favourable", True), ("unfavourable", False))}


class SignAtHorizon:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithms", "metric", "sign")
        if claim["sign"] not in ("negative", "positive"):
            raise ValueError(f"sign must be 'negative' or 'positive', got {claim['sign']!r}")
        check_run(claim, paper, claim["experiments"], claim["algorithms"])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            for alg in claim["algorithms"]:
                values = ctx.final(exp, alg, claim["metric"])
                zero = np.zeros_like(values)
                negative = claim["sign"] == "negative"
                test = paired_one_sided(values, zero) if negative else paired_one_sided(zero, values)
                rows.append({
                    "scope": f"{exp} {ctx.label(alg)}", "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"mean {values.mean():.3g} ± {_se(values):.2g}, p = {test['p_claimed']:.2g}",
                    "statistic": (f"{claim['metric']} at T of {ctx.label(alg)}: {values.mean():.4g} "
                                  f"± {_se(values):.2g} (mean ± s.e.), {int(np.sum(values < 0))}/"
                                  f"{values.size} runs negative; one-sided t = {test['t']:.2f}, "
                                  f"p = {test['p_claimed']:.2g} for a {claim['sign']} mean"),
                    "mean": float(values.mean()),
                    "p_claimed": test["p_claimed"], "p_opposite": test["p_opposite"],
                })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every curve on the claimed side of 0, or on the other."""
        s = scale(ctx, claim["experiments"], claim["algorithms"], claim["metric"])
        sign = -1.0 if claim["sign"] == "negative" else 1.0
        return {side: with_curves(ctx, claim["metric"],
                                  {a: linear(s * sign * (1 if good else -1)) for a in claim["algorithms"]})
                for side, good in (("favourable", True), ("unfavourable", False))}


class NotCheckable:
    """A claim that no simulation or computation here can decide; ``reason`` says why."""

    evidence = NOT_CHECKABLE

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "reason")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        return [{"scope": "reason", "verdict": NOT_CHECKABLE, "headline": claim["reason"],
                 "statistic": claim["reason"]}]

    @staticmethod
    def witnesses(claim, ctx):
        return {}


GENERIC_KINDS = {
    "below_bound": BelowBound,
    "better_at_horizon": BetterAtHorizon,
    "close_at_horizon": CloseAtHorizon,
    "log_growth": LogGrowth,
    "not_checkable": NotCheckable,
    "sign_at_horizon": SignAtHorizon,
    "wins_in_settings": WinsInSettings,
}


def claim_rows(kind, claim: dict, ctx: ClaimContext) -> list[dict]:
    """The claim's sub-check rows, each with its evidence and role (deciding or supporting).
    Raises ValueError if a deciding row carries other evidence than its kind (a kind must mark
    such a row as supporting)."""
    rows = [{"evidence": kind.evidence, "role": DECIDES, **row} for row in kind.evaluate(claim, ctx)]
    deciding = [r for r in rows if r["role"] == DECIDES]
    mixed = {r["evidence"] for r in deciding} - {kind.evidence}
    if mixed:
        raise ValueError(f"claim {claim['id']}: deciding rows with evidence {sorted(mixed)} in "
                         f"a claim decided by {kind.evidence!r}; mark them as supporting")
    return rows


def thresholds(claim: dict) -> str:
    """Every value of the claim with a provenance, with its source, e.g. "share = 0.9 (assumed)"."""
    shown = []
    for key, entry in (claim.get("provenance") or {}).items():
        value = claim.get(key)
        text = f"{key} = {value:g}" if isinstance(value, (int, float)) else key
        shown.append(f"{text} ({entry['source']})")
    return "; ".join(shown)


def evaluate_claims(paper: dict, ctx: ClaimContext, kinds: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Evaluate every claim of ``paper``: (one row per claim, one row per sub-check).

    The claim's evidence is its kind's; its verdict combines the deciding rows (:func:`combine`)
    and ``decided_by`` names the row that settles it. Whether the claim could reach each verdict
    as configured comes from its witnesses (core/decidability.py): a claim that could not have
    been refuted is *inconclusive*, never *reproduced*."""
    summary, details = [], []
    for claim in paper["claims"]:
        kind = kinds[claim["kind"]]
        rows = claim_rows(kind, claim, ctx)
        deciding = [r for r in rows if r["role"] == DECIDES]
        verdict, multiplicity = combine(deciding, kind.evidence, ctx.alpha)
        reason = decided_by(deciding, verdict)
        decidable = decide(claim, kind, ctx)
        if verdict == REPRODUCED and not decidable["can_refute"]:
            verdict, reason = INCONCLUSIVE, f"could not have been refuted as configured; {reason}"
        for row in rows:
            details.append({"claim": claim["id"], **row})
        summary.append({
            "claim": claim["id"], "scope": claim["scope"], "where": claim["where"],
            "text": claim["text"], "kind": claim["kind"], "evidence": kind.evidence,
            "verdict": verdict, "decided_by": reason, **decidable,
            "thresholds": thresholds(claim), "multiplicity": multiplicity,
        })
    details = pd.DataFrame(details)
    ordered = DETAIL_COLUMNS + [c for c in details.columns if c not in DETAIL_COLUMNS]
    return pd.DataFrame(summary, columns=SUMMARY_COLUMNS), details[ordered]
