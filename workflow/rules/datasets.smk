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


rule dataset_block:
    output:
        dataset_block_path(ROOT, "{paper}", "{dataset}", "{block}"),
    log:
        paths.log(ROOT, "dataset_block", "{paper}/{dataset}/block{block}"),
    wildcard_constraints:
        paper=_DATASET_PAPERS,
        dataset=_DATASET_IDS,
        block=r"\d+",
    priority: PRIORITY_VERDICTS
    threads: 1
    resources:
        mem_mb=2000,
        runtime=240,
    params:
        script=script_code("dataset_block"),
        settings=_dataset_settings_json,
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
    wildcard_constraints:
        paper=_DATASET_PAPERS,
        dataset=_DATASET_IDS,
    priority: PRIORITY_VERDICTS
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        script=script_code("dataset_merge"),
        settings=_dataset_settings_json,
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)
