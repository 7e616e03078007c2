# One simulate job = (paper, experiment, algorithm, chunk of repetitions). The chunk files of
# an (experiment, algorithm) together are its trace; readers join them (core/workflow.py).


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
