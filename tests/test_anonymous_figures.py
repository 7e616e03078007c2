"""Paper 002's figures and captions as a reader sees them (issue 23): double-column width, no
burned-in title, no raw TeX or "+-" in any title, caption or legend, the band convention stated in
every caption of a figure with bands, and no detached offset on a linear axis."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

from timebandits.anonymous import figures as anonymous_figures
from timebandits.core.config import load_paper
from timebandits.core.plotting import BAND_CAPTION, DOUBLE_COLUMN

PAPER = load_paper("anonymous")
BAND_KINDS = ("regret_sweep", "label_game_regret")
# Code or TeX a reader must not see outside mathtext: x^2, s_1, \lambda, +-.
RAW = re.compile(r"\^|_|\\|\+-")


def _summary(spec: dict) -> pd.DataFrame:
    """A smooth made-up summary for every curve of ``spec`` (50 runs, t up to 10^6)."""
    t = np.unique(np.geomspace(1, 1e6, 60).astype(int))
    return pd.concat([pd.DataFrame({"algorithm": alg, "metric": "regret", "t": t, "n": 50,
                                    "mean": (i + 1) * 100 * np.log1p(t), "se": 5.0})
                      for i, alg in enumerate(spec["algorithms"] + spec.get("faint", []))],
                     ignore_index=True)


@pytest.mark.parametrize("figure_id", list(PAPER["figures"]))
def test_titles_and_captions_are_plain_text(figure_id):
    spec = PAPER["figures"][figure_id]
    for text in (spec["title"], spec["caption"]):
        assert not RAW.search(text), text
    if spec["kind"] in BAND_KINDS:
        assert BAND_CAPTION in spec["caption"]


def test_algorithm_labels_are_plain_text():
    for algorithm in PAPER["algorithms"].values():
        assert not RAW.search(algorithm["label"]), algorithm["label"]


@pytest.mark.parametrize("figure_id", ["fig2a", "fig3b", "fig4d"])
def test_a_regret_panel_is_double_column_without_title_or_offset(figure_id):
    spec = PAPER["figures"][figure_id]
    fig = anonymous_figures.regret_sweep(spec, PAPER, _summary(spec))
    assert fig.get_size_inches()[0] == pytest.approx(DOUBLE_COLUMN)
    assert fig._suptitle is None
    fig.canvas.draw()
    linear_ax = fig.axes[0]
    for axis in (linear_ax.xaxis, linear_ax.yaxis):
        assert axis.get_major_formatter().get_offset() == ""
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("(option)" in label for label in labels) == bool(spec.get("faint"))
    assert not any(RAW.search(re.sub(r"\$[^$]*\$", "", label)) for label in labels), labels
    # Options are drawn thin and half-transparent: they read as faint.
    faint = [line for line in linear_ax.get_lines() if "(option)" in line.get_label()]
    assert all(line.get_alpha() == 0.5 and line.get_linewidth() < 1 for line in faint)


def test_no_figure_text_is_below_seven_points():
    spec = PAPER["figures"]["fig2a"]
    fig = anonymous_figures.regret_sweep(spec, PAPER, _summary(spec))
    fig.canvas.draw()
    texts = [t for t in fig.findobj(Text) if t.get_text()]
    assert min(t.get_fontsize() for t in texts) >= 7
