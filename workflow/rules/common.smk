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
