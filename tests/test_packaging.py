"""The environment is locked: requirements.lock pins every requirement of pyproject.toml within
its range (and requirements-slurm.lock and requirements-lab.lock the same plus the Slurm plugin or
JupyterLab), this environment is the lock, environment.yml pins the same versions (DESIGN.md,
Conventions), and the README shows the two commands CI and users run."""

import re
import tomllib
from importlib import metadata

import pytest
import yaml
from conftest import REPO_ROOT
from packaging.markers import Marker
from packaging.requirements import Requirement


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ ;\[]", requirement, maxsplit=1)[0].lower()


def locked(path: str) -> dict[str, str]:
    """name -> version of every pin of a lock that applies to this interpreter (a universal lock
    may pin a package once per Python version, under a marker)."""
    pins = {}
    for line in (REPO_ROOT / path).read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)(?: ; ([^\\]+))?", line)
        if match and (match[3] is None or Marker(match[3].strip()).evaluate()):
            pins[match[1].lower()] = match[2]
    return pins


def requirements(*extras: str) -> list[Requirement]:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    return [
        Requirement(r)
        for r in project["dependencies"]
        + [r for extra in extras for r in project["optional-dependencies"][extra]]
    ]


@pytest.mark.parametrize(
    "lock, extras",
    [
        ("requirements.lock", ("dev",)),
        ("requirements-slurm.lock", ("dev", "slurm")),
        ("requirements-lab.lock", ("dev", "lab")),
    ],
)
def test_the_lock_pins_every_requirement_within_pyproject_ranges(lock, extras):
    pins = locked(lock)
    for requirement in requirements(*extras):
        name = requirement.name.lower()
        assert name in pins, f"{lock} lacks {name}: run make lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock} pins {name}=={pins[name]}, outside pyproject's {requirement}: run make lock"
        )


@pytest.mark.parametrize(
    "lock, addition",
    [
        ("requirements-slurm.lock", "snakemake-executor-plugin-slurm"),
        ("requirements-lab.lock", "jupyterlab"),
    ],
)
def test_a_further_lock_is_the_lock_plus_its_extra(lock, addition):
    base, further = locked("requirements.lock"), locked(lock)
    assert {name: further[name] for name in base} == base
    assert addition in set(further) - set(base)


def test_this_environment_is_the_lock():
    """make installs exactly requirements.lock: every pin is the installed version."""
    wrong = {
        name: (version, _installed(name))
        for name, version in locked("requirements.lock").items()
        if _installed(name) != version
    }
    assert not wrong, f"installed differs from requirements.lock (pin, installed): {wrong}"


def _installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def test_environment_yml_pins_the_locked_versions():
    pins = {**locked("requirements-slurm.lock"), **locked("requirements.lock")}
    conda = yaml.safe_load((REPO_ROOT / "environment.yml").read_text())["dependencies"]
    conda = {
        _name(r): r.replace(" ", "")
        for r in conda
        if isinstance(r, str) and not r.startswith("python")
    }
    assert conda == {
        r.name.lower(): f"{r.name}=={pins[r.name.lower()]}" for r in requirements("dev", "slurm")
    }


def test_readme_and_ci_use_the_two_commands():
    readme = (REPO_ROOT / "README.md").read_text()
    assert "make test" in readme and "\nmake " in readme
    ci = (REPO_ROOT / ".ci" / "run").read_text()
    assert "make test" in ci and "make test-cluster" in ci


def test_the_pages_name_every_runtime_requirement_with_its_installed_version():
    from importlib import metadata

    from timebandits.core.versions import runtime_requirements, versions_line

    declared = [
        re.match(r"[A-Za-z0-9._-]+", r).group(0)
        for r in tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"][
            "dependencies"
        ]
    ]
    assert runtime_requirements() == declared  # the installed metadata is pyproject's list
    line = versions_line()
    assert line.startswith("Python 3.")
    for name in declared:
        assert f"{name} {metadata.version(name)}" in line
