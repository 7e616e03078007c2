# Analysis, separate from simulation: summaries per experiment, bound tables, claim verdicts
# and tables per paper, and the scorecard over every paper. Summaries show only their traces;
# every other output carries what it shows of the config in its params (rerun_triggers.smk,
# canonical).


rule summarise:
    input:
        experiment_traces,
    output:
        paths.summary(ROOT, "{paper}", "{experiment}"),
    log:
        paths.log(ROOT, "summarise", "{paper}/{experiment}"),
    priority: PRIORITY_VERDICTS
    group:
        "analysis_{paper}"
    resources:
        **analysis_resources("summarise"),
    params:
        script=script_code("summarise"),
        code=analysis_code,
        root=ROOT,
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)


rule bounds:
    input:
        paper_traces,
    output:
        paths.bounds(ROOT, "{paper}"),
    log:
        paths.log(ROOT, "bounds", "{paper}"),
    priority: PRIORITY_VERDICTS
    group:
        "analysis_{paper}"
    resources:
        **analysis_resources("bounds"),
    params:
        script=script_code("bounds"),
        code=analysis_code,
        root=ROOT,
        settings=paper_settings,
    run:
        run_job("kernels", input, output, params, wildcards, threads, resources, log, rule)


rule claims:
    input:
        traces=paper_traces,
        bounds=paths.bounds(ROOT, "{paper}"),
    output:
        verdicts=paths.claims(ROOT, "{paper}"),
        details=paths.claim_details(ROOT, "{paper}"),
    log:
        paths.log(ROOT, "claims", "{paper}"),
    priority: PRIORITY_VERDICTS
    group:
        "analysis_{paper}"
    resources:
        **analysis_resources("claims"),
    params:
        script=script_code("claims"),
        code=analysis_code,
        root=ROOT,
        settings=claims_settings,
    run:
        run_job("kernels", input, output, params, wildcards, threads, resources, log, rule)


rule table:
    input:
        paper_traces,
    output:
        paths.table(ROOT, "{paper}", "{table}"),
    log:
        paths.log(ROOT, "table", "{paper}/{table}"),
    wildcard_constraints:
        table=_alternatives(t for key in PAPERS for t in paper_tables(key)),
    priority: PRIORITY_VERDICTS
    group:
        "analysis_{paper}"
    resources:
        **analysis_resources("table"),
    params:
        script=script_code("table"),
        code=analysis_code,
        root=ROOT,
        settings=paper_settings,
    run:
        run_job("kernels", input, output, params, wildcards, threads, resources, log, rule)


rule scorecard:
    input:
        claims=[paths.claims(ROOT, key) for key in PAPERS],
    output:
        csv=paths.scorecard(ROOT),
        page=report(
            paths.scorecard_page(ROOT), caption="../report/scorecard.rst", category="0. Start here"
        ),
    log:
        paths.log(ROOT, "scorecard", "scorecard"),
    priority: PRIORITY_VERDICTS
    group:
        "report"
    resources:
        **analysis_resources("scorecard"),
    params:
        script=script_code("scorecard"),
        code=analysis_code,
        papers=list(PAPERS),
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)
