"""The B2DEP environment (paper §3, eq. 1) and its exact quantities (§5, Supplement §2).

k arms, baseline means μ_1 ≥ … ≥ μ_k (``means``, arm i is ``means[i-1]``), integer delays
d_i ≥ 1 (``delays``) and one nonincreasing f: ℕ → [0, 1] shared by all arms, given as a table
``f_values[τ-1]`` = f(τ) for τ = 1..L with the constant tail f(τ) = f(L) for τ > L. Pulling arm i
τ rounds after its last pull (τ = 0 for a first pull) has mean (eq. 1)

    μ_i(τ) = μ_i·(1 − f(τ)·1{1 ≤ τ ≤ d_i}).

Ranking policy π_m cycles over arms 1..m; in steady state every pull has τ = m (spec P1), so its
per-pull average is g(m) = (1/m)·Σ_{j≤m} μ_j(m) (§5, eq. 3), π_ghost = π_{r*} with
r* = argmax g, and μ_{a→b}(τ) = μ_a(τ) + … + μ_b(τ) (Fig. 1, Supplement §2).

Interface of the compiled policies: ``mean_table()`` is a (k, D + 2) float array, D = max d_i,
with ``table[i, τ]`` = μ_{i+1}(τ) for τ = 0..D+1 (0-based arm i). Columns 0 and D + 1 hold the
baselines, so a kernel that stores the round of each arm's last pull reads
``table[i, min(τ, D + 1)]`` for any τ ≥ 0.

Every input number is also kept as an exact ``Fraction`` (floats through their decimal string,
strings such as "13/15" parsed directly), so g, r*, the alternation averages and r_0 are exact.
The maximum long-run average OPT (spec §2.6, not in the paper) is the maximum mean cycle of the
deterministic state graph, found with Karp's algorithm (max_mean_cycle.py). The numbers are read
by exact_values.py; the rewards of pull sequences are compiled in pull_rewards.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

from .exact_values import as_list, delays_list, exact, f_table_from_config, show_fractions
from .max_mean_cycle import karp_max_mean_cycle, reachable_state_graph
from .pull_rewards import greedy_rewards, sequence_rewards

# Karp's algorithm costs O(N²k) time on N states; the full state space Π(d_i + 1) is refused
# above this size (Fig. 2 instances, k = 7 and d ≤ 6, typically exceed it: use the r_0 proxy).
MAX_STATES = 200_000
# Float comparisons of averages computed by Karp (D values are sums of ≤ N floats).
OPT_TOLERANCE = 1e-9


@dataclass(frozen=True, eq=False)
class B2DEPProblem:
    """A B2DEP instance (paper §3): ``means[i]`` = μ_{i+1} (descending), ``delays[i]`` = d_{i+1},
    ``f_values[τ-1]`` = f(τ), constant beyond the table. Exact copies: ``means_exact``,
    ``f_exact``."""

    means: np.ndarray
    delays: np.ndarray
    f_values: np.ndarray
    means_exact: tuple = field(init=False, repr=False)
    f_exact: tuple = field(init=False, repr=False)

    def __post_init__(self):
        means = [exact(m, f"means[{i}]") for i, m in enumerate(as_list(self.means, "means"))]
        f_exact = [exact(v, f"f[{i}]") for i, v in enumerate(as_list(self.f_values, "f"))]
        delays = delays_list(self.delays)
        if not means:
            raise ValueError("means: need at least one arm")
        if any(not 0 <= m <= 1 for m in means):
            raise ValueError(
                f"means: baseline means must lie in [0, 1], got {show_fractions(means)}"
            )
        if any(a < b for a, b in zip(means, means[1:])):
            raise ValueError(
                f"means: must be sorted in descending order (arm 1 has the largest "
                f"baseline, paper §5), got {show_fractions(means)}"
            )
        if len(delays) != len(means):
            raise ValueError(
                f"delays: need one delay per arm ({len(means)} means), got {len(delays)} delays"
            )
        if not f_exact:
            raise ValueError("f: the table needs at least f(1)")
        if any(not 0 <= v <= 1 for v in f_exact):
            raise ValueError(f"f: values must lie in [0, 1], got {show_fractions(f_exact)}")
        if any(a < b for a, b in zip(f_exact, f_exact[1:])):
            raise ValueError(f"f: must be nonincreasing (paper §3), got {show_fractions(f_exact)}")
        object.__setattr__(self, "means_exact", tuple(means))
        object.__setattr__(self, "f_exact", tuple(f_exact))
        object.__setattr__(self, "means", np.array([float(m) for m in means]))
        object.__setattr__(self, "delays", np.array(delays, dtype=np.int64))
        object.__setattr__(self, "f_values", np.array([float(v) for v in f_exact]))

    @classmethod
    def from_config(cls, environment: dict, delays=None) -> "B2DEPProblem":
        """Build from ``{means: [...], delays: [...], f: {kind: geometric, base: b} | {kind: table,
        values: [...]}}``. ``delays`` overrides the config's (Fig. 2 draws them per run); a
        geometric f is tabulated up to max(delays), beyond which it never matters."""
        if not isinstance(environment, dict):
            raise ValueError(f"environment: expected a mapping, got {environment!r}")
        for key in ("means", "f") + (("delays",) if delays is None else ()):
            if key not in environment:
                raise ValueError(f"environment.{key}: missing")
        delays = delays_list(environment["delays"] if delays is None else delays)
        k = len(as_list(environment["means"], "means"))
        return cls(
            environment["means"],
            delays,
            f_table_from_config(environment["f"], max(max(delays, default=1), k)),
        )

    # ---- sizes and f ---------------------------------------------------------------------------

    @property
    def k(self) -> int:
        return self.means.size

    @property
    def max_delay(self) -> int:
        """D = max_i d_i."""
        return int(self.delays.max())

    def f_fraction(self, tau: int) -> Fraction:
        """f(τ) for τ ≥ 1, exact, with the constant tail beyond the table."""
        if tau < 1:
            raise ValueError(f"f is defined for τ >= 1, got τ = {tau}")
        return self.f_exact[min(int(tau), len(self.f_exact)) - 1]

    # ---- μ_i(τ) --------------------------------------------------------------------------------

    def mean_fraction(self, i: int, tau: int) -> Fraction:
        """μ_{i+1}(τ) = μ_{i+1}·(1 − f(τ)·1{1 ≤ τ ≤ d_{i+1}}) (eq. 1), exact; 0-based arm ``i``."""
        if tau < 0:
            raise ValueError(f"τ must be >= 0, got {tau}")
        if 1 <= tau <= self.delays[i]:
            return self.means_exact[i] * (1 - self.f_fraction(tau))
        return self.means_exact[i]

    @cached_property
    def _table(self) -> np.ndarray:
        D = self.max_delay
        return np.array(
            [[float(self.mean_fraction(i, tau)) for tau in range(D + 2)] for i in range(self.k)]
        )

    def mean_table(self) -> np.ndarray:
        """``table[i, τ]`` = μ_{i+1}(τ) for τ = 0..D+1, shape (k, D + 2); read
        ``table[i, min(τ, D + 1)]`` for any τ ≥ 0 (columns 0 and D + 1 are the baselines)."""
        return self._table.copy()

    def mean_at(self, i: int, tau) -> np.ndarray | float:
        """μ_{i+1}(τ) (eq. 1) for 0-based arm ``i``, vectorised over integer ``tau`` ≥ 0."""
        tau = np.asarray(tau)
        if np.any(tau < 0):
            raise ValueError("τ must be >= 0 (τ = 0 is a first pull)")
        values = self._table[i, np.minimum(tau, self.max_delay + 1)]
        return float(values) if values.ndim == 0 else values

    @cached_property
    def _prefix_sums(self) -> tuple:
        """``[τ][b]`` = μ_1(τ) + … + μ_b(τ), exact, for τ = 0..D+1 and b = 0..k (for τ > D every
        μ_i(τ) is μ_i(D + 1), eq. 1)."""
        rows = []
        for tau in range(self.max_delay + 2):
            row = [Fraction(0)]
            for i in range(self.k):
                row.append(row[-1] + self.mean_fraction(i, tau))
            rows.append(tuple(row))
        return tuple(rows)

    def mu_sum_fraction(self, a: int, b: int, tau: int) -> Fraction:
        """μ_{a→b}(τ) = μ_a(τ) + … + μ_b(τ) (1-based arms a..b, 0 if a > b; Fig. 1), exact: a
        difference of prefix sums."""
        if tau < 0:
            raise ValueError(f"τ must be >= 0, got {tau}")
        if a > b:
            return Fraction(0)
        if not 1 <= a <= b <= self.k:
            raise ValueError(f"arms {a}..{b} outside 1..{self.k}")
        row = self._prefix_sums[min(int(tau), self.max_delay + 1)]
        return row[b] - row[a - 1]

    # ---- ranking policies (§5) -----------------------------------------------------------------

    def _check_m(self, m: int) -> int:
        if not 1 <= m <= self.k:
            raise ValueError(f"ranking policy index m must be in 1..{self.k}, got {m}")
        return int(m)

    def g_fraction(self, m: int) -> Fraction:
        """g(m) = (1/m)·Σ_{j≤m} μ_j(m) (eq. 3), exact; π_m pulls each arm with τ = m (spec P1)."""
        m = self._check_m(m)
        return self.mu_sum_fraction(1, m, m) / m

    def g(self, m: int) -> float:
        """g(m) (eq. 3) as a float."""
        return float(self.g_fraction(m))

    def g_all(self) -> np.ndarray:
        """g(1), …, g(k)."""
        return np.array([self.g(m) for m in range(1, self.k + 1)])

    @cached_property
    def r_star(self) -> int:
        """r* = argmax_m g(m) (eq. 3), compared exactly; ties go to the smallest m (spec P5: the
        Fig. 3 instance has g(1) = g(2) exactly, and the paper names no tie-break)."""
        values = [self.g_fraction(m) for m in range(1, self.k + 1)]
        return values.index(max(values)) + 1

    def best_gap(self) -> float:
        """g(r*) − max_{m ≠ r*} g(m) (0 for an exact tie, NaN when k = 1)."""
        others = [self.g_fraction(m) for m in range(1, self.k + 1) if m != self.r_star]
        return float(self.g_fraction(self.r_star) - max(others)) if others else math.nan

    def sequence_expected_rewards(self, arms) -> np.ndarray:
        """Expected reward μ_{I_t}(τ_{I_t}(t)) of each pull of the 0-based arm sequence ``arms``,
        starting from a fresh state (every arm's first pull is at its baseline, τ = 0)."""
        arms = np.asarray(arms, dtype=np.int64)
        if arms.size and (arms.min() < 0 or arms.max() >= self.k):
            raise ValueError(f"arm indices must be in 0..{self.k - 1}")
        return sequence_rewards(self._table, arms)

    def ghost_expected_rewards(self, T: int) -> np.ndarray:
        """Expected rewards of π_ghost = π_{r*} at rounds 1..T from a fresh state (spec §2.1, P6):
        baselines μ_1..μ_{r*} in the first cycle, then μ_j(r*) for j cycling over 1..r*."""
        return self.sequence_expected_rewards(np.arange(int(T)) % self.r_star)

    def ghost_cumulative(self, rounds) -> np.ndarray:
        """G_t(ghost) = Σ_{s≤t} of ``ghost_expected_rewards`` at each t of ``rounds`` (t ≥ 0), in
        closed form: the first cycle's baselines, then whole steady cycles of sum r*·g(r*) and
        the first arms of the next cycle."""
        rounds = np.asarray(rounds, dtype=np.int64)
        r = self.r_star
        first = np.concatenate([[0.0], np.cumsum(self._table[:r, 0])])
        steady = np.concatenate([[0.0], np.cumsum(self._table[np.arange(r), r])])
        cycles, rest = np.divmod(np.maximum(rounds - r, 0), r)
        return np.where(
            rounds <= r, first[np.minimum(rounds, r)], first[r] + cycles * steady[r] + steady[rest]
        )

    def greedy_expected_rewards(self, T: int) -> np.ndarray:
        """Expected rewards of π_greedy (eq. 2) at rounds 1..T from a fresh state: pull
        argmax_i μ_i(τ_i(t)), never-pulled arms at their baseline, ties to the smaller index."""
        return greedy_rewards(self._table, int(T))

    def alternation_average_fraction(self, m: int, n: int) -> Fraction:
        """Steady-state per-pull average of playing π_m and π_n in strict alternation (Fact 1,
        Supplement §2; spec §2.6), m < n:
            [μ_{1→m}(n) + μ_{1→m}(m) + μ_{m+1→n}(m+n)] / (m + n),
        the first term being π_m after π_n, the other two π_n after π_m. m = n gives g(m)."""
        m, n = sorted((self._check_m(m), self._check_m(n)))
        return (
            self.mu_sum_fraction(1, m, n)
            + self.mu_sum_fraction(1, m, m)
            + self.mu_sum_fraction(m + 1, n, m + n)
        ) / (m + n)

    def alternation_average(self, m: int, n: int) -> float:
        """``alternation_average_fraction`` as a float."""
        return float(self.alternation_average_fraction(m, n))

    # ---- the exact optimum and Theorem 2 -------------------------------------------------------

    def state_graph(self) -> tuple[np.ndarray, np.ndarray]:
        """The deterministic MDP of spec §2.6 restricted to the states reachable from the start.

        State (τ_1..τ_k), τ_i ∈ {1..d_i + 1}, d_i + 1 meaning "baseline available" (a fresh arm);
        action a earns μ_a(τ_a), then τ_a = 1 and τ_i = min(τ_i + 1, d_i + 1) for i ≠ a. Returns
        (successors, rewards), both (N, k); state 0 is the start (all arms fresh). Raises
        ValueError if Π(d_i + 1) > MAX_STATES."""
        size = math.prod(int(d) + 1 for d in self.delays)
        if size > MAX_STATES:
            raise ValueError(
                f"state space Π(d_i + 1) = {size} exceeds MAX_STATES = {MAX_STATES}; "
                f"exact OPT is out of reach (use the Theorem 2 proxy)"
            )
        return reachable_state_graph(self._table, self.delays)

    @cached_property
    def opt_average(self) -> float:
        """OPT = the best long-run average reward of any policy (π* of §3): the maximum mean cycle
        of ``state_graph()`` by Karp's algorithm (spec §2.6; not computed in the paper)."""
        successors, rewards = self.state_graph()
        return karp_max_mean_cycle(successors, rewards)

    @cached_property
    def r0(self) -> int:
        """r_0 of Theorem 2: the largest r with μ_i > max_{j<i} μ_j(i − j) for every i = 2..r
        (r_0 = 1 if μ_2 ≤ μ_1(1), or if k = 1); exact comparisons."""
        r0 = 1
        for i in range(2, self.k + 1):  # 1-based arm i, compared with arms j = 1..i-1 at τ = i − j
            if self.means_exact[i - 1] > max(self.mean_fraction(j - 1, i - j) for j in range(1, i)):
                r0 = i
            else:
                break
        return r0

    def approximation_check(self) -> dict:
        """Theorem 2 in long-run averages: g(r*) ≥ (1 − f(r_0))·OPT, via the proof's intermediate
        OPT ≤ (1/r_0)·Σ_{i≤r_0} μ_i (``top_r0_mean``). Needs exact OPT (≤ MAX_STATES states)."""
        g_ghost = self.g(self.r_star)
        opt = self.opt_average
        f_r0 = float(self.f_fraction(self.r0))
        top_r0_mean = float(sum(self.means_exact[: self.r0]) / self.r0)
        lower = (1.0 - f_r0) * opt
        return {
            "r_star": self.r_star,
            "g_ghost": g_ghost,
            "opt": opt,
            "r0": self.r0,
            "f_r0": f_r0,
            "lower_bound": lower,
            "top_r0_mean": top_r0_mean,
            "ratio": g_ghost / opt if opt > 0 else math.nan,
            "ghost_bound_holds": bool(g_ghost >= lower - OPT_TOLERANCE),
            "opt_bound_holds": bool(opt <= top_r0_mean + OPT_TOLERANCE),
        }
