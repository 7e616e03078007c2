"""The names of a paper's bounds as a reader writes them: a bound table's name of a bound
("theorem2", "pairs_lemma2_k1_j2") as its kind ("Theorem 2", "Lemma 2 per pair"), a curve's
metric as its quantity ("pulls of each pair"), and the natural order of numbered names (what
``bound_tables`` and ``bound_plots`` show)."""

from __future__ import annotations

import re

# A kind's name: "theorem2" → "Theorem 2", "theorem3-tight" → "Theorem 3 (tight)",
# "pairs_theorem1_…" → "Theorem 1 per pair"; other words as written (a few respelt).
_RESULT = re.compile(r"^(theorem|lemma|corollary|proposition|fact)(\d+)(?:-(\w+))?$")
_WORDS = {"logterm": "log term"}
_PER_PAIR = re.compile(r"^(pulls|plays)_.*\d")


def natural_order(name: str) -> list:
    """Sort key putting ``k1_j2`` before ``k1_j10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _spaced(word: str) -> str:
    """``cost1`` → ``cost 1``."""
    return re.sub(r"(?<=[a-z])(?=\d)", " ", word)


def bound_kind(name: str) -> str:
    """The kind of the bound ``name`` of a bound table, as a reader writes it."""
    if name.startswith("pairs_"):
        return bound_kind(name.removeprefix("pairs_")) + " per pair"
    head = name.split("_")[0]
    match = _RESULT.match(head)
    if not match:
        return _WORDS.get(head, head)
    kind = f"{match[1].capitalize()} {match[2]}"
    return kind + (f" ({_spaced(match[3])})" if match[3] else "")


def legend_name(name: str) -> str:
    """The legend's name of a plot's one bound: "Theorem 2 bound", or "the bound"."""
    return f"{bound_kind(name)} bound" if _RESULT.match(name.split("_")[0]) else "the bound"


def curve_quantity(metric: str) -> str:
    """A curve's quantity, each pair's counts together: ``pulls_k1_j2`` → ``pulls of each pair``."""
    match = _PER_PAIR.match(metric)
    return f"{match[1]} of each pair" if match else _spaced(metric.replace("_", " "))
