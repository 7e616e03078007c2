"""Experiment and bound ids in a page's generated lines read as words (core/pages/reader_names.py),
and every experiment of every registered paper has a short name to read them by."""

import math

import pytest

from timebandits.core.config import read_paper
from timebandits.core.pages.reader_names import bound_words, figure_names, in_reader_words
from timebandits.core.registry import PAPER_PACKAGES

PAPER = {
    "experiments": {
        "fig4_poscorr": {"short": "Fig. 4, PosCorr"},
        "fig3": {"short": "Fig. 3"},
        "fig3_many": {"short": "Fig. 3, 100 runs"},
    },
    "algorithms": {"ars_ucb": {"label": "ARS-UCB"}, "ars_ucb_alpha8": {"label": "ARS-UCB (α = 8)"}},
}


@pytest.mark.parametrize(
    "line, words",
    [
        (
            "fig4_poscorr RCUCB vs UCB: 0/100 runs lower",
            "Fig. 4, PosCorr RCUCB vs UCB: 0/100 runs lower",
        ),
        ("fig3_many > fig3 vs UCB: p = 0.01", "Fig. 3, 100 runs > Fig. 3 vs UCB: p = 0.01"),
        (
            "fig3 theorem1_ars_ucb_alpha8: the bound does not apply",
            "Fig. 3 Theorem 1 bound for ARS-UCB (α = 8): the bound does not apply",
        ),
        (
            "fig3 logterm_ars_ucb: largest mean/bound 0.841",
            "Fig. 3 log term bound for ARS-UCB: largest mean/bound 0.841",
        ),
        # words that name nothing of the paper, ids inside longer words, numbers: unchanged
        (
            "fig4_poscorrx, xfig3, max_slope 0.3, log-log",
            "fig4_poscorrx, xfig3, max_slope 0.3, log-log",
        ),
        ("as on fig3.", "as on Fig. 3."),
    ],
)
def test_ids_read_as_words(line, words):
    assert in_reader_words(line, PAPER) == words


def test_figure_names():
    paper = {"figures": {"fig4_poscorr": {"short": "Fig. 4 (left)"}, "extra": {"title": "x"}}}
    assert figure_names(paper) == {"fig4_poscorr": "Fig. 4 (left)"}


def test_bound_words():
    assert bound_words("theorem3-tight_ars_ucb", PAPER) == "Theorem 3 (tight) bound for ARS-UCB"
    assert bound_words("pairs_corollary14_ucb_plays_a1_l1", PAPER) == "Corollary 14 per pair bound"
    assert bound_words("max_slope", PAPER) is None and bound_words("theorem1", PAPER) is None
    assert math.isnan(in_reader_words(float("nan"), PAPER))  # a missing value stays missing


@pytest.mark.parametrize("part", ["experiments", "figures"])
@pytest.mark.parametrize("key", sorted(PAPER_PACKAGES))
def test_every_experiment_and_figure_has_a_short_name(key, part):
    # the name a page shows for it: present, short, unique in its paper, no id
    shorts = {e: x.get("short") for e, x in read_paper(key)[part].items()}
    assert not [e for e, s in shorts.items() if not s], f"{part} without a short name"
    assert not [s for s in shorts.values() if len(s) > 28 or "_" in s or "$" in s]
    assert len(set(shorts.values())) == len(shorts), f"two {part} share a short name"
