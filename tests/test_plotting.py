"""The house style is seaborn's theme (core.pages.plotting writes it out, so that a figure job does
not import seaborn): after ``apply_style`` matplotlib is set exactly as ``seaborn.set_theme`` sets
it, and the palettes are seaborn's."""

from __future__ import annotations

import io

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns

from timebandits.core.pages import figure_files, plotting, seaborn_theme, ticks


def _settings() -> dict:
    return {key: value for key, value in mpl.rcParams.items() if key != "image.cmap"}


@pytest.fixture()
def fresh_rc():
    with mpl.rc_context():
        mpl.rcdefaults()
        yield


def test_apply_style_sets_what_seaborn_set_theme_sets(fresh_rc):
    plotting.apply_style()
    ours = _settings()
    mpl.rcdefaults()
    sns.set_theme(
        context="paper", style="whitegrid", palette=list(plotting.PALETTE), rc=plotting.STYLE
    )
    theirs = _settings()
    differing = {key: (ours[key], theirs[key]) for key in ours if ours[key] != theirs[key]}
    assert differing == {}


def test_the_written_out_theme_is_seaborns_paper_whitegrid():
    expected = {**sns.plotting_context("paper"), **sns.axes_style("whitegrid")}
    expected.pop("image.cmap")
    assert seaborn_theme.SEABORN_THEME == expected


def test_palettes_are_seaborns():
    assert list(plotting.PALETTE) == sns.color_palette("tab10")
    assert list(plotting.CATEGORY_PALETTE) == sns.color_palette("Set2")
    assert list(plotting.PALETTE_20[10:18]) == sns.color_palette("Dark2")


def test_log_ticks_are_matplotlibs_labels_in_unicode_superscripts(fresh_rc, tmp_path):
    """PowerOfTen writes what LogFormatterSciNotation writes in mathtext (10^-3, 2×10^3, 10^0),
    and save_figure puts it on every log axis, leaving no tick label for the mathtext parser."""
    from matplotlib.ticker import LogFormatterSciNotation
    from PIL import Image

    fig, ax = plotting.new_figure("single")
    ax.set_xscale("log")
    ax.set_xlim(1e3, 5e3)
    expected = {1e3: "10³", 2e3: "2×10³", 3e3: "3×10³", 1.0: "10⁰", 1e-3: "10⁻³"}
    for cls in (LogFormatterSciNotation, ticks.PowerOfTen):
        formatter = cls(10.0, labelOnlyBase=False)
        formatter.set_axis(ax.xaxis)
        formatter.set_locs([1e3, 2e3, 3e3])
        labels = {x: formatter(x) for x in expected}
        if cls is LogFormatterSciNotation:
            assert labels[2e3] == r"$\mathdefault{2\times10^{3}}$"
        else:
            assert labels == expected
    ax.plot([1e3, 5e3], [1, 2])
    ax.set_yscale("log")
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert isinstance(ax.xaxis.get_major_formatter(), ticks.PowerOfTen)
    assert isinstance(ax.yaxis.get_minor_formatter(), ticks.PowerOfTen)
    labels = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    assert labels and not any("$" in label for label in labels), labels
    # the tight box measured once, at the PNG's resolution: one column and its padding, no more
    pad = 2 * mpl.rcParams["savefig.pad_inches"]
    assert Image.open(tmp_path / "f.png").size[0] <= (plotting.SINGLE_COLUMN + pad) * 200


def test_save_figure_lays_out_once_and_draws_only_the_pdf_again(fresh_rc, tmp_path, monkeypatch):
    """Two draws: the layout (whose pixels become the PNG) and the PDF. A layout engine left in
    place (even matplotlib's placeholder for "none") makes each savefig lay the figure out
    again."""
    from matplotlib.figure import Figure

    draws = []
    draw = Figure.draw
    monkeypatch.setattr(
        Figure, "draw", lambda self, renderer: draws.append(1) or draw(self, renderer)
    )
    fig, ax = plotting.new_figure("single")
    ax.plot([1, 2], [3, 4])
    assert fig.get_layout_engine() is not None  # the style lays figures out (constrained)
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert len(draws) == 2
    assert (tmp_path / "f.pdf").stat().st_size > 0 and (tmp_path / "f.png").stat().st_size > 0


def _figure(outside: bool):
    fig, ax = plotting.new_figure("single")
    ax.plot([1, 2, 3], [3, 1, 4], label="a curve")
    ax.set_xlabel("time slot $t$")
    ax.legend()
    if outside:  # a note past the canvas' right edge: only a new draw can show it
        fig.text(1.05, 0.5, "beyond the canvas")
    return fig


@pytest.mark.parametrize("outside", [False, True])
def test_the_png_is_the_picture_savefig_draws(fresh_rc, tmp_path, outside):
    """The PNG cut from the layout draw has savefig's size, dpi and picture (up to
    antialiasing at a sub-pixel offset); a drawing that reaches past the canvas is drawn
    again by savefig, so nothing is cut off."""
    from PIL import Image

    figure_files.save_figure(_figure(outside), tmp_path / "f.pdf", tmp_path / "f.png")
    fig = _figure(outside)
    ticks.plain_tick_labels(fig)
    fig.set_dpi(plt.rcParams["savefig.dpi"])
    fig.savefig(tmp_path / "g.png", bbox_inches="tight")
    ours, theirs = Image.open(tmp_path / "f.png"), Image.open(tmp_path / "g.png")
    assert ours.size == theirs.size and ours.info["dpi"] == pytest.approx(theirs.info["dpi"])
    assert ours.size[0] > (1.2 if outside else 1.0) * fig.get_figwidth() * fig.dpi
    difference = np.abs(np.asarray(ours, dtype=float) - np.asarray(theirs, dtype=float))
    # pixels that differ by more than 100 of 255: 0.1% here (antialiasing at savefig's offset of
    # a third of a pixel); 0.6% when the cut is one pixel off, 2% at three
    assert (difference.max(axis=2) > 100).mean() < 0.003
    shown = Image.open(io.BytesIO(figure_files.png_bytes(_figure(outside))))  # a notebook's picture
    assert np.array_equal(np.asarray(shown), np.asarray(ours))


def _log_figure(decades: float, minor_grid: bool = False):
    fig, axes = plotting.new_figure("double", ncols=2, sharex=True)
    for ax in axes:
        ax.plot([1, 10**decades], [1, 10**decades], label="a curve")
        ax.set(xscale="log", yscale="log", xlabel="round $t$", ylabel="regret")
    if minor_grid:  # one of two axes sharing the x ticks draws minor grid lines
        axes[1].grid(True, which="minor", axis="x")
    return fig, axes


@pytest.mark.parametrize(
    "decades, minor_grid, dropped",
    [
        (7, False, True),  # unlabelled, unmarked, no grid: nothing to draw
        (0.7, False, False),  # less than a decade: minor ticks are labelled (2×10⁰ …)
        (7, True, False),  # an axes sharing the ticks draws their grid lines
    ],
)
def test_minor_ticks_that_draw_nothing_are_not_made_and_the_files_are_the_same(
    fresh_rc, tmp_path, monkeypatch, decades, minor_grid, dropped
):
    """drop_blank_minor_ticks leaves the PDF and PNG the same bytes; it only spares matplotlib
    the tick objects of minor ticks without label, mark or grid line."""
    from matplotlib.ticker import NullLocator

    plotting.apply_style()
    fig, axes = _log_figure(decades, minor_grid)
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert isinstance(axes[0].xaxis.get_minor_locator(), NullLocator) is dropped
    assert isinstance(axes[1].xaxis.get_minor_locator(), NullLocator) is dropped
    monkeypatch.setattr(figure_files, "drop_blank_minor_ticks", lambda fig: None)
    fig, axes = _log_figure(decades, minor_grid)
    figure_files.save_figure(fig, tmp_path / "g.pdf", tmp_path / "g.png")
    assert not isinstance(axes[0].xaxis.get_minor_locator(), NullLocator)
    for ext in ("pdf", "png"):
        assert (tmp_path / f"f.{ext}").read_bytes() == (tmp_path / f"g.{ext}").read_bytes()


def _band_figure(se: float, other_se: float | None = None):
    """One curve rising to 100 with a band of ±``se`` (and a second one of ±``other_se``), the
    house legend below."""
    fig, ax = plotting.new_figure("single")
    t = np.arange(1.0, 101.0)
    for name, half in (("a", se), ("b", other_se)):
        if half is not None:
            summary = pd.DataFrame({"metric": "regret", "t": t, "mean": t, "se": half, "n": 20})
            plotting.band(ax, summary, "regret", name, plotting.series_style(0))
    plotting.legend_below(fig, ax, summary, columns=2)
    return fig


@pytest.mark.parametrize(
    "se, other_se, title",
    [
        (10.0, None, "mean of 20 runs, bands ±1 s.e."),
        (0.05, None, "mean of 20 runs; bands (±1 s.e.) narrower than the lines"),
        (10.0, 0.05, "mean of 20 runs, bands ±1 s.e. (where none shows, narrower than its line)"),
    ],
)
def test_the_legend_says_when_a_band_is_too_narrow_to_see(fresh_rc, tmp_path, se, other_se, title):
    """±0.05 on a 100-high axis is a hundredth of a point: under the line. ±10 shows."""
    fig = _band_figure(se, other_se)
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert fig.legends[0].get_title().get_text() == title


def test_an_exact_curve_draws_no_band_and_a_steep_band_is_measured_across(fresh_rc):
    fig, ax = plotting.new_figure("single")
    t = np.arange(1.0, 101.0)
    exact = pd.DataFrame({"metric": "m", "t": t, "mean": t, "se": 0.0, "n": 1})
    plotting.band(ax, exact, "m", "exact", plotting.series_style(0))
    assert not ax.collections
    # a wall: vertically 1,000 tall, across the line nothing
    steep = pd.DataFrame(
        {
            "metric": "m",
            "t": np.r_[1.0, 1.0 + 1e-9, 100],
            "mean": [0, 1e3, 1e3],
            "se": [0.0, 0.0, 0.01],
            "n": 1,
        }
    )
    plotting.band(ax, steep, "m", "steep", plotting.series_style(1))
    assert not plotting.band_shows(ax, ax.collections[0])


def test_zeros_on_a_log_axis_are_marked_at_its_foot(fresh_rc):
    fig, ax = plotting.new_figure("single")
    ax.set_yscale("log")
    marks = plotting.mark_zeros(ax, [1, 2, 3], [0.5, 0.0, 0.1], "C0", "zero in every run")
    assert list(marks.get_xdata()) == [2.0] and list(marks.get_ydata()) == [0.0]
    assert marks.get_transform() == ax.get_xaxis_transform() and not marks.get_clip_on()
    assert plotting.mark_zeros(ax, [1, 2], [0.5, 0.1], "C0") is None
