"""The Fig. 5 environment of paper 001 (censored/pool.py, pool_design.py, ames_data.py,
pool_records.py): the arm grid, a tiny generated pool through the dataset scripts, the checked
loading of a pool and its time units, and the committed pool against its provenance."""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import REPO_ROOT

from timebandits.censored import ames_data, pool, pool_design, pool_records

sys.path.insert(0, str(REPO_ROOT / "workflow" / "scripts"))
import dataset_block  # noqa: E402
import dataset_merge  # noqa: E402

COMMITTED = REPO_ROOT / "data" / "censored" / "ames_pool.csv.gz"
COMMITTED_PROVENANCE = REPO_ROOT / "data" / "censored" / "ames_pool.provenance.json"


def _quiet(message):
    pass


def test_grid_has_the_672_configurations_of_the_paper():
    grid = pool_design.configuration_grid()
    assert len(grid) == pool_design.N_CONFIGS == 672
    assert list(grid["config"]) == list(range(672))
    assert len(grid.drop_duplicates(list(pool_records.HYPERPARAMETERS))) == 672
    assert sorted(grid["num_trees"].unique()) == [100, 200, 300, 400, 500, 600, 700]
    assert sorted(grid["mtry"].unique()) == [20, 22, 24, 26, 28, 30]
    assert sorted(grid["min_node_size"].unique()) == [3, 5, 7, 9]
    assert sorted(grid["sample_fraction"].unique()) == [0.55, 0.632, 0.75, 0.8]
    assert grid.iloc[0][list(pool_records.HYPERPARAMETERS)].tolist() == [100, 20, 3, 0.55]
    assert grid.iloc[671][list(pool_records.HYPERPARAMETERS)].tolist() == [700, 30, 9, 0.8]


@pytest.mark.parametrize("n_blocks", [1, 5, 42, 700])
def test_blocks_cover_every_configuration_once(n_blocks):
    spec = pool_design.resolve_spec({})
    parts = [pool_design.block_configs(spec, b, n_blocks) for b in range(n_blocks)]
    assert np.array_equal(np.concatenate(parts), np.arange(672))


def test_data_table_is_the_modeldata_ames_table():
    table = ames_data.load_table()
    X, y, predictors = ames_data.design_matrix(table)
    assert X.shape == (2930, 73) and len(predictors) == 73 and ames_data.TARGET not in predictors
    assert not np.isnan(X).any() and y.min() > 0
    levels = ames_data.level_orders(table)
    assert all(order == sorted(order) for order in levels.values())
    assert "None" in levels["Mas_Vnr_Type"]


def test_quality_columns_join_gives_the_papers_80_predictors():
    table = ames_data.load_table(quality_columns=True)
    X, _, predictors = ames_data.design_matrix(table)
    assert X.shape == (2930, 80) and set(ames_data.MISSING_FROM_MODELDATA) <= set(predictors)
    assert ames_data.level_orders(table)["Garage_Qual"] == [
        "Excellent",
        "Fair",
        "Good",
        "No_Garage",
        "Poor",
        "Typical",
    ]
    assert sorted(table["Overall_Qual"].unique()) == list(range(1, 11))


def test_tiny_block_gives_rewards_in_unit_interval_and_positive_times():
    spec = {"configs": 2, "records": 1, "max_trees": 5}
    frame = pool.generate_block(spec, 0, 1, seed=7, log=_quiet)
    assert list(frame["config"]) == [0, 671] and list(frame["record"]) == [0, 0]
    assert list(frame["n_estimators"]) == [5, 5]
    assert frame["reward"].between(0, 1).all() and (frame["reward"] > 0.5).all()
    assert (frame["fit_seconds"] > 0).all() and (frame["rmse"] > 0).all()
    again = pool.generate_block(spec, 0, 1, seed=7, log=_quiet)
    assert np.array_equal(frame["reward"], again["reward"])  # split and forest seeded


def test_scripts_write_a_pool_that_loads(tmp_path):
    settings = {
        "module": "timebandits.censored.pool",
        "blocks": 2,
        "scale": "smoke",
        "base_seed": 3,
        "paper": "censored",
        "dataset": "ames_pool",
        "params": {"configs": 3, "records": 2, "max_trees": 3},
    }
    blocks = [str(tmp_path / f"block{b}.parquet") for b in range(2)]
    for b, path in enumerate(blocks):
        dataset_block.main(settings, b, path, str(tmp_path / f"block{b}.log"))
    out, prov = tmp_path / "pool.csv.gz", tmp_path / "pool.provenance.json"
    dataset_merge.main(settings, blocks, str(out), str(prov), str(tmp_path / "merge.log"))
    provenance = json.loads(prov.read_text())
    sha = hashlib.sha256(out.read_bytes()).hexdigest()
    assert provenance["file"]["sha256"] == sha
    assert (
        provenance["data"]["n_predictors"] == 73 and len(provenance["data"]["table_sha256"]) == 64
    )
    assert [b["configs"] for b in provenance["blocks"]] == [1, 2]
    environment = {"family": "pool", "pool": {"path": str(out), "sha256": sha}}
    rewards, consumptions, calibration = pool_records.load_pool_records(environment)
    assert len(rewards) == len(consumptions) == len(calibration) == 3
    assert all(len(r) == 2 for r in rewards)


def _write_pool(path, seconds):
    """A hand-made pool: 2 configurations, 2 records each, given fit seconds."""
    rows = [
        {
            "config": c,
            "record": r,
            "num_trees": 100,
            "mtry": 20,
            "min_node_size": 3,
            "sample_fraction": 0.55,
            "n_estimators": 100,
            "reward": 0.9,
            "fit_seconds": s,
            "fit_cpu_seconds": s,
            "rmse": 1.0,
            "target_range": 10.0,
            "job_seconds": s,
        }
        for (c, r), s in seconds.items()
    ]
    pd.DataFrame(rows).to_csv(path, index=False)
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_time_units(tmp_path):
    path = tmp_path / "pool.csv"
    sha = _write_pool(path, {(0, 0): 2.0, (0, 1): 3.0, (1, 0): 4.0, (1, 1): 1.0})
    env = {"family": "pool", "pool": {"path": str(path), "sha256": sha}}
    _, seconds, cal_seconds = pool_records.load_pool_records({**env, "time_unit": "seconds"})
    _, units, cal_units = pool_records.load_pool_records(env)  # default: calibration_max
    assert np.array_equal(cal_seconds, [2.0, 4.0]) and np.array_equal(cal_units, [0.5, 1.0])
    assert np.array_equal(seconds[0], [2.0, 3.0]) and np.array_equal(units[0], [0.5, 0.75])
    assert np.allclose(units[1] * 4.0, seconds[1])


def test_missing_file_and_wrong_checksum_are_named(tmp_path):
    path = tmp_path / "pool.csv"
    sha = _write_pool(path, {(0, 0): 1.0, (1, 0): 2.0})
    with pytest.raises(ValueError, match=r"^pool\.path: .*absent\.csv not found"):
        pool_records.load_pool_records(
            {"family": "pool", "pool": {"path": str(tmp_path / "absent.csv"), "sha256": sha}}
        )
    wrong = "0" * 64
    with pytest.raises(ValueError, match=rf"^pool\.sha256: .*sha256 {sha}, expected {wrong}"):
        pool_records.load_pool_records(
            {"family": "pool", "pool": {"path": str(path), "sha256": wrong}}
        )
    with pytest.raises(ValueError, match=r"^pool\.sha256: 'abc' is not"):
        pool_records.validate_pool_environment(
            {"family": "pool", "pool": {"path": str(path), "sha256": "abc"}}
        )
    with pytest.raises(ValueError, match=r"^time_unit: 'hours'"):
        pool_records.validate_pool_environment(
            {"family": "pool", "time_unit": "hours", "pool": {"path": str(path), "sha256": sha}}
        )
    with pytest.raises(ValueError, match=r"^pool: expected"):
        pool_records.validate_pool_environment({"family": "pool", "pool": str(path)})
    with pytest.raises(ValueError, match=r"^records: 0"):
        pool.validate_params({"records": 0})


def test_committed_pool_matches_its_provenance():
    provenance = json.loads(COMMITTED_PROVENANCE.read_text())
    sha = hashlib.sha256(COMMITTED.read_bytes()).hexdigest()
    assert provenance["file"]["sha256"] == sha
    assert provenance["data"]["table_sha256"] == ames_data.table_checksum(ames_data.load_table())
    k = provenance["records_per_config"]
    environment = {"family": "pool", "pool": {"path": str(COMMITTED), "sha256": sha}}
    rewards, consumptions, calibration = pool_records.load_pool_records(environment)
    assert len(rewards) == 672 and all(len(r) == k for r in rewards)
    assert calibration.max() == 1.0 and (calibration > 0).all()
    assert all(((r >= 0) & (r <= 1)).all() for r in rewards)
    arms = pool_records.pool_arms(environment)
    grid = pool_design.configuration_grid()
    assert np.array_equal(
        arms[list(pool_records.HYPERPARAMETERS)].to_numpy(),
        grid[list(pool_records.HYPERPARAMETERS)].to_numpy(),
    )


def test_the_dataset_rules_generate_a_tiny_pool_at_smoke_scale(tmp_path):
    """The real rules (workflow/rules/datasets.smk) at smoke scale: two block jobs and the merge
    build a pool whose provenance records the checksum of the file written."""
    import shutil
    import subprocess

    for name in ("Snakefile", "config", "workflow", "profiles", "data"):
        source = REPO_ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    target = "smoke/results/datasets/censored/ames_pool.csv.gz"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "--cores",
            "2",
            "--config",
            "scale=smoke",
            "papers=[censored]",
            "--",
            target,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    provenance = json.loads((tmp_path / target.replace(".csv.gz", ".provenance.json")).read_text())
    assert provenance["file"]["sha256"] == pool_records.file_sha256(tmp_path / target)
    assert provenance["file"]["rows"] == 4  # smoke: 4 configurations x 1 record


def test_pool_traces_depend_on_the_pool_file():
    # The simulate rule lists these as inputs, so a new pool file reruns Fig. 5's traces; by a
    # path relative to the workflow, so moving a clone reruns nothing. pool_records.py, which reads
    # it, is in censored's simulation code, counted by content.
    from timebandits.censored.simulation import environment_files
    from timebandits.core.build.preflight import load_paper
    from timebandits.core.imports import simulation_modules

    paper = load_paper("censored")
    assert environment_files(paper["experiments"]["fig5_ames"]["environment"]) == [
        "data/censored/ames_pool.csv.gz"
    ]
    assert environment_files(paper["experiments"]["fig4_poscorr"]["environment"]) == []
    assert any(path.name == "pool_records.py" for path in simulation_modules("censored"))
