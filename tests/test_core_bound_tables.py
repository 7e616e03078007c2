"""The bound tables a reader sees first: one line per kind of bound with its verdict, human
column names, experiments by title and algorithms by label, numbers in the pages' notation."""

import re

import jupytext
import numpy as np
import pandas as pd
import pytest
from conftest import REPO_ROOT

from timebandits.core.pages import bound_tables
from timebandits.core.pages.bound_names import bound_kind
from timebandits.core.pages.bound_tables import (
    EXCEEDED,
    HOLDS,
    VACUOUS,
    WITHIN_NOISE,
    details,
    kind_summary,
    styled,
    verdict_table,
)


def _rows(
    bound, metric, mean, bound_value, trivial, se=0.0, experiment="fig1a", algorithm="wait_ucb"
):
    t = np.array([10.0, 20.0])
    mean = np.asarray(mean, dtype=float)
    bound_value = np.asarray(bound_value, dtype=float)
    trivial = np.asarray(trivial, dtype=float)
    return pd.DataFrame(
        {
            "experiment": experiment,
            "algorithm": algorithm,
            "bound": bound,
            "metric": metric,
            "t": t,
            "mean": mean,
            "se": se,
            "max": mean,
            "runs_exceeding": (mean > bound_value).astype(int),
            "n_runs": 3,
            "bound_value": bound_value,
            "trivial": trivial,
            "vacuous": ~(bound_value < trivial),
            "ratio": mean / bound_value,
        }
    )


def test_kind_summary_has_one_line_per_kind_of_bound():
    assert bound_kind("pairs_corollary14_ucb_alpha2_plays_a1_l2") == "Corollary 14 per pair"
    assert bound_kind("theorem3-cost1") == "Theorem 3 (cost 1)"
    assert bound_kind("logterm_ars_ucb_alpha6") == "log term"
    rows = pd.concat(
        [
            _rows("theorem2", "regret", [1.0, 30.0], [10.0, 10.0], [5.0, 50.0]),
            *[
                _rows(f"lemma2_k1_j{j}", f"pulls_k1_j{j}", [1.0, 2.0], [4.0, 4.0], [5.0, 5.0])
                for j in (1, 2)
            ],
        ]
    )
    summary = kind_summary(rows, {"wait_ucb": "Wait-UCB"}).set_index("bound")
    assert list(summary.index) == ["Theorem 2", "Lemma 2"]
    assert summary.loc["Lemma 2", "curves"] == 2
    assert summary.loc["Lemma 2", "quantity"] == "pulls of each pair"
    assert summary.loc["Theorem 2", "largest mean/bound (informative)"] == pytest.approx(3.0)
    assert summary.loc["Theorem 2", "where"] == "Wait-UCB, regret at t = 20, in fig1a"
    assert summary.loc["Theorem 2", "of which mean > bound"] == 1
    assert summary.loc["Theorem 2", "share vacuous"] == pytest.approx(0.5)
    titled = kind_summary(rows, {"wait_ucb": "Wait-UCB"}, {"fig1a": "Fig. 1a: K=1, D=10"})
    assert titled.loc[0, "where"] == "Wait-UCB, regret at t = 20, in Fig. 1a: K=1, D=10"


def _kinds():
    """Five kinds of bound, one per verdict, with a paper column as the notebook builds it."""
    informative, vacuous = [50.0, 50.0], [1.0, 1.0]
    tables = {
        "farewell": pd.concat(
            [
                _rows("theorem2", "regret", [1.0, 3.0], [10.0, 10.0], informative),  # holds
                _rows("lemma2_k1_j2", "pulls_k1_j2", [1.0, 30.0], [10.0, 10.0], informative),
                _rows("corollary3", "regret", [1.0, 11.0], [10.0, 10.0], informative, se=1.0),
                _rows("theorem4", "regret", [1.0, 30.0], [10.0, 10.0], vacuous),
            ]
        ),  # vacuous
        "continuous": _rows(
            "theorem5_ctsab",
            "regret",
            [1.0, 30.0],
            [10.0, 10.0],
            informative,
            experiment="sens_mu015_lam001",
            algorithm="ctsab_k01",
        ),
    }
    return pd.concat(
        [kind_summary(table).assign(paper=key) for key, table in tables.items()], ignore_index=True
    )


def test_the_verdict_table_says_which_bounds_hold_in_at_most_eight_human_columns():
    table = verdict_table(_kinds(), {("continuous", "Theorem 5"): "shape only"})
    assert len(table.columns) <= 8
    assert not [c for c in table.columns if "_" in c or ">" in c]
    assert list(table["verdict"]) == [HOLDS, EXCEEDED, WITHIN_NOISE, VACUOUS, "shape only"]
    assert list(table["paper"]) == ["farewell", "", "", "", "continuous"]
    assert table["bound"].iloc[1] == "Lemma 2 on pulls of each pair"
    # a shape is one paper's: the other papers' kinds are judged as bounds
    other = verdict_table(_kinds(), {("farewell", "Theorem 2"): "shape only"})
    assert list(other["verdict"]) == ["shape only", EXCEEDED, WITHIN_NOISE, VACUOUS, EXCEEDED]
    with pytest.raises(KeyError, match="Theorem 9"):
        verdict_table(_kinds(), {("continuous", "Theorem 9"): "shape only"})


def test_styled_writes_powers_of_ten_as_the_pages_do_and_colours_the_verdicts():
    frame = pd.DataFrame(
        {"verdict": [HOLDS, EXCEEDED], "at t": [9.85e6, 1e7], "s.e.": [1.624e-14, 0.5]}
    )
    page = styled(frame).to_html()
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", page)
    assert "9.85·10⁶" in cells and "10⁷" in cells and "1.62·10⁻¹⁴" in cells
    assert not [c for c in cells if re.search(r"\de-?\d", c)]
    assert bound_tables.COLOURS[HOLDS] in page and bound_tables.COLOURS[EXCEEDED] in page


def test_details_names_experiments_and_algorithms_as_the_paper_config_does():
    rows = _rows(
        "theorem5_ctsab_k01",
        "regret",
        [1.0, 30.0],
        [10.0, 10.0],
        [50.0, 50.0],
        experiment="sens_mu015_lam001",
        algorithm="ctsab_k01",
    )
    paper = {
        "experiments": {"sens_mu015_lam001": {"title": "Sensitivity: μ = 0.15, λ = 0.01"}},
        "algorithms": {"ctsab_k01": {"label": "CTSAB (κ = 0.1)"}},
    }
    page = details(rows, paper).data
    assert "Sensitivity: μ = 0.15, λ = 0.01" in page and "CTSAB (κ = 0.1)" in page
    assert "sens_mu015_lam001" not in page and "ctsab_k01" not in page
    headers = re.findall(r'<th [^>]*class="col_heading[^"]*"[^>]*>([^<]*)</th>', page)
    assert headers and not [h for h in headers if "_" in h]
    assert "ctsab_k01" in details(rows).data  # no config: the ids


def test_the_comparison_notebook_answers_which_bounds_hold_first():
    notebook = jupytext.read(REPO_ROOT / "notebooks/comparison.py")
    headings = [
        c.source for c in notebook.cells if c.cell_type == "markdown" and c.source.startswith("## ")
    ]
    assert headings[0].startswith("## 1. Which bounds hold")
    code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    assert "verdict_table(" in code and "SHAPES" in code


def test_horizon_details_show_no_floating_point_residue_and_no_ids():
    rows = _rows(
        "theorem5_ctsab_k01",
        "regret",
        [5.0, 6.0],
        [10.0, 10.0],
        [50.0, 50.0],
        se=1.624e-14,
        experiment="sens_mu015_lam001",
        algorithm="ctsab_k01",
    ).iloc[[1]]
    paper = {
        "experiments": {"sens_mu015_lam001": {"title": "Sensitivity: μ = 0.15, λ = 0.01"}},
        "algorithms": {"ctsab_k01": {"label": "CTSAB (κ = 0.1)"}},
    }
    page = bound_tables.horizon_details(rows, paper).data
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", page)
    assert cells == [
        "Sensitivity: μ = 0.15, λ = 0.01",
        "CTSAB (κ = 0.1)",
        "Theorem 5",
        "20",
        "6",
        "0",
        "10",
        "50",
        "no",
        "0.6",
    ]
