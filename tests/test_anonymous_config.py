"""Paper 002's bad inputs: each is one ConfigError naming config/papers/anonymous.yaml and the key,
raised when the paper file loads, before any job runs."""

from __future__ import annotations

import copy

import pytest
import yaml
from conftest import REPO_ROOT

from timebandits.core.build.preflight import load_paper
from timebandits.core.config import ConfigError, load_yaml


@pytest.fixture(scope="module")
def anonymous_data():
    return load_yaml(REPO_ROOT / "config" / "papers" / "anonymous.yaml")


def _kernel(data, experiment):
    return data["experiments"][experiment]["environment"]["kernel"]


def _game(data, experiment):
    return data["experiments"][experiment]["environment"]


def _params(data, algorithm):
    return data["algorithms"][algorithm]["params"]


@pytest.mark.parametrize(
    "edit, key, message",
    [
        (
            lambda d: _kernel(d, "delay_10_30").update(low=31),
            "experiments.delay_10_30.environment",
            "0 <= low <= high",
        ),
        (
            lambda d: _kernel(d, "delay_0_60").update(low=-1),
            "experiments.delay_0_60.environment",
            "0 <= low <= high",
        ),
        (
            lambda d: _kernel(d, "bounded_10_20").update(dmin=20),
            "experiments.bounded_10_20.environment",
            "1 <= dmin < dmax",
        ),
        (
            lambda d: _kernel(d, "discounted_08").update(ratio=1.2),
            "experiments.discounted_08.environment",
            "ratio must lie in (0, 1)",
        ),
        (
            lambda d: _kernel(d, "polynomial_3").update(kind="sawtooth"),
            "experiments.polynomial_3.environment",
            "kernel.kind must be one of",
        ),
        (
            lambda d: _params(d, "ars_ucb_alpha6").update(alpha=0.0),
            "algorithms.ars_ucb_alpha6.params",
            "alpha must be a positive number",
        ),
        (
            lambda d: _params(d, "ars_ucb_alpha8").update(alpha=-2.0),
            "algorithms.ars_ucb_alpha8.params",
            "alpha must be a positive number",
        ),
        (
            lambda d: _params(d, "ars_ucb_f_k").update(
                round_size={"kind": "power", "c": 1, "beta": 0}
            ),
            "algorithms.ars_ucb_f_k.params",
            "not increasing",
        ),
        (
            lambda d: _params(d, "ars_ucb_f_k3").update(
                round_size={"kind": "power", "c": 0, "beta": 3}
            ),
            "algorithms.ars_ucb_f_k3.params",
            "c >= 1",
        ),
        (
            lambda d: d["experiments"]["bounded_30_40"]["environment"].update(
                kernel={"kind": "weights", "weights": [0.5, -0.1, 0.6]}
            ),
            "experiments.bounded_30_40.environment",
            "must be >= 0, got w_τ < 0 at (τ, w_τ) = [(2, -0.1)]",
        ),
        (
            lambda d: d["experiments"]["bounded_30_40"]["environment"].update(
                kernel={"kind": "weights", "weights": [0.5, 0.4]}
            ),
            "experiments.bounded_30_40.environment",
            "must sum to 1",
        ),
        (
            lambda d: _params(d, "ars_ucb_f_2k").update(
                round_size={"kind": "exponential", "c": -1}
            ),
            "algorithms.ars_ucb_f_2k.params",
            "c >= 0",
        ),
        (
            lambda d: _params(d, "gen_odaaf").update(expected_delay="oracle"),
            "algorithms.gen_odaaf.params",
            "expected_delay must be one of",
        ),
        (
            lambda d: d["experiments"]["polynomial_2"]["algorithms"].append("odaaf"),
            "experiments.polynomial_2.algorithms",
            "needs a finite expected delay",
        ),
        (
            lambda d: _params(d, "ars_exp3").update(beta=1.5),
            "algorithms.ars_exp3.params",
            "beta must be a number in [0, 1]",
        ),
        (
            lambda d: _params(d, "ars_exp3").update(beta=-0.1),
            "algorithms.ars_exp3.params",
            "beta must be a number in [0, 1]",
        ),
        (
            lambda d: _game(d, "fig5c")["delays"].update(low=8, high=6),
            "experiments.fig5c.environment",
            "1 <= low <= high <= d",
        ),
        (
            lambda d: _game(d, "fig5d")["delays"].update(low=-1),
            "experiments.fig5d.environment",
            "1 <= low <= high <= d",
        ),
        (
            lambda d: _game(d, "fig5a").update(stream={"kind": "outbrain"}),
            "experiments.fig5a.environment",
            "unknown stream kind 'outbrain'",
        ),
        (
            lambda d: _game(d, "fig5b").update(stream={"top": 10}),
            "experiments.fig5b.environment",
            "stream needs a kind",
        ),
        (
            lambda d: _game(d, "fig5a").update(stream={"kind": "kaggle_coupon"}),
            "experiments.fig5a.environment",
            "which is missing: it is never downloaded",
        ),
        (
            lambda d: _game(d, "synthetic_oblivious")["stream"].update(shares=[0.5, 0.6]),
            "experiments.synthetic_oblivious.environment",
            "summing to 1",
        ),
        (
            lambda d: d["experiments"]["fig5a"]["algorithms"].append("gen_odaaf"),
            "experiments.fig5a.algorithms",
            "runs on stochastic instances",
        ),
    ],
)
def test_bad_anonymous_input_names_file_and_key(tmp_path, anonymous_data, edit, key, message):
    data = copy.deepcopy(anonymous_data)
    edit(data)
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "anonymous.yaml").write_text(
        yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    )
    with pytest.raises(ConfigError) as err:
        load_paper("anonymous", tmp_path)
    text = str(err.value)
    assert "anonymous.yaml" in text and f"key {key}" in text, text
    assert message in text, text


def _with_kaggle_data(
    tmp_path, monkeypatch, anonymous_data, kind, files: dict[str, bytes], horizon: int | None = None
):
    """anonymous.yaml with fig5c playing the Kaggle ``kind`` on ``files`` in data/raw/."""
    data = copy.deepcopy(anonymous_data)
    _game(data, "fig5c").update(stream={"kind": kind})
    if horizon is not None:
        data["experiments"]["fig5c"]["horizon"] = horizon
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "anonymous.yaml").write_text(
        yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    )
    raw = tmp_path / "data" / "raw"
    raw.mkdir(parents=True)
    for name, content in files.items():
        (raw / name).write_bytes(content)
    (tmp_path / "workflow").symlink_to(REPO_ROOT / "workflow")  # the schemas; data/raw is relative
    monkeypatch.chdir(tmp_path)


COUPON = "coupon_visit_train.csv"
VISITS = b"PURCHASE_FLG,I_DATE\n0,2012-01-01 07:00:00\n1,2012-01-02 08:00:00\n"
OUTBRAIN = {  # one clicked display whose ad's document has no category: the join is empty
    "events.csv": b"display_id,timestamp\n1,100\n",
    "clicks_train.csv": b"display_id,ad_id,clicked\n1,10,1\n",
    "promoted_content.csv": b"ad_id,document_id\n10,100\n",
    "documents_categories.csv": b"document_id,category_id,confidence_level\n999,5,0.9\n",
}


@pytest.mark.parametrize(
    "kind, files, horizon, message",
    [
        (
            "kaggle_coupon",
            {COUPON: b"PURCHASE_FLG,VISIT_DATE\n0,2012-01-01\n"},
            None,
            f"{COUPON} lacks the column(s) ['I_DATE']",
        ),
        (
            "kaggle_coupon",
            {COUPON: b"PURCHASE_FLG,I_DATE\n"},
            None,
            f"{COUPON} has a header and no rows",
        ),
        (
            "kaggle_coupon",
            {COUPON: b""},
            None,
            f"{COUPON} cannot be read as a CSV: No columns to parse",
        ),
        (
            "kaggle_coupon",
            {COUPON: b"\x1f\x8b\x08\x00\x9c\xd2\x01\x00\x00\xff"},
            None,
            f"{COUPON} cannot be read as a CSV",
        ),
        (
            "kaggle_coupon",
            {COUPON: b'PURCHASE_FLG,I_DATE\n0,"2012-01-01 07:00:00\n1,2012-01-02\n'},
            None,
            f"{COUPON} cannot be read as a CSV",
        ),
        (
            "kaggle_coupon",
            {COUPON: b"PURCHASE_FLG,I_DATE\n0,2012-01-01\n1,not a date\n"},
            None,
            f"{COUPON}: column I_DATE holds a value that is not a date",
        ),
        (
            "kaggle_coupon",
            {COUPON: b"PURCHASE_FLG,I_DATE\n0,2012-01-02\n1,2012-01-09\n"},
            None,
            f"{COUPON}) has 2 slots with 1 distinct label(s) ['Monday']; a game needs at least 2",
        ),
        (
            "kaggle_coupon",
            {COUPON: VISITS},
            3,
            "has 2 labels, fewer than the horizon T = 3 (extend: stop)",
        ),
        (
            "kaggle_outbrain",
            OUTBRAIN,
            None,
            "no clicked display has an event, a promoted document and a "
            "category (the join is empty)",
        ),
    ],
)
def test_bad_kaggle_data_is_one_line_naming_the_key_and_the_csv(
    tmp_path, monkeypatch, anonymous_data, kind, files, horizon, message
):
    """Each is found when the paper file loads (the stream is read then, and cached), before any
    job: empty, compressed or unparsable CSVs, a bad date, one weekday only, a stream shorter than
    its horizon, an Outbrain join that matches nothing."""
    _with_kaggle_data(tmp_path, monkeypatch, anonymous_data, kind, files, horizon)
    with pytest.raises(ConfigError) as err:
        load_paper("anonymous", tmp_path)
    text = str(err.value)
    assert "\n" not in text and "anonymous.yaml: key experiments.fig5c" in text, text
    assert message in text, text


def test_good_kaggle_data_loads(tmp_path, monkeypatch, anonymous_data):
    _with_kaggle_data(tmp_path, monkeypatch, anonymous_data, "kaggle_coupon", {COUPON: VISITS}, 2)
    assert load_paper("anonymous", tmp_path)["experiments"]["fig5c"]["horizon"] == 2


def test_a_horizon_longer_than_its_stream_fails_when_the_paper_loads(tmp_path, anonymous_data):
    data = copy.deepcopy(anonymous_data)
    data["experiments"]["fig5a"]["horizon"] = 500_000
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "anonymous.yaml").write_text(
        yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    )
    with pytest.raises(
        ConfigError,
        match=r"anonymous\.yaml: key experiments\.fig5a: stream "
        r"movielens_genre has \d+ labels, fewer than the horizon "
        r"T = 500000 \(extend: stop\)",
    ):
        load_paper("anonymous", tmp_path)
