"""Same config -> bit-identical traces, whatever the chunking or the order of the jobs.
(Common random numbers across algorithms are tested on the kernels: test_farewell_policies.)"""

import copy

import numpy as np
import pandas as pd
import pytest
from conftest import REPO_ROOT

from timebandits.core.build.preflight import load_paper
from timebandits.core.config import load_yaml
from timebandits.core.sim.simulation import run_chunk


@pytest.fixture(scope="module")
def setup():
    config = load_yaml(REPO_ROOT / "config" / "config.yaml")
    config["scale"] = "smoke"
    return config, load_paper("farewell")


def quiet(_message):
    pass


def only(paper, experiment, algorithms):
    """``paper`` with ``experiment`` running only ``algorithms`` (a job runs all of them)."""
    paper = copy.deepcopy(paper)
    paper["experiments"][experiment]["algorithms"] = list(algorithms)
    return paper


@pytest.mark.parametrize(
    "key, experiment, algorithm",
    [
        ("farewell", "fig2b", "wait_ucb"),
        ("farewell", "fig1c", "budget_ucb"),
        ("farewell", "fig2a", "wait_ucb_random_ties"),
        ("delaydep", "fig2", "pi_low"),
        ("delaydep", "fig2", "pi_ucb"),
    ],
)  # fig2: delays drawn per run
def test_chunking_and_order_do_not_change_bits(setup, key, experiment, algorithm):
    config, _ = setup
    paper = only(load_paper(key), experiment, [algorithm])
    whole = run_chunk(config, paper, experiment, 0, 3, log=quiet)
    # Later repetitions first, in other chunks: the same rows, bit for bit.
    parts = [
        run_chunk(config, paper, experiment, 2, 3, log=quiet),
        run_chunk(config, paper, experiment, 0, 2, log=quiet),
    ]
    joined = pd.concat(parts).sort_values(["algorithm", "repetition", "t"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(whole, joined, check_exact=True)


def test_an_algorithms_trace_does_not_depend_on_its_job_mates(setup):
    config, paper = setup
    alone = run_chunk(config, only(paper, "fig2b", ["wait_ucb"]), "fig2b", 0, 2, log=quiet)
    together = run_chunk(
        config, only(paper, "fig2b", ["ucb_simplex", "wait_ucb"]), "fig2b", 0, 2, log=quiet
    )
    assert set(together["algorithm"]) == {"ucb_simplex", "wait_ucb"}
    mine = together[together["algorithm"] == "wait_ucb"].reset_index(drop=True)
    pd.testing.assert_frame_equal(alone, mine, check_exact=True)


def test_repetitions_differ_and_base_seed_matters(setup):
    config, paper = setup
    paper = only(paper, "fig2b", ["ucb_simplex"])
    trace = run_chunk(config, paper, "fig2b", 0, 2, log=quiet)
    last = trace[trace["t"] == trace["t"].max()]
    assert last["reward"].iloc[0] != last["reward"].iloc[1]
    other = copy.deepcopy(config)
    other["base_seed"] += 1
    moved = run_chunk(other, paper, "fig2b", 0, 2, log=quiet)
    assert not np.array_equal(trace["reward"], moved["reward"])
