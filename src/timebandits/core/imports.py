"""The code a paper's simulations run, found by reading the source (nothing is imported).

A trace is rebuilt when its code changes (workflow/rules/rerun_triggers.smk,
``simulation_code``). That code is :func:`simulation_modules`: the paper's simulation-side
modules (every module of its package but the analysis ones, :data:`ANALYSIS_MODULES`), the core
that runs a chunk and writes it (:data:`SIMULATION_CORE`), and every module of ``timebandits``
these import at module level, transitively (:func:`module_closure`), with the packages on the
way (importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py``).

Only module-level imports are followed (those in class bodies, ``if`` and ``try`` blocks too):
an import inside a function runs when the function is called, and the core keeps the verdict
machinery a simulation module reaches that way out of its module level (core.config imports the
claim kinds, causes and thresholds it validates a paper file with inside ``check_paper``), so
that editing a claim kind or a page never reruns a simulation. A paper module a simulation
imports lazily (censored/problem_construction.py's pool) is counted all the same: every
simulation-side module of the paper is a root. Imports by name (``importlib.import_module``,
core.registry) are not followed; the paper modules they load are roots.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent

# Modules of a paper package that only read traces (analysis side): editing them reruns the
# outputs after the simulation, never a simulation. A module split by concept is named after its
# kind (report_<concept>, ...); the claim kinds are a package, claims/, which is never a root of
# a simulation (only a paper's top-level modules are). (A paper's __init__.py is not one:
# importing any of its modules runs it.)
ANALYSIS_MODULES = ("analysis", "claims", "figures", "report")

# The core a simulate job runs besides the paper's modules (workflow/scripts/simulate.py):
# core.sim.simulation.run_chunk and core.sim.traces.write_trace.
SIMULATION_CORE = ("sim/simulation", "sim/traces")


def analysis_module(stem: str) -> bool:
    """Whether a paper module named ``stem`` is on the analysis side (:data:`ANALYSIS_MODULES`)."""
    return stem.split("_")[0] in ANALYSIS_MODULES


def module_file(name: str, package: Path = PACKAGE) -> Path | None:
    """The file of module ``name`` (dotted, within ``package``'s top-level package): a package's
    ``__init__.py`` or a module's ``.py``; None if ``name`` is outside it or names no module (an
    attribute of a module, say)."""
    parts = name.split(".")
    if parts[0] != package.name:
        return None
    path = package.parent.joinpath(*parts)
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    return None


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """The dotted name of the module in file ``path`` (within ``package``)."""
    parts = Path(path).resolve().relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_level(tree: ast.AST):
    """The import statements of ``tree`` that run when the module is imported: not those in a
    function (or lambda) body."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        else:
            yield from _module_level(node)


def imported_names(path: Path, package: Path = PACKAGE) -> set[str]:
    """The absolute dotted names the module in ``path`` imports at module level: for ``from X
    import y``, X and X.y (y may be a module or an attribute: :func:`module_file` tells)."""
    path = Path(path).resolve()
    name = module_name(path, package)
    # What a relative import is relative to: the module's package (itself, for an __init__.py).
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    names = set()
    for node in _module_level(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = here[: len(here) - (node.level - 1)] + (
                node.module.split(".") if node.module else []
            )
            base = ".".join(base)
        else:
            base = node.module
        names.add(base)
        names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def _with_packages(name: str, package: Path) -> list[Path]:
    """The files importing ``name`` runs: its packages' ``__init__.py`` and its own."""
    parts = name.split(".")
    files = [module_file(".".join(parts[:i]), package) for i in range(1, len(parts) + 1)]
    return [f for f in files if f is not None]


def module_closure(roots: Iterable[Path], package: Path = PACKAGE) -> list[Path]:
    """``roots`` and every module of ``package`` they import at module level, transitively, with
    the packages on the way; sorted. Nothing is imported."""
    package = Path(package).resolve()
    todo = [Path(root).resolve() for root in roots]
    todo += [f for root in list(todo) for f in _with_packages(module_name(root, package), package)]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in imported_names(path, package):
            if module_file(name, package) is not None:
                todo += _with_packages(name, package)
    return sorted(seen)


def simulation_roots(paper: str, package: Path = PACKAGE) -> list[Path]:
    """The modules a simulation of ``paper`` (a paper package's name) starts from: the
    simulation-side modules of its package and :data:`SIMULATION_CORE`."""
    package = Path(package).resolve()
    return sorted(
        [path for path in (package / paper).glob("*.py") if not analysis_module(path.stem)]
        + [package / "core" / f"{m}.py" for m in SIMULATION_CORE]
    )


def simulation_modules(paper: str, package: Path = PACKAGE) -> list[Path]:
    """Every module the simulations of ``paper`` run (module docstring); sorted."""
    return module_closure(simulation_roots(paper, package), package)


def analysis_files(papers: Iterable[str], package: Path = PACKAGE) -> list[Path]:
    """The files an output after the simulations may run or show: every module of the packages
    of ``papers`` and of core, at any depth (a paper's claims/ package, core's layers), and the
    page templates; sorted. Their fingerprint is the analysis rules' rerun trigger
    (workflow/rules/rerun_triggers.smk, ``analysis_code``)."""
    package = Path(package).resolve()
    code = [path for folder in (*papers, "core") for path in (package / folder).rglob("*.py")]
    templates = [
        path for path in (package / "core" / "pages" / "templates").rglob("*") if path.is_file()
    ]
    return sorted(code + templates)
