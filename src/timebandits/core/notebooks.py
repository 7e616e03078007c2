"""Execute a notebook source (jupytext percent format, notebooks/*.py) into .ipynb and .html.

The cell tagged ``parameters`` holds defaults; an injected cell right after it sets the values
given here (papermill convention). The kernel runs in the current working directory (the
workflow's), so notebooks read results by the same relative paths as the workflow.
"""

from __future__ import annotations

import os
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

from .atomic import atomic_output


def _inject(notebook, parameters: dict) -> None:
    lines = [f"{name} = {value!r}" for name, value in parameters.items()]
    cell = nbformat.v4.new_code_cell("# Parameters injected by the workflow\n" + "\n".join(lines))
    cell.metadata["tags"] = ["injected-parameters"]
    tagged = [i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", [])]
    notebook.cells.insert(tagged[0] + 1 if tagged else 0, cell)


def _write_text(text: str, path: Path) -> None:
    with atomic_output(path) as tmp:
        Path(tmp).write_text(text)


def execute_notebook(source: str | os.PathLike, ipynb: str | os.PathLike, html: str | os.PathLike,
                     parameters: dict, timeout: int = 1200) -> None:
    """Run ``source`` top to bottom; a failing cell raises (and nothing is written)."""
    notebook = jupytext.read(source)
    _inject(notebook, parameters)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(Path.cwd())}})
    client.execute()
    body, _ = HTMLExporter().from_notebook_node(notebook)
    _write_text(nbformat.writes(notebook), Path(ipynb))
    _write_text(body, Path(html))
