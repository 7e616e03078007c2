# The functions of the generated data sets' rules (workflow/rules/datasets.smk, which says what
# a data set is and how a paper file declares one).

from timebandits.core.registry import PAPER_PACKAGES

DATASETS = {
    (key, ds_id): entry
    for key, paper in PAPERS.items()
    for ds_id, entry in (paper.get("datasets") or {}).items()
}


def dataset_block_path(root, paper, dataset, block):
    return f"{root}results/datasets/{paper}/{dataset}/block{block}.parquet"


def dataset_path(root, paper, dataset, suffix="csv.gz"):
    return f"{root}results/datasets/{paper}/{dataset}.{suffix}"


def dataset_settings(paper, dataset):
    """Everything a dataset's jobs depend on at the configured scale (also the rerun trigger)."""
    entry = DATASETS[(paper, dataset)]
    override = (entry.get("scales") or {}).get(config["scale"]) or {}
    return {
        "paper": paper,
        "dataset": dataset,
        "scale": config["scale"],
        "module": f"{PAPER_PACKAGES[paper]}.{entry['module']}",
        "blocks": int(override.get("blocks", entry["blocks"])),
        "params": {**(entry.get("params") or {}), **(override.get("params") or {})},
        "base_seed": config["base_seed"],
    }


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
            sys.exit(
                f"Configuration error: {where}.module: cannot import {entry['module']!r} ({err})"
            )
        for name in ("generate_block", "merge_blocks"):
            if not hasattr(generator, name):
                sys.exit(
                    f"Configuration error: {where}.module: {generator.__name__} has no {name}()"
                )
        for scale in [None, *(entry.get("scales") or {})]:
            params = {
                **(entry.get("params") or {}),
                **(((entry.get("scales") or {}).get(scale) or {}).get("params") or {}),
            }
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
