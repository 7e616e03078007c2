"""A claim kind's check as data (DESIGN.md, "Claims and bounds"): the keys a claim needs and its
thresholds (``keys``, ``thresholds``: core/verdicts/thresholds.py), the experiments it reads and
the algorithms each of them must run (``runs``, ``also_runs``), the values a key may take
(``choices``), and whether it reads a ``sign`` or a ``direction``. :class:`DeclaredCheck` makes the
one ``check`` these say; a kind with more to check (a value from a list, a record its experiments
must keep) writes its own and calls this one first."""

from __future__ import annotations

from timebandits.core.verdicts.context import check_direction, check_run, check_sign
from timebandits.core.verdicts.thresholds import check_keys


def ids(value) -> list:
    """The ids a claim key holds: one, or a list (a mapping: its keys)."""
    return list(value) if isinstance(value, (list, tuple, dict)) else [value]


class DeclaredCheck:
    """The check of a claim kind that declares it: ``runs`` = (the key of its experiments, the
    keys of the algorithms each experiment must run, ...); ``also_runs``: algorithms every
    experiment must run besides (e.g. the oracle); ``choices``: {key: the values it may take};
    ``reads_sign``, ``reads_direction``."""

    runs: tuple[str, ...] = ()
    also_runs: tuple[str, ...] = ()
    choices: dict[str, tuple] = {}
    reads_sign = False
    reads_direction = False

    @classmethod
    def check(cls, claim: dict, paper: dict) -> None:
        """Raise ValueError on a malformed claim: a key or threshold missing or out of range, an
        unknown experiment, an algorithm an experiment does not run, a value not among its
        choices, a bad sign or direction."""
        check_keys(cls, claim)
        if cls.reads_sign:
            check_sign(claim)
        if cls.runs:
            experiments, *algorithm_keys = cls.runs
            algorithms = [a for key in algorithm_keys for a in ids(claim[key])]
            check_run(paper, ids(claim[experiments]), [*algorithms, *cls.also_runs])
        for key, allowed in cls.choices.items():
            if key in claim and claim[key] not in allowed:
                raise ValueError(f"{key} must be one of {allowed}, got {claim[key]!r}")
        if cls.reads_direction:
            check_direction(claim)
