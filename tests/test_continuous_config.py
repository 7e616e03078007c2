"""Paper 003's bad inputs (one ConfigError naming config/papers/continuous.yaml and the key,
raised when the paper file loads, before any job runs), and the simulation glue: the workflow's
run is the compiled one over T' = T/λ, Remark 3's invariance end to end, exact baselines."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml
from conftest import REPO_ROOT

from timebandits.continuous.ctsab import run_ctsab
from timebandits.continuous.simulation import (
    algorithm_params,
    confidence,
    learner_epsilon,
    simulate_repetition,
)
from timebandits.continuous.theory import kappa_min
from timebandits.core.build.preflight import load_paper
from timebandits.core.config import ConfigError, load_yaml
from timebandits.core.sim.seeding import key64


@pytest.fixture(scope="module")
def paper_data():
    return load_yaml(REPO_ROOT / "config" / "papers" / "continuous.yaml")


def _env(data, experiment):
    return data["experiments"][experiment]["environment"]


def _params(data, algorithm):
    return data["algorithms"][algorithm]["params"]


@pytest.mark.parametrize(
    "edit, key, message",
    [
        (
            lambda d: _env(d, "fig2a").update(lam=0.0),
            "experiments.fig2a.environment",
            "lam (the cost weight lambda) must be a number > 0",
        ),
        (
            lambda d: _env(d, "fig1a").update(lam=-1e-2),
            "experiments.fig1a.environment",
            "must be a number > 0",
        ),
        (
            lambda d: _params(d, "ctsab_k2").update(kappa=0.0),
            "algorithms.ctsab_k2.params",
            "kappa must be > 0",
        ),
        (
            lambda d: _params(d, "ctsab").update(epsilon=1.0),
            "algorithms.ctsab.params",
            "epsilon must lie in (0, 1)",
        ),
        (
            lambda d: _params(d, "ctsab_fixed_c").update(epsilon={"phase_base": 1.0}),
            "algorithms.ctsab_fixed_c.params",
            "or be {phase_base: c} with c > 1",
        ),
        (
            lambda d: _params(d, "ctmab").update(delta=0.0),
            "algorithms.ctmab.params",
            "delta must lie in (0, 1)",
        ),
        (
            lambda d: _params(d, "ctmab").update(delta_id=1.5),
            "algorithms.ctmab.params",
            "delta_id must lie in (0, 1)",
        ),
        (
            lambda d: _params(d, "ctsab").update(delta="1/T^2"),
            "algorithms.ctsab.params",
            'delta must lie in (0, 1) or be "1/T\'^2"',
        ),
        (
            lambda d: _env(d, "fig2b").update(means=[1.2]),
            "experiments.fig2b.environment",
            "means must be a list of numbers in (0, 1)",
        ),
        (
            lambda d: _env(d, "fig1b").update(means=[0.2, 0.3, 0.15, 0.1, 0.08]),
            "experiments.fig1b.algorithms",
            "strictly decreasing order",
        ),
        (
            lambda d: _params(d, "baseline2").update(assumed_mean=-0.09),
            "algorithms.baseline2.params",
            "must lie in (0, 1]",
        ),
        (
            lambda d: _params(d, "baseline1").update(assumed_mean=0.0),
            "algorithms.baseline1.params",
            "must lie in (0, 1]",
        ),
        (
            lambda d: _params(d, "baseline1").update(assumed_mean=1.5),
            "algorithms.baseline1.params",
            "assumed_mean is a mean of Bernoulli rewards, so it must lie in (0, 1]",
        ),
        (
            lambda d: _env(d, "fig2c").update(means=[0.05, 0.04]),
            "experiments.fig2c.algorithms",
            "ctsab is the single-arm algorithm",
        ),
    ],
)
def test_bad_continuous_input_names_file_and_key(tmp_path, paper_data, edit, key, message):
    data = copy.deepcopy(paper_data)
    edit(data)
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "continuous.yaml").write_text(
        yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    )
    with pytest.raises(ConfigError) as err:
        load_paper("continuous", tmp_path)
    text = str(err.value)
    assert "continuous.yaml" in text and f"key {key}" in text, text
    assert message in text, text


SEEDS = (np.random.SeedSequence(3), np.random.SeedSequence(4))


def test_the_workflow_run_is_the_compiled_run_over_t_over_lambda():
    experiment = {"environment": {"means": [0.3], "lam": 0.01}, "horizon": 6000}
    checkpoints = np.array([1, 10, 100, 3000, 6000])
    algorithm = {"policy": "ctsab", "params": {"epsilon": 0.1, "kappa": 1.0, "delta": 0.05}}
    metrics = simulate_repetition(experiment, algorithm, *SEEDS, checkpoints)
    by_hand = run_ctsab(0.3, 6e5, 0.1, 1.0, 0.05, key64(SEEDS[0]), checkpoints / 0.01, 0)
    assert np.array_equal(metrics["payoff"], by_hand[0])
    assert (metrics["failed"] == 0).all() and (metrics["i_star"] == by_hand[2]).all()


@pytest.mark.parametrize(
    "policy, params",
    [
        ("ctsab", {"epsilon": 0.05, "kappa": 1.0, "delta": 0.05}),
        (
            "ctmab",
            {
                "epsilon": 0.05,
                "kappa": 1.0,
                "delta": 0.05,
                "delta_id": 0.05,
                "id_spacing_factor": 1.0,
            },
        ),
        ("oracle", {}),
        ("baseline", {"assumed_mean": 0.09}),
    ],
)
def test_remark_3_invariance_end_to_end(policy, params):
    means = [0.3] if policy != "ctmab" else [0.3, 0.2, 0.1]
    checkpoints = np.array([5, 50, 500, 5000, 20000])
    runs = []
    for scale in (1.0, 10.0):
        experiment = {"environment": {"means": means, "lam": 0.5 * scale}, "horizon": 20000 * scale}
        runs.append(
            simulate_repetition(
                experiment, {"policy": policy, "params": params}, *SEEDS, checkpoints * scale
            )["payoff"]
        )
    assert runs[0] == pytest.approx(runs[1], rel=1e-9, abs=1e-9)


def test_baselines_are_exact():
    experiment = {"environment": {"means": [0.05], "lam": 1.0}, "horizon": 60000}
    checkpoints = np.array([1, 1000, 60000])
    payoff = simulate_repetition(
        experiment, {"policy": "baseline", "params": {"assumed_mean": 0.12}}, *SEEDS, checkpoints
    )["payoff"]
    # rate 0.06 per time unit: floor(0.06 t) plays, each 0.05 − 0.06
    assert payoff.tolist() == pytest.approx([0.0, 60 * -0.01, 3600 * -0.01])


@pytest.mark.parametrize("horizon", [6e4, 6e7])
def test_a_fixed_phase_base_sets_epsilon_from_the_horizon(horizon):
    epsilon = learner_epsilon({"epsilon": {"phase_base": 2.5}}, horizon)
    assert horizon**epsilon == pytest.approx(2.5, rel=1e-12)
    assert learner_epsilon({"epsilon": 0.05}, horizon) == 0.05


def test_delta_one_over_t_prime_squared_runs_the_kernel_at_that_delta():
    """δ = "1/T'^2" (Theorem 5, Lemma 13) is 1/T'² of the run's own T' = T/λ."""
    experiment = {"environment": {"means": [0.3], "lam": 0.01}, "horizon": 6000}
    checkpoints = np.array([1, 10, 100, 3000, 6000])
    algorithm = {"policy": "ctsab", "params": {"epsilon": 0.1, "kappa": 10.0, "delta": "1/T'^2"}}
    metrics = simulate_repetition(experiment, algorithm, *SEEDS, checkpoints)
    by_hand = run_ctsab(0.3, 6e5, 0.1, 10.0, 1 / 6e5**2, key64(SEEDS[0]), checkpoints / 0.01, 0)
    assert np.array_equal(metrics["payoff"], by_hand[0])
    assert (metrics["i_star"] == by_hand[2]).all() and by_hand[1] == 0
    assert confidence({"delta": "1/T'^2"}, "delta", 6e5) == 1 / 6e5**2
    assert confidence({"delta": 0.05}, "delta", 6e5) == 0.05


def _horizon(experiment):
    return experiment["horizon"] / experiment["environment"]["lam"]


def test_theorem5_claims_at_paper_scope_meet_the_theorems_assumptions():
    """A paper-scope check of Theorem 5 or Lemma 13 runs a learner at δ = 1/T'², T'^ε fixed and
    κ ≥ Lemma 13's κ_min at every T' it reads; one at another δ or κ is an extension."""
    paper = load_paper("continuous")
    theorem5 = [
        c
        for c in paper["claims"]
        if c["kind"] == "scaled_flat" and c["quantity"] == "regret" or c.get("event") == "lemma13"
    ]
    assert {c["id"] for c in theorem5 if c["scope"] == "paper"} == {"C8-thm5", "C9-thm5"}
    outside = set()
    for claim in theorem5:
        params = algorithm_params(paper["algorithms"][claim["algorithm"]])
        for exp in claim["experiments"]:
            horizon = _horizon(paper["experiments"][exp])
            epsilon = learner_epsilon(params, horizon)
            if not (
                confidence(params, "delta", horizon) == 1 / horizon**2
                and isinstance(params["epsilon"], dict)
                and params["kappa"] >= kappa_min(horizon, epsilon)
            ):
                outside.add(claim["id"])
    assert outside == {"C8", "C8-halfup", "C8-carry", "C9", "C8-thm5-k1", "C9-thm5-k1"}
    assert all(c["scope"] == "extension" for c in theorem5 if c["id"] in outside)


def test_lemma25_at_paper_scope_runs_at_alg2s_delta_id():
    paper = load_paper("continuous")
    for claim in paper["claims"]:
        if claim.get("quantity") == "identification_time":
            params = algorithm_params(paper["algorithms"][claim["algorithm"]])
            assert (claim["scope"] == "paper") == (params["delta_id"] == "1/T'^2"), claim["id"]


def test_a_sensitivity_claim_names_a_paper_claim_it_tests():
    """parent, tests and varies come together, on extension claims only, and the parent is a
    paper-scope claim; every claim of a learner under the other exploit rule or of the λ/κ grid
    with a paper counterpart names it."""
    paper = load_paper("continuous")
    scope = {c["id"]: c["scope"] for c in paper["claims"]}
    for claim in paper["claims"]:
        keys = {"parent", "tests", "varies"} & set(claim)
        assert keys in (set(), {"parent", "tests", "varies"}), claim["id"]
        if keys:
            assert claim["scope"] == "extension" and scope[claim["parent"]] == "paper", claim["id"]
            assert claim["tests"] in ("setting", "data") and claim["varies"].strip()
            assert claim["id"].startswith(claim["parent"].split("-")[0]), claim["id"]
    for cid in (
        "C3a-lam01",
        "C3a-k01",
        "C3b-k01-lam0001",
        "C6a-lam001",
        "C6a-k01-lam001",
        "C3a-halfup",
        "C3b-halfup",
        "C6a-halfup",
        "C8-thm5-halfup",
        "C8-thm5-k1",
    ):
        assert "parent" in next(c for c in paper["claims"] if c["id"] == cid), cid
