# Generated data sets: inputs of an experiment that are expensive to make and cannot be
# bit-reproduced (e.g. paper 001's pool of Random-Forest fit times, which depend on the machine),
# so a copy is committed under data/<paper>/ and the default build uses that copy. These rules
# regenerate one on request; nothing in `rule all` asks for them:
#   snakemake --cores 2 results/datasets/censored/ames_pool.csv.gz
# (at `scale: smoke`: smoke/results/datasets/..., a tiny version that exercises the generator).
#
# A paper file declares them in a top-level `datasets:` mapping, dataset id -> entry:
#   module:    the paper subpackage's module that makes it (e.g. pool -> timebandits.censored.pool)
#   blocks:    jobs the generation is split into (one job per block, so a cluster spreads it)
#   committed: the committed copy the experiments use (documentation; compare before replacing)
#   params:    the module's settings (checked by its `validate_params`, if it has one)
#   scales:    per config scale, overrides: {blocks: n, params: {...}} (merged over params)
# The module provides generate_block(params, block, n_blocks, base_seed, log) -> DataFrame and
# merge_blocks(frames, params, provenance) -> (DataFrame, provenance dict); the scripts write
# block Parquet files and the final gzip CSV + provenance JSON (with the file's sha256).
# Papers without `datasets` add nothing: the rules then match no file.

from timebandits.core.registry import PAPER_PACKAGES

DATASETS = {(key, ds_id): entry for key, paper in PAPERS.items()
            for ds_id, entry in (paper.get("datasets") or {}).items()}


def dataset_block_path(root, paper, dataset, block):
    return f"{root}results/datasets/{paper}/{dataset}/block{block}.parquet"


def dataset_path(root, paper, dataset, suffix="csv.gz"):
    return f"{root}results/datasets/{paper}/{dataset}.{suffix}"


def dataset_settings(paper, dataset):
    """Everything a dataset's jobs depend on at the configured scale (also the rerun trigger)."""
    entry = DATASETS[(paper, dataset)]
    override = (entry.get("scales") or {}).get(config["scale"]) or {}
    return {"paper": paper, "dataset": dataset, "scale": config["scale"],
            "module": f"{PAPER_PACKAGES[paper]}.{entry['module']}",
            "blocks": int(override.get("blocks", entry["blocks"])),
            "params": {**(entry.get("params") or {}), **(override.get("params") or {})},
            "base_seed": config["base_seed"]}


def _check_datasets():
    """Each dataset's module exists and accepts its params at every scale: one line naming the
    file and key, before any job runs."""
    import importlib

    from timebandits.core.config import paper_path

    for (key, ds_id), entry in DATASETS.items():
        where = f"{paper_path(key)}: key datasets.{ds_id}"
        try:
            generator = importlib.import_module(f"{PAPER_PACKAGES[key]}.{entry['module']}")
        except ImportError as err:
            sys.exit(f"Configuration error: {where}.module: cannot import {entry['module']!r} ({err})")
        for name in ("generate_block", "merge_blocks"):
            if not hasattr(generator, name):
                sys.exit(f"Configuration error: {where}.module: {generator.__name__} has no {name}()")
        for scale in [None, *(entry.get("scales") or {})]:
            params = {**(entry.get("params") or {}),
                      **(((entry.get("scales") or {}).get(scale) or {}).get("params") or {})}
            try:
                getattr(generator, "validate_params", lambda p: None)(params)
            except ValueError as err:
                at = "params" if scale is None else f"scales.{scale}.params"
                sys.exit(f"Configuration error: {where}.{at}: {err}")


_check_datasets()


def _dataset_blocks(wildcards):
    n = dataset_settings(wildcards.paper, wildcards.dataset)["blocks"]
    return [dataset_block_path(ROOT, wildcards.paper, wildcards.dataset, b) for b in range(n)]


def _dataset_settings_json(wildcards):
    return json.dumps(dataset_settings(wildcards.paper, wildcards.dataset), sort_keys=True)


# No datasets: a pattern that matches nothing, so the rules exist but never apply.
_DATASET_PAPERS = _alternatives(k for k, _ in DATASETS) or "(?!)"
_DATASET_IDS = _alternatives(d for _, d in DATASETS) or "(?!)"


rule dataset_block:
    output:
        dataset_block_path(ROOT, "{paper}", "{dataset}", "{block}"),
    log:
        paths.log(ROOT, "dataset_block", "{paper}/{dataset}/block{block}"),
    params:
        script=script_code("dataset_block"),
        settings=_dataset_settings_json,
    wildcard_constraints:
        paper=_DATASET_PAPERS,
        dataset=_DATASET_IDS,
        block=r"\d+",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=240,
    priority: PRIORITY_VERDICTS
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)


rule dataset:
    input:
        blocks=_dataset_blocks,
    output:
        table=dataset_path(ROOT, "{paper}", "{dataset}"),
        provenance=dataset_path(ROOT, "{paper}", "{dataset}", "provenance.json"),
    log:
        paths.log(ROOT, "dataset", "{paper}/{dataset}"),
    params:
        script=script_code("dataset_merge"),
        settings=_dataset_settings_json,
    wildcard_constraints:
        paper=_DATASET_PAPERS,
        dataset=_DATASET_IDS,
    resources:
        mem_mb=2000,
        runtime=30,
    priority: PRIORITY_VERDICTS
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)
