"""Tests of timebandits.delaydep's closed forms (theory, theorem2, errata, uniform_delays and
figures.figure1_edges): the π_low schedule and Theorem 3 recomputed by hand, the
stage-count closed form, Theorem 4's N_i, the Fig. 1 edges and Fig. 3 values, the uniform-delay
statistics against brute force, the Theorem 2 counterexample, and errata E1–E3."""

import itertools
import math
import statistics
from fractions import Fraction as F

import numpy as np
import pytest
from delaydep_instances import FIG2_MEANS, fig2_f_values, fig3_problem

from timebandits.delaydep.errata import erratum_e1, erratum_e2, erratum_e3
from timebandits.delaydep.figures import figure1_edges
from timebandits.delaydep.model import B2DEPProblem
from timebandits.delaydep.theorem2 import (
    cycle_average_fraction,
    theorem2_counterexample,
    theorem2_repeat_condition,
)
from timebandits.delaydep.theory import (
    low_schedule,
    ranker_b2dep_pull_bound,
    ranker_gaps,
    ranker_order_term,
    ranker_pull_bound,
    ranker_rounds_needed,
    stage_count,
    stage_count_closed_form,
    switch_bound,
    theorem3_bound_paper,
    theorem3_bound_tight,
    theorem3_stated_order,
)
from timebandits.delaydep.uniform_delays import uniform_delay_statistics

DELTA = 0.1
WORKED = [(1e3, 7), (1e5, 7), (5e5, 7), (5e5, 2)]


def hand_schedule(T, k, delta):
    """S, T_1..T_S and C_1..C_S straight from Sect. 6 (|A_s| := k)."""
    lengths, total = [], 0.0
    while total < T:
        lengths.append(T ** (1 - 0.5 ** (len(lengths) + 1)))
        total += k + lengths[-1]
    S = len(lengths)
    widths = [math.sqrt(k / (2 * t) * math.log(2 * k * S / delta)) for t in lengths]
    return S, lengths, widths


# ---- π_low schedule and stage count -------------------------------------------------------------


@pytest.mark.parametrize("T, k", WORKED)
def test_worked_schedule_matches_hand_computation(T, k):
    S, lengths, widths = hand_schedule(T, k, DELTA)
    table = low_schedule(T, k, DELTA)
    assert list(table["s"]) == list(range(1, S + 1))
    assert set(table["S"]) == {S}
    np.testing.assert_allclose(table["T_s"], lengths, rtol=1e-12)
    np.testing.assert_allclose(table["C_s"], widths, rtol=1e-12)
    assert table["cumulative"].iloc[-1] >= T > (table["cumulative"].iloc[-2] if S > 1 else 0)


def test_worked_schedule_values():
    assert {(T, k): int(low_schedule(T, k, DELTA)["S"][0]) for T, k in WORKED} == {
        (1e3, 7): 4,
        (1e5, 7): 5,
        (5e5, 7): 5,
        (5e5, 2): 5,
    }
    small = low_schedule(1e3, 7, DELTA)
    # T_1 = √1000, C_1 = sqrt(7/(2√1000)·ln 560); T_4 = 1000^(15/16)
    assert small["T_s"][0] == pytest.approx(31.6227766, rel=1e-9)
    assert small["C_s"][0] == pytest.approx(math.sqrt(7 / (2 * math.sqrt(1e3)) * math.log(560)))
    assert small["C_s"][0] == pytest.approx(0.836884, abs=1e-6)
    assert small["T_s"][3] == pytest.approx(1e3 ** (15 / 16), rel=1e-12)
    large = low_schedule(5e5, 2, DELTA)
    assert large["C_s"][4] == pytest.approx(math.sqrt(1 / 5e5 ** (31 / 32) * math.log(200)))


def test_stage_count_below_closed_form_on_grid():
    grid = np.unique(
        np.concatenate([np.arange(2, 1000), np.logspace(3, 10, 2500), 2.0 ** (2.0 ** np.arange(6))])
    )
    bound = stage_count_closed_form(grid)
    for k in (1, 2, 7, 50):
        S = stage_count(grid, k)
        assert np.all(S <= bound), (k, grid[S > bound])
        assert np.all(S >= 1)


def test_stage_count_closed_form_values_and_errors():
    assert stage_count_closed_form(2) == 1  # log2 log2 2 = 0
    assert stage_count_closed_form(16) == 3  # log2 log2 16 = 2
    assert stage_count_closed_form(17) == 4
    assert stage_count_closed_form(1e10) == 7  # ⌈log2 33.2⌉ + 1
    assert list(stage_count_closed_form([4, 256])) == [2, 4]
    with pytest.raises(ValueError, match="T >= 2"):
        stage_count_closed_form(1.5)
    # S(16, 1): T_s = 4, 8, 16^(7/8) ≈ 11.3; sums with k = 1: 5, 14, 26.3 ≥ 16 -> S = 3
    assert stage_count(16, 1) == 3


# ---- Theorem 3 ----------------------------------------------------------------------------------

THEOREM3_VALUES = {  # (k, T): (bound_paper, bound_tight), computed from the proof's formulas
    (7, 1e3): (2753.203953, 2013.478353),
    (7, 1e5): (34824.233998, 24788.831816),
    (7, 5e5): (77566.517829, 55126.676370),
    (7, 1e6): (109594.139177, 77859.411048),
    (2, 5e5): (37556.025389, 26769.084873),
}


@pytest.mark.parametrize("k, T", list(THEOREM3_VALUES))
def test_theorem3_bounds_by_hand(k, T):
    S = hand_schedule(T, k, DELTA)[0]
    L = math.log(2 * k * S / DELTA)
    paper = k * k * S + math.sqrt(T) + 4 * (S - 1) * math.sqrt(k * T * L)
    tight = k * k * S + math.sqrt(T) + 2 * math.sqrt(2) * (S - 1) * math.sqrt(k * T * L)
    assert theorem3_bound_paper(T, k, DELTA) == pytest.approx(paper, rel=1e-12)
    assert theorem3_bound_tight(T, k, DELTA) == pytest.approx(tight, rel=1e-12)
    assert (theorem3_bound_paper(T, k, DELTA), theorem3_bound_tight(T, k, DELTA)) == pytest.approx(
        THEOREM3_VALUES[k, T], rel=1e-9
    )
    assert switch_bound(T, k) == k * S


def test_theorem3_vacuity():
    vacuous = {
        (k, T): (theorem3_bound_paper(T, k, DELTA) >= T, theorem3_bound_tight(T, k, DELTA) >= T)
        for k, T in THEOREM3_VALUES
    }
    # only T = 1000 (k = 7) is vacuous: the bound exceeds T
    assert vacuous == {
        (7, 1e3): (True, True),
        (7, 1e5): (False, False),
        (7, 5e5): (False, False),
        (7, 1e6): (False, False),
        (2, 5e5): (False, False),
    }
    assert [switch_bound(T, k) for k, T in THEOREM3_VALUES] == [28, 35, 35, 35, 10]


def test_theorem3_functions_accept_arrays_and_reject_bad_input():
    T = np.array([[1e3, 1e5], [5e5, 1e6]])
    paper = theorem3_bound_paper(T, 7, DELTA)
    assert paper.shape == (2, 2)
    assert paper[1, 0] == pytest.approx(theorem3_bound_paper(5e5, 7, DELTA))
    assert np.all(np.diff(theorem3_bound_tight(np.logspace(3, 8, 20), 7, DELTA)) > 0)
    with pytest.raises(ValueError, match="delta"):
        theorem3_bound_paper(1e3, 7, 1.0)
    with pytest.raises(ValueError, match="k"):
        theorem3_bound_tight(1e3, 0, DELTA)
    with pytest.raises(ValueError, match="horizon"):
        theorem3_bound_paper(0.5, 7, DELTA)


def test_theorem3_stated_order_by_hand():
    lnln = math.log(math.log(1e6))
    expected = 49 * lnln + math.sqrt(7e6 * (math.log(70) + lnln))
    assert theorem3_stated_order(1e6, 7, DELTA) == pytest.approx(expected, rel=1e-12)
    assert theorem3_stated_order(1e6, 7, DELTA) == pytest.approx(7065.5226, rel=1e-7)
    with pytest.raises(ValueError, match="T > e"):
        theorem3_stated_order(2, 7, DELTA)


# ---- Theorem 4 ----------------------------------------------------------------------------------


def test_ranker_rounds_by_hand_on_two_arms():
    def eps(r):  # eq. (6) with k = 2, δ = 0.1
        return math.sqrt(math.log(2 * 2 * r * (r + 1) / DELTA) / (2 * r))

    gap = 0.7 - 0.5
    first = next(r for r in itertools.count(1) if 4 * eps(r) < gap)
    assert first == 4062
    assert 4 * eps(first - 1) >= gap
    assert list(ranker_rounds_needed((0.7, 0.5), DELTA)) == [first, first]
    assert ranker_pull_bound((0.7, 0.5), DELTA) == 2 * first
    assert ranker_order_term((0.7, 0.5), DELTA) == pytest.approx(25 * math.log(50))


def test_ranker_gaps_and_bounds():
    np.testing.assert_allclose(ranker_gaps(FIG2_MEANS), [1 / 15] * 4 + [2 / 15, 1 / 3, 1 / 3])
    np.testing.assert_allclose(ranker_gaps(["13/15", 1, 0.5]), [2 / 15, 2 / 15, 11 / 30])
    rounds = ranker_rounds_needed((0.9, 0.6, 0.3), DELTA)
    assert list(rounds) == [1685] * 3
    assert ranker_pull_bound((0.9, 0.6, 0.3), DELTA) == 5055
    # B2DEP: 2 Σ N_i + 2(d_0 − 1) max N_i
    assert ranker_b2dep_pull_bound((0.9, 0.6, 0.3), DELTA, 2) == 2 * 5055 + 2 * 1685
    fig2 = ranker_rounds_needed(FIG2_MEANS, DELTA)
    assert ranker_pull_bound(FIG2_MEANS, DELTA) == fig2.sum() == 204061
    assert ranker_b2dep_pull_bound(FIG2_MEANS, DELTA, 4) == 2 * fig2.sum() + 6 * fig2.max()


def test_ranker_pull_bound_sorted_form_equals_sum():
    rng = np.random.default_rng(3)
    for _ in range(30):
        means = rng.choice(np.arange(1, 40) / 40, size=rng.integers(2, 6), replace=False)
        rounds = np.sort(ranker_rounds_needed(means, DELTA))
        assert ranker_pull_bound(means, DELTA) == rounds[-2] + rounds[:-1].sum() == rounds.sum()


def test_ranker_errors():
    with pytest.raises(ValueError, match="distinct"):
        ranker_rounds_needed((0.5, 0.5, 0.2), DELTA)
    with pytest.raises(ValueError, match="k >= d0"):
        ranker_b2dep_pull_bound((0.7, 0.5), DELTA, 3)
    with pytest.raises(ValueError, match="at least 2"):
        ranker_gaps([0.5])


# ---- Fig. 1, Fig. 3 and Theorem 2 ---------------------------------------------------------------


def test_figure3_values_by_hand():
    problem = fig3_problem()
    assert [
        problem.mean_fraction(0, 1),
        problem.mean_fraction(0, 2),
        problem.mean_fraction(1, 2),
        problem.mean_fraction(1, 3),
    ] == [F(7, 10), F(3, 4), F(13, 20), F(13, 15)]
    assert problem.g_fraction(1) == problem.g_fraction(2) == F(7, 10)
    edges = figure1_edges(problem, 1, 2)
    assert edges == {
        "self_m": F(7, 10),
        "self_n": F(3, 4) + F(13, 20),
        "n_to_m": F(3, 4),
        "m_to_n": F(7, 10) + F(13, 15),
    }
    # Fact 1: alternation of π_1 and π_2 = (μ_1(2) + μ_1(1) + μ_2(3))/3 = 139/180 > 7/10
    alternation = (F(3, 4) + F(7, 10) + F(13, 15)) / 3
    assert alternation == F(139, 180)
    assert problem.alternation_average_fraction(1, 2) == alternation
    assert (edges["n_to_m"] + edges["m_to_n"]) / 3 == alternation
    # OPT: the cycle 1, 1, 2, 2 earns 1 + 7/10 + 13/15 + 13/15·7/10 per 4 pulls
    assert cycle_average_fraction(problem, (1, 1, 2, 2)) == F(119, 150)
    assert problem.opt_average == pytest.approx(119 / 150, abs=1e-12)
    assert theorem2_repeat_condition(problem)


def test_figure1_edges_errors():
    with pytest.raises(ValueError, match="m < n"):
        figure1_edges(fig3_problem(), 2, 1)


def test_cycle_average_matches_simulated_steady_state():
    rng = np.random.default_rng(5)
    problem = B2DEPProblem(["9/10", "3/5", "1/4"], [3, 1, 2], ["4/5", "1/2", "1/5"])
    for _ in range(20):
        cycle = rng.integers(1, 4, size=rng.integers(1, 7))
        rewards = problem.sequence_expected_rewards(np.tile(cycle - 1, 5))
        assert float(cycle_average_fraction(problem, cycle)) == pytest.approx(
            rewards[-cycle.size :].mean(), abs=1e-12
        )


def test_theorem2_counterexample_by_hand():
    result = theorem2_counterexample()
    problem = result["problem"]
    # μ = (1, 9/10, 1/2), d = (2, 1, 2), f = (1, 1, 1/100, ...)
    assert result["g"] == (F(0), F(9, 20), F(4, 5))
    assert (result["r_star"], result["r0"], result["f_r0"]) == (3, 3, F(1, 100))
    assert result["cycle_average"] == (1 + F(9, 10) + F(1, 2) + F(9, 10)) / 4 == F(33, 40)
    assert result["required"] == F(99, 100) * F(33, 40) > F(4, 5)
    assert not result["theorem2_holds"] and not result["opt_bound_holds"]
    assert not result["repeat_condition"]
    # brute force over every cyclic arm sequence of length ≤ 8: the best is 33/40, as Karp finds
    best = max(
        problem.sequence_expected_rewards(np.tile(word, 4))[-len(word) :].mean()
        for length in range(1, 9)
        for word in itertools.product(range(3), repeat=length)
    )
    assert best == pytest.approx(33 / 40, abs=1e-12)
    assert result["opt"] == pytest.approx(33 / 40, abs=1e-12)


# ---- uniform delays (Fig. 2) --------------------------------------------------------------------


def brute_force_statistics(means, f_values, d_max):
    gaps, r_stars, bests = [], [], []
    for delays in itertools.product(range(1, d_max + 1), repeat=len(means)):
        problem = B2DEPProblem(means, delays, f_values)
        g = [problem.g_fraction(m) for m in range(1, len(means) + 1)]
        r = g.index(max(g)) + 1
        gaps.append(g[r - 1] - max(g[: r - 1] + g[r:]))
        r_stars.append(r)
        bests.append(g[r - 1])
    return gaps, r_stars, bests


@pytest.mark.parametrize(
    "means, f_values",
    [
        (["1", "1/2", "0"], ["1/2"]),  # has exact ties
        (["1", "2/3", "1/3", "0"], ["1/2", "1/3", "1/4", "1/5"]),
    ],
)
def test_uniform_delay_statistics_against_brute_force(means, f_values):
    gaps, r_stars, bests = brute_force_statistics(means, f_values, 3)
    stats = uniform_delay_statistics(means, f_values, d_max=3)
    assert stats["n_vectors"] == len(gaps) == 3 ** len(means)
    assert stats["mean_gap"] == pytest.approx(float(sum(gaps) / len(gaps)), abs=1e-14)
    assert stats["median_gap"] == pytest.approx(float(statistics.median(gaps)), abs=1e-14)
    assert stats["min_gap"] == min(gaps)
    assert stats["n_min_gap_vectors"] == gaps.count(min(gaps))
    assert stats["n_ties"] == gaps.count(0)
    assert list(stats["r_star_counts"]) == [r_stars.count(m) for m in range(1, len(means) + 1)]
    assert stats["mean_g_ghost"] == pytest.approx(float(sum(bests) / len(bests)), abs=1e-14)


def test_uniform_delay_statistics_has_ties_in_small_case():
    stats = uniform_delay_statistics(["1", "1/2", "0"], ["1/2"], d_max=3)
    assert stats["n_ties"] > 0 and stats["min_gap"] == 0


def test_figure2_uniform_delay_statistics():
    # Regression pins over the 6^7 vectors: the statistics' definitions are checked against a
    # plain enumeration on small cases above; the counts of r* are exact integers.
    stats = uniform_delay_statistics(FIG2_MEANS, fig2_f_values(6), d_max=6)
    assert stats["n_vectors"] == 6**7
    assert stats["mean_gap"] == pytest.approx(0.0849531681376, rel=1e-9)  # paper: "0.1 on average"
    assert stats["median_gap"] == pytest.approx(0.0725349317341, rel=1e-9)
    assert stats["n_ties"] == 0
    assert list(stats["r_star_counts"]) == [0, 7776, 7776, 29052, 45828, 68580, 120924]
    assert stats["p_r_star"].sum() == pytest.approx(1.0)
    assert stats["mean_g_ghost"] == pytest.approx(0.729030866132, rel=1e-9)
    # the smallest gap: d = (1, 6, 1, 1, 1, 1, 1), g(4) − g(5), only arm 2 delayed (d_2 = 6 ≥ m)
    assert stats["min_gap_example"] == (1, 6, 1, 1, 1, 1, 1)
    assert stats["min_gap_policies"] == (4, 5)
    f = F(999, 1000)
    g4 = (1 + F(14, 15) * (1 - f**4) + F(13, 15) + F(4, 5)) / 4
    g5 = (1 + F(14, 15) * (1 - f**5) + F(13, 15) + F(4, 5) + F(2, 3)) / 5
    assert stats["min_gap"] == g4 - g5 == F(17465026243, 37500000000000000)
    assert stats["n_min_gap_vectors"] == 3888


def test_uniform_delay_statistics_errors():
    with pytest.raises(ValueError, match="at least 2"):
        uniform_delay_statistics(["1"], ["1/2"])
    with pytest.raises(ValueError, match="MAX_DELAY_VECTORS"):
        uniform_delay_statistics(["1"] * 12, ["1/2"], d_max=6)
    with pytest.raises(ValueError, match="descending"):
        uniform_delay_statistics(["0", "1"], ["1/2"], d_max=2)


# ---- errata -------------------------------------------------------------------------------------


def test_erratum_e1_by_hand():
    result = erratum_e1()
    # f(τ) = 2^-τ, τ = m: g(1) = 1/2, g(2) = (3/4 + 2/3·3/4)/2, g(3) = (1 + 2/3 + 1/2)/3
    assert result["g_paper_f"] == (F(1, 2), F(5, 8), F(13, 18))
    assert not result["printed_order_holds_paper_f"] and result["monotone_paper_f"]
    # f ≡ 1/2: g(2) = (1/2 + 1/3)/2 = 5/12 < g(1) = 1/2 < g(3) = 13/18
    assert result["g_constant_f"] == (F(1, 2), F(5, 12), F(13, 18))
    assert result["printed_order_holds_constant_f"] and not result["monotone_constant_f"]


@pytest.mark.parametrize("eps", ["1/10", "1/100", "0"])
def test_erratum_e2_by_hand(eps):
    T = 1000
    result = erratum_e2(eps, T=T)
    e = F(eps)
    assert result["ratio_closed_form"] == 1 / (F(3, 2) - e)
    assert result["greedy_average"] == pytest.approx(0.5, abs=1e-15)
    assert result["opt_average"] == pytest.approx(float((F(3, 2) - e) / 2), abs=1e-12)
    assert result["alternation_average"] == pytest.approx(result["opt_average"], abs=1e-12)
    assert result["ratio_long_run"] == pytest.approx(float(1 / (F(3, 2) - e)), abs=1e-12)
    assert result["ratio_finite_T_paper_formulas"] == F(T + 1) / (2 + (T - 1) * (F(3, 2) - e))
    assert result["ratio_finite_T_paper_formulas"] > F(2, 3)  # even at ε = 0
    # simulated finite T: greedy earns 1 + (T − 1)/2, the alternation (T/2)(3/2 − ε)
    assert result["ratio_finite_T_simulated"] == pytest.approx(
        float((1 + F(T - 1, 2)) / (F(T, 2) * (F(3, 2) - e))), rel=1e-12
    )
    assert result["exceeds_two_thirds"] == (e > 0)


def test_erratum_e2_errors():
    with pytest.raises(ValueError, match="eps"):
        erratum_e2("3/4")


def test_erratum_e3_grows_like_stage_count():
    T = np.array([1e3, 1e5, 1e10, 1e20, 1e40])
    result = erratum_e3(T, 7, DELTA)
    assert list(result["S"]) == [4, 5, 6, 7, 8]
    assert np.all(np.diff(result["ratio"]) > 0)
    assert result["ratio"][-1] > 2.5 * result["ratio"][0]
    assert np.all((result["ratio_per_stage"] > 2.5) & (result["ratio_per_stage"] < 4.5))
    single = erratum_e3(1e6, 7, DELTA)
    assert single["ratio"] == pytest.approx(109594.139177 / 7065.5226099, rel=1e-9)
    lnln = math.log(math.log(1e6))
    assert single["printed_last_line"] == pytest.approx(
        49 * lnln + 1e3 + math.sqrt(7e6) * (math.log(70) + lnln)
    )
