"""The front page fits a window 800 px wide without scrolling sideways, and still reads at
1,400 px: nothing in its CSS is fixed wider than the narrow window allows, and in Chromium the
page, its scorecard and its claims tables (folded there into one block per claim) lie within
the window; its thumbnails are shown at their own size, three to a row at 1,400 px. The
scorecard's page of its own fits 800 px too."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from test_core_display import CLAIMS
from test_core_frontpage import write_thumbnails

from timebandits.core import paths
from timebandits.core.pages.frontpage import front_page
from timebandits.core.pages.render import render
from timebandits.core.pages.verdict_tables import SCORECARD_NOTE, scorecard_table

NARROW, WIDE = 800, 1400
BUDGET = NARROW - 2 * 20  # the body's side padding at most
FONT = 14  # px: the body's font size, for widths in em
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Written into the page once Chromium has laid it out: how wide the page is, the widest of its
# scrolling boxes' contents beyond their box, how many thumbnails share the first row, and how
# the first claims row is laid out.
PROBE = """<script>window.addEventListener("load", () => {
  const d = document.body.dataset;
  d.pageWidth = document.documentElement.scrollWidth;
  d.windowWidth = document.documentElement.clientWidth;
  d.overflow = Math.max(0, ...[...document.querySelectorAll("div.scroll")].map(
    (box) => box.scrollWidth - box.clientWidth));
  const thumbs = [...document.querySelectorAll("figure.thumb")].map((f) => \
f.getBoundingClientRect());
  d.firstRow = thumbs.filter((r) => r.top === thumbs[0]?.top).length;
  d.thumbScale = Math.min(...[...document.querySelectorAll("figure.thumb img")].map(
    (i) => i.getBoundingClientRect().width / i.naturalWidth));
  const row = document.querySelector("table.claims tr:not(.head)");
  d.claimRow = row ? getComputedStyle(row).display : "none";
});</script>"""

# A real build's longest words: a paper's full scorecard, with errata; long figure ids.
SCORECARD = pd.DataFrame(
    [
        {
            "paper": paper,
            "scope": scope,
            "claims": 42,
            "reproduced": 16,
            "not_reproduced": 37,
            "inconclusive": 11,
            "exact": 4,
            "exact_holds": 3,
            "exact_fails": 4 if scope == "erratum" else 1,
            "not_checkable": 2,
            "undecidable": 4,
        }
        for paper in ("farewell", "censored", "anonymous", "continuous", "delaydep")
        for scope in ("paper", "extension", "erratum")
    ]
)
THUMBNAILS = {
    "extra_linear_decreasing_100_f": (460, 248),
    "fig4_poscorr": (460, 248),
    "fig4_negcorr": (460, 248),
    "sens_literal_grid_fig8_n80": (640, 114),
}
PAPER = {
    "paper": {
        "title": "Multi-Armed Bandits with Censored Consumption of Resources",
        "citation": "V. Bengs, E. Hüllermeier. Machine Learning 112 (2023)",
    },
    "figures": {
        fid: {"experiment": "e", "group": "paper", "title": f"Fig. {fid}"} for fid in THUMBNAILS
    },
    "experiments": {"e": {}},
    "claims": [
        {"id": "C1", "scope": "paper", "experiments": ["e"]},
        {"id": "C2", "scope": "paper", "experiments": ["e"]},
        {"id": "C3", "scope": "extension", "experiments": ["e"]},
        {"id": "C4", "scope": "paper"},
    ],
}


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    """The front page of a paper with the long words of a real build, written to disk."""
    root = tmp_path_factory.mktemp("front") / "smoke"
    claims = CLAIMS.assign(
        decided_by="fig4_poscorr RCUCB vs UCB: 0/100 runs lower; refuted by "
        "the opposite test, p < 10⁻³⁰⁰ < α/6 = 0.0083 (5 of 6 sub-checks)",
        tested_as="RCUCB distinctly outperforms both UCB and TS on each "
        "problem instance (PosCorr, NegCorr, Indep; Fig. 4)",
    )
    prefix = f"{root}/"
    for path, frame in (
        (paths.claims(prefix, "censored"), claims),
        (paths.scorecard(prefix), SCORECARD),
    ):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        frame.to_csv(path, index=False)
    write_thumbnails(prefix, "censored", THUMBNAILS)
    html = front_page(prefix, {"censored": PAPER}, software="Python 3.11")
    path = Path(paths.front_page(prefix))
    path.write_text(html)
    return path


def test_no_width_in_the_css_exceeds_the_narrow_window(page):
    """Every fixed width or minimum width of the page's CSS (its template's, its tables') fits
    800 px less the body's padding."""
    css = "\n".join(re.findall(r"<style[^>]*>(.*?)</style>", page.read_text(), flags=re.S))
    assert re.search(r"@media \(max-width: \d+px\)", css), "no layout for a narrow window"
    rules = re.sub(r"@media[^{]*", "", css)  # the windows a rule is for are not widths
    widths = re.findall(r"(?<![-\w])(?:min-)?width:\s*([\d.]+)(px|em)", rules)
    assert widths, "no widths found: the check reads nothing"
    for value, unit in widths:
        assert float(value) * (FONT if unit == "em" else 1) <= BUDGET, f"width {value}{unit}"


def _layout(page: Path, width: int) -> dict:
    if CHROMIUM is None:
        if os.environ.get("TIMEBANDITS_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium; CI installs it)")
    probe = page.with_name(f".probe-{width}.html")
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--window-size={width},900",
                "--virtual-time-budget=5000",
                "--dump-dom",
                probe.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    found = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', dom.split("<body", 1)[1].split(">", 1)[0]))
    assert "page-width" in found, "the page did not load"
    return found


def test_at_800_px_nothing_scrolls_sideways_and_claims_fold(page):
    shown = _layout(page, NARROW)
    assert float(shown["page-width"]) <= float(shown["window-width"]) <= NARROW
    assert float(shown["overflow"]) == 0  # the scorecard and claims tables are not cut
    assert shown["claim-row"] == "flex"  # a claim is a block, not a row of six columns
    assert float(shown["thumb-scale"]) == 1  # thumbnails at their size, one to a row


def test_at_1400_px_claims_are_a_table_and_thumbnails_three_to_a_row(page):
    shown = _layout(page, WIDE)
    assert float(shown["page-width"]) <= WIDE and float(shown["overflow"]) == 0
    assert shown["claim-row"] == "table-row"
    assert int(shown["first-row"]) == 3 and float(shown["thumb-scale"]) >= 0.9


def test_the_scorecard_page_fits_800_px(tmp_path):
    page = tmp_path / "scorecard.html"
    page.write_text(
        render("scorecard.html.j2", note=SCORECARD_NOTE, table=scorecard_table(SCORECARD).to_html())
    )
    assert float(_layout(page, NARROW)["page-width"]) <= NARROW
