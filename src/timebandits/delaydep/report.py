"""Tables of "Stochastic Bandits with Delay-Dependent Payoffs" (results/tables/delaydep/<name>.csv)
and its section of the comparison notebook. The tables of the theorem checks and errata are
built from the claims that judge them, with their parameters and seeds."""

from __future__ import annotations

import pandas as pd

from timebandits.core.pages.provenance import provenance_table
from timebandits.core.text import prose

from .analysis import bound_table, horizon_table, run_table
from .claims_instances import random_instance_table, ranker_table
from .model import B2DEPProblem
from .report_gaps import ucb_gap_table
from .simulation import algorithm_params
from .theory import (
    erratum_e1,
    erratum_e2,
    erratum_e3,
    low_schedule,
    theorem2_counterexample,
    uniform_delay_statistics,
)

# Subscripts of the tables' column names and texts (μ₁, r₀), never TeX-like ``μ_1``.
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
TABLES = ("errata", "fact1", "instances", "provenance", "runs", "schedule", "sweep",
          "theorem2", "theorem4", "ucb_gaps", "uniform_delays")


def _claim(paper: dict, kind: str, **fields) -> dict:
    """The paper's claim of ``kind`` (with the given field values)."""
    return next(c for c in paper["claims"]
                if c["kind"] == kind and all(c.get(k) == v for k, v in fields.items()))


def _fixed_instances(paper: dict) -> dict:
    """{experiment: problem} for the paper experiments with fixed delays."""
    return {e: B2DEPProblem.from_config(x["environment"]) for e, x in paper["experiments"].items()
            if x["group"] == "paper" and not isinstance(x["environment"]["delays"], dict)}


def instances_table(paper: dict) -> pd.DataFrame:
    """Per fixed-delay paper instance and policy m: μᵢ(τ = m) of every arm, g(m), and the
    instance's r*, r₀, f(r₀), OPT and the strict alternation of π₁, π₂ (Fact 1)."""
    rows = []
    for exp_id, problem in _fixed_instances(paper).items():
        for m in range(1, problem.k + 1):
            rows.append({
                "experiment": exp_id, "policy": f"π{m}".translate(SUBSCRIPT),
                **{f"μ{i + 1}".translate(SUBSCRIPT) + f"(τ={m})": str(problem.mean_fraction(i, m))
                   for i in range(problem.k)},
                "g": str(problem.g_fraction(m)), "g (float)": problem.g(m),
                "r*": problem.r_star, "r₀": problem.r0,
                "f(r₀)": str(problem.f_fraction(problem.r0)),
                "alternation π₁/π₂": (str(problem.alternation_average_fraction(1, 2))
                                        if problem.k >= 2 else ""),
                "OPT": problem.opt_average,
            })
    return pd.DataFrame(rows)


def uniform_delay_table(paper: dict) -> pd.DataFrame:
    """The exact statistics over every delay vector of each random-delay paper experiment."""
    rows = []
    for exp_id, exp in paper["experiments"].items():
        delays = exp["environment"]["delays"]
        if exp["group"] != "paper" or not isinstance(delays, dict):
            continue
        high = delays["uniform"][1]
        problem = B2DEPProblem.from_config(exp["environment"], delays=[high] * len(exp["environment"]["means"]))
        stats = uniform_delay_statistics(problem.means_exact, problem.f_exact, d_max=high)
        rows.append({
            "experiment": exp_id, "delay vectors": stats["n_vectors"],
            "mean gap": stats["mean_gap"], "median gap": stats["median_gap"],
            "max gap": stats["max_gap"], "min gap": float(stats["min_gap"]),
            "min-gap vectors": stats["n_min_gap_vectors"],
            "min-gap example": " ".join(map(str, stats["min_gap_example"])),
            "exact ties": stats["n_ties"], "mean g(r*)": stats["mean_g_ghost"],
            **{f"P(r*={m})": p for m, p in enumerate(stats["p_r_star"], start=1)},
        })
    return pd.DataFrame(rows)


def schedule_table(paper: dict) -> pd.DataFrame:
    """π_low's stages for every (T, k, δ) that an experiment runs."""
    cases = set()
    for exp in paper["experiments"].values():
        for alg in exp["algorithms"]:
            if paper["algorithms"][alg]["policy"] == "low":
                delta = float(algorithm_params(paper["algorithms"][alg])["delta"])
                cases.add((int(exp["horizon"]), len(exp["environment"]["means"]), delta))
    frames = [low_schedule(T, k, delta).assign(T=T, k=k, delta=delta) for T, k, delta in sorted(cases)]
    return pd.concat(frames, ignore_index=True)[["T", "k", "delta", "s", "T_s", "C_s", "S"]]


def errata_table(paper: dict) -> pd.DataFrame:
    """The numbers behind errata E1–E3 (at the parameters of their claims) and the Theorem 2
    counterexample, one row each."""
    e1 = erratum_e1()
    rows = [{"erratum": "E1", "case": "f(τ) = 2^−τ (printed)",
             "numbers": f"g = {', '.join(str(g) for g in e1['g_paper_f'])}",
             "printed statement holds": e1["printed_order_holds_paper_f"]},
            {"erratum": "E1", "case": "f ≡ 1/2",
             "numbers": f"g = {', '.join(str(g) for g in e1['g_constant_f'])}",
             "printed statement holds": e1["printed_order_holds_constant_f"]}]
    for eps in _claim(paper, "erratum", erratum="e2")["epsilons"]:
        e2 = erratum_e2(eps)
        rows.append({"erratum": "E2", "case": f"ε = {eps}",
                     "numbers": (f"G(greedy)/G(π*) → {e2['ratio_closed_form']} = "
                                 f"{float(e2['ratio_closed_form']):.4f} (simulated vs Karp OPT "
                                 f"{e2['ratio_long_run']:.4f})"),
                     "printed statement holds": not e2["exceeds_two_thirds"]})
    e3_claim = _claim(paper, "erratum", erratum="e3")
    k, delta = int(e3_claim["k"]), float(e3_claim["delta"])
    for horizon in map(float, e3_claim["horizons"]):
        e3 = erratum_e3(horizon, k, delta)
        rows.append({"erratum": "E3", "case": f"k = {k}, δ = {delta:g}, T = {prose(format(horizon, '.4g'))}",
                     "numbers": (f"S = {e3['S']}: proof's bound {prose(format(e3['bound_paper'], '.4g'))}, "
                                 f"statement's expression {prose(format(e3['stated_order'], '.4g'))}, ratio "
                                 f"{e3['ratio']:.3g} = {e3['ratio_per_stage']:.3g}·(S − 1)"),
                     "printed statement holds": None})
    example = theorem2_counterexample()
    rows.append({"erratum": "Theorem 2 (new)", "case": "μ = (1, 9/10, 1/2), d = (2, 1, 2), f = (1, 1, 1/100)",
                 "numbers": (f"r₀ = {example['r0']}, g(r*) = {example['g_ghost']}, cycle "
                             f"{example['cycle']} averages {example['cycle_average']} = OPT; "
                             f"(1 − f(r₀))·OPT = {float(example['required']):.5f}"),
                 "printed statement holds": example["theorem2_holds"]})
    return pd.DataFrame(rows)


def _cell(value) -> str:
    """A tuple (means, delays, f of an instance) as ``3/5, 9/20, 0``; anything else as text."""
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


# The columns of the Theorem 2 table shown for the instances where it fails, with readable names.
THEOREM2_SHOWN = {"instance": "instance", "k": "k", "means": "μ", "delays": "d", "f": "f",
                  "r_star": "r*", "g_ghost": "g(r*)", "opt": "OPT", "r0": "r_0",
                  "lower_bound": "(1 − f(r_0))·OPT", "ratio": "g(r*)/OPT",
                  "ghost_bound_holds": "theorem holds", "opt_bound_holds": "proof step holds",
                  "repeat_condition": "repeat condition"}


# runs.csv's per-learner quantities at T, as the notebook's run tables name them.
RUN_METRICS = {"regret_cost1": "regret, cost 1", "regret_cost0": "regret, cost 0",
               "switches": "switches", "suboptimal_pulls": "suboptimal pulls"}


def runs_by_learner(runs: pd.DataFrame, paper: dict, algorithms: list[str]) -> pd.DataFrame:
    """runs.csv's rows of ``runs``, one per run (experiment, run) with its delays, r* and best
    gap, and the ``algorithms``' values at T under two-level headings (quantity, learner), so
    that a run's row stays narrow: the quantities a run's experiment does not have are left
    out."""
    frame = runs.set_index(["experiment", "repetition"]).rename_axis(["experiment", "run"])
    instance = frame[["delays", "r_star", "best_gap"]]
    instance.columns = pd.MultiIndex.from_tuples(
        [("instance", "delays"), ("instance", "r*"), ("instance", "best gap")])
    values = {(RUN_METRICS[metric], paper["algorithms"][alg]["label"]): frame[f"{alg} {metric}"]
              for metric in RUN_METRICS for alg in algorithms if f"{alg} {metric}" in frame}
    shown = pd.concat([instance, pd.DataFrame(values)], axis=1)
    return shown.dropna(axis=1, how="all")


def run_means(runs: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """The mean over the runs of each experiment of every learner's values at T: one row per
    (experiment, learner), one column per quantity."""
    learners = [alg for alg in paper["algorithms"] if f"{alg} switches" in runs]
    rows = []
    for experiment, group in runs.groupby("experiment", sort=False):
        for alg in learners:
            rows.append({"experiment": experiment, "learner": paper["algorithms"][alg]["label"],
                         **{name: group[f"{alg} {metric}"].mean()
                            for metric, name in RUN_METRICS.items() if f"{alg} {metric}" in group}})
    return pd.DataFrame(rows).set_index(["experiment", "learner"])


def table(name: str, paper: dict, config: dict, trace_of) -> pd.DataFrame:
    """``provenance`` every value's source; ``instances`` exact quantities of the fixed
    instances; ``uniform_delays`` statistics over all Fig. 2 delay vectors; ``schedule`` π_low's
    stages; ``runs`` per-run results of the paper and sensitivity experiments; ``sweep`` π_low
    against Theorem 3 at every horizon; ``theorem2``, ``fact1``, ``theorem4`` the random-instance
    checks behind claims of those kinds; ``errata`` the numbers of E1–E3; ``ucb_gaps`` π_ucb's
    switches against the gaps (report_gaps.py)."""
    key = paper["paper"]["key"]
    if name == "provenance":
        return provenance_table(paper)
    if name == "instances":
        return instances_table(paper)
    if name == "uniform_delays":
        return uniform_delay_table(paper)
    if name == "schedule":
        return schedule_table(paper)
    if name == "runs":
        return pd.concat([run_table(paper, e, trace_of) for e, x in paper["experiments"].items()
                          if x["group"] != "theory"], ignore_index=True)
    if name == "sweep":
        return horizon_table(bound_table(paper, trace_of), paper)
    if name in ("theorem2", "fact1"):
        frame = random_instance_table(_claim(paper, name), config, key)
        return frame.apply(lambda column: column.map(_cell) if column.dtype == object else column)
    if name == "theorem4":
        return ranker_table(_claim(paper, name), config, key)
    if name == "errata":
        return errata_table(paper)
    if name == "ucb_gaps":
        return ucb_gap_table(paper, trace_of)
    raise KeyError(f"unknown table {name!r}; known: {TABLES}")


def _sweep_figure(sweep: pd.DataFrame):
    """π_low at each horizon T of the sweep: (a) its regret at T and the largest over runs and
    t ≤ T against Theorem 3's bound (both forms) and the trivial bound T; (b) its switches
    against kS. One colour per instance (Fig. 2, Fig. 3)."""
    from matplotlib.lines import Line2D

    from timebandits.core.pages.plotting import PALETTE, new_figure

    fig, (regret_ax, switch_ax) = new_figure("double", 3.0, ncols=2)
    for i, instance in enumerate(("fig2", "fig3")):
        rows = sweep[sweep["experiment"].str.startswith(f"{instance}_sweep")]
        color = PALETTE[i]
        for bound, style in (("theorem3", "--"), ("theorem3-tight", ":")):
            sel = rows[rows["bound"] == bound].sort_values("horizon")
            regret_ax.plot(sel["horizon"], sel["bound_value"], style, color=color)
        sel = rows[rows["bound"] == "theorem3"].sort_values("horizon")
        regret_ax.plot(sel["horizon"], sel["mean_at_T"], "o-", color=color, markersize=4)
        regret_ax.plot(sel["horizon"], sel["max_over_t"], "^", color=color, markersize=4)
        sel = rows[rows["bound"] == "switches"].sort_values("horizon")
        switch_ax.plot(sel["horizon"], sel["bound_value"], "--", color=color)
        switch_ax.plot(sel["horizon"], sel["max_at_T"], "o-", color=color, markersize=4)
    horizons = sweep["horizon"].sort_values().unique()
    regret_ax.plot(horizons, horizons, color="0.45", linestyle=(0, (1, 1)), linewidth=0.9)
    for ax, label in ((regret_ax, r"(a) regret against $\pi_{\mathrm{ghost}}$ at $T$"),
                      (switch_ax, "(b) switches")):
        ax.set_xscale("log")
        ax.set_xlabel("horizon T (log scale)")
        ax.set_ylabel(label)
    regret_ax.set_yscale("symlog", linthresh=10)
    regret_ax.set_ylim(bottom=-10)  # Fig. 3's regret is about −1 (π_low alternates at the start)
    switch_ax.set_ylim(bottom=0)
    grey = "0.3"
    handles = [Line2D([], [], color=PALETTE[0], linewidth=4, label="Fig. 2 instance"),
               Line2D([], [], color=PALETTE[1], linewidth=4, label="Fig. 3 instance"),
               Line2D([], [], color=grey, marker="o", markersize=4, label="(a) mean R(T), (b) "
                      "most switches of a run"),
               Line2D([], [], color=grey, marker="^", markersize=4, linestyle="none",
                      label="(a) largest over runs and t ≤ T"),
               Line2D([], [], color=grey, linestyle="--", label="(a) Theorem 3, (b) kS"),
               Line2D([], [], color=grey, linestyle=":", label="(a) Theorem 3 (tight)"),
               Line2D([], [], color="0.45", linestyle=(0, (1, 1)),
                      label="(a) trivial bound T: vacuous above")]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False)
    return fig


def comparison_section(root: str, config: dict, paper: dict, bounds: pd.DataFrame) -> None:
    """The comparison notebook's section for this paper: π_low against Theorem 3 (§6) and its
    switch bound kS, over t where the bound says the most and over the horizon sweep, and the
    random-instance checks of Theorem 2, Theorem 4 and Fact 1."""
    from IPython.display import Markdown, display

    from timebandits.core.pages import bound_plots, bound_tables
    from timebandits.core.pages import display as show

    display(Markdown(
        f"{show.markdown_text(paper['paper']['citation'])}\n\n"
        "π_low knows its horizon T, so Theorem 3 bounds its regret against π_ghost at each T "
        "separately: R(T) ≤ k²S + √T + 4(S−1)√(kT ln(2kS/δ)) (the proof's explicit form; the "
        "tight form keeps C_s's factor 1/2), plus c·kS with switching cost c (cost 1). The sweep "
        "runs π_low at T = 10^3 … 10^6 on both figure instances."))
    labels = {"theorem3": "Theorem 3", "theorem3-tight": "Theorem 3 (tight)",
              "theorem3-cost1": "Theorem 3 with switching cost 1",
              "switches": "switches of π_low", "regret_cost0": "regret (no switching cost)"}
    # Fig. 2's instance: on Fig. 3's, π_low's regret is about −1 (nothing to set against a bound).
    fig2 = [e for e in paper["experiments"] if e.startswith("fig2")]
    for bound, title in (("theorem3", "Theorem 3: π_low's regret, its three forms."),
                         ("switches", "π_low's switches against kS.")):
        exp_id = bound_tables.best_experiment(bounds, bound, fig2)
        bound_plots.plot_bound(bounds, exp_id, bound, title, labels=labels, note=(
            f"{paper['experiments'][exp_id]['title']} (the run where it says the most)."))
    sweep = horizon_table(bounds, paper)
    display(Markdown("**The horizon sweep.** π_low at each horizon T against the bounds at T "
                     "(one run set per T)."))
    show.show_matplotlib(_sweep_figure(sweep))
    display(show.collapsed(show.readable(sweep), f"The sweep: {len(sweep)} rows (click to open)"))
    display(bound_tables.details(bounds, paper))
    display(Markdown(
        "#### Theorem 2 on random instances\nExact OPT (maximum mean cycle of the state graph, "
        "Karp's algorithm) against g(r*) and (1 − f(r₀))·OPT; the repeat condition marks the "
        "instances where no repeated pull within r₀ rounds beats μ(r₀), the condition under "
        "which the paper's proof is valid. The paper states the theorem without it; the "
        "instances where it fails are shown, with the exact counterexample in the errata table."))
    theorem2 = show.read_table(root, paper["paper"]["key"], "theorem2")
    summary = theorem2.groupby("repeat_condition").agg(**{
        "instances": ("instance", "size"),
        "share where the theorem holds": ("ghost_bound_holds", "mean"),
        "share where the proof step holds": ("opt_bound_holds", "mean"),
        "smallest g(r*)/OPT": ("ratio", "min")})
    display(show.readable(summary.rename(index={True: "holds", False: "fails"})
                          .rename_axis("repeat condition")))
    failures = theorem2[~theorem2["ghost_bound_holds"] | ~theorem2["opt_bound_holds"]]
    display(show.collapsed(
        show.readable(failures[list(THEOREM2_SHOWN)].rename(columns=THEOREM2_SHOWN)),
        f"The {len(failures)} instances where the theorem or the proof step fails (click to "
        f"open; μ, d and f listed by arm; every instance: results/tables/delaydep/theorem2.csv)"))
    display(Markdown("#### Theorem 4: BanditRanker\nFraction of runs with the correct order "
                     "(≥ 1 − δ required) and pulls against the proof's count Σᵢ Nᵢ."))
    display(show.table(root, paper["paper"]["key"], "theorem4"))
    display(Markdown("#### Fact 1\nStrict alternation of π_m and π_n minus the weighted "
                     "average of g(m), g(n), over every pair of every random instance: the "
                     "share of pairs where each statement holds."))
    fact1 = show.read_table(root, paper["paper"]["key"], "fact1")
    display(show.readable(
        fact1.groupby("tied").agg(**{"pairs": ("instance", "size"),
                                     "identity holds": ("identity_holds", "mean"),
                                     "nonnegative": ("nonnegative", "mean"),
                                     "simulation matches": ("simulated_matches", "mean")})
        .rename(index={True: "g(m) = g(n)", False: "g(m) ≠ g(n)"}).rename_axis("pairs with")))
