"""π_low as the authors' code runs it: ``ORE2`` of ``adaptiveRank/policies/Ore.py`` in
LeonardoCella/DelayDependentPayoffs (last commit 2019-10-06, "Last Plots"), in the mode its
scripts run for the figures (``--stage 2``: the order of the arms is given, as Sect. 8 assumes;
``run.py`` builds it with δ = 0.1, ``shrink`` = 1 and ``rounding`` = 5). A sensitivity variant
(``pi_low_authors`` in config/papers/delaydep.yaml): the paper's π_low is Algorithm 1
(:func:`.policies.low_run`), and this kernel shows what the code that probably drew Figs. 2 and 3
does instead. Written from their rules, not copied; checked decision for decision against their
``ORE2`` fed the same rewards (tests/test_delaydep_policies_authors.py pins a trajectory worked
out by hand from the rules below).

**Algorithm 1 as printed** (Sect. 6). Stage s = 1, 2, ...: every m ∈ A_s is played
T_s/(m|A_s|) + 1 times in a row, T_s = T^(1−2^(−s)); ĝ_s(m) is the mean reward of those plays
but the first, from stage s alone; then A_{s+1} = {m ∈ A_s : ĝ_s(m) ≥ max_{A_s} ĝ_s − 2C_s},
C_s = sqrt(k/(2T_s)·ln(2kS/δ)).

**ORE2** works decision by decision. Its state: a stage counter r (from 1), A as an ordered list
(initially 1..k), the number N(m) of decisions that chose π_m, and per (arm j, policy m) the sum
and count of the rewards of j in π_m's observed plays. A decision, at round t (pulls so far):

- it picks m = the first policy of A with the fewest decisions N(m), and N(m) += 1;
- it plays π_m once (calibration, discarded) and then n_r times (observed), where
  (2) n_r = max(⌊T'_r/(r·|A|)⌋, 2) and T'_r = ⌊T^(1−2^(−r))⌋: the stage index r, not m, divides
  the stage, and T_r is truncated to an integer;
- if t > 0 and every m' ∈ A had the same N(m') before this decision (every active policy has
  had its turn), (4) r += 1 and, if |A| > 1, the elimination of the stage that ended runs now,
  *after* this decision's policy and n_r were fixed with the old r and |A| (so a new stage
  opens with one more block of the old stage's first policy, at the old stage's length, even if
  the elimination then removes it);
- (3) the estimate is ĝ(m) = (1/m)·Σ_{j≤m} (sum of j's observed rewards under π_m)/(their
  count), over every observed play of π_m since t = 1: pooled across stages, never reset;
- (1) m ∈ A is removed if ĝ(m̂) − ĝ(m) > w_r, with the width
  w_r = 0.001·round₅(sqrt(ln((T'_r + k)·k/δ)·k/(2T'_r))) (round₅: Python's ``round(·, 5)``) at
  the incremented r, in place of 2C_s; m̂ is the first maximiser of the latest estimates of all
  k policies, those already removed keeping the estimate they had when removed;
- (5) the removals are made while scanning A in order (``list.remove`` inside ``for m in A``):
  after each removal the scan skips the next policy of A, which survives this elimination
  whatever its estimate; A never becomes empty.

Once |A| = 1 every decision increments r (its single policy always "has had its turn"), so the
survivor is played in blocks of 1 + n_r plays with r growing; blocks of one policy in a row are
not switches (spec P7). The run stops after exactly T pulls (a cut block earns rewards and
nothing else, as their loop ends at T).

Not part of this variant: their reward draw, ``bernoulli.rvs(p, random_state=run)`` on every
pull, which within run r pays 1{U_r ≤ p} for p > 1/2 and 1{U_r > 1 − p} for p ≤ 1/2 with one
uniform U_r (the first of numpy's RandomState(r)): a fixed function of p for the whole run. It
belongs to the environment every learner of their runs shares, not to π_low; this kernel sees
the project's independent Bernoulli draws (spec §2.0), the same as π_low's and π_ucb's.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit

from .policies import MAX_STAGES, _outputs, _play

WIDTH_FACTOR = 0.001  # Ore.py's _cb(): 0.001 * round(sqrt(...), rounding)
ROUNDING = 5  # run.py's default --rounding, passed to ORE2
MIN_PLAYS = 2  # ORE2: max(int(T_s / (r |A| shrink)), 2) observed plays, shrink = 1


def authors_schedule(horizon: int, k: int, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """(T'_r, w_r) for r = 1..MAX_STAGES as ORE2 computes them (module docstring, items 1–2):
    T'_r = ``int(T ** (1 − 2 ** (−r)))`` and w_r = 0.001·``round(sqrt(log(((T'_r + k)·k)/δ)·
    (k/(2T'_r))), 5)``, in Python floats so that the rounding is Python's own."""
    horizon = int(horizon)
    if horizon < 1:
        raise ValueError(f"horizon must be >= 1, got {horizon}")
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    lengths = [int(horizon ** (1 - 2 ** (-r))) for r in range(1, MAX_STAGES + 1)]
    widths = [
        WIDTH_FACTOR * round(math.sqrt(math.log(((n + k) * k) / delta) * (k / (2 * n))), ROUNDING)
        for n in lengths
    ]
    return np.array(lengths, dtype=np.int64), np.array(widths)


@njit(cache=True)
def _eliminate(order, n_active, sums, counts, estimates, width):
    """One ORE2 elimination (items 1, 3, 5): refresh the pooled estimates of the policies in
    ``order[:n_active]``, take m̂ over all k estimates, and remove every scanned m with
    ĝ(m̂) − ĝ(m) > width, skipping the policy after each removal. Returns the new |A|."""
    for i in range(n_active):
        m = order[i]
        estimate = 0.0
        for j in range(m):
            estimate = estimate + sums[j, m - 1] / counts[j, m - 1]
        estimates[m - 1] = estimate / m
    best = estimates.max()  # the first maximiser's value (np.argmax in Ore.py)
    i = 0
    while i < n_active:
        if best - estimates[order[i] - 1] > width:
            for j in range(i, n_active - 1):
                order[j] = order[j + 1]
            n_active -= 1
        i += 1  # after a removal this skips the policy that moved into slot i
    return n_active


@njit(cache=True)
def low_authors_run(mean_table, stage_lengths, widths, horizon, env_key):
    """ORE2 (module docstring) on the environment of :mod:`.policies` (same ``mean_table``,
    common random numbers and per-pull outputs), with ``stage_lengths`` and ``widths`` from
    :func:`authors_schedule`.

    Returns (expected, realised, policy, n_decisions, n_stages, start, n_active, active,
    estimates): per pull as in :mod:`.policies`; the number of decisions and the final r; per
    stage r (row r − 1, MAX_STAGES rows) the round after which the decision that opened it was
    made (0 for r = 1), |A| and the indicator of m ∈ A after that decision's elimination, and
    every policy's latest estimate ĝ(m) then (NaN before its first estimate).
    """
    k = mean_table.shape[0]
    expected, realised, policy = _outputs(horizon)
    start_log = np.zeros(MAX_STAGES, dtype=np.int64)
    n_active_log = np.zeros(MAX_STAGES, dtype=np.int64)
    active_log = np.zeros((MAX_STAGES, k), dtype=np.bool_)
    estimate_log = np.full((MAX_STAGES, k), np.nan)

    order = np.arange(1, k + 1)  # A in scan order; entries past n_active are stale
    n_active = k
    decisions = np.zeros(k, dtype=np.int64)
    sums = np.zeros((k, k))  # [arm j, policy m − 1], pooled over every stage
    counts = np.zeros((k, k))
    estimates = np.full(k, np.nan)
    last = np.zeros(k, dtype=np.int64)
    n_active_log[0] = k
    active_log[0, :] = True
    r = 1
    t = 0
    n_decisions = 0
    while t < horizon:
        plays = max(stage_lengths[r - 1] // (r * n_active), MIN_PLAYS)
        m = order[0]
        fewest = decisions[m - 1]
        most = fewest
        for i in range(1, n_active):
            count = decisions[order[i] - 1]
            if count < fewest:
                fewest = count
                m = order[i]
            most = max(most, count)
        decisions[m - 1] += 1
        n_decisions += 1
        if t > 0 and fewest == most:
            r += 1
            if r > MAX_STAGES:
                raise ValueError("pi_low_authors needs more than MAX_STAGES stages")
            if n_active > 1:  # the first elimination refreshes all k estimates
                n_active = _eliminate(order, n_active, sums, counts, estimates, widths[r - 1])
            start_log[r - 1] = t
            n_active_log[r - 1] = n_active
            for i in range(n_active):
                active_log[r - 1, order[i] - 1] = True
            estimate_log[r - 1] = estimates
        t, _ = _play(m, mean_table, last, t, horizon, env_key, expected, realised, policy)
        observed = t
        for _ in range(plays):
            t, _ = _play(m, mean_table, last, t, horizon, env_key, expected, realised, policy)
        for p in range(observed, t):
            j = (p - observed) % m
            sums[j, m - 1] += realised[p]
            counts[j, m - 1] += 1.0
    return (
        expected,
        realised,
        policy,
        n_decisions,
        r,
        start_log,
        n_active_log,
        active_log,
        estimate_log,
    )
