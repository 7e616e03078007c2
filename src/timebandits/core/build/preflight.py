"""What the workflow checks before any job (DESIGN.md, "Configuration"): a paper file read,
schema-checked and cross-checked against the code that will run it -- its policies, environments
and records, its figures, the experiments its cluster cost names, and every claim against its
kind (keys, thresholds, provenance, sensitivity children). A job reads the file again without
these checks (``core.config.read_paper``): they import every module of the paper."""

from __future__ import annotations

from pathlib import Path

from timebandits.core.build.config_checks import check_names
from timebandits.core.config import (
    CONFIG_DIR,
    ConfigError,
    check_whole,
    load_yaml,
    paper_path,
    validate_schema,
    with_defaults,
)
from timebandits.core.registry import paper_module
from timebandits.core.verdicts.causes import check_sensitivity
from timebandits.core.verdicts.kinds import claim_kinds_of
from timebandits.core.verdicts.thresholds import check_known_keys, check_lists, check_provenance


def load_paper(key: str, config_dir: str | Path = CONFIG_DIR) -> dict:
    """Read, schema-check and cross-check ``config/papers/<key>.yaml``."""
    path = paper_path(key, config_dir)
    paper = with_defaults(load_yaml(path))
    validate_schema(paper, "paper.schema.yaml", path)
    check_paper(paper, path)
    return paper


def check_paper(paper: dict, source: str | Path) -> None:
    """Cross-references and paper-specific checks the schema cannot express."""
    key = paper["paper"]["key"]
    if Path(source).stem != key:
        raise ConfigError(f"{source}: key paper.key: {key!r} does not match the file name")
    simulation = paper_module(key, "simulation")
    for alg_id, alg in paper["algorithms"].items():
        if alg["policy"] not in simulation.POLICIES:
            raise ConfigError(
                f"{source}: key algorithms.{alg_id}.policy: unknown policy "
                f"{alg['policy']!r}; known: {sorted(simulation.POLICIES)}"
            )
        try:
            simulation.validate_algorithm(alg)
        except ValueError as err:
            raise ConfigError(f"{source}: key algorithms.{alg_id}.params: {err}") from err
    for exp_id, exp in paper["experiments"].items():
        check_whole(exp["horizon"], source, f"experiments.{exp_id}.horizon")
        for alg_id in exp["algorithms"]:
            if alg_id not in paper["algorithms"]:
                raise ConfigError(
                    f"{source}: key experiments.{exp_id}.algorithms: unknown "
                    f"algorithm {alg_id!r}; defined: {sorted(paper['algorithms'])}"
                )
        unknown = set(exp.get("record", [])) - set(getattr(simulation, "RECORDS", ()))
        if unknown:
            raise ConfigError(
                f"{source}: key experiments.{exp_id}.record: unknown records "
                f"{sorted(unknown)}; known: {list(getattr(simulation, 'RECORDS', ()))}"
            )
        try:
            simulation.validate_environment(exp["environment"])
        except (ValueError, KeyError, TypeError) as err:
            raise ConfigError(f"{source}: key experiments.{exp_id}.environment: {err}") from err
        validate_experiment = getattr(simulation, "validate_experiment", None)
        try:
            if validate_experiment:
                validate_experiment(exp)
        except ValueError as err:
            raise ConfigError(f"{source}: key experiments.{exp_id}: {err}") from err
        validate_run = getattr(simulation, "validate_run", None)
        for alg_id in exp["algorithms"] if validate_run else ():
            try:
                validate_run(exp["environment"], paper["algorithms"][alg_id])
            except ValueError as err:
                raise ConfigError(
                    f"{source}: key experiments.{exp_id}.algorithms: {alg_id!r} "
                    f"cannot run here: {err}"
                ) from err
    for exp_id in paper["cluster_cost"].get("experiments") or {}:
        if exp_id not in paper["experiments"]:
            raise ConfigError(
                f"{source}: key cluster_cost.experiments.{exp_id}: unknown experiment; "
                f"defined: {sorted(paper['experiments'])}"
            )
    for fig_id, fig in paper["figures"].items():
        for key_name, exp_id in [("experiment", fig["experiment"])] + [
            ("also", other) for other in fig.get("also", [])
        ]:
            exp = paper["experiments"].get(exp_id)
            if exp is None:
                raise ConfigError(
                    f"{source}: key figures.{fig_id}.{key_name}: unknown experiment {exp_id!r}"
                )
            for alg_id in fig["algorithms"] + fig.get("faint", []):
                if alg_id not in exp["algorithms"]:
                    raise ConfigError(
                        f"{source}: key figures.{fig_id}.algorithms: {alg_id!r} is "
                        f"not run in experiment {exp_id!r}"
                    )
    claim_kinds = claim_kinds_of(key)
    seen = set()
    for i, claim in enumerate(paper["claims"]):
        if claim["id"] in seen:
            raise ConfigError(f"{source}: key claims.{i}.id: duplicate claim id {claim['id']!r}")
        seen.add(claim["id"])
        if claim["kind"] not in claim_kinds:
            raise ConfigError(
                f"{source}: key claims.{i}.kind: unknown claim kind "
                f"{claim['kind']!r}; known: {sorted(claim_kinds)}"
            )
        try:
            check_known_keys(claim_kinds[claim["kind"]], claim)
            check_lists(claim)
            claim_kinds[claim["kind"]].check(claim, paper)
            check_provenance(claim_kinds[claim["kind"]], claim)
        except (ValueError, KeyError) as err:
            raise ConfigError(f"{source}: key claims.{i} ({claim['id']}): {err}") from err
    check_names(paper, source)
    try:
        check_sensitivity(paper)
    except ValueError as err:
        raise ConfigError(f"{source}: key claims: {err}") from err
