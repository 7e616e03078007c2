"""Claim kinds of "Continuous Time Bandits With Sampling Costs" beyond the generic ones
(core/claims.py); spec §7.

  oracle_exact     (exact) Props. 1–2 and Remark 3 for each experiment: the oracle's payoff at T
                   equals the best μ1 N − N²/T' over every integer N (brute force), equals
                   μ1²T'/4 when μ1T'/2 is an integer, and is the same at (cλ, cT) for c = 0.1, 10.
  exact_sign       (exact) a deterministic policy's (oracle, baseline) metric at T is negative or
                   positive, for each experiment.
  close_to_oracle  (statistical) the learner's mean payoff at T is at least ``share`` × the
                   oracle's: one-sided t-test over runs, for each experiment.
  regret_slope     (statistical) the least-squares slope of log(mean regret at T) on log μ across
                   ``experiments`` (one arm each) lies in [``low``, ``high``]: a bootstrap over the
                   runs of each experiment gives its 95% interval; inconclusive where it straddles
                   a limit or a mean regret is ≤ 0.
  regret_grows     (statistical) the learner's regret at T increases along ``experiments``: a
                   one-sided Welch test between consecutive experiments (independent runs).
  spread_larger    (statistical) the run-to-run sd of the learner's payoff at T is larger in
                   ``larger`` than in each of ``smaller`` (wider confidence bands): a bootstrap
                   over the (independent) runs of the log sd ratio.
  scaled_flat      (statistical) a quantity divided by its theoretical order is roughly the same
                   in every experiment: the ratio of the largest to the smallest mean across
                   ``experiments`` is at most ``max_spread``, judged on a bootstrap 95% interval
                   over the runs. ``quantity``: ``regret`` (at T, × μ/(ln T')²: Theorem 5's
                   O((ln T')²/μ) at a fixed T'^ε, spec §7.8) or ``identification_time`` (t_Id ×
                   μ1Δ²/(K ln T'²): Lemma 25's order, on the runs whose LUCB1 finished).
  run_frequency    (statistical) a per-run event holds with probability ≥ ``level`` (exact
                   binomial test, core.claims.fraction_test), for each experiment. Events:
                   ``lemma13`` i* ≤ ⌈p*/ε⌉ + 1 (a run that never stops fails it); ``lemma15``
                   |μ̂ − μ1| < μ1 when learning stops; ``lemma22`` (2/3)μ1 ≤ μ̂[1] ≤ 2μ1 when
                   estimation stops; ``identified`` LUCB1 returned arm 1 (judged on the runs
                   whose identification finished before T; the others are counted apart).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import ttest_ind

from timebandits.core.claims import (EXACT, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED,
                                     STATISTICAL, ClaimContext, check_run, fraction_test,
                                     paired_verdict, require_keys)
from timebandits.core.config import resolve_experiment
from timebandits.core.decidability import derived, linear, scale, spread, with_curves
from timebandits.core.seeding import check_seed
from timebandits.core.stats import paired_one_sided

from .model import equal_spacing_payoff, normalised_horizon, oracle
from .simulation import algorithm_params, learner_epsilon
from .theory import lemma13_i_star_bound

EVENTS = ("lemma13", "lemma15", "lemma22", "identified")


def _instance(ctx: ClaimContext, exp: str) -> tuple[np.ndarray, float, float]:
    """(means, λ, T') of an experiment, at the scale being built (a smoke build caps T)."""
    experiment = ctx.paper["experiments"][exp]
    if "scales" in ctx.config:
        experiment = resolve_experiment(ctx.paper, exp, ctx.config)
    lam = float(experiment["environment"]["lam"])
    return (np.asarray(experiment["environment"]["means"], dtype=float), lam,
            normalised_horizon(float(experiment["horizon"]), lam))


def _oracle_payoff(ctx: ClaimContext, exp: str) -> float:
    means, _, horizon = _instance(ctx, exp)
    return oracle(means.max(), horizon).payoff


SIDES = (("favourable", True), ("unfavourable", False))


def _with_finals(ctx: ClaimContext, algorithm: str, metric: str, levels: dict, of=None):
    """A decidability witness (core/decidability.py) in which ``metric`` of ``algorithm`` in each
    experiment of ``levels`` is level × (1 ± a small spread over runs) at every checkpoint,
    passed through ``of(experiment, values)`` (e.g. regret → payoff). Other traces are real."""
    def trace_of(experiment: str, name: str) -> pd.DataFrame:
        trace = ctx.trace(experiment, name)
        if name != algorithm or experiment not in levels:
            return trace
        trace = trace.copy()
        reps = np.sort(trace["repetition"].unique())
        values = levels[experiment] * pd.Series(spread(reps.size), index=reps).loc[
            trace["repetition"]].to_numpy()
        trace[metric] = values if of is None else of(experiment, values)
        return trace
    return derived(ctx, trace_of=trace_of)


def _with_regrets(ctx: ClaimContext, algorithm: str, regrets: dict) -> ClaimContext:
    """A witness in which the learner's regret at T in each experiment is the given level (with
    the small spread over runs): payoff = P* − regret."""
    return _with_finals(ctx, algorithm, "payoff", regrets,
                        of=lambda e, r: _oracle_payoff(ctx, e) - r)


def _regret_scale(ctx: ClaimContext, experiments, algorithm: str) -> float:
    """A positive size for witness regrets: the largest |mean regret at T| over the claim's
    experiments, or 1 where every one is 0 or undefined."""
    sizes = [abs(float(np.mean(_regrets(ctx, e, algorithm)))) for e in experiments]
    sizes = [x for x in sizes if math.isfinite(x) and x > 0]
    return max(sizes) if sizes else 1.0


class OracleExact:
    """Decides on the oracle's simulated payoff, routed through ``ctx.quantity`` so that the
    witnesses can put it on the brute-force optimum (favourable) or off it (unfavourable)."""

    evidence = EXACT

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments")
        check_run(claim, paper, claim["experiments"], ["oracle"])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            means, lam, horizon = _instance(ctx, exp)
            mu = means.max()
            simulated = float(ctx.quantity(f"oracle_payoff:{exp}",
                                           lambda: float(ctx.final(exp, "oracle", "payoff")[0])))
            brute = _brute_force(ctx, exp)
            scaled = [oracle(mu, normalised_horizon(c * horizon * lam, c * lam)).payoff
                      for c in (0.1, 10.0)]
            closed = mu * mu * horizon / 4 if (mu * horizon / 2).is_integer() else None
            checks = [math.isclose(simulated, brute, rel_tol=1e-12, abs_tol=1e-9),
                      all(math.isclose(s, simulated, rel_tol=1e-12) for s in scaled),
                      closed is None or math.isclose(simulated, closed, rel_tol=1e-12)]
            rows.append({
                "scope": exp, "verdict": (REPRODUCED if all(checks) else NOT_REPRODUCED)
                if math.isfinite(simulated) else INCONCLUSIVE,
                "headline": f"P* = {simulated:.6g} (brute force {brute:.6g}"
                            + (f", μ1²T'/4 = {closed:.6g}" if closed is not None else "") + ")",
                "statistic": (f"oracle payoff at T' = {horizon:g}: simulated {simulated!r}, best "
                              f"over integer N {brute!r}, at (0.1λ, 0.1T) and (10λ, 10T) {scaled}"
                              + (f", closed form {closed!r}" if closed is not None else
                                 " (μ1T'/2 not an integer: floor or ceil, footnote 3)")),
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The simulated payoff equal to the best over integer N, or 10⁻⁶ of it (and at least
        10⁻⁹) above it."""
        return {"favourable": derived(ctx, overrides={
                    f"oracle_payoff:{e}": (lambda v, b=_brute_force(ctx, e): b)
                    for e in claim["experiments"]}),
                "unfavourable": derived(ctx, overrides={
                    f"oracle_payoff:{e}": (lambda v: v + max(abs(v) * 1e-6, 1e-9))
                    for e in claim["experiments"]})}


def _brute_force(ctx: ClaimContext, exp: str) -> float:
    """The best payoff μ1 N − N²/T' over every integer N (Prop. 1, eq. 2)."""
    means, _, horizon = _instance(ctx, exp)
    return float(equal_spacing_payoff(means.max(), np.arange(int(horizon) + 2), horizon).max())


class ExactSign:
    evidence = EXACT

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "metric", "sign")
        if claim["sign"] not in ("negative", "positive"):
            raise ValueError(f"sign must be 'negative' or 'positive', got {claim['sign']!r}")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"]])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            value = float(ctx.quantity(f"value:{exp}", lambda: _deterministic(claim, ctx, exp)))
            holds = value < 0 if claim["sign"] == "negative" else value > 0
            _, _, horizon = _instance(ctx, exp)
            verdict = (REPRODUCED if holds else NOT_REPRODUCED) if math.isfinite(value) else INCONCLUSIVE
            rows.append({"scope": exp, "verdict": verdict,
                         "headline": f"{claim['metric']} at T = {value:.6g} ({value / horizon:.6g} T/λ)",
                         "statistic": f"{ctx.label(claim['algorithm'])}: {claim['metric']} at T "
                                      f"= {value!r}, i.e. {value / horizon!r} in units of T/λ"})
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The metric on the claimed side of 0 (its own size, at least 1), or on the other."""
        sign = -1.0 if claim["sign"] == "negative" else 1.0
        return {side: derived(ctx, overrides={
                    f"value:{e}": (lambda v, k=sign * (1 if good else -1): k * max(abs(v), 1.0))
                    for e in claim["experiments"]})
                for side, good in SIDES}


def _deterministic(claim: dict, ctx: ClaimContext, exp: str) -> float:
    values = ctx.final(exp, claim["algorithm"], claim["metric"])
    if np.isnan(values).all():
        return math.nan
    if np.ptp(values) != 0:
        raise ValueError(f"{exp}: {claim['algorithm']} is not deterministic")
    return float(values[0])


class CloseToOracle:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "share")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"], "oracle"])
        if not 0 < float(claim["share"]) <= 1:
            raise ValueError(f"share must lie in (0, 1], got {claim['share']!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        share = float(claim["share"])
        for exp in claim["experiments"]:
            payoff = ctx.final(exp, claim["algorithm"], "payoff")
            target = share * _oracle_payoff(ctx, exp)
            test = paired_one_sided(np.full_like(payoff, target), payoff)
            ratio = payoff.mean() / _oracle_payoff(ctx, exp)
            rows.append({
                "scope": exp, "verdict": paired_verdict(test, ctx.alpha),
                "headline": f"payoff = {ratio:.3g} × the oracle's (needs ≥ {share:g}), "
                            f"p = {test['p_claimed']:.2g}",
                "statistic": (f"mean payoff at T {payoff.mean():.6g} ± {payoff.std(ddof=1) / math.sqrt(payoff.size):.2g} "
                              f"against {share:g} × P* = {target:.6g}; one-sided t-test p = "
                              f"{test['p_claimed']:.2g} (opposite {test['p_opposite']:.2g})"),
                "ratio": ratio, "p_claimed": test["p_claimed"], "p_opposite": test["p_opposite"],
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every run at the oracle's payoff P* (the most a learner can earn; ± a small spread),
        or at −P*. A share of 1 can then never be shown."""
        return {side: _with_finals(ctx, claim["algorithm"], "payoff",
                                   {e: (1.0 if good else -1.0) * _oracle_payoff(ctx, e)
                                    for e in claim["experiments"]})
                for side, good in SIDES}


def _regrets(ctx: ClaimContext, exp: str, algorithm: str) -> np.ndarray:
    return _oracle_payoff(ctx, exp) - ctx.final(exp, algorithm, "payoff")


def _resampled_means(claim: dict, ctx: ClaimContext, samples: list[np.ndarray]) -> list[np.ndarray]:
    """Bootstrap over the runs of each experiment (independent): for each of the config's
    ``bootstrap_samples`` resamples, the vector of means, kept when every mean is > 0 (the
    statistics built on it take logs or ratios)."""
    rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "continuous", claim["id"]))
    kept = []
    for _ in range(int(ctx.config["claims"]["bootstrap_samples"])):
        means = np.array([x[rng.integers(0, x.size, x.size)].mean() for x in samples])
        if (means > 0).all():
            kept.append(means)
    return kept


class RegretSlope:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "low", "high")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"], "oracle"])
        if len(claim["experiments"]) < 2 or not float(claim["low"]) < float(claim["high"]):
            raise ValueError("regret_slope needs at least 2 experiments and low < high")
        if not math.isfinite(float(claim["high"])):
            raise ValueError("regret_slope needs a finite high (low may be -.inf)")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        mus = np.array([_instance(ctx, e)[0].max() for e in claim["experiments"]])
        regrets = [_regrets(ctx, e, claim["algorithm"]) for e in claim["experiments"]]
        means = np.array([r.mean() for r in regrets])
        low, high = float(claim["low"]), float(claim["high"])
        if (means <= 0).any():
            return [{"scope": "all μ", "verdict": INCONCLUSIVE,
                     "headline": "a mean regret ≤ 0: no log-log slope",
                     "statistic": f"mean regrets {means.tolist()} at μ = {mus.tolist()}"}]
        slopes = [np.polyfit(np.log(mus), np.log(means), 1)[0]
                  for means in _resampled_means(claim, ctx, regrets)]
        slope = float(np.polyfit(np.log(mus), np.log(means), 1)[0])
        if not slopes:
            return [{"scope": "all μ", "verdict": INCONCLUSIVE,
                     "headline": "no resample with every mean regret > 0",
                     "statistic": f"mean regrets {means.tolist()} at μ = {mus.tolist()}"}]
        ci_low, ci_high = np.quantile(slopes, [0.025, 0.975])
        verdict = (REPRODUCED if low <= ci_low and ci_high <= high
                   else NOT_REPRODUCED if ci_high < low or ci_low > high else INCONCLUSIVE)
        needs = f"< {high:g}" if low == -math.inf else f"{low:g} to {high:g}"
        return [{"scope": "all μ", "verdict": verdict,
                 "headline": f"slope {slope:.3g} (95% CI {ci_low:.3g} to {ci_high:.3g}; needs "
                             f"{needs})",
                 "statistic": (f"least-squares slope of log mean regret on log μ over μ = "
                               f"{mus.tolist()}: {slope:.4g}; bootstrap over runs "
                               f"({len(slopes)} resamples with every mean > 0): 95% CI "
                               f"{ci_low:.4g} to {ci_high:.4g}; mean regrets {np.round(means, 4).tolist()}")}]

    @staticmethod
    def witnesses(claim, ctx):
        """Mean regrets exactly ∝ μ^s: s in the middle of [low, high] (high − 1 for an open low
        end), or s outside it by the band's width (at least 1)."""
        low, high = float(claim["low"]), float(claim["high"])
        inside = (low + high) / 2 if math.isfinite(low) else high - 1.0
        outside = high + (high - low if math.isfinite(low) else 1.0)
        mus = {e: _instance(ctx, e)[0].max() for e in claim["experiments"]}
        size = _regret_scale(ctx, claim["experiments"], claim["algorithm"])
        top = max(mus.values())
        return {side: _with_regrets(ctx, claim["algorithm"],
                                    {e: size * (mu / top) ** (inside if good else outside)
                                     for e, mu in mus.items()})
                for side, good in SIDES}


class RegretGrows:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"], "oracle"])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        exps = claim["experiments"]
        for first, second in zip(exps, exps[1:]):
            a, b = _regrets(ctx, first, claim["algorithm"]), _regrets(ctx, second, claim["algorithm"])
            p_claimed = float(ttest_ind(b, a, equal_var=False, alternative="greater").pvalue)
            p_opposite = float(ttest_ind(b, a, equal_var=False, alternative="less").pvalue)
            test = {"p_claimed": p_claimed, "p_opposite": p_opposite}
            rows.append({
                "scope": f"{first} → {second}", "verdict": paired_verdict(test, ctx.alpha),
                "headline": f"regret {a.mean():.4g} → {b.mean():.4g}, p = {p_claimed:.2g}",
                "statistic": (f"mean regret at T {a.mean():.6g} ± {a.std(ddof=1) / math.sqrt(a.size):.2g} "
                              f"then {b.mean():.6g} ± {b.std(ddof=1) / math.sqrt(b.size):.2g}; "
                              f"one-sided Welch p = {p_claimed:.2g} (opposite {p_opposite:.2g})"),
                **test,
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Regret tripling from each experiment to the next, or falling to a third."""
        size = _regret_scale(ctx, claim["experiments"], claim["algorithm"])
        return {side: _with_regrets(ctx, claim["algorithm"],
                                    {e: size * (3.0 if good else 1 / 3) ** j
                                     for j, e in enumerate(claim["experiments"])})
                for side, good in SIDES}


class SpreadLarger:
    """With ``relative: true`` the sd is divided by the oracle's payoff P* of its experiment:
    how wide the band looks on a panel whose axis spans 0 to P*."""

    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "larger", "smaller", "algorithm")
        check_run(claim, paper, [claim["larger"], *claim["smaller"]], [claim["algorithm"]])
        if not isinstance(claim.get("relative", False), bool):
            raise ValueError(f"relative must be true or false, got {claim['relative']!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "continuous", claim["id"]))
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        relative = claim.get("relative", False)

        def payoffs(exp):
            values = ctx.final(exp, claim["algorithm"], "payoff")
            return values / _oracle_payoff(ctx, exp) if relative else values
        wide = payoffs(claim["larger"])
        rows = []
        what = "sd of the payoff at T / P*" if relative else "run-to-run sd of the payoff at T"
        for other in claim["smaller"]:
            narrow = payoffs(other)
            resampled_wide = wide[rng.integers(0, wide.size, (n_boot, wide.size))].std(axis=1, ddof=1)
            resampled_narrow = narrow[rng.integers(0, narrow.size, (n_boot, narrow.size))].std(axis=1, ddof=1)
            with np.errstate(divide="ignore", invalid="ignore"):
                log_ratio = np.log(resampled_wide) - np.log(resampled_narrow)
            # an undefined ratio (both sds 0, or fewer than 2 runs) supports neither side
            test = {"p_claimed": float(np.mean(~(log_ratio > 0))),
                    "p_opposite": float(np.mean(~(log_ratio < 0)))}
            sd_wide, sd_narrow = wide.std(ddof=1), narrow.std(ddof=1)
            rows.append({
                "scope": f"{claim['larger']} vs {other}", "verdict": paired_verdict(test, ctx.alpha),
                "headline": f"sd {sd_wide:.4g} against {sd_narrow:.4g}, p = {test['p_claimed']:.2g}",
                "statistic": (f"{what}: {sd_wide:.6g} ({claim['larger']}) "
                              f"against {sd_narrow:.6g} ({other}); bootstrap of the log ratio: "
                              f"p = {test['p_claimed']:.2g} (opposite {test['p_opposite']:.2g})"),
                **test,
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Payoffs with a 10 times wider spread over runs in ``larger`` than in each of
        ``smaller`` (relative to P* if the claim is), or 10 times narrower."""
        exps = [claim["larger"], *claim["smaller"]]
        if claim.get("relative", False):
            base = {e: _oracle_payoff(ctx, e) for e in exps}
        else:
            base = dict.fromkeys(exps, scale(ctx, exps, [claim["algorithm"]], "payoff"))
        return {side: with_curves(ctx, "payoff", {
                    (e, claim["algorithm"]): linear(base[e] * (10.0 if (e == claim["larger"]) == good
                                                              else 1.0)) for e in exps})
                for side, good in SIDES}


QUANTITIES = ("regret", "identification_time")


def _scaled_runs(claim: dict, ctx: ClaimContext, exp: str) -> tuple[np.ndarray, float, str]:
    """(per-run values, the scale that divides out their order, what they are)."""
    means, lam, horizon = _instance(ctx, exp)
    if claim["quantity"] == "regret":
        return (_regrets(ctx, exp, claim["algorithm"]), means.max() / math.log(horizon) ** 2,
                "regret at T × μ/(ln T')²")
    ordered = np.sort(means)[::-1]
    finished = ((ctx.final(exp, claim["algorithm"], "i_star") >= 1)
                & (ctx.final(exp, claim["algorithm"], "id_cut") == 0))
    t_id = ctx.final(exp, claim["algorithm"], "id_time")[finished] / lam
    scale = ordered[0] * (ordered[0] - ordered[1]) ** 2 / (means.size * math.log(horizon ** 2))
    return t_id, scale, "t_Id × μ1Δ²/(K ln T'²)"


class ScaledFlat:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "quantity", "max_spread")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"], "oracle"])
        if claim["quantity"] not in QUANTITIES:
            raise ValueError(f"quantity must be one of {QUANTITIES}, got {claim['quantity']!r}")
        if not float(claim["max_spread"]) > 1:
            raise ValueError(f"max_spread must be > 1, got {claim['max_spread']!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        runs = [_scaled_runs(claim, ctx, exp) for exp in claim["experiments"]]
        what = runs[0][2]
        limit = float(claim["max_spread"])
        empty = [e for e, (values, _, _) in zip(claim["experiments"], runs) if values.size == 0]
        if empty:
            return [{"scope": "all", "verdict": INCONCLUSIVE,
                     "headline": f"no run to judge in {', '.join(empty)}", "statistic": what}]
        scaled = np.array([values.mean() * scale for values, scale, _ in runs])
        if (scaled <= 0).any():
            return [{"scope": "all", "verdict": INCONCLUSIVE, "headline": "a mean ≤ 0",
                     "statistic": f"{what} = {scaled.tolist()}"}]
        spreads = [means.max() / means.min() for means in
                   _resampled_means(claim, ctx, [values * scale for values, scale, _ in runs])]
        low, high = np.quantile(spreads, [0.025, 0.975])
        spread = scaled.max() / scaled.min()
        verdict = REPRODUCED if high <= limit else NOT_REPRODUCED if low > limit else INCONCLUSIVE
        return [{"scope": "all", "verdict": verdict,
                 "headline": f"largest/smallest {what} = {spread:.3g} (95% CI {low:.3g}–"
                             f"{high:.3g}; needs ≤ {limit:g})",
                 "statistic": (f"{what} per experiment: "
                               + ", ".join(f"{e} {v:.4g}" for e, v in zip(claim["experiments"], scaled))
                               + f"; spread {spread:.4g}, bootstrap 95% CI {low:.4g} to {high:.4g}")}]

    @staticmethod
    def witnesses(claim, ctx):
        """The scaled quantity equal in every experiment, or 4 × ``max_spread`` larger in the
        first: the regret (payoff = P* − regret) or t_Id (judged on the runs that really
        finished) set to level / scale."""
        limit = float(claim["max_spread"])
        exps = claim["experiments"]
        scales = {e: _scaled_runs(claim, ctx, e)[1] for e in exps}
        size = _regret_scale(ctx, exps, claim["algorithm"]) if claim["quantity"] == "regret" else 1.0
        out = {}
        for side, good in SIDES:
            levels = {e: size / scales[e] * (1.0 if good or j else 4.0 * limit)
                      for j, e in enumerate(exps)}
            if claim["quantity"] == "regret":
                out[side] = _with_regrets(ctx, claim["algorithm"], levels)
            else:  # id_time is a raw time: t_Id × λ
                out[side] = _with_finals(ctx, claim["algorithm"], "id_time", levels,
                                         of=lambda e, v: v * _instance(ctx, e)[1])
        return out


def _event(claim: dict, ctx: ClaimContext, exp: str) -> tuple[np.ndarray, str]:
    """Per run: does the event hold (NaN: not judged), and what was judged."""
    algorithm = claim["algorithm"]
    means, _, horizon = _instance(ctx, exp)
    mu = means.max()
    event = claim["event"]
    if event == "lemma13":
        epsilon = learner_epsilon(algorithm_params(ctx.paper["algorithms"][algorithm]), horizon)
        bound = lemma13_i_star_bound(mu, horizon, epsilon)
        i_star = ctx.final(exp, algorithm, "i_star")
        return ((i_star >= 1) & (i_star <= bound)).astype(float), f"1 ≤ i* ≤ ⌈p*/ε⌉ + 1 = {bound}"
    if event == "identified":
        finished = (ctx.final(exp, algorithm, "i_star") >= 1) & (ctx.final(exp, algorithm, "id_cut") == 0)
        return (np.where(finished, ctx.final(exp, algorithm, "identified"), np.nan),
                "LUCB1 returns arm 1 (runs whose identification finished before T)")
    estimate = ctx.final(exp, algorithm, "stop_estimate")
    if event == "lemma15":
        return np.where(np.isnan(estimate), np.nan, np.abs(estimate - mu) < mu), "|μ̂ − μ| < μ"
    inside = (estimate >= 2 * mu / 3) & (estimate <= 2 * mu)
    return np.where(np.isnan(estimate), np.nan, inside), "(2/3)μ1 ≤ μ̂[1] ≤ 2μ1"


class RunFrequency:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "event", "level")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"]])
        if claim["event"] not in EVENTS:
            raise ValueError(f"event must be one of {EVENTS}, got {claim['event']!r}")
        if not 0 < float(claim["level"]) < 1:
            raise ValueError(f"level must lie in (0, 1), got {claim['level']!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        level = float(claim["level"])
        for exp in claim["experiments"]:
            holds, what = _event(claim, ctx, exp)
            holds = np.asarray(ctx.quantity(f"event:{exp}", lambda: holds), dtype=float)
            judged = holds[~np.isnan(holds)]
            successes, n = int(judged.sum()), int(judged.size)
            if n == 0:
                rows.append({"scope": exp, "verdict": INCONCLUSIVE,
                             "headline": "no run reached the event", "statistic": what})
                continue
            test = fraction_test(successes, n, level, ctx.alpha)
            rows.append({
                "scope": exp, "verdict": test["verdict"],
                "headline": f"{successes}/{n} runs with {what} (needs ≥ {level:.3g})",
                "statistic": (f"{what} in {successes} of {n} judged runs ({holds.size - n} not "
                              f"judged); exact binomial p = {test['p_claimed']:.2g} for a rate "
                              f"above {level:.3g}, {test['p_opposite']:.2g} for one below"),
                "p_claimed": test["p_claimed"], "p_opposite": test["p_opposite"],
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every configured run judged, the event in all of them, or in none. With n runs at
        level q, all n give p = qⁿ: "reproduced" needs qⁿ < α (59 runs at 0.95)."""
        return {side: derived(ctx, overrides={f"event:{e}": (lambda h, v=float(good): np.full(h.size, v))
                                              for e in claim["experiments"]})
                for side, good in SIDES}


CLAIM_KINDS = {"oracle_exact": OracleExact, "exact_sign": ExactSign,
               "close_to_oracle": CloseToOracle, "regret_slope": RegretSlope,
               "regret_grows": RegretGrows, "spread_larger": SpreadLarger,
               "scaled_flat": ScaledFlat,
               "run_frequency": RunFrequency}
