"""Figures and tables of paper 004 as a reader sees them: the house sizes (7 in panels, Fig. 1
one column), no burned-in title, text of at least 7 pt, no TeX-like or code text, the band
convention in every caption of a figure with bands, π_low's inset where π_ucb's scale flattens
it, and the runs tables narrow and readable."""

import io
import re

import numpy as np
import pandas as pd
import pytest
from matplotlib import pyplot as plt
from PIL import Image

from timebandits.core.build.preflight import load_paper
from timebandits.core.pages.plotting import BAND_CAPTION
from timebandits.core.text import prose
from timebandits.delaydep.figures import FIGURE_KINDS
from timebandits.delaydep.report_exact import errata_table, instances_table
from timebandits.delaydep.report_runs import run_means, runs_by_learner

TEX_LIKE = ("_{", "\\", "+-", "e+0", "*10^")


@pytest.fixture(scope="module")
def paper():
    return load_paper("delaydep")


def summary_of(paper, experiment, scale=None):
    """A summary with the experiment's learners and metrics: regret linear in log t (π_low's
    ``scale`` times smaller, e.g. flat as in Fig. 3), switches growing with t, 5 runs."""
    t = np.unique(np.geomspace(1, 5e5, 60).astype(int))
    rows = []
    for alg in paper["experiments"][experiment]["algorithms"]:
        size = 1.0 / scale if (scale and alg == "pi_low") else 1.0
        for metric in ("regret_cost1", "regret_cost0", "switches"):
            mean = np.log1p(t) * 100 * size if metric != "switches" else np.sqrt(t)
            rows.append(
                pd.DataFrame(
                    {
                        "algorithm": alg,
                        "metric": metric,
                        "t": t,
                        "n": 5,
                        "mean": mean,
                        "se": 0.05 * mean,
                    }
                )
            )
    return pd.concat(rows, ignore_index=True)


def texts(fig):
    return [
        t
        for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_fontsize"))
        if t.get_text().strip() and t.get_visible()
    ]


@pytest.mark.parametrize("figure_id", ["fig1", "fig2", "fig3_upper", "fig3_lower_many"])
def test_figures_at_paper_sizes_without_titles_or_small_or_raw_text(paper, figure_id):
    spec = paper["figures"][figure_id]
    fig = FIGURE_KINDS[spec["kind"]](spec, paper, summary_of(paper, spec["experiment"]))
    width = fig.get_size_inches()[0]
    assert width == pytest.approx(3.3 if spec["kind"] == "transition_diagram" else 7.0)
    assert fig._suptitle is None
    for text in texts(fig):
        assert text.get_fontsize() >= 7, text.get_text()
        plain = re.sub(r"\$[^$]*\$", "", text.get_text())  # mathtext is how maths is written
        assert not any(s in plain for s in TEX_LIKE), text.get_text()
        assert spec["title"] not in text.get_text()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=200)
    plt.close(fig)
    assert Image.open(buffer).size[0] <= 1440


def test_a_flattened_curve_gets_an_inset_and_others_do_not(paper):
    spec = paper["figures"]["fig3_lower"]
    flat = FIGURE_KINDS["regret_panel"](spec, paper, summary_of(paper, "fig3", scale=500))
    level = FIGURE_KINDS["regret_panel"](spec, paper, summary_of(paper, "fig3"))
    insets = [len(ax.child_axes) for ax in (flat.axes[0], level.axes[0])]
    plt.close("all")
    assert insets == [1, 0]


def test_captions_state_the_band_convention_and_write_maths_readably(paper):
    for figure_id, spec in paper["figures"].items():
        text = spec["title"] + spec["caption"]
        assert not any(s in text for s in ("+-", "_{", "*10^", "^-")), figure_id
        if spec["kind"] == "regret_panel":
            assert BAND_CAPTION in spec["caption"], figure_id


def test_runs_by_learner_groups_quantities_and_drops_missing_ones(paper):
    runs = pd.DataFrame(
        {
            "experiment": ["fig2", "fig2"],
            "repetition": [0, 1],
            "delays": ["1 2", "3 4"],
            "r_star": [2, 1],
            "best_gap": [0.1, 0.2],
            **{
                f"{a} {m}": [1.0, 2.0]
                for a in ("pi_low", "pi_ucb", "pi_ucb_pulls")
                for m in ("regret_cost1", "switches", "suboptimal_pulls")
            },
            "pi_low regret_cost0": [np.nan, np.nan],
        }
    )
    shown = runs_by_learner(runs, paper, ["pi_low", "pi_ucb"])
    assert shown.index.names == ["experiment", "run"]
    assert list(shown.columns.get_level_values(0).unique()) == [
        "instance",
        "regret, cost 1",
        "switches",
        "suboptimal pulls",
    ]
    assert set(shown.columns.get_level_values(1)) == {"delays", "r*", "best gap", "π_low", "π_ucb"}
    means = run_means(runs, paper)
    assert list(means.index.get_level_values("learner")) == [
        "π_low",
        "π_ucb",
        "π_ucb (ln of pulls)",
    ]
    assert means.loc[("fig2", "π_low"), "switches"] == 1.5


def test_tables_write_subscripts_and_powers_of_ten(paper):
    def power(value):
        return prose(format(value, ".4g"))

    assert power(34820.0) == "3.482·10⁴" and power(1e10) == "10¹⁰"
    assert power(302.7) == "302.7"
    assert power(4.657e-7) == "4.657·10⁻⁷"
    columns = " ".join(instances_table(paper).columns)
    assert "_" not in columns and "μ₁(τ=1)" in columns and "r₀" in columns
    errata = errata_table(paper).astype(str).to_string()
    assert not any(s in errata for s in ("e+", "r_0", "2^-"))
