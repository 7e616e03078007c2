"""A claim kind's thresholds as data (DESIGN.md, "Claims and bounds": firmness).

A kind lists the keys its claims need (``keys``), the other keys it reads when a claim gives them
(``optional``, e.g. ``direction``), and the numbers its verdict is measured against
(``thresholds``), each a :class:`Threshold`: its name, its default (None: the claim must give
it), which way makes the claim harder to reproduce, the values it may take, and where the default
comes from. Code reads a threshold through :func:`threshold`, so a default is written once.

:func:`check_keys` is every kind's config check: the needed keys are there, each threshold lies in
its range; :func:`check_known_keys`, run when a paper file loads, that the claim has no key its
kind does not read (a misspelt optional key would otherwise be ignored, its default used);
:func:`check_provenance`, run when a paper file loads, that every threshold a claim
gives carries its provenance (``paper``, ``assumed``, …), or the file is refused.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass

HIGHER, LOWER = "higher", "lower"

# Keys every claim may have whatever its kind (workflow/schemas/paper.schema.yaml, claims).
COMMON_KEYS = (
    "id",
    "quote",
    "tested_as",
    "where",
    "kind",
    "scope",
    "one_sided",
    "parent",
    "tests",
    "varies",
    "provenance",
)


@dataclass(frozen=True)
class Threshold:
    """One number a claim's verdict is measured against.

    ``stricter`` says which way makes the claim harder to reproduce (``higher``: a larger value
    asks more, as a ratio "much better" must exceed). ``low`` and ``high`` bound the values it may
    take, ``open_low`` / ``open_high`` whether the bound itself is excluded. ``default_source``
    says where the default comes from (``paper`` for the literal reading of the paper's words,
    e.g. "better" as a ratio of 1)."""

    name: str
    stricter: str
    default: float | None = None
    low: float = -math.inf
    high: float = math.inf
    open_low: bool = False
    open_high: bool = False
    integer: bool = False
    default_source: str = "paper"

    def admits(self, value: float) -> bool:
        above = value > self.low if self.open_low else value >= self.low
        below = value < self.high if self.open_high else value <= self.high
        return above and below and (not self.integer or float(value).is_integer())

    def domain(self) -> str:
        left = "(" if self.open_low else "["
        right = ")" if self.open_high else "]"
        return f"{left}{self.low:g}, {self.high:g}{right}" + (", whole" if self.integer else "")


def declared(kind, name: str) -> Threshold:
    for item in getattr(kind, "thresholds", ()):
        if item.name == name:
            return item
    raise KeyError(f"claim kind {kind.__name__} declares no threshold {name!r}")


def threshold(kind, claim: dict, name: str) -> float:
    """The claim's value of the kind's threshold ``name``, or its declared default."""
    item = declared(kind, name)
    value = claim.get(name, item.default)
    if value is None:
        raise ValueError(f"claim kind {claim['kind']!r} needs threshold {name!r}")
    return float(value)


def source_of(kind, claim: dict, name: str) -> str:
    """Where the claim's value of ``name`` comes from: its provenance entry, or the default's."""
    entry = (claim.get("provenance") or {}).get(name)
    return entry["source"] if entry else declared(kind, name).default_source


def defensible(claim: dict, name: str) -> tuple[float, float] | None:
    """The range the config calls as defensible as the chosen value, if it gives one."""
    entry = (claim.get("provenance") or {}).get(name) or {}
    span = entry.get("defensible")
    return (float(min(span)), float(max(span))) if span else None


def check_keys(kind, claim: dict) -> None:
    """Raise ValueError unless the claim has the kind's keys and every threshold it needs, each
    in its range."""
    missing = [k for k in getattr(kind, "keys", ()) if k not in claim]
    missing += [
        t.name for t in getattr(kind, "thresholds", ()) if t.default is None and t.name not in claim
    ]
    if missing:
        raise ValueError(f"claim kind {claim['kind']!r} needs keys {missing}")
    provenance = claim.get("provenance") or {}
    for item in getattr(kind, "thresholds", ()):
        if item.name not in claim:
            continue
        value = claim[item.name]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{item.name} must be a number, got {value!r}")
        if not item.admits(float(value)):
            raise ValueError(f"{item.name} must lie in {item.domain()}, got {value!r}")
        span = provenance.get(item.name, {}).get("defensible")
        if span is not None and not all(item.admits(float(v)) for v in span):
            raise ValueError(f"{item.name}'s defensible range {span!r} leaves {item.domain()}")


def check_provenance(kind, claim: dict) -> None:
    """Raise ValueError unless every threshold the claim gives has a provenance entry (a paper
    file's claims; checked when it loads)."""
    provenance = claim.get("provenance") or {}
    for item in getattr(kind, "thresholds", ()):
        if item.name in claim and item.name not in provenance:
            raise ValueError(
                f"threshold {item.name} = {claim[item.name]!r} needs a provenance "
                f"entry (source: paper | reconstructed | assumed, and why)"
            )


def accepted_keys(kind) -> tuple[str, ...]:
    """Every key a claim of ``kind`` may have: the common keys, then the kind's needed keys, its
    thresholds and its optional keys. Raises TypeError for a kind that does not declare them
    (``keys`` or ``thresholds``, and ``optional``): a kind declaring nothing accepts nothing."""
    if not hasattr(kind, "optional") or not (hasattr(kind, "keys") or hasattr(kind, "thresholds")):
        raise TypeError(
            f"claim kind {kind.__name__} must declare its keys: `keys` (or "
            f"`thresholds`) and `optional`"
        )
    own = [
        *getattr(kind, "keys", ()),
        *(t.name for t in getattr(kind, "thresholds", ())),
        *kind.optional,
    ]
    return tuple(dict.fromkeys([*COMMON_KEYS, *own]))


def unknown_keys(kind, claim: dict) -> list[str]:
    """The keys of ``claim`` that no claim of ``kind`` may have, in the claim's order."""
    accepted = set(accepted_keys(kind))
    return [key for key in claim if key not in accepted]


# Keys whose value is a list wherever a kind reads them (of experiments, algorithms, bounds,
# horizons, …): a single name written without brackets would be read letter by letter.
LIST_KEYS = (
    "experiments",
    "better",
    "worse",
    "against",
    "algorithms",
    "rivals",
    "pair",
    "pairs",
    "baselines",
    "bounds",
    "alphas",
    "order",
    "smaller",
    "horizons",
    "epsilons",
    "proxy_experiments",
)


def check_lists(claim: dict) -> None:
    """Raise ValueError naming a key of ``LIST_KEYS`` whose value is not a list
    (``better: wait_ucb`` for ``better: [wait_ucb]``)."""
    for key in LIST_KEYS:
        if key in claim and not isinstance(claim[key], list):
            raise ValueError(f"{key} must be a list, e.g. [{claim[key]}], got {claim[key]!r}")


def check_known_keys(kind, claim: dict) -> None:
    """Raise ValueError naming every key of the claim its kind does not read, with the closest
    accepted key where one is close (``min_raito``: did you mean ``min_ratio``?)."""
    unknown = unknown_keys(kind, claim)
    if not unknown:
        return
    accepted = accepted_keys(kind)
    named = [f"{key!r}{did_you_mean(key, accepted)}" for key in unknown]
    own = [k for k in accepted if k not in COMMON_KEYS]
    hint = (
        ""
        if all("did you mean" in n for n in named)
        else (f"; kind {claim['kind']!r} reads {own}, besides {list(COMMON_KEYS)}")
    )
    raise ValueError(f"unknown key{'s' if len(named) > 1 else ''} {', '.join(named)}{hint}")


def did_you_mean(name, known) -> str:
    """`` (did you mean 'x'?)`` with the name of ``known`` closest to ``name``, where one is close
    (``min_raito``: ``min_ratio``; not ``window``: ``kind``); else ""."""
    close = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""
