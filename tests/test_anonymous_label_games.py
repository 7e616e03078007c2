"""Fig. 5's glue (simulation.py, report.py, analysis.py): a label-stream game as the workflow runs
it equals the compiled game called by hand, CLW is told d_factor·d, mismatched policies and bad
delays are refused, and the label-game and Theorem 2 tables hold the exact stream statistics and
bound."""

from __future__ import annotations

import numpy as np
import pytest

from timebandits.anonymous import adversarial
from timebandits.anonymous.analysis import theorem2_table
from timebandits.anonymous.ars_exp3 import play_ars_exp3
from timebandits.anonymous.clw import play_clw
from timebandits.anonymous.report import label_games_table
from timebandits.anonymous.simulation import (
    clw_interval,
    simulate_repetition,
    validate_environment,
    validate_run,
)
from timebandits.anonymous.streams import load_stream
from timebandits.anonymous.theory import exp3_rounds, theorem2_bound
from timebandits.core.build.preflight import load_paper
from timebandits.core.sim.seeding import key64

SYNTHETIC = {"kind": "synthetic", "shares": [0.5, 0.3, 0.2], "length": 3000, "seed": 3}


def _game(adversary="oblivious", d=10, **extra):
    delays = {"adversary": adversary, "d": d, **extra}
    if adversary == "oblivious":
        delays = {"low": 5, "high": 10, **delays}
    return {"stream": SYNTHETIC, "extend": "stop", "delays": delays}


@pytest.fixture(scope="module")
def paper():
    return load_paper("anonymous")


@pytest.mark.parametrize(
    "policy, params", [("ars_exp3", {"beta": 0.5}), ("clw", {"d_factor": 0.9})]
)
@pytest.mark.parametrize("adversary", ["oblivious", "non_oblivious"])
def test_workflow_game_is_the_compiled_game(policy, params, adversary):
    environment = _game(adversary)
    experiment = {"environment": environment, "horizon": 2500}
    checkpoints = np.array([1, 10, 100, 2500])
    env_seed, policy_seed = np.random.SeedSequence(11), np.random.SeedSequence(12)
    metrics = simulate_repetition(
        experiment, {"policy": policy, "params": params}, env_seed, policy_seed, checkpoints
    )
    labels = load_stream(SYNTHETIC).labels[:2500]
    mode = adversarial.NON_OBLIVIOUS if adversary == "non_oblivious" else adversarial.OBLIVIOUS
    game = (
        mode,
        10,
        5 if mode == adversarial.OBLIVIOUS else 1,
        10 if mode == adversarial.OBLIVIOUS else 1,
        key64(env_seed),
        key64(policy_seed),
        checkpoints,
    )
    by_hand, _ = (
        play_ars_exp3(labels, 3, 0.5, *game)
        if policy == "ars_exp3"
        else play_clw(labels, 3, 9, *game)
    )
    assert np.array_equal(metrics["regret"], by_hand)


def test_clw_is_told_d_factor_times_d():
    assert clw_interval(_game(d=10), {"policy": "clw", "params": {"d_factor": 0.9}}) == 9
    assert (
        clw_interval(_game(d=20, low=10, high=20), {"policy": "clw", "params": {"d_factor": 1.1}})
        == 22
    )
    with pytest.raises(ValueError, match=r"0.95 \* 10 = 9.5, which must be a positive integer"):
        clw_interval(_game(d=10), {"policy": "clw", "params": {"d_factor": 0.95}})


def test_policies_run_only_on_their_own_games():
    with pytest.raises(ValueError, match="ars_ucb runs on stochastic instances"):
        validate_run(_game(), {"policy": "ars_ucb"})
    stochastic = {"means": [0.9, 0.1], "kernel": {"kind": "delay", "low": 1, "high": 2}}
    with pytest.raises(ValueError, match="clw runs on label-stream games"):
        validate_run(stochastic, {"policy": "clw"})


@pytest.mark.parametrize(
    "environment, message",
    [
        (_game(low=0), "1 <= low <= high <= d"),
        (_game(high=11), "1 <= low <= high <= d"),
        (_game(d=0, low=1, high=1), "delays.d must be >= 1"),
        (_game("non_oblivious", d=0), "delays.d must be >= 1"),
        (_game("non_oblivious", low=1), "take exactly"),
        (
            {**_game(), "delays": {"adversary": "adaptive", "d": 3}},
            "delays.adversary must be one of",
        ),
        ({**_game(), "extend": "loop"}, "extend must be one of"),
    ],
)
def test_bad_game_environments(environment, message):
    with pytest.raises(ValueError, match=message):
        validate_environment(environment)


def test_label_games_table_has_the_stream_statistics(paper):
    table = label_games_table(paper).set_index("experiment")
    assert {"fig5a", "fig5b", "fig5c", "fig5d"} <= set(table.index)
    for exp_id, row in table.iterrows():
        experiment = paper["experiments"][exp_id]
        stream = load_stream(experiment["environment"]["stream"])
        labels = stream.labels[: experiment["horizon"]]
        assert row["N"] == stream.n_arms and row["T"] == experiment["horizon"]
        assert row["best_share_over_T"] == np.bincount(labels).max() / experiment["horizon"]
        assert row["best_label"] == stream.arm_names[np.bincount(labels).argmax()]
    assert table.loc["fig5a", "best_label"] == "Action"
    assert table.loc["fig5c", "delay_range"] == "U{5..10}"
    assert table.loc["fig5a", "delay_range"] == "1 or 10"


def test_theorem2_table_is_the_bound_at_the_horizon(paper):
    table = theorem2_table(paper).set_index("experiment")
    row = table.loc["fig5c"]
    rounds = exp3_rounds(330_000, 0.5)
    assert (row["K"], row["g_K"], row["G_K"]) == (rounds.K, rounds.g_K, rounds.G_K)
    assert row["G_K"] <= 330_000 < row["G_K"] + row["g_K_plus_1"]
    assert row["bound"] == theorem2_bound(330_000, 7, 10, 0.5)
    # The trivial bound is the largest regret the game allows: the best label's count over T
    # (the weekday stream: about 15% of the slots), not T.
    labels = load_stream(paper["experiments"]["fig5c"]["environment"]["stream"]).labels[:330_000]
    assert row["trivial"] == np.bincount(labels).max() < 0.2 * 330_000
    assert row["informative"] == (row["bound"] < row["trivial"])
    assert row["bound_over_trivial"] == pytest.approx(row["bound"] / row["trivial"])
    assert set(table["algorithm"]) == {"ars_exp3"}
