"""Tests of the farewell figures and notebook helpers (timebandits.farewell.figures, report): the
sizes of a paper (7 in, at most 1,440 px), no title or problem facts burned into the image, no
offset on the time axis, coinciding curves marked, Theorem 1's error bars at ±1 s.e. with up to
45 pairs, and captions that state the band convention without "+-" or raw TeX."""

import re

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from timebandits.core.build.preflight import load_paper
from timebandits.core.pages.figure_files import save_figure
from timebandits.core.pages.plotting import BAND_CAPTION, DOUBLE_COLUMN
from timebandits.farewell import report
from timebandits.farewell.figures import coinciding, constant_policies, regret_panel
from timebandits.farewell.model import F2AProblem


@pytest.fixture(scope="module")
def paper():
    return load_paper("farewell")


def _curves(curves: dict[str, np.ndarray], t: np.ndarray, runs: int = 10) -> pd.DataFrame:
    """A summary with ``regret`` and ``pseudo_regret`` following each algorithm's curve."""
    frames = [
        pd.DataFrame(
            {
                "algorithm": alg,
                "metric": metric,
                "t": t,
                "n": runs,
                "mean": values,
                "se": 0.01 * values + 1.0,
            }
        )
        for alg, values in curves.items()
        for metric in ("regret", "pseudo_regret")
    ]
    return pd.concat(frames, ignore_index=True)


def _panel_summary() -> pd.DataFrame:
    t = np.unique(np.round(np.logspace(0, 7, 60)))
    base = 1000 * np.log1p(t)
    return _curves(
        {
            "wait_ucb": 10 * base,
            "ucb_simplex": base,
            "budget_ucb": base * 1.005,
            "ucb_bv1": 50 * base,
        },
        t,
    )


def test_coinciding_marks_only_curves_within_the_tolerance():
    t = np.arange(1.0, 101.0)
    summary = _curves({"a": t, "b": t + 0.5, "c": 3 * t, "d": t + 1.0}, t)
    assert coinciding(summary, ["a", "b", "c", "d"]) == {"b": "a", "d": "a"}
    assert coinciding(summary, ["c", "a"]) == {}


def test_regret_panel_fits_a_paper_page_without_burned_in_facts(paper, tmp_path):
    fig = regret_panel(paper["figures"]["fig1a"], paper, _panel_summary())
    assert fig.get_figwidth() == pytest.approx(DOUBLE_COLUMN)
    assert fig._suptitle is None
    titles = [ax.get_title(loc) for ax in fig.axes for loc in ("left", "center", "right")]
    assert not any("g*" in title or "gap" in title for title in titles)
    legend = [text.get_text() for text in fig.legends[0].get_texts()]
    assert "Budget-UCB, ≈ UCB-Simplex" in legend
    assert "Wait-UCB" in legend and not any("≈" in name for name in legend if "Wait" in name)
    save_figure(fig, tmp_path / "panel.pdf", tmp_path / "panel.png")
    assert all(ax.xaxis.get_offset_text().get_text() == "" for ax in fig.axes)
    # the time axis in millions of budget units (10M at T = 10⁷), not "×10⁶" in its label
    assert "10M" in [label.get_text() for label in fig.axes[0].get_xticklabels()]
    assert "10" not in fig.axes[0].get_xlabel()
    assert Image.open(tmp_path / "panel.png").size[0] <= 1440


def test_constant_policies_keeps_45_pairs_within_7_inches_at_one_standard_error(paper, tmp_path):
    rng = np.random.default_rng(0)
    pmf = rng.dirichlet(np.ones(9), size=5)
    environment = {"reward_prob": [0.2, 0.4, 0.6, 0.8, 1.0], "delay_pmf": pmf.tolist()}
    problem = F2AProblem.from_config(environment)
    paper = {
        **paper,
        "experiments": {
            **paper["experiments"],
            "big": {**paper["experiments"]["thm1_fig1b"], "environment": environment},
        },
    }
    horizon = 10_000.0
    se = rng.uniform(1, 5, problem.K * problem.D)
    summary = pd.DataFrame(
        {
            "algorithm": "constant_policies",
            "t": horizon,
            "n": 2000,
            "metric": [f"reward_{lab}" for lab in problem.pair_labels],
            "mean": problem.ratio.ravel() * horizon,
            "se": se,
        }
    )
    fig = constant_policies({**paper["figures"]["thm1_fig1b"], "experiment": "big"}, paper, summary)
    assert fig.get_figwidth() == pytest.approx(DOUBLE_COLUMN)
    ax = fig.axes[0]
    assert len(ax.get_xticklabels()) == 45
    (bars,) = [c for c in ax.containers if c.__class__.__name__ == "ErrorbarContainer"]
    segments = bars.lines[2][0].get_segments()
    half_widths = np.array([abs(s[1][1] - s[0][1]) / 2 for s in segments])
    np.testing.assert_allclose(half_widths, se / horizon)
    save_figure(fig, tmp_path / "thm1.pdf", tmp_path / "thm1.png")
    assert Image.open(tmp_path / "thm1.png").size[0] <= 1440


def test_captions_state_the_band_convention_in_readable_text(paper):
    for figure_id, figure in paper["figures"].items():
        caption = figure["caption"]
        assert "+-" not in caption and not re.search(r"_\{|\\[a-z]+|sqrt", caption), figure_id
        if figure["kind"] == "regret_panel":
            assert BAND_CAPTION in caption, figure_id
        else:
            assert "±1 standard error" in caption, figure_id
    for spec in paper["algorithms"].values():
        assert "sqrt" not in spec["label"]


def test_panel_facts_print_numbers_not_reprs(paper):
    facts = report.panel_facts(paper, "fig2a")
    assert "np." not in facts and "float64" not in facts
    assert facts == (
        "This problem: g* = 1.0000 at (k, j) = (3, 1), (3, 2), (3, 3), (3, 4), "
        "(3, 5); minimum gap Δ = 0.3000."
    )
