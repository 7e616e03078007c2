"""Tables of "A Farewell to Arms" (results/tables/farewell/<name>.csv) and what its notebook shows
of them: figures with their problem's facts, where the regret comes from, exact quantities."""

from __future__ import annotations

import pandas as pd

from timebandits.core.pages.provenance import provenance_table

from .analysis import panel_table, ratio_table

TABLES = ("panels", "provenance", "ratios")

# The notebook's headings of the panels table (the CSV keeps the short names).
PANEL_HEADINGS = {
    "experiment": "experiment",
    "group": "group",
    "K": "K",
    "D": "D",
    "g_star": "g*",
    "optimal_pairs": "optimal (k, j)",
    "min_gap": "minimum gap Δ",
    "thm2_bound_at_T": "Thm 2 bound at T",
    "thm2_leading_at_T": "its leading term",
    "bound_nonvacuous_from_t": "bound below t·max Δ from t",
    "mean_cost_avg": "mean of μᶜ",
    "sum_inverse_cost": "Σ 1/μᶜ",
    "order_WAIT": "(WAIT)",
    "order_FJ": "(FJ)",
    "order_DQZL": "(DQZL)",
}
RATIO_NAMES = {"g": "g = μʳ/μᶜ", "mu_c": "μᶜ (mean waiting time)", "gap": "Δ (gap)"}
DECOMPOSED = ("wait_ucb", "ucb_simplex", "budget_ucb")


def panel_facts(paper: dict, experiment: str) -> str:
    """g*, the optimal pairs and the minimum gap of an experiment's problem, in words: what a
    regret panel's caption adds in the notebook (computed from the config, never typed)."""
    from .analysis import problem_of

    problem = problem_of(paper, experiment)
    optimal = ", ".join(f"({k}, {j})" for k, j in problem.optimal_pairs)
    return (
        f"This problem: g* = {problem.g_star:.4f} at (k, j) = {optimal}; minimum gap "
        f"Δ = {problem.min_gap:.4f}."
    )


def show_figures(root: str, paper: dict, group: str) -> None:
    """Every figure of ``group`` under its title and caption; a regret panel's caption ends
    with its problem's g*, optimal pairs and minimum gap (``panel_facts``)."""
    from timebandits.core.pages import display as show

    for figure_id, figure in paper["figures"].items():
        if figure["group"] != group:
            continue
        if figure["kind"] == "regret_panel":
            facts = panel_facts(paper, figure["experiment"])
            figure = {**figure, "caption": f"{figure['caption']} {facts}"}
        show.show_figure(root, paper["paper"]["key"], figure, figure_id)


def regret_sources(root: str, paper: dict, config: dict) -> None:
    """Per paper panel, a folded table of where the pseudo-regret at T comes from
    (``analysis.regret_decomposition``: mean pulls of each suboptimal pair and its share, in %,
    of Σ N·Δ·μᶜ), under a line naming each algorithm's largest source."""
    from IPython.display import display

    from timebandits.core.build.workflow import trace_reader
    from timebandits.core.pages import display as show

    from .analysis import regret_decomposition

    trace_of = trace_reader(root, paper, config)
    labels = {a: paper["algorithms"][a]["label"] for a in DECOMPOSED}
    for exp_id, exp in paper["experiments"].items():
        if exp["group"] != "paper":
            continue
        frame = regret_decomposition(paper, exp_id, trace_of, list(DECOMPOSED))
        top = "; ".join(
            f"{labels[a]} {frame.loc[frame[f'{a} share'].idxmax(), 'pair']} "
            f"({frame[f'{a} share'].max():.0%})"
            for a in DECOMPOSED
        )
        shown = frame.rename(columns={"pair": "pair (k, j)", "gap": "Δ", "mu_c": "μᶜ"})
        for a in DECOMPOSED:
            shown[f"{a} share"] *= 100
            shown = shown.rename(
                columns={
                    f"{a} pulls": f"{labels[a]}: pulls",
                    f"{a} share": f"{labels[a]}: share (%)",
                }
            )
        display(
            show.collapsed(
                show.readable(shown, digits=3),
                f"{exp['title']}. Largest source: {top} "
                f"({len(shown)} suboptimal pairs; click to open)",
            )
        )


def exact_quantities(root: str, paper: dict):
    """The panels table under readable headings, then the ratios table (g, μᶜ and Δ of every
    pair of every experiment) folded under one line."""
    from IPython.display import display

    from timebandits.core import paths
    from timebandits.core.pages import display as show

    key = paper["paper"]["key"]
    display(show.readable(show.read_table(root, key, "panels").rename(columns=PANEL_HEADINGS)))
    ratios = show.read_table(root, key, "ratios")
    ratios["quantity"] = ratios["quantity"].map(RATIO_NAMES)
    ratios = ratios[["experiment", *[c for c in ratios.columns if c != "experiment"]]]
    return show.collapsed(
        show.readable(ratios),
        f"g, μᶜ and Δ of every pair (k, j) of every "
        f"experiment: {len(ratios)} rows (click to open; CSV: "
        f"{paths.table(root, key, 'ratios')})",
    )


def table(name: str, paper: dict, config: dict, trace_of) -> pd.DataFrame:
    """``panels``: exact quantities and bounds per experiment; ``provenance``: every value's
    source; ``ratios``: g, μ^c and Δ of every pair of every experiment."""
    if name == "panels":
        return panel_table(paper)
    if name == "provenance":
        return provenance_table(paper)
    if name == "ratios":
        frames = [
            ratio_table(paper, e).assign(experiment=e)
            for e, exp in paper["experiments"].items()
            if exp["group"] != "theory"
        ]
        return pd.concat(frames, ignore_index=True)
    raise KeyError(f"unknown table {name!r}; known: {TABLES}")


def comparison_section(root: str, config: dict, paper: dict, bounds: pd.DataFrame) -> None:
    """The comparison notebook's section for this paper: Wait-UCB against Theorem 2 and Lemma 2
    (§6.1–6.2), each on the panel where it says the most (the others in the folded table), and
    the simulation check of Theorem 1."""
    import re

    from IPython.display import Markdown, display

    from timebandits.core.build.workflow import trace_reader
    from timebandits.core.pages import bound_plots, bound_tables
    from timebandits.core.pages import display as show

    from .analysis import theorem1_table

    display(
        Markdown(
            f"{show.markdown_text(paper['paper']['citation'])}\n\n"
            "Wait-UCB's pseudo-regret R̃_t and the paper's realised regret R_t against "
            "Theorem 2 (constant C0 = D·g* plus Lemma 2's initial pull), and each "
            "suboptimal pair's pulls against Lemma 2, on every panel. Per panel: the "
            "Theorem 2 bound at T and the first t from which it is below the trivial "
            "bound t·max Δ."
        )
    )
    columns = {
        "experiment": "experiment",
        "min_gap": "min gap Δ",
        "thm2_bound_at_T": "Theorem 2 bound at T",
        "bound_nonvacuous_from_t": "informative from t",
        "order_WAIT": "order (WAIT)",
        "order_FJ": "order (FJ)",
    }
    display(show.readable(panel_table(paper)[list(columns)].rename(columns=columns)))
    panels = [e for e, exp in paper["experiments"].items() if exp["group"] == "paper"]
    labels = {"pseudo_regret": "pseudo-regret R̃_t", "regret": "realised regret R_t"}
    labels |= {
        name: "(k, j) = ({}, {})".format(*re.findall(r"\d+", name.removeprefix("lemma2")))
        for name in bounds.loc[bounds["bound"].str.startswith("lemma2_"), "bound"].unique()
    }
    for bound, what in (
        ("theorem2", "Theorem 2: Wait-UCB's regret"),
        ("lemma2", "Lemma 2: pulls of each suboptimal pair (k, j)"),
    ):
        exp_id = bound_tables.best_experiment(bounds, bound, panels)
        bound_plots.plot_bound(
            bounds,
            exp_id,
            bound,
            f"{what}.",
            labels=labels,
            note=(f"{paper['experiments'][exp_id]['title']} (the panel where it says the most)."),
        )
    display(bound_tables.details(bounds, paper))
    display(
        Markdown(
            "#### Theorem 1 by simulation\nEvery constant policy under common random "
            "numbers: simulated reward per time unit at T against the exact ratio g, the "
            "exact expected reward W(T) (renewal recursion), the z-score of simulation "
            "against it, and the exact offset A_j = W(T) − T·g (printed claim: A_j ∈ [0, j])."
        )
    )
    trace_of = trace_reader(root, paper, config)
    for exp_id, exp in paper["experiments"].items():
        if exp["group"] == "theory":
            display(Markdown(f"**{show.markdown_text(exp['title'])}**"))
            runs = trace_of(exp_id, "constant_policies")
            display(show.readable(theorem1_table(paper, exp_id, runs)))
