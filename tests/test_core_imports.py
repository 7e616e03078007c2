"""The code a paper's simulations are rerun for (core.imports.simulation_modules, the
``simulation_code`` trigger of workflow/rules/simulate.smk) holds every module they import, found
by reading the source, and no verdict or page code (issue 44)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from timebandits.core.imports import (
    ANALYSIS_MODULES,
    PACKAGE,
    analysis_files,
    analysis_module,
    imported_names,
    module_closure,
    simulation_modules,
)
from timebandits.core.registry import PAPER_PACKAGES

PAPERS = sorted(PAPER_PACKAGES)


def relative(paths):
    return {path.relative_to(PACKAGE).as_posix() for path in paths}


def test_continuous_runs_the_binomial_kernel():
    # CTSAB and CTMAB call core.sim.binomial.binomial: editing it must rerun continuous' simulations
    assert "core/sim/binomial.py" in relative(simulation_modules("continuous"))
    assert "core/sim/beta_blocks.py" in relative(simulation_modules("censored"))


@pytest.mark.parametrize("paper", PAPERS)
def test_no_verdict_or_page_code_reruns_a_simulation(paper):
    modules = relative(simulation_modules(paper))
    for layer in ("verdicts", "pages", "build"):
        assert not [m for m in modules if m.startswith(f"core/{layer}/")], layer
    for other in PAPERS:
        for path in (PACKAGE / other).glob("*.py"):
            if analysis_module(path.stem):
                assert f"{other}/{path.name}" not in modules
    assert {m.split("/")[0] for m in modules if "/" in m} == {"core", paper}


@pytest.mark.parametrize("paper", PAPERS)
def test_every_module_a_simulation_imports_is_counted(paper):
    """What importing the paper's simulation module and the core a simulate job runs puts in
    ``sys.modules`` (restricted to timebandits) is in the set."""
    code = (
        "import importlib, sys\n"
        f"for name in ['timebandits.{paper}.simulation', 'timebandits.core.sim.simulation',\n"
        "             'timebandits.core.sim.traces']:\n"
        "    importlib.import_module(name)\n"
        "for name, module in sorted(sys.modules.items()):\n"
        "    if name == 'timebandits' or name.startswith('timebandits.'):\n"
        "        print(module.__file__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imported = {line for line in out.stdout.split() if line}
    assert imported, out.stderr
    missing = imported - {str(path) for path in simulation_modules(paper)}
    assert not missing


def test_the_paper_modules_a_simulation_imports_lazily_are_counted():
    # censored/problem_construction.py imports the pool inside a function: every simulation-side
    # module of the paper is a root, imported at module level or not
    assert "censored/pool.py" in relative(simulation_modules("censored"))
    assert "__init__" not in ANALYSIS_MODULES


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_relative_and_absolute_imports_are_followed_and_lazy_ones_are_not(tmp_path):
    package = tmp_path / "pkg"
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/core/__init__.py": "from . import base\n",
            "pkg/core/base.py": "import math\nfrom .deep import VALUE\n",
            "pkg/core/deep.py": "VALUE = 1\n",
            "pkg/core/absolute.py": "import pkg.core.leaf\n",
            "pkg/core/leaf.py": "",
            "pkg/core/lazy.py": "",
            "pkg/core/typed.py": "",
            "pkg/core/unused.py": "",
            "pkg/paper/__init__.py": "",
            "pkg/paper/sim.py": """\
            from __future__ import annotations
            import numpy as np
            from pkg.core import absolute
            from ..core.base import VALUE as _
            from . import model
            try:
                from pkg.core import typed
            except ImportError:
                pass

            def run():
                from pkg.core import lazy
                return lazy

            class Holder:
                from .model import NAME
            """,
            "pkg/paper/model.py": "NAME = 'model'\n",
        },
    )
    closure = {
        p.relative_to(package).as_posix()
        for p in module_closure([package / "paper" / "sim.py"], package)
    }
    assert closure == {
        "__init__.py",
        "paper/__init__.py",
        "paper/sim.py",
        "paper/model.py",
        "core/__init__.py",
        "core/base.py",
        "core/deep.py",
        "core/absolute.py",
        "core/leaf.py",
        "core/typed.py",
    }
    assert "pkg.core.lazy" not in imported_names(package / "paper" / "sim.py", package)


def test_config_keeps_the_verdict_machinery_out_of_module_level():
    names = imported_names(PACKAGE / "core" / "config.py")
    assert (
        not {
            "timebandits.core.verdicts.causes",
            "timebandits.core.verdicts.thresholds",
            "timebandits.core.verdicts.kinds",
        }
        & names
    )


def test_an_edit_of_a_claim_kind_or_a_page_template_reruns_the_analysis():
    # the analysis rules' trigger covers every module of the paper and of core at any depth (a
    # claims/ package, core's layers) and the page templates; not another paper's modules
    files = {path.relative_to(PACKAGE).as_posix() for path in analysis_files(["censored"])}
    assert {
        "censored/claims/__init__.py",
        "censored/figures.py",
        "core/verdicts/context.py",
        "core/pages/templates/index.html.j2",
        "core/pages/templates/glossary.html.j2",
    } <= files
    assert not any(f.startswith("farewell/") for f in files)
