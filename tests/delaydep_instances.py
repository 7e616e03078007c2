"""The instances of paper 004's figures, written out from the paper (Sect. 8 and the captions of
Figs. 2 and 3) independently of config/papers/delaydep.yaml, for tests that check exact values."""

from fractions import Fraction

from timebandits.delaydep.model import B2DEPProblem

# Fig. 2 caption: baselines 0, 1/3, 2/3, 4/5, 13/15, 14/15, 1 (sorted descending), f(τ) = 0.999^τ.
FIG2_MEANS = tuple(Fraction(x) for x in ("1", "14/15", "13/15", "4/5", "2/3", "1/3", "0"))


def fig2_f_values(length: int = 6) -> list[Fraction]:
    """f(τ) = 0.999^τ for τ = 1..``length``, exact."""
    return [Fraction(999, 1000) ** tau for tau in range(1, length + 1)]


def fig3_problem() -> B2DEPProblem:
    """Sect. 8: μ_1 = 1, d_1 = d_2 = 2, f(1) = 0.3, f(2) = 0.25, μ_2 = 13/15 so g(1) = g(2)."""
    return B2DEPProblem(["1", "13/15"], [2, 2], ["3/10", "1/4"])
