"""The real workflow, end to end, at smoke scale, in a scratch copy of the repository's
workflow files: every target is built, notebooks run without errors, claims get verdicts,
nothing is left to do afterwards, a one-parameter change reruns only its panel, an edit of
what an output shows (a provenance note, a claim's text) rebuilds it without rerunning a
simulation, a bad config fails before any job runs, and a damaged trace is rebuilt."""

import json
import os
import re
import runpy
import shutil
import subprocess

import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO_ROOT, snakemake

from timebandits.core.verdicts.vocabulary import (
    EVIDENCE,
    NOT_CHECKABLE,
    REPRODUCED,
    SCOPES,
    VERDICTS,
)

pytestmark = pytest.mark.workflow


def planned_jobs(result: subprocess.CompletedProcess) -> dict:
    """Job counts from the 'Job stats' table of a dry run."""
    text = result.stdout + result.stderr
    if "Nothing to be done" in text:
        return {}
    table = text.split("Job stats:")[1].split("\n\n")[0]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", table, re.M)}


PAPERS = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["papers"]


def paper_config(built, key):
    return yaml.safe_load((built / f"config/papers/{key}.yaml").read_text())


@pytest.mark.parametrize("key", PAPERS)
def test_every_target_is_built(built, key):
    paper = paper_config(built, key)
    for figure in paper["figures"]:
        for ext in ("pdf", "png"):
            path = built / f"smoke/figures/{key}/{figure}.{ext}"
            assert path.stat().st_size > 5000, path
    for ext in ("ipynb", "html"):
        assert (built / f"smoke/results/notebooks/{key}.{ext}").stat().st_size > 10000
    tables = list((built / f"smoke/results/tables/{key}").glob("*.csv"))
    assert tables
    for table in tables:
        assert not pd.read_csv(table).empty, table
    # Nothing generated lands outside smoke/ (a full run is never overwritten).
    assert not (built / "results").exists() and not (built / "figures").exists()


@pytest.mark.parametrize("key", PAPERS)
def test_every_claim_has_a_verdict_with_numbers(built, key):
    paper = paper_config(built, key)
    verdicts = pd.read_csv(built / f"smoke/results/claims/{key}.csv")
    assert list(verdicts["claim"]) == [c["id"] for c in paper["claims"]]
    assert set(verdicts["verdict"]) <= set(VERDICTS)
    assert set(verdicts["evidence"]) <= set(EVIDENCE)
    decided = verdicts[verdicts["evidence"] != NOT_CHECKABLE]
    assert decided["decided_by"].str.contains(r"\d").all()
    assert list(verdicts["scope"]) == [c["scope"] for c in paper["claims"]]
    assert set(verdicts["scope"]) <= set(SCOPES)
    assert verdicts["can_reproduce"].dtype == bool and verdicts["can_refute"].dtype == bool
    # No claim is reproduced that could not have been refuted; every claim that cannot reach
    # both verdicts says why.
    assert not (verdicts["verdict"].eq(REPRODUCED) & ~verdicts["can_refute"]).any()
    one_sided = verdicts[~(verdicts["can_reproduce"] & verdicts["can_refute"])]
    assert one_sided["decidability"].fillna("").str.len().gt(0).all()
    details = pd.read_csv(built / f"smoke/results/claims/{key}_details.csv")
    assert set(details["claim"]) == set(verdicts["claim"])
    assert set(details["role"]) <= {"decides", "supports"}


@pytest.mark.parametrize("name", [*PAPERS, "comparison"])
def test_notebooks_ran_without_errors(built, name):
    notebook = json.loads((built / f"smoke/results/notebooks/{name}.ipynb").read_text())
    outputs = [o for c in notebook["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert outputs, name
    assert not [o for o in outputs if o["output_type"] == "error"], name
    # figures are PNG outputs, or linked under their title and caption (display.figure_html)
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    images += [
        o
        for o in outputs
        if '<img src="../../figures/' in "".join(o.get("data", {}).get("text/html", ""))
    ]
    assert len(images) >= 4, name


def test_traces_have_one_row_per_algorithm_repetition_and_checkpoint(built):
    paper = yaml.safe_load((built / "config/papers/farewell.yaml").read_text())
    trace = pd.read_parquet(built / "smoke/results/traces/farewell/fig1a/reps0-3.parquet")
    assert set(trace["algorithm"]) == set(paper["experiments"]["fig1a"]["algorithms"])
    assert trace["repetition"].nunique() == 3
    assert trace["t"].max() == 20000
    assert len(trace) == trace["algorithm"].nunique() * 3 * trace["t"].nunique()


@pytest.mark.parametrize("key", PAPERS)
def test_every_column_a_simulation_writes_is_a_declared_metric(built, key):
    """The metric names a paper file may use (its analysis module's METRICS, checked when the
    file loads: core/build/config_checks.py) cover every column its simulations write."""
    from timebandits.core.build.config_checks import known_metric
    from timebandits.core.registry import paper_module

    metrics = paper_module(key, "analysis").METRICS
    columns = {
        column
        for path in (built / f"smoke/results/traces/{key}").rglob("*.parquet")
        for column in pq.read_schema(path).names
    }
    assert columns, key
    unknown = sorted(
        c for c in columns - {"algorithm", "repetition", "t"} if not known_metric(c, metrics)
    )
    assert not unknown, f"{key}: columns not in analysis.METRICS: {unknown}"


@pytest.mark.parametrize("key", PAPERS)
def test_figures_embed_only_fonts_publishers_take(built, key):
    """One figure per paper: every font in its PDF is TrueType (Type 42) or Type 1, never Type 3
    (poppler's ``pdffonts``; .ci/run installs it)."""
    pdffonts = shutil.which("pdffonts")
    if pdffonts is None:
        if os.environ.get("TIMEBANDITS_REQUIRE_BROWSER") == "1":
            pytest.fail("pdffonts is not installed (apt-get install poppler-utils)")
        pytest.skip("pdffonts is not installed (apt-get install poppler-utils; CI installs it)")
    figure = sorted((built / f"smoke/figures/{key}").glob("*.pdf"))[0]
    listing = subprocess.run([pdffonts, str(figure)], capture_output=True, text=True, check=True)
    fonts = listing.stdout.splitlines()[2:]
    assert fonts, f"{figure}: no fonts"
    assert all(
        re.search(r"\b(TrueType|Type 1)\b", line) and "Type 3" not in line for line in fonts
    ), listing.stdout


def test_nothing_to_do_after_a_full_build(built):
    result = snakemake(built, "--profile", "profiles/smoke", "-n")
    assert result.returncode == 0
    assert planned_jobs(result) == {}, result.stdout[-2000:]


def test_one_parameter_reruns_only_its_panel(built, tmp_path):
    config = built / "config/papers/farewell.yaml"
    original = config.read_text()
    try:
        config.write_text(
            original.replace(
                "delay_pmf: [[0.25, 0.20, 0.15, 0.0, 0.25, 0.0, 0.0, 0.0, 0.0, 0.15]]\n"
                "    algorithms: *panel_algorithms",
                "delay_pmf: [[0.25, 0.20, 0.15, 0.0, 0.26, 0.0, 0.0, 0.0, 0.0, 0.14]]\n"
                "    algorithms: *panel_algorithms",
                1,
            )
        )
        assert config.read_text() != original
        result = snakemake(built, "--profile", "profiles/smoke", "-n")
        assert result.returncode == 0, result.stderr[-2000:]
        jobs = planned_jobs(result)
        # thm1_fig1b references fig1b's problem (a YAML anchor, not a copy), so it follows; at
        # smoke scale each experiment is one job (all its algorithms, 3 repetitions)
        assert jobs["simulate"] == 2
        rerun = set(
            re.findall(r"output: \S*traces/farewell/(\w+)/reps\d+-\d+\.parquet", result.stdout)
        )
        assert rerun == {"fig1b", "thm1_fig1b"}
    finally:
        config.write_text(original)


def dry_run_after_edit(built, key, old, new):
    """The jobs and the dry run's text after replacing ``old`` by ``new`` (once) in the paper
    file ``key``; the file is restored afterwards (the build is shared by every test)."""
    config = built / f"config/papers/{key}.yaml"
    original = config.read_text()
    assert original.count(old) == 1, old
    try:
        config.write_text(original.replace(old, new))
        result = snakemake(built, "--profile", "profiles/smoke", "-n")
    finally:
        config.write_text(original)
    assert result.returncode == 0, result.stderr[-2000:]
    return planned_jobs(result), result.stdout


def test_provenance_edit_rebuilds_what_shows_it_and_no_simulation(built):
    jobs, text = dry_run_after_edit(
        built,
        "farewell",
        "Alg. 1 does not say how argmax ties are broken;",
        "Algorithm 1 does not say how argmax ties are broken;",
    )
    assert "output: smoke/results/tables/farewell/provenance.csv" in text
    assert "output: smoke/results/notebooks/farewell.ipynb" in text
    assert jobs["paper_notebook"] == 1  # not the other papers'
    # Simulations and summaries depend on settings only; figures show no algorithm provenance.
    assert not {"simulate", "summarise", "figure"} & set(jobs), jobs


def test_claim_text_edit_reruns_its_claims_and_no_simulation(built):
    jobs, text = dry_run_after_edit(
        built,
        "farewell",
        "Fig. 1a: Wait-UCB performs much better than UCB-Simplex",
        "Fig. 1a: Wait-UCB performs far better than UCB-Simplex",
    )
    assert jobs["claims"] == 1 and "output: smoke/results/claims/farewell.csv" in text
    assert "simulate" not in jobs, jobs


def test_script_edit_reruns_its_rule_and_no_simulation(built):
    """A rule runs its script from a ``run:`` block, whose script Snakemake does not track; the
    digest of the script in the rule's params does (workflow/rules/common.smk, script_code)."""
    script = built / "workflow/scripts/scorecard.py"
    original = script.read_text()
    try:
        script.write_text(original + "\n# an edit\n")
        result = snakemake(built, "--profile", "profiles/smoke", "-n")
    finally:
        script.write_text(original)
    assert result.returncode == 0, result.stderr[-2000:]
    jobs = planned_jobs(result)
    assert jobs["scorecard"] == 1, jobs
    assert not {"simulate", "summarise", "figure", "claims"} & set(jobs), jobs


@pytest.mark.parametrize("key", PAPERS)
def test_scorecard_counts_every_claim(built, key):
    scorecard = pd.read_csv(built / "smoke/results/scorecard.csv")
    assert list(scorecard["paper"].unique()) == PAPERS
    claims = paper_config(built, key)["claims"]
    rows = scorecard[scorecard["paper"] == key].set_index("scope")
    assert list(rows.index) == [s for s in SCOPES if any(c["scope"] == s for c in claims)]
    for scope, row in rows.iterrows():
        assert row["claims"] == sum(c["scope"] == scope for c in claims)
        assert row["claims"] == (
            row["reproduced"]
            + row["not_reproduced"]
            + row["inconclusive"]
            + row["exact"]
            + row["not_checkable"]
        )
        assert row["exact_holds"] + row["exact_fails"] <= row["exact"]


def test_scorecard_script_counts_verdicts_by_evidence(tmp_path):
    main = runpy.run_path(str(REPO_ROOT / "workflow/scripts/scorecard.py"))["main"]
    verdicts = {
        "farewell": [
            ("statistical test", "reproduced"),
            ("statistical test", "not reproduced"),
            ("exact computation", "reproduced"),
            ("not checkable", "not checkable"),
        ],
        "delaydep": [("statistical test", "inconclusive"), ("exact computation", "not reproduced")],
    }
    from timebandits.core.verdicts.vocabulary import SUMMARY_COLUMNS

    paths, configs = [], {}
    for key, rows in verdicts.items():
        path = tmp_path / f"{key}.csv"
        frame = pd.DataFrame(rows, columns=["evidence", "verdict"]).assign(
            claim=[f"C{i}" for i in range(len(rows))],
            scope="paper",
            can_reproduce=True,
            can_refute=True,
        )
        frame.reindex(columns=SUMMARY_COLUMNS, fill_value="").to_csv(path, index=False)
        paths.append(str(path))
        configs[key] = {"claims": [{"id": f"C{i}", "scope": "paper"} for i in range(len(rows))]}
    output = tmp_path / "scorecard.csv"
    page = tmp_path / "scorecard.html"
    main(list(verdicts), paths, str(output), str(page), str(tmp_path / "scorecard.log"), configs)
    table = pd.read_csv(output).set_index("paper")
    # the page the report shows is the same table, with its reading note
    assert "Scorecard." in page.read_text() and page.read_text().count("<tr>") >= 4
    assert table.loc["farewell"].to_dict() == {
        "scope": "paper",
        "claims": 4,
        "reproduced": 1,
        "not_reproduced": 1,
        "inconclusive": 0,
        "exact": 1,
        "exact_holds": 1,
        "exact_fails": 0,
        "not_checkable": 1,
        "undecidable": 0,
    }
    assert table.loc["delaydep"].to_dict() == {
        "scope": "paper",
        "claims": 2,
        "reproduced": 0,
        "not_reproduced": 0,
        "inconclusive": 1,
        "exact": 1,
        "exact_holds": 0,
        "exact_fails": 1,
        "not_checkable": 0,
        "undecidable": 0,
    }
    assert "farewell (paper): 4 claims" in (tmp_path / "scorecard.log").read_text()


def test_bad_config_fails_before_any_job(built):
    config = built / "config/papers/farewell.yaml"
    original = config.read_text()
    try:
        config.write_text(original.replace("horizon: 1.0e+7", "horizon: -1", 1))
        result = snakemake(built, "--profile", "profiles/smoke")
        assert result.returncode != 0
        assert "farewell.yaml: key defaults.horizon" in result.stderr + result.stdout
        assert "Select jobs to execute" not in result.stderr + result.stdout
    finally:
        config.write_text(original)


def test_a_summary_edited_by_hand_stops_its_figure_job_in_one_line(built, tmp_path, monkeypatch):
    """Snakemake never re-reads a finished output: the figure job itself refuses a summary whose
    content no longer matches the digest its summarise job sealed it with (core/sim/sealed.py)."""
    from timebandits.core.sim.sealed import OutputError

    edited = tmp_path / "fig1a.parquet"
    table = pq.read_table(built / "smoke/results/summaries/farewell/fig1a.parquet")
    column = table.schema.get_field_index("mean")
    pq.write_table(table.set_column(column, "mean", pc.multiply(table["mean"], 2.0)), edited)
    main = runpy.run_path(str(REPO_ROOT / "workflow/scripts/figure.py"))["main"]
    monkeypatch.chdir(built)
    with pytest.raises(
        OutputError,
        match=r"fig1a.parquet: its content differs from what its "
        r"job wrote \(edited by hand\?\); rebuild it with",
    ):
        main(
            "farewell",
            "fig1a",
            [str(edited)],
            tmp_path / "f.pdf",
            tmp_path / "f.png",
            tmp_path / "f.thumbnail.png",
            tmp_path / "f.log",
        )
    assert not (tmp_path / "f.pdf").exists()


def test_a_figure_asked_for_by_the_papers_name_lists_its_panels(built):
    """`snakemake figures/farewell/fig1.pdf` (the paper's Fig. 1, three panels here) stops
    before any job with one line naming the panels' files, not Snakemake's MissingRuleException."""
    result = snakemake(
        built, "--profile", "profiles/smoke", "-n", "smoke/figures/farewell/fig1.pdf"
    )
    assert result.returncode != 0 and "MissingRuleException" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if "has no figure" in line]
    assert lines == [
        "smoke/figures/farewell/fig1.pdf: farewell has no figure 'fig1'; its panels: "
        "smoke/figures/farewell/fig1a.pdf, smoke/figures/farewell/fig1b.pdf, "
        "smoke/figures/farewell/fig1c.pdf"
    ], result.stderr[-1000:]


def test_a_copy_whose_python_runs_another_clones_code_stops_in_one_line(built):
    """A clone copied with ``cp -a`` keeps a .venv whose editable install points back to the
    original: the Snakefile stops before any job when the workflow's own src/timebandits is not
    the package Python imports (the scratch copy has no src/ until the test gives it one)."""
    own = built / "src/timebandits"
    own.mkdir(parents=True)
    (own / "__init__.py").write_text("")
    try:
        result = snakemake(built, "--profile", "profiles/smoke", "-n")
    finally:
        shutil.rmtree(built / "src")
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if "imports timebandits from" in line]
    assert len(lines) == 1 and str(own) in lines[0] and "rm -rf .venv && make" in lines[0]
    assert "Traceback" not in result.stderr


def test_an_executed_notebook_reruns_in_jupyter_from_its_own_folder(built):
    """A researcher opens an executed notebook and runs it again, in its own folder (where
    Jupyter starts its kernel): it finds the project's files itself (core.paths.enter_project)
    and every cell gives the output the workflow's run gave."""
    import nbformat
    from nbclient import NotebookClient

    from timebandits.core.pages.notebooks import same_bits

    path = built / "smoke/results/notebooks/farewell.ipynb"
    stored = nbformat.read(path, as_version=4)
    rerun = nbformat.read(path, as_version=4)
    NotebookClient(
        rerun,
        timeout=600,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    same_bits(rerun)
    for before, after in zip(stored.cells, rerun.cells):
        if before.cell_type == "code":
            assert after.outputs == before.outputs, before.source[:200]


def test_every_job_logs_its_start_up_and_its_record_and_the_build_profile_reads_them(built):
    """Each job logs how long it took to reach its work (core.build.workflow.log_start_up) and, as
    it exits, its record (core.build.workflow.job_record); benchmarks/build_profile.py reads both
    for every job, and no job was polled by Snakemake's benchmark directive."""
    profile = runpy.run_path(str(REPO_ROOT / "benchmarks/build_profile.py"))
    jobs, unrecorded = profile["job_records"](f"{built}/smoke/")
    rules = {
        "simulate",
        "summarise",
        "figure",
        "table",
        "bounds",
        "claims",
        "notebook",
        "scorecard",
        "front_page",
    }
    assert set(jobs["rule"]) == rules and unrecorded == 0
    logs = {
        path.relative_to(built / "smoke/logs").with_suffix("").as_posix()
        for path in (built / "smoke/logs").rglob("*.log")
    }
    assert set(jobs["rule"] + "/" + jobs["job"]) == logs  # a record of every job that logged
    # start-up is part of the job; both are read from /proc to 10 ms, and a job with almost no
    # work of its own (it ends without the interpreter's teardown) may record them equal
    assert (jobs["start_up"] > 0).all() and (jobs["start_up"] <= jobs["seconds"]).all()
    # CPU: some (a job forked from the warm job server starts no interpreter and imports nothing:
    # its CPU is its own work, 0.02 s for the smallest), at most both cores all the time
    assert (jobs["cpu_seconds"] > 0).all() and (jobs["cpu_seconds"] < 2 * jobs["seconds"] + 1).all()
    # Jobs are forked from the build's warm job server (core/build/job_server.py), all but those
    # that start in the seconds before it listens.
    served = sum(
        "forked copy of the build's job server" in (built / "smoke/logs" / f"{log}.log").read_text()
        for log in logs
    )
    assert served >= 0.9 * len(logs), f"{served} of {len(logs)} jobs ran in the job server"
    assert (jobs["mem_mb"] > 50).all()  # an interpreter with numpy and pandas, at least
    table = profile["profile"](jobs, ["rule"])
    assert table["jobs"].sum() == len(jobs)
    assert not (built / "smoke/benchmarks").exists()


def test_a_damaged_trace_is_rebuilt_bit_for_bit_and_a_foreign_one_refused(built, tmp_path):
    """A plain ``snakemake``, naming no target, rebuilds a trace that is gone and everything
    after it (core's ``all_targets`` asks for every intermediate: Snakemake itself would leave a
    missing trace missing once its consumers exist). A truncated chunk and a valid chunk with
    one repetition removed are removed before any job, so they are rebuilt, bit for bit, as a
    removed one is; a chunk from other settings stops every reader with one line naming the
    file and how to rebuild it (core/sim/traces.py). It runs on a copy of the build: the
    rebuild rewrites farewell's figures and pages, which other tests read meanwhile."""
    from timebandits.core.build.preflight import load_paper
    from timebandits.core.build.workflow import trace_reader
    from timebandits.core.sim.traces import CONTRACT_KEY, TraceError

    shutil.copytree(built, tmp_path / "build", symlinks=True)
    built = tmp_path / "build"

    path = built / "smoke/results/traces/farewell/fig1a/reps0-3.parquet"
    summary = built / "smoke/results/summaries/farewell/fig1a.parquet"
    claims = built / "smoke/results/claims/farewell.csv"
    saved = path.with_suffix(".saved")
    shutil.copy2(path, saved)
    original = path.read_bytes()
    table = pq.read_table(path)
    try:
        for removed in (path, summary):  # gone: planned by a plain run, with all after it
            shutil.move(removed, removed.with_suffix(".gone"))
            try:
                result = snakemake(built, "--profile", "profiles/smoke", "-n")
            finally:
                shutil.move(removed.with_suffix(".gone"), removed)
            jobs = planned_jobs(result)
            assert jobs.get("simulate", 0) == (removed == path), result.stdout[-2000:]
            assert jobs.get("figure", 0) >= 1 and jobs.get("front_page") == 1
            assert (jobs.get("claims") == 1) == (removed == path)
        made = claims.stat().st_mtime_ns
        for damage, problem, run in [
            (lambda: os.truncate(path, 100), "unreadable (", ()),
            (
                lambda: pq.write_table(table.filter(pc.not_equal(table["repetition"], 1)), path),
                "(incomplete)",
                ("-n",),
            ),
        ]:
            damage()
            result = snakemake(built, "--profile", "profiles/smoke", *run)
            assert result.returncode == 0, result.stderr[-2000:]
            assert f"{path.relative_to(built)}: " in result.stderr and problem in result.stderr
            assert "removed, so the workflow rebuilds it" in result.stderr
            if run:  # the dry run removed it; the plan rebuilds it and what it feeds
                assert planned_jobs(result)["simulate"] == 1 and not path.exists()
                shutil.copy2(saved, path)
            else:
                assert path.read_bytes() == original and claims.stat().st_mtime_ns > made
        contract = json.loads(table.schema.metadata[CONTRACT_KEY])
        foreign = {
            **table.schema.metadata,
            CONTRACT_KEY: json.dumps({**contract, "settings": "0" * 16}).encode(),
        }
        pq.write_table(table.replace_schema_metadata(foreign), path)
        config = {**yaml.safe_load((built / "config/config.yaml").read_text()), "scale": "smoke"}
        trace_of = trace_reader(f"{built}/smoke/", load_paper("farewell", built / "config"), config)
        with pytest.raises(
            TraceError,
            match=r"fig1a/reps0-3.parquet: made by other settings .*"
            r"rebuild it with `snakemake --force ",
        ):
            trace_of("fig1a", contract["algorithms"][0])
    finally:
        shutil.copy2(saved, path)  # the original bytes and times: the build stays complete
        saved.unlink()
