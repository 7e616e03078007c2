"""π_low's claim kinds of "Stochastic Bandits with Delay-Dependent Payoffs" judged on runs
(Algorithm 1, Sect. 6): it stops exploring (stops_exploring), Theorem 3's regret bound (theorem3)
and its switch bound kS (switch_bound). Each ``evaluate`` returns sub-check rows with the numbers;
each ``witnesses`` replaces what the claim reads in the runs by the most favourable and the most
unfavourable values the setting allows (core/verdicts/decidability.py)."""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, fraction_test, require_keys
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
    SUPPORTS,
)

from ..analysis import bounded_algorithms, run_instances
from ..simulation import algorithm_params
from ..theory import low_schedule, switch_bound, theorem3_bound_paper
from .witnesses import with_metrics


def _arms(ctx, experiment: str) -> int:
    return len(ctx.paper["experiments"][experiment]["environment"]["means"])


def ghost_curve(ctx, experiment: str, trace) -> np.ndarray:
    """G_t(π_ghost) at every row of ``trace``, exact from each run's instance (its delays come
    from the run's seed, so the config alone fixes it)."""
    problems = run_instances(ctx.paper, experiment, trace)
    out = np.empty(len(trace))
    for rep, rows in trace.groupby("repetition").indices.items():
        out[rows] = problems[rep].ghost_cumulative(trace["t"].to_numpy()[rows].astype(np.int64))
    return out


def last_stage(ctx, experiment: str, trace, algorithm: str) -> np.ndarray:
    """The last stage S of π_low's schedule at the experiment's horizon (Algorithm 1, |A_s| = k)
    at every row: its stages before S all completed, the most a run can have completed."""
    delta = float(algorithm_params(ctx.paper["algorithms"][algorithm])["delta"])
    schedule = low_schedule(int(trace["t"].max()), _arms(ctx, experiment), delta)
    return np.full(len(trace), len(schedule))


def _check_low_experiments(claim: dict, paper: dict) -> None:
    require_keys(claim, "experiments", "algorithm")
    for exp in claim["experiments"]:
        if exp not in paper["experiments"]:
            raise ValueError(f"unknown experiment {exp!r}")
        if claim["algorithm"] not in bounded_algorithms(paper, exp):
            raise ValueError(f"experiment {exp!r} does not run {claim['algorithm']!r} as pi_low")


def _fraction(flags) -> str:
    flags = np.asarray(flags, dtype=bool)
    return f"{int(flags.sum())}/{flags.size}"


def _delta(ctx, algorithm: str) -> float:
    """π_low's confidence δ (Algorithm 1)."""
    return float(algorithm_params(ctx.paper["algorithms"][algorithm])["delta"])


class LowPolicyKind:
    """What π_low's kinds share: the claim names experiments that run ``algorithm`` as π_low,
    and ``judge`` gives each experiment's sub-check rows, in the order of the claim."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithm")
    optional = ()
    check = staticmethod(_check_low_experiments)

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        alg = claim["algorithm"]
        return [row for exp in claim["experiments"] for row in cls.judge(ctx, exp, alg)]


class StopsExploring(LowPolicyKind):
    """π_low ends with a single active policy (|A_s| = 1) before T, judged on the runs whose gap
    the horizon allows it for: π_low drops m when ĝ_s(m) < max ĝ_s − 2C_s, so on event (5)
    (every estimate within C_s) a run whose best gap Δ exceeds 4·C_s of its last completed stage
    must have eliminated every other policy. Those runs must end with |A_s| = 1 with probability
    ≥ 1 − δ (exact binomial test); runs with Δ ≤ 4·C_s are counted, not judged. The last
    completed stage is taken as the one before the stage that contains T, so a stage ending
    exactly at T is not counted: the wider C_s of the stage before can only judge fewer runs."""

    @staticmethod
    def judge(ctx: ClaimContext, exp: str, alg: str) -> list[dict]:
        delta = _delta(ctx, alg)
        k = _arms(ctx, exp)
        active = ctx.at(exp, alg, "n_active")
        horizon = int(active.index.max())
        completed = ctx.at(exp, alg, "stage").iloc[-1].to_numpy(dtype=int) - 1
        widths = low_schedule(horizon, k, delta)["C_s"].to_numpy()
        width = np.array([widths[s - 1] if s >= 1 else np.inf for s in completed])
        gaps = np.array(
            [
                p.best_gap()
                for _, p in sorted(run_instances(ctx.paper, exp, ctx.trace(exp, alg)).items())
            ]
        )
        allowed = gaps > 4 * width
        single = active.iloc[-1].to_numpy() == 1
        n_allowed, n_single = int(allowed.sum()), int((single & allowed).sum())
        counts = (
            f"{_fraction(single)} runs end with |A_s| = 1 at T = {horizon:g}; the gap "
            f"exceeds 4·C_s of the last completed stage in {n_allowed} runs, of which "
            f"{n_single} end with one policy"
        )
        if n_allowed == 0:
            return [
                {
                    "scope": exp,
                    "verdict": INCONCLUSIVE,
                    "headline": "no run's gap exceeds 4·C_s at this horizon",
                    "statistic": f"{counts}: the horizon guarantees elimination in no run",
                }
            ]
        test = fraction_test(n_single, n_allowed, 1 - delta, ctx.alpha)
        return [
            {
                "scope": exp,
                "verdict": test["verdict"],
                "headline": f"{n_single}/{n_allowed} runs whose gap allows it end with one policy "
                f"(needs ≥ {1 - delta:.0%})",
                "statistic": f"{counts}; binomial p = {test['p_claimed']:.2g} against "
                f"{1 - delta:.0%}",
                "p_claimed": test["p_claimed"],
                "p_opposite": test["p_opposite"],
            }
        ]

    @staticmethod
    def witnesses(claim, ctx):
        """Every run ends with one active policy, or with all k, after completing every stage
        but the last (the most runs the horizon can judge: those whose real gap exceeds 4·C_s of
        stage S − 1). A horizon that judges no run, or too few for a frequency ≥ 1 − δ at α,
        leaves the claim undecidable."""
        stage = lambda e, t: last_stage(ctx, e, t, claim["algorithm"])  # noqa: E731
        return {
            "favourable": with_metrics(
                ctx, claim, {"stage": stage, "n_active": lambda e, t: np.ones(len(t))}
            ),
            "unfavourable": with_metrics(
                ctx,
                claim,
                {"stage": stage, "n_active": lambda e, t: np.full(len(t), _arms(ctx, e))},
            ),
        }


class Theorem3(LowPolicyKind):
    """Theorem 3 per experiment, with δ = π_low's: R(T) without switching cost ≤ the proof's
    explicit bound with probability ≥ 1 − δ (exact binomial test on the runs). Where the bound is
    not below the trivial bound G_T(π_ghost) (the learner earns ≥ 0) it is vacuous and the row
    inconclusive. Supporting rows: the bound at every t, event (5) (every estimate within C_s)
    and r* ∈ A_s (the proof's good event), each in ≥ 1 − δ of the runs."""

    @staticmethod
    def judge(ctx: ClaimContext, exp: str, alg: str) -> list[dict]:
        rows = []
        delta = _delta(ctx, alg)
        k = _arms(ctx, exp)
        ghost = ctx.at(exp, alg, "ghost")
        regret = ghost - ctx.at(exp, alg, "expected")
        horizon = int(regret.index.max())
        bound = theorem3_bound_paper(horizon, k, delta)
        trivial = float(ghost.iloc[-1].mean())
        at_T = regret.iloc[-1].to_numpy() <= bound
        n = at_T.size
        numbers = (
            f"T = {horizon:g}: bound {bound:.4g} vs trivial G_T(ghost) {trivial:.4g}; "
            f"mean R(T) {regret.iloc[-1].mean():.4g}, max {regret.iloc[-1].max():.4g}; "
            f"runs within the bound at T {_fraction(at_T)}"
        )
        if bound >= trivial:
            # Fixed by the config (T, k, δ), not by the runs: shown, never deciding.
            rows.append(
                {
                    "scope": exp,
                    "verdict": INCONCLUSIVE,
                    "role": SUPPORTS,
                    "headline": f"bound {bound:.3g} vacuous (≥ G_T(ghost) = {trivial:.3g})",
                    "statistic": f"{numbers}; the bound is vacuous at this horizon, so "
                    f"no run can support or refute it: not deciding",
                }
            )
        else:
            test = fraction_test(int(at_T.sum()), n, 1 - delta, ctx.alpha)
            rows.append(
                {
                    "scope": exp,
                    "verdict": test["verdict"],
                    "headline": f"{_fraction(at_T)} runs within the bound at T (needs ≥ "
                    f"{1 - delta:.0%})",
                    "statistic": f"{numbers}; binomial p = {test['p_claimed']:.2g}",
                    "p_claimed": test["p_claimed"],
                    "p_opposite": test["p_opposite"],
                    "max_ratio": float(regret.max(axis=0).max() / bound),
                }
            )
        for scope, flags in (
            ("bound at every t", regret.max(axis=0).to_numpy() <= bound),
            ("event (5)", ctx.at(exp, alg, "hoeffding_ok").iloc[-1].to_numpy() == 1),
            (
                "r* never eliminated",
                ctx.at(exp, alg, "optimum_active").min(axis=0).to_numpy() == 1,
            ),
        ):
            test = fraction_test(int(flags.sum()), n, 1 - delta, ctx.alpha)
            rows.append(
                {
                    "scope": f"{exp} {scope}",
                    "role": SUPPORTS,
                    "verdict": test["verdict"],
                    "headline": f"{_fraction(flags)} runs",
                    "statistic": f"{scope} in {_fraction(flags)} runs; binomial p = "
                    f"{test['p_claimed']:.2g} against {1 - delta:.0%}",
                    "p_claimed": test["p_claimed"],
                    "p_opposite": test["p_opposite"],
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """π_low earning what π_ghost earns in every run (regret 0), or nothing (regret G_t(ghost),
        the largest the regret can be: the learner earns ≥ 0); G_t(ghost) exact from each run's
        instance, and the proof's events (supporting rows) holding in every run, or in none."""

        def side(good: bool):
            flag = lambda e, t: np.full(len(t), 1.0 if good else 0.0)  # noqa: E731
            return with_metrics(
                ctx,
                claim,
                {
                    "ghost": lambda e, t: ghost_curve(ctx, e, t),
                    "expected": (lambda e, t: t["ghost"].to_numpy()) if good else flag,
                    "hoeffding_ok": flag,
                    "optimum_active": flag,
                },
            )

        return {"favourable": side(True), "unfavourable": side(False)}


class SwitchBound(LowPolicyKind):
    """π_low's switches ≤ k·S in every run: a deterministic property of Algorithm 1, so a single
    run above kS refutes it and no run is spared by chance."""

    @staticmethod
    def judge(ctx: ClaimContext, exp: str, alg: str) -> list[dict]:
        k = _arms(ctx, exp)
        switches = ctx.at(exp, alg, "switches").iloc[-1].to_numpy()
        horizon = int(ctx.at(exp, alg, "switches").index.max())
        allowed = switch_bound(horizon, k)
        within = switches <= allowed
        return [
            {
                "scope": exp,
                "verdict": REPRODUCED if within.all() else NOT_REPRODUCED,
                "headline": f"max switches {switches.max():g} ≤ kS = {allowed} in "
                f"{_fraction(within)} runs",
                "statistic": (
                    f"T = {horizon:g}: switches mean {switches.mean():.3g}, max "
                    f"{switches.max():g} ≤ kS = {allowed} in {_fraction(within)} runs"
                ),
            }
        ]

    @staticmethod
    def witnesses(claim, ctx):
        """No switch in any run, or a switch at every pull after the first (t − 1 by time t)."""
        return {
            "favourable": with_metrics(ctx, claim, {"switches": lambda e, t: np.zeros(len(t))}),
            "unfavourable": with_metrics(
                ctx, claim, {"switches": lambda e, t: t["t"].to_numpy(dtype=float) - 1}
            ),
        }
