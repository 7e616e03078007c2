"""The README and docs/: every relative link resolves (a file, or a heading of it), and the
README's first screen (60 lines) answers what this is, the two commands, where to look first and
where the papers are described; and no page states a result by hand (the build states them)."""

import re

import pytest
from conftest import REPO_ROOT

DOCS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    return {
        re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
        for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)
    }


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_resolves(doc):
    broken = []
    for target in LINK.findall(doc.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists() or (anchor and path.suffix == ".md" and anchor not in anchors(path)):
            broken.append(target)
    assert not broken, f"{doc.name}: links that do not resolve: {broken}"


def test_the_first_screen_answers_a_newcomer():
    first = "\n".join((REPO_ROOT / "README.md").read_text().splitlines()[:60])
    assert "```bash\nmake " in first and "\nmake test" in first
    assert "results/index.html" in first
    assert "docs/papers.md" in first


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_result_is_stated_by_hand(doc):
    """The build states results (the front page, the notebooks); a count of claims by verdict
    written into the README or docs would go stale with the next build."""
    counted = re.findall(
        r"\b\d+ (?:claims?\b|(?:not )?reproduced|inconclusive|errat)", doc.read_text()
    )
    assert not counted, f"{doc.name} states results by hand: {counted}"
