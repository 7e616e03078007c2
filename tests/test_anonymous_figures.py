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
from timebandits.anonymous import report
from timebandits.core.build.preflight import load_paper
from timebandits.core.pages.figure_files import save_figure
from timebandits.core.pages.plotting import BAND_CAPTION, DOUBLE_COLUMN

PAPER = load_paper("anonymous")
BAND_KINDS = ("regret_sweep", "label_game_regret")
# Code or TeX a reader must not see outside mathtext: x^2, s_1, \lambda, +-.
RAW = re.compile(r"\^|_|\\|\+-")


def _summary(spec: dict) -> pd.DataFrame:
    """A smooth made-up summary for every curve of ``spec`` (50 runs, t up to 10^6)."""
    t = np.unique(np.geomspace(1, 1e6, 60).astype(int))
    return pd.concat(
        [
            pd.DataFrame(
                {
                    "algorithm": alg,
                    "metric": "regret",
                    "t": t,
                    "n": 50,
                    "mean": (i + 1) * 100 * np.log1p(t),
                    "se": 5.0,
                }
            )
            for i, alg in enumerate(spec["algorithms"] + spec.get("faint", []))
        ],
        ignore_index=True,
    )


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
def test_a_regret_panel_is_double_column_without_title_or_offset(figure_id, tmp_path):
    spec = PAPER["figures"][figure_id]
    fig = anonymous_figures.regret_sweep(spec, PAPER, _summary(spec))
    assert fig.get_size_inches()[0] == pytest.approx(DOUBLE_COLUMN)
    assert fig._suptitle is None
    save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")  # which labels the ticks
    linear_ax = fig.axes[0]
    for axis in (linear_ax.xaxis, linear_ax.yaxis):
        assert axis.get_major_formatter().get_offset() == ""
    assert "1M" in [label.get_text() for label in linear_ax.get_xticklabels()]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("(option" in label for label in labels) == bool(spec.get("faint"))
    assert not any(RAW.search(re.sub(r"\$[^$]*\$", "", label)) for label in labels), labels
    # Options are drawn thin and half-transparent: they read as faint.
    faint = [line for line in linear_ax.get_lines() if "(option" in line.get_label()]
    assert all(line.get_alpha() == 0.5 and line.get_linewidth() < 1 for line in faint)


def test_no_figure_text_is_below_seven_points():
    spec = PAPER["figures"]["fig2a"]
    fig = anonymous_figures.regret_sweep(spec, PAPER, _summary(spec))
    fig.canvas.draw()
    texts = [t for t in fig.findobj(Text) if t.get_text()]
    assert min(t.get_fontsize() for t in texts) >= 7


@pytest.fixture(scope="module")
def table_root(tmp_path_factory):
    """The paper's tables written where a notebook reads them, under a scratch root."""
    root = tmp_path_factory.mktemp("scale")
    folder = root / "results" / "tables" / "anonymous"
    folder.mkdir(parents=True)
    for name in ("instances", "theorem1", "label_games", "theorem2"):
        report.table(name, PAPER, {}, None).to_csv(folder / f"{name}.csv", index=False)
    return f"{root}/"


@pytest.mark.parametrize("name", list(report.VIEWS))
def test_a_table_view_has_readable_headings(table_root, name):
    frame = report.view(table_root, name)
    assert list(frame.columns) == list(report.VIEWS[name].values())
    assert len(frame.columns) <= 13
    assert not any(RAW.search(c) for c in frame.columns)


def test_theorem1_overview_one_row_per_instance_and_alpha_above_4(table_root):
    frame = report.theorem1_overview(table_root)
    instances = report.view(table_root, "instances")["instance"]
    assert list(frame["instance"]) == list(instances)
    assert list(frame.columns[1:]) == [f"log₁₀ c* at α = {a}" for a in (6, 8, 10)]
    assert frame.set_index("instance").loc["polynomial_2"].tolist() == [np.inf] * 3
    assert "869.7" in report.shared_constants(table_root)


def test_an_option_far_above_the_paper_s_curves_runs_off_the_top():
    spec = PAPER["figures"]["fig2c"]
    summary = _summary(spec)
    option = summary["algorithm"] == spec["faint"][0]
    summary.loc[option, "mean"] *= 20
    fig = anonymous_figures.regret_sweep(spec, PAPER, summary)
    linear_ax, log_ax = fig.axes[:2]
    assert linear_ax.get_ylim()[1] < summary.loc[option, "mean"].max()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    boosted = PAPER["algorithms"][spec["faint"][0]]["label"]
    assert any(label.startswith(boosted) and "↑" in label for label in labels)
    assert not any("↑" in label for label in labels if "(option" not in label)
    # (b) is on ARS-UCB's own scale: the baseline above it leaves through the top.
    ars_ucb = summary["algorithm"].isin(spec["algorithms"][:4])
    assert log_ax.get_ylim()[1] == pytest.approx(
        1.08 * (summary.loc[ars_ucb, "mean"] + summary.loc[ars_ucb, "se"]).max()
    )
