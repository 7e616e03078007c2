"""Tables of "A Farewell to Arms" (results/tables/farewell/<name>.csv)."""

from __future__ import annotations

import pandas as pd

from timebandits.core.provenance import provenance_table

from .analysis import panel_table, ratio_table

TABLES = ("panels", "provenance", "ratios")


def table(name: str, paper: dict, config: dict, trace_of) -> pd.DataFrame:
    """``panels``: exact quantities and bounds per experiment; ``provenance``: every value's
    source; ``ratios``: g, μ^c and Δ of every pair of every experiment."""
    if name == "panels":
        return panel_table(paper)
    if name == "provenance":
        return provenance_table(paper)
    if name == "ratios":
        frames = [ratio_table(paper, e).assign(experiment=e)
                  for e, exp in paper["experiments"].items() if exp["group"] != "theory"]
        return pd.concat(frames, ignore_index=True)
    raise KeyError(f"unknown table {name!r}; known: {TABLES}")


def comparison_section(root: str, config: dict, paper: dict, bounds: pd.DataFrame) -> None:
    """The comparison notebook's section for this paper: Wait-UCB against Theorem 2 and Lemma 2
    (§6.1–6.2), each on the panel where it says the most (the others in the folded table), and
    the simulation check of Theorem 1."""
    import re

    from IPython.display import Markdown, display

    from timebandits.core import display as show
    from timebandits.core import bound_plots
    from timebandits.core.workflow import trace_reader

    from .analysis import theorem1_table

    display(Markdown(f"{show.markdown_text(paper['paper']['citation'])}\n\n"
                     "Wait-UCB's pseudo-regret R̃_t and the paper's realised regret R_t against "
                     "Theorem 2 (constant C0 = D·g* plus Lemma 2's initial pull), and each "
                     "suboptimal pair's pulls against Lemma 2, on every panel. Per panel: the "
                     "Theorem 2 bound at T and the first t from which it is below the trivial "
                     "bound t·max Δ."))
    columns = {"experiment": "experiment", "min_gap": "min gap Δ",
               "thm2_bound_at_T": "Theorem 2 bound at T",
               "bound_nonvacuous_from_t": "informative from t", "order_WAIT": "order (WAIT)",
               "order_FJ": "order (FJ)"}
    display(show.readable(panel_table(paper)[list(columns)].rename(columns=columns)))
    panels = [e for e, exp in paper["experiments"].items() if exp["group"] == "paper"]
    labels = {"pseudo_regret": "pseudo-regret R̃_t", "regret": "realised regret R_t"}
    labels |= {name: "(k, j) = ({}, {})".format(*re.findall(r"\d+", name.removeprefix("lemma2")))
               for name in bounds.loc[bounds["bound"].str.startswith("lemma2_"), "bound"].unique()}
    for bound, what in (("theorem2", "Theorem 2: Wait-UCB's regret"),
                        ("lemma2", "Lemma 2: pulls of each suboptimal pair (k, j)")):
        exp_id = bound_plots.best_experiment(bounds, bound, panels)
        bound_plots.plot_bound(bounds, exp_id, bound, f"{what}.", labels=labels, note=(
            f"{paper['experiments'][exp_id]['title']} (the panel where it says the most)."))
    display(bound_plots.details(bounds))
    display(Markdown("#### Theorem 1 by simulation\nEvery constant policy under common random "
                     "numbers: simulated reward per time unit at T against the exact ratio g, the "
                     "exact expected reward W(T) (renewal recursion), the z-score of simulation "
                     "against it, and the exact offset A_j = W(T) − T·g (printed claim: A_j ∈ [0, j])."))
    trace_of = trace_reader(root, paper, config)
    for exp_id, exp in paper["experiments"].items():
        if exp["group"] == "theory":
            display(Markdown(f"**{show.markdown_text(exp['title'])}**"))
            runs = trace_of(exp_id, "constant_policies")
            display(show.readable(theorem1_table(paper, exp_id, runs)))
