# One simulate job = (paper, experiment, algorithm, chunk of repetitions); chunks are gathered
# into one trace per (experiment, algorithm).


rule simulate:
    input:
        simulation_inputs,
    output:
        paths.trace_chunk(ROOT, "{paper}", "{experiment}", "{algorithm}", "{start}", "{stop}"),
    log:
        paths.log(ROOT, "simulate", "{paper}/{experiment}/{algorithm}/reps{start}-{stop}"),
    benchmark:
        paths.benchmark(ROOT, "simulate", "{paper}/{experiment}/{algorithm}/reps{start}-{stop}")
    params:
        settings=simulation_params,
        root=ROOT,
    resources:
        mem_mb=2000,
        runtime=120,
    script:
        "../scripts/simulate.py"


rule gather_trace:
    # Runs inside the Snakemake process: joining parquet files needs no interpreter of its own.
    input:
        chunk_paths,
    output:
        paths.trace(ROOT, "{paper}", "{experiment}", "{algorithm}"),
    log:
        paths.log(ROOT, "gather_trace", "{paper}/{experiment}/{algorithm}"),
    localrule: True
    run:
        gather_chunks(list(input), output[0], log[0])
