"""Tests run from the repository root, where the workflow's relative paths (config/,
workflow/schemas/) resolve, wherever pytest was started. ``built`` is the real workflow at
smoke scale in a scratch copy of the repository, built once for every test module that reads it
(tests/test_workflow.py, tests/test_pages.py). The build starts in the background as soon as
the tests are collected, if any selected test reads it, and the unit tests run meanwhile (a unit
test uses one core and the build two: together they keep both cores busy)."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
os.chdir(REPO_ROOT)

COPIED = ["Snakefile", "config", "workflow", "notebooks", "profiles", "data"]


def snakemake(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=workdir,
                          capture_output=True, text=True, timeout=900)


SMOKE_BUILD: dict = {}  # the background build: its workdir, process and output file


def pytest_collection_modifyitems(session, config, items):
    """Start the smoke build if a selected test needs ``built``."""
    if not any("built" in item.fixturenames for item in items):
        return
    workdir = Path(tempfile.mkdtemp(prefix="timebandits-smoke-"))
    for name in COPIED:
        source = REPO_ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, workdir / name)
    output = (workdir / "build.out").open("w")
    process = subprocess.Popen([sys.executable, "-m", "snakemake", "--profile", "profiles/smoke"],
                               cwd=workdir, stdout=output, stderr=subprocess.STDOUT, text=True)
    SMOKE_BUILD.update(workdir=workdir, process=process, output=output)


def pytest_sessionfinish(session, exitstatus):
    if SMOKE_BUILD:
        if SMOKE_BUILD["process"].poll() is None:
            SMOKE_BUILD["process"].kill()
        SMOKE_BUILD["output"].close()
        shutil.rmtree(SMOKE_BUILD["workdir"], ignore_errors=True)


@pytest.fixture(scope="session")
def built():
    process = SMOKE_BUILD["process"]
    try:
        process.wait(timeout=1500)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the smoke build took over 25 minutes")
    workdir = SMOKE_BUILD["workdir"]
    assert process.returncode == 0, (workdir / "build.out").read_text()[-4000:]
    return workdir
