"""The censoring share a claim of paper 001 compares (App. F.1, §5.1): the exact P(C > τ*) of
the optimal pair (the ground truth of the paper's tables) and the runs' share of censored
rounds, and a witness that sets the runs' share (core/verdicts/decidability.py)."""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.decidability import SPREAD, linear, with_curves

from .model import CensoredProblem


def problem_of(paper: dict, experiment: str) -> CensoredProblem:
    return CensoredProblem.from_config(paper["experiments"][experiment]["environment"])


def truth_of(paper: dict, experiment: str) -> float:
    """P(C > τ*) of the optimal pair (the mean over optimal pairs if several are tied)."""
    problem = problem_of(paper, experiment)
    return float(np.mean([problem.censor_prob[i, k] for i, k in problem.optimal_pairs]))


def censored_share(trace) -> np.ndarray:
    """Censored rounds / T per run, ordered by repetition (spec P10: every round counts, the
    initialisation included)."""
    last = trace[trace["t"] == trace["t"].max()].sort_values("repetition")
    return last["censored"].to_numpy(dtype=float) / float(trace["t"].max())


def with_shares(ctx, claim, share_of) -> object:
    """A witness whose censored proportion at T is ``share_of(truth)`` for every algorithm of
    every experiment (spread ±1% over runs), or None where ``share_of`` gives None."""
    levels = {}
    for exp in claim["experiments"]:
        share = share_of(truth_of(ctx.paper, exp))
        if share is None:
            return None
        for alg in claim["algorithms"]:
            horizon = float(ctx.trace(exp, alg)["t"].max())
            levels[(exp, alg)] = linear(share * horizon)
    return with_curves(ctx, "censored", levels)


# The largest share a witness can give every run: its spread must keep each run's share ≤ 1.
TOP_SHARE = 1.0 / (1.0 + SPREAD)
