"""The config and paper files are validated when the workflow loads: every problem is one
ConfigError naming the file and the key."""

import copy
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import REPO_ROOT
from timebandits.core.config import (ConfigError, load_paper, load_yaml,
                                     repetition_chunks, resolve_experiment,
                                     validate_workflow_config)


@pytest.fixture(scope="module")
def workflow_config():
    return load_yaml(REPO_ROOT / "config" / "config.yaml")


@pytest.fixture(scope="module")
def paper_data():
    return load_yaml(REPO_ROOT / "config" / "papers" / "farewell.yaml")


def write_paper(tmp_path: Path, data: dict) -> Path:
    (tmp_path / "papers").mkdir(exist_ok=True)
    (tmp_path / "papers" / "farewell.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return tmp_path


def load_broken(tmp_path, paper_data, edit):
    data = copy.deepcopy(paper_data)
    edit(data)
    return load_paper("farewell", write_paper(tmp_path, data))


def test_shipped_files_are_valid(workflow_config):
    validate_workflow_config(workflow_config)
    paper = load_paper("farewell")
    assert {"fig1a", "fig1b", "fig1c", "fig2a", "fig2b", "fig2c"} <= set(paper["figures"])
    assert [c["id"] for c in paper["claims"]] == [f"C{i}" for i in range(1, 11)] + ["E1"]


def test_every_unstated_value_has_provenance(paper_data):
    # Every experiment states where its horizon, repetitions and environment come from.
    for exp_id, exp in paper_data["experiments"].items():
        keys = set(exp["provenance"])
        assert {"horizon", "repetitions"} <= keys, exp_id
        assert any(k.startswith("environment") for k in keys), exp_id
    for alg_id, alg in paper_data["algorithms"].items():
        for param in alg.get("params", {}):
            assert param in alg["provenance"], (alg_id, param)


@pytest.mark.parametrize("edit, key, message", [
    (lambda d: d["experiments"]["fig1a"]["algorithms"].append("thompson"),
     "experiments.fig1a.algorithms", "unknown algorithm 'thompson'"),
    (lambda d: d["experiments"]["fig1b"]["environment"]["delay_pmf"][0].__setitem__(0, 0.5),
     "experiments.fig1b.environment", "sums to"),
    (lambda d: d["experiments"]["fig1c"].__setitem__("horizon", 0),
     "experiments.fig1c.horizon", "less than or equal to the minimum"),
    (lambda d: d["experiments"]["fig2a"].__setitem__("horizon", -5),
     "experiments.fig2a.horizon", ""),
    (lambda d: d["experiments"]["fig2a"].pop("repetitions"),
     "experiments.fig2a", "'repetitions' is a required property"),
    (lambda d: d["algorithms"]["wait_ucb"].__setitem__("policy", "wait_ucb2"),
     "algorithms.wait_ucb.policy", "unknown policy"),
    (lambda d: d["algorithms"]["ucb_simplex"]["params"].__setitem__("radius", 2),
     "algorithms.ucb_simplex.params", "unknown params"),
    (lambda d: d["experiments"]["fig1a"]["provenance"]["horizon"].__setitem__("source", "guess"),
     "experiments.fig1a.provenance.horizon.source", "is not one of"),
    (lambda d: d["claims"][0].__setitem__("kind", "vibes"),
     "claims.0.kind", "unknown claim kind"),
    (lambda d: d["claims"][1].pop("worse"),
     "claims.1 (C2)", "needs keys ['worse']"),
    (lambda d: d["figures"]["fig1a"].__setitem__("algorithms", ["constant_policies"]),
     "figures.fig1a.algorithms", "is not run in experiment"),
    (lambda d: d["experiments"]["fig2b"]["environment"].__setitem__("reward_prob", [0.7, 1.0]),
     "experiments.fig2b.environment", "one delay pmf per macro-arm"),
])
def test_bad_paper_file_names_file_and_key(tmp_path, paper_data, edit, key, message):
    with pytest.raises(ConfigError) as err:
        load_broken(tmp_path, paper_data, edit)
    text = str(err.value)
    assert "farewell.yaml" in text
    assert f"key {key}" in text
    assert message in text


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        load_paper("farewell", tmp_path)
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "farewell.yaml").write_text("experiments: [unclosed")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_paper("farewell", tmp_path)


def test_bad_workflow_config(workflow_config):
    bad = copy.deepcopy(workflow_config)
    bad["scale"] = "huge"
    with pytest.raises(ConfigError, match="key scale: 'huge' is not one of the scales"):
        validate_workflow_config(bad)
    bad = copy.deepcopy(workflow_config)
    bad["claims"]["alpha"] = 0.7
    with pytest.raises(ConfigError, match="key claims.alpha"):
        validate_workflow_config(bad)


def test_scale_caps_horizon_and_repetitions(workflow_config):
    paper = load_paper("farewell")
    full = resolve_experiment(paper, "fig1a", workflow_config)
    assert (full["horizon"], full["repetitions"], full["checkpoints"]) == (10_000_000, 10, 400)
    smoke = resolve_experiment(paper, "fig1a", {**workflow_config, "scale": "smoke"})
    assert (smoke["horizon"], smoke["repetitions"]) == (20_000, 3)
    # The paper file itself is not modified by resolving.
    assert paper["experiments"]["fig1a"]["horizon"] == 1.0e7


def test_chunks_cover_repetitions_exactly_once():
    for reps, horizon, work in [(10, 1e7, 1e8), (10, 1e7, 3e7), (2000, 1e4, 1e8), (7, 1e9, 1e8)]:
        chunks = repetition_chunks(reps, horizon, work)
        covered = [r for start, stop in chunks for r in range(start, stop)]
        assert covered == list(range(reps))
    assert repetition_chunks(10, 1e7, 2e7) == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]


def test_schema_files_exist_for_the_workflow():
    for name in ("config.schema.yaml", "paper.schema.yaml"):
        schema = yaml.safe_load((REPO_ROOT / "workflow" / "schemas" / name).read_text())
        assert schema["type"] == "object"
    assert shutil.which("snakemake") or (REPO_ROOT / ".venv" / "bin" / "snakemake").exists()
