"""Every claim shows the paper's own words (core/verdicts/quotes.py): its ``quote`` is found, piece
by piece and in order, in the paper's text; a failing quote is named in one line with its paper and
claim. The texts are in ../shared/papers (or $TIMEBANDITS_PAPERS), not in the repository."""

import pytest
import yaml
from conftest import REPO_ROOT

from timebandits.core.build.preflight import load_paper
from timebandits.core.verdicts.quotes import normalise, papers_folder, quote_of, quote_problem

PAPERS = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["papers"]
FOLDER = papers_folder(REPO_ROOT)

TEXT = (
    "We show that the op-\ntimal arm lies in the middle of [D], incurring a moder-\nate gap "
    "of ∆ = 0.124. Takes longer for “UCB-Simplex” to converge."
)


def test_a_quote_is_found_across_line_breaks_hyphens_and_symbols():
    assert quote_problem("the optimal arm lies in the middle of [D]", TEXT) is None
    assert quote_problem("a moderate gap of Δ = 0.124", TEXT) is None
    assert quote_problem('takes longer for "UCB Simplex" to converge', TEXT) is None
    assert normalise("Op-\ntimal  ARM") == normalise("optimal arm")


def test_the_pieces_of_a_quote_must_come_in_order():
    assert quote_problem("the optimal arm … Δ = 0.124 … to converge", TEXT) is None
    assert quote_problem("the optimal arm ... to converge", TEXT) is None
    problem = quote_problem("to converge … the optimal arm", TEXT)
    assert problem == "piece 2 not found after 1 piece(s) found: 'the optimal arm'"
    assert quote_problem("the optimal arm lies at the end", TEXT).startswith("piece 1 not found")


def test_a_sensitivity_claim_shows_its_parents_quote():
    paper = {"claims": [{"id": "C1", "quote": "the words"}, {"id": "C1-s", "parent": "C1"}]}
    assert quote_of(paper["claims"][1], paper) == "the words"
    assert quote_of({"id": "C2", "quote": "own"}, paper) == "own"
    assert quote_of({"id": "C3"}, paper) == ""


@pytest.mark.parametrize("key", PAPERS)
def test_every_quote_is_in_its_paper(key):
    paper = load_paper(key)
    source = FOLDER / paper["paper"]["source"]
    if not source.exists():
        pytest.skip(
            f"{source} is not here (the papers are not in the repository; set "
            "TIMEBANDITS_PAPERS to their folder)"
        )
    text = source.read_text(encoding="utf-8")
    wrong = [
        f"{key} {claim['id']}: {problem}"
        for claim in paper["claims"]
        if claim.get("quote") and (problem := quote_problem(claim["quote"], text))
    ]
    assert not wrong, "quotes not found in the paper:\n" + "\n".join(wrong)


@pytest.mark.parametrize("key", PAPERS)
def test_every_claim_but_a_sensitivity_claim_quotes_its_paper(key):
    unquoted = [
        claim["id"]
        for claim in load_paper(key)["claims"]
        if not claim.get("parent") and not claim.get("quote")
    ]
    assert not unquoted, f"{key}: claims without the paper's words (quote): {unquoted}"
