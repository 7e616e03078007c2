"""One house style for every figure of every paper (seaborn's theme and palettes): sizes a
paper uses (3.3 in for one column, 7 in for two) with text of at least 7 pt at that size, each
algorithm's own colour, dash pattern and marker, one band convention (±1 standard error over
runs, stated in every caption and in the legend), and curves safe for log axes. A band too
narrow to see under its line is said so in the legend (``note_hidden_bands``, applied when a
figure is saved: core.pages.figure_files, which also gives tick labels their one convention),
and a zero on a log axis is marked at the axis's foot rather than left as a gap
(``mark_zeros``).

seaborn's theme is written out (core.pages.seaborn_theme) rather than set by importing seaborn,
whose import (scipy.stats) would double a figure job's start-up; tests/test_plotting.py checks
that ``apply_style`` leaves matplotlib exactly as ``seaborn.set_theme`` does. Only a heat map
imports seaborn (``heatmap``)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from cycler import cycler  # noqa: E402
from matplotlib import colormaps  # noqa: E402

from timebandits.core.pages.seaborn_theme import SEABORN_THEME  # noqa: E402

# Figure widths in inches: one column and two columns of a paper. Figures are drawn at the size
# they are printed at, so font sizes below are the sizes a reader of the paper sees.
SINGLE_COLUMN = 3.3
DOUBLE_COLUMN = 7.0
FONT_SIZE = 8
# The one band convention of every figure with bands (mean over runs ± 1 standard error); each
# caption states it (BAND_CAPTION) and each legend repeats it with the number of runs.
BAND_WIDTH = 1.0
BANDS = "±1 s.e."
BAND_CAPTION = "Lines: mean over runs; bands: ±1 standard error of the mean."
# A band shows when it sticks out of its line by this many points on each side; the legend says
# when bands do not (the runs agree too closely for ±1 s.e. to be wider than the line).
SHOWS = 0.6
HIDDEN_BANDS = f"; bands ({BANDS}) narrower than the lines"
SOME_HIDDEN_BANDS = f", bands {BANDS} (where none shows, narrower than its line)"
STYLE = {
    "figure.dpi": 110,
    # 7 in × 200 dpi = 1,400 px: a double-column figure fills a 1,400 px page and no more.
    "savefig.dpi": 200,
    "font.size": FONT_SIZE,
    "axes.titlesize": FONT_SIZE,
    "axes.labelsize": FONT_SIZE,
    "xtick.labelsize": FONT_SIZE - 1,
    "ytick.labelsize": FONT_SIZE - 1,
    "legend.fontsize": FONT_SIZE - 1,
    "legend.title_fontsize": FONT_SIZE - 1,
    "lines.linewidth": 1.2,
    "axes.formatter.use_mathtext": False,
    "axes.formatter.useoffset": False,
    "mathtext.fontset": "dejavusans",
    # Fixed metadata so the same summary gives the same bytes.
    "svg.hashsalt": "timebandits",
    "pdf.compression": 6,
    # TrueType (Type 42) fonts in the PDFs, not Type 3, which many publishers reject.
    "pdf.fonttype": 42,
}
PALETTE = tuple(colormaps["tab10"].colors)  # = seaborn.color_palette("tab10")
# Beyond ten series: tab10, then seaborn's "dark" shades of another eight hues and two greys, so
# every one of twenty algorithms gets a strong colour (never tab20's pale partners, which vanish
# on white); each also has its own dash pattern and marker.
PALETTE_20 = PALETTE + tuple(colormaps["Dark2"].colors) + ((0.15, 0.15, 0.15), (0.55, 0.55, 0.55))
# Colours of things that are not algorithms (bars of a distribution, instances), never mistaken
# for a curve.
CATEGORY_PALETTE = tuple(colormaps["Set2"].colors)
# Heat maps: a diverging palette centred on a reference value (e.g. the oracle's or zero).
DIVERGING = "vlag"
# Curves that coincide (e.g. two baselines making the same choices) stay distinguishable: each
# position in a paper's algorithm list has its own dash pattern and marker as well as colour.
LINESTYLES = (
    "-",
    "--",
    "-.",
    ":",
    (0, (6, 2)),
    (0, (3, 1, 1, 1, 1, 1)),
    (0, (1, 2)),
    (0, (8, 2, 2, 2)),
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
# Values on a log axis at or below this fraction of the curve's largest value are zeros or
# rounding residues of a zero (e.g. 1e-15): they are masked, never drawn as a spike.
LOG_FLOOR = 1e-9


def apply_style() -> None:
    """seaborn's theme (white grid, paper context; ``SEABORN_THEME``) with the house palette,
    sizes and fixed metadata: what ``seaborn.set_theme(context="paper", style="whitegrid",
    palette=PALETTE, rc=STYLE)`` sets."""
    plt.rcParams.update(SEABORN_THEME)
    plt.rcParams["axes.prop_cycle"] = cycler("color", list(PALETTE))
    plt.rcParams.update(STYLE)


def heatmap(data, **options):
    """``seaborn.heatmap`` (seaborn imported here: only a figure with a heat map pays for it)."""
    import seaborn as sns

    return sns.heatmap(data, **options)


def colormap(name: str):
    """A colormap by name, seaborn's included (``DIVERGING`` is seaborn's "vlag")."""
    import seaborn as sns

    return sns.color_palette(name, as_cmap=True)


def new_figure(width: str = "double", height: float = 2.6, **subplots):
    """``plt.subplots`` at a paper's size: ``width`` "single" (3.3 in) or "double" (7 in), in the
    house style, with constrained layout (labels never cut off, nothing wider than asked)."""
    apply_style()
    inches = {"single": SINGLE_COLUMN, "double": DOUBLE_COLUMN}[width]
    return plt.subplots(figsize=(inches, height), layout="constrained", **subplots)


def series_style(i: int, count: int = len(PALETTE)) -> dict:
    """Colour, dash pattern and marker of the i-th of ``count`` series (beyond ten, twenty
    colours); the markers of different series sit at different places along the line, so curves
    drawn on top of each other stay visible."""
    palette = PALETTE if count <= len(PALETTE) else PALETTE_20
    return {
        "color": palette[i % len(palette)],
        "linestyle": LINESTYLES[i % len(LINESTYLES)],
        "marker": MARKERS[i % len(MARKERS)],
        "markevery": (0.02 + 0.025 * (i % 8), 0.2),
        "markersize": 4,
    }


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


def band(
    ax, summary: pd.DataFrame, metric: str, label: str, style: dict, faint: bool = False
) -> None:
    """Mean of ``metric`` over repetitions in ``style`` (``algorithm_style``) with the house band
    of ±1 standard error (none for an exact curve, whose s.e. is 0); ``faint`` (a run not in
    the paper's figure) draws a thin, half-transparent line without markers and a lighter
    band."""
    rows = summary[summary["metric"] == metric].sort_values("t")
    x = rows["t"].to_numpy()
    if faint:
        style = {**style, "marker": None, "alpha": 0.5}
    (line,) = ax.plot(x, rows["mean"], label=label, linewidth=0.8 if faint else 1.3, **style)
    half = BAND_WIDTH * rows["se"].to_numpy()
    if not (half > 0).any():
        return
    low, high = rows["mean"].to_numpy(dtype=float) - half, rows["mean"].to_numpy() + half
    shade = ax.fill_between(
        x, low, high, color=style["color"], alpha=0.06 if faint else 0.2, linewidth=0
    )
    shade.band_of = (line, x, low, high)


def band_shows(ax, shade) -> bool:
    """Whether a band (``shade``, drawn by :func:`band`) sticks out of its line by at least
    SHOWS points on each side somewhere in view, measured across the line (a steep stretch of
    the line is thicker along y), at the axes' current size and limits."""
    line, x, low, high = shade.band_of
    ax.get_xlim(), ax.get_ylim()  # autoscaled limits, before the transform is read
    with np.errstate(invalid="ignore", divide="ignore"):
        bottom = ax.transData.transform(np.column_stack([x, low]))
        top = ax.transData.transform(np.column_stack([x, high]))
        middle = ax.transData.transform(np.column_stack([x, line.get_ydata()]))
        dx, dy = np.gradient(middle[:, 0]), np.gradient(middle[:, 1])
        across = (top[:, 1] - bottom[:, 1]) * np.abs(dx) / np.hypot(dx, dy)
    box = ax.bbox
    inside = (
        (middle[:, 0] >= box.x0)
        & (middle[:, 0] <= box.x1)
        & (middle[:, 1] >= box.y0)
        & (middle[:, 1] <= box.y1)
    )  # a curve off scale shows no band there
    width = np.nanmax(across[inside], initial=0.0) * 72.0 / ax.figure.dpi
    return bool(width > line.get_linewidth() + 2 * SHOWS)


def note_hidden_bands(fig) -> None:
    """Where bands of ``fig`` are too narrow to see (:func:`band_shows`), its legend titles
    (``runs_note``) say so: "bands … narrower than the lines" when no band shows, "(where none
    shows, narrower than its line)" when some do not."""
    shows = [
        band_shows(ax, shade)
        for ax in fig.axes
        for shade in ax.collections
        if hasattr(shade, "band_of")
    ]
    if all(shows):
        return
    note = HIDDEN_BANDS if not any(shows) else SOME_HIDDEN_BANDS
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    for legend in legends:
        title = legend.get_title()
        title.set_text(title.get_text().replace(f", bands {BANDS}", note))


def mark_zeros(ax, x, values, color, label: str | None = None):
    """Where ``values`` are exactly 0 (e.g. every run's simple regret), which a log axis cannot
    show (:func:`log_safe` leaves a gap), an open triangle at the foot of ``ax`` in ``color``;
    returns the markers (a legend handle, named ``label``), or None when there is no zero."""
    x, values = np.asarray(x, dtype=float), np.asarray(values, dtype=float)
    zero = values == 0
    if not zero.any():
        return None
    (marks,) = ax.plot(
        x[zero],
        np.zeros(zero.sum()),
        linestyle="none",
        marker="v",
        markersize=5,
        markerfacecolor="white",
        markeredgecolor=color,
        markeredgewidth=1.0,
        clip_on=False,
        transform=ax.get_xaxis_transform(),
        zorder=4,
        label=label,
    )
    return marks


def runs_note(summary: pd.DataFrame, shown: str = "bands") -> str:
    """ "mean of 50 runs, bands ±1 s.e.": what a legend of a band plot says of its curves
    (``shown`` "bars" for error bars)."""
    return f"mean of {int(summary['n'].max())} runs, {shown} {BANDS}"


def legend_below(fig, ax, summary: pd.DataFrame | None, columns: int) -> None:
    """``ax``'s legend under the panels (outside them, in at most ``columns`` columns), titled
    with the number of runs and the band convention when ``summary`` is given. Figures carry no
    title: the notebook, the report and the front page give it with the caption."""
    handles, names = ax.get_legend_handles_labels()
    fig.legend(
        handles,
        names,
        loc="outside lower center",
        ncol=min(len(names), columns),
        frameon=False,
        title=runs_note(summary) if summary is not None else None,
    )
