"""What a job asks a cluster for (core/build/resources.py), against hand-worked numbers, and the
shipped config: every smoke-sized simulate job is bundled."""

import pytest
from conftest import REPO_ROOT

from timebandits.core.build import resources
from timebandits.core.build.preflight import load_paper
from timebandits.core.config import load_yaml, repetition_chunks, resolve_experiment

CLUSTER = {
    "start_up_seconds": 10,
    "runtime_safety": 2,
    "memory_safety": 1.5,
    "bundle_below_minutes": 5,
    "analysis_costs": {"figure": {"seconds": 45, "mem_mb": 333}},
}
# A paper's cluster_cost (config/papers/<key>.yaml).
COST = {"ns_per_step": 100, "mem_mb": 400, "experiments": {"big_arms": 20000}}


def test_steps_count_every_run_of_every_algorithm():
    assert resources.simulation_steps(10**7, 10, 4) == 4e8


def test_a_job_asks_for_twice_its_estimate_in_whole_minutes():
    # 4e8 steps x 100 ns = 40 s, plus 10 s start-up = 50 s; x2 = 100 s -> 2 minutes.
    assert resources.simulation_seconds(CLUSTER, COST, "fig1", 4e8) == pytest.approx(50)
    assert resources.simulation_resources(CLUSTER, COST, "fig1", 4e8) == {
        "runtime": 2,
        "mem_mb": 600,
    }
    # 3e9 steps: 310 s, x2 = 620 s -> 11 minutes (rounded up, never down).
    assert resources.simulation_resources(CLUSTER, COST, "fig1", 3e9)["runtime"] == 11


def test_an_experiment_with_its_own_cost_uses_it():
    # 1e7 steps x 20000 ns = 200 s + 10 s = 210 s
    assert resources.simulation_seconds(CLUSTER, COST, "big_arms", 1e7) == pytest.approx(210)
    assert resources.ns_per_step(COST, "other") == 100


def test_small_jobs_are_bundled_large_ones_run_alone():
    # under 5 minutes: 10 + 100e-9 x steps < 300  <=>  steps < 2.9e9
    assert resources.simulation_group(CLUSTER, COST, "fig1", 2.8e9) == resources.BUNDLE_GROUP
    assert resources.simulation_group(CLUSTER, COST, "fig1", 3.0e9) is None
    assert resources.simulation_group(CLUSTER, COST, "big_arms", 1.5e7) is None  # 310 s
    never = {**CLUSTER, "bundle_below_minutes": 0}
    assert resources.simulation_group(never, COST, "fig1", 1) is None


def test_analysis_jobs_ask_for_their_rules_measured_cost():
    # 45 s x 2 = 90 s -> 2 minutes; 333 MB x 1.5 = 499.5 -> 500
    assert resources.analysis_resources(CLUSTER, "figure") == {"runtime": 2, "mem_mb": 500}


def test_every_smoke_sized_simulate_job_of_the_shipped_config_is_bundled():
    config = load_yaml(REPO_ROOT / "config/config.yaml") | {"scale": "smoke"}
    for key in config["papers"]:
        paper = load_paper(key, REPO_ROOT / "config")
        for exp_id in paper["experiments"]:
            exp = resolve_experiment(paper, exp_id, config)
            for start, stop in repetition_chunks(
                exp["repetitions"], exp["horizon"], config["chunk_work"], len(exp["algorithms"])
            ):
                steps = resources.simulation_steps(
                    exp["horizon"], stop - start, len(exp["algorithms"])
                )
                group = resources.simulation_group(
                    config["cluster"], paper["cluster_cost"], exp_id, steps
                )
                assert group == resources.BUNDLE_GROUP, (key, exp_id)
