"""`make mutation` works from a clean clone (issue 47): a small mutation run, end to end, with the
project's own [tool.mutmut] settings (what it copies, the pytest arguments), narrowed to one small
module and its tests; and the whole unit-test selection collects inside mutmut's copy, which is
where `make mutation` once stopped (a test read a file the copy did not have)."""

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MODULE, TESTS = "src/timebandits/core/trivial.py", "tests/test_core_bounds.py"

pytestmark = pytest.mark.workflow  # a subprocess run of some 20 s: make test, not test-quick


def tracked_copy(target: Path) -> None:
    """The repository's tracked files, as a clean clone has them."""
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, files):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target / name)


def test_mutmut_copies_every_tracked_file():
    """The tests read files anywhere in the repository (README.md, docs, the locks): mutmut's
    copy must have them all, or `make mutation` stops at its first, whole-suite run."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    settings = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mutmut"]
    copied = {*settings["also_copy"], *settings["source_paths"], "tests", "pyproject.toml"}
    left_out = sorted(
        name
        for name in filter(None, tracked)
        if not any(name == path or name.startswith(path.rstrip("/") + "/") for path in copied)
    )
    assert not left_out, f"add to [tool.mutmut] also_copy: {left_out}"


def test_a_small_mutation_run_kills_its_mutants(tmp_path):
    tracked_copy(tmp_path)
    pyproject = tmp_path / "pyproject.toml"
    text = pyproject.read_text()
    narrowed, count = re.subn(
        r"(?ms)^only_mutate = \[.*?\]$",
        f'only_mutate = ["{MODULE}"]\ntests_dir = ["{TESTS}"]',
        text,
    )
    assert count == 1, "pyproject.toml's [tool.mutmut] has no only_mutate list"
    pyproject.write_text(narrowed)
    (tmp_path / "mutants" / "src").mkdir(parents=True)
    env = {
        "PYTHONPATH": str(tmp_path / "mutants" / "src"),
        "PATH": str(Path(sys.executable).parent),
        "HOME": str(tmp_path),
    }
    mutmut = str(Path(sys.executable).parent / "mutmut")
    run = subprocess.run(
        [mutmut, "run"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    subprocess.run(
        [mutmut, "export-cicd-stats"], cwd=tmp_path, env=env, capture_output=True, check=True
    )
    stats = json.loads((tmp_path / "mutants" / "mutmut-cicd-stats.json").read_text())
    assert stats["total"] > 0 and stats["killed"] == stats["total"], stats
    # every unit test of `make mutation` collects in the copy mutmut made
    arguments = tomllib.loads(text)["tool"]["mutmut"]["pytest_add_cli_args"]
    collect = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *arguments, "tests"],
        cwd=tmp_path / "mutants",
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert collect.returncode == 0, collect.stdout[-3000:]
