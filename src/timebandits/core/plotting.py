"""One plotting style for every figure, band plots of summaries, and atomic saving."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
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
FAINT = {"color": "0.55", "linestyle": "--", "linewidth": 0.9}


def apply_style() -> None:
    plt.rcParams.update(STYLE)


def band(ax, summary: pd.DataFrame, metric: str, label: str, color=None, faint: bool = False,
         x_scale: float = 1.0) -> None:
    """Mean of ``metric`` over repetitions with a ±1 standard-error band."""
    rows = summary[summary["metric"] == metric].sort_values("t")
    x = rows["t"].to_numpy() * x_scale
    style = dict(FAINT) if faint else {"color": color, "linewidth": 1.4}
    ax.plot(x, rows["mean"], label=label, **style)
    ax.fill_between(x, rows["mean"] - rows["se"], rows["mean"] + rows["se"],
                    color=style["color"], alpha=0.12 if faint else 0.25, linewidth=0)


def save_figure(fig, pdf: str | os.PathLike, png: str | os.PathLike) -> None:
    """Save as PDF and PNG, each atomically, without timestamps (same summary, same bytes)."""
    for path in (Path(pdf), Path(png)):
        metadata = {"CreationDate": None} if path.suffix == ".pdf" else {"Software": None}
        with atomic_output(path) as tmp:
            fig.savefig(tmp, format=path.suffix[1:], metadata=metadata, bbox_inches="tight")
    plt.close(fig)
