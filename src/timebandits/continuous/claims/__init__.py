"""Claim kinds of "Continuous Time Bandits With Sampling Costs" beyond the generic ones
(core/verdicts/claims.py); spec §7. Each kind's module is named in parentheses after it;
what the kinds share (an experiment's instance and oracle, number texts, witnesses whose final
payoffs or regrets are set) is in common.py.

  oracle_exact     (exact) Props. 1–2 and Remark 3 for each experiment: the oracle's payoff at T
                   equals the best μ1 N − N²/T' over every integer N (brute force), equals
                   μ1²T'/4 when μ1T'/2 is an integer, and is the same at (cλ, cT) for c = 0.1, 10
                   (oracle.py).
  exact_sign       (exact) a deterministic policy's (oracle, baseline) metric at T is negative or
                   positive, for each experiment (oracle.py).
  close_to_oracle  (statistical) the learner's mean payoff at T is at least ``share`` × the
                   oracle's: one-sided t-test over runs, for each experiment (oracle.py).
  regret_slope     (statistical) the least-squares slope of log(mean regret at T) on log μ across
                   ``experiments`` (one arm each) lies in [``low``, ``high``]: a bootstrap over the
                   runs of each experiment gives its 95% interval; inconclusive where it straddles
                   a limit or a mean regret is ≤ 0 (rates.py).
  regret_grows     (statistical) the learner's regret at T increases along ``experiments``: a
                   one-sided Welch test between consecutive experiments (independent runs)
                   (pairwise.py).
  spread_larger    (statistical) the run-to-run sd of the learner's payoff at T is larger in
                   ``larger`` than in each of ``smaller`` (wider confidence bands): a bootstrap
                   over the (independent) runs of the log sd ratio (pairwise.py).
  scaled_flat      (statistical) a quantity divided by its theoretical order is roughly the same
                   in every experiment: the ratio of the largest to the smallest mean across
                   ``experiments`` is at most ``max_spread``, judged on a bootstrap 95% interval
                   over the runs. ``quantity``: ``regret`` (at T, × μ/(ln T')²: Theorem 5's
                   O((ln T')²/μ) at a fixed T'^ε, spec §7.8) or ``identification_time`` (t_Id ×
                   μ1Δ²/(K ln T'²): Lemma 25's order, on the runs whose LUCB1 finished)
                   (rates.py).
  run_frequency    (statistical) a per-run event holds with probability ≥ ``level`` (exact
                   binomial test, core.verdicts.context.fraction_test), for each experiment. Events:
                   ``lemma13`` i* ≤ ⌈p*/ε⌉ + 1 (a run that never stops fails it); ``lemma15``
                   |μ̂ − μ1| < μ1 when learning stops; ``lemma22`` (2/3)μ1 ≤ μ̂[1] ≤ 2μ1 when
                   estimation stops; ``identified`` LUCB1 returned arm 1 (judged on the runs
                   whose identification finished before T; the others are counted apart)
                   (frequency.py).
  slope_at_most, slope_at_least  (statistical) the log-log slope of a quantity (regret, CTMAB's
                   estimation loss or time) on K, 1/Δ or 1/μ1 is at most / at least a limit
                   (scaling.py: Theorems 8-9, Lemmas 22-23).
  printed_statement  (exact) a statement the paper prints, computed: Lemma 18's KL inequality,
                   eq. 9's T^{p1m} (errata.py; the errata claims).
"""

from __future__ import annotations

from .errata import PrintedStatement
from .frequency import RunFrequency
from .oracle import CloseToOracle, ExactSign, OracleExact
from .pairwise import RegretGrows, SpreadLarger
from .rates import RegretSlope, ScaledFlat
from .scaling import SlopeAtLeast, SlopeAtMost

CLAIM_KINDS = {
    "oracle_exact": OracleExact,
    "exact_sign": ExactSign,
    "close_to_oracle": CloseToOracle,
    "regret_slope": RegretSlope,
    "regret_grows": RegretGrows,
    "spread_larger": SpreadLarger,
    "scaled_flat": ScaledFlat,
    "run_frequency": RunFrequency,
    "slope_at_most": SlopeAtMost,
    "slope_at_least": SlopeAtLeast,
    "printed_statement": PrintedStatement,
}
