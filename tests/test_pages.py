"""What a reader opens, in a real browser (Debian's headless ``chromium``): the front page and
every notebook of the smoke build render (text and images laid out, not a blank page), every
local link and anchor they hold resolves, the answer starts within the first two screens
(1400 × 900 px), nothing is wider than the 1,400 px window, and no code text (a numpy repr, a
traceback, "+-") reaches the page. ``.ci/run`` installs chromium and sets
TIMEBANDITS_REQUIRE_BROWSER=1, so CI never skips these."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from conftest import REPO_ROOT
from PIL import Image

pytestmark = pytest.mark.workflow

WIDTH, SCREEN = 1400, 900
PAPERS = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["papers"]
PAGES = ["index.html", *(f"notebooks/{name}.html" for name in [*PAPERS, "comparison"])]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Written into the page's <body> once Chromium has loaded and laid it out: where the answer
# starts (the front page's claim grid, a notebook's first claim anchor), how wide the page is,
# how much text it shows and how many of its images were decoded and drawn with a size.
PROBE = """<script>window.addEventListener("load", () => {
  const first = document.querySelector('#answer, [id^="claim-"]');
  document.body.dataset.verdictsTop = first ? first.getBoundingClientRect().top + scrollY : -1;
  document.body.dataset.pageWidth = document.documentElement.scrollWidth;
  document.body.dataset.textLength = document.body.innerText.trim().length;
  document.body.dataset.imagesShown = [...document.images].filter(
    (i) => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 0).length;
});</script>"""
CODE_TEXT = [
    r"np\.float64\(",
    r"np\.int64\(",
    r"Traceback \(most recent call last\)",
    r"\+-",
    r"<pandas\.",
    r"<matplotlib\.",
    r"<IPython\.",
    r"\bNaN\b",
]


def chromium(*args: str) -> subprocess.CompletedProcess:
    if CHROMIUM is None:
        if os.environ.get("TIMEBANDITS_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium; CI installs it)")
    # A profile of its own: a browser the user has open cannot hold it.
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
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
                f"--window-size={WIDTH},{SCREEN}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )


class Links(HTMLParser):
    """Every href/src of a page, and every id it defines."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key):
                self.links.append(attrs[key])


@functools.cache
def parsed(path: Path) -> Links:
    links = Links()
    links.feed(path.read_text())
    return links


@pytest.fixture(scope="module")
def results(built) -> Path:
    return built / "smoke/results"


@pytest.mark.parametrize("page", PAGES)
def test_every_local_link_and_anchor_resolves(results, page):
    path = results / page
    for link in parsed(path).links:
        parts = urlsplit(link)
        if parts.scheme in ("http", "https", "mailto", "data") or not (
            parts.path or parts.fragment
        ):
            continue
        target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        assert target.is_file(), f"{page}: link {link} points to a missing file"
        if parts.fragment and target.suffix == ".html":
            assert parts.fragment in parsed(target).ids, f"{page}: no #{parts.fragment} in {target}"


def test_front_page_links_every_claim_and_every_paper_figure(results, built):
    links = parsed(results / "index.html").links
    for key in PAPERS:
        paper = yaml.safe_load((built / f"config/papers/{key}.yaml").read_text())
        for claim in paper["claims"]:
            assert f"notebooks/{key}.html#claim-{claim['id']}" in links
        for fid, spec in paper["figures"].items():
            if spec["group"] == "paper":
                for ext in ("png", "pdf"):
                    assert f"../figures/{key}/{fid}.{ext}" in links


@pytest.mark.parametrize("page", PAGES)
def test_no_code_text_reaches_the_page(results, page):
    visible = re.sub(r"<(script|style)\b.*?</\1>", "", (results / page).read_text(), flags=re.S)
    visible = re.sub(r'src="data:[^"]*"', "", visible)
    for pattern in CODE_TEXT:
        assert not re.search(pattern, visible), f"{page}: {pattern} in the page"


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_with_the_answer_first_and_nothing_wider_than_the_window(results, page):
    path = results / page
    probe = path.with_name(f".probe-{path.name}")
    probe.write_text(path.read_text().replace("</body>", PROBE + "</body>"))
    try:
        dom = chromium("--dump-dom", "--virtual-time-budget=10000", probe.as_uri()).stdout
    finally:
        probe.unlink()
    shown = {
        key: float(value)
        for key, value in re.findall(
            r'data-(verdicts-top|page-width|text-length|images-shown)="([-\d.]+)"', dom
        )
    }
    assert shown["text-length"] > 500 and shown["images-shown"] >= 1, f"{page} renders blank"
    assert shown["page-width"] <= WIDTH, f"{page} is {shown['page-width']:.0f} px wide"
    top = shown["verdicts-top"]
    assert 0 <= top < 2 * SCREEN, f"{page}: the answer starts at {top:.0f} px"


def test_every_figure_fits_a_double_column_page(built):
    """7 in at 200 dpi (a double column, the widest a paper prints) with a little margin."""
    figures = sorted((built / "smoke/figures").rglob("*.png"))
    assert figures
    for png in figures:
        width, _ = Image.open(png).size
        assert width <= 1440, f"{png.relative_to(built)} is {width} px wide (> 7.2 in at 200 dpi)"
