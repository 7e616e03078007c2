"""Generated text in a reader's notation (powers of ten, ±, ≤, Greek letters), without the
notebook stack: the pages, the notebooks and a paper's tables (made in jobs that import no
IPython or matplotlib) all write numbers and maths the same way."""

from __future__ import annotations

import re

SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
# Plain-text notation a claim's generated text may carry, as a reader writes it.
_ASCII_MATHS = (("+-", "±"), ("<=", "≤"), (">=", "≥"), ("!=", "≠"), ("sqrt(", "√("))
# Greek letters spelled out in config text and identifiers (``lambda(tau_max)``, ``nu_{i,tau}``).
_GREEK = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "sigma": "σ",
    "tau": "τ",
    "theta": "θ",
    "Delta": "Δ",
}
_GREEK_WORD = re.compile(r"(?<![A-Za-z])(" + "|".join(_GREEK) + r")(?![A-Za-z])")
# A one-letter symbol with a hat or a one-character index: ``mu_hat`` → ``μ̂``, ``s_hat_i`` →
# ``ŝᵢ``, ``A_j`` → ``Aⱼ``, ``r_0`` → ``r₀``. Longer indices (``tau_max``, ``t_Id``) and indices
# Unicode has no subscript for (``R_T``) stay as written.
_SYMBOL = r"(?<![\w.])([A-Za-z\u0370-\u03ff])"
_HAT = re.compile(_SYMBOL + r"_hat(?![A-Za-z0-9])")
_SUBSCRIPTS = dict(zip("0123456789ijknst", "₀₁₂₃₄₅₆₇₈₉ᵢⱼₖₙₛₜ"))
_INDEX = re.compile(_SYMBOL + r"(\u0302?)_([0-9ijknst])(?![\w{])")
# ``N_{k,j}`` → ``Nₖ,ⱼ``: a braced index of such characters and commas.
_BRACED = re.compile(_SYMBOL + r"(\u0302?)_\{([0-9ijknst,]+)\}")


def _power(match: re.Match) -> str:
    mantissa, exponent = match.group(1), str(int(match.group(2)))
    power = "10" + exponent.translate(SUPERSCRIPT)
    return power if mantissa in ("1", "1.0") else f"{mantissa}·{power}"


def prose(text) -> str:
    """Generated text as a reader reads it: ``3.15e+06`` → ``3.15·10⁶``, ``1e-05`` → ``10⁻⁵``,
    ``10^4`` → ``10⁴``, ``+-`` → ``±``, ``<=`` → ``≤``, ``lambda(tau_max)`` → ``λ(τ_max)``,
    ``mu_hat`` → ``μ̂``, ``Delta_i`` → ``Δᵢ``, ``N_{k,j}`` → ``Nₖ,ⱼ`` (a
    claim's words, its deciding number and the provenance notes are written in plain ASCII, in
    many places; this is the one place they are made readable). Anything else is left as it
    is."""
    if not isinstance(text, str):
        return text
    text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)e([+-]?\d+)\b", _power, text)
    text = re.sub(r"\b10\^\(?(-?\d+)\)?", lambda m: "10" + m.group(1).translate(SUPERSCRIPT), text)
    text = re.sub(
        r"(?<=[\w)'])\^(-?\d+)(?![\d.])", lambda m: m.group(1).translate(SUPERSCRIPT), text
    )
    for ascii_text, symbol in _ASCII_MATHS:
        text = text.replace(ascii_text, symbol)
    text = _GREEK_WORD.sub(lambda m: _GREEK[m.group(1)], text)
    text = _HAT.sub(lambda m: m.group(1) + "\u0302", text)
    text = _BRACED.sub(
        lambda m: m.group(1) + m.group(2) + "".join(_SUBSCRIPTS.get(c, c) for c in m.group(3)), text
    )
    return _INDEX.sub(lambda m: m.group(1) + m.group(2) + _SUBSCRIPTS[m.group(3)], text)
