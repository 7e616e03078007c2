# One simulate job = (paper, experiment, chunk of repetitions), running every algorithm of the
# experiment (one start-up per chunk, not per algorithm). The chunk files of an experiment
# together are its trace; readers join them and select an algorithm (core/build/workflow.py).
# On a cluster, a job asks for the runtime and memory its work needs, and a small job is
# bundled with others into one cluster job (its group; core/build/resources.py).


rule simulate:
    input:
        simulation_data,
    output:
        paths.trace_chunk(ROOT, "{paper}", "{experiment}", "{start}", "{stop}"),
    log:
        paths.log(ROOT, "simulate", "{paper}/{experiment}/reps{start}-{stop}"),
    priority: simulation_priority
    group:
        simulation_group
    resources:
        runtime=lambda wildcards: simulation_resources(wildcards)["runtime"],
        mem_mb=lambda wildcards: simulation_resources(wildcards)["mem_mb"],
    params:
        script=script_code("simulate"),
        settings=simulation_params,
        code=simulation_code,
        root=ROOT,
    run:
        run_job("kernels", input, output, params, wildcards, threads, resources, log, rule)
