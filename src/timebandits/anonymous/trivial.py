r"""The largest value each regret metric of paper 002 can take: the trivial bound that a theorem's
bound must lie below to say anything (DESIGN.md, "Claims and bounds"; issue 22 §1). Defined once
per metric here; the bound tables (analysis.py) and Theorem 2's table use nothing else.

- **Pseudo-regret** of the stochastic instances (§2, Figs. 2–4; Theorem 1):
  :math:`\sum_{s\le t}\Delta_{a(s)} \le t\cdot\max_i\Delta_i`, attained by a learner that plays
  the worst arm in every slot (:func:`pseudo_regret_max`).
- **Regret of the label games** (§3.1, §5.2, Fig. 5; Theorem 2; spec P9):
  :math:`\max_i G_i(t) - \mathrm{gain}(t) \le \max_i G_i(t)`, with
  :math:`G_i(t) = \#\{s \le t: c_s = i\}`, because the learner's gain is never negative; it is
  attained by a learner that never plays the slot's label (N ≥ 2). Not t: a label game pays at
  most one label per slot, so with a best label of share 40% no learner can lose more than
  0.4 t (:func:`label_regret_max`).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.trivial import trivial_bound


def pseudo_regret_max(t, gaps) -> np.ndarray:
    r""":math:`t\cdot\max_i\Delta_i` at each checkpoint ``t`` (the gaps of §2's instance)."""
    return trivial_bound(t, float(np.max(gaps)))


def best_label_gains(labels: np.ndarray, n_arms: int, t) -> np.ndarray:
    r""":math:`\max_i G_i(t)`, the best fixed label's count over slots 1..t, at each checkpoint
    ``t`` (1 ≤ t ≤ len(labels)); ``labels[s − 1]`` is slot s's label :math:`c_s`."""
    t = np.asarray(t, dtype=np.int64)
    labels = np.asarray(labels, dtype=np.int64)
    if t.size and (t.min() < 0 or t.max() > labels.size):
        raise ValueError(f"checkpoints must lie in [0, {labels.size}], got {t.min()}..{t.max()}")
    order = np.argsort(t, kind="stable")
    out = np.zeros(t.size)
    counts = np.zeros(n_arms, dtype=np.int64)
    done = 0
    for index in order:  # one pass over the stream, checkpoint by checkpoint
        counts += np.bincount(labels[done : t[index]], minlength=n_arms)
        done = int(t[index])
        out[index] = counts.max()
    return out


def label_regret_max(labels: np.ndarray, n_arms: int, t) -> np.ndarray:
    r"""The largest regret :math:`\max_i G_i(t) - \mathrm{gain}(t)` any learner can have at
    ``t`` in a label game: :math:`\max_i G_i(t)` (gain ≥ 0)."""
    return best_label_gains(labels, n_arms, t)
