"""Tables of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous Feedback"
(results/tables/anonymous/<name>.csv), the views of them its notebook shows (a few columns under
readable headings; the CSV keeps every column), figures folded under one line, and its section of
the comparison notebook."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core import paths
from timebandits.core.pages.provenance import provenance_table

from .analysis import theorem1_table, theorem2_table
from .label_game_config import is_label_game, label_games
from .model import problem_of
from .theorem1 import log_term_coefficient
from .theory import lai_robbins_constant

TABLES = ("instances", "label_games", "theorem1", "theorem2", "provenance")


def instances_table(paper: dict) -> pd.DataFrame:
    """One row per stochastic instance of the paper's figures (spec Table T1), every value exact
    from the kernel and the Bernoulli reward law (model.py): the mean offset Σ τ·w(τ), d1, d2
    (``inf`` where the sum diverges), the interval size generalized ODAAF is told, the offset
    variance ODAAF-V is told, and the constants of the lines drawn beside the regret: Theorem 1's
    log-term coefficient 8α Σ 1/Δ_i at α = 4 and the Lai–Robbins constant Σ Δ_i/kl(s_i, s_1)."""
    rows = []
    for exp_id, exp in paper["experiments"].items():
        if exp["group"] != "paper" or is_label_game(exp["environment"]):
            continue
        problem = problem_of(paper, exp_id)
        kernel = problem.kernel
        rows.append(
            {
                "instance": exp_id,
                "title": exp["title"],
                "kernel": kernel.kind,
                "kernel_params": ", ".join(f"{k} = {v:g}" for k, v in kernel.params.items()),
                "mean_offset": problem.mean_offset(),
                "d1": problem.d1(),
                "d2": problem.d2(),
                "interval_size": kernel.interval_size,
                "offset_variance": kernel.offset_variance(),
                "window_reach": kernel.window_reach,
                "log_coefficient_alpha4": log_term_coefficient(problem.means, 4.0),
                "lai_robbins": lai_robbins_constant(problem.means),
            }
        )
    return pd.DataFrame(rows)


def label_games_table(paper: dict) -> pd.DataFrame:
    """One row per label-stream game (Fig. 5 and its extras): the stream, how it was made from
    its source (a labelled stand-in for the paper's Kaggle data, or synthetic), its number of arms
    N and length, the horizon T and how a shorter stream is extended, the best label and its
    share over the first T slots, and the delays."""
    rows = []
    for exp_id, exp, stream, labels in label_games(paper):
        environment = exp["environment"]
        horizon = int(exp["horizon"])
        counts = np.bincount(labels, minlength=stream.n_arms)
        delays = environment["delays"]
        rows.append(
            {
                "experiment": exp_id,
                "stream": stream.name,
                "source": stream.source,
                "N": stream.n_arms,
                "stream_length": stream.length,
                "T": horizon,
                "extend": environment["extend"],
                "best_label": stream.arm_names[int(counts.argmax())],
                "best_share_over_T": float(counts.max() / horizon),
                "adversary": delays["adversary"],
                "d": delays["d"],
                "delay_range": (
                    f"U{{{delays['low']}..{delays['high']}}}"
                    if delays["adversary"] == "oblivious"
                    else f"1 or {delays['d']}"
                ),
            }
        )
    return pd.DataFrame(rows)


def table(name: str, paper: dict, config: dict, trace_of) -> pd.DataFrame:
    if name == "instances":
        return instances_table(paper)
    if name == "label_games":
        return label_games_table(paper)
    if name == "theorem2":
        return theorem2_table(paper)
    if name == "theorem1":
        return theorem1_table(paper)
    if name == "provenance":
        return provenance_table(paper)
    raise KeyError(f"unknown table {name!r}; known: {TABLES}")


# The notebook's view of each table: the CSV's columns it shows, under a reader's heading.
VIEWS = {
    "instances": {
        "instance": "instance",
        "title": "figure panel",
        "mean_offset": "mean offset Σ τ·w(τ)",
        "d1": "d1",
        "d2": "d2",
        "interval_size": "interval size (gen. ODAAF)",
        "offset_variance": "offset variance (ODAAF-V)",
    },
    "theorem1": {
        "experiment": "instance",
        "label": "algorithm",
        "k0": "k₀",
        "N_d2": "N(d2)",
        "log10_t1": "log₁₀ t₁",
        "log10_t2": "log₁₀ t₂",
        "log10_T_star": "log₁₀ T*",
        "log10_c_star": "log₁₀ c*",
        "log10_c_star_unsimplified": "log₁₀ c* (unsimplified)",
        "flag": "flag",
    },
    "label_games": {
        "experiment": "experiment",
        "stream": "stream",
        "source": "source",
        "N": "N",
        "T": "T",
        "best_label": "best label",
        "best_share_over_T": "its share over T",
        "adversary": "delays",
        "d": "d",
        "delay_range": "delay range",
    },
    "theorem2": {
        "experiment": "experiment",
        "N": "N",
        "T": "T",
        "d": "d",
        "K": "K",
        "g_K": "g(K)",
        "G_K": "G(K)",
        "gamma_appendix": "γ (App. B)",
        "gamma_theorem": "γ (Theorem 2)",
        "bound": "Theorem 2's bound",
        "trivial": "maxᵢ Gᵢ(T)",
        "informative": "informative",
        "bound_over_trivial": "bound / maxᵢ Gᵢ(T)",
    },
}


def view(root: str, name: str) -> pd.DataFrame:
    """The table ``name`` as the notebook shows it: the columns of VIEWS under their headings
    (a column that is the same in every row is said once in the text instead)."""
    frame = pd.read_csv(paths.table(root, "anonymous", name))
    return frame[list(VIEWS[name])].rename(columns=VIEWS[name])


def shared_constants(root: str) -> str:
    """The constants every instance shares (the arms' means are the same in all of them): the
    log term's coefficient 8α Σ 1/Δᵢ at α = 4 and the Lai–Robbins constant, in one sentence."""
    from timebandits.core.pages.display import number

    frame = pd.read_csv(paths.table(root, "anonymous", "instances"))
    parts = []
    for column, name in (
        ("log_coefficient_alpha4", "Theorem 1's log-term coefficient 8α Σᵢ 1/Δᵢ at α = 4"),
        ("lai_robbins", "the Lai–Robbins constant Σᵢ Δᵢ / kl(sᵢ, s₁)"),
    ):
        values = frame[column].round(9).unique()
        parts.append(f"{name} is {' or '.join(number(v) for v in values)}")
    return "In every instance " + "; ".join(parts) + "."


def theorem1_overview(root: str) -> pd.DataFrame:
    """Theorem 1's constant at a glance: log10 c*_f per instance (rows) and α (columns, f = k²),
    ∞ where it is infinite (d1 = ∞). α = 4, the paper's value and every f of the f sweep, is left
    out: c* is undefined there (the proof divides by √α − 2), which the caption says."""
    frame = pd.read_csv(paths.table(root, "anonymous", "theorem1"))
    frame = frame[(frame["alpha"] > 4) & frame["label"].str.contains("k²")]
    wide = frame.pivot(index="experiment", columns="alpha", values="log10_c_star")
    wide = wide.reindex(frame["experiment"].unique())
    wide.columns = [f"log₁₀ c* at α = {a:g}" for a in wide.columns]
    return wide.rename_axis("instance").reset_index()


def comparison_section(root: str, config: dict, paper: dict, bounds: pd.DataFrame) -> None:
    """The comparison notebook's section for this paper: Theorem 1's constants (undefined at the
    paper's α = 4, astronomical above it), ARS-UCB's regret against the log term 8α Σ 1/Δ_i ln t
    (the only part of Theorem 1 that says something) and against Theorem 1, and ARS-EXP3 against
    Theorem 2, each on the experiment where it says the most."""
    from IPython.display import Markdown, display

    from timebandits.core.pages import bound_plots, bound_tables
    from timebandits.core.pages import display as show

    display(
        Markdown(
            f"{show.markdown_text(paper['paper']['citation'])}\n\n"
            "Theorem 1 bounds ARS-UCB's regret by 8α (Σᵢ≥₂ 1/Δᵢ) ln T + c\\*(d1, d2, N, α) for "
            "α > 4. The paper's runs use α = 4, where c* is undefined (the proof divides by √α − "
            "2); for α > 4 it is astronomically large (t1 = exp((4 d1/(√α − 2))²)), and for "
            "polynomial γ = 2 it is infinite (d1 = ∞). The table gives log10 of each part; `flag` "
            "says which case applies."
        )
    )
    constants = theorem1_table(paper)
    display(
        show.collapsed(
            show.readable(constants),
            f"Theorem 1's constants per instance and "
            f"variant: {len(constants)} rows (click to "
            f"open)",
        )
    )
    labels = {
        name: paper["algorithms"][algorithm]["label"]
        for name, algorithm in bounds[["bound", "algorithm"]]
        .drop_duplicates()
        .itertuples(index=False)
    }
    instances = [
        e
        for e, exp in paper["experiments"].items()
        if exp["group"] == "paper" and not is_label_game(exp["environment"])
    ]
    streams = [e for e, exp in paper["experiments"].items() if is_label_game(exp["environment"])]
    for bound, candidates, title, what in (
        (
            "logterm_ars_ucb",
            instances,
            "The log term alone (claim C1b).",
            "ARS-UCB against 8α (Σᵢ 1/Δᵢ) ln t, c* dropped.",
        ),
        (
            "theorem1_ars_ucb",
            instances,
            "Theorem 1 with its constant (claim C1c).",
            "+∞ (no dashed line) where c* is undefined or infinite, otherwise far above the "
            "trivial bound t·max Δ: it can neither support nor contradict the runs.",
        ),
        (
            "theorem2_ars_exp3",
            streams,
            "Theorem 2 (claim C8).",
            "ARS-EXP3's regret maxᵢ Gᵢ(t) − gain(t) against 3 g(K)√(N K ln N) + 2dK + g(K+1); "
            "the trivial bound is maxᵢ Gᵢ(t), the best label's count (a learner earns ≥ 0).",
        ),
    ):
        exp_id = bound_tables.best_experiment(bounds, bound, candidates)
        bound_plots.plot_bound(
            bounds,
            exp_id,
            bound,
            title,
            labels=labels,
            note=(
                f"{what} {paper['experiments'][exp_id]['title']} (the experiment where it says the "
                f"most)."
            ),
        )
    display(
        Markdown(
            "**Lemma 1** (claim C9) is a Monte Carlo over every decision of every ARS-UCB "
            "run; see the claims table. **Theorem 2 per stream**: the bound at T, and "
            "whether it is below the largest regret the game allows, maxᵢ Gᵢ(T) "
            "(`informative`; claims C8, C8-s show whether either verdict was reachable)."
        )
    )
    display(show.readable(theorem2_table(paper)))
    display(bound_tables.details(bounds, paper))
