"""Tables of "Continuous Time Bandits With Sampling Costs" (results/tables/continuous/<name>.csv:
final_payoffs, bounds_at_horizon and errata, each built in report_payoffs.py, report_bounds.py
and report_errata.py, and the provenance), what the notebook shows of them, and the paper's
section of the comparison notebook."""

from __future__ import annotations

import pandas as pd

from timebandits.core.pages.provenance import provenance_table

from .report_bounds import bounds_at_horizon_table
from .report_errata import errata_table
from .report_payoffs import final_payoffs_table
from .simulation import CTMAB, CTSAB

TABLES = ("final_payoffs", "bounds_at_horizon", "errata", "provenance")


def table(name: str, paper: dict, config: dict, trace_of) -> pd.DataFrame:
    if name == "final_payoffs":
        return final_payoffs_table(paper, trace_of)
    if name == "bounds_at_horizon":
        return bounds_at_horizon_table(paper, trace_of)
    if name == "errata":
        return errata_table(paper)
    if name == "provenance":
        return provenance_table(paper)
    raise KeyError(f"unknown table {name!r}; known: {TABLES}")


# What the notebook shows of the tables (the CSVs keep every column), under short headings.
PAYOFF_VIEW = {
    "experiment": "experiment",
    "algorithm": "algorithm",
    "mu": "μ1",
    "lam": "λ",
    "kappa": "κ",
    "T_prime": "T'",
    "final_payoff_mean": "payoff at T",
    "final_payoff_se": "s.e.",
    "oracle_payoff": "oracle P*",
    "payoff_over_oracle": "payoff / P*",
    "regret_mean": "regret",
    "failures": "never stopped",
    "identification_cut": "identification cut",
    "runs": "runs",
}
BOUND_VIEWS = {
    CTSAB: {
        "experiment": "experiment",
        "algorithm": "algorithm",
        "mu": "μ",
        "lam": "λ",
        "kappa": "κ",
        "T_prime": "T'",
        "epsilon": "ε",
        "regret_mean": "regret",
        "regret_se": "s.e.",
        "theorem5_shape": "Thm 5 shape",
        "theorem5_ratio": "regret / Thm 5",
        "theorem7_shape": "Thm 7 shape 1/μ",
        "regret_times_mu": "regret × μ",
        "illustrative_floor": "ln 2/(64e μ)",
        "eq20_mean": "eq. 20",
        "eq20_share_below": "share below eq. 20",
        "eq20_derivation_holds": "eq. 20's steps hold",
    },
    CTMAB: {
        "experiment": "experiment",
        "algorithm": "algorithm",
        "mu": "μ1",
        "lam": "λ",
        "kappa": "κ",
        "T_prime": "T'",
        "epsilon": "ε",
        "regret_mean": "regret",
        "regret_se": "s.e.",
        "theorem8_shape": "Thm 8 shape",
        "theorem8_ratio": "regret / Thm 8",
        "theorem9_shape": "Thm 9 shape",
        "theorem9_ratio": "regret / Thm 9",
        "eq9_regret": "eq. 9",
    },
}


def payoff_view(frame: pd.DataFrame) -> pd.DataFrame:
    """``final_payoffs`` as the notebook shows it: the columns a reader compares, renamed
    (μ1, λ, κ, T', payoff and its standard error, P*, ratio, regret, failures, runs)."""
    return frame[list(PAYOFF_VIEW)].rename(columns=PAYOFF_VIEW)


def bound_views(frame: pd.DataFrame, paper: dict) -> dict[str, pd.DataFrame]:
    """``bounds_at_horizon`` split by learner, as the notebook shows it: CTSAB's rows with
    Theorems 5 and 7 and eq. 20, CTMAB's with Theorems 8 and 9 and eq. 9 (each row of the CSV
    has only its learner's bounds)."""
    policy = frame["algorithm"].map(lambda a: paper["algorithms"][a]["policy"])
    return {
        name: frame.loc[policy == name, list(columns)].rename(columns=columns)
        for name, columns in BOUND_VIEWS.items()
    }


def _horizon_columns(paper: dict, bounds: pd.DataFrame, prefix: str) -> dict:
    """The experiments checked against the bounds ``prefix``, one per (μ, λ) (the first in the
    paper file: a figure's panel before its 100-run repeat), ordered by μ (μ1 for several arms)
    then λ, decreasing, each with its axis label."""
    settings = {}
    for exp_id in dict.fromkeys(bounds.loc[bounds["bound"].str.startswith(prefix), "experiment"]):
        env = paper["experiments"][exp_id]["environment"]
        settings.setdefault((tuple(env["means"]), env["lam"]), exp_id)
    order = sorted(settings, key=lambda key: (-key[0][0], -key[1]))
    return {
        settings[(means, lam)]: (f"μ {means[0]:g}" if len(means) == 1 else f"μ₁ {means[0]:g}")
        + f"\nλ {lam:g}"
        for means, lam in order
    }


def comparison_section(root: str, config: dict, paper: dict, bounds: pd.DataFrame) -> None:
    """The comparison notebook's section for this paper: the regret at T of every CTSAB and
    CTMAB run set against the shapes of Theorems 5 and 8 (free constant 1: the ratio is the
    constant the runs need), across μ, λ and κ, plotted per (μ, λ)."""
    from IPython.display import Markdown, display

    from timebandits.core.pages import bound_plots, bound_tables
    from timebandits.core.pages import display as show

    display(
        Markdown(
            f"{show.markdown_text(paper['paper']['citation'])}\n\n"
            "The theorems give orders, not constants: Theorem 5 bounds CTSAB's regret by "
            "C μ² T′ᵖ ln(2T′²) ln(2T′) + … with p = p* + 4ε/3, i.e. O((ln T′)²/μ) at fixed T′ᵋ, "
            "and Theorem 8 CTMAB's by C max{μ₁ K ln T′/Δ², K² ln²T′/μ₁, ln²T′/μ₁} + …, both for "
            "δ = 1/T′² (the experiments use δ = 0.05). Each point is the mean regret at the "
            "horizon T against the shape with C = 1: mean/bound is the constant the runs need, "
            "and a shape that fits keeps it roughly constant across μ and T′ = T/λ. A shape is "
            "vacuous where it is above the oracle's payoff P*(T), the regret of never playing "
            "(the trivial bound)."
        )
    )
    labels = {
        name: paper["algorithms"][algorithm]["label"]
        for name, algorithm in bounds[["bound", "algorithm"]]
        .drop_duplicates()
        .itertuples(index=False)
    }
    for prefix, title, what in (
        (
            "theorem5_ctsab",
            "Theorem 5: CTSAB (one arm) at the horizon, per μ and λ.",
            "κ sweep; the fixed-T′ᵋ variants are in the table below.",
        ),
        (
            "theorem8_ctmab",
            "Theorem 8: CTMAB (five arms, Fig. 1's instances) at the horizon, per μ₁ and λ.",
            "",
        ),
    ):
        names = [n for n in labels if n.startswith(prefix) and "fixed_c" not in n]
        bound_plots.plot_at_horizon(
            bounds, names, _horizon_columns(paper, bounds, prefix), title, labels=labels, note=what
        )
    display(bound_tables.horizon_details(bounds, paper))
    display(
        Markdown(
            "**Every bound at the horizon** (`results/tables/continuous/bounds_at_horizon.csv`), "
            "one table per learner: the lower bounds of Theorem 7 (C/μ: *regret × μ* is the "
            "constant the runs show) and Theorem 9 (C Kμ₁/Δ²; eq. 9's explicit value is negative, "
            "i.e. vacuous, for every Fig. 1 instance), and eq. 20's high-probability bound "
            "evaluated with each run's realised i* (*share below eq. 20*: the share of learned "
            "runs below it; its derivation needs T′ to the power ε/3 ≥ 2, *eq. 20's steps hold*)."
        )
    )
    views = bound_views(show.read_table(root, paper["paper"]["key"], "bounds_at_horizon"), paper)
    for name, view in views.items():
        view = view.assign(
            experiment=view["experiment"].map(lambda e: paper["experiments"][e]["title"]),
            algorithm=view["algorithm"].map(lambda a: paper["algorithms"][a]["label"]),
        )
        display(
            show.collapsed(
                bound_tables.styled(view), f"{name.upper()}: {len(view)} run sets (click to open)"
            )
        )
