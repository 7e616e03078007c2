"""Paper 002's bad inputs: each is one ConfigError naming config/papers/anonymous.yaml and the key,
raised when the paper file loads, before any job runs."""

from __future__ import annotations

import copy

import pytest
import yaml

from conftest import REPO_ROOT
from timebandits.core.config import ConfigError, load_paper, load_yaml


@pytest.fixture(scope="module")
def anonymous_data():
    return load_yaml(REPO_ROOT / "config" / "papers" / "anonymous.yaml")


def _kernel(data, experiment):
    return data["experiments"][experiment]["environment"]["kernel"]


def _game(data, experiment):
    return data["experiments"][experiment]["environment"]


def _params(data, algorithm):
    return data["algorithms"][algorithm]["params"]


@pytest.mark.parametrize("edit, key, message", [
    (lambda d: _kernel(d, "delay_10_30").update(low=31), "experiments.delay_10_30.environment",
     "0 <= low <= high"),
    (lambda d: _kernel(d, "delay_0_60").update(low=-1), "experiments.delay_0_60.environment",
     "0 <= low <= high"),
    (lambda d: _kernel(d, "bounded_10_20").update(dmin=20), "experiments.bounded_10_20.environment",
     "1 <= dmin < dmax"),
    (lambda d: _kernel(d, "discounted_08").update(ratio=1.2), "experiments.discounted_08.environment",
     "ratio must lie in (0, 1)"),
    (lambda d: _kernel(d, "polynomial_3").update(kind="sawtooth"),
     "experiments.polynomial_3.environment", "kernel.kind must be one of"),
    (lambda d: _params(d, "ars_ucb_alpha6").update(alpha=0.0), "algorithms.ars_ucb_alpha6.params",
     "alpha must be a positive number"),
    (lambda d: _params(d, "ars_ucb_alpha8").update(alpha=-2.0), "algorithms.ars_ucb_alpha8.params",
     "alpha must be a positive number"),
    (lambda d: _params(d, "ars_ucb_f_k").update(round_size={"kind": "power", "c": 1, "beta": 0}),
     "algorithms.ars_ucb_f_k.params", "not increasing"),
    (lambda d: _params(d, "ars_ucb_f_k3").update(round_size={"kind": "power", "c": 0, "beta": 3}),
     "algorithms.ars_ucb_f_k3.params", "c >= 1"),
    (lambda d: d["experiments"]["bounded_30_40"]["environment"].update(
        kernel={"kind": "weights", "weights": [0.5, -0.1, 0.6]}),
     "experiments.bounded_30_40.environment", "must be >= 0, got w_τ < 0 at (τ, w_τ) = [(2, -0.1)]"),
    (lambda d: d["experiments"]["bounded_30_40"]["environment"].update(
        kernel={"kind": "weights", "weights": [0.5, 0.4]}),
     "experiments.bounded_30_40.environment", "must sum to 1"),
    (lambda d: _params(d, "ars_ucb_f_2k").update(round_size={"kind": "exponential", "c": -1}),
     "algorithms.ars_ucb_f_2k.params", "c >= 0"),
    (lambda d: _params(d, "gen_odaaf").update(expected_delay="oracle"), "algorithms.gen_odaaf.params",
     "expected_delay must be one of"),
    (lambda d: d["experiments"]["polynomial_2"]["algorithms"].append("odaaf"),
     "experiments.polynomial_2.algorithms", "needs a finite expected delay"),
    (lambda d: _params(d, "ars_exp3").update(beta=1.5), "algorithms.ars_exp3.params",
     "beta must be a number in [0, 1]"),
    (lambda d: _params(d, "ars_exp3").update(beta=-0.1), "algorithms.ars_exp3.params",
     "beta must be a number in [0, 1]"),
    (lambda d: _game(d, "fig5c")["delays"].update(low=8, high=6), "experiments.fig5c.environment",
     "1 <= low <= high <= d"),
    (lambda d: _game(d, "fig5d")["delays"].update(low=-1), "experiments.fig5d.environment",
     "1 <= low <= high <= d"),
    (lambda d: _game(d, "fig5a").update(stream={"kind": "outbrain"}),
     "experiments.fig5a.environment", "unknown stream kind 'outbrain'"),
    (lambda d: _game(d, "fig5b").update(stream={"top": 10}), "experiments.fig5b.environment",
     "stream needs a kind"),
    (lambda d: _game(d, "fig5a").update(stream={"kind": "kaggle_coupon"}),
     "experiments.fig5a.environment", "which is missing: it is never downloaded"),
    (lambda d: _game(d, "synthetic_oblivious")["stream"].update(shares=[0.5, 0.6]),
     "experiments.synthetic_oblivious.environment", "summing to 1"),
    (lambda d: d["experiments"]["fig5a"]["algorithms"].append("gen_odaaf"),
     "experiments.fig5a.algorithms", "runs on stochastic instances"),
])
def test_bad_anonymous_input_names_file_and_key(tmp_path, anonymous_data, edit, key, message):
    data = copy.deepcopy(anonymous_data)
    edit(data)
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "anonymous.yaml").write_text(yaml.safe_dump(data, sort_keys=False,
                                                                       allow_unicode=True))
    with pytest.raises(ConfigError) as err:
        load_paper("anonymous", tmp_path)
    text = str(err.value)
    assert "anonymous.yaml" in text and f"key {key}" in text, text
    assert message in text, text


def test_every_unstated_value_has_provenance(anonymous_data):
    for exp_id, exp in anonymous_data["experiments"].items():
        keys = set(exp["provenance"])
        assert {"horizon", "repetitions"} <= keys, exp_id
        assert any(k.startswith("environment") for k in keys), exp_id
    for alg_id, alg in anonymous_data["algorithms"].items():
        for param in alg.get("params", {}):
            assert param in alg["provenance"], (alg_id, param)


def test_kaggle_csv_without_its_columns_names_the_file(tmp_path, anonymous_data, monkeypatch):
    data = copy.deepcopy(anonymous_data)
    _game(data, "fig5c").update(stream={"kind": "kaggle_coupon"})
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "anonymous.yaml").write_text(yaml.safe_dump(data, sort_keys=False,
                                                                       allow_unicode=True))
    raw = tmp_path / "data" / "raw"
    raw.mkdir(parents=True)
    (raw / "coupon_visit_train.csv").write_text("PURCHASE_FLG,VISIT_DATE\n0,2012-01-01\n")
    (tmp_path / "workflow").symlink_to(REPO_ROOT / "workflow")  # the schemas; data/raw is relative
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as err:
        load_paper("anonymous", tmp_path)
    text = str(err.value)
    assert "key experiments.fig5c.environment" in text, text
    assert "coupon_visit_train.csv lacks the column(s) ['I_DATE']" in text, text
