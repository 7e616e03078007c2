"""The report's figure captions (workflow/report/figure.rst) read as written: reStructuredText
would turn a caption's leading "(a)" into a numbered list shown as "1.", and its * and _ into
markup."""

from types import SimpleNamespace

import jinja2
import pytest
from conftest import REPO_ROOT
from docutils.core import publish_parts


def rendered(title: str, caption: str) -> str:
    template = jinja2.Template((REPO_ROOT / "workflow/report/figure.rst").read_text())
    text = template.render(
        snakemake=SimpleNamespace(params=SimpleNamespace(title=title, caption=caption))
    )
    return publish_parts(text, writer="html")["body"]


@pytest.mark.parametrize(
    "caption",
    ["(a) Cumulative regret; (b) share of censored rounds.", "1. The grid; 2. after extending it."],
)
def test_a_caption_that_starts_like_a_list_reads_as_written(caption):
    html = rendered("Fig. 4", caption)
    assert "<ol" not in html and caption.split(";")[0].split(" ", 1)[1] in html
    assert caption[:2] in html


def test_markup_characters_stay_plain_text():
    html = rendered("optimum j*=5", "π_low and π_ucb, |A_j| ≤ j")
    assert "j*=5" in html and "π_low and π_ucb, |A_j| ≤ j" in html and "<em>" not in html
