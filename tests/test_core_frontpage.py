"""The front page (core/pages/frontpage.py): every claim in one line linking to its notebook line
and the figures it reads, confirmed errata shown apart from failures, text escaped, relative links
only; and the notebook page parts (contents, folded tables) it links into."""

from pathlib import Path

import nbformat
import pandas as pd
import pytest
from PIL import Image
from test_core_display import CLAIMS, SCORECARD, root  # noqa: F401 (a fixture)

from timebandits.core import paths
from timebandits.core.pages import display as show
from timebandits.core.pages.frontpage import claim_experiments, figures_of, front_page
from timebandits.core.pages.notebooks import add_contents
from timebandits.core.pages.verdict_tables import ERRATUM_COLOUR, VERDICT_COLOURS

PAPER = {
    "paper": {"title": "A Farewell to Arms", "citation": "AISTATS 2020"},
    "figures": {
        "fig1a": {"experiment": "fig1a", "group": "paper", "title": "Fig. 1a"},
        "fig1b": {"experiment": "fig1b", "also": ["fig1a"], "group": "paper", "title": "Fig. 1b"},
        "sens_fig1a": {"experiment": "sens_fig1a", "group": "sensitivity", "title": "Sens."},
    },
    "experiments": {"fig1a": {}, "fig1b": {}, "sens_fig1a": {}},
    "claims": [
        {"id": "C1", "scope": "paper", "experiments": ["fig1a"]},
        {"id": "C2", "scope": "paper", "checks": [{"experiment": "fig1b"}]},
        {"id": "C3", "scope": "extension", "experiments": ["sens_fig1a"]},
        {"id": "C4", "scope": "paper"},
    ],
}


def test_claim_experiments_are_found_at_any_depth():
    known = {"a", "b", "c", "d", "e", "f", "g"}
    assert claim_experiments(
        {
            "experiments": ["a", "b"],
            "checks": [{"experiment": "c"}],
            "settings": {"inner": {"experiment": "d"}},
        },
        known,
    ) == {"a", "b", "c", "d"}
    assert claim_experiments({"id": "C4", "tested_as": "no runs"}, known) == set()
    # the pairs of a comparison (censored C2) and a table of printed values by experiment (C12)
    assert claim_experiments(
        {"pairs": [["a", "e"]], "values": {"f": 0.6, "g": 0.7}, "tested_as": "b"},
        {"a", "e", "f", "g"},
    ) == {"a", "e", "f", "g"}


def test_figures_of_a_claim_prefer_the_papers_own():
    assert figures_of(PAPER, {"fig1a"}) == ["fig1a", "fig1b"]  # fig1b also reads fig1a
    assert figures_of(PAPER, {"fig1a", "sens_fig1a"}) == ["fig1a", "fig1b"]
    assert figures_of(PAPER, {"sens_fig1a"}) == ["sens_fig1a"]  # only our extra runs
    assert figures_of(PAPER, set()) == []


def write_thumbnails(base: str, key: str, sizes: dict) -> None:
    """Blank thumbnails of ``sizes`` ({figure: (width, height)}), as the figure jobs leave them."""
    for fid, size in sizes.items():
        path = Path(paths.thumbnail(base, key, fid))
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new("P", size).save(path)


@pytest.fixture
def page(tmp_path, monkeypatch) -> str:
    monkeypatch.chdir(tmp_path)
    claims = CLAIMS.copy()
    claims.loc[0, "tested_as"] = "Wait-UCB <beats> UCB-Simplex & more"
    claims.loc[0, "quote"] = "the <paper> & its words"
    claims.loc[1, "scope"] = "erratum"
    for path, frame in (
        (paths.claims("smoke/", "farewell"), claims),
        (paths.scorecard("smoke/"), SCORECARD),
    ):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(path, index=False)
    write_thumbnails("smoke/", "farewell", {"fig1a": (383, 245), "fig1b": (640, 120)})
    paper = {
        **PAPER,
        "claims": [{**c, "scope": "erratum"} if c["id"] == "C2" else c for c in PAPER["claims"]],
    }
    return front_page("smoke/", {"farewell": paper}, software="Python 3.11.7 · numpy 2.4.6")


def test_every_claim_links_its_notebook_line_and_its_figures(page):
    for claim in ("C1", "C2", "C3", "C4"):
        assert f'href="notebooks/farewell.html#claim-{claim}"' in page
    assert 'href="notebooks/farewell.html#figure-fig1b"' in page  # C1 and C2 read it
    assert 'href="notebooks/farewell.html#figure-sens_fig1a"' in page  # C3's own runs
    # thumbnails of the paper's figures only, at their size, each linking the figure in the
    # notebook and its PDF and PNG; a wide one takes two places
    thumbs = page.split('<div class="thumbs">')[1].split("</div>")[0]
    assert (
        '<a href="notebooks/farewell.html#figure-fig1a"><img '
        'src="../figures/farewell/thumbnails/fig1a.png" width="383" height="245"'
    ) in thumbs
    assert 'href="../figures/farewell/fig1b.pdf"' in thumbs
    assert 'href="../figures/farewell/fig1b.png"' in thumbs
    assert '<figure class="thumb">' in thumbs and '<figure class="thumb wide">' in thumbs
    assert 'src="../figures/farewell/fig1a.png"' not in page  # never the figure
    assert "sens_fig1a" not in thumbs
    assert "http://" not in page and "https://" not in page


def test_the_page_states_the_software_that_produced_it(page):
    assert (
        "Produced with Python 3.11.7 · numpy 2.4.6 (pinned in <code>requirements.lock</code>)"
        in page
    )


def test_confirmed_erratum_is_not_shown_as_a_failure_and_text_is_escaped(page):
    # C2, the only "not reproduced", is an erratum: confirmed, in its own colour
    assert f'class="verdict" style="background: {ERRATUM_COLOUR}">erratum confirmed' in page
    assert f'class="verdict" style="background: {VERDICT_COLOURS["not reproduced"]}"' not in page
    assert "Wait-UCB &lt;beats&gt; UCB-Simplex &amp; more" in page
    assert "<q>the &lt;paper&gt; &amp; its words</q>" in page
    assert "<beats>" not in page


def test_sections_are_anchored_and_listed_after_the_title():
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Title"),
            nbformat.v4.new_markdown_cell("## 1. Verdicts\nthe answer"),
            nbformat.v4.new_code_cell("x = 1"),
            nbformat.v4.new_markdown_cell("text, not a section"),
            nbformat.v4.new_markdown_cell("## 2. Figures"),
        ]
    )
    add_contents(notebook)
    contents = notebook.cells[1].source
    assert "[1. Verdicts](#section-1)" in contents and "[2. Figures](#section-2)" in contents
    assert notebook.cells[2].source.startswith('<a id="section-1"></a>')
    assert notebook.cells[5].source.startswith('<a id="section-2"></a>')


def test_long_tables_fold_under_their_size_and_csv(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = Path(paths.table("", "farewell", "ratios"))
    path.parent.mkdir(parents=True)
    pd.DataFrame({"pair": range(30)}).to_csv(path, index=False)
    html = show.table("", "farewell", "ratios").data
    assert html.startswith('<details class="collapsed-table"><summary>ratios: 30 rows')
    assert "results/tables/farewell/ratios.csv" in html
    assert hasattr(show.table("", "farewell", "ratios", collapse=30), "to_html")  # short: as is


def test_figures_show_title_caption_links_and_fold():
    spec = {"title": "Fig. 1a", "caption": "R_t < t·g* & more", "group": "paper"}
    html = show.figure_html("smoke/", "farewell", spec, "fig1a")
    assert 'id="figure-fig1a"' in html and "<strong>Fig. 1a</strong>" in html
    assert 'href="../../figures/farewell/fig1a.pdf"' in html  # from results/notebooks/
    assert (
        "R_t &lt; t·g* &amp; more" in html and '<img src="../../figures/farewell/fig1a.png"' in html
    )
    folded = show.folded_figures("smoke/", "farewell", {"fig1a": spec}, "1 figure").data
    assert folded.startswith('<details class="collapsed-table"><summary>1 figure</summary>')
    assert 'id="figure-fig1a"' in folded


@pytest.mark.parametrize(
    "edit, message",
    [
        # a table cut at a row boundary: the erratum and the rest gone, rc 0 before
        (
            lambda claims: claims.iloc[:2],
            r"holds 2 claims, the paper file 4 \(missing C3, C4\); rebuild it",
        ),
        # a verdict edited to "reproduced" where the claim could not reach it as configured
        (
            lambda claims: claims.assign(
                verdict=["reproduced", "not reproduced", "reproduced", "not checkable"]
            ),
            r"C3 reproduced although as configured it could not reach both verdicts; rebuild it",
        ),
        (lambda claims: claims.assign(verdict="probably"), r"unknown verdict or evidence values"),
    ],
)
def test_a_claims_table_that_is_not_whole_or_consistent_is_refused(root, edit, message):  # noqa: F811
    from timebandits.core import paths
    from timebandits.core.verdicts.scorecard import read_claims

    edit(CLAIMS).to_csv(paths.claims(root, "farewell"), index=False)
    with pytest.raises(ValueError, match=message):
        read_claims(paths.claims(root, "farewell"), PAPER)


def test_the_first_screen_adds_up_and_puts_extensions_on_their_own_line(page):
    """The papers' own claims over all papers, then each paper's line whose numbers add up to
    its claims (an exact computation that holds is "reproduced"), its errata apart, its claims
    each with a label, and its extensions on a line of their own; a claim that could not reach
    both verdicts is marked, not struck through."""
    assert (
        "<strong>The papers' own claims, all five papers:</strong>\n2 claims: 1 reproduced, "
        "0 not reproduced, 1 not checkable."
    ) in page
    assert (
        "the paper's 2 claims: 1 reproduced, 0 not reproduced, 1 not checkable"
        '<span class="errata">; 1 erratum confirmed</span>'
    ) in page
    own, extensions = page.split('<ul class="own">')[1].split('<div class="ext">')
    assert "claim-C1" in own and "claim-C2" in own and "claim-C4" in own and "claim-C3" not in own
    assert (
        "1 claim: 0 reproduced, 0 not reproduced, 1 inconclusive" in extensions.split("</div>")[0]
    )
    assert 'class="chip extension one-sided"' in extensions and "line-through" not in page
    assert "</a> Wait-UCB &lt;beats&gt; UCB-Simplex &amp; more</li>" in own


def test_a_long_label_is_cut_at_a_word():
    from timebandits.core.pages.frontpage import short_label

    text = "Theorem 2's rate: Wait-UCB's regret grows logarithmically, in every experiment whose"
    assert short_label(text, 40) == "Theorem 2's rate: Wait-UCB's regret …"
    assert short_label("short", 40) == "short"


def test_the_words_of_the_verdicts_are_explained_on_the_page(page):
    glossary = page.split('id="glossary"')[1].split("</details>")[0]
    for term in ("inconclusive", "intersection–union", "fragile", "witness", "†", "cause"):
        assert term in glossary, term
