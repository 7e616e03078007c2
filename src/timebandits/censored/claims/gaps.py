"""Superiority claims of "Bandits with Censored Consumption of Resources" that a comparison at
the horizon does not express.

  relative_gap_order  (statistical) RCUCB's relative advantage a = 1 − R_T(RCUCB)/R_T(baseline)
                      (RCUCB: the claim's ``algorithm``, ``rcucb`` unless a sensitivity claim
                      names a variant) is larger in the first experiment of each listed pair than
                      in the second:
                      a bootstrap over runs (independent experiments) of the difference, p = the
                      bootstrap share not on the claimed side. An order of the gaps only: it
                      holds as well when RCUCB loses everywhere, by less in the first experiment.
  superiority_grows   (statistical) the same order, and RCUCB ahead (a > 0: a paired one-sided
                      t-test of R_T(RCUCB) < R_T(baseline)) in the first experiment of every pair:
                      "the relative gap between RCUCB and its competitors is larger for the
                      correlated settings" (§5.1, Fig. 4) and "the superiority of RCUCB is more
                      distinct, the larger the number of elements" (App. F.1, Figs. 4, 6, 7) say
                      that RCUCB is the better one and that its lead grows.
  exceeds_throughout  (statistical) the mean curve of ``better`` lies above (``direction:
                      higher``) or below that of each ``worse`` at every checkpoint t ≥ ``from_t``
                      ("exceeds … throughout", §5.2, Fig. 5): a paired one-sided t-test at each
                      checkpoint; reproduced if every one is significant at α (an
                      intersection–union test), refuted if one shows the opposite order at
                      α / (number of checkpoints) (Bonferroni).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import check_run, paired_verdict, require_keys
from timebandits.core.verdicts.decidability import linear, scale, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, STATISTICAL

RCUCB = "rcucb"


def rcucb_of(claim) -> str:
    """The RCUCB algorithm the claim is about: ``algorithm`` (a variant, e.g. another α), else
    the paper's ``rcucb``."""
    return claim.get("algorithm", RCUCB)


def _relative_gaps(ctx, experiment, rcucb, baseline, boot):
    """1 − mean R_T(rcucb)/mean R_T(baseline), on the runs ``boot`` (paired: same runs)."""
    ours, theirs = ctx.paired(experiment, rcucb, baseline, "regret")
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.0 - ours[boot].mean(axis=-1) / theirs[boot].mean(axis=-1)


def ranks(pairs) -> dict:
    """Each experiment's place in the order the pairs claim (first > second): 0 for one that
    beats none, else 1 + the largest place of those it beats. ValueError on a cycle."""
    beats: dict = {}
    for first, second in pairs:
        beats.setdefault(first, set()).add(second)
        beats.setdefault(second, set())
    out: dict = {}

    def place(exp, path=()):
        if exp in path:
            raise ValueError(f"the pairs claim a cyclic order through {exp!r}")
        if exp not in out:
            out[exp] = 1 + max((place(e, path + (exp,)) for e in beats[exp]), default=-1)
        return out[exp]

    for exp in beats:
        place(exp)
    return out


class RelativeGapOrder:
    evidence = STATISTICAL
    ahead = False  # superiority_grows: also RCUCB ahead in the first experiment of each pair
    keys = ("pairs", "baselines")
    optional = ("algorithm",)  # RCUCB unless given: rcucb_of

    @classmethod
    def check(cls, claim, paper):
        require_keys(claim, "pairs", "baselines")
        for first, second in claim["pairs"]:
            check_run(paper, [first, second], [rcucb_of(claim), *claim["baselines"]])
        ranks(claim["pairs"])

    @classmethod
    def evaluate(cls, claim, ctx):
        """An undefined gap (a baseline's mean regret 0) supports neither side."""
        rows = []
        rcucb = rcucb_of(claim)
        name = ctx.label(rcucb)
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "censored", claim["id"]))
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        for first, second in claim["pairs"]:
            for baseline in claim["baselines"]:
                runs = [ctx.final(e, rcucb, "regret").size for e in (first, second)]
                boots = [rng.integers(0, r, size=(n_boot, r)) for r in runs]
                gap_first = _relative_gaps(ctx, first, rcucb, baseline, slice(None))
                gap_second = _relative_gaps(ctx, second, rcucb, baseline, slice(None))
                with np.errstate(invalid="ignore"):  # −∞ − (−∞): an undefined difference
                    diff = _relative_gaps(ctx, first, rcucb, baseline, boots[0]) - _relative_gaps(
                        ctx, second, rcucb, baseline, boots[1]
                    )
                test = {
                    "p_claimed": float(np.mean(~(diff > 0.0))),
                    "p_opposite": float(np.mean(~(diff < 0.0))),
                }
                low, high = (
                    np.nanquantile(diff, [0.025, 0.975])
                    if np.any(np.isfinite(diff))
                    else (np.nan,) * 2
                )
                rows.append(
                    {
                        "scope": f"{first} > {second} vs {ctx.label(baseline)}",
                        "verdict": paired_verdict(test, ctx.alpha),
                        "headline": f"advantage {gap_first:.3f} vs {gap_second:.3f}",
                        "statistic": (
                            f"{name}'s relative advantage 1 − "
                            f"R_T({name})/R_T({ctx.label(baseline)}): "
                            f"{gap_first:.3f} on {first} vs {gap_second:.3f} on {second}; "
                            f"bootstrap difference 95% CI [{low:.3f}, {high:.3f}], "
                            f"p = {test['p_claimed']:.2g} ({n_boot} resamples)"
                        ),
                        **test,
                    }
                )
        if cls.ahead:
            firsts = list(dict.fromkeys(first for first, _ in claim["pairs"]))
            rows += [
                _ahead_row(ctx, exp, rcucb, baseline)
                for exp in firsts
                for baseline in claim["baselines"]
            ]
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """RCUCB's advantage (rank + 1)/(top + 2) on each experiment, rank its place in the
        claimed order (:func:`ranks`): positive and growing as claimed (favourable); or minus
        that, RCUCB behind and further behind where the claim has it further ahead."""
        place = ranks(claim["pairs"])
        top = max(place.values())
        rcucb = rcucb_of(claim)
        s = scale(ctx, list(place), [rcucb, *claim["baselines"]], "regret", headroom=top + 2)
        out = {}
        for side, sign in (("favourable", 1.0), ("unfavourable", -1.0)):
            levels = {}
            for exp, rank in place.items():
                advantage = sign * (rank + 1) / (top + 2)
                levels[(exp, rcucb)] = linear(s)
                levels.update({(exp, b): linear(s / (1.0 - advantage)) for b in claim["baselines"]})
            out[side] = with_curves(ctx, "regret", levels)
        return out


def _ahead_row(ctx, experiment, rcucb, baseline):
    ours, theirs = ctx.paired(experiment, rcucb, baseline, "regret")
    test = paired_one_sided(ours, theirs)
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = 1.0 - ours.mean() / theirs.mean()
    name = ctx.label(rcucb)
    return {
        "scope": f"{name} ahead of {ctx.label(baseline)} on {experiment}",
        "verdict": paired_verdict(test, ctx.alpha),
        "headline": f"advantage {gap:.3f}",
        "statistic": (
            f"R_T: {name} {ours.mean():.4g} vs {ctx.label(baseline)} {theirs.mean():.4g} "
            f"(relative advantage {gap:.3f}); {int(np.sum(ours < theirs))}/{ours.size} "
            f"runs lower; paired t = {test['t']:.2f}, p = {test['p_claimed']:.2g}"
        ),
        "p_claimed": test["p_claimed"],
        "p_opposite": test["p_opposite"],
    }


class SuperiorityGrows(RelativeGapOrder):
    ahead = True


class ExceedsThroughout(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "metric", "better", "worse")
    optional = ("direction", "from_t")

    runs, reads_direction = ("experiments", "better", "worse"), True

    @staticmethod
    def evaluate(claim, ctx):
        rows = []
        higher = claim.get("direction", "lower") == "higher"
        start = float(claim.get("from_t", 0.0))
        for exp in claim["experiments"]:
            for better in claim["better"]:
                for worse in claim["worse"]:
                    ours, theirs = (
                        ctx.at(exp, better, claim["metric"]),
                        ctx.at(exp, worse, claim["metric"]),
                    )
                    keep = ours.index[ours.index >= start]
                    ours, theirs = ours.loc[keep], theirs.loc[keep, ours.columns]
                    t = keep.to_numpy(dtype=float)
                    tests = [
                        paired_one_sided(*((b, a) if higher else (a, b)))
                        for a, b in zip(ours.to_numpy(dtype=float), theirs.to_numpy(dtype=float))
                    ]
                    p_claimed = np.array([x["p_claimed"] for x in tests], dtype=float)
                    p_opposite = np.array([x["p_opposite"] for x in tests], dtype=float)
                    scope = f"{exp} {ctx.label(better)} vs {ctx.label(worse)}"
                    if not np.any(np.isfinite(p_claimed)):
                        reason = f"no checkpoint t ≥ {start:g} with a defined paired test"
                        rows.append(
                            {
                                "scope": scope,
                                "verdict": INCONCLUSIVE,
                                "headline": reason,
                                "statistic": reason,
                                "p_claimed": np.nan,
                                "p_opposite": np.nan,
                            }
                        )
                        continue
                    m = len(tests)
                    p_claimed, p_opposite = (
                        np.nan_to_num(p_claimed, nan=1.0),
                        np.nan_to_num(p_opposite, nan=1.0),
                    )
                    weakest, strongest = int(np.argmax(p_claimed)), int(np.argmin(p_opposite))
                    test = {
                        "p_claimed": float(p_claimed[weakest]),
                        "p_opposite": float(min(1.0, p_opposite[strongest] * m)),
                    }
                    above = int(np.sum(p_claimed < ctx.alpha))
                    side = "above" if higher else "below"
                    rows.append(
                        {
                            "scope": scope,
                            "verdict": paired_verdict(test, ctx.alpha),
                            "headline": (
                                f"{side} at {above}/{m} checkpoints; weakest t = "
                                f"{t[weakest]:.3g}, the opposite order strongest at t = "
                                f"{t[strongest]:.3g}"
                            ),
                            "statistic": (
                                f"{claim['metric']} of {ctx.label(better)} {side} "
                                f"{ctx.label(worse)}'s, paired one-sided t-test at each of "
                                f"{m} checkpoints t ≥ {start:g}: significant at α at "
                                f"{above}; weakest at t = {t[weakest]:.3g} (p = "
                                f"{p_claimed[weakest]:.2g}, mean difference "
                                f"{tests[weakest]['mean_diff']:.4g}); opposite order "
                                f"strongest at t = {t[strongest]:.3g} (p = "
                                f"{p_opposite[strongest]:.2g}, × {m} checkpoints = "
                                f"{test['p_opposite']:.2g})"
                            ),
                            **test,
                        }
                    )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """``better`` on the claimed side of every ``worse`` by a factor 3 at every checkpoint,
        or on the other side."""
        higher = claim.get("direction", "lower") == "higher"
        algs = claim["better"] + claim["worse"]
        s = scale(ctx, claim["experiments"], algs, claim["metric"], headroom=3)
        out = {}
        for side, good in (("favourable", True), ("unfavourable", False)):
            big = set(claim["better"]) if good == higher else set(claim["worse"])
            out[side] = with_curves(
                ctx, claim["metric"], {a: linear(s * (3 if a in big else 1)) for a in algs}
            )
        return out
