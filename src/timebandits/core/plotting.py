"""One plotting style for every figure: each algorithm's own colour, dash pattern and marker,
band plots of summaries, curves safe for log axes, and atomic saving."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .atomic import atomic_output  # noqa: E402

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    # Fixed metadata so the same summary gives the same bytes.
    "svg.hashsalt": "timebandits",
    "pdf.compression": 6,
}
PALETTE = plt.get_cmap("tab10").colors
# Beyond ten series: tab20's ten dark shades first, then their light partners, so that series
# next to each other in a paper's list never get two shades of one colour.
PALETTE_20 = plt.get_cmap("tab20").colors[0::2] + plt.get_cmap("tab20").colors[1::2]
# Curves that coincide (e.g. two baselines making the same choices) stay distinguishable: each
# position in a paper's algorithm list has its own dash pattern and marker as well as colour.
LINESTYLES = ("-", "--", "-.", ":", (0, (6, 2)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 2)),
              (0, (8, 2, 2, 2)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
# Values on a log axis at or below this fraction of the curve's largest value are zeros or
# rounding residues of a zero (e.g. 1e-15): they are masked, never drawn as a spike.
LOG_FLOOR = 1e-9


def apply_style() -> None:
    plt.rcParams.update(STYLE)


def series_style(i: int, count: int = len(PALETTE)) -> dict:
    """Colour, dash pattern and marker of the i-th of ``count`` series (beyond ten, twenty
    colours); the markers of different series sit at different places along the line, so curves
    drawn on top of each other stay visible."""
    palette = PALETTE if count <= len(PALETTE) else PALETTE_20
    return {"color": palette[i % len(palette)], "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)], "markevery": (0.02 + 0.025 * (i % 8), 0.2),
            "markersize": 4}


def algorithm_style(paper: dict, algorithm: str) -> dict:
    """The style of ``algorithm`` in every figure of its paper: that of its position in the paper
    file's list of algorithms, so an algorithm looks the same in every panel, and (up to twenty
    algorithms) no two of a paper share a colour."""
    names = list(paper["algorithms"])
    return series_style(names.index(algorithm), len(names))


def log_safe(values) -> np.ndarray:
    """``values`` for a log axis: zeros, negatives and values below LOG_FLOOR × the largest one
    become NaN (a gap in the curve)."""
    values = np.asarray(values, dtype=float).copy()
    finite = values[np.isfinite(values)]
    top = finite.max() if finite.size else 0.0
    with np.errstate(invalid="ignore"):
        values[~(values > LOG_FLOOR * top)] = np.nan
    if top <= 0:
        values[:] = np.nan
    return values


def band(ax, summary: pd.DataFrame, metric: str, label: str, style: dict, faint: bool = False,
         x_scale: float = 1.0, width: float = 1.0) -> None:
    """Mean of ``metric`` over repetitions in ``style`` (``algorithm_style``) with a band of
    ±``width`` standard errors (1: ±1 s.e.; 1.96: a 95% normal interval); ``faint`` (a run not in
    the paper's figure) draws a thinner line and a lighter band."""
    rows = summary[summary["metric"] == metric].sort_values("t")
    x = rows["t"].to_numpy() * x_scale
    ax.plot(x, rows["mean"], label=label, linewidth=0.9 if faint else 1.5, **style)
    ax.fill_between(x, rows["mean"] - width * rows["se"], rows["mean"] + width * rows["se"],
                    color=style["color"], alpha=0.1 if faint else 0.22, linewidth=0)


def legend_and_title(fig, ax, title: str, summary: pd.DataFrame, columns: int,
                     anchor: float = 0.02, bands: str = "±1 s.e.") -> None:
    """The frame every summary figure shares: ``ax``'s legend under the panels, in at most
    ``columns`` columns, and ``title`` with the number of runs behind the means and what the
    bands are."""
    handles, names = ax.get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, anchor),
               ncol=min(len(names), columns), frameon=False)
    fig.suptitle(f"{title}  (mean of {int(summary['n'].max())} runs, {bands})", fontsize=10)


def save_figure(fig, pdf: str | os.PathLike, png: str | os.PathLike) -> None:
    """Save as PDF and PNG, each atomically, without timestamps (same summary, same bytes)."""
    for path in (Path(pdf), Path(png)):
        metadata = {"CreationDate": None} if path.suffix == ".pdf" else {"Software": None}
        with atomic_output(path) as tmp:
            fig.savefig(tmp, format=path.suffix[1:], metadata=metadata, bbox_inches="tight")
    plt.close(fig)
