"""pyproject.toml and environment.yml list the same packages (DESIGN.md, Conventions), and the
README shows the two commands CI and users run."""

import re
import tomllib

import yaml

from conftest import REPO_ROOT


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ ]", requirement, maxsplit=1)[0].lower()


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    pip = {_name(r): r.replace(" ", "") for r in
           project["dependencies"] + [r for extra in project["optional-dependencies"].values()
                                      for r in extra]}
    conda = yaml.safe_load((REPO_ROOT / "environment.yml").read_text())["dependencies"]
    conda = {_name(r): r.replace(" ", "") for r in conda if isinstance(r, str) and not r.startswith("python")}
    assert pip == conda


def test_readme_and_ci_use_the_two_commands():
    readme = (REPO_ROOT / "README.md").read_text()
    assert "make test" in readme and "\nmake " in readme
    ci = (REPO_ROOT / ".ci" / "run").read_text()
    assert "make test" in ci and "make test-cluster" in ci


def test_the_pages_name_every_runtime_requirement_with_its_installed_version():
    from importlib import metadata

    from timebandits.core.versions import runtime_requirements, versions_line

    declared = [re.match(r"[A-Za-z0-9._-]+", r).group(0)
                for r in tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]]
    assert runtime_requirements() == declared  # the installed metadata is pyproject's list
    line = versions_line()
    assert line.startswith("Python 3.")
    for name in declared:
        assert f"{name} {metadata.version(name)}" in line
