"""Empirical regret against a paper's bound: the log-log plot with its ratio and the vacuous
region shaded, and the summary table with one line per (experiment, bound, metric)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
from matplotlib import pyplot as plt
from matplotlib.lines import Line2D

from .bounds import informative_from
from .display import show_matplotlib
from .plotting import apply_style, log_safe, series_style


def _natural(name: str) -> list:
    """Sort key putting ``k1_j2`` before ``k1_j10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _curve_label(name: str, prefix: str) -> str:
    return name.removeprefix(prefix).strip("_").replace("_", " ") or name


def plot_bound(table: pd.DataFrame, experiment: str, bound: str, title: str = ""):
    """Log-log, top: the empirical mean of each curve of ``experiment`` (solid) against
    ``bound`` (dashed), which is a bound's name or a prefix (e.g. ``lemma2``: one bound per
    suboptimal pair, each pair in its own colour); faded where the bound is vacuous (not below
    the trivial bound), the t where every bound shown is vacuous shaded. Bottom: mean / bound.
    Zeros and rounding residues of the mean are gaps, not spikes."""
    apply_style()
    rows = table[(table["experiment"] == experiment) & table["bound"].str.startswith(bound)]
    names = sorted(rows["bound"].unique(), key=_natural)
    if not names:
        raise KeyError(f"the bound table has no bound {bound!r} for experiment {experiment!r}")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 5.2), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    handles = []
    series = [(name, metric, group) for name in names
              for metric, group in rows[rows["bound"] == name].groupby("metric", sort=True)]
    for i, (name, metric, group) in enumerate(series):
        g = group.sort_values("t")
        t, mean = g["t"].to_numpy(), log_safe(g["mean"])
        if not np.isfinite(mean).any():  # a curve that is zero throughout has nothing to draw
            continue
        # One bound: its curve in black, each metric in its own style. Several: one colour each.
        style = {**(series_style(names.index(name), len(names)) if len(names) > 1 else
                    series_style(i)), "linestyle": "-"}
        bound_colour = style["color"] if len(names) > 1 else "black"
        label = (_curve_label(name, bound) if len(names) > 1 else f"mean {metric}")
        top.plot(t, mean, linewidth=1.3, **style)
        handles.append(Line2D([], [], linewidth=1.3, **style, label=label))
        if len(names) > 1 or i == 0:
            value = log_safe(g["bound_value"])
            vacuous = g["vacuous"].to_numpy(dtype=bool)
            top.plot(t, np.where(vacuous, np.nan, value), color=bound_colour, linestyle="--",
                     linewidth=1.0)
            top.plot(t, np.where(vacuous, value, np.nan), color=bound_colour, linestyle="--",
                     linewidth=0.8, alpha=0.35)
        bottom.plot(t, log_safe(mean / g["bound_value"].to_numpy()), linewidth=1.1, **style)
    # Several bounds: the dashed keys stand for every colour, so they are grey.
    key_colour = "0.5" if len(names) > 1 else "black"
    key = [Line2D([], [], color=key_colour, linestyle="--", linewidth=1.0,
                  label="dashed: its bound (same colour)" if len(names) > 1
                  else f"{names[0]} bound"),
           Line2D([], [], color=key_colour, linestyle="--", linewidth=0.8, alpha=0.35,
                  label="faded: bound vacuous (≥ trivial bound)" + (
                      " (same colour)" if len(names) > 1 else ""))]
    all_vacuous = rows.groupby("t")["vacuous"].all()
    if all_vacuous.any():
        top.axvspan(all_vacuous.index.min(), all_vacuous[all_vacuous].index.max(), color="0.92",
                    zorder=0)
        key.append(plt.Rectangle((0, 0), 1, 1, color="0.92", label="every bound vacuous"))
    top.set_xscale("log")
    top.set_yscale("log")
    top.set_ylabel("value (log)")
    top.set_title(title or f"{experiment}: empirical mean vs {bound}")
    bottom.set_yscale("log")
    bottom.axhline(1.0, color="0.3", linewidth=0.8)
    bottom.set_ylabel("mean / bound (log)")
    bottom.set_xlabel("t (log scale)")
    key.append(Line2D([], [], color="0.3", linewidth=0.8, label="mean / bound = 1"))
    heading = "solid: mean over runs, one colour per curve" if len(names) > 1 else None
    fig.legend(handles=handles + key, loc="upper left", bbox_to_anchor=(0.99, 0.93),
               ncol=2 if len(handles) > 14 else 1, fontsize=7, title=heading,
               title_fontsize=7, frameon=False)
    show_matplotlib(fig)


def bound_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per (experiment, bound family, metric; every suboptimal pair's pulls together): the largest
    ratio mean/bound over the checkpoints where the bound is informative, and where it occurs
    (blank if the bound is vacuous everywhere), the first t from which the bound is informative,
    checkpoints where the mean or any run exceeds the bound, and the share of vacuous
    checkpoints. A vacuous checkpoint never counts as support (core.bounds)."""
    family = table["bound"].str.split("_").str[0]
    metric = table["metric"].where(~((family != "theorem2") & table["metric"].str.startswith("pulls")),
                                   "pulls (every suboptimal pair)")
    table = table.assign(family=family, metric=metric)
    rows = []
    for (exp, fam, met), g in table.groupby(["experiment", "family", "metric"], sort=False):
        informative = g[~g["vacuous"]]
        ratios = informative["ratio"].dropna()  # 0/0 where a bound and the mean are both 0
        worst = informative.loc[ratios.idxmax()] if not ratios.empty else None
        rows.append({"experiment": exp, "bound": fam, "metric": met,
                     "max mean/bound (informative)": math.nan if worst is None else worst["ratio"],
                     "at t": math.nan if worst is None else worst["t"],
                     "informative from t": informative_from(g),
                     "checkpoints mean > bound": int((g["mean"] > g["bound_value"]).sum()),
                     "checkpoints any run > bound": int((g["runs_exceeding"] > 0).sum()),
                     "share vacuous": float(g["vacuous"].mean())})
    return pd.DataFrame(rows)
