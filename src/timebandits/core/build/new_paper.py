"""``make new-paper KEY=<key>``: write a minimal paper that builds at smoke scale as it stands.

``python -m timebandits.core.build.new_paper <key> [--root DIR]`` renders the Jinja2 templates of
``core/build/templates/new_paper/`` into the paper's own files (its config, with a first guess of
its ``cluster_cost``; its subpackage with every module the registry's contract names; its
notebook and a test of its simulation), then registers it: ``"<key>": "timebandits.<key>",`` in
``PAPER_PACKAGES`` of ``src/timebandits/core/registry.py``, and the key last in ``papers`` of
``config/config.yaml``. Both edits are made on the text, so every comment stays. Every check
comes before anything is written: a key that is not an identifier of the paper files
(``^[a-z][a-z0-9_]*$``, not a Python keyword), a paper already registered or listed, or a file
already in the way is one line on stderr and exit status 1.

The minimal paper is a real one, tiny: two Bernoulli arms, UCB1 against round robin, one
experiment, one figure and one claim (C1: UCB1's regret at the horizon is below round robin's).
"""

from __future__ import annotations

import argparse
import keyword
import re
import subprocess
import sys
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

TEMPLATES = Path(__file__).parent / "templates" / "new_paper"
KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
REGISTRY = Path("src/timebandits/core/registry.py")
CONFIG = Path("config/config.yaml")

# Template (in TEMPLATES) -> the file it becomes, relative to the repository's root.
FILES = {
    "paper.yaml.j2": "config/papers/{key}.yaml",
    "package_init.py.j2": "src/timebandits/{key}/__init__.py",
    "simulation.py.j2": "src/timebandits/{key}/simulation.py",
    "claims_init.py.j2": "src/timebandits/{key}/claims/__init__.py",
    "analysis.py.j2": "src/timebandits/{key}/analysis.py",
    "figures.py.j2": "src/timebandits/{key}/figures.py",
    "report.py.j2": "src/timebandits/{key}/report.py",
    "notebook.py.j2": "notebooks/{key}.py",
    "test_simulation.py.j2": "tests/test_{key}_simulation.py",
}

# A first guess of a simulate job's cost (the paper file's cluster_cost), until
# benchmarks/cluster_costs.py has measured it.
FIRST_GUESS = {"ns_per_step": 200, "mem_mb": 600}

_ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
    autoescape=False,
)


class Refused(Exception):
    """Why the paper cannot be written, in one line (nothing was written)."""


def targets(key: str) -> dict[str, Path]:
    """Each template's destination, relative to the root."""
    return {template: Path(path.format(key=key)) for template, path in FILES.items()}


def _registry_block(text: str) -> re.Match:
    match = re.search(r"^PAPER_PACKAGES = \{\n(?P<body>.*?)^\}", text, re.M | re.S)
    if match is None:
        raise Refused(f"{REGISTRY}: no 'PAPER_PACKAGES = {{' ... '}}' block to add the paper to")
    return match


def _papers_line(text: str) -> re.Match:
    match = re.search(r"^papers: \[(?P<keys>[^\]\n]*)\]", text, re.M)
    if match is None:
        raise Refused(f"{CONFIG}: no one-line 'papers: [...]' list to add the paper to")
    return match


def registered(registry_text: str) -> list[str]:
    """The keys of ``PAPER_PACKAGES`` in the registry's text."""
    return re.findall(r'^\s*"([^"]+)":', _registry_block(registry_text)["body"], re.M)


def listed(config_text: str) -> list[str]:
    """The keys of ``papers: [...]`` in config.yaml's text."""
    return [k.strip() for k in _papers_line(config_text)["keys"].split(",") if k.strip()]


def add_to_registry(text: str, key: str) -> str:
    """The registry's text with ``"<key>": "timebandits.<key>",`` last in ``PAPER_PACKAGES``."""
    end = _registry_block(text).end("body")
    return f'{text[:end]}    "{key}": "timebandits.{key}",\n{text[end:]}'


def add_to_config(text: str, key: str) -> str:
    """config.yaml's text with ``key`` last in ``papers`` (the paper's cost is in its own file)."""
    line = _papers_line(text)
    keys = listed(text) + [key]
    return f"{text[: line.start()]}papers: [{', '.join(keys)}]{text[line.end() :]}"


def check(root: Path, key: str) -> None:
    """Raise :class:`Refused` if the paper cannot be written as it stands."""
    if not KEY_PATTERN.match(key) or keyword.iskeyword(key):
        raise Refused(
            f"bad key {key!r}: it must match {KEY_PATTERN.pattern} and not be a "
            "Python keyword (it names the paper's package and files)"
        )
    for path in (REGISTRY, CONFIG):
        if not (root / path).is_file():
            raise Refused(f"{root / path} is missing: run this from the repository's root")
    if key in registered((root / REGISTRY).read_text(encoding="utf-8")):
        raise Refused(f"paper {key!r} is already registered in {REGISTRY}")
    if key in listed((root / CONFIG).read_text(encoding="utf-8")):
        raise Refused(f"paper {key!r} is already listed in {CONFIG}'s papers")
    in_way = [
        str(p)
        for p in [*targets(key).values(), Path(f"src/timebandits/{key}")]
        if (root / p).exists()
    ]
    if in_way:
        raise Refused(f"files in the way of paper {key!r}: {', '.join(in_way)}")


def write_paper(root: Path, key: str) -> list[Path]:
    """Check, then write the paper's files and register it; the paths written or edited."""
    check(root, key)
    registry = add_to_registry((root / REGISTRY).read_text(encoding="utf-8"), key)
    config = add_to_config((root / CONFIG).read_text(encoding="utf-8"), key)
    written = []
    for template, path in targets(key).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(
            _ENVIRONMENT.get_template(template).render(key=key, cost=FIRST_GUESS),
            encoding="utf-8",
        )
        written.append(path)
    (root / REGISTRY).write_text(registry, encoding="utf-8")
    (root / CONFIG).write_text(config, encoding="utf-8")
    format_python(root, written)
    return written + [REGISTRY, CONFIG]


def format_python(root: Path, paths: list[Path]) -> None:
    """Format the Python files written, as ``make lint`` checks (ruff, a dev requirement): the
    key's length moves line breaks the templates cannot fix in advance."""
    files = [str(root / path) for path in paths if path.suffix == ".py"]
    subprocess.run([sys.executable, "-m", "ruff", "format", "--quiet", *files], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key", help="the paper's key (names its files and package)")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository's root")
    args = parser.parse_args(argv)
    try:
        written = write_paper(args.root, args.key)
    except Refused as refused:
        print(f"new-paper: {refused}", file=sys.stderr)
        return 1
    print(f"Wrote paper {args.key!r}:")
    print("\n".join(f"  {path}" for path in written))
    print(
        f"Next: make smoke (builds it at smoke scale with the other papers), make test; then "
        f"replace the template's paper, algorithms and claim in config/papers/{args.key}.yaml "
        "(docs/adding-a-paper.md)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
