"""Tests of the censored-resources figures and notebook views as a reader meets them
(``timebandits.censored.figures``, ``timebandits.censored.report``): figures at a paper's width
with no burned-in title and no raw TeX, captions that state the band convention, legends that
put each sensitivity run under its algorithm, and the censoring table beside the paper's."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from matplotlib import pyplot as plt

from timebandits.censored import figures, report
from timebandits.core.build.preflight import load_paper
from timebandits.core.pages.plotting import BAND_CAPTION, DOUBLE_COLUMN

PAPER = load_paper("censored")
# Kinds that draw runs with bands (their captions must state the band convention).
BAND_KINDS = {"regret_panel", "reward_panel", "simple_regret_panel"}
# Raw TeX or code a reader must never see outside mathtext: nu_{i,tau}, lambda(tau_max), +-.
RAW = re.compile(r"_\{|\\[a-z]+|\blambda\b|\btau\b|\bnu\b|\balpha\b|\bdelta\b|\+-|<=|>=|\^\(")


def _summary(algorithms, metrics, horizon=1000, runs=100):
    """A summary as the workflow writes it: mean and s.e. per (algorithm, metric, t)."""
    t = np.unique(np.geomspace(1, horizon, 30).astype(int))
    rows = [
        {"algorithm": a, "metric": m, "t": s, "n": runs, "mean": s * (1 + i) * 0.1, "se": 0.01 * s}
        for i, a in enumerate(algorithms)
        for m in metrics
        for s in t
    ]
    return pd.DataFrame(rows)


def _texts(fig) -> list[str]:
    texts = [t.get_text() for t in fig.findobj(plt.Text)]
    return [t for t in texts if t]


def _outside_mathtext(text: str) -> str:
    return re.sub(r"\$[^$]*\$", "", text)


@pytest.mark.parametrize(
    "figure_id", ["fig4_poscorr", "fig5_ames", "fig2", "fig3", "theory_poscorr"]
)
def test_figures_fit_a_paper_without_title_or_raw_tex(figure_id):
    spec = PAPER["figures"][figure_id]
    algorithms = spec["algorithms"] + spec.get("faint", [])
    summary = _summary(algorithms, ["regret", "censored", "reward", "gain"])
    fig = figures.FIGURE_KINDS[spec["kind"]](spec, PAPER, summary)
    try:
        assert fig.get_figwidth() == pytest.approx(DOUBLE_COLUMN)
        assert fig._suptitle is None
        titles = [ax.get_title(loc) for ax in fig.axes for loc in ("center", "left")]
        assert spec["title"] not in titles
        for text in _texts(fig):
            assert not RAW.search(_outside_mathtext(text)), text
    finally:
        plt.close(fig)


def test_sensitivity_runs_sit_under_their_algorithm_in_the_legend():
    spec = PAPER["figures"]["fig4_poscorr"]
    order = figures._drawing_order(spec, PAPER)
    assert order == [
        ("ucb", False),
        ("ucb_penalty10", True),
        ("thompson", False),
        ("thompson_penalty10", True),
        ("rcucb", False),
        ("rcucb_observable", True),
    ]


def test_captions_state_the_band_convention_and_write_maths_for_readers():
    for figure_id, spec in PAPER["figures"].items():
        if spec["kind"] in BAND_KINDS:
            assert BAND_CAPTION in spec["caption"], figure_id
        for text in (spec["title"], spec["caption"]):
            assert not RAW.search(text), (figure_id, text)
    for key, algorithm in PAPER["algorithms"].items():
        assert not RAW.search(algorithm["label"]), key
    for key, experiment in PAPER["experiments"].items():
        assert not RAW.search(experiment["title"]), key


def test_censoring_view_puts_ours_beside_the_paper():
    frame = pd.DataFrame(
        [
            {
                "experiment": "fig6_poscorr",
                "title": "Fig. 6 (left)",
                "truth": 0.45371,
                "truth_printed": 0.5584,
                **{
                    f"{a}{s}": v
                    for a in report.CENSORING_ALGORITHMS
                    for s, v in (
                        ("", 0.5876),
                        ("_sd", 0.0029),
                        ("_printed", 0.6),
                        ("_sd_printed", np.nan),
                    )
                },
            }
        ]
    )
    view = report.censoring_view(frame, PAPER)
    assert view.loc["Fig. 6 (left)", ("RCUCB", "ours")] == "0.5876 ± 0.0029"
    assert view.loc["Fig. 6 (left)", ("RCUCB", "paper")] == "0.6000"
    assert view.loc["Fig. 6 (left)", (report.TRUTH, "exact")] == "0.4537"
    assert list(view.columns.get_level_values(0).unique()) == [report.TRUTH, "RCUCB", "TS", "UCB"]


def test_fig5_shows_rcucb_minus_each_baseline_where_it_is_behind():
    """Claim C9's early rounds, where RCUCB's reward is below UCB's, are a few hundred out of
    thousands in panel (a); panel (b) draws RCUCB − each baseline against log t, with the
    standard error of a difference of two means."""
    spec = PAPER["figures"]["fig5_ames"]
    summary = _summary(spec["algorithms"], ["regret", "censored", "reward", "gain"], runs=10)
    rcucb = summary["algorithm"] == "rcucb"
    early = summary["t"] < 100
    summary.loc[rcucb & early, "mean"] = -summary.loc[rcucb & early, "t"]  # behind early
    difference = figures.paired_difference(summary, "reward", "rcucb", "ucb")
    ours = summary[rcucb & (summary["metric"] == "reward")].set_index("t")
    theirs = summary[(summary["algorithm"] == "ucb") & (summary["metric"] == "reward")].set_index(
        "t"
    )
    assert difference["mean"].to_numpy() == pytest.approx(
        (ours["mean"] - theirs["mean"]).to_numpy()
    )
    assert difference["se"].to_numpy() == pytest.approx(
        np.sqrt(ours["se"] ** 2 + theirs["se"] ** 2).to_numpy()
    )
    assert (difference["mean"] < 0).any() and (difference["mean"] > 0).any()
    fig = figures.FIGURE_KINDS[spec["kind"]](spec, PAPER, summary)
    try:
        panel = next(ax for ax in fig.axes if ax.get_title().startswith("(b)"))
        assert panel.get_xscale() == "log"
        labels = [line.get_label() for line in panel.get_lines()]
        assert {"RCUCB − UCB", "RCUCB − TS"} <= set(labels)
        low, high = panel.get_ylim()
        assert low < difference["mean"].min() and high > difference["mean"].max()
        titles = sorted(ax.get_title() for ax in fig.axes if ax.get_title())
        assert [t[:3] for t in titles] == ["(a)", "(b)", "(c)", "(d)"]
        assert "(b) RCUCB's realised reward minus UCB's and TS's" in spec["caption"]
    finally:
        plt.close(fig)
