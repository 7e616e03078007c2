"""The import structure: the layers of core hold (the contracts in pyproject.toml, checked by
import-linter's ``lint-imports``); core imports no paper and no paper imports another, for every
paper of the registry (so that a new paper needs no edit here); and no modules of the package
import each other in a circle, even from inside a function."""

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from timebandits.core.registry import PAPER_PACKAGES

REPO = Path(__file__).resolve().parents[1]


def circles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    succ = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


@pytest.fixture(scope="module")
def graph():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    return grimp.build_graph("timebandits", include_external_packages=False)


def crossings(graph, packages: dict[str, str], core: str = "timebandits.core") -> list[str]:
    """Direct imports that break the papers' contracts: ``core`` importing a paper's package, or
    one paper's package importing another's (``packages``: the registry's {key: package})."""
    pairs = [(core, package) for package in packages.values()]
    pairs += [(a, b) for a in packages.values() for b in packages.values() if a != b]
    return [
        f"{importer} imports {imported}"
        for importer, imported in pairs
        if graph.direct_import_exists(importer=importer, imported=imported, as_packages=True)
    ]


def test_core_knows_no_paper_and_papers_are_independent(graph):
    assert crossings(graph, PAPER_PACKAGES) == []


def test_a_crossing_is_found():
    graph = grimp.ImportGraph()
    for module in ("t", "t.core", "t.core.x", "t.a", "t.a.m", "t.b", "t.b.m"):
        graph.add_module(module)
    graph.add_import(importer="t.a.m", imported="t.core.x")  # allowed: a paper uses core
    assert crossings(graph, {"a": "t.a", "b": "t.b"}, core="t.core") == []
    graph.add_import(importer="t.b.m", imported="t.a.m")
    graph.add_import(importer="t.core.x", imported="t.b.m")
    assert crossings(graph, {"a": "t.a", "b": "t.b"}, core="t.core") == [
        "t.core imports t.b",
        "t.b imports t.a",
    ]


def test_no_modules_import_each_other_in_a_circle(graph):
    assert circles(graph) == []


def test_circles_are_found():
    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert circles(graph) == [["p.a", "p.b"]]


def test_the_import_contracts_hold():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.fail("lint-imports is not installed (pip install -r requirements.lock)")
    done = subprocess.run(
        [lint, "--config", str(REPO / "pyproject.toml")], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:]
