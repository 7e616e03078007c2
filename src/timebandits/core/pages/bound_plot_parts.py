"""The parts both bound plots (``bound_plots``) are drawn from: values made safe for a log
axis, the mean / bound axis, the vacuous region shaded grey (bound not below the trivial bound),
the line above a plot and the legend under it, and which bounds a plot keeps when there are
more than it shows."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import LogFormatter

from timebandits.core.pages.bound_names import natural_order
from timebandits.core.pages.bound_tables import worst_ratio
from timebandits.core.pages.display import markdown_text
from timebandits.core.pages.plotting import log_safe

SHADE = "0.9"


def log_finite(values) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    return log_safe(np.where(np.isfinite(values), values, np.nan))


def ratio_axis(ax) -> None:
    """The mean / bound axis: log, the line at 1, ticks between powers of ten (labelled only
    when the axis spans little) as plain numbers, never "6 × 10⁰"."""
    ax.set_yscale("log")
    ax.axhline(1.0, color="0.3", linewidth=0.8)
    ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(1, 0.4)))
    ax.set_ylabel("mean / bound")


def plot_drawable(ax, x, y, **style) -> None:
    """``ax.plot`` unless ``y`` has nothing to draw (matplotlib's ``markevery`` fails there)."""
    if np.isfinite(np.asarray(y, dtype=float)).any():
        ax.plot(x, y, **style)


def shade_vacuous(ax, t: np.ndarray, vacuous: np.ndarray) -> None:
    """Grey over the runs of checkpoints where ``vacuous``, to the geometric midpoints."""
    edges = np.sqrt(t[1:] * t[:-1]) if len(t) > 1 else np.array([])
    left, right = np.r_[t[0], edges], np.r_[edges, t[-1]]
    start = None
    for i, flag in enumerate(list(vacuous) + [False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            ax.axvspan(left[start], right[i - 1], color=SHADE, zorder=0, linewidth=0)
            start = None


def title_line(title: str, note: str) -> None:
    """The line above a plot: its title in bold, then ``note`` (both plain text)."""
    if title or note:
        display(Markdown(f"**{markdown_text(title)}** {markdown_text(note.strip())}".strip()))


def legend_under(fig, handles: list) -> None:
    longest = max(len(h.get_label()) for h in handles)
    columns = 2 if longest > 34 else 3 if longest > 24 else 4
    fig.legend(handles=handles, loc="outside lower center", ncol=columns, frameon=False)


def closest_bounds(rows: pd.DataFrame, names: list, most: int) -> list:
    """The ``most`` bounds closest to being exceeded (largest informative mean/bound)."""
    if len(names) <= most:
        return names
    score = {
        name: (-math.inf if (w := worst_ratio(rows[rows["bound"] == name])) is None else w["ratio"])
        for name in names
    }
    return sorted(sorted(names, key=lambda n: -score[n])[:most], key=natural_order)
