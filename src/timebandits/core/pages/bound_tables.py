"""Empirical regret against a paper's bound, tabulated: per kind of bound a bound table holds
(Theorem 2, Lemma 2 per pair, …, named as in ``bound_names``), one summary line and its
verdict, the detail per (experiment, bound, curve), and the experiment where a bound says the
most (what ``bound_plots`` draws)."""

from __future__ import annotations

import html
import math

import numpy as np
import pandas as pd

from timebandits.core.pages.bound_names import bound_kind, curve_quantity
from timebandits.core.pages.display import collapsed, number, readable
from timebandits.core.pages.verdict_words import VERDICT_COLOURS
from timebandits.core.text import prose
from timebandits.core.verdicts.bounds import informative_from

# What the runs say of a kind of bound, in a word, by the claims' rule (core.bounds.bound_verdict):
# the mean stays below it wherever it is informative, or goes above it there, by more than 2
# standard errors or within them, or it is informative nowhere. A kind that is no bound a run can
# exceed (an O(·) drawn with constant 1, a bound's leading term alone) gets the word its paper's
# notebook gives it instead, e.g. "shape only".
HOLDS, EXCEEDED, WITHIN_NOISE, VACUOUS = "holds", "exceeded", "above within 2 s.e.", "vacuous"
COLOURS = {
    HOLDS: VERDICT_COLOURS["reproduced"],
    EXCEEDED: VERDICT_COLOURS["not reproduced"],
    WITHIN_NOISE: VERDICT_COLOURS["inconclusive"],
    VACUOUS: VERDICT_COLOURS["not checkable"],
}
# The columns of a verdict table (``verdict_table``), as its header shows them.
VERDICT_COLUMNS = {
    "paper": "paper",
    "bound": "bound",
    "verdict": "verdict",
    "largest mean/bound (informative)": "largest mean / bound where informative",
    "where": "where",
    "informative checkpoints": "informative checkpoints",
    "of which mean > bound": "with the mean above",
}


def _checks(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its kind, its quantity and each curve's number (one per experiment, bound
    and metric). Names are categories: a censored table has 640,000 rows of a few hundred names,
    which a summary groups far faster by their codes than as strings."""
    names = table.astype(
        {column: "category" for column in ("experiment", "algorithm", "bound", "metric")}
    )
    return names.assign(
        kind=names["bound"].map(bound_kind).astype("category"),
        quantity=names["metric"].map(curve_quantity).astype("category"),
        curve=names.groupby(["experiment", "bound", "metric"], observed=True, sort=False).ngroup(),
    )


def worst_ratio(rows: pd.DataFrame):
    """The informative checkpoint with the largest mean/bound (None if there is none)."""
    ratios = np.where(
        rows["vacuous"].to_numpy(dtype=bool), np.nan, rows["ratio"].to_numpy(dtype=float)
    )
    ratios[~np.isfinite(ratios)] = np.nan
    return None if np.isnan(ratios).all() else rows.iloc[int(np.nanargmax(ratios))]


def bound_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per (experiment, kind, algorithm, quantity): the largest mean/bound over the checkpoints
    where the bound is informative and where it occurs (blank if it is vacuous everywhere), the
    first t from which it is informative, the checkpoints where the mean or any run exceeds it,
    and the share of vacuous checkpoints. A vacuous checkpoint never counts as support."""
    rows = []
    keys = ["experiment", "kind", "algorithm", "quantity"]
    for (exp, kind, algorithm, quantity), g in _checks(table).groupby(
        keys, observed=True, sort=False
    ):
        worst = worst_ratio(g)
        rows.append(
            {
                "experiment": exp,
                "bound": kind,
                "algorithm": algorithm,
                "metric": quantity,
                "max mean/bound (informative)": math.nan if worst is None else worst["ratio"],
                "at t": math.nan if worst is None else worst["t"],
                "informative from t": informative_from(g),
                "checkpoints mean > bound": int((g["mean"] > g["bound_value"]).sum()),
                "checkpoints any run > bound": int((g["runs_exceeding"] > 0).sum()),
                "share vacuous": float(g["vacuous"].mean()),
            }
        )
    return pd.DataFrame(rows)


def kind_summary(
    table: pd.DataFrame, algorithms: dict | None = None, experiments: dict | None = None
) -> pd.DataFrame:
    """One line per kind of bound: what it bounds, on how many experiments and curves, how many
    curves it is informative for somewhere, the largest mean/bound where it is informative (and
    where: the algorithm, the quantity, t and the experiment), the informative checkpoints where
    the mean, the mean less 2 standard errors, or some run is above it, and the share of vacuous
    checkpoints. ``algorithms`` names the algorithms (id → label), ``experiments`` the
    experiments (id → title); without them, their ids."""
    algorithms, experiments = algorithms or {}, experiments or {}
    rows = []
    for kind, g in _checks(table).groupby("kind", observed=True, sort=False):
        worst = worst_ratio(g)
        informative = g[~g["vacuous"]]
        where = (
            ""
            if worst is None
            else (
                f"{algorithms.get(worst['algorithm'], worst['algorithm'])}, "
                f"{curve_quantity(worst['metric'])} at t = {number(worst['t'], 3)}, "
                f"in {experiments.get(worst['experiment'], worst['experiment'])}"
            )
        )
        above = informative["mean"] > informative["bound_value"]
        rows.append(
            {
                "bound": kind,
                "quantity": ", ".join(g["quantity"].unique()),
                "experiments": g["experiment"].nunique(),
                "curves": g["curve"].nunique(),
                "curves informative somewhere": informative["curve"].nunique(),
                "largest mean/bound (informative)": (math.nan if worst is None else worst["ratio"]),
                "where": where,
                "informative checkpoints": len(informative),
                "of which mean > bound": int(above.sum()),
                "of which mean > bound + 2 s.e.": int(
                    (informative["mean"] - 2 * informative["se"] > informative["bound_value"]).sum()
                ),
                "of which some run > bound": int((informative["runs_exceeding"] > 0).sum()),
                "share vacuous": float(g["vacuous"].mean()),
            }
        )
    return pd.DataFrame(rows)


def verdict(row, shapes: dict | None = None) -> str:
    """A kind's verdict (``HOLDS``, ``EXCEEDED``, ``WITHIN_NOISE``, ``VACUOUS``) from its line
    of ``kind_summary``, or ``shapes[kind]`` for a kind that is no bound a run can exceed."""
    if row["bound"] in (shapes or {}):
        return shapes[row["bound"]]
    if row["informative checkpoints"] == 0:
        return VACUOUS
    if row["of which mean > bound + 2 s.e."] > 0:
        return EXCEEDED
    return WITHIN_NOISE if row["of which mean > bound"] > 0 else HOLDS


def verdict_table(kinds: pd.DataFrame, shapes: dict | None = None) -> pd.DataFrame:
    """``kinds`` (``kind_summary`` lines with a ``paper`` column) as the first table a reader
    sees: per paper and kind, the kind and what it bounds, its verdict (``shapes``: (paper,
    kind) → the word for a kind that is no bound a run can exceed), the largest mean/bound where
    informative and where, and the informative checkpoints with the mean above (single runs
    above a bound on the mean are no violation: they are in ``kinds``); the paper named on its
    first line only. A shape naming a kind its paper does not have is an error (a renamed bound
    must not turn into a violation unnoticed)."""
    shapes = shapes or {}
    present = set(zip(kinds["paper"], kinds["bound"]))
    unknown = [key for key in shapes if key[0] in set(kinds["paper"]) and key not in present]
    if unknown:
        raise KeyError(f"no such kind of bound in its paper's bound table: {unknown}")
    frame = kinds.assign(
        verdict=[
            verdict(row, {k: w for (p, k), w in shapes.items() if p == row["paper"]})
            for _, row in kinds.iterrows()
        ],
        bound=[
            kind if kind == quantity else f"{kind} on {quantity}"
            for kind, quantity in zip(kinds["bound"], kinds["quantity"])
        ],
        paper=kinds["paper"].where(kinds["paper"] != kinds["paper"].shift(), ""),
    )
    return frame[list(VERDICT_COLUMNS)].rename(columns=VERDICT_COLUMNS)


def styled(frame: pd.DataFrame, digits: int = 3):
    """``readable(frame)`` with numbers written as the pages' text writes them (``9.85·10⁶``,
    not ``9.85e6``), to ``digits`` significant digits, headers wrapped (the numbers under them
    are short), long text at least 10em wide, and a ``verdict`` column coloured."""
    styler = readable(frame, digits).format(
        lambda v: html.escape(prose(number(v, digits)), quote=False)
    )
    long_text = [
        i
        for i, c in enumerate(frame.columns)
        if not pd.api.types.is_numeric_dtype(frame[c]) and frame[c].astype(str).str.len().max() > 40
    ]
    styler = styler.set_table_styles(
        [
            {"selector": f"th.col_heading.col{i}", "props": "white-space: normal;"}
            for i in range(frame.shape[1])
        ]
        + [{"selector": f"td.col{i}", "props": "min-width: 10em;"} for i in long_text],
        overwrite=False,
    )
    if "verdict" in frame:
        styler = styler.map(
            lambda v: f"background-color: {COLOURS.get(v, 'transparent')}; white-space: nowrap;",
            subset=["verdict"],
        )
    return styler


# The columns of ``bound_summary`` as ``details`` shows them.
DETAIL_COLUMNS = {
    "experiment": "experiment",
    "bound": "bound",
    "algorithm": "algorithm",
    "metric": "quantity",
    "max mean/bound (informative)": "largest mean / bound where informative",
    "at t": "at t",
    "informative from t": "informative from t",
    "checkpoints mean > bound": "checkpoints with the mean above",
    "checkpoints any run > bound": "checkpoints with some run above",
    "share vacuous": "share of checkpoints vacuous",
}


def details(table: pd.DataFrame, paper: dict | None = None):
    """The detail per (experiment, bound, algorithm, curve), folded under a one-line summary;
    experiments by their titles and algorithms by their labels in ``paper`` (its config)."""
    frame = _named(bound_summary(table), paper)
    frame = frame[list(DETAIL_COLUMNS)].rename(columns=DETAIL_COLUMNS)
    return collapsed(
        styled(frame), f"Every experiment and curve: {len(frame)} rows (click to open)"
    )


def _named(frame: pd.DataFrame, paper: dict | None) -> pd.DataFrame:
    """``frame`` with its experiments by their titles and its algorithms by their labels in
    ``paper`` (its config; None: as they are)."""
    if paper is None:
        return frame
    return frame.assign(
        experiment=[paper["experiments"].get(e, {}).get("title", e) for e in frame["experiment"]],
        algorithm=[paper["algorithms"].get(a, {}).get("label", a) for a in frame["algorithm"]],
    )


# A bound table checked at the horizon only, as ``horizon_details`` shows it.
HORIZON_COLUMNS = {
    "experiment": "experiment",
    "algorithm": "algorithm",
    "bound": "bound",
    "t": "T",
    "mean": "mean",
    "se": "s.e.",
    "bound_value": "bound at T",
    "trivial": "trivial bound at T",
    "vacuous": "vacuous",
    "ratio": "mean / bound",
}


def horizon_details(table: pd.DataFrame, paper: dict | None = None):
    """A bound table checked at the horizon only (one checkpoint per curve), a row per curve,
    folded: experiment by title, algorithm by label (``paper``, its config), the kind of bound,
    T, the mean and its standard error (0 where the runs agree to floating-point residue), the
    bound, the trivial bound, whether it is vacuous and mean/bound."""
    frame = _named(table.assign(bound=table["bound"].map(bound_kind)), paper)
    residue = frame["se"].abs() <= 1e-9 * frame["mean"].abs()
    frame = frame.assign(se=frame["se"].where(~residue, 0.0))
    frame = frame[list(HORIZON_COLUMNS)].rename(columns=HORIZON_COLUMNS)
    return collapsed(
        styled(frame), f"Every run set at the horizon: {len(frame)} rows (click to open)"
    )


def selected(table: pd.DataFrame, bounds) -> pd.Series:
    """Rows of the bounds ``bounds``: a prefix of their names, or a list of exact names."""
    if isinstance(bounds, str):
        return table["bound"].str.startswith(bounds)
    return table["bound"].isin(list(bounds))


def best_experiment(table: pd.DataFrame, bounds, experiments=None) -> str:
    """The experiment (of ``experiments``, default all) where ``bounds`` says the most: the most
    informative checkpoints, then the largest mean/bound where informative, then overall."""
    rows = table[selected(table, bounds)]
    if experiments is not None:
        rows = rows[rows["experiment"].isin(list(experiments))]
    if rows.empty:
        raise KeyError(f"no bound {bounds!r} in these experiments")

    def score(g):
        worst = worst_ratio(g)
        overall = g["ratio"].replace([np.inf, -np.inf], np.nan).max()
        return (
            int((~g["vacuous"]).sum()),
            -math.inf if worst is None else worst["ratio"],
            -math.inf if pd.isna(overall) else overall,
        )

    return max(rows.groupby("experiment", sort=False), key=lambda item: score(item[1]))[0]
