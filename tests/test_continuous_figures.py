"""Paper 003's figures (continuous/figures.py) on synthetic summaries: the house size and no
burned-in title, a learner that would squash the others gets its own axis, the heat maps never
show a blank panel, and no text below 7 pt or outside mathtext."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib import pyplot as plt

from timebandits.continuous.figures import FIGURE_KINDS, mathtext
from timebandits.core.config import load_paper
from timebandits.core.plotting import DOUBLE_COLUMN

T = np.linspace(0, 60000, 11)


@pytest.fixture(scope="module")
def paper():
    return load_paper("continuous")


def _rows(algorithm, metric, values, se=0.0, n=50):
    values = np.broadcast_to(np.asarray(values, float), T.shape)
    return pd.DataFrame({"algorithm": algorithm, "metric": metric, "t": T, "n": n,
                         "mean": values, "se": se})


def _payoffs(learner_final: float) -> pd.DataFrame:
    return pd.concat([
        _rows("oracle", "payoff", 0.03 * T), _rows("baseline1", "payoff", 0.02 * T),
        _rows("baseline2", "payoff", 0.015 * T),
        _rows("ctsab", "payoff", np.where(T > 0, learner_final + 0.03 * T, 0.0), se=5.0),
        _rows("ctsab", "failed", 0.0)], ignore_index=True).assign(experiment="fig2a")


def _texts(fig):
    return [t for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_fontsize"))
            if t.get_text().strip()]


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
            frames += [_rows(alg, "payoff", 300.0 - 10 * (i + 1)).assign(experiment=exp),
                       _rows(alg, "failed", 0.0).assign(experiment=exp),  # every run stops
                       _rows(alg, "stop_time", 60.0 * (i + 1)).assign(experiment=exp)]
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
        frames += [_rows("oracle", "payoff", 1000.0).assign(experiment=exp),
                   _rows("ctsab", "payoff", 1000.0 - 10 / mu, se=2.0).assign(experiment=exp)]
    fig = FIGURE_KINDS["regret_vs_mu"](spec, paper, pd.concat(frames, ignore_index=True))
    _check_house_style(fig)
    assert "fitted slope −1.00" in " ".join(fig.axes[1].get_legend_handles_labels()[1])
    plt.close(fig)


def test_labels_set_greek_letters_and_t_prime_as_mathtext():
    assert mathtext("CTSAB (κ = 1)") == r"CTSAB ($\kappa$ = 1)"
    assert mathtext("λ = 0.01, T' = T/λ") == r"$\lambda$ = 0.01, $T'$ = T/$\lambda$"
