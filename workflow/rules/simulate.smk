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
    input:
        chunk_paths,
    output:
        paths.trace(ROOT, "{paper}", "{experiment}", "{algorithm}"),
    log:
        paths.log(ROOT, "gather_trace", "{paper}/{experiment}/{algorithm}"),
    resources:
        mem_mb=2000,
    script:
        "../scripts/gather_trace.py"
