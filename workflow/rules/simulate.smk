# One simulate job = (paper, experiment, chunk of repetitions), running every algorithm of the
# experiment (one start-up per chunk, not per algorithm). The chunk files of an experiment
# together are its trace; readers join them and select an algorithm (core/workflow.py).


rule simulate:
    input:
        simulation_inputs,
    output:
        paths.trace_chunk(ROOT, "{paper}", "{experiment}", "{start}", "{stop}"),
    log:
        paths.log(ROOT, "simulate", "{paper}/{experiment}/reps{start}-{stop}"),
    benchmark:
        paths.benchmark(ROOT, "simulate", "{paper}/{experiment}/reps{start}-{stop}")
    params:
        settings=simulation_params,
        root=ROOT,
    resources:
        mem_mb=2000,
        runtime=120,
    script:
        "../scripts/simulate.py"
