"""``make new-paper KEY=<key>`` (core/build/new_paper.py): its refusals, which come before it
writes anything; its edits of the registry and config.yaml (only the key in ``papers``: the
paper's first-guess cluster cost is in its own file), which keep every comment; and,
in a scratch copy of the repository, a paper it writes building at smoke scale with no edit:
its claim gets a verdict, its notebook runs and its own test passes."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REPO_ROOT

from timebandits.core.build import new_paper
from timebandits.core.build.new_paper import (
    CONFIG,
    REGISTRY,
    Refused,
    add_to_config,
    add_to_registry,
    check,
    write_paper,
)
from timebandits.core.config import validate_schema
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED


@pytest.fixture
def root(tmp_path):
    """A root holding only the registry and config.yaml, copies of the repository's."""
    for path in (REGISTRY, CONFIG):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO_ROOT / path, tmp_path / path)
    return tmp_path


def registry_packages(text: str) -> dict:
    namespace: dict = {}
    exec(compile(text, "registry.py", "exec"), namespace)  # the registry imports only stdlib
    return namespace["PAPER_PACKAGES"]


@pytest.mark.parametrize("key", ["Demo", "1paper", "my-paper", "", "class", "demo paper"])
def test_a_bad_key_is_refused(root, key):
    with pytest.raises(Refused, match="bad key"):
        check(root, key)


@pytest.mark.parametrize("key", ["delaydep", "farewell"])
def test_a_registered_paper_is_refused(root, key):
    with pytest.raises(Refused, match="already registered"):
        check(root, key)


def test_a_paper_only_listed_in_the_config_is_refused(root):
    config = root / CONFIG
    config.write_text(config.read_text().replace("papers: [", "papers: [demo, "))
    with pytest.raises(Refused, match="already listed"):
        check(root, "demo")


def test_a_file_in_the_way_is_refused_and_nothing_is_written(root):
    (root / "notebooks").mkdir()
    (root / "notebooks/demo.py").write_text("# mine\n")
    before = {p: (root / p).read_text() for p in (REGISTRY, CONFIG)}
    assert new_paper.main(["demo", "--root", str(root)]) == 1
    assert {p: (root / p).read_text() for p in (REGISTRY, CONFIG)} == before
    assert sorted(p.name for p in root.rglob("*") if p.is_file()) == sorted(
        ["registry.py", "config.yaml", "demo.py"]
    )


def test_the_registry_gets_the_paper_last_and_keeps_its_comments():
    text = (REPO_ROOT / REGISTRY).read_text()
    edited = add_to_registry(text, "demo")
    assert registry_packages(edited) == {**registry_packages(text), "demo": "timebandits.demo"}
    assert list(registry_packages(edited))[-1] == "demo"
    assert edited.replace('    "demo": "timebandits.demo",\n', "") == text


def test_the_config_gets_only_the_papers_key():
    text = (REPO_ROOT / CONFIG).read_text()
    edited = add_to_config(text, "demo")
    before, after = yaml.safe_load(text), yaml.safe_load(edited)
    assert after == {**before, "papers": before["papers"] + ["demo"]}
    assert set(edited.splitlines()) ^ set(text.splitlines()) == {
        next(line for line in text.splitlines() if line.startswith("papers:")),
        f"papers: [{', '.join(before['papers'] + ['demo'])}]",
    }


def test_the_paper_file_gets_a_first_guess_of_its_cost(root):
    write_paper(root, "demo")
    path = root / "config/papers/demo.yaml"
    paper = yaml.safe_load(path.read_text())
    assert paper["cluster_cost"] == new_paper.FIRST_GUESS
    validate_schema(paper, "paper.schema.yaml", path)
    cost_comment = path.read_text().split("cluster_cost:")[0].splitlines()[-3:]
    assert any("benchmarks/cluster_costs.py" in line for line in cost_comment)


def test_it_writes_every_file_once_then_refuses_the_same_key(root):
    written = write_paper(root, "demo")
    assert [str(p) for p in written] == [
        *(path.format(key="demo") for path in new_paper.FILES.values()),
        str(REGISTRY),
        str(CONFIG),
    ]
    assert all((root / p).is_file() for p in written)
    assert (root / "src/timebandits/demo/claims/__init__.py").is_file()
    paper = yaml.safe_load((root / "config/papers/demo.yaml").read_text())
    assert paper["paper"]["key"] == "demo" and [c["id"] for c in paper["claims"]] == ["C1"]
    with pytest.raises(Refused, match="already registered"):
        check(root, "demo")


def tracked_files() -> list[str]:
    """The repository's files (tracked, and new ones git does not ignore)."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [name for name in out.split("\0") if name and (REPO_ROOT / name).is_file()]


@pytest.mark.workflow
def test_a_new_paper_builds_at_smoke_scale_with_no_edit(tmp_path):
    copy = tmp_path / "repo"
    for name in tracked_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / name, copy / name)
    env = {**os.environ, "PYTHONPATH": str(copy / "src")}

    def run(*args, timeout=600):
        result = subprocess.run(
            [sys.executable, *args],
            cwd=copy,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        return result

    run("-m", "timebandits.core.build.new_paper", "demo")
    for lint in (["format", "--check"], ["check"]):  # the lints of `make test`, on its files too
        linted = subprocess.run(
            [str(Path(sys.executable).parent / "ruff"), *lint, "src", "tests", "notebooks"],
            cwd=copy,
            capture_output=True,
            text=True,
        )
        assert linted.returncode == 0, linted.stdout
    # Only the new paper's verdicts and notebook (with what they need), not the whole build.
    run(
        "-m",
        "snakemake",
        "--profile",
        "profiles/smoke",
        "--cores",
        "2",
        "smoke/results/claims/demo.csv",
        "smoke/results/notebooks/demo.html",
        "smoke/results/bounds/demo.parquet",
    )
    verdicts = pd.read_csv(copy / "smoke/results/claims/demo.csv")
    assert list(verdicts["claim"]) == ["C1"]
    assert verdicts["verdict"].iloc[0] in {REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE}
    assert (copy / "smoke/figures/demo/regret.png").stat().st_size > 5000
    assert not pd.read_csv(copy / "smoke/results/tables/demo/provenance.csv").empty
    # its line of the comparison notebook, from its bound table (UCB1 against Theorem 1)
    section = run(
        "-c",
        "import IPython.display as shown; shown.display = lambda o: print(o.data); "
        "from timebandits.core.build.preflight import load_paper; "
        "from timebandits.core.sim.sealed import read_sealed; "
        "from timebandits.demo.report import comparison_section; "
        "comparison_section('smoke/', {}, load_paper('demo'), "
        "read_sealed('smoke/results/bounds/demo.parquet'))",
    )
    assert "main: mean regret" in section.stdout and "UCB1's bound" in section.stdout
    run("-m", "pytest", "-p", "no:cacheprovider", "-q", "tests/test_demo_simulation.py")
