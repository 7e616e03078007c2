"""The README and docs/: every relative link resolves (a file, or a heading of it), and the
README's first screen (60 lines) answers what this is, the two commands, where to look first and
each paper's result."""

import re

import pytest
import yaml
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
    papers = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["papers"]
    assert all(f"- **{key}**" in first for key in papers)
