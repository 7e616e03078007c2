"""core/pages/failures.py: each notebook's "What failed and why", from the claims table alone."""

import pytest
from test_core_display import CLAIMS, root  # noqa: F401 (a fixture)

from timebandits.core.pages import failures

PAPER = {
    "experiments": {"thm1_fig1b": {}, "fig1a": {}},
    "figures": {
        "fig1a": {"experiment": "fig1a", "group": "paper"},
        "thm1": {"experiment": "thm1_fig1b", "group": "theory", "short": "Thm 1: Fig. 1b"},
    },
    "claims": [
        {"id": "C1", "scope": "paper", "experiments": ["fig1a"]},
        {"id": "C2", "scope": "paper", "experiments": ["thm1_fig1b"]},
        {"id": "C3", "scope": "extension"},
        {"id": "C4", "scope": "paper"},
    ],
}


@pytest.fixture
def shown(monkeypatch):
    out = []
    monkeypatch.setattr(failures, "display", out.append)
    return out


def test_only_failed_paper_claims_with_their_cause_and_figures():
    table = failures.failed_claims(CLAIMS, PAPER)
    # C2 is the one paper claim not reproduced; C3 (extension) and C4 are not failures
    assert table.index.tolist() == ["C2"]
    row = table.loc["C2"]
    assert row["cause"] == "erratum"
    assert row["why"] == "An exact computation shows it false: A_10 = −0.41 < 0."
    assert row["figures"] == "thm1"


def test_the_section_links_each_claim_and_figure(root, shown):  # noqa: F811
    failures.what_failed(root, "farewell", PAPER)
    heading, table = shown  # C2 has no variant: nothing folded below
    assert "1 of the paper's own claims did not reproduce" in heading.data
    html = table.to_html()
    # the figure linked by its anchor, shown by its short name
    assert (
        '<a href="#claim-C2">C2</a>' in html and '<a href="#figure-thm1">Thm 1: Fig. 1b</a>' in html
    )
    assert list(table.data.columns) == ["cause", "why", "figures"]


def test_every_variant_tried_is_folded_below(root, shown, tmp_path):  # noqa: F811
    from timebandits.core import paths

    tried = "at α/2 = 0.025: C2-a (λ = 0.01): not reproduced; C2-b (λ = 0.1): inconclusive"
    CLAIMS.assign(variants=["", tried, "", ""]).to_csv(paths.claims(root, "farewell"), index=False)
    failures.what_failed(root, "farewell", PAPER)
    folded = shown[-1].data
    assert folded.startswith("<details><summary>Every variant tried for each failed claim")
    assert "C2-b (λ = 0.1): inconclusive" in folded and '<a href="#claim-C2">C2</a>' in folded


def test_no_failure_says_so(root, shown):  # noqa: F811
    from timebandits.core import paths

    passing = CLAIMS.assign(
        verdict=["reproduced", "reproduced", "inconclusive", "not checkable"],
        cause="",
        cause_line="",
    )
    passing.to_csv(paths.claims(root, "farewell"), index=False)
    failures.what_failed(root, "farewell", PAPER)
    assert [s.data for s in shown] == [
        "**What failed and why.** None of the paper's own claims failed."
    ]
