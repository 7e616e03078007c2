# One rule renders every figure from a summary (never from a simulation): restyling a plot
# reruns no simulation; editing what a figure shows (its spec, its experiment, its algorithms'
# labels) rerenders it. Captions for `snakemake --report` come from the paper file. The job also
# cuts the front page's thumbnail from the pixels it drew (core/thumbnails.py).


rule figure:
    input:
        summaries=figure_summaries,
    output:
        pdf=paths.figure(ROOT, "{paper}", "{figure}", "pdf"),
        png=report(
            paths.figure(ROOT, "{paper}", "{figure}", "png"),
            caption="../report/figure.rst",
            category="{paper}",
            subcategory=lambda wc: PAPERS[wc.paper]["figures"][wc.figure]["group"],
            labels=lambda wc: {"figure": wc.figure},
        ),
        thumbnail=paths.thumbnail(ROOT, "{paper}", "{figure}"),
    log:
        paths.log(ROOT, "figure", "{paper}/{figure}"),
    priority: PRIORITY_PAGES
    group:
        "analysis_{paper}"
    resources:
        **analysis_resources("figure"),
    params:
        script=script_code("figure"),
        code=analysis_code,
        settings=figure_settings,
        caption=lambda wc: PAPERS[wc.paper]["figures"][wc.figure]["caption"],
        title=lambda wc: PAPERS[wc.paper]["figures"][wc.figure]["title"],
    run:
        run_job("analysis", input, output, params, wildcards, threads, resources, log, rule)
