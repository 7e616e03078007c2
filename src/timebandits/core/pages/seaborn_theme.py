"""seaborn's theme for the house style (core.pages.plotting), written out: ``SEABORN_THEME`` is
what ``seaborn.set_theme(context="paper", style="whitegrid")`` sets, so that a figure job need
not import seaborn, whose import (scipy.stats) would double its start-up; tests/test_plotting.py
checks that it is seaborn's."""

from __future__ import annotations

# seaborn 0.13's ``set_theme(context="paper", style="whitegrid")``: its "notebook" sizes scaled
# by 0.8 (seaborn.plotting_context) and the "whitegrid" style (seaborn.axes_style), except
# ``image.cmap`` ("rocket", a colormap only seaborn registers; every heat map names its own).
_NOTEBOOK_SIZES = {
    "font.size": 12,
    "axes.labelsize": 12,
    "axes.titlesize": 12,
    "xtick.labelsize": 11,
    "ytick.labelsize": 11,
    "legend.fontsize": 11,
    "legend.title_fontsize": 12,
    "axes.linewidth": 1.25,
    "grid.linewidth": 1,
    "lines.linewidth": 1.5,
    "lines.markersize": 6,
    "patch.linewidth": 1,
    "xtick.major.width": 1.25,
    "ytick.major.width": 1.25,
    "xtick.minor.width": 1,
    "ytick.minor.width": 1,
    "xtick.major.size": 6,
    "ytick.major.size": 6,
    "xtick.minor.size": 4,
    "ytick.minor.size": 4,
}
SEABORN_THEME = {
    **{key: value * 0.8 for key, value in _NOTEBOOK_SIZES.items()},
    "figure.facecolor": "white",
    "axes.labelcolor": ".15",
    "xtick.direction": "out",
    "ytick.direction": "out",
    "xtick.color": ".15",
    "ytick.color": ".15",
    "axes.axisbelow": True,
    "grid.linestyle": "-",
    "text.color": ".15",
    "font.family": ["sans-serif"],
    "font.sans-serif": [
        "Arial",
        "DejaVu Sans",
        "Liberation Sans",
        "Bitstream Vera Sans",
        "sans-serif",
    ],
    "lines.solid_capstyle": "round",
    "patch.edgecolor": "w",
    "patch.force_edgecolor": True,
    "xtick.top": False,
    "ytick.right": False,
    "axes.grid": True,
    "axes.facecolor": "white",
    "axes.edgecolor": ".8",
    "grid.color": ".8",
    "axes.spines.left": True,
    "axes.spines.bottom": True,
    "axes.spines.right": True,
    "axes.spines.top": True,
    "xtick.bottom": False,
    "ytick.left": False,
}
