"""Execute a notebook source (jupytext percent format, notebooks/*.py) into .ipynb and .html.

The cell tagged ``parameters`` holds defaults; an injected cell right after it sets the values
given here (papermill convention). The kernel runs in the current working directory (the
workflow's), so notebooks read results by the same relative paths as the workflow.

The HTML is for readers: input code hidden (the .ipynb keeps it), a table of contents after the
title, and the page template ``core/pages/templates/notebook_page`` (no network, nothing wider than
the page).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

from timebandits.core.atomic import atomic_output
from timebandits.core.pages.render import TEMPLATES, render
from timebandits.core.versions import LOCK


def _inject(notebook, parameters: dict) -> None:
    lines = [f"{name} = {value!r}" for name, value in parameters.items()]
    cell = nbformat.v4.new_code_cell("# Parameters injected by the workflow\n" + "\n".join(lines))
    cell.metadata["tags"] = ["injected-parameters"]
    tagged = [i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", [])]
    notebook.cells.insert(tagged[0] + 1 if tagged else 0, cell)


def add_contents(notebook) -> None:
    """Anchor every section heading (``## …`` at the start of a Markdown cell) as
    ``section-<n>`` and list them, linked, in a cell after the first (the title)."""
    sections = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and cell.source.startswith("## "):
            anchor = f"section-{len(sections) + 1}"
            title = cell.source.splitlines()[0][3:].strip()
            sections.append({"title": title, "anchor": anchor})
            cell.source = f'<a id="{anchor}"></a>\n\n' + cell.source
    if sections:
        notebook.cells.insert(
            1, nbformat.v4.new_markdown_cell(render("toc.md.j2", sections=sections))
        )


def repeat_per_paper(notebook, titles: dict[str, str]) -> None:
    """Write the cells tagged ``each-paper`` (a run of cells: a section of the comparison
    notebook) once per paper of the build, in the order of ``titles`` ({key: title}), with
    ``{key}``, ``{title}`` and ``{number}`` (the section's number among the ``## `` headings)
    filled in: a paper added to the registry and the config gets its section with no edit of
    the notebook."""
    tagged = [i for i, c in enumerate(notebook.cells) if "each-paper" in c.metadata.get("tags", [])]
    if not tagged:
        return
    block = [notebook.cells[i] for i in tagged]
    before = notebook.cells[: tagged[0]]
    first = 1 + sum(c.cell_type == "markdown" and c.source.startswith("## ") for c in before)
    copies = []
    for number, (key, title) in enumerate(titles.items(), first):
        for cell in block:
            copy = nbformat.from_dict(cell)
            copy.source = (
                cell.source.replace("{key}", key)
                .replace("{title}", title)
                .replace("{number}", str(number))
            )
            copy.metadata["tags"] = [t for t in cell.metadata["tags"] if t != "each-paper"]
            copies.append(copy)
    notebook.cells = (
        before
        + copies
        + [c for i, c in enumerate(notebook.cells) if i > tagged[0] and i not in tagged]
    )


# The plain-text fallback of a rich output that only names an object and its address (a Styler's
# "<pandas.io.formats.style.Styler at 0x7f...>"), which differs from run to run.
_ADDRESS_REPR = re.compile(r"<[^<>]* at 0x[0-9a-f]+>")


def same_bits(notebook) -> None:
    """What differed between two runs of one notebook: nbformat's random cell ids become
    ``cell-<n>``, and an object's address is dropped where a rich output stands beside it."""
    for number, cell in enumerate(notebook.cells, 1):
        cell.id = f"cell-{number}"
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if len(data) > 1 and _ADDRESS_REPR.fullmatch(str(data.get("text/plain", ""))):
                del data["text/plain"]


def _write_text(text: str, path: Path) -> None:
    with atomic_output(path) as tmp:
        Path(tmp).write_text(text)


def execute_notebook(
    source: str | os.PathLike,
    ipynb: str | os.PathLike,
    html: str | os.PathLike,
    parameters: dict,
    software: str,
    titles: dict[str, str] | None = None,
    timeout: int = 1200,
) -> None:
    """Run ``source`` top to bottom, its ``each-paper`` cells once per paper of ``titles``
    ({key: title}, :func:`repeat_per_paper`); a failing cell raises (and nothing is written).
    The page ends with the ``software`` that produced it (core/versions.py)."""
    notebook = jupytext.read(source)
    repeat_per_paper(notebook, titles or {})
    _inject(notebook, parameters)
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(Path.cwd())}},
    )
    client.execute()
    add_contents(notebook)
    notebook.cells.append(
        nbformat.v4.new_markdown_cell(
            f"<small>Produced with {software} (pinned in <code>{LOCK}</code>).</small>"
        )
    )
    same_bits(notebook)
    exporter = HTMLExporter(
        template_name="notebook_page",
        extra_template_basedirs=[str(TEMPLATES)],
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    body, _ = exporter.from_notebook_node(notebook)
    _write_text(nbformat.writes(notebook), Path(ipynb))
    _write_text(body, Path(html))
