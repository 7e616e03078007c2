# Executed notebooks: one per paper, and the comparison of every empirical curve with its bound.
# A paper's notebook reruns when its paper file changes, the comparison when any paper's does;
# both, and the front page, when the software versions they state change (core/versions.py).


rule paper_notebook:
    input:
        source="notebooks/{paper}.py",
        results=paper_notebook_inputs,
    output:
        ipynb=paths.notebook(ROOT, "{paper}", "ipynb"),
        html=report(
            paths.notebook(ROOT, "{paper}", "html"),
            caption="../report/notebook.rst",
            category="notebooks",
        ),
    log:
        paths.log(ROOT, "notebook", "{paper}"),
    priority: PRIORITY_PAGES
    group:
        "analysis_{paper}"
    resources:
        **analysis_resources("paper_notebook"),
    params:
        script=script_code("notebook"),
        code=analysis_code,
        root=ROOT,
        settings=paper_settings,
        software=SOFTWARE,
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)


rule comparison_notebook:
    input:
        source="notebooks/comparison.py",
        bounds=[paths.bounds(ROOT, key) for key in PAPERS],
        tables=[paths.table(ROOT, key, t) for key in PAPERS for t in paper_tables(key)],
        traces=[c for key in PAPERS for c in all_paper_traces(key)],
        scorecard=paths.scorecard(ROOT),
    output:
        ipynb=paths.notebook(ROOT, "comparison", "ipynb"),
        html=report(
            paths.notebook(ROOT, "comparison", "html"),
            caption="../report/notebook.rst",
            category="notebooks",
        ),
    log:
        paths.log(ROOT, "notebook", "comparison"),
    priority: PRIORITY_VERDICTS
    group:
        "report"
    resources:
        **analysis_resources("comparison_notebook"),
    params:
        script=script_code("notebook"),
        code=analysis_code,
        root=ROOT,
        settings=all_papers_settings,
        software=SOFTWARE,
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)


rule front_page:
    input:
        front_page_inputs,
    output:
        # In the report first, beside the scorecard; its links and thumbnails are relative to
        # results/, so in the report the page's text stands alone (workflow/report/front_page.rst).
        report(paths.front_page(ROOT), caption="../report/front_page.rst", category="0. Start here"),
    log:
        paths.log(ROOT, "front_page", "index"),
    priority: PRIORITY_PAGES
    group:
        "report"
    resources:
        **analysis_resources("front_page"),
    params:
        script=script_code("front_page"),
        code=analysis_code,
        root=ROOT,
        papers=list(PAPERS),
        software=SOFTWARE,
        settings=lambda wc: fingerprint(
            {key: {k: PAPERS[key][k] for k in ("paper", "figures", "claims")} for key in PAPERS}
        ),
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)
