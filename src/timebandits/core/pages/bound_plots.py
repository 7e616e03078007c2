"""Empirical regret against a paper's bound, plotted: over t (log-log, with mean/bound below)
or, for bounds checked at the horizon only, one point per experiment. The vacuous region (bound
not below the trivial bound) is shaded grey. The parts both plots are drawn from are in
``bound_plot_parts``, the tables in ``bound_tables``."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from timebandits.core.pages.bound_names import legend_name, natural_order
from timebandits.core.pages.bound_plot_parts import (
    SHADE,
    closest_bounds,
    legend_under,
    log_finite,
    plot_drawable,
    ratio_axis,
    shade_vacuous,
    title_line,
)
from timebandits.core.pages.bound_tables import selected
from timebandits.core.pages.display import show_matplotlib
from timebandits.core.pages.plotting import mark_zeros, new_figure, series_style


def plot_bound(
    table: pd.DataFrame,
    experiment: str,
    bounds,
    title: str = "",
    labels: dict | None = None,
    most: int = 10,
    note: str = "",
) -> None:
    """Under the line ``title`` (bold) and ``note``, log-log, top: the mean of each curve of
    ``experiment`` (solid) against ``bounds`` (dashed; a prefix of the bounds' names or a list of
    them: one bound per suboptimal pair, or per algorithm, each in its own colour), faded where the
    bound is vacuous, grey where every bound shown is, the trivial bound dotted. Bottom: mean /
    bound. More than ``most`` bounds: those closest to being exceeded. ``labels`` names curves
    (bound names, or metrics when there is one bound). A mean of 0, which a log axis cannot show, is
    an open triangle at the foot of the top panel (core.pages.plotting.mark_zeros)."""
    labels = labels or {}
    rows = table[(table["experiment"] == experiment) & selected(table, bounds)]
    names = sorted(rows["bound"].unique(), key=natural_order)
    if not names:
        raise KeyError(f"the bound table has no bound {bounds!r} for experiment {experiment!r}")
    kept = closest_bounds(rows, names, most)
    rows = rows[rows["bound"].isin(kept)]
    several = len(kept) > 1
    prefix = bounds if isinstance(bounds, str) else ""
    fig, (top, bottom) = new_figure(
        "double", 4.6, nrows=2, sharex=True, gridspec_kw={"height_ratios": [2, 1]}
    )
    series = [
        (name, metric, group.sort_values("t"))
        for name in kept
        for metric, group in rows[rows["bound"] == name].groupby("metric", sort=True)
    ]
    handles, zeros = [], False
    for i, (name, metric, g) in enumerate(series):
        t, mean = g["t"].to_numpy(dtype=float), log_finite(g["mean"])
        style = {
            **(series_style(kept.index(name), len(kept)) if several else series_style(i)),
            "linestyle": "-",
        }
        colour = style["color"] if several else "black"
        label = (
            labels.get(name, name.removeprefix(prefix).strip("_").replace("_", " ") or name)
            if several
            else f"mean {labels.get(metric, metric.replace('_', ' '))}"
        )
        vacuous = g["vacuous"].to_numpy(dtype=bool)
        if np.isfinite(mean).any():
            top.plot(t, mean, linewidth=1.3, **style)
            handles.append(Line2D([], [], linewidth=1.3, **style, label=label))
        zeros = mark_zeros(top, t, g["mean"], colour) is not None or zeros
        with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 and x/∞: gaps
            ratio = log_finite(g["mean"].to_numpy() / g["bound_value"].to_numpy())
        plot_drawable(bottom, t, np.where(vacuous, np.nan, ratio), linewidth=1.1, **style)
        plot_drawable(
            bottom,
            t,
            np.where(vacuous, ratio, np.nan),
            linewidth=0.8,
            alpha=0.35,
            **{**style, "marker": None},
        )
        if several or i == 0:
            value = log_finite(g["bound_value"])
            plot_drawable(
                top,
                t,
                np.where(vacuous, np.nan, value),
                color=colour,
                linestyle="--",
                linewidth=1.0,
            )
            plot_drawable(
                top,
                t,
                np.where(vacuous, value, np.nan),
                color=colour,
                linestyle="--",
                linewidth=0.8,
                alpha=0.35,
            )
    trivial = rows.groupby("t")["trivial"].agg(["min", "max"])
    if np.allclose(trivial["min"], trivial["max"], equal_nan=True):
        top.plot(
            trivial.index, log_finite(trivial["min"]), color="0.45", linestyle=":", linewidth=1.0
        )
    all_vacuous = rows.groupby("t")["vacuous"].all().sort_index()
    shade_vacuous(top, all_vacuous.index.to_numpy(dtype=float), all_vacuous.to_numpy())
    shade_vacuous(bottom, all_vacuous.index.to_numpy(dtype=float), all_vacuous.to_numpy())
    key_colour = "0.4" if several else "black"
    key = [
        Line2D(
            [],
            [],
            color=key_colour,
            linestyle="--",
            linewidth=1.0,
            label="its bound (same colour)" if several else legend_name(kept[0]),
        ),
        Line2D(
            [],
            [],
            color=key_colour,
            linestyle="--",
            linewidth=0.8,
            alpha=0.35,
            label="faded: bound vacuous" + (" (same colour)" if several else ""),
        ),
    ]
    if np.allclose(trivial["min"], trivial["max"], equal_nan=True):
        key.append(
            Line2D([], [], color="0.45", linestyle=":", linewidth=1.0, label="trivial bound")
        )
    if all_vacuous.any():
        key.append(
            Patch(
                color=SHADE,
                label="grey: " + ("every bound shown vacuous" if several else "bound vacuous"),
            )
        )
    if zeros:
        key.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="v",
                markersize=5,
                color=key_colour,
                markerfacecolor="white",
                label="▽: mean 0 in every run" + (" (same colour)" if several else ""),
            )
        )
    key.append(Line2D([], [], color="0.3", linewidth=0.8, label="mean / bound = 1"))
    top.set_xscale("log")
    top.set_yscale("log")
    top.set_ylabel("value (log scale)")
    ratio_axis(bottom)
    bottom.set_xlabel("t (log scale)")
    legend_under(fig, handles + key)
    if len(kept) < len(names):
        note += f" Shown: the {len(kept)} of {len(names)} bounds closest to being exceeded."
    title_line(title, note)
    show_matplotlib(fig)


def plot_at_horizon(
    table: pd.DataFrame,
    bounds: list,
    experiments: dict,
    title: str = "",
    labels: dict | None = None,
    note: str = "",
) -> None:
    """For bounds checked at the horizon only: one column per experiment (``experiments`` maps
    each to its axis label, in order), the mean at T of each bound's curve (marker, ±1 s.e.)
    and its bound (a dash in the same colour), the trivial bound dotted, the columns where every
    bound is vacuous grey; below, mean / bound."""
    labels = labels or {}
    rows = table[table["bound"].isin(bounds) & table["experiment"].isin(list(experiments))]
    order = list(experiments)
    fig, (top, bottom) = new_figure(
        "double", 4.4, nrows=2, sharex=True, gridspec_kw={"height_ratios": [2, 1]}
    )
    width = 0.7 / len(bounds)
    handles = []
    for i, name in enumerate(bounds):
        g = rows[rows["bound"] == name]
        x = (
            np.array([order.index(e) for e in g["experiment"]])
            + (i - (len(bounds) - 1) / 2) * width
        )
        style = series_style(i, len(bounds))
        top.errorbar(
            x,
            g["mean"],
            yerr=g["se"],
            color=style["color"],
            marker=style["marker"],
            markersize=4,
            linestyle="none",
            elinewidth=0.8,
        )
        top.plot(
            x,
            g["bound_value"],
            color=style["color"],
            marker="_",
            markersize=9,
            markeredgewidth=1.6,
            linestyle="none",
        )
        bottom.plot(
            x,
            g["ratio"],
            color=style["color"],
            marker=style["marker"],
            markersize=4,
            linestyle="none",
        )
        handles.append(
            Line2D(
                [],
                [],
                color=style["color"],
                marker=style["marker"],
                markersize=4,
                linestyle="none",
                label=labels.get(name, name.replace("_", " ")),
            )
        )
    trivial = rows.groupby("experiment")["trivial"].first()
    vacuous = rows.groupby("experiment")["vacuous"].all()
    for exp in order:
        if exp not in trivial.index:
            continue
        x = order.index(exp)
        top.hlines(trivial[exp], x - 0.42, x + 0.42, color="0.45", linestyle=":", linewidth=1.0)
        if vacuous[exp]:
            for ax in (top, bottom):
                ax.axvspan(x - 0.5, x + 0.5, color=SHADE, zorder=0, linewidth=0)
    key = [
        Line2D(
            [],
            [],
            color="0.3",
            marker="_",
            markersize=9,
            markeredgewidth=1.6,
            linestyle="none",
            label="its bound (dash, same colour)",
        ),
        Line2D([], [], color="0.45", linestyle=":", linewidth=1.0, label="trivial bound"),
        Patch(color=SHADE, label="grey: bound vacuous"),
        Line2D([], [], color="0.3", linewidth=0.8, label="mean / bound = 1"),
    ]
    top.set_yscale("log")
    top.set_ylabel("regret at T (log scale)")
    ratio_axis(bottom)
    bottom.set_xticks(range(len(order)), [experiments[e] for e in order])
    bottom.set_xlim(-0.5, len(order) - 0.5)
    bottom.grid(False, axis="x")
    top.grid(False, axis="x")
    legend_under(fig, handles + key)
    title_line(title, note)
    show_matplotlib(fig)
