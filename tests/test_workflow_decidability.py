"""Every claim that cannot reach both verdicts at the paper's scale, as configured, says why
(core/verdicts/decidability.py), known without running the paper's scale: the smoke build's traces,
stretched to the full shape, stand in for the data the witnesses do not replace. A module of its
own, so that ``make test`` runs it beside tests/test_workflow.py once the smoke build is done."""

from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest
import yaml
from conftest import REPO_ROOT

from timebandits.core.verdicts.vocabulary import NOT_CHECKABLE

pytestmark = pytest.mark.workflow

PAPERS = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["papers"]


def full_scale_decidability(root: str, key: str) -> pd.DataFrame:
    """The paper's claims' decidability at full scale, with the smoke traces under ``root``."""
    from timebandits.core.build.preflight import load_paper
    from timebandits.core.build.workflow import trace_reader
    from timebandits.core.verdicts.configured import configured_decidability

    full = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    smoke = trace_reader(root, load_paper(key), {**full, "scale": "smoke"})
    return configured_decidability(load_paper(key), {**full, "scale": "full"}, smoke)


@pytest.fixture(scope="module")
def decidability(built_traces):
    # the costliest papers first (measured: 16, 15, 11, 11 and 4 s), so that the two processes
    # finish together
    costliest = ("delaydep", "continuous", "anonymous", "censored")
    order = sorted(PAPERS, key=lambda key: (costliest + (key,)).index(key))
    with ProcessPoolExecutor(2) as pool:
        return dict(
            zip(order, pool.map(full_scale_decidability, [built_traces] * len(order), order))
        )


@pytest.mark.parametrize("key", PAPERS)
def test_a_claim_that_cannot_reach_a_verdict_at_the_papers_scale_says_why(decidability, key):
    # A claim that cannot reach one verdict at the paper's scale needs a `one_sided` reason.
    table = decidability[key]
    silent = table[
        ~(table["can_reproduce"] & table["can_refute"])
        & (table["one_sided"] == "")
        & (table["evidence"] != NOT_CHECKABLE)
    ]
    assert silent.empty, "\n".join(f"{r.claim}: {r.decidability}" for r in silent.itertuples())


@pytest.mark.parametrize("key", PAPERS)
def test_every_claimed_metric_has_an_exact_range_that_holds_its_runs(built_traces, key):
    # Witnesses stay inside metric_range; so it must be known for every metric a claim compares,
    # and the smoke build's own means at T must lie inside it (the range is exact, not a guess).
    import math

    import numpy as np

    from timebandits.core.build.preflight import load_paper
    from timebandits.core.build.workflow import trace_reader
    from timebandits.core.verdicts.context import ClaimContext

    full = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    config = {**full, "scale": "smoke"}
    paper = load_paper(key)
    ctx = ClaimContext(
        paper=paper, config=config, trace_of=trace_reader(built_traces, paper, config)
    )
    checked = 0
    for claim in paper["claims"]:
        if "metric" not in claim:
            continue
        algorithms = {
            a
            for field in ("better", "worse", "pair", "algorithms", "against", "rivals")
            for a in claim.get(field, [])
        } | ({claim["algorithm"]} if "algorithm" in claim else set())
        for experiment in claim.get("experiments", []):
            for algorithm in sorted(
                algorithms & set(paper["experiments"][experiment]["algorithms"])
            ):
                low, high = ctx.metric_range(experiment, algorithm, claim["metric"])
                assert math.isfinite(low) or math.isfinite(high), (claim["id"], claim["metric"])
                mean = float(np.nanmean(ctx.final(experiment, algorithm, claim["metric"])))
                assert low <= mean <= high, (claim["id"], experiment, algorithm, low, mean, high)
                checked += 1
    assert checked > 0
