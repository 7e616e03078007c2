"""Every registered paper provides the modules and names the registry's contract lists
(core/registry.py's docstring), so that the rules, scripts and notebooks can reach them through
``paper_module``: a paper added to the registry is held to it with no edit here."""

import inspect
from types import SimpleNamespace

import pytest

from timebandits.core.registry import PAPER_PACKAGES, paper_module

PAPERS = sorted(PAPER_PACKAGES)
# module -> the names it must define, each a function (callable) or a collection
CONTRACT = {
    "simulation": {
        "POLICIES": "collection",
        "validate_environment": "function",
        "validate_algorithm": "function",
        "simulate_repetition": "function",
    },
    "claims": {"CLAIM_KINDS": "collection"},
    "analysis": {"bound_table": "function", "METRICS": "collection"},
    "figures": {"FIGURE_KINDS": "collection"},
    "report": {"TABLES": "collection", "table": "function", "comparison_section": "function"},
}
OPTIONAL = {"simulation": ("environment_files", "validate_run"), "analysis": ("metric_range",)}


def broken(module, names: dict[str, str]) -> list[str]:
    """What ``module`` lacks or has of the wrong sort, one line each."""
    problems = []
    for name, sort in names.items():
        value = getattr(module, name, None)
        if value is None:
            problems.append(f"{module.__name__}.{name} is missing")
        elif sort == "function" and not callable(value):
            problems.append(f"{module.__name__}.{name} is not a function")
        elif sort == "collection" and (callable(value) or not hasattr(value, "__iter__")):
            problems.append(f"{module.__name__}.{name} is not a collection")
    return problems


@pytest.mark.parametrize("key", PAPERS)
def test_every_paper_provides_the_registrys_modules(key):
    problems = [
        p for part, names in CONTRACT.items() for p in broken(paper_module(key, part), names)
    ]
    for part, names in OPTIONAL.items():
        module = paper_module(key, part)
        problems += [
            f"{module.__name__}.{n} is not a function"
            for n in names
            if hasattr(module, n) and not callable(getattr(module, n))
        ]
    assert problems == []


@pytest.mark.parametrize("key", PAPERS)
def test_claim_kinds_are_a_package_of_kinds(key):
    # the claims layout every paper shares: a package, CLAIM_KINDS in its __init__, each kind
    # with its evidence, check and evaluate (core/verdicts/context.py)
    claims = paper_module(key, "claims")
    assert hasattr(claims, "__path__"), f"{claims.__name__} is a module, not a claims/ package"
    for name, kind in claims.CLAIM_KINDS.items():
        assert isinstance(getattr(kind, "evidence", None), str), (key, name)
        assert callable(getattr(kind, "check", None)) and callable(kind.evaluate), (key, name)
        assert inspect.getmodule(kind).__name__.startswith(claims.__name__ + "."), (key, name)


def test_a_broken_module_is_named():
    module = SimpleNamespace(
        __name__="demo.report", TABLES=("provenance",), table=("not", "callable")
    )
    assert broken(module, CONTRACT["report"]) == [
        "demo.report.table is not a function",
        "demo.report.comparison_section is missing",
    ]
