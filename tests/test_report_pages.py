"""Every page opens in both forms of Snakemake's report. The single-file form
(``--report report.html``) shows a page as a base64 ``data:`` URL in an iframe, and Chromium
opens no URL over 2 MB: a page's HTML must stay under about 1.5 MB, so a paper's figures are
linked, not embedded (display.figure_html), and the comparison's inline plots are small
(display.inline_png). A linked figure shows where the build puts it (``results/notebooks/`` →
``figures/``) and where the unpacked zip report does (``data/raw/<id>/``); in the single-file
form one line says where the figure is in the report. The front page is in the report."""

from __future__ import annotations

import base64
import io
import re
import shutil
import zipfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO_ROOT, snakemake
from PIL import Image
from test_pages import chromium

from timebandits.core import paths
from timebandits.core.pages import display as show
from timebandits.core.pages import plotting

# Chromium's longest URL (url::kMaxURLChars): the single-file report's data: URL of a page.
URL_LIMIT = 2 * 1024 * 1024
# A page's HTML (base64 adds a third), with room for the report's prefix and a margin.
PAGE_LIMIT = 1_500_000
SPEC = {"title": "Fig. 1a", "caption": "R_t < t·g*", "group": "paper"}
PAPERS = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["papers"]


def report_id(path: str) -> str:
    """The folder of ``path`` in the zip report, as Snakemake names it."""
    from snakemake.common import get_report_id
    from snakemake.iocontainers import FILE_HASH_PREFIX_LEN

    return get_report_id(path)[:FILE_HASH_PREFIX_LEN]


def test_a_figure_is_linked_not_embedded_and_says_where_it_is_in_the_report():
    html = show.figure_html("", "farewell", SPEC, "fig1a")
    assert "base64" not in html and "data:" not in html
    assert len(html) < 2_000  # whatever the PNG's size: 38 figures stay far below PAGE_LIMIT
    assert '<img src="../../figures/farewell/fig1a.png"' in html
    copy = f"../{report_id('figures/farewell/fig1a.png')}/fig1a.png"
    assert f'data-in-report="{copy}"' in html
    assert re.search(
        r'class="figure-elsewhere" hidden><em>[^<]*farewell › paper › figure fig1a'
        r"[^<]*figures/farewell/fig1a.png",
        html,
    )
    smoke = show.figure_html("smoke/", "farewell", SPEC, "fig1a")
    assert f"../{report_id('smoke/figures/farewell/fig1a.png')}/fig1a.png" in smoke


def busy_figure():
    """A double-column plot with many noisy lines and bands: more colours and edges than any of
    the comparison notebook's."""
    rng = np.random.default_rng(1)
    fig, axes = plt.subplots(1, 2, figsize=(plotting.DOUBLE_COLUMN, 4.7), layout="constrained")
    t = np.arange(1, 400)
    for ax in axes:
        for k in range(8):
            mean = np.cumsum(rng.random(t.size)) * (1 + k / 4)
            ax.plot(t, mean, label=f"policy {k} ($\\kappa = {k}$)")
            ax.fill_between(t, 0.9 * mean, 1.1 * mean, alpha=0.2)
        ax.set_yscale("log")
        ax.set_xlabel("round $t$")
        ax.set_ylabel("regret $R_t$")
        ax.legend(ncol=2)
    return fig


def test_an_inline_plot_is_small_enough_for_a_page_of_them():
    """The comparison notebook shows 15 plots besides about 0.9 MB of tables and styles: each
    under 40 kB keeps the page under PAGE_LIMIT (at 200 dpi in full colour they took 2.6 MB)."""
    with plt.rc_context():
        plotting.apply_style()
        shown = []
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(show, "display", shown.append)
            show.show_matplotlib(busy_figure())
    png = shown[0].data
    assert len(png) < 40_000
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and abs(image.width - plotting.DOUBLE_COLUMN * show.INLINE_DPI) < 60


def test_a_long_table_carries_no_id_per_cell():
    frame = pd.DataFrame(
        {"experiment": [f"fig{i}" for i in range(200)], "mean": np.linspace(1, 2, 200)}
    )
    html = show.readable(frame).to_html()
    assert "_row" not in html
    assert len(html) < 200 * 2 * 60 + 3_000  # a cell in 60 characters (with its id, 90)


def browser(url: str) -> str:
    """The DOM of ``url`` after Chromium has loaded it and run its scripts."""
    return chromium("--dump-dom", "--virtual-time-budget=5000", url).stdout


PROBE = """<script>addEventListener("load", () => { document.body.dataset.shown =
  [...document.images].filter((i) => i.complete && i.naturalWidth > 0 && !i.hidden).length; });
</script>"""


def page(folder: Path, name: str) -> Path:
    """A notebook-like page holding Fig. 1a (figure_html) in ``folder``, and Fig. 1a's PNG at
    no place yet."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    body = show.figure_html("", "farewell", SPEC, "fig1a")
    path.write_text(
        f'<!doctype html><html><head><meta charset="utf-8"></head><body>{body}{PROBE}</body></html>'
    )
    return path


def png_at(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 30), "white").save(path)


def shown(dom: str) -> tuple[int, bool, bool]:
    """How many images the page shows, whether its PDF/PNG links and whether its line saying
    where the figure is are shown."""
    images = int(re.search(r'data-shown="(\d+)"', dom).group(1))
    links = re.search(r'<span class="figure-files"( hidden="")?>', dom).group(1) is None
    line = re.search(r'<p class="figure-elsewhere"( hidden="")?>', dom).group(1) is None
    return images, links, line


def test_a_figure_shows_in_the_build_in_the_zip_report_and_is_named_in_the_single_file_one(
    tmp_path,
):
    build = page(tmp_path / "build", "results/notebooks/farewell.html")
    png_at(tmp_path / "build/figures/farewell/fig1a.png")
    assert shown(browser(build.as_uri())) == (1, True, False)
    # unpacked zip: every result in data/raw/<its id>/
    raw = tmp_path / "report/data/raw"
    unpacked = page(raw / report_id("results/notebooks/farewell.html"), "farewell.html")
    png_at(raw / report_id("figures/farewell/fig1a.png") / "fig1a.png")
    assert shown(browser(unpacked.as_uri())) == (1, False, False)
    # single file: the page is a data: URL, where no relative link resolves
    data = "data:text/html;base64," + base64.b64encode(build.read_bytes()).decode()
    assert shown(browser(data)) == (0, False, True)


@pytest.fixture
def smoke_build(built, tmp_path) -> Path:
    """A copy of the smoke build, with the repository's paper files: tests/test_workflow.py
    edits the shared build's for a moment, which a report made beside it would read."""
    copy = tmp_path / "build"
    shutil.copytree(built, copy, symlinks=True)
    shutil.rmtree(copy / "config")
    shutil.copytree(REPO_ROOT / "config", copy / "config")
    return copy


@pytest.mark.workflow
def test_both_report_forms_hold_the_front_page_and_every_page_opens(smoke_build, tmp_path):
    """The zip form is built; the single-file form embeds each page as the data: URL that
    Snakemake's own ``data_uri`` makes of the same file, so its length is checked from the zip."""
    from snakemake.report.common import data_uri

    zipped = tmp_path / "report.zip"
    result = snakemake(
        smoke_build, "--profile", "profiles/smoke", "--cores", "1", "--report", str(zipped)
    )
    assert result.returncode == 0, result.stderr[-3000:]
    pages = [
        paths.front_page("smoke/"),
        paths.scorecard_page("smoke/"),
        *(paths.notebook("smoke/", name, "html") for name in [*PAPERS, "comparison"]),
    ]
    linked = 0
    with zipfile.ZipFile(zipped) as archive:
        names = set(archive.namelist())
        for path in pages:
            inside = f"report/data/raw/{report_id(path)}/{Path(path).name}"
            assert inside in names, path  # the front page is registered in the report
            html = archive.read(inside).decode()
            assert len(html.encode()) < PAGE_LIMIT, path
            uri = data_uri(html.encode(), Path(path).name, mime="text/html")
            assert len(uri) < URL_LIMIT, (path, len(uri))
            for copy in re.findall(r'data-in-report="\.\./([^"]+)"', html):
                assert f"report/data/raw/{copy}" in names, (path, copy)
                linked += 1
    assert linked >= len(PAPERS) * 4  # the papers' figures, each shown from the report's copy
