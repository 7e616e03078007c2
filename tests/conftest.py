"""Tests run from the repository root, where the workflow's relative paths (config/,
workflow/schemas/) resolve, wherever pytest was started. ``built`` is the real workflow at
smoke scale in a scratch copy of the repository, built once for every test module that reads it
(tests/test_workflow.py, tests/test_pages.py)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
os.chdir(REPO_ROOT)

COPIED = ["Snakefile", "config", "workflow", "notebooks", "profiles", "data"]


def snakemake(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=workdir,
                          capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("workflow")
    for name in COPIED:
        source = REPO_ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, workdir / name)
    result = snakemake(workdir, "--profile", "profiles/smoke")
    assert result.returncode == 0, result.stderr[-4000:]
    return workdir
