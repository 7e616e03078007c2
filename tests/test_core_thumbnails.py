"""The front page's thumbnails (core/thumbnails.py): the main panel of a figure, cut from the
pixels ``save_figure`` drew (the figure is not drawn again), at a scale where its text reads,
small in bytes; the panel is the first in reading order with curves, else the one with the most
annotations, and a figure of one panel is shown whole."""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

from timebandits.core.pages import figure_files, plotting, thumbnails

RED, GREEN = (0.9, 0.1, 0.1), (0.1, 0.7, 0.1)


@pytest.fixture()
def style():
    with mpl.rc_context():
        plotting.apply_style()
        yield


def _two_panels(outside: bool = False):
    """Panel (a), bars, on top; below it (b), red curves, and (c), green curves."""
    fig = plt.figure(figsize=(plotting.DOUBLE_COLUMN, 4.2), layout="constrained")
    grid = fig.add_gridspec(2, 2)
    right, left = fig.add_subplot(grid[1, 1]), fig.add_subplot(grid[1, 0])  # made out of order
    top = fig.add_subplot(grid[0, :])
    top.bar(range(5), [3, 1, 2, 5, 4], color="grey")
    top.set_title("(a) bars", loc="left")
    for ax, colour, name in ((left, RED, "(b) red curves"), (right, GREEN, "(c) green curves")):
        for k in range(3):
            ax.plot(np.arange(50), (k + 1) * np.sqrt(np.arange(50)), color=colour, lw=2)
        ax.set(title=name, xlabel="round $t$", ylabel="regret")
    if outside:  # drawn past the canvas: save_figure draws its PNG again, the thumbnail too
        fig.text(1.05, 0.5, "beyond the canvas")
    return fig, left


def _save(fig, tmp_path):
    canvas = fig.canvas
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    thumbnails.save_thumbnail(fig, canvas, tmp_path / "thumbnails" / "f.png")
    return Image.open(tmp_path / "thumbnails" / "f.png")


def _share(image, colour) -> float:
    """The share of ``image``'s pixels within 40 of ``colour`` (RGB, 0..1) in every channel."""
    pixels = np.asarray(image.convert("RGB"), dtype=float)
    return float(np.mean(np.all(np.abs(pixels - 255 * np.array(colour)) < 40, axis=-1)))


def test_the_main_panel_is_the_first_with_curves_in_reading_order(style):
    fig, left = _two_panels()
    assert thumbnails.main_axes(fig) is left  # not the bars above it, nor (c) made before it
    plt.close(fig)


def test_without_curves_the_panel_with_most_annotations_and_one_panel_is_shown_whole(style):
    fig, axes = plt.subplots(3, 1)
    for ax, count in zip(axes, (1, 4, 4)):
        for k in range(count):
            ax.text(k / 4, 0.5, f"{k}")
    assert thumbnails.main_axes(fig) is axes[1]
    plt.close(fig)
    fig, ax = plt.subplots()
    ax.plot([1, 2])
    assert thumbnails.main_axes(fig) is None
    plt.close(fig)


@pytest.mark.parametrize("outside", [False, True])
def test_the_thumbnail_is_the_panel_small_and_legible(style, tmp_path, outside):
    fig, left = _two_panels(outside)
    thumb = _save(fig, tmp_path)
    width, height = fig.get_size_inches() * plt.rcParams["savefig.dpi"]
    # panel (b) only: its red curves, not (c)'s green ones nor (a)'s bars
    assert _share(thumb, RED) > 0.01 and _share(thumb, GREEN) == 0
    # shrunk by SCALE, not to a fixed width: its 7 pt tick labels are 10 px high, not 4
    assert thumb.width == pytest.approx(thumbnails.SCALE * width / 2, rel=0.15)
    assert thumb.height < thumbnails.SCALE * height / 2 + 30
    assert thumb.mode == "P" and (tmp_path / "thumbnails/f.png").stat().st_size < 12_000


def test_the_thumbnail_does_not_draw_the_figure_again(style, tmp_path, monkeypatch):
    fig, _ = _two_panels()
    canvas = fig.canvas
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    draws = []
    original = Figure.draw
    monkeypatch.setattr(
        Figure, "draw", lambda self, renderer: draws.append(1) or original(self, renderer)
    )
    thumbnails.save_thumbnail(fig, canvas, tmp_path / "t.png")
    assert draws == []
    # drawn past the canvas, the PNG was drawn again, cropped: the thumbnail draws once more
    fig, _ = _two_panels(outside=True)
    canvas = fig.canvas
    figure_files.save_figure(fig, tmp_path / "g.pdf", tmp_path / "g.png")
    draws.clear()
    thumbnails.save_thumbnail(fig, canvas, tmp_path / "u.png")
    assert draws == [1]


def test_a_wide_figure_of_one_panel_is_shown_whole_within_the_box(style, tmp_path):
    fig, ax = plotting.new_figure("double", height=1.2)
    ax.plot(np.arange(10), color=RED)
    ax.set_xlabel("a label at the bottom")
    thumb = _save(fig, tmp_path)
    assert thumb.width == thumbnails.BOX[0] and thumb.height < thumbnails.BOX[1]
