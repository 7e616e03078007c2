"""Empirical regret against a paper's bound, tabulated: the kinds of bound a bound table holds
(Theorem 2, Lemma 2 per pair, …), one summary line per kind, the detail per (experiment, bound,
curve), and the experiment where a bound says the most (what ``bound_plots`` draws)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from timebandits.core.pages.display import collapsed, number, readable
from timebandits.core.verdicts.bounds import informative_from

# A kind's name: "theorem2" → "Theorem 2", "theorem3-tight" → "Theorem 3 (tight)",
# "pairs_theorem1_…" → "Theorem 1 per pair"; other words as written (a few respelt).
_RESULT = re.compile(r"^(theorem|lemma|corollary|proposition|fact)(\d+)(?:-(\w+))?$")
_WORDS = {"logterm": "log term"}
_PER_PAIR = re.compile(r"^(pulls|plays)_.*\d")


def natural_order(name: str) -> list:
    """Sort key putting ``k1_j2`` before ``k1_j10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _spaced(word: str) -> str:
    """``cost1`` → ``cost 1``."""
    return re.sub(r"(?<=[a-z])(?=\d)", " ", word)


def bound_kind(name: str) -> str:
    """The kind of the bound ``name`` of a bound table, as a reader writes it."""
    if name.startswith("pairs_"):
        return bound_kind(name.removeprefix("pairs_")) + " per pair"
    head = name.split("_")[0]
    match = _RESULT.match(head)
    if not match:
        return _WORDS.get(head, head)
    kind = f"{match[1].capitalize()} {match[2]}"
    return kind + (f" ({_spaced(match[3])})" if match[3] else "")


def legend_name(name: str) -> str:
    """The legend's name of a plot's one bound: "Theorem 2 bound", or "the bound"."""
    return f"{bound_kind(name)} bound" if _RESULT.match(name.split("_")[0]) else "the bound"


def _quantity(metric: str) -> str:
    """A curve's quantity, each pair's counts together: ``pulls_k1_j2`` → ``pulls of each pair``."""
    match = _PER_PAIR.match(metric)
    return f"{match[1]} of each pair" if match else _spaced(metric.replace("_", " "))


def _checks(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its kind, its quantity and each curve's number (one per experiment, bound
    and metric). Names are categories: a censored table has 640,000 rows of a few hundred names,
    which a summary groups far faster by their codes than as strings."""
    names = table.astype({column: "category" for column in ("experiment", "algorithm", "bound",
                                                            "metric")})
    return names.assign(kind=names["bound"].map(bound_kind).astype("category"),
                        quantity=names["metric"].map(_quantity).astype("category"),
                        curve=names.groupby(["experiment", "bound", "metric"], observed=True,
                                            sort=False).ngroup())


def worst_ratio(rows: pd.DataFrame):
    """The informative checkpoint with the largest mean/bound (None if there is none)."""
    ratios = np.where(rows["vacuous"].to_numpy(dtype=bool), np.nan,
                      rows["ratio"].to_numpy(dtype=float))
    ratios[~np.isfinite(ratios)] = np.nan
    return None if np.isnan(ratios).all() else rows.iloc[int(np.nanargmax(ratios))]


def bound_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per (experiment, kind, algorithm, quantity): the largest mean/bound over the checkpoints
    where the bound is informative and where it occurs (blank if it is vacuous everywhere), the
    first t from which it is informative, the checkpoints where the mean or any run exceeds it,
    and the share of vacuous checkpoints. A vacuous checkpoint never counts as support."""
    rows = []
    keys = ["experiment", "kind", "algorithm", "quantity"]
    for (exp, kind, algorithm, quantity), g in _checks(table).groupby(keys, observed=True,
                                                                       sort=False):
        worst = worst_ratio(g)
        rows.append({"experiment": exp, "bound": kind, "algorithm": algorithm,
                     "metric": quantity,
                     "max mean/bound (informative)": math.nan if worst is None else worst["ratio"],
                     "at t": math.nan if worst is None else worst["t"],
                     "informative from t": informative_from(g),
                     "checkpoints mean > bound": int((g["mean"] > g["bound_value"]).sum()),
                     "checkpoints any run > bound": int((g["runs_exceeding"] > 0).sum()),
                     "share vacuous": float(g["vacuous"].mean())})
    return pd.DataFrame(rows)


def kind_summary(table: pd.DataFrame, algorithms: dict | None = None) -> pd.DataFrame:
    """One line per kind of bound: what it bounds, on how many experiments and curves, how many
    curves it is informative for somewhere, the largest mean/bound where it is informative (and
    where), the informative checkpoints where the mean or some run is above it, and the share of
    vacuous checkpoints. ``algorithms`` names the algorithms (id → label)."""
    algorithms = algorithms or {}
    rows = []
    for kind, g in _checks(table).groupby("kind", observed=True, sort=False):
        worst = worst_ratio(g)
        informative = g[~g["vacuous"]]
        where = "" if worst is None else ", ".join([
            worst["experiment"], algorithms.get(worst["algorithm"], worst["algorithm"]),
            _quantity(worst["metric"]), f"t = {number(worst['t'], 3)}"])
        rows.append({"bound": kind, "quantity": ", ".join(g["quantity"].unique()),
                     "experiments": g["experiment"].nunique(), "curves": g["curve"].nunique(),
                     "curves informative somewhere": informative["curve"].nunique(),
                     "largest mean/bound (informative)": (math.nan if worst is None
                                                          else worst["ratio"]),
                     "where": where,
                     "informative checkpoints": len(informative),
                     "of which mean > bound": int((informative["mean"]
                                                   > informative["bound_value"]).sum()),
                     "of which some run > bound": int((informative["runs_exceeding"] > 0).sum()),
                     "share vacuous": float(g["vacuous"].mean())})
    return pd.DataFrame(rows)


def details(table: pd.DataFrame):
    """The detail per (experiment, bound, algorithm, curve), folded under a one-line summary."""
    frame = bound_summary(table)
    return collapsed(readable(frame), f"Every experiment and curve: {len(frame)} rows "
                                      f"(click to open)")


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
        return (int((~g["vacuous"]).sum()), -math.inf if worst is None else worst["ratio"],
                -math.inf if pd.isna(overall) else overall)
    return max(rows.groupby("experiment", sort=False), key=lambda item: score(item[1]))[0]
