"""Paper 003's figures (continuous/figures.py) on synthetic summaries: the house size and no
burned-in title, a learner that would squash the others gets its own axis, the heat maps never
show a blank panel, and no text below 7 pt or outside mathtext."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from matplotlib import pyplot as plt

from timebandits.continuous.figures import FIGURE_KINDS
from timebandits.continuous.figures_common import mathtext
from timebandits.core.build.preflight import load_paper
from timebandits.core.pages.plotting import DOUBLE_COLUMN

T = np.linspace(0, 60000, 11)


@pytest.fixture(scope="module")
def paper():
    return load_paper("continuous")


def _rows(algorithm, metric, values, se=0.0, n=50):
    values = np.broadcast_to(np.asarray(values, float), T.shape)
    return pd.DataFrame(
        {"algorithm": algorithm, "metric": metric, "t": T, "n": n, "mean": values, "se": se}
    )


def _payoffs(learner_final: float) -> pd.DataFrame:
    return pd.concat(
        [
            _rows("oracle", "payoff", 0.03 * T),
            _rows("baseline1", "payoff", 0.02 * T),
            _rows("baseline2", "payoff", 0.015 * T),
            _rows("ctsab", "payoff", np.where(T > 0, learner_final + 0.03 * T, 0.0), se=5.0),
            _rows("ctsab", "failed", 0.0),
        ],
        ignore_index=True,
    ).assign(experiment="fig2a")


def _texts(fig):
    return [
        t
        for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_fontsize"))
        if t.get_text().strip()
    ]


def _check_house_style(fig):
    assert fig.get_size_inches()[0] == pytest.approx(DOUBLE_COLUMN)
    assert fig._suptitle is None
    for text in _texts(fig):
        assert text.get_fontsize() >= 7, text.get_text()
        assert "+-" not in text.get_text() and "np." not in text.get_text()


@pytest.mark.parametrize("learner_final, panels", [(-50000.0, 3), (-500.0, 2)])
def test_a_squashing_learner_gets_its_own_axis(paper, learner_final, panels):
    spec = {"experiment": "fig2a", "algorithms": ["oracle", "ctsab", "baseline1", "baseline2"]}
    fig = FIGURE_KINDS["payoff_curves"](spec, paper, _payoffs(learner_final))
    _check_house_style(fig)
    assert len(fig.axes) == panels
    assert fig.axes[-1].get_yscale() == "log"
    exact = fig.axes[0]
    labels = exact.get_legend_handles_labels()[1]
    assert ("CTSAB" in " ".join(labels)) == (panels == 2)
    if panels == 3:  # the exact curves span their own axis, not the learner's −50,000
        assert exact.get_ylim()[0] > -0.2 * 0.03 * T.max()
    plt.close(fig)


def test_heat_map_shows_learning_time_not_a_blank_panel(paper):
    spec = {"experiment": "fig2b", "algorithms": ["ctsab_k01", "ctsab_k05", "ctsab", "ctsab_k2"]}
    frames = []
    for exp in ["fig2b", "sens_mu015_lam01", "sens_mu015_lam001", "sens_mu015_lam0001"]:
        frames.append(_rows("oracle", "payoff", 300.0).assign(experiment=exp))
        for i, alg in enumerate(spec["algorithms"]):
            frames += [
                _rows(alg, "payoff", 300.0 - 10 * (i + 1)).assign(experiment=exp),
                _rows(alg, "failed", 0.0).assign(experiment=exp),  # every run stops
                _rows(alg, "stop_time", 60.0 * (i + 1)).assign(experiment=exp),
            ]
    fig = FIGURE_KINDS["kappa_lambda_heatmap"](spec, paper, pd.concat(frames, ignore_index=True))
    _check_house_style(fig)
    cells = [t.get_text() for t in fig.axes[1].texts]
    assert len(cells) == 16 and set(cells) != {"0"}
    assert "0.004" in cells  # κ = 2: τ = 240 of T = 60000
    plt.close(fig)


def test_regret_vs_mu(paper):
    spec = {"experiment": "fig2c", "algorithms": ["ctsab"]}
    frames = []
    for exp, mu in [("fig2c", 0.05), ("fig2b", 0.15), ("fig2a", 0.3)]:
        frames += [
            _rows("oracle", "payoff", 1000.0).assign(experiment=exp),
            _rows("ctsab", "payoff", 1000.0 - 10 / mu, se=2.0).assign(experiment=exp),
        ]
    fig = FIGURE_KINDS["regret_vs_mu"](spec, paper, pd.concat(frames, ignore_index=True))
    _check_house_style(fig)
    assert "fitted slope −1.00" in " ".join(fig.axes[1].get_legend_handles_labels()[1])
    # error bars, not bands: the legend says what the ±1 s.e. is drawn as
    assert fig.legends[0].get_title().get_text() == "mean of 50 runs, bars ±1 s.e."
    plt.close(fig)


def test_labels_set_greek_letters_and_t_prime_as_mathtext():
    assert mathtext("CTSAB (κ = 1)") == r"CTSAB ($\kappa$ = 1)"
    assert mathtext("λ = 0.01, T' = T/λ") == r"$\lambda$ = 0.01, $T'$ = T/$\lambda$"
    assert mathtext("CTSAB (T'^ε = 2.5)") == r"CTSAB ($T'^{\varepsilon}$ = 2.5)"


def test_faint_learner_is_drawn_thin_beside_the_paper_curves(paper):
    """The other exploit rule (``faint``) is drawn on the learner's axes, thin and
    half-transparent, and labelled as not in the paper."""
    spec = {
        "experiment": "fig2a",
        "algorithms": ["oracle", "ctsab", "baseline1", "baseline2"],
        "faint": ["ctsab_halfup"],
    }
    summary = pd.concat(
        [
            _payoffs(-50000.0),
            _rows(
                "ctsab_halfup", "payoff", np.where(T > 0, -52000.0 + 0.03 * T, 0.0), se=5.0
            ).assign(experiment="fig2a"),
            _rows("ctsab_halfup", "failed", 0.0).assign(experiment="fig2a"),
        ],
        ignore_index=True,
    )
    fig = FIGURE_KINDS["payoff_curves"](spec, paper, summary)
    _check_house_style(fig)
    assert len(fig.axes) == 3
    for ax in fig.axes[1:]:  # the learner's own axis and the gap
        lines = {line.get_label(): line for line in ax.get_lines()}
        faint = [line for label, line in lines.items() if "not in the paper" in label]
        assert len(faint) == 1 and "half-up" in faint[0].get_label()
        assert faint[0].get_linewidth() < 1.0 and faint[0].get_alpha() == 0.5
    plt.close(fig)


def test_regret_vs_mu_draws_a_faint_learner_without_its_own_slope(paper):
    spec = {"experiment": "fig2c", "algorithms": ["ctsab"], "faint": ["ctsab_halfup"]}
    frames = []
    for exp, mu in [("fig2c", 0.05), ("fig2b", 0.15), ("fig2a", 0.3)]:
        frames += [
            _rows("oracle", "payoff", 1000.0).assign(experiment=exp),
            _rows("ctsab", "payoff", 1000.0 - 10 / mu, se=2.0).assign(experiment=exp),
            _rows("ctsab_halfup", "payoff", 1000.0 - 12 / mu, se=2.0).assign(experiment=exp),
        ]
    fig = FIGURE_KINDS["regret_vs_mu"](spec, paper, pd.concat(frames, ignore_index=True))
    _check_house_style(fig)
    labels = " ".join(fig.axes[1].get_legend_handles_labels()[1])
    assert labels.count("fitted slope") == 1 and "fitted slope −1.00" in labels
    assert "not in the paper" in labels
    plt.close(fig)


def test_scaled_regret_puts_theorem5s_quantity_against_t_prime(paper):
    """regret × μ/(ln T')² against T' = t/λ, one series per (learner, μ), and the band of the
    claims' factor from the first learner's smallest value."""
    spec = {
        "experiment": "thm5_mu030_lam1",
        "algorithms": ["ctsab_thm5", "ctsab_thm5_k1"],
        "options": {"max_spread": 3.0},
    }
    frames = []
    for exp, mu, lam in [
        ("thm5_mu030_lam1", 0.3, 1.0),
        ("thm5_mu030_lam001", 0.3, 0.01),
        ("thm5_mu005_lam1", 0.05, 1.0),
        ("thm5_mu005_lam001", 0.05, 0.01),
    ]:
        scale = math.log(60000 / lam) ** 2 / mu
        frames += [_rows("oracle", "payoff", 1e6).assign(experiment=exp)]
        for alg, level in (("ctsab_thm5", 200.0), ("ctsab_thm5_k1", 10.0)):
            frames.append(_rows(alg, "payoff", 1e6 - level * scale, se=1.0).assign(experiment=exp))
    summary = pd.concat(frames, ignore_index=True)
    fig = FIGURE_KINDS["scaled_regret"](spec, paper, summary)
    _check_house_style(fig)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    series = list(ax.containers)
    assert len(series) == 4  # 2 learners × 2 μ
    for container in series:
        x, y = container.lines[0].get_data()
        assert list(x) == pytest.approx([60000, 6e6])
        assert y == pytest.approx([200.0] * 2) or y == pytest.approx([10.0] * 2)
    (band,) = [p for p in ax.patches]
    assert band.get_extents() is not None
    assert fig.legends[0].get_title().get_text().endswith("bars ±1 s.e.")
    plt.close(fig)
