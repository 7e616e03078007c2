"""The names in a paper file that only the paper's code knows, checked when the file loads
(core/build/preflight.py, ``check_paper``), so that a misspelt one is one line before any job
rather than a KeyError inside the claims or the figure job after the simulations (issue 44):

  a figure's ``kind``                a key of ``FIGURE_KINDS`` in the paper's figures module, the
                                     dict a figure job dispatches on (workflow/scripts/figure.py);
  a claim's or a figure's ``metric`` one of ``METRICS`` in the paper's analysis module (its
                                     traces' columns), where a figure gives one in ``options``.

The figure kinds are read from the figures module's source, not imported: a figures module imports
matplotlib (some 160 modules, 0.3 s), and the workflow loads every paper file at each start of
Snakemake. The metrics are declared on the analysis side, so that declaring one reruns no
simulation (core/imports.py).
"""

from __future__ import annotations

import ast
import re

from timebandits.core.config import ConfigError
from timebandits.core.imports import module_file
from timebandits.core.registry import PAPER_PACKAGES, paper_module
from timebandits.core.verdicts.thresholds import did_you_mean

# A family of metrics is written as a template, each {…} standing for a number: pulls_k{k}_j{j}
# (pulls_k1_j2), regret_cost{c} (regret_cost0.5).
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_NUMBER = r"[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?"


def known_metric(name, metrics) -> bool:
    """Whether ``name`` is one of ``metrics`` or a member of one of its families (templates)."""
    return isinstance(name, str) and any(
        re.fullmatch(_NUMBER.join(map(re.escape, _PLACEHOLDER.split(m))), name) for m in metrics
    )


def figure_kinds(key: str) -> tuple[str, ...]:
    """The keys of ``FIGURE_KINDS`` in paper ``key``'s figures module, read from its source (a
    dict literal with string keys, core/registry.py); nothing is imported."""
    path = module_file(f"{PAPER_PACKAGES[key]}.figures")
    for node in ast.parse(path.read_bytes(), filename=str(path)).body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Dict)
            and [getattr(target, "id", None) for target in node.targets] == ["FIGURE_KINDS"]
            and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.value.keys
            )
        ):
            return tuple(k.value for k in node.value.keys)
    raise TypeError(
        f"{path}: FIGURE_KINDS must be assigned a dict literal with string keys "
        "(core/build/config_checks.py reads its keys from the source)"
    )


def _unknown(what: str, value, known) -> str:
    """``unknown metric 'regrett' (did you mean 'regret'?); known: [...]``."""
    families = " ({…}: a number)" if any(_PLACEHOLDER.search(k) for k in known) else ""
    return f"unknown {what} {value!r}{did_you_mean(value, known)}; known: {list(known)}{families}"


def check_names(paper: dict, source) -> None:
    """Raise ConfigError naming the file, the key (with the claim's id) and the value of the first
    figure kind or metric the paper's code does not know, with the names it does know."""
    key = paper["paper"]["key"]
    kinds, metrics = figure_kinds(key), paper_module(key, "analysis").METRICS
    for fig_id, fig in paper["figures"].items():
        if fig["kind"] not in kinds:
            raise ConfigError(
                f"{source}: key figures.{fig_id}.kind: "
                f"{_unknown('figure kind', fig['kind'], kinds)}"
            )
        options = fig.get("options") or {}
        if "metric" in options and not known_metric(options["metric"], metrics):
            raise ConfigError(
                f"{source}: key figures.{fig_id}.options.metric: "
                f"{_unknown('metric', options['metric'], metrics)}"
            )
    for i, claim in enumerate(paper["claims"]):
        if "metric" in claim and not known_metric(claim["metric"], metrics):
            raise ConfigError(
                f"{source}: key claims.{i}.metric ({claim['id']}): "
                f"{_unknown('metric', claim['metric'], metrics)}"
            )
