"""What the notebooks show: readable cells, verdict tables in the claims contract's format, the
scorecard, and bound plots whose legends match their lines, without spikes on log axes."""

from pathlib import Path

import matplotlib.colors as mcolors
import numpy as np
import pandas as pd
import pytest

from timebandits.core import paths
from timebandits.core.pages import bound_plots, verdict_tables
from timebandits.core.pages import display as show
from timebandits.core.pages.plotting import algorithm_style, log_safe, series_style

CLAIMS = pd.DataFrame(
    {
        "claim": ["C1", "C2", "C3", "C4"],
        "where": ["Sect. 6", "Thm 1", "Fig. 1b", ""],
        "quote": ["Wait-UCB performs much better", "", "the optimal arm lies in the middle", ""],
        "tested_as": [
            "Wait-UCB beats UCB-Simplex",
            "the best constant policy maximises E[r]/E[c]",
            "optimum in the middle (j*=5)",
            "the authors' runtime",
        ],
        "kind": ["better_at_horizon", "theorem1", "better_at_horizon", "not_checkable"],
        "evidence": ["statistical test", "exact computation", "statistical test", "not checkable"],
        "verdict": ["reproduced", "not reproduced", "inconclusive", "not checkable"],
        "decided_by": [
            "Holm-adjusted p = 0.003 on fig1a",
            "A_10 = −0.41 < 0",
            "p = 0.21",
            "the paper gives no timings",
        ],
        "multiplicity": ["Holm over 6 experiments", None, None, None],
        "scope": ["paper", "paper", "extension", "paper"],
        "can_reproduce": [True, True, False, False],
        "can_refute": [True, True, True, False],
        "decidability": [
            "",
            "",
            "cannot be reproduced as configured: favourable witness: inconclusive",
            "",
        ],
        "thresholds": ["min_ratio = 2 (assumed)", "", "", ""],
        "flips_at": ["min_ratio 2 → 2.1: inconclusive (fragile)", "", "", ""],
        "fragile": [True, False, False, False],
        "runs_to_decide": ["", "", "reproduced with 40 runs (4×), at today's means and spread", ""],
        "parent": ["", "", "", ""],
        "cause": ["", "erratum", "", ""],
        "cause_line": ["", "An exact computation shows it false: A_10 = −0.41 < 0.", "", ""],
        "variants": ["", "", "", ""],
    }
)
DETAILS = pd.DataFrame(
    {
        "claim": ["C1", "C1", "C2"],
        "scope": ["fig1a", "fig1b", "fig1b"],
        "evidence": ["statistical test", "statistical test", "exact computation"],
        "role": ["decides", "supports", "decides"],
        "verdict": ["reproduced", "inconclusive", "not reproduced"],
        "statistic": ["p = 0.001", "p = 0.2", "A_10 = −0.41"],
    }
)
SCORECARD = pd.DataFrame(
    [
        {
            "paper": "farewell",
            "scope": "paper",
            "claims": 3,
            "reproduced": 1,
            "not_reproduced": 0,
            "inconclusive": 0,
            "exact": 1,
            "exact_holds": 0,
            "exact_fails": 1,
            "not_checkable": 1,
            "undecidable": 0,
        },
        {
            "paper": "farewell",
            "scope": "extension",
            "claims": 1,
            "reproduced": 0,
            "not_reproduced": 0,
            "inconclusive": 1,
            "exact": 0,
            "exact_holds": 0,
            "exact_fails": 0,
            "not_checkable": 0,
            "undecidable": 1,
        },
    ]
)


# The paper config the verdict tables name experiments by (their short names).
PAPER = {
    "paper": {"key": "farewell"},
    "algorithms": {},
    "experiments": {"fig1a": {"short": "Fig. 1a"}, "fig1b": {"short": "Fig. 1b"}},
}


@pytest.fixture
def root(tmp_path, monkeypatch):
    """A results tree with hand-made verdict files, as ``root`` for the display functions."""
    monkeypatch.chdir(tmp_path)
    for path, frame in (
        (paths.claims("", "farewell"), CLAIMS),
        (paths.claim_details("", "farewell"), DETAILS),
        (paths.scorecard(""), SCORECARD),
    ):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(path, index=False)
    return ""


@pytest.fixture
def shown(monkeypatch):
    """What ``display`` would show, in order."""
    out = []
    for module in (show, verdict_tables):
        monkeypatch.setattr(module, "display", out.append)
    return out


def _html(obj) -> str:
    return obj.to_html() if hasattr(obj, "to_html") else obj.data


@pytest.mark.parametrize(
    "value, text",
    [
        (float("nan"), ""),
        (None, ""),
        (1.0e7, "10⁷"),
        ("10000000.0", "10⁷"),
        (5.0e5, "500,000"),
        (2.5e6, "2.5·10⁶"),
        (279936, "279,936"),
        (1234567.0, "1,234,567"),
        (1075.3, "1,075"),
        (5358912.5, "5.359·10⁶"),
        (3, "3"),
        (0.1, "0.1"),
        (1 / 3, "0.3333"),
        (2.5e-5, "2.5·10⁻⁵"),
        (1.0000000000000004, "1"),
        (True, "yes"),
        (np.bool_(False), "no"),
        ("9/20", "9/20"),
        ("paper", "paper"),
        ("", ""),
        ("nan", "nan"),
        ("['1', '14/15', '0']", "[1, 14/15, 0]"),
        ("[0.25, 0.0, 0.5]", "[0.25, 0, 0.5]"),
        ("{'uniform': [1, 6]}", "{uniform: [1, 6]}"),
        ("[unclosed", "[unclosed"),
        ("(3, 2) (3, 3)", "(3, 2) (3, 3)"),
        ("(1,1)", "(1, 1)"),
    ],
)
def test_number_is_readable(value, text):
    assert show.number(value) == text


def test_markdown_text_keeps_stars_and_underscores_literal():
    assert show.markdown_text("optimum (j*=5), R_t, $1") == "optimum (j\\*=5), R\\_t, \\$1"


def test_readable_table_has_no_nan_or_raw_floats_and_left_aligned_text():
    frame = pd.DataFrame(
        {
            "scope": ["experiment fig1a", "algorithm wait_ucb"],
            "value": ["10000000.0", np.nan],
            "horizon": [1.0e7, np.nan],
            "why": ["stated in Sect. 6", "assumed"],
        }
    )
    html = show.readable(frame).to_html()
    assert "NaN" not in html and "nan" not in html and "10000000.0" not in html
    assert html.count(">10⁷<") == 2
    # text columns (0, 1, 3) left, the number column (2) right
    for i in (0, 1, 3):
        assert f"td.col{i} {{\n  text-align: left;" in html
    assert "td.col2 {\n  text-align: right;" in html


def test_verdicts_one_short_line_per_claim_grouped_by_evidence(root, shown):
    verdict_tables.verdicts(root, PAPER)
    headings = [_html(o) for o in shown if not hasattr(o, "to_html")]
    tables = [o.data for o in shown if hasattr(o, "to_html")]
    assert [t.index.tolist() for t in tables] == [["C1", "C3"], ["C2"], ["C4"]]
    assert headings[0].startswith("**Statistical tests")
    assert "1 reproduced, 1 inconclusive" in headings[0]
    assert "- **C1**: Holm over 6 experiments" in headings[1]
    for table in tables:
        assert table.index.name is None and table.columns.name == "claim"
        assert list(table.columns) == [
            "scope",
            "the paper says",
            "we test",
            "verdict",
            "decided by",
            "thresholds",
            "why it failed",
            "could reach",
        ]
        assert not table.map(lambda v: "|" in str(v)).any().any()
    assert tables[0]["the paper says"].iloc[0] == "“Wait-UCB performs much better” (Sect. 6)"
    assert tables[0]["we test"].iloc[0] == "Wait-UCB beats UCB-Simplex"
    assert (
        tables[2]["the paper says"].iloc[0] == ""
        and tables[2]["we test"].iloc[0] == "the authors' runtime"
    )
    # an experiment by its short name, and the words explained below the tables
    assert tables[0]["decided by"].iloc[0] == "Holm-adjusted p = 0.003 on Fig. 1a"
    assert "The words the verdicts use" in _html(shown[-1])
    assert tables[0]["thresholds"].tolist() == [
        "min_ratio = 2 (assumed); flips at: min_ratio 2 → 2.1: inconclusive (fragile)",
        "",
    ]
    assert tables[0]["could reach"].tolist() == [
        "",
        "only not reproduced: cannot be reproduced as configured: favourable witness: "
        "inconclusive; reproduced with 40 runs (4×), at today's means and spread",
    ]
    assert tables[1]["why it failed"].tolist() == [
        "erratum: An exact computation shows it false: A_10 = −0.41 < 0."
    ]
    assert tables[2]["could reach"].iloc[0] == "neither (not checkable)"
    html = shown[1].to_html()
    assert "background-color: #d8f0d8" in html and "background-color: #f5ecc8" in html
    # each claim is a link target of the front page; text is escaped, never read as HTML
    assert '<span id="claim-C1">C1</span>' in html and '<span id="claim-C3">C3</span>' in html


def test_verdict_details_left_aligned_with_role(root):
    styler = verdict_tables.verdict_details(root, PAPER)
    assert list(styler.data.columns) == verdict_tables.DETAIL_COLUMNS
    assert list(styler.data["scope"]) == ["Fig. 1a", "Fig. 1b", "Fig. 1b"]
    html = styler.to_html()
    assert "td.col5 {\n  text-align: left;" in html and "#f6d5d5" in html


def test_verdicts_of_the_old_format_raise_naming_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = Path(paths.claims("", "farewell"))
    path.parent.mkdir(parents=True)
    CLAIMS.drop(columns=["decided_by", "multiplicity"]).to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"farewell\.csv: missing columns \['decided_by'"):
        verdict_tables.verdicts("", PAPER)


def test_unknown_verdict_raises(root):
    CLAIMS.assign(verdict="probably").to_csv(paths.claims(root, "farewell"), index=False)
    with pytest.raises(ValueError, match="unknown verdict or evidence values"):
        verdict_tables.verdicts(root, PAPER)


def test_scorecard_groups_tests_apart_from_exact_computations(root, shown):
    html = verdict_tables.scorecard(root).to_html()
    assert "statistical tests" in html and "exact computations" in html
    assert "not checkable" in html and "farewell" in html
    assert shown and "Scorecard" in shown[0].data


def test_scorecard_shows_a_confirmed_erratum_in_a_neutral_colour(root, tmp_path, shown):
    frame = pd.concat([SCORECARD, SCORECARD.iloc[[0]].assign(scope="erratum")], ignore_index=True)
    frame.to_csv(paths.scorecard(root), index=False)
    styles = verdict_tables.scorecard(root)._compute().ctx
    fails = list(verdict_tables.SCORECARD_HEADER).index("exact_fails")
    assert ("background-color", "#f6d5d5") in styles[(0, fails)]  # the paper's: a failure
    assert ("background-color", verdict_tables.ERRATUM_COLOUR) in styles[
        (2, fails)
    ]  # the erratum's: neutral
    html = verdict_tables.scorecard(root).to_html()
    assert html.count("1 (erratum confirmed)") == 1  # in the front page's words


def _bound_rows(bound, metric, t, mean, bound_value, trivial):
    return pd.DataFrame(
        {
            "experiment": "fig1a",
            "algorithm": "wait_ucb",
            "bound": bound,
            "metric": metric,
            "t": t,
            "mean": mean,
            "se": 0.0,
            "max": mean,
            "runs_exceeding": 0,
            "n_runs": 3,
            "bound_value": bound_value,
            "trivial": trivial,
            "vacuous": ~(bound_value < trivial),
            "ratio": mean / bound_value,
        }
    )


@pytest.fixture
def figures(monkeypatch):
    """The figures ``plot_bound`` would show."""
    out = []
    monkeypatch.setattr(bound_plots, "show_matplotlib", out.append)
    return out


def _check_legend_matches_lines(fig):
    legend = fig.legends[0]
    line_colours = {mcolors.to_hex(line.get_color()) for ax in fig.axes for line in ax.lines}
    for handle, text in zip(legend.legend_handles, legend.get_texts()):
        colour = (
            handle.get_facecolor()
            if hasattr(handle, "get_facecolor") and not hasattr(handle, "get_color")
            else handle.get_color()
        )
        if not text.get_text().startswith("grey") and "(same colour)" not in text.get_text():
            assert mcolors.to_hex(colour) in line_colours, text.get_text()


def test_plot_bound_with_one_bound_per_pair_has_a_matching_legend(figures):
    t = np.array([1.0, 10.0, 100.0, 1000.0])
    rows = pd.concat(
        [
            _bound_rows(
                f"lemma2_k1_j{j}",
                f"pulls_k1_j{j}",
                t,
                np.array([0.0, 1e-15, 2.0, 3.0]) * j,
                10.0 * t * j,
                np.full(4, 5e3),
            )
            for j in range(1, 13)
        ]
    )
    bound_plots.plot_bound(rows, "fig1a", "lemma2", most=12)
    (fig,) = figures
    assert fig.get_size_inches()[0] == 7.0 and not fig._suptitle and not fig.axes[0].get_title()
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert [f"k1 j{j}" for j in range(1, 13)] == [l for l in labels if l.startswith("k1")]
    # one colour per pair, its mean and its bound in it
    colours = [mcolors.to_hex(h.get_color()) for h in fig.legends[0].legend_handles[:12]]
    assert len(set(colours)) == 12
    _check_legend_matches_lines(fig)
    top = fig.axes[0]
    for line in top.lines:
        y = np.asarray(line.get_ydata(), dtype=float)
        assert not np.any(y[np.isfinite(y)] < 1e-9 * np.nanmax(y))


def test_plot_bound_with_one_bound_draws_it_once_in_black(figures):
    t = np.array([1.0, 10.0, 100.0])
    rows = pd.concat(
        [
            _bound_rows(
                "theorem2",
                m,
                t,
                np.array([1.0, 2.0, 3.0]) * s,
                np.array([50.0, 60.0, 70.0]),
                np.array([10.0, 100.0, 1000.0]),
            )
            for m, s in (("pseudo_regret", 1.0), ("regret", 1.5))
        ]
    )
    bound_plots.plot_bound(rows, "fig1a", "theorem2")
    (fig,) = figures
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert labels[:3] == ["mean pseudo regret", "mean regret", "Theorem 2 bound"]
    assert sum(mcolors.to_hex(line.get_color()) == "#000000" for line in fig.axes[0].lines) == 2
    _check_legend_matches_lines(fig)


def test_plot_bound_marks_a_mean_of_zero_at_the_foot_of_the_log_axis(figures):
    """z-RCUCB's simple regret is 0 in every run at some horizons: a log axis has no 0, so each
    such point is an open triangle at the foot, named once in the legend's key, not a silent
    gap."""
    t = np.array([1.0, 10.0, 100.0])
    rows = _bound_rows(
        "theorem2",
        "simple_regret",
        t,
        np.array([0.5, 0.0, 0.0]),
        np.array([5.0, 5.0, 5.0]),
        np.array([10.0, 10.0, 10.0]),
    )
    bound_plots.plot_bound(rows, "fig1a", "theorem2")
    (fig,) = figures
    marks = [line for line in fig.axes[0].lines if line.get_marker() == "v"]
    assert len(marks) == 1 and list(marks[0].get_xdata()) == [10.0, 100.0]
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert "▽: mean 0 in every run" in labels


def test_plot_bound_keeps_the_bounds_closest_to_being_exceeded_and_shades_the_vacuous_t(figures):
    # Three pairs; the bound is vacuous at t = 1 and 10 (trivial 5), informative from t = 100.
    t = np.array([1.0, 10.0, 100.0, 1000.0])
    rows = pd.concat(
        [
            _bound_rows(
                f"lemma2_k1_j{j}",
                f"pulls_k1_j{j}",
                t,
                np.full(4, float(j)),
                np.array([10.0, 10.0, 4.0, 4.0]),
                np.full(4, 5.0),
            )
            for j in (1, 2, 3)
        ]
    )
    bound_plots.plot_bound(rows, "fig1a", "lemma2", most=2)
    (fig,) = figures
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert [l for l in labels if l.startswith("k1")] == ["k1 j2", "k1 j3"]
    assert "grey: every bound shown vacuous" in labels
    (span,) = [p for p in fig.axes[0].patches]
    assert span.get_x() == 1.0
    assert span.get_x() + span.get_width() == pytest.approx(np.sqrt(10 * 100))


def test_plot_at_horizon_shades_the_experiments_where_the_bound_is_vacuous(figures):
    rows = pd.concat(
        [
            _bound_rows(
                "theorem5_ctsab",
                "regret",
                np.array([60000.0]),
                np.array([m]),
                np.array([b]),
                np.array([tr]),
            ).assign(experiment=e)
            for e, m, b, tr in (("a", 10.0, 20.0, 5.0), ("b", 10.0, 20.0, 50.0))
        ]
    )
    bound_plots.plot_at_horizon(rows, ["theorem5_ctsab"], {"a": "μ 0.3", "b": "μ 0.1"})
    (fig,) = figures
    assert fig.get_size_inches()[0] == 7.0
    assert len(fig.axes[0].patches) == 1  # experiment a only
    assert [t.get_text() for t in fig.axes[1].get_xticklabels()] == ["μ 0.3", "μ 0.1"]


def test_log_safe_masks_zeros_and_rounding_residues():
    out = log_safe([0.0, 1e-15, -1.0, 0.5, 100.0, np.nan])
    assert np.isnan(out[[0, 1, 2, 5]]).all() and out[3] == 0.5 and out[4] == 100.0
    assert np.isnan(log_safe([0.0, 0.0])).all()


def test_every_algorithm_has_its_own_colour_line_style_and_marker():
    paper = {"algorithms": {f"a{i}": {} for i in range(8)}}
    styles = [algorithm_style(paper, f"a{i}") for i in range(8)]
    for key in ("color", "linestyle", "marker"):
        assert len({str(s[key]) for s in styles}) == 8
    assert algorithm_style(paper, "a2") == series_style(2)


def test_readable_hides_a_row_numbering_index_but_keeps_a_named_one():
    frame = pd.DataFrame({"instance": [3, 7], "holds": [True, False]}, index=[3, 7])
    assert 'class="row_heading' not in show.readable(frame).to_html()
    assert 'class="row_heading' in show.readable(frame.set_index("instance")).to_html()


def test_bound_summary_counts_only_informative_checkpoints():
    # Two checkpoints; the bound is vacuous at t = 10 (mean/bound 0.9 there) and informative at
    # t = 20 (0.2): the largest ratio is 0.2, from t = 20. Vacuous everywhere: no ratio at all.
    from timebandits.core.pages.bound_tables import bound_summary
    from timebandits.core.verdicts.bounds import compare_to_bound

    table = pd.DataFrame({0: [9.0, 2.0]}, index=pd.Index([10, 20], name="t"))
    rows = compare_to_bound(
        table,
        np.array([10.0, 10.0]),
        np.array([5.0, 50.0]),
        experiment="e",
        algorithm="a",
        bound_name="theorem2",
        metric="m",
    )
    summary = bound_summary(rows).iloc[0]
    assert summary["max mean/bound (informative)"] == pytest.approx(0.2)
    assert summary["at t"] == 20 and summary["informative from t"] == 20
    assert summary["share vacuous"] == pytest.approx(0.5)
    vacuous = compare_to_bound(
        table,
        np.array([10.0, 10.0]),
        np.array([5.0, 5.0]),
        experiment="e",
        algorithm="a",
        bound_name="theorem2",
        metric="m",
    )
    assert np.isnan(bound_summary(vacuous).iloc[0]["max mean/bound (informative)"])


def test_beyond_ten_series_the_first_ten_keep_the_ten_colours_of_a_short_list():
    # neighbours in a long list must not get two shades of one colour (tab20's dark/light pairs)
    assert [series_style(i, 11)["color"] for i in range(10)] == [
        series_style(i, 10)["color"] for i in range(10)
    ]
    assert series_style(10, 11)["color"] not in [series_style(i, 10)["color"] for i in range(10)]


def test_can_reach_shows_the_configs_reason_before_the_witnesses():
    row = pd.Series(
        {
            "evidence": "statistical test",
            "can_reproduce": False,
            "can_refute": False,
            "decidability": "cannot be reproduced as configured and cannot be refuted as "
            "configured: favourable witness: inconclusive (x). Why "
            "(config): the bound is vacuous up to T",
        }
    )
    assert verdict_tables.reachable(row) == "neither: the bound is vacuous up to T"
    row["decidability"] = "cannot be reproduced as configured: favourable witness: inconclusive (x)"
    row["can_refute"] = True
    assert verdict_tables.reachable(row) == (
        "only not reproduced: cannot be reproduced as configured: "
        "favourable witness: inconclusive (x)"
    )


@pytest.mark.parametrize(
    "text, shown",
    [
        ("vacuous until t = 3.15e+06", "vacuous until t = 3.15·10⁶"),
        ("p = 3.5e-05; 1e+07 steps", "p = 3.5·10⁻⁵; 10⁷ steps"),
        ("T = 10^3 ... 10^6, rate T^(2/3)", "T = 10³ ... 10⁶, rate T^(2/3)"),
        ("|A_j| <= j, 2053 +- 1.2e+02", "|Aⱼ| ≤ j, 2053 ± 1.2·10²"),
        ("fig1a, C8-s, CI 0.774-0.815", "fig1a, C8-s, CI 0.774-0.815"),  # ids and ranges untouched
        ("lambda(tau_max) = 10, nu_{i,tau}, alpha > 1", "λ(τ_max) = 10, ν_{i,τ}, α > 1"),
        ("a_{k,1}(s), N_{k,j}(s), x_{max}", "aₖ,₁(s), Nₖ,ⱼ(s), x_{max}"),  # braced indices
        ("e = sqrt(ln t/N); a multitude of taus", "e = √(ln t/N); a multitude of taus"),
        ("f = k^2, sum_i 1/Delta_i, T'^2, rate T^(2/3)", "f = k², sum_i 1/Δᵢ, T'², rate T^(2/3)"),
        # a hat and a one-character index; longer or unwritable indices and ids stay as written
        (
            "mu_hat, s_hat_i - s_i, r_0, kappa_min, R_T, t_Id, max_slope, fig4_poscorr, x_10",
            "\u03bc\u0302, s\u0302ᵢ - sᵢ, r₀, κ_min, R_T, t_Id, max_slope, fig4_poscorr, x_10",
        ),
    ],
)
def test_generated_text_is_shown_in_a_readers_notation(text, shown):
    assert show.prose(text) == shown
    assert show.number(text) == shown  # every text cell of a readable table


def test_claims_combined_the_same_way_share_one_line(root, shown):
    from timebandits.core import paths as p

    frame = CLAIMS.assign(
        multiplicity=["Holm over 6 experiments", None, "Holm over 6 experiments", None]
    )
    frame.to_csv(p.claims(root, "farewell"), index=False)
    verdict_tables.verdicts(root, PAPER)
    notes = [o.data for o in shown if not hasattr(o, "to_html") and "combined" in o.data]
    assert notes == [
        "How the sub-tests of a claim are combined:\n\n- **C1, C3**: Holm over 6 experiments"
    ]


def test_a_paper_whose_claims_combine_nothing_shows_no_combination_line(root, shown):
    # an all-empty multiplicity column is read back as floats (a one-claim paper's, e.g. the
    # one `make new-paper` writes)
    from timebandits.core import paths as p

    CLAIMS.assign(multiplicity=None).to_csv(p.claims(root, "farewell"), index=False)
    verdict_tables.verdicts(root, PAPER)
    assert not [o for o in shown if not hasattr(o, "to_html") and "combined" in str(o.data)]


def test_an_erratum_confirmed_reads_the_same_in_the_notebooks_as_on_the_front_page():
    rows = CLAIMS.assign(scope=["paper", "erratum", "extension", "paper"])
    table = verdict_tables.verdict_table(rows)
    assert table.data.loc["C2", "verdict"] == "erratum confirmed"
    assert f"background-color: {verdict_tables.ERRATUM_COLOUR}" in table.to_html()
    assert verdict_tables._counts(rows.iloc[[0, 1]]) == "1 reproduced, 1 erratum confirmed"


def test_a_shown_figure_is_described_in_one_line_for_its_alt_text(monkeypatch):
    import matplotlib.pyplot as plt

    out = []
    monkeypatch.setattr(show, "display", out.append)
    fig, axes = plt.subplots(1, 2)
    fig.suptitle("Theorem 2 against the runs")
    for ax in axes:
        ax.set_xlabel("round $t$")
        ax.set_ylabel("regret")
    show.show_matplotlib(fig)
    assert out[0].metadata == {"alt": "Theorem 2 against the runs; regret against round t"}
