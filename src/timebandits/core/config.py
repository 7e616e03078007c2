"""Loading and validating the workflow config and the paper files (DESIGN.md, "Experiments are
data"). Every problem is reported as one ``ConfigError`` naming the file and the key."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import yaml

# Only the registry: a simulation imports this module (merged_params, resolve_experiment); the
# checks of a paper file against its code and claims are the build's (core/build/preflight.py).
from timebandits.core.registry import PAPER_PACKAGES

# Like Snakemake's `configfile:`, paths are relative to the working directory (the workflow's).
CONFIG_DIR = Path("config")
SCHEMA_DIR = Path("workflow") / "schemas"


# PyYAML's safe loader, with libyaml's parser where PyYAML was built with it (ten times faster on
# a paper file; the same constructors, so the same data); an error is worded by PyYAML's own.
_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class DuplicateKey(yaml.YAMLError):
    """A key written twice in one mapping of a YAML file."""


class _UniqueKeyLoader(_BASE_LOADER):
    """The safe loader, refusing a key written twice in one mapping: YAML keeps the last and
    drops the first without a word. A merge (``<<: *anchor``) may still be overridden, as YAML
    means it to be."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise DuplicateKey(
                    f"line {line}: key {key!r} written twice in one mapping "
                    f"(first on line {seen[key]}); YAML would keep the last"
                )
            seen.setdefault(key, line)
        return super().construct_mapping(node, deep)


class ConfigError(ValueError):
    """A config or paper file is malformed; the message names the file and the key."""


def load_yaml(path: str | Path) -> dict:
    """The mapping in the YAML file ``path``; a syntax error is one line naming the file and the
    line (PyYAML's own message spans several, quoting the source)."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path}: file not found")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not a text file (byte {err.start} is not UTF-8)") from err
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)
    except DuplicateKey as err:
        raise ConfigError(f"{path}: {err}") from err
    except yaml.YAMLError:
        try:  # PyYAML's own parser words the problem (libyaml's words differ between builds)
            yaml.load(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as err:
            raise ConfigError(f"{path}: {_yaml_problem(err, text)}") from err
        raise
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data


def _yaml_problem(err: yaml.YAMLError, text: str) -> str:
    """One line from a PyYAML error: where, what, and what it was in the middle of."""
    if isinstance(err, yaml.reader.ReaderError):
        line = text.count("\n", 0, err.position) + 1
        return f"line {line}: not valid YAML: unprintable character U+{err.character:04X}"
    if not isinstance(err, yaml.MarkedYAMLError) or err.problem_mark is None:
        return "not valid YAML: " + " ".join(str(err).split())
    mark = err.problem_mark
    where = f"line {mark.line + 1}, column {mark.column + 1}: not valid YAML: {err.problem}"
    if err.context and err.context_mark is not None:
        return f"{where} ({err.context} started on line {err.context_mark.line + 1})"
    if err.context:
        return f"{where} ({err.context})"
    return where


def _key_path(parts) -> str:
    return ".".join(str(p) for p in parts) or "(top level)"


@functools.cache
def _validator(schema_text: str):
    """The validator of a schema, from its YAML text: parsed once per process, as every paper
    file is checked against the same schema."""
    import jsonschema

    return jsonschema.Draft202012Validator(yaml.load(schema_text, Loader=_UniqueKeyLoader))


def validate_schema(data: dict, schema_name: str, source: str | Path) -> None:
    """Validate ``data`` against ``workflow/schemas/<schema_name>``; report the first error."""
    validator = _validator((SCHEMA_DIR / schema_name).read_text())
    errors = sorted(
        validator.iter_errors(data), key=lambda e: (len(e.absolute_path), str(e.absolute_path))
    )
    if errors:
        err = errors[0]
        if err.validator == "required":  # name the missing key itself, not its parent
            missing = next(k for k in err.validator_value if k not in err.instance)
            raise ConfigError(
                f"{source}: key {_key_path([*err.absolute_path, missing])}: missing (required)"
            )
        raise ConfigError(f"{source}: key {_key_path(err.absolute_path)}: {err.message}")


def validate_workflow_config(config: dict, source: str | Path = "config/config.yaml") -> None:
    """Schema and cross-checks of the global config: the scale exists, every paper is known,
    horizon caps are whole numbers. (A paper's cluster cost is in its own file, checked with it:
    ``core.build.preflight.load_paper``.)"""
    validate_schema(config, "config.schema.yaml", source)
    if config["scale"] not in config["scales"]:
        raise ConfigError(
            f"{source}: key scale: {config['scale']!r} is not one of the scales "
            f"{sorted(config['scales'])}"
        )
    for i, key in enumerate(config["papers"]):
        if key not in PAPER_PACKAGES:
            raise ConfigError(
                f"{source}: key papers.{i}: unknown paper {key!r}; known papers: "
                f"{sorted(PAPER_PACKAGES)}"
            )
    for name, scale in config["scales"].items():
        if scale["max_horizon"] is not None:
            check_whole(scale["max_horizon"], source, f"scales.{name}.max_horizon")


def check_whole(value: float, source: str | Path, key: str) -> None:
    """A horizon counts rounds or time units: 1.0e+7 is fine, 1500.5 is an error, not a floor."""
    if not float(value).is_integer():
        raise ConfigError(f"{source}: key {key}: {value!r} is not a whole number")


def paper_path(key: str, config_dir: str | Path = CONFIG_DIR) -> Path:
    return Path(config_dir) / "papers" / f"{key}.yaml"


def read_paper(key: str, config_dir: str | Path = CONFIG_DIR) -> dict:
    """``config/papers/<key>.yaml`` as a job of the workflow reads it, its defaults filled in:
    the workflow checked it (``load_paper``) before it scheduled any job, and checking again
    would import every module of the paper (seconds of start-up in each of hundreds of jobs)."""
    return with_defaults(load_yaml(paper_path(key, config_dir)))


def with_defaults(paper: dict) -> dict:
    """``paper`` with its ``defaults`` (e.g. the horizon and repetitions most of its experiments
    share) in every experiment that does not set them itself, each with the defaults'
    provenance unless the experiment gives its own."""
    defaults = dict(paper.get("defaults") or {})
    provenance = defaults.pop("provenance", {})
    for experiment in (paper.get("experiments") or {}).values():
        if not isinstance(experiment, dict):
            continue  # the schema check names it
        taken = [key for key in defaults if key not in experiment]
        experiment.update({key: copy.deepcopy(defaults[key]) for key in taken})
        if taken:
            experiment["provenance"] = {
                **{key: provenance[key] for key in taken if key in provenance},
                **(experiment.get("provenance") or {}),
            }
    return paper


def merged_params(algorithm: dict, defaults: dict) -> dict:
    """An algorithm's ``params`` over ``defaults`` (its policy's accepted params); raises
    ValueError naming any param the policy does not accept."""
    given = algorithm.get("params", {}) or {}
    unknown = set(given) - set(defaults)
    if unknown:
        raise ValueError(
            f"unknown params {sorted(unknown)} for policy {algorithm['policy']!r}; "
            f"accepted: {sorted(defaults)}"
        )
    return {**defaults, **given}


def resolve_experiment(paper: dict, experiment_id: str, config: dict) -> dict:
    """The experiment as it runs at the configured scale: horizon and repetitions capped, the
    checkpoint count chosen, algorithms expanded to their full definitions."""
    exp = copy.deepcopy(paper["experiments"][experiment_id])
    scale = config["scales"][config["scale"]]
    if scale["max_horizon"] is not None:
        exp["horizon"] = min(exp["horizon"], scale["max_horizon"])
    if scale["max_repetitions"] is not None:
        exp["repetitions"] = min(exp["repetitions"], scale["max_repetitions"])
    exp["horizon"] = int(exp["horizon"])  # a whole number (check_whole), maybe written 1.0e+7
    if config["scale"] != "full" or "checkpoints" not in exp:
        exp["checkpoints"] = scale["checkpoints"]
    exp["id"] = experiment_id
    exp["paper"] = paper["paper"]["key"]
    return exp


def repetition_chunks(
    repetitions: int, horizon: float, chunk_work: float, algorithms: int = 1
) -> list[tuple[int, int]]:
    """Half-open repetition ranges [start, stop) of the simulate jobs of one experiment: each job
    runs every one of its ``algorithms`` for about ``chunk_work`` time units in all, i.e.
    max(1, chunk_work // (horizon x algorithms)) repetitions.

    >>> repetition_chunks(10, 1e7, 4e7)
    [(0, 4), (4, 8), (8, 10)]
    >>> repetition_chunks(10, 1e7, 4e7, algorithms=2)
    [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    >>> repetition_chunks(2000, 1e4, 1e8)
    [(0, 2000)]
    """
    size = max(1, int(chunk_work // (horizon * algorithms)))
    return [(start, min(start + size, repetitions)) for start in range(0, repetitions, size)]
