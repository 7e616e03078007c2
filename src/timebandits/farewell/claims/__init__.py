"""Claim kinds specific to "A Farewell to Arms" (the generic ones are in core/verdicts/claims.py),
each in the module named in parentheses:

  theorem1, theorem1_printed_sign   Theorem 1 and its printed sign A_j ≥ 0 (theorem1.py).
  bound_regime, family_ratio        §6.2's leading terms (WAIT) and (FJ): which is smaller for
                                    short and long waits, and how much smaller (WAIT)'s can be
                                    (§1) (leading_terms.py).
  ucb1_collapse, bound_ratio        exact statements beside the theorems: §7.2 and §8 (Wait-UCB
                                    is UCB1 with one micro-arm), §6.2 (DQZL) (statements.py).
  stated_gap, gap_feasible          §7.1: the printed minimum gap, and which gaps a delay pmf
                                    can have (minimum_gap.py).
  ratio_concentration,              Lemmas 1 and 3 by Monte Carlo, and §7.2's "takes longer for
  converges_later                   UCB-Simplex to converge" (lemmas.py).
"""

from __future__ import annotations

from .leading_terms import BoundRegime, FamilyRatio
from .lemmas import ConvergesLater, RatioConcentration
from .minimum_gap import GapFeasible, StatedGap
from .statements import BoundRatio, Ucb1Collapse
from .theorem1 import Theorem1, Theorem1PrintedSign

CLAIM_KINDS = {
    "theorem1": Theorem1,
    "theorem1_printed_sign": Theorem1PrintedSign,
    "bound_regime": BoundRegime,
    "ucb1_collapse": Ucb1Collapse,
    "bound_ratio": BoundRatio,
    "stated_gap": StatedGap,
    "gap_feasible": GapFeasible,
    "ratio_concentration": RatioConcentration,
    "converges_later": ConvergesLater,
    "family_ratio": FamilyRatio,
}
