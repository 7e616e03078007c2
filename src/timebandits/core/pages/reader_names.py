"""The words a page shows for a paper's internal ids: an experiment or a figure by its short name
(``short`` in the paper file: ``fig4_poscorr`` → "Fig. 4, PosCorr"), a bound of a bound table by
its kind and algorithm (``theorem1_ars_ucb_alpha8`` → "Theorem 1 bound for ARS-UCB (α = 8)").

The claims tables keep the ids: they are data, and the ids name the files and the config entries
a researcher looks up. The pages (the front page, a notebook's verdict tables) show the words."""

from __future__ import annotations

import re

from timebandits.core.pages.bound_names import bound_kind

# An id as it stands in a generated line: letters, digits, underscores and inner hyphens
# (``theorem3-tight_pi_ucb``), not inside a number or a longer word.
_TOKEN = re.compile(r"(?<![\w.-])[A-Za-z][\w-]*(?<!-)(?![\w-])")
_BOUND_HEADS = re.compile(r"^(pairs_)?(theorem|lemma|corollary|proposition|fact|logterm)\d*")


def reader_names(paper: dict) -> dict[str, str]:
    """Every experiment id of ``paper`` (its config) with its short name."""
    return {
        key: experiment["short"]
        for key, experiment in paper["experiments"].items()
        if experiment.get("short")
    }


def figure_names(paper: dict) -> dict[str, str]:
    """Every figure id of ``paper`` (its config) with its short name, where a page links it."""
    return {
        key: figure["short"]
        for key, figure in paper.get("figures", {}).items()
        if figure.get("short")
    }


def bound_words(name: str, paper: dict) -> str | None:
    """A bound's id as words: its kind and, where the id ends with one, its algorithm's label;
    None for a word that names no bound."""
    if "_" not in name or not _BOUND_HEADS.match(name):
        return None
    algorithms = paper.get("algorithms", {})
    named = [key for key in algorithms if name.endswith(f"_{key}")]
    if not named:
        return f"{bound_kind(name)} bound"
    algorithm = max(named, key=len)
    return f"{bound_kind(name)} bound for {algorithms[algorithm].get('label', algorithm)}"


def in_reader_words(text, paper: dict):
    """``text`` with each experiment id and bound id of ``paper`` in words (anything else, and
    a value that is not text, as it is)."""
    if not isinstance(text, str):
        return text
    names = reader_names(paper)

    def word(match: re.Match) -> str:
        token = match[0]
        return names.get(token) or bound_words(token, paper) or token

    return _TOKEN.sub(word, text)
