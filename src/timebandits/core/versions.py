"""The versions of the software that produced an output, which the front page and every notebook
state: Python's and that of each package timebandits depends on (its installed requirements,
read from the package metadata, so the list is pyproject.toml's). ``make`` installs them from the
hash-pinned ``requirements.lock`` (docs/running.md, "A locked environment")."""

from __future__ import annotations

import platform
from importlib import metadata

from packaging.requirements import Requirement

LOCK = "requirements.lock"


def runtime_requirements(distribution: str = "timebandits") -> list[str]:
    """The names of ``distribution``'s requirements outside any extra, in pyproject's order."""
    requirements = [Requirement(text) for text in metadata.requires(distribution) or []]
    return [r.name for r in requirements if r.marker is None or "extra" not in str(r.marker)]


def software_versions() -> dict[str, str]:
    """Python and every runtime requirement, with the version installed in this environment."""
    return {
        "Python": platform.python_version(),
        **{name: metadata.version(name) for name in runtime_requirements()},
    }


def versions_line() -> str:
    """``Python 3.11.7 · snakemake 9.1.0 · numpy 2.2.1 · …``, for a page's footer."""
    return " · ".join(f"{name} {version}" for name, version in software_versions().items())
