"""Tests run from the repository root, where the workflow's relative paths (config/,
workflow/schemas/) resolve, wherever pytest was started. ``built`` is the real workflow at
smoke scale in a scratch copy of the repository, built once for every test module that reads it
(tests/test_workflow.py, tests/test_workflow_decidability.py, tests/test_pages.py), and once in
all: under pytest-xdist (``make test`` runs two workers) the first worker to need it builds it
while the other goes on with the unit tests, and a worker that needs it meanwhile waits for that
build."""

import copy
import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from claims_fixtures import CONFIG

from timebandits.core.verdicts.context import ClaimContext

REPO_ROOT = Path(__file__).resolve().parents[1]
os.chdir(REPO_ROOT)

COPIED = ["Snakefile", "config", "workflow", "notebooks", "profiles", "data"]


def snakemake(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.fixture(scope="session", autouse=True)
def disk_cache(tmp_path_factory):
    """The disk cache of derived arrays (core/sim/disk_cache.py) lives in the run's scratch space:
    tests that write Kaggle CSVs leave no entries in the package, and every run starts cold, as
    a fresh clone does. The workflow run inherits it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TIMEBANDITS_CACHE", str(tmp_path_factory.mktemp("disk_cache")))
        yield


@pytest.fixture(autouse=True)
def kernels_allowed_after_each_test():
    """A test that runs a job script's ``main`` in its own process (a figure's, a summary's)
    forbids compiled kernels for the rest of that process (core.sim.jit.forbid_kernels, as the
    job would): allow them again after it, so that a later test in the same worker can
    simulate."""
    yield
    from timebandits.core.sim import jit

    jit._FORBIDDEN.clear()


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    shared = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:  # each xdist worker has its own base under the run's
        shared = shared.parent
    workdir, failed = shared / "workflow", shared / "workflow.failed"
    with open(shared / "workflow.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (workdir / ".built").exists() and not failed.exists():
            shutil.rmtree(workdir, ignore_errors=True)
            workdir.mkdir()
            for name in COPIED:
                source = REPO_ROOT / name
                (shutil.copytree if source.is_dir() else shutil.copy)(source, workdir / name)
            result = snakemake(workdir, "--profile", "profiles/smoke")
            if result.returncode != 0:
                failed.write_text(result.stderr[-4000:])
            else:
                # the traces as built, for readers that run while tests/test_workflow.py
                # damages and restores a trace of the build
                shutil.rmtree(shared / "as_built", ignore_errors=True)
                shutil.copytree(
                    workdir / "smoke/results/traces", shared / "as_built/smoke/results/traces"
                )
                (workdir / ".built").touch()
    assert not failed.exists(), failed.read_text()
    return workdir


@pytest.fixture(scope="session")
def built_traces(built) -> str:
    """The root (``trace_reader``'s) of a copy of the smoke build's traces, taken as it ended."""
    return f"{built.parent / 'as_built'}/smoke/"


# The tests of core/verdicts (helpers in tests/claims_fixtures.py): a ClaimContext on synthetic
# traces, and a small checkpoint table for the bound checks.


@pytest.fixture
def make_ctx(tmp_path):
    def build(paper, traces: dict, bounds=None):
        return ClaimContext(
            paper=paper,
            config=copy.deepcopy(CONFIG),
            trace_of=lambda exp, alg: traces[(exp, alg)],
            bounds=bounds,
        )

    return build


@pytest.fixture
def small_table():
    # 3 repetitions at t = 10, 20, 30:
    #   t=10: [1, 2, 3] mean 2, sd 1, se 1/sqrt3 = 0.5774, max 3
    #   t=20: [2, 4, 6] mean 4, sd 2, se 2/sqrt3 = 1.1547, max 6
    #   t=30: [3, 3, 3] mean 3, se 0,                      max 3
    return pd.DataFrame(
        [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 3.0, 3.0]],
        index=pd.Index([10, 20, 30], name="t"),
        columns=[0, 1, 2],
    )


# Modules that run the smoke build, and those that only read it, by name (tests/test_*.py).
BUILDS, READS_BUILD = (
    ("test_workflow.py",),
    ("test_pages.py", "test_workflow_decidability.py", "test_report_pages.py"),
)


def pytest_collection_modifyitems(items):
    """The order ``make test`` hands modules to its two workers (pytest-xdist, ``--dist
    loadfile --no-loadscope-reorder``): the module that runs the smoke build first, so that one
    worker starts the build at once while the other runs the unit tests, the largest modules
    first (as xdist's own reordering would); the modules that only read the build last, so
    that they wait for it as little as possible and run beside the first module's later tests.
    The order within a module is kept."""
    sizes: dict[str, int] = {}
    for item in items:
        sizes[item.path.name] = sizes.get(item.path.name, 0) + 1

    def rank(item) -> tuple:
        name = item.path.name
        if name in BUILDS:
            return 0, 0
        if name in READS_BUILD:
            return 2, READS_BUILD.index(name)
        return 1, -sizes[name]

    items.sort(key=rank)
