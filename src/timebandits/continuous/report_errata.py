"""The ``errata`` table of "Continuous Time Bandits With Sampling Costs"
(results/tables/continuous/errata.csv): inconsistencies between the paper's statements and
proofs (spec §5, §6.6), each with the number that shows it."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .theory import eq9_regret, kappa_min, lemma18_holds, theorem8_proof_terms


def _lemma18_failures() -> str:
    """Where Lemma 18's inequality fails on a grid of x ≤ 1/2 and β ≤ 1/4."""
    failing = [
        (x, b)
        for x in np.linspace(0.001, 0.5, 500)
        for b in np.linspace(0.001, 0.25, 250)
        if not lemma18_holds(x, b)
    ]
    if not failing:
        return "holds at every grid point"
    return (
        f"fails at {len(failing)} of 125000 grid points, all with x ≤ "
        f"{max(x for x, _ in failing):.3f}"
    )


def errata_table(paper: dict) -> pd.DataFrame:
    """Inconsistencies between the paper's statements and proofs (spec §5, §6.6), each with the
    number that shows it, at the paper's settings."""
    fig1 = [paper["experiments"][e]["environment"]["means"] for e in ("fig1a", "fig1b", "fig1c")]
    stated, proof = theorem8_proof_terms(6e4, fig1[0])
    rows = [
        {
            "erratum": "Theorem 9, eq. 9: the explicit lower bound 8Kμ₂² ln(c₁₂/8)/(μ₁Δ²) is "
            "negative (vacuous) unless μ₁/μ₂ > 2√2",
            "value": "; ".join(
                f"{means[0]}/{means[1]}: {eq9_regret(means):.4g}".replace("-", "−")
                for means in fig1
            ),
        },
        {
            "erratum": "Theorem 8's second term K² ln²T'/μ₁ against its proof's eq. 33, μ₁K² ln²T' "
            "(Fig. 1 (a), T' = 6·10⁴)",
            "value": f"{stated:.4g} against {proof:.4g}",
        },
        {
            "erratum": "Lemma 13 needs κ ≥ κₘᵢₙ = 9 ln(2T'²)/(T'^(2ε/3) ln T'); the experiments' "
            "κ is not given",
            "value": f"κₘᵢₙ = {kappa_min(6e4, 0.05):.3g} at T' = 6·10⁴, ε = 0.05",
        },
        {
            "erratum": "Lemma 18: D(Ber(x) ‖ Ber(x + β)) ≤ 8β²/ln 2 for β ≤ 1/4 fails for small x "
            "(grid x = 0.001 … 0.5, β = 0.001 … 0.25)",
            "value": _lemma18_failures(),
        },
        {
            "erratum": "Theorem 5's proof ends with O(T')·(T'⁻¹⁻ᵋ + T'⁻²) where the statement has "
            "(μ²/4)(T'⁻ᵋ + T'⁻¹)",
            "value": "— (text)",
        },
        {
            "erratum": "The abstract's O((log T)²) for CTMAB against Theorem 8's first term, a "
            "single log",
            "value": "— (text)",
        },
        {
            "erratum": "Lemma 14 drops the factor 2 that eq. 15 has in front of Σ Nᵢ²/Lᵢ",
            "value": "— (text); learning_payoff uses the exact sum",
        },
        {
            "erratum": "Lemma 11 lacks the factor 2 of two-sided Hoeffding; Corollary 12's radius "
            "log(1/δ)/√N is not Hoeffding's (the stopping rule eq. 5 is kept as printed)",
            "value": "— (text)",
        },
        {
            "erratum": "Lemma 16 says '≤ 1 − Tδ/Tᵋ' for '≤ Tδ/Tᵋ'; App. M defines δ' with '−5/T²' "
            "for '+'; eq. 32 has μ²Tᵛ/2 (T to the power ν) for /4",
            "value": "— (text)",
        },
        {
            "erratum": "Eq. 9 drops the constants 𝖼₄, 𝖼₅ that the proof's eq. 38 carries",
            "value": "— (text)",
        },
        {
            "erratum": "Alg. 1 indexes the exploit windows from k = i* + 1 and Alg. 2 from r = 1: "
            "both leave a gap (repaired, spec §3.3–3.4)",
            "value": "—",
        },
        {
            "erratum": "Alg. 2 line 30 plays μ̂ᵣW/2 with an estimate computed only afterwards "
            "(repaired: the estimate before the window)",
            "value": "—",
        },
    ]
    return pd.DataFrame(rows)
