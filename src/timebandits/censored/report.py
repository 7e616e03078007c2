"""Tables of "Bandits with Censored Consumption of Resources" (results/tables/censored/<name>.csv;
the exact ones are computed in report_exact), their views in the paper's notebook (the censoring
tables of §5.1 and App. F.1 beside the paper's, the provenance of every parameter, the sub-checks
of the verdicts), and its section of the comparison notebook."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core import paths
from timebandits.core.pages.provenance import provenance_table

from .analysis import censoring_table, theorem2_parameters
from .report_exact import bounds_table, instances_table
from .simulation import ZOOMING

TABLES = ("bounds", "censoring", "instances", "provenance")
PAPER = "censored"
# The algorithms of the censoring tables, in the paper's column order.
CENSORING_ALGORITHMS = ("rcucb", "thompson", "ucb")
TRUTH = "P(C > τ*) at the optimum"
# The instances table as shown: its columns (CSV name → heading) and their widths.
INSTANCE_COLUMNS = {
    "instance": "instance",
    "grid": "grid of limits",
    "n": "arms",
    "optimal_pairs": "optimal pair(s)",
    "tau_star": "τ*",
    "nu_star": "ν*",
    "censored_prob_star": "P(C > τ*)",
    "smallest_gap": "smallest gap",
    "censored_prob_note": "note",
}
INSTANCE_WIDTHS = {
    "instance": "min-width: 12em;",
    "grid of limits": "min-width: 18em;",
    "optimal pair(s)": "min-width: 10em; max-width: 24em;",
}
# The bounds table as shown: its columns (CSV name → heading).
BOUND_COLUMNS = {
    "experiment": "experiment",
    "K": "limits K",
    "alpha": "α",
    "T": "T",
    "max_gap": "max Δ",
    "trivial": "trivial T·max Δ",
    "theorem1": "Theorem 1",
    "corollary14": "Corollary 14",
    "ratio_thm1_cor14": "Theorem 1 / Corollary 14",
    "theorem1_informative": "Theorem 1 informative",
    "corollary14_informative": "Corollary 14 informative",
}
# Widths of the provenance table's columns: with them the table fits a 1,400 px page, the long
# lists of experiments in "scope" take few lines, and a value without spaces (a sha256) breaks
# anywhere.
PROVENANCE_WIDTHS = {
    "scope": "min-width: 18em; max-width: 26em;",
    "key": "max-width: 12em; overflow-wrap: anywhere;",
    "value": "max-width: 14em; overflow-wrap: anywhere;",
    "source": "white-space: nowrap;",
    "why": "max-width: 34em;",
}


def table(name: str, paper: dict, config: dict, trace_of) -> pd.DataFrame:
    if name == "bounds":
        return bounds_table(paper)
    if name == "censoring":
        return censoring_table(paper, trace_of)
    if name == "instances":
        return instances_table(paper)
    if name == "provenance":
        return provenance_table(paper)
    raise KeyError(f"unknown table {name!r}; known: {TABLES}")


def _mean_sd(mean, sd) -> str:
    """ "0.6399 ± 0.0029" (mean ± sd over runs), "0.6399" without an sd, "" without a mean."""
    if pd.isna(mean):
        return ""
    return f"{mean:.4f}" + ("" if pd.isna(sd) else f" ± {sd:.4f}")


def censoring_view(frame: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """The censoring table (``censoring_table``) as the paper prints it: one row per instance,
    the exact and the printed P(C > τ*), then per algorithm our mean share of censored rounds ±
    sd over runs beside the paper's."""
    columns = {
        (TRUTH, "exact"): frame["truth"].map("{:.4f}".format),
        (TRUTH, "paper"): frame["truth_printed"].map(lambda v: _mean_sd(v, np.nan)),
    }
    for algorithm in CENSORING_ALGORITHMS:
        label = paper["algorithms"][algorithm]["label"]
        columns[(label, "ours")] = [
            _mean_sd(m, s) for m, s in zip(frame[algorithm], frame[f"{algorithm}_sd"])
        ]
        columns[(label, "paper")] = [
            _mean_sd(m, s)
            for m, s in zip(frame[f"{algorithm}_printed"], frame[f"{algorithm}_sd_printed"])
        ]
    view = pd.DataFrame(columns)
    view.index = pd.Index(frame["title"].to_numpy(), name="instance")
    return view


def _widths(styler, columns, widths: dict):
    """``styler`` with the CSS ``widths[name]`` added to the column called ``name``."""
    return styler.set_table_styles(
        [
            {"selector": f"th.col_heading.col{i}, td.col{i}", "props": widths[c]}
            for i, c in enumerate(columns)
            if c in widths
        ],
        overwrite=False,
    )


def censoring(root: str, paper: dict):
    """The censoring tables of §5.1 and App. F.1, ours beside the paper's (``censoring_view``),
    each "mean ± sd" on one line."""
    from timebandits.core.pages import display as show

    view = censoring_view(show.read_table(root, PAPER, "censoring"), paper)
    return show.readable(view).set_properties(**{"white-space": "nowrap"})


def instances(root: str):
    """The exact quantities of every instance (``instances_table``) under readable headings,
    without the experiment id (the instance names it) and the note column when it is empty."""
    from timebandits.core.pages import display as show

    frame = show.read_table(root, PAPER, "instances")
    frame["censored_prob_note"] = frame["censored_prob_note"].str.replace("tau_star", "τ*")
    view = frame[[c for c in INSTANCE_COLUMNS if frame[c].notna().any()]].rename(
        columns=INSTANCE_COLUMNS
    )
    return _widths(show.readable(view), view.columns, INSTANCE_WIDTHS)


def bounds(root: str):
    """The magnitudes of Theorem 1 and Corollary 14 (``bounds_table``) under readable headings,
    folded (one row per experiment and α)."""
    from timebandits.core.pages import display as show

    frame = show.read_table(root, PAPER, "bounds")[list(BOUND_COLUMNS)].rename(
        columns=BOUND_COLUMNS
    )
    return show.collapsed(
        show.readable(frame),
        f"Bound magnitudes at T = 10⁵: {len(frame)} rows (click to open; CSV: "
        f"{paths.table(root, PAPER, 'bounds')})",
    )


def provenance(root: str):
    """The provenance of every parameter, folded (a long table), its columns narrowed so that
    the reasons ("why") wrap within the page."""
    from timebandits.core.pages import display as show

    frame = show.read_table(root, PAPER, "provenance")
    # Written out before readable(), which escapes a cell before formatting it (a dict of the
    # config would keep its quotes).
    frame["value"] = frame["value"].map(show.number)
    styler = _widths(show.readable(frame), frame.columns, PROVENANCE_WIDTHS)
    return show.collapsed(
        styler,
        f"Where every parameter comes from: {len(frame)} rows (click "
        f"to open; CSV: {paths.table(root, PAPER, 'provenance')})",
    )


def sub_checks(root: str, paper: dict):
    """Every sub-check behind the verdicts (``paper``: the config), folded under a line giving
    their number."""
    from timebandits.core.pages import display as show
    from timebandits.core.pages import verdict_tables

    count = len(pd.read_csv(paths.claim_details(root, PAPER)))
    return show.collapsed(
        verdict_tables.verdict_details(root, paper),
        f"Every sub-check behind the verdicts: {count} rows (click to open; "
        f"CSV: {paths.claim_details(root, PAPER)})",
    )


def _curve_labels(paper: dict, bounds: pd.DataFrame) -> dict:
    """Each bound's curve as the legend names it: its algorithm (``theorem1_rcucb_alpha2``:
    "RCUCB (alpha = 2)"), or its pair (i, τ) for the per-pair bounds (``…_plays_a3_l7``)."""
    import re

    labels = {}
    for name, algorithm in bounds[["bound", "algorithm"]].drop_duplicates().itertuples(index=False):
        pair = re.search(r"_plays_a(\d+)_l(\d+)$", name)
        labels[name] = (
            f"(i, τ) = ({pair[1]}, {pair[2]})"
            if pair
            else paper["algorithms"].get(algorithm, {}).get("label", algorithm)
        )
    return labels


def comparison_section(root: str, config: dict, paper: dict, bounds: pd.DataFrame) -> None:
    """The comparison notebook's section for this paper: RCUCB against Theorem 1 and the UCB
    reduction against Corollary 14 (α > 1, totals and every suboptimal pair's plays), each on
    the theory check where it says the most, the bound magnitudes at T = 10^5, Proposition 1's
    coverage, and z-RCUCB against Theorem 2."""
    from IPython.display import Markdown, display

    from timebandits.core.pages import bound_plots, bound_tables
    from timebandits.core.pages import display as show

    display(
        Markdown(
            f"{show.markdown_text(paper['paper']['citation'])}\n\n"
            "The paper's runs use α = 1, where Theorem 1, Corollary 14 and Proposition 1 are void "
            "(their constants are infinite), so the checks run RCUCB and the UCB reduction again "
            "with α ∈ {1.5, 2, 3} on PosCorr, NegCorr and Indep (10 limits), recording the plays "
            "of every exact pair. Theorem 1 is taken in its conservative form: the sum over the "
            "pairs with Δ > 0 of Δ·u(i, τ), with P(A(ε)) = 0 (the probability of its event is "
            "unknown); its per-pair term u(i, τ) bounds the plays T(i, τ) of exactly (i, τ)."
        )
    )
    magnitudes = bounds_table(paper).rename(
        columns={
            "alpha": "α",
            "max_gap": "max Δ",
            "trivial": "trivial T·max Δ",
            "theorem1": "Theorem 1",
            "corollary14": "Corollary 14",
            "ratio_thm1_cor14": "Theorem 1 / Corollary 14",
            "theorem1_informative": "Theorem 1 informative",
            "corollary14_informative": "Corollary 14 informative",
        }
    )
    display(
        show.collapsed(
            show.readable(magnitudes),
            (
                f"Magnitudes at the horizon (exact ν tables), {len(magnitudes)} rows (click to "
                "open): the trivial bound T·max Δ, both bounds, their ratio (the paper argues "
                "Theorem 1 is the smaller) and whether each is below the trivial bound."
            ),
        )
    )
    checks = [e for e, exp in paper["experiments"].items() if "pairs" in exp.get("record", [])]
    labels = _curve_labels(paper, bounds)
    for bound, what in (
        ("theorem1_", "Theorem 1: RCUCB's regret, α ∈ {1.5, 2, 3}"),
        ("corollary14_", "Corollary 14: the UCB reduction's regret, α ∈ {1.5, 2, 3}"),
        (
            "pairs_theorem1_rcucb_alpha2_",
            "Theorem 1's per-pair term u(i, τ): plays of each suboptimal pair, RCUCB α = 2",
        ),
        (
            "pairs_corollary14_ucb_alpha2_",
            "Corollary 14's per-pair term: plays of each suboptimal pair, UCB α = 2",
        ),
    ):
        exp_id = bound_tables.best_experiment(bounds, bound, checks)
        bound_plots.plot_bound(
            bounds,
            exp_id,
            bound,
            f"{what}.",
            labels=labels,
            note=(f"{paper['experiments'][exp_id]['title']} (the check where it says the most)."),
        )
    display(
        Markdown(
            "**Proposition 1** (claim C11): the share of (run, pair) whose estimate is "
            "outside ν ± 𝔠(t; α) against the bound, per side; see the claims table."
        )
    )
    for exp_id, exp in paper["experiments"].items():
        zooming = [a for a in exp["algorithms"] if paper["algorithms"][a]["policy"] == ZOOMING]
        for algorithm in zooming:
            constants = theorem2_parameters(paper, exp_id)
            display(
                Markdown(
                    f"**Theorem 2** (claim C13; an extra experiment, no run of the paper uses "
                    f"z-RCUCB): {show.markdown_text(exp['title'])}. Each T is its own run of "
                    f"horizon T; the bound C̃·(ln(T²/δ)/T)^(1/(d+2)) uses d = {constants['d']:g} "
                    f"(derived by hand, see the config's provenance) and Def. 3's constant C = "
                    f"{constants['C']:g} computed from the exact ν. It holds with probability ≥ 1 "
                    f"− δ; the mean simple regret is compared with it."
                )
            )
            bound_plots.plot_bound(
                bounds,
                exp_id,
                f"theorem2_{algorithm}",
                "Theorem 2: z-RCUCB's simple regret.",
                note=exp["title"],
                labels={"simple_regret": "simple regret"},
            )
    display(bound_tables.details(bounds, paper))
