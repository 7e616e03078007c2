# What a simulate or analysis job asks a cluster for, its bundling group and its priority
# (core/build/resources.py).


def _simulation_steps(wildcards):
    exp = experiment_of(wildcards)
    return resources.simulation_steps(
        exp["horizon"], int(wildcards.stop) - int(wildcards.start), len(exp["algorithms"])
    )


def simulation_resources(wildcards):
    """Runtime (minutes) and memory (MB) a simulate job asks a cluster for, from its work and its
    paper's ``cluster_cost``."""
    return resources.simulation_resources(
        config["cluster"],
        PAPERS[wildcards.paper]["cluster_cost"],
        wildcards.experiment,
        _simulation_steps(wildcards),
    )


def simulation_group(wildcards):
    """On a cluster, a small simulate job runs bundled with others in one cluster job."""
    return resources.simulation_group(
        config["cluster"],
        PAPERS[wildcards.paper]["cluster_cost"],
        wildcards.experiment,
        _simulation_steps(wildcards),
    )


# The order of ready jobs (it changes no result): what leads to the verdicts first (summaries,
# bounds, tables, claims, the scorecard and the comparison notebook), then the simulations, the
# longest first by their estimate, and the figures, paper notebooks and front page last. A build
# then ends with some hundred short jobs that keep the second core busy while the serial chain
# claims -> scorecard -> comparison notebook runs, instead of that chain running alone.
# Each paper's longest simulation goes before every other, so that it compiles the paper's
# kernels into numba's cache before the paper's next jobs start (the two longest jobs of the
# build are both censored's, and each compiled for 15 s). A paper's second job may still start
# while its first compiles (continuous' did in the builds of 2026-11-29).
PRIORITY_VERDICTS = 1_000_000
PRIORITY_FIRST_OF_PAPER = 100_000
PRIORITY_PAGES = 0


def _estimated_seconds(key, experiment, start, stop):
    exp = resolve_experiment(PAPERS[key], experiment, config)
    steps = resources.simulation_steps(exp["horizon"], stop - start, len(exp["algorithms"]))
    cost = PAPERS[key]["cluster_cost"]
    return resources.simulation_seconds(config["cluster"], cost, experiment, steps)


@functools.cache
def _longest_simulation(key):
    """The (experiment, start, stop) of the paper's simulate job estimated to take longest."""
    jobs = []
    for experiment in PAPERS[key]["experiments"]:
        exp = resolve_experiment(PAPERS[key], experiment, config)
        jobs += [
            (experiment, start, stop)
            for start, stop in repetition_chunks(
                exp["repetitions"], exp["horizon"], config["chunk_work"], len(exp["algorithms"])
            )
        ]
    return max(jobs, key=lambda job: _estimated_seconds(key, *job))


def simulation_priority(wildcards):
    """A simulate job's priority: its estimated seconds, so that the longest run first, and the
    longest of each paper before all others."""
    job = (wildcards.experiment, int(wildcards.start), int(wildcards.stop))
    first = PRIORITY_FIRST_OF_PAPER if job == _longest_simulation(wildcards.paper) else 0
    return first + 1 + math.ceil(_estimated_seconds(wildcards.paper, *job))


def analysis_resources(rule):
    """Runtime and memory of a job of ``rule`` after the simulation (measured, per rule)."""
    return resources.analysis_resources(config["cluster"], rule)
