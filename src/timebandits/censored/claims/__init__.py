"""Claim kinds of "Bandits with Censored Consumption of Resources" beyond the generic ones
(core/verdicts/claims.py), by the module that holds each:

  censoring.py  censoring_near_truth, censoring_above_truth: the censoring tables of §5.1 and
                App. F.1 against the exact P(C > τ*)
  spread.py     larger_spread: the run-to-run variation of TS (App. F.1, F.3)
  gaps.py       relative_gap_order, superiority_grows, exceeds_throughout: the superiority
                comparisons (§5.1, F.1, §5.2)
  printed.py    printed_shares, printed_optimum, higher_limits: the numbers and pairs the paper
                prints, and where RCUCB explores (§3.3)
  theory.py     printed_truth, bound_ratio, coverage: the exact and theory kinds (printed truths,
                Theorem 1 vs Corollary 14, Proposition 1)

Every kind has ``witnesses(claim, ctx)`` (core/verdicts/decidability.py): the claim's own traces
with the data it reads replaced by the most favourable and the most unfavourable the setting
allows.
"""

from __future__ import annotations

from .censoring import CensoringAboveTruth, CensoringNearTruth
from .gaps import ExceedsThroughout, RelativeGapOrder, SuperiorityGrows
from .printed import HigherLimits, PrintedOptimum, PrintedShares
from .spread import LargerSpread
from .theory import BoundRatio, Coverage, PrintedTruth

CLAIM_KINDS = {
    "bound_ratio": BoundRatio,
    "censoring_above_truth": CensoringAboveTruth,
    "censoring_near_truth": CensoringNearTruth,
    "coverage": Coverage,
    "exceeds_throughout": ExceedsThroughout,
    "higher_limits": HigherLimits,
    "larger_spread": LargerSpread,
    "printed_optimum": PrintedOptimum,
    "printed_shares": PrintedShares,
    "printed_truth": PrintedTruth,
    "relative_gap_order": RelativeGapOrder,
    "superiority_grows": SuperiorityGrows,
}
