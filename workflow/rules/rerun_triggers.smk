# Rerun triggers a job carries in its params: the code it runs (simulation-side or analysis
# side, core.imports) and, for every output after the simulation, what it shows of the config.


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
