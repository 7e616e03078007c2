"""The config and paper files are validated when the workflow loads: every problem is one
ConfigError naming the file and the key, and Snakemake prints it as one line."""

import copy
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT

from timebandits.core.build.preflight import load_paper
from timebandits.core.config import (
    ConfigError,
    load_yaml,
    paper_path,
    read_paper,
    repetition_chunks,
    resolve_experiment,
    validate_workflow_config,
)
from timebandits.core.registry import PAPER_PACKAGES


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
    claims = {c["id"]: c for c in paper["claims"]}
    assert [i for i, c in claims.items() if c["scope"] != "extension"] == [
        "C1",
        "C1c",
        "C2",
        "C3",
        "C4",
        "C5",
        "C6",
        "C7",
        "C8",
        "C8b",
        "C9",
        "C10",
        "E1",
        "C11",
        "C12",
        "C13",
        "C14",
        "E2",
        "C16",
        "C17",
        "C18",
        "C19",
    ]
    # every extension here is a sensitivity claim of a paper claim, but C15, the check that our
    # rebuilt pmfs give the printed gaps
    assert all(
        c["parent"] in claims
        for c in claims.values()
        if c["scope"] == "extension" and c["id"] != "C15"
    )


def test_a_threshold_given_without_its_provenance_is_refused(tmp_path):
    data = load_yaml(paper_path("farewell"))
    c2 = next(c for c in data["claims"] if c["id"] == "C2")
    c2["provenance"] = {}
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "farewell.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    with pytest.raises(
        ConfigError,
        match=r"key claims\.2 \(C2\): threshold min_ratio = 2\.0 needs "
        r"a provenance entry",
    ):
        load_paper("farewell", tmp_path)


def _write_farewell(tmp_path, data):
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "farewell.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))


def test_a_misspelt_optional_claim_key_is_refused_with_the_key_it_means(tmp_path):
    # Issue 44: `min_raito: 2` for `min_ratio: 2` left C2 ("much better") tested at ratio 1.
    data = load_yaml(paper_path("farewell"))
    c2 = next(c for c in data["claims"] if c["id"] == "C2")
    c2["min_raito"] = c2.pop("min_ratio")
    _write_farewell(tmp_path, data)
    with pytest.raises(ConfigError) as err:
        load_paper("farewell", tmp_path)
    assert str(err.value) == (
        f"{tmp_path / 'papers' / 'farewell.yaml'}: key claims.2 (C2): "
        f"unknown key 'min_raito' (did you mean 'min_ratio'?)"
    )


def test_a_key_no_kind_reads_is_refused_naming_what_the_kind_reads(tmp_path):
    data = load_yaml(paper_path("farewell"))
    c2 = next(c for c in data["claims"] if c["id"] == "C2")
    c2["window"] = 3
    c2["directoin"] = "lower"
    _write_farewell(tmp_path, data)
    with pytest.raises(
        ConfigError,
        match=r"farewell\.yaml: key claims\.2 \(C2\): unknown keys "
        r"'directoin' \(did you mean 'direction'\?\), 'window'; "
        r"kind 'better_at_horizon' reads \['experiments', 'metric', "
        r"'better', 'worse', 'min_ratio', 'direction'\], besides "
        r"\['id', 'quote', 'tested_as',",
    ):
        load_paper("farewell", tmp_path)


def test_every_claim_kind_declares_the_keys_it_reads():
    from timebandits.core.registry import PAPER_PACKAGES
    from timebandits.core.verdicts.kinds import GENERIC_KINDS, claim_kinds_of
    from timebandits.core.verdicts.thresholds import COMMON_KEYS, accepted_keys

    kinds = dict(GENERIC_KINDS)
    for key in PAPER_PACKAGES:
        kinds.update({f"{key}:{name}": kind for name, kind in claim_kinds_of(key).items()})
    for name, kind in kinds.items():
        assert hasattr(kind, "keys") or hasattr(kind, "thresholds"), name
        assert isinstance(kind.optional, tuple), name
        own = [
            *getattr(kind, "keys", ()),
            *(t.name for t in getattr(kind, "thresholds", ())),
            *kind.optional,
        ]
        assert len(own) == len(set(own)) and not set(own) & set(COMMON_KEYS), name
        assert set(accepted_keys(kind)) == {*COMMON_KEYS, *own}, name


def test_a_kind_that_declares_nothing_accepts_nothing():
    from timebandits.core.verdicts.thresholds import accepted_keys, unknown_keys

    class Bare:
        @staticmethod
        def check(claim, paper):
            pass

    with pytest.raises(TypeError, match="claim kind Bare must declare its keys"):
        unknown_keys(Bare, {"id": "C1", "kind": "bare"})

    class Declared:
        keys = ("experiments",)
        optional = ("direction",)

    assert accepted_keys(Declared)[-2:] == ("experiments", "direction")
    assert unknown_keys(Declared, {"id": "C1", "experiments": [], "min_ratio": 2}) == ["min_ratio"]


def test_the_common_claim_keys_are_the_schemas():
    schema = load_yaml(REPO_ROOT / "workflow" / "schemas" / "paper.schema.yaml")
    from timebandits.core.verdicts.thresholds import COMMON_KEYS

    assert set(schema["properties"]["claims"]["items"]["properties"]) == set(COMMON_KEYS)


@pytest.mark.parametrize("key", ["farewell", "censored", "anonymous", "continuous", "delaydep"])
def test_every_shipped_paper_file_loads(key):
    assert load_paper(key)["paper"]["key"] == key


def test_a_sensitivity_claim_must_name_a_paper_claim(tmp_path):
    data = load_yaml(paper_path("farewell"))
    next(c for c in data["claims"] if c["id"] == "C2-raw")["parent"] = "C2-better"
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "farewell.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    with pytest.raises(
        ConfigError, match="claim C2-raw: parent 'C2-better' is not a paper-scope claim"
    ):
        load_paper("farewell", tmp_path)


@pytest.mark.parametrize("key", sorted(PAPER_PACKAGES))
def test_every_unstated_value_has_provenance(key):
    """Every experiment of every paper states where its horizon, repetitions and environment
    come from (its own, or the paper's defaults'), and every algorithm where each of its params
    does."""
    data = read_paper(key, REPO_ROOT / "config")
    for exp_id, exp in data["experiments"].items():
        keys = set(exp["provenance"])
        assert {"horizon", "repetitions"} <= keys, (key, exp_id)
        assert any(k.startswith("environment") for k in keys), (key, exp_id)
    for alg_id, alg in data["algorithms"].items():
        for param in alg.get("params", {}):
            assert param in alg.get("provenance", {}), (key, alg_id, param)


@pytest.mark.parametrize(
    "edit, key, message",
    [
        (
            lambda d: d["experiments"]["fig1a"]["algorithms"].append("thompson"),
            "experiments.fig1a.algorithms",
            "unknown algorithm 'thompson'",
        ),
        (
            lambda d: d["experiments"]["fig1b"]["environment"]["delay_pmf"][0].__setitem__(0, 0.5),
            "experiments.fig1b.environment",
            "sums to",
        ),
        (lambda d: d.pop("cluster_cost"), "cluster_cost", "missing (required)"),
        (
            lambda d: d["cluster_cost"].__setitem__("ns_per_step", -1),
            "cluster_cost.ns_per_step",
            "-1 is less than the minimum of 0",
        ),
        (
            lambda d: d["cluster_cost"].__setitem__("experiments", {"fig9z": 500}),
            "cluster_cost.experiments.fig9z",
            "unknown experiment",
        ),
        (
            lambda d: d["experiments"]["fig1c"].__setitem__("horizon", 0),
            "experiments.fig1c.horizon",
            "less than or equal to the minimum",
        ),
        (
            lambda d: d["experiments"]["fig2a"].__setitem__("horizon", -5),
            "experiments.fig2a.horizon",
            "",
        ),
        (
            lambda d: d["defaults"].pop("repetitions"),  # and fig1a sets none of its own
            "experiments.fig1a.repetitions",
            "missing (required)",
        ),
        (
            lambda d: d["experiments"]["fig2a"].__setitem__("horizon", 1500.5),
            "experiments.fig2a.horizon",
            "1500.5 is not a whole number",
        ),
        (
            lambda d: d["algorithms"]["wait_ucb"].__setitem__("policy", "wait_ucb2"),
            "algorithms.wait_ucb.policy",
            "unknown policy",
        ),
        (
            lambda d: d["algorithms"]["ucb_simplex"]["params"].__setitem__("radius", 2),
            "algorithms.ucb_simplex.params",
            "unknown params",
        ),
        (
            lambda d: d["experiments"]["thm1_fig1b"]["provenance"]["horizon"].__setitem__(
                "source", "guess"
            ),
            "experiments.thm1_fig1b.provenance.horizon.source",
            "is not one of",
        ),
        (
            lambda d: d["defaults"]["provenance"]["horizon"].__setitem__("source", "guess"),
            "defaults.provenance.horizon.source",
            "is not one of",
        ),
        (
            lambda d: d["claims"][0].__setitem__("kind", "vibes"),
            "claims.0.kind",
            "unknown claim kind",
        ),
        (lambda d: d["claims"][2].pop("worse"), "claims.2 (C2)", "needs keys ['worse']"),
        (lambda d: d["claims"][2].__setitem__("scope", "ours"), "claims.2.scope", "is not one of"),
        (
            lambda d: d["figures"]["fig1a"].__setitem__("algorithms", ["constant_policies"]),
            "figures.fig1a.algorithms",
            "is not run in experiment",
        ),
        (
            lambda d: d["experiments"]["fig2b"]["environment"].__setitem__(
                "reward_prob", [0.7, 1.0]
            ),
            "experiments.fig2b.environment",
            "one delay pmf per macro-arm",
        ),
        (
            lambda d: d["figures"]["fig1a"].__setitem__("also", ["fig9z"]),
            "figures.fig1a.also",
            "unknown experiment 'fig9z'",
        ),
        (
            lambda d: (
                d["experiments"]["fig1b"].__setitem__("algorithms", ["wait_ucb"])
                or d["figures"]["fig1a"].__setitem__("also", ["fig1b"])
            ),
            "figures.fig1a.algorithms",
            "is not run in experiment 'fig1b'",
        ),
    ],
)
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


@pytest.mark.parametrize(
    "text, where",
    [
        (
            "scale: full\nbase_seed: 1\npapers: [farewell\nchunk_work: 1.0e+8\n",
            "line 4, column 11: not valid YAML: expected ',' or ']', but got ':' (while parsing a "
            "flow sequence started on line 3)",
        ),
        (
            "scale: full\n  base_seed: 1\n",
            "line 2, column 12: not valid YAML: mapping values are not allowed here",
        ),
        ("scale: full\nbase_seed: 1\x00\n", "line 2: not valid YAML: unprintable character U+0000"),
        ("- farewell\n", "expected a mapping at the top level"),
    ],
)
def test_yaml_errors_are_one_line_with_the_line_number(tmp_path, text, where):
    path = tmp_path / "config.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_yaml(path)
    assert str(err.value) == f"{path}: {where}"


def test_binary_file_is_not_yaml(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_bytes(b"scale: \xff\xfe full\n")
    with pytest.raises(ConfigError, match=r"config.yaml: not a text file \(byte 7 is not UTF-8\)"):
        load_yaml(path)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda c: c.__setitem__("scale", "huge"), "key scale: 'huge' is not one of the scales"),
        (lambda c: c["claims"].__setitem__("alpha", 0.7), "key claims.alpha: 0.7 is greater than"),
        (lambda c: c.pop("base_seed"), "key base_seed: missing (required)"),
        (
            lambda c: c["scales"]["smoke"].pop("checkpoints"),
            "key scales.smoke.checkpoints: missing (required)",
        ),
        (
            lambda c: c.__setitem__("papers", ["farewell", "delaydep", "bandits"]),
            f"key papers.2: unknown paper 'bandits'; known papers: {sorted(PAPER_PACKAGES)}",
        ),
        (
            lambda c: c["scales"]["smoke"].__setitem__("max_horizon", 1500.5),
            "key scales.smoke.max_horizon: 1500.5 is not a whole number",
        ),
        (  # a paper's cost is in its own file (cluster_cost), not here
            lambda c: c["cluster"].__setitem__("simulation_costs", {"farewell": {}}),
            "key cluster: Additional properties are not allowed ('simulation_costs' was "
            "unexpected)",
        ),
        (
            lambda c: c["cluster"]["analysis_costs"].pop("figure"),
            "key cluster.analysis_costs.figure: missing (required)",
        ),
    ],
)
def test_bad_workflow_config_names_file_and_key(workflow_config, edit, message):
    bad = copy.deepcopy(workflow_config)
    edit(bad)
    with pytest.raises(ConfigError) as err:
        validate_workflow_config(bad)
    assert str(err.value).startswith(f"config/config.yaml: {message}")


def test_checking_every_paper_imports_neither_scipy_stats_nor_matplotlib():
    """The Snakefile checks every claim of every paper (its kind's ``check``) before any job; the
    claim kinds import scipy.stats at first use, not at import (0.9 s of every Snakemake start,
    also every cluster job's), and the figure kinds are read from the figures modules' source
    (importing them imports matplotlib, 0.3 s)."""
    code = (
        "import sys\n"
        "from timebandits.core.build.preflight import load_paper\n"
        "from timebandits.core.registry import PAPER_PACKAGES\n"
        "for key in PAPER_PACKAGES:\n"
        "    load_paper(key)\n"
        "print([m for m in ('scipy.stats', 'matplotlib') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_whole_horizons_may_be_written_as_floats(workflow_config):
    config = copy.deepcopy(workflow_config)
    config["scales"]["smoke"]["max_horizon"] = 2.0e4
    validate_workflow_config(config)
    smoke = resolve_experiment(load_paper("farewell"), "fig1a", {**config, "scale": "smoke"})
    assert smoke["horizon"] == 20_000 and isinstance(smoke["horizon"], int)


WORKFLOW_FILES = ["Snakefile", "config", "workflow", "profiles", "data"]


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda text: text.replace("base_seed: 20200826\n", ""),
            "config/config.yaml: key base_seed: missing (required)",
        ),
        (
            lambda text: re.sub(r"papers: \[(.*)\]", r"papers: [\1", text),
            "config/config.yaml: line ",
        ),
        (
            lambda text: re.sub(r"papers: \[.*\]", "papers: [farewell, bandits]", text),
            "config/config.yaml: key papers.1: unknown paper 'bandits'; known papers:",
        ),
    ],
)
def test_snakemake_reports_a_bad_config_in_one_line(tmp_path, edit, message):
    for name in WORKFLOW_FILES:
        source = REPO_ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    config = tmp_path / "config" / "config.yaml"
    broken = edit(config.read_text())
    assert broken != config.read_text()
    config.write_text(broken)
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = (result.stdout + result.stderr).strip().splitlines()
    assert result.returncode != 0
    assert f"Configuration error: {message}" in output[-1]
    assert len(output) <= 3, output


def test_scale_caps_horizon_and_repetitions(workflow_config):
    paper = load_paper("farewell")
    full = resolve_experiment(paper, "fig1a", workflow_config)
    assert (full["horizon"], full["repetitions"], full["checkpoints"]) == (10_000_000, 10, 400)
    smoke = resolve_experiment(paper, "fig1a", {**workflow_config, "scale": "smoke"})
    assert (smoke["horizon"], smoke["repetitions"]) == (20_000, 3)
    # 1.0e+7 is read as a float and runs as the integer; the paper file itself is not modified.
    assert isinstance(full["horizon"], int)
    assert paper["experiments"]["fig1a"]["horizon"] == 1.0e7


def test_chunks_cover_repetitions_exactly_once():
    for reps, horizon, work in [(10, 1e7, 1e8), (10, 1e7, 3e7), (2000, 1e4, 1e8), (7, 1e9, 1e8)]:
        for algorithms in (1, 3):
            chunks = repetition_chunks(reps, horizon, work, algorithms)
            covered = [r for start, stop in chunks for r in range(start, stop)]
            assert covered == list(range(reps))
    assert repetition_chunks(10, 1e7, 2e7) == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    assert repetition_chunks(10, 1e7, 4e7, 2) == [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]


def test_schema_files_exist_for_the_workflow():
    for name in ("config.schema.yaml", "paper.schema.yaml"):
        schema = yaml.safe_load((REPO_ROOT / "workflow" / "schemas" / name).read_text())
        assert schema["type"] == "object"
    # The workflow tests run `python -m snakemake` with the interpreter running the tests.
    assert importlib.util.find_spec("snakemake") is not None


# --- the censored paper (issue 9's bad inputs): one ConfigError naming the file and the key ---


@pytest.fixture(scope="module")
def censored_data():
    return load_yaml(REPO_ROOT / "config" / "papers" / "censored.yaml")


def _env(data, experiment):
    return data["experiments"][experiment]["environment"]


def _set_correlation(environment, rho):
    """ρ given directly instead of through eq. (35)'s x."""
    environment.pop("correlation_x")
    environment["correlation"] = rho


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda d: _env(d, "fig6_poscorr").__setitem__("grid", [0.9, 0.5]),
            "grid: must be strictly increasing",
        ),
        (
            lambda d: _env(d, "fig6_poscorr").__setitem__("grid", [0.0, 0.5]),
            "grid: limits must lie in (0, τmax]",
        ),
        (
            lambda d: _env(d, "fig6_poscorr").__setitem__("grid", [-0.5, 0.5]),
            "grid: limits must lie in (0, τmax]",
        ),
        (
            lambda d: _env(d, "fig4_poscorr")["penalty"].__setitem__("above", 0.05),
            "penalty: λ must be non-decreasing",
        ),
        (lambda d: _env(d, "fig4_poscorr").__setitem__("variance", 0.0), "variance"),
        (lambda d: _env(d, "fig4_poscorr").__setitem__("variance", -0.2), "variance"),
        (lambda d: _set_correlation(_env(d, "fig4_negcorr"), -1.0), "correlation: "),
        (lambda d: _set_correlation(_env(d, "fig4_negcorr"), 1.2), "correlation: "),
        (lambda d: _env(d, "fig4_indep")["rate"].__setitem__(2, 0.0), "rate"),
        (lambda d: _env(d, "fig4_indep")["rate"].__setitem__(2, -1.0), "rate"),
        (lambda d: _env(d, "fig4_indep")["beta_a"].__setitem__(0, 0.0), "beta_a"),
        (lambda d: _env(d, "fig4_indep")["beta_b"].__setitem__(1, -0.3), "beta_b"),
        (
            lambda d: _env(d, "fig5_ames")["pool"].__setitem__(
                "path", "data/censored/absent.csv.gz"
            ),
            "pool.path: data/censored/absent.csv.gz not found",
        ),
        (
            lambda d: _env(d, "fig5_ames")["pool"].__setitem__("sha256", "0" * 64),
            "pool.sha256: data/censored/ames_pool.csv.gz has sha256 6402dcf0",
        ),
    ],
)
def test_bad_censored_input_names_file_and_key(tmp_path, censored_data, edit, message):
    data = copy.deepcopy(censored_data)
    edit(data)
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "censored.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(ConfigError) as err:
        load_paper("censored", tmp_path)
    text = str(err.value)
    assert "censored.yaml: key experiments." in text and ".environment: " in text
    assert message in text, text


def test_a_key_written_twice_is_refused_naming_its_lines(tmp_path):
    # YAML keeps the last of two equal keys without a word: `min_ratio` twice in farewell's C2
    text = (REPO_ROOT / "config/papers/farewell.yaml").read_text()
    doubled = text.replace(
        "    min_ratio: &much_better 2.0\n",
        "    min_ratio: &much_better 2.0\n    min_ratio: 1.0\n",
        1,
    )
    assert doubled != text
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "farewell.yaml").write_text(doubled)
    line = doubled[: doubled.index("    min_ratio: 1.0")].count("\n") + 1
    with pytest.raises(
        ConfigError,
        match=rf"farewell\.yaml: line {line}: key 'min_ratio' written "
        rf"twice in one mapping \(first on line {line - 1}\)",
    ):
        load_paper("farewell", tmp_path)


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "    better: [wait_ucb]\n    worse: [ucb_simplex, budget_ucb]\n"
            "    min_ratio: &much_better 2.0",
            "    better: wait_ucb\n    worse: [ucb_simplex, budget_ucb]\n"
            "    min_ratio: &much_better 2.0",
            r"key claims\.2 \(C2\): better must be a list, e\.g\. \[wait_ucb\], got 'wait_ucb'",
        ),
        (
            "    experiments: [fig1a]\n    metric: regret\n    better: [wait_ucb]\n"
            "    worse: [ucb_simplex, budget_ucb]\n    min_ratio: &much_better 2.0",
            "    experiments: fig1a\n    metric: regret\n    better: [wait_ucb]\n"
            "    worse: [ucb_simplex, budget_ucb]\n    min_ratio: &much_better 2.0",
            r"key claims\.2 \(C2\): experiments must be a list, e\.g\. \[fig1a\], got 'fig1a'",
        ),
        (
            "    min_settings: 2\n",
            "    min_settings: two\n",
            r"\(C6\): min_settings must be a number, got 'two'",
        ),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_before_any_job(tmp_path, old, new, message):
    # issue 44 item 7: these reached the claims job (a TypeError, "unknown experiment 'f'", a
    # ValueError after the claims table was deleted)
    text = (REPO_ROOT / "config/papers/farewell.yaml").read_text()
    assert old in text
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "farewell.yaml").write_text(text.replace(old, new, 1))
    with pytest.raises(ConfigError, match=message):
        load_paper("farewell", tmp_path)


def _edited_paper(tmp_path, key, old, new):
    """``config/papers/<key>.yaml`` with ``old`` (found once at least) replaced by ``new`` the
    first time, as a config dir under ``tmp_path``; the path of the edited file."""
    text = (REPO_ROOT / f"config/papers/{key}.yaml").read_text()
    assert old in text
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / f"{key}.yaml").write_text(text.replace(old, new, 1))
    return tmp_path / "papers" / f"{key}.yaml"


def _every_shipped_paper_loads():
    for key in ("farewell", "censored", "anonymous", "continuous", "delaydep"):
        assert load_paper(key)["paper"]["key"] == key


def test_an_unknown_metric_in_a_claim_is_refused_before_any_job(tmp_path):
    # issue 44 item 7: `metric: regrett` was a KeyError inside the claims job
    path = _edited_paper(
        tmp_path,
        "farewell",
        "    experiments: [fig1a]\n    metric: regret\n",
        "    experiments: [fig1a]\n    metric: regrett\n",
    )
    with pytest.raises(ConfigError) as err:
        load_paper("farewell", tmp_path)
    assert str(err.value) == (
        f"{path}: key claims.2.metric (C2): unknown metric 'regrett' (did you mean 'regret'?); "
        "known: ['epochs', 'reward', 'regret', 'pseudo_regret', 'pulls_k{k}_j{j}', "
        "'reward_k{k}_j{j}'] ({…}: a number)"
    )
    _every_shipped_paper_loads()


def test_an_unknown_metric_in_a_figure_is_refused_before_any_job(tmp_path):
    path = _edited_paper(
        tmp_path,
        "delaydep",
        "    options: {metric: regret_cost1}\n",
        "    options: {metric: regrett_cost1}\n",
    )
    with pytest.raises(ConfigError) as err:
        load_paper("delaydep", tmp_path)
    message = str(err.value)
    assert message.startswith(
        f"{path}: key figures.fig2.options.metric: unknown metric "
        "'regrett_cost1' (did you mean 'regret_cost{c}'?); known: "
        "['expected', 'realised', 'ghost', 'switches', 'regret_cost{c}', "
    )
    assert "\n" not in message
    _every_shipped_paper_loads()


def test_an_unknown_figure_kind_is_refused_before_any_job(tmp_path):
    # issue 44 item 7: a kind no plot function exists for was a KeyError inside the figure job
    path = _edited_paper(
        tmp_path, "farewell", "    kind: regret_panel\n", "    kind: regret_panle\n"
    )
    with pytest.raises(ConfigError) as err:
        load_paper("farewell", tmp_path)
    assert str(err.value) == (
        f"{path}: key figures.fig1a.kind: unknown figure kind 'regret_panle' (did you mean "
        "'regret_panel'?); known: ['regret_panel', 'constant_policies']"
    )
    _every_shipped_paper_loads()


@pytest.mark.parametrize(
    "key, metric, known",
    [
        ("delaydep", "regret_cost0.5", True),
        ("delaydep", "regret_cost", False),
        ("farewell", "pulls_k1_j2", True),
        ("farewell", "pulls_k1", False),
        ("censored", "plays_a2_l10", True),
        ("anonymous", "lemma1_ratio", True),
        ("continuous", "regret", False),
    ],
)
def test_a_metric_is_a_name_or_a_member_of_a_family(key, metric, known):
    from timebandits.core.build.config_checks import known_metric
    from timebandits.core.registry import paper_module

    assert known_metric(metric, paper_module(key, "analysis").METRICS) is known


def test_the_figure_kinds_checked_are_those_a_figure_job_dispatches():
    # config_checks reads FIGURE_KINDS from the source, so that loading a paper imports no
    # matplotlib: the same names as the imported dict
    from timebandits.core.build.config_checks import figure_kinds
    from timebandits.core.registry import PAPER_PACKAGES, paper_module

    for key in PAPER_PACKAGES:
        assert figure_kinds(key) == tuple(paper_module(key, "figures").FIGURE_KINDS), key


def test_defaults_fill_only_what_an_experiment_leaves_out():
    # farewell's paper panels take T = 10^7 and 10 runs from `defaults`, with its provenance;
    # the Theorem 1 checks keep their own horizon, runs and provenance
    paper = read_paper("farewell", REPO_ROOT / "config")
    fig1a, theorem = paper["experiments"]["fig1a"], paper["experiments"]["thm1_fig1b"]
    assert (fig1a["horizon"], fig1a["repetitions"]) == (1.0e7, 10)
    assert fig1a["provenance"]["horizon"] == paper["defaults"]["provenance"]["horizon"]
    assert "environment.delay_pmf" in fig1a["provenance"]
    assert (theorem["horizon"], theorem["repetitions"]) == (1.0e4, 2000)
    assert theorem["provenance"]["horizon"]["source"] == "assumed"
    # and the file itself does not repeat them
    raw = load_yaml(paper_path("farewell", REPO_ROOT / "config"))["experiments"]["fig1a"]
    assert "horizon" not in raw and "horizon" not in raw["provenance"]
