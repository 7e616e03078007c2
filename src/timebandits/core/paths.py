"""Where every output lives, relative to the working directory; shared by the Snakemake rules,
the scripts and the notebooks. ``root`` is "" for the full scale and "<scale>/" otherwise.
Arguments may be Snakemake wildcard patterns such as "{paper}"."""

from __future__ import annotations

import os
from pathlib import Path


def trace_chunk(root, paper, experiment, start, stop) -> str:
    return f"{root}results/traces/{paper}/{experiment}/reps{start}-{stop}.parquet"


def summary(root, paper, experiment) -> str:
    return f"{root}results/summaries/{paper}/{experiment}.parquet"


def bounds(root, paper) -> str:
    return f"{root}results/bounds/{paper}.parquet"


def claims(root, paper) -> str:
    return f"{root}results/claims/{paper}.csv"


def claim_details(root, paper) -> str:
    return f"{root}results/claims/{paper}_details.csv"


def table(root, paper, name) -> str:
    return f"{root}results/tables/{paper}/{name}.csv"


def figure(root, paper, name, ext) -> str:
    return f"{root}figures/{paper}/{name}.{ext}"


def thumbnail(root, paper, name) -> str:
    """The front page's thumbnail of a figure (core/thumbnails.py): a panel, small."""
    return f"{root}figures/{paper}/thumbnails/{name}.png"


def notebook(root, name, ext) -> str:
    return f"{root}results/notebooks/{name}.{ext}"


def log(root, rule, name) -> str:
    return f"{root}logs/{rule}/{name}.log"


def scorecard(root) -> str:
    return f"{root}results/scorecard.csv"


def front_page(root) -> str:
    return f"{root}results/index.html"


def relative_to_notebook(path: str) -> str:
    """``path`` (relative to the working directory, under ``root``) as a link from a notebook's
    HTML (``<root>results/notebooks/``): the same at every scale."""
    parts = path.split("/")
    top = parts.index("results") if "results" in parts else parts.index("figures")
    return "../../" + "/".join(parts[top:])


def relative_to_front_page(path: str) -> str:
    """``path`` as a link from the front page (``<root>results/index.html``)."""
    parts = path.split("/")
    if "results" in parts:
        return "/".join(parts[parts.index("results") + 1 :])
    return "../" + "/".join(parts[parts.index("figures") :])


def scorecard_page(root) -> str:
    return f"{root}results/scorecard.html"


def enter_project(start: str | os.PathLike | None = None) -> Path:
    """Make the project's folder (the one that holds the Snakefile and config/config.yaml),
    found by walking up from ``start`` (the working directory), the working directory, and
    return it: a notebook re-run in Jupyter from its own folder (results/notebooks/) then reads
    the same relative paths as the workflow that executed it."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "Snakefile").is_file() and (folder / "config" / "config.yaml").is_file():
            os.chdir(folder)
            return folder
    raise FileNotFoundError(
        f"no project folder (with a Snakefile and config/config.yaml) at or above {here}"
    )
