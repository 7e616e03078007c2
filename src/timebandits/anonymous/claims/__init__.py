"""The claim kinds of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous
Feedback" beyond the generic ones (core/verdicts/claims.py), by the module that holds each:

  best_in_most     ranking.py    best or close to it in most instances (regret at T, mean or sd)
  not_worse_by     ranking.py    2.2's "no excessive regret compared to UCB" (non-inferiority)
  constant_order   constants.py  Remark 1: Theorem 1's constant c*_f falls along f
  lemma1           lemma1.py     Lemma 1's Monte Carlo: misses of the radius rad'_i(t)
  log_growth_each  growth.py     core's log_growth over several algorithms (4.1)

Each kind's ``witnesses`` (core/verdicts/decidability.py) builds, from the claim's real inputs,
the most favourable and the most unfavourable data the setting allows, so the claims table can
say whether each verdict was reachable.
"""

from .constants import ConstantOrder
from .growth import LogGrowthEach
from .lemma1 import Lemma1
from .ranking import BestInMost, NotWorseBy

CLAIM_KINDS = {
    "best_in_most": BestInMost,
    "constant_order": ConstantOrder,
    "lemma1": Lemma1,
    "log_growth_each": LogGrowthEach,
    "not_worse_by": NotWorseBy,
}
