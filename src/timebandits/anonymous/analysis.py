"""Analysis of the composite-anonymous traces against the paper's bounds: the bound table
(Theorem 1 for every ARS-UCB run, with and without its constant c*_f; Theorem 2 for every
ARS-EXP3 run), the table of Theorem 1's constants per instance, α and f (App. A), flagged where
they are undefined or astronomical, and the table of Theorem 2 at each label game's horizon."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from timebandits.core.sim.traces import checkpoint_table
from timebandits.core.verdicts.bounds import compare_to_bound

from .label_game_config import game_labels, is_label_game, label_games
from .model import problem_of
from .policies import LEMMA1_METRICS
from .simulation import ARS_EXP3, ARS_UCB, runs_of
from .theorem1 import log_term_coefficient, theorem1_constant
from .theory import ars_exp3_gamma, exp3_rounds, theorem2_bound
from .trivial import label_regret_max, pseudo_regret_max

# A constant c* above this many decimal digits is "astronomical": it exceeds every horizon a
# simulation could reach by more than the whole bound's log term.
ASTRONOMICAL_LOG10 = 12.0


def _constant(problem, params: dict):
    size = params["round_size"]
    return theorem1_constant(
        problem.means,
        float(params["alpha"]),
        problem.d1(),
        problem.d2(),
        size["kind"],
        size.get("c", 1),
        size.get("beta", 1),
    )


def _theorem2_rows(paper: dict, exp_id: str, trace_of) -> list[pd.DataFrame]:
    """Every ARS-EXP3 curve of a label game against Theorem 2 at each checkpoint t (the bound
    for a run of horizon t; the run itself is tuned to its horizon T, so the rows at t = T are
    the theorem's statement and earlier ones its bound had the game stopped there). Trivial
    bound: max_i G_i(t), the largest regret any learner can have (trivial.label_regret_max)."""
    exp = paper["experiments"][exp_id]
    environment = exp["environment"]
    stream, labels = game_labels(environment, int(exp["horizon"]))
    frames = []
    for algorithm, _, params in runs_of(paper, exp, ARS_EXP3):
        regret = checkpoint_table(trace_of(exp_id, algorithm), "regret")
        t = regret.index.to_numpy(dtype=float)
        bound = theorem2_bound(t, stream.n_arms, environment["delays"]["d"], float(params["beta"]))
        trivial = label_regret_max(labels, stream.n_arms, regret.index.to_numpy())
        frames.append(
            compare_to_bound(
                regret,
                bound,
                trivial,
                experiment=exp_id,
                algorithm=algorithm,
                bound_name=f"theorem2_{algorithm}",
                metric="regret",
            )
        )
    return frames


def bound_table(paper: dict, trace_of) -> pd.DataFrame:
    """Every ARS-UCB curve of every experiment against Theorem 1: bound ``logterm_<algorithm>``
    = 8α (Σ_{i≥2} 1/Δ_i) ln t alone (what is left at α = 4, where c* is undefined), and bound
    ``theorem1_<algorithm>`` = the log term + c*_f (+inf where c* is undefined or infinite: α ≤ 4,
    d1 = ∞; in floating point, a c* beyond 1e308 is inf as well). Trivial bound: t·max Δ. Every
    ARS-EXP3 curve against Theorem 2 (``theorem2_<algorithm>``, :func:`_theorem2_rows`)."""
    frames = []
    for exp_id, exp in paper["experiments"].items():
        if is_label_game(exp["environment"]):
            frames += _theorem2_rows(paper, exp_id, trace_of)
            continue
        problem = problem_of(paper, exp_id)
        for algorithm, _, params in runs_of(paper, exp, ARS_UCB):
            regret = checkpoint_table(trace_of(exp_id, algorithm), "regret")
            t = regret.index.to_numpy(dtype=float)
            log_term = log_term_coefficient(problem.means, float(params["alpha"])) * np.log(t)
            trivial = pseudo_regret_max(t, problem.gaps)
            constant = _constant(problem, params)
            full = log_term + (constant.c_star if constant.void_reason is None else math.inf)
            for name, bound in (
                (f"logterm_{algorithm}", log_term),
                (f"theorem1_{algorithm}", full),
            ):
                frames.append(
                    compare_to_bound(
                        regret,
                        bound,
                        trivial,
                        experiment=exp_id,
                        algorithm=algorithm,
                        bound_name=name,
                        metric="regret",
                    )
                )
    return pd.concat(frames, ignore_index=True)


def theorem1_table(paper: dict) -> pd.DataFrame:
    """Theorem 1's constant for every (paper experiment, ARS-UCB algorithm it runs): k0, N(d2),
    log10 of t1, t2, T* and c*_f (summary and unsimplified lines), the log term's coefficient,
    and a flag: ``undefined`` (α ≤ 4), ``infinite`` (d1 = ∞), ``astronomical`` (c* above
    10^ASTRONOMICAL_LOG10) or ``finite``, with the reason."""
    rows = []
    for exp_id, exp in paper["experiments"].items():
        if exp["group"] != "paper" or is_label_game(exp["environment"]):
            continue
        problem = problem_of(paper, exp_id)
        for algorithm, alg, params in runs_of(paper, exp, ARS_UCB):
            c = _constant(problem, params)
            if c.void_reason is not None:
                flag = "undefined" if params["alpha"] <= 4 else "infinite"
            elif c.log10_c_star > ASTRONOMICAL_LOG10:
                flag = "astronomical"
            else:
                flag = "finite"
            rows.append(
                {
                    "experiment": exp_id,
                    "algorithm": algorithm,
                    "label": alg["label"],
                    "alpha": float(params["alpha"]),
                    "d1": problem.d1(),
                    "d2": problem.d2(),
                    "log_coefficient": log_term_coefficient(problem.means, float(params["alpha"])),
                    "k0": c.k0,
                    "N_d2": c.n_d2,
                    "log10_t1": c.log10_t1,
                    "log10_t2": c.log10_t2,
                    "log10_T_star": c.log10_T_star,
                    "log10_c_star": c.log10_c_star,
                    "log10_c_star_unsimplified": c.log10_c_star_unsimplified,
                    "flag": flag,
                    "reason": c.void_reason or "",
                }
            )
    return pd.DataFrame(rows)


def theorem2_table(paper: dict) -> pd.DataFrame:
    """Theorem 2 at the horizon T of every label game with ARS-EXP3, exact: the stream (N, its
    length, the best label's share over the horizon), K, g(K), g(K+1), G(K), γ in both forms,
    the bound 3 g(K)√(N K ln N) + 2dK + g(K+1), the trivial bound max_i G_i(T) (the best
    label's count over the horizon: no learner's regret can exceed it, trivial.py) and whether
    the bound is below it (informative), and its ratio to the trivial bound."""
    rows = []
    for exp_id, exp, stream, labels in label_games(paper):
        horizon = int(exp["horizon"])
        d = exp["environment"]["delays"]["d"]
        for algorithm, _, params in runs_of(paper, exp, ARS_EXP3):
            beta = float(params["beta"])
            rounds = exp3_rounds(horizon, beta)
            gamma = ars_exp3_gamma(stream.n_arms, horizon, beta)
            bound = float(theorem2_bound(horizon, stream.n_arms, d, beta))
            trivial = float(label_regret_max(labels, stream.n_arms, [horizon])[0])
            rows.append(
                {
                    "experiment": exp_id,
                    "algorithm": algorithm,
                    "stream": stream.name,
                    "N": stream.n_arms,
                    "stream_length": stream.length,
                    "T": horizon,
                    "best_share_over_T": float(
                        np.bincount(labels, minlength=stream.n_arms).max() / horizon
                    ),
                    "d": d,
                    "beta": beta,
                    "K": rounds.K,
                    "g_K": rounds.g_K,
                    "g_K_plus_1": rounds.g_next,
                    "G_K": rounds.G_K,
                    "gamma_appendix": gamma.appendix,
                    "gamma_theorem": gamma.printed,
                    "bound": bound,
                    "trivial": trivial,
                    "informative": bound < trivial,
                    "bound_over_trivial": bound / trivial,
                }
            )
    return pd.DataFrame(rows)


# The metrics of the paper's traces (simulation.py's docstring), which a claim's or a figure's
# `metric` may name (checked when the paper file loads: core/build/config_checks.py); {…} stands for
# a number.
METRICS = ("regret", *LEMMA1_METRICS)

# Kinds of bound no run can exceed, with the word the comparison notebook gives them instead of a
# verdict: the log term is Theorem 1's leading term without its constant c*_f.
BOUND_WORDS = {"log term": "term only"}


def metric_range(paper: dict, experiment: str, metric: str, horizon: float):
    """The range of the mean regret at the horizon T (trivial.py): a label game's regret
    max_i G_i(T) − gain(T) lies in [max_i G_i(T) − T, max_i G_i(T)] (the learner gains at most
    one label a slot, and never less than 0); a stochastic instance's pseudo-regret in
    [0, T·max Δ]. None for other metrics."""
    if metric != "regret":
        return None
    environment = paper["experiments"][experiment]["environment"]
    if is_label_game(environment):
        stream, labels = game_labels(environment, int(horizon))
        best = float(label_regret_max(labels, stream.n_arms, [int(horizon)])[0])
        return best - horizon, best
    return 0.0, float(pseudo_regret_max(np.array([horizon]), problem_of(paper, experiment).gaps)[0])
