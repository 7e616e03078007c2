"""The three families of joint laws of (R, C) of the censored-resources environment (spec §3),
their codes in ``CensoredProblem.family_code``, and their exact moments up to a limit τ
(the parts of ν, eq. 2, that ``model.CensoredProblem`` combines):

Families (spec §3):
* ``truncated_gaussian``: (R, C) ~ N(μ_i, Σ_i), Σ_i = σ·[[1, ρ_i], [ρ_i, 1]] (σ is the variance,
  ρ_i = 2·x_i·sqrt(1 − x_i²), eq. (35)), conditioned on [0, 1]² (``truncation: joint``, spec P4)
  or on R ∈ [0, 1], C ≥ 0 (``truncation: open_consumption``, the spec §8 sensitivity variant).
* ``beta_exponential``: R ~ Beta(a_i, b_i) independent of C ~ Exponential(rate_i) (Indep).
* ``pool``: the uniform law over arm i's recorded (R, C) pairs (Fig. 5, spec §5).
"""

from __future__ import annotations

import math

import numpy as np

GAUSSIAN_JOINT = 0
GAUSSIAN_OPEN = 1
BETA_EXPONENTIAL = 2
POOL = 3
FAMILY_NAMES = {
    GAUSSIAN_JOINT: "truncated_gaussian (joint)",
    GAUSSIAN_OPEN: "truncated_gaussian (open_consumption)",
    BETA_EXPONENTIAL: "beta_exponential",
    POOL: "pool",
}

# Columns of ``arm_params``: Gaussians (μ_r, μ_c, sd, ρ, sqrt(1 − ρ²));
# Beta–Exponential (a, b, rate, 0, 0); pool: zeros.
N_PARAMS = 5
# Quadrature: the consumption density is integrated over μ_c ± TAIL_SDS·sd (the rest has mass
# < 1e-32), in panels no wider than the scale on which the integrand varies, with QUAD_NODES
# Gauss–Legendre nodes each.
TAIL_SDS = 12.0
QUAD_NODES = 16
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(QUAD_NODES)


def beta_exponential_gain_censor(params, cost_slope, taus):
    """Closed forms (spec §3): F(τ) = 1 − e^{−rτ}, E[C·1{C ≤ τ}] = (1 − e^{−rτ}(1 + rτ))/r,
    E[R·1{C ≤ τ}] = a/(a + b)·F(τ) by independence."""
    a, b, rate = params[0], params[1], params[2]
    survival = np.exp(-rate * taus)
    consumed = -(np.expm1(-rate * taus) + rate * taus * survival) / rate
    return a / (a + b) * (-np.expm1(-rate * taus)) - cost_slope * consumed, survival


def pool_gain_censor(rewards, consumptions, cost_slope, taus):
    """Exact means over the records: mean((R − c(C))·1{C ≤ τ}) and mean(1{C > τ})."""
    order = np.argsort(consumptions, kind="stable")
    net = np.concatenate([[0.0], np.cumsum(rewards[order] - cost_slope * consumptions[order])])
    within = np.searchsorted(consumptions[order], taus, side="right")
    return net[within] / rewards.size, 1.0 - within / rewards.size


def gaussian_integrals(params, c_upper: float, limits: np.ndarray):
    """For the untruncated N(μ, Σ) density: over C ∈ [0, min(τ, c_upper)] and R ∈ [0, 1],
        mass(τ) = ∫ f_C(c)·P(0 ≤ R ≤ 1 | c) dc,   reward(τ) = ∫ f_C(c)·E[R·1{0 ≤ R ≤ 1} | c] dc,
        consumption(τ) = ∫ c·f_C(c)·P(0 ≤ R ≤ 1 | c) dc,
    with R | C = c ~ N(μ_r + ρ(c − μ_c), sd²(1 − ρ²)) and its truncated-normal moments
    E[R·1{a ≤ R ≤ b}] = m·(Φ(β) − Φ(α)) + s·(φ(α) − φ(β)). Dividing by mass(∞) gives the
    moments of the truncated law. Composite Gauss–Legendre over μ_c ± TAIL_SDS·sd, in panels no
    wider than sd·min(1, sqrt(1 − ρ²)/|ρ|) (the scale of c ↦ P(0 ≤ R ≤ 1 | c))."""
    mu_r, mu_c, sd, rho, rho_bar = params[0], params[1], params[2], params[3], params[4]
    lo = max(0.0, mu_c - TAIL_SDS * sd)
    hi_all = min(c_upper, mu_c + TAIL_SDS * sd)
    zeros = np.zeros(limits.size)
    if hi_all <= lo:
        return zeros, zeros, zeros
    scale = sd * min(1.0, rho_bar / abs(rho)) if rho != 0 else sd
    panels = int(math.ceil((hi_all - lo) / scale)) + 1
    hi = np.clip(limits, lo, hi_all)
    edges = lo + (hi - lo)[:, None] * np.linspace(0.0, 1.0, panels + 1)[None, :]
    half = 0.5 * np.diff(edges, axis=1)[..., None]
    c = 0.5 * (edges[:, 1:] + edges[:, :-1])[..., None] + half * _GL_NODES
    weight = half * _GL_WEIGHTS * _phi((c - mu_c) / sd) / sd
    cond_mean, cond_sd = mu_r + rho * (c - mu_c), sd * rho_bar
    alpha, beta = -cond_mean / cond_sd, (1.0 - cond_mean) / cond_sd
    from scipy.special import ndtr

    inside = ndtr(beta) - ndtr(alpha)
    reward = cond_mean * inside + cond_sd * (_phi(alpha) - _phi(beta))
    return (
        (weight * inside).sum(axis=(1, 2)),
        (weight * reward).sum(axis=(1, 2)),
        (weight * c * inside).sum(axis=(1, 2)),
    )


def _phi(x):
    return np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
