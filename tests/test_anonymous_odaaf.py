"""ODAAF (Pike-Burke et al. 2018) as the baseline of paper 002: its phase lengths against
hand-computed values and its game loop against hand-worked trajectories."""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.anonymous.model import AnonymousProblem
from timebandits.anonymous.odaaf import ODAAF, ODAAF_B, ODAAF_V, VARIANTS, phase_length, run_odaaf

NINE_ARMS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]


def _run(
    means,
    kernel,
    horizon,
    variant=ODAAF,
    expected=None,
    variance=None,
    bound=None,
    key=1,
    checkpoints=None,
):
    """``expected``/``variance``/``bound`` default to the kernel's true E[τ], V(τ), support."""
    problem = AnonymousProblem.from_config({"means": means, "kernel": kernel})
    k = problem.kernel
    expected = k.mean_offset() if expected is None else expected
    variance = k.offset_variance() if variance is None else variance
    bound = float(k.support) if bound is None else bound
    checkpoints = np.arange(1, horizon + 1) if checkpoints is None else checkpoints
    return run_odaaf(
        problem.means,
        variant,
        expected,
        variance,
        bound,
        k.code,
        k.cumulative(horizon + 1),
        int(min(k.window_reach, horizon)),
        kernel.get("low", 0),
        kernel.get("high", 0),
        np.uint64(key),
        horizon,
        checkpoints,
    )


def _regret_curve(horizon, blocks):
    """The cumulative regret of playing gap g in slots a..b for each (a, b, g) in ``blocks``
    (gap 0 elsewhere)."""
    gaps = np.zeros(horizon)
    for first, last, gap in blocks:
        gaps[first - 1 : last] = gap
    return np.cumsum(gaps)


def test_variant_codes():
    assert VARIANTS == {"odaaf": ODAAF, "odaaf_v": ODAAF_V, "odaaf_b": ODAAF_B}
    assert len(set(VARIANTS.values())) == 3


def test_phase_lengths_against_hand_computation():
    """T = 10^4, E = 20, V = ((21)² − 1)/12 = 36.67, d = 30 (the U{10..30} delay). Phase 1:
    Δ̃ = 1/2, ℓ = ln 2500 = 7.824046010856, √(2ℓ) = 3.955766932178; ODAAF's inner term
    2ℓ + (8/3)(1/2)ℓ + 6·1·(1/2)·20 = 86.080153369521, so n_1 = 4(3.955766932178 +
    9.277939284)² = 700.523898111. Values to 9 decimals from 40-digit arithmetic."""
    expected = {
        ODAAF: [700.523898111, 2449.354852830, 7346.828799591],
        ODAAF_V: [1375.165215926, 3181.039003854, 7498.161412653],
        # max{n(4Δ̃E), min(m·30, n^ODAAF)} = n(4Δ̃E): the bound branch is m·30 < n.
        ODAAF_B: [584.163467526, 1500.709267480, 3939.956760998],
    }
    for variant, values in expected.items():
        for phase, value in enumerate(values, start=1):
            got = phase_length(variant, phase, 10_000, 20.0, 440 / 12, 30.0)
            assert got == pytest.approx(value, rel=1e-11, abs=0)


def test_bounded_variant_takes_m_times_the_capped_bound():
    """ODAAF-B's second branch m·d̃_m = m·min{d, n^ODAAF/m} = min{m d, n^ODAAF} (phase 1 of
    the case above: n(4Δ̃E) = 584.16, n^ODAAF = 700.52)."""
    assert phase_length(ODAAF_B, 1, 10_000, 20.0, 0.0, 650.0) == pytest.approx(650.0)
    for bound in (1_000.0, math.inf):
        assert phase_length(ODAAF_B, 1, 10_000, 20.0, 0.0, bound) == pytest.approx(
            700.523898111, rel=1e-11
        )
    assert phase_length(ODAAF_V, 1, 10_000, 20.0, math.inf, 30.0) == math.inf


def test_one_elimination_and_the_cut_at_the_horizon():
    """Arms s = (1, 0) (deterministic totals), every total due one slot later, ODAAF told
    E = 1, T = 300: ℓ_1 = ln 75 = 4.317488, n_1 = 4(2.938537 + √17.391633)² = 202.14, rounded
    up to 203. Arm 1 plays slots 1–203 and arm 2 slots 204–406, cut at T = 300: the regret is 0
    up to slot 203, then grows by 1 a slot to 97."""
    regret = _run([1.0, 0.0], {"kind": "delay", "low": 1, "high": 1}, 300)
    np.testing.assert_array_equal(regret, _regret_curve(300, [(204, 300, 1.0)]))


def test_hand_trajectory_with_two_eliminations():
    """Arms s = (1, 0, 0), every total due 70 slots later, ODAAF told E = 0 (so the leak of
    arm 1's rewards into the next block is not budgeted for), T = 2000: n_1 = 260.95 -> 261,
    n_2 = 717.33 -> 718 (ℓ_1 = ln 500, ℓ_2 = ln 125).
    Phase 1: arm 1 slots 1–261 sees its own pulls 1–191: S = 191; arm 2 (262–522) sees arm 1's
    pulls 192–261: S = 70; arm 3 (523–783) sees nothing. X̄ = (.732, .268, 0): arm 2 stays
    (.268 + 1/2 ≥ .732), arm 3 goes (0 + 1/2 < .732).
    Phase 2 (457 more pulls each): arm 1 (784–1240) sees its pulls 784–1170: S = 191 + 387 =
    578; arm 2 (1241–1697) sees arm 1's pulls 1171–1240: S = 140. X̄ = (.805, .195): arm 2
    goes (.195 + 1/4 < .805). Arm 1 alone then plays 1698–2000."""
    regret = _run([1.0, 0.0, 0.0], {"kind": "delay", "low": 70, "high": 70}, 2000, expected=0.0)
    np.testing.assert_array_equal(regret, _regret_curve(2000, [(262, 783, 1.0), (1241, 1697, 1.0)]))


def test_the_estimate_is_cumulative_over_phases():
    """Spec P10: X̄_j sums j's feedback over all phases, divided by n_m. Arms s = (1, 0, 0),
    delay 154, ODAAF told E = 0, T = 4000: n = (290.05, 820.31, 2290.24) -> (291, 821, 2291).
    Phase 1: S = (291 − 154, 154, 0) = (137, 154, 0); X̄ = (.471, .529, 0): arm 3 goes, and
    arm 1 (the best) stays only by the tolerance. Phase 2 (530 more pulls, slots 874–1403 and
    1404–1933): arm 1 sees its pulls 874–1249 (376), arm 2 arm 1's pulls 1250–1403 (154):
    S = (513, 308), and 308/821 + 1/4 = .6252 ≥ 513/821 = .6248 keeps arm 2 (the phase-2 means
    376/530 and 154/530 would have dropped it: 154 + 132.5 < 376). Phase 3 (1470 more pulls):
    arm 1 plays 1934–3403, arm 2 3404–4873, cut at T."""
    regret = _run([1.0, 0.0, 0.0], {"kind": "delay", "low": 154, "high": 154}, 4000, expected=0.0)
    np.testing.assert_array_equal(
        regret, _regret_curve(4000, [(292, 873, 1.0), (1404, 1933, 1.0), (3404, 4000, 1.0)])
    )


def test_composite_kernel_block():
    """Generalized ODAAF's input (spec §2.5 reconstruction: E := the interval size d): arms
    (1, 0), each total spread evenly over offsets 1 and 2 (bounded (1, 3), d = 3), T = 300:
    n_1 = 4(2.938537 + √(2ℓ + (4/3)ℓ + 9))² = 241.80 -> 242, so arm 2 plays 243–300."""
    kernel = {"kind": "bounded", "dmin": 1, "dmax": 3}
    regret = _run([1.0, 0.0], kernel, 300, expected=3.0)
    np.testing.assert_array_equal(regret, _regret_curve(300, [(243, 300, 1.0)]))


def test_guard_plays_the_first_arm_when_the_log_term_vanishes():
    """T = 4: ln(T Δ̃_1²) = ln 1 = 0, so no phase can be run (spec P10 guard [recon]); before
    any pull every active arm ties and the lowest index (s = 0.2) is played until T."""
    for variant in VARIANTS.values():
        regret = _run([0.2, 0.9], {"kind": "delay", "low": 0, "high": 0}, 4, variant=variant)
        np.testing.assert_allclose(regret, [0.7, 1.4, 2.1, 2.8])


def test_unknown_variant_is_rejected():
    with pytest.raises(ValueError):
        _run([0.5, 0.4], {"kind": "delay", "low": 0, "high": 2}, 10, variant=7)


def test_reproducible_key_dependent_and_cut_at_the_horizon():
    """Arms (.9, .65, .4), z ~ U{0..6}, T = 3000: whether s = .4 (gap .5 = Δ̃_1) survives phase 1
    depends on the draws, so keys 1–8 do not all give the same regret."""
    means, kernel = [0.9, 0.65, 0.4], {"kind": "delay", "low": 0, "high": 6}
    sparse = np.array([1, 17, 1499, 2999, 3000])
    for variant in VARIANTS.values():
        dense = _run(means, kernel, 3000, variant=variant, key=3)
        np.testing.assert_array_equal(dense, _run(means, kernel, 3000, variant=variant, key=3))
        finals = {
            _run(means, kernel, 3000, variant=variant, key=key, checkpoints=sparse)[-1]
            for key in range(1, 9)
        }
        assert len(finals) > 1
        steps = np.diff(np.r_[0.0, dense])  # exactly one pull a slot, each costing a gap
        assert dense.size == 3000
        assert np.isclose(steps[:, None], [0.0, 0.25, 0.5]).any(axis=1).all()
        np.testing.assert_array_equal(
            _run(means, kernel, 3000, variant=variant, key=3, checkpoints=sparse), dense[sparse - 1]
        )


def test_nine_arms_regret_flattens():
    """s = (.9, …, .1), z ~ U{10..30}, ODAAF told E = 20, T = 2·10^4: n_1 = 732.12 -> 733, so
    phase 1 ends at slot 9·733 = 6597 and drops s = .3, .2, .1 (X̄ + 1/2 < max X̄ ≈ .9); phase
    2 (1834 more pulls) runs to about slot 17,600 over five or six arms, then s = .9 plays.
    Keys 1–5 give last-quarter/first-quarter regret ratios ≤ 0.84 and last-quarter regret
    ≤ 0.25 a slot. An ODAAF that never eliminated would still be in phase 2 at T, cycling
    through s = .4, .3, .2 in the last quarter: it plays gaps ≥ 0.6 after slot 6597, and its
    last-quarter regret, 0.4·767 + 0.5·1834 + 0.6·1834 + 0.7·565 = 2720 (0.54 a slot), is 1.86
    times its first quarter's 733·1.5 + 0.6·602 = 1461."""
    horizon = 20_000
    for key in range(1, 6):
        regret = _run(NINE_ARMS, {"kind": "delay", "low": 10, "high": 30}, horizon, key=key)
        steps = np.diff(np.r_[0.0, regret])
        assert steps[9 * 733 :].max() <= 0.5 + 1e-9
        first = regret[horizon // 4 - 1]
        last = regret[-1] - regret[3 * horizon // 4 - 1]
        assert last < first
        assert last < 0.3 * horizon / 4
