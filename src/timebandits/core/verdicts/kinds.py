"""The generic claim kinds every paper may use, by name (``GENERIC_KINDS``), and the two that
are neither comparisons nor growth rates:

  below_bound        the mean empirical curve stays below the paper's bound at every checkpoint
                     where the bound is informative (core/verdicts/bounds.py).
  not_checkable      a claim no computation can decide (e.g. NP-hardness), with its reason.
"""

from __future__ import annotations

from timebandits.core.registry import paper_module
from timebandits.core.verdicts.bounds import bound_verdict
from timebandits.core.verdicts.comparisons import BetterAtHorizon, CloseAtHorizon, WinsInSettings
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import bound_witness, derived
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.growth import LogGrowth
from timebandits.core.verdicts.signs import SignAtHorizon
from timebandits.core.verdicts.vocabulary import NOT_CHECKABLE, STATISTICAL


class BelowBound(DeclaredCheck):
    """Every empirical curve of the bound table named by ``bounds`` (name prefixes) stays below
    its bound where the bound is informative; one sub-check per experiment and bound."""

    evidence = STATISTICAL
    reads_traces = False  # the bound table's summaries: more runs of the same would not tell
    keys = ("experiments", "algorithm", "bounds")
    optional = ()

    runs = ("experiments", "algorithm")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        if ctx.bounds is None:
            raise ValueError(f"claim {claim['id']} needs the paper's bound table")
        rows = []
        table = ctx.bounds[ctx.bounds["algorithm"] == claim["algorithm"]]
        for exp in claim["experiments"]:
            for prefix in claim["bounds"]:
                sel = table[(table["experiment"] == exp) & table["bound"].str.startswith(prefix)]
                rows.append({"scope": f"{exp} {prefix}", **bound_verdict(sel)})
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every curve at 0, or at the trivial bound (the largest value its metric can take)."""
        return {
            side: derived(ctx, bounds=bound_witness(ctx.bounds, good))
            for side, good in (("favourable", True), ("unfavourable", False))
        }


class NotCheckable(DeclaredCheck):
    """A claim that no simulation or computation here can decide; ``reason`` says why."""

    evidence = NOT_CHECKABLE
    keys = ("reason",)
    optional = ()

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        return [
            {
                "scope": "reason",
                "verdict": NOT_CHECKABLE,
                "headline": claim["reason"],
                "statistic": claim["reason"],
            }
        ]

    @staticmethod
    def witnesses(claim, ctx):
        return {}


GENERIC_KINDS = {
    "below_bound": BelowBound,
    "better_at_horizon": BetterAtHorizon,
    "close_at_horizon": CloseAtHorizon,
    "log_growth": LogGrowth,
    "not_checkable": NotCheckable,
    "sign_at_horizon": SignAtHorizon,
    "wins_in_settings": WinsInSettings,
}


def claim_kinds_of(key: str) -> dict:
    """Every claim kind a paper's claims may use: the generic ones and its own (``CLAIM_KINDS`` of
    its ``claims`` module)."""
    return {**GENERIC_KINDS, **getattr(paper_module(key, "claims"), "CLAIM_KINDS", {})}
