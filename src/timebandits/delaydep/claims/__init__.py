"""Claim kinds of "Stochastic Bandits with Delay-Dependent Payoffs" (paper 004; the generic ones
are in core/verdicts/claims.py), by module:
  low_policy        π_low on the runs: stops_exploring, theorem3, switch_bound
  ranking           BanditRanker: theorem4
  exact             exact computations: mean_gap, stage_count
  exact_theorems    exact computations on the theorems: theorem2, fact1
  errata            printed statements expected to fail: erratum (E1–E3), fact1_printed (E6)
  gaps              π_ucb's switches against the gaps: switch_gap_growth
  ucb_switch_bound  π_ucb's switches against UCB1's bound: ucb_switch_bound
witnesses.py builds the decidability witnesses' contexts they share."""

from __future__ import annotations

from .errata import Erratum, Fact1Printed
from .exact import MeanGap, StageCount
from .exact_theorems import Fact1, Theorem2
from .gaps import SwitchGapGrowth
from .low_policy import StopsExploring, SwitchBound, Theorem3
from .ranking import Theorem4
from .ucb_switch_bound import UcbSwitchBound

CLAIM_KINDS = {
    "erratum": Erratum,
    "fact1": Fact1,
    "fact1_printed": Fact1Printed,
    "mean_gap": MeanGap,
    "stage_count": StageCount,
    "stops_exploring": StopsExploring,
    "switch_bound": SwitchBound,
    "switch_gap_growth": SwitchGapGrowth,
    "theorem2": Theorem2,
    "theorem3": Theorem3,
    "theorem4": Theorem4,
    "ucb_switch_bound": UcbSwitchBound,
}
