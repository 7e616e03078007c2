"""Every claim that cannot reach both verdicts at the paper's scale, as configured, says why
(core/decidability.py), known without running the paper's scale: the smoke build's traces,
stretched to the full shape, stand in for the data the witnesses do not replace. A module of its
own, so that ``make test`` runs it beside tests/test_workflow.py once the smoke build is done."""

from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest
import yaml

from conftest import REPO_ROOT

from timebandits.core.claims import NOT_CHECKABLE

pytestmark = pytest.mark.workflow

PAPERS = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())["papers"]


def full_scale_decidability(root: str, key: str) -> pd.DataFrame:
    """The paper's claims' decidability at full scale, with the smoke traces under ``root``."""
    from timebandits.core.config import load_paper
    from timebandits.core.decidability import configured_decidability
    from timebandits.core.workflow import trace_reader

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
        return dict(zip(order, pool.map(full_scale_decidability, [built_traces] * len(order),
                                        order)))


@pytest.mark.parametrize("key", PAPERS)
def test_a_claim_that_cannot_reach_a_verdict_at_the_papers_scale_says_why(decidability, key):
    # A claim that cannot reach one verdict at the paper's scale needs a `one_sided` reason.
    table = decidability[key]
    silent = table[~(table["can_reproduce"] & table["can_refute"]) & (table["one_sided"] == "")
                   & (table["evidence"] != NOT_CHECKABLE)]
    assert silent.empty, "\n".join(f"{r.claim}: {r.decidability}" for r in silent.itertuples())
