# Paper files loaded and cross-checked once; paths and the target list derived from them.
import functools
import hashlib
import json
import math
import os
import re
import sys
from pathlib import Path

import timebandits

from timebandits.core import paths
from timebandits.core.build import resources
from timebandits.core.build.preflight import load_paper
from timebandits.core.config import (
    ConfigError,
    repetition_chunks,
    resolve_experiment,
    validate_workflow_config,
)
from timebandits.core.imports import analysis_files, simulation_modules
from timebandits.core.sim.jit import source_digest
from timebandits.core.build.job_client import run_script
from timebandits.core.registry import paper_module
from timebandits.core.versions import versions_line
from timebandits.core.sim.traces import footer_problem, simulation_settings
from timebandits.core.build.workflow import chunk_contracts

try:
    validate_workflow_config(config)
    PAPERS = {key: load_paper(key) for key in config["papers"]}
except ConfigError as err:
    sys.exit(f"Configuration error: {err}")

# Smoke (or any non-full) scale writes under <scale>/ so it never overwrites a full run.
ROOT = "" if config["scale"] == "full" else f"{config['scale']}/"
# What the pages state they were produced with (and rebuild when it changes).
SOFTWARE = versions_line()


@functools.cache
def experiment_chunks(key, experiment):
    """The chunk files of one experiment with their contracts (core.build.workflow.chunk_contracts),
    worked out once per run of Snakemake: the papers and the config are fixed by now, and the
    trace inputs of hundreds of jobs ask for them (about a second of every dry run)."""
    return tuple(chunk_contracts(ROOT, PAPERS[key], config, experiment))


def remove_damaged_traces():
    """Before any job: a chunk file whose footer shows it unreadable, holding another chunk or
    incomplete (core.sim.traces.footer_problem) is removed, with one line, so that the workflow
    rebuilds it and everything after it. A file from other settings is left to the params
    trigger (a dry run after a config edit removes nothing); readers refuse it."""
    for key, paper in PAPERS.items():
        for experiment in paper["experiments"]:
            for path, contract in experiment_chunks(key, experiment):
                if os.path.exists(path) and (problem := footer_problem(path, contract)):
                    os.remove(path)
                    print(
                        f"{path}: {problem}; removed, so the workflow rebuilds it", file=sys.stderr
                    )


remove_damaged_traces()


def unknown_figure_targets(arguments) -> str | None:
    """One line for a requested figure file the paper has no figure of (``figures/censored/
    fig4.pdf`` where the paper's Fig. 4 is three panels): the figures whose ids start with the
    name asked for (its panels), else every figure of that paper. Snakemake itself would stop
    with a MissingRuleException naming no alternative."""
    pattern = re.compile(rf"{re.escape(ROOT)}figures/(\w+)/([\w.-]+)\.(pdf|png)")
    for argument in arguments:
        match = pattern.fullmatch(argument)
        if not match or match.group(1) not in PAPERS:
            continue
        key, name, ext = match.groups()
        figures = list(PAPERS[key]["figures"])
        if name in figures:
            continue
        panels = [f for f in figures if f.startswith(name)] or figures
        what = "its panels" if panels != figures else f"{key}'s figures"
        listed = ", ".join(paths.figure(ROOT, key, f, ext) for f in panels)
        return f"{argument}: {key} has no figure {name!r}; {what}: {listed}"
    return None


if problem := unknown_figure_targets(sys.argv[1:]):
    sys.exit(problem)


def _alternatives(values):
    return "|".join(sorted(set(values)))


wildcard_constraints:
    paper=_alternatives(PAPERS),
    experiment=_alternatives(e for p in PAPERS.values() for e in p["experiments"]),
    figure=_alternatives(f for p in PAPERS.values() for f in p["figures"]),
    start=r"\d+",
    stop=r"\d+",


def experiment_of(wildcards):
    return resolve_experiment(PAPERS[wildcards.paper], wildcards.experiment, config)


def experiment_traces(wildcards):
    return [path for path, _ in experiment_chunks(wildcards.paper, wildcards.experiment)]


def paper_traces(wildcards):
    return all_paper_traces(wildcards.paper)


def all_paper_traces(key):
    return [path for e in PAPERS[key]["experiments"] for path, _ in experiment_chunks(key, e)]


PACKAGE = Path(timebandits.__file__).resolve().parent
SCRIPTS = Path(workflow.basedir) / "workflow" / "scripts"


def script_code(name):
    """ "figure.py 1a2b…": the script a rule runs (workflow/scripts/<name>.py) and its digest. It
    is the rule's ``script`` param, a rerun trigger (Snakemake tracks the code of a ``run:`` block,
    not the script it calls), and :func:`run_job` runs the script it names."""
    return f"{name}.py {source_digest(SCRIPTS, [SCRIPTS / f'{name}.py'])}"


def run_job(stack, input, output, params, wildcards, threads, resources, log, rule):
    """A rule's ``run:`` block: the script of its ``script`` param (:func:`script_code`) for this
    job, in the job server of ``stack`` or a process of its own (core/build/job_client.py), with the
    ``snakemake`` object that Snakemake's ``script:`` directive would give it."""
    from snakemake.iocontainers import Snakemake

    job = Snakemake(
        input, output, params, wildcards, threads, resources, log, config, rule, None, str(SCRIPTS)
    )
    run_script(SCRIPTS / params.script.split()[0], stack, job)


@functools.cache
def code_fingerprint(files: tuple[str, ...]) -> str:
    """ "code 1a2b…": 16 hex digits of SHA-256 over ``files`` (paths within the package, and
    bytes). Code is a rerun trigger through params, not inputs: an edit reruns the job as an
    input would (a touch without an edit does not), and the scheduler, which looks at every
    input of every ready job before each choice, is spared some fifty files per job."""
    return f"code {source_digest(PACKAGE, [Path(f) for f in files])}"


def simulation_code(wildcards):
    """What a trace depends on besides its parameters and data: the modules its simulation runs
    (core.imports.simulation_modules: the paper's simulation-side modules, core.sim.simulation and
    core.sim.traces, and what they import at module level within the package, found by reading the
    source), in the installed package, wherever it lives."""
    return _simulation_code(wildcards.paper)


@functools.cache
def _simulation_code(key):
    return code_fingerprint(tuple(str(path) for path in simulation_modules(key, PACKAGE)))


def simulation_data(wildcards):
    """The data files a trace's environment reads, if the paper's simulation module names them
    (``environment_files``)."""
    simulation = paper_module(wildcards.paper, "simulation")
    data = getattr(simulation, "environment_files", lambda environment: [])
    return [*data(experiment_of(wildcards)["environment"])]


def analysis_code(wildcards):
    """The code every output after the simulation is made with: the paper's subpackage and the
    core. Snakemake tracks a rule's own script, not the modules it imports, so without this
    trigger editing a plot function or a claim kind would leave stale figures and verdicts. The
    page templates (core/pages/templates) count as code."""
    return _analysis_code(wildcards.paper if "paper" in wildcards.keys() else None)


@functools.cache
def _analysis_code(key):
    """:func:`analysis_code` of paper ``key``'s outputs, or of those over every paper (None)."""
    files = analysis_files([key] if key else list(PAPERS), PACKAGE)
    return code_fingerprint(tuple(str(path) for path in files))


def simulation_params(wildcards):
    """Every setting a chunk's trace depends on (rerun trigger): not titles or provenance. A
    job runs all algorithms of its experiment, so changing one algorithm reruns the experiment."""
    return json.dumps(
        simulation_settings(PAPERS[wildcards.paper], config, wildcards.experiment), sort_keys=True
    )


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


def canonical(value) -> str:
    """``value`` as canonical JSON. Snakemake reruns a job whose params changed, so each output
    after the simulation carries in its params exactly what it shows (a title, a provenance
    note, a claim's text): editing any of it rebuilds the output, and only ``simulation_params``
    reruns a simulation. Params must be functions: a string would be expanded as wildcards."""
    return json.dumps(value, sort_keys=True)


def fingerprint(value) -> str:
    """``value``'s canonical JSON reduced to its SHA-256: the same rerun trigger as ``canonical``
    for outputs a report shows with their job's params (figures, notebooks, the front page),
    which then show 16 hex digits, not a JSON blob."""
    return f"settings {hashlib.sha256(canonical(value).encode()).hexdigest()[:16]}"


def shown(paper):
    """A paper file as its outputs may show it: all but its ``cluster_cost``, which only says what
    a simulate job asks a cluster for (core/build/resources.py), so that editing it rebuilds
    nothing."""
    return {key: value for key, value in paper.items() if key != "cluster_cost"}


def paper_settings(wildcards):
    """What a paper's tables, bounds and notebook may show: its paper file, as ``shown``."""
    return fingerprint(shown(PAPERS[wildcards.paper]))


def all_papers_settings(wildcards):
    """What the comparison notebook may show: every configured paper's file, as ``shown``."""
    return fingerprint({key: shown(paper) for key, paper in PAPERS.items()})


def claims_settings(wildcards):
    """What a paper's verdicts depend on: its paper file (``shown``), the test settings and the
    base seed (exact checks draw their instances from it)."""
    return fingerprint(
        {
            "paper": shown(PAPERS[wildcards.paper]),
            "claims": config["claims"],
            "base_seed": config["base_seed"],
        }
    )


def figure_settings(wildcards):
    """What a figure shows: its spec, its experiment, the labels of its algorithms and their
    styles (core.pages.plotting.algorithm_style: each algorithm's position in the paper file)."""
    paper = PAPERS[wildcards.paper]
    spec = paper["figures"][wildcards.figure]
    labels = {
        a: paper["algorithms"][a]["label"] for a in spec["algorithms"] + spec.get("faint", [])
    }
    return fingerprint(
        {
            "figure": spec,
            "experiment": paper["experiments"][spec["experiment"]],
            "also": {exp: paper["experiments"][exp] for exp in spec.get("also", [])},
            "labels": labels,
            "style_order": list(paper["algorithms"]),
        }
    )


def figure_paths(paper, figure):
    return [paths.figure(ROOT, paper, figure, ext) for ext in ("pdf", "png")]


def paper_tables(key):
    return paper_module(key, "report").TABLES


def all_targets():
    """Everything the build makes, the intermediates included: Snakemake rebuilds a missing
    file only when something asked for needs it, so a trace or summary removed after its
    consumers were made (a failed or killed job, a damaged trace) would otherwise stay missing,
    and the outputs after it would stay built from the file that is gone."""
    targets = []
    for key, paper in PAPERS.items():
        targets += all_paper_traces(key)
        targets += [s for figure in paper["figures"] for s in summaries_of(key, figure)]
        targets += [paths.claim_details(ROOT, key)]
        for figure in paper["figures"]:
            targets += figure_paths(key, figure)
        targets += [paths.claims(ROOT, key), paths.bounds(ROOT, key)]
        targets += [paths.table(ROOT, key, t) for t in paper_tables(key)]
        targets += [paths.notebook(ROOT, key, ext) for ext in ("ipynb", "html")]
    targets += [paths.scorecard(ROOT)]
    targets += [paths.notebook(ROOT, "comparison", ext) for ext in ("ipynb", "html")]
    return targets + [paths.front_page(ROOT)]


# The inputs of the figure, notebook and front-page rules.


def summaries_of(key, figure_id):
    """The summary of the figure's experiment, then those of the experiments it ``also`` reads."""
    figure = PAPERS[key]["figures"][figure_id]
    return [
        paths.summary(ROOT, key, exp) for exp in [figure["experiment"], *figure.get("also", [])]
    ]


def figure_summaries(wildcards):
    return summaries_of(wildcards.paper, wildcards.figure)


def paper_notebook_inputs(wildcards):
    paper = PAPERS[wildcards.paper]
    inputs = [p for f in paper["figures"] for p in figure_paths(wildcards.paper, f)]
    inputs += [paths.claims(ROOT, wildcards.paper), paths.claim_details(ROOT, wildcards.paper)]
    inputs += [paths.table(ROOT, wildcards.paper, t) for t in paper_tables(wildcards.paper)]
    return inputs + all_paper_traces(wildcards.paper)


def front_page_inputs(wildcards):
    """What the front page shows or links to: the scorecard, every paper's claims, figures and
    notebook, and the comparison notebook (so that no link of it dangles)."""
    inputs = [paths.scorecard(ROOT), paths.notebook(ROOT, "comparison", "html")]
    for key, paper in PAPERS.items():
        inputs += [paths.claims(ROOT, key), paths.notebook(ROOT, key, "html")]
        inputs += [p for fid in paper["figures"] for p in figure_paths(key, fid)]
    return inputs
