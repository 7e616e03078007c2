"""The numbers of a B2DEP instance (paper §3) read exactly: every input number as a ``Fraction``
(floats through their decimal string, strings such as "13/15" parsed directly), the f table from
its config entry, and the checks of the means' and delays' shapes."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def exact(value, name: str) -> Fraction:
    """``value`` as a Fraction: floats and ints through their decimal string, strings parsed
    ("13/15", "0.3"). Raises ValueError naming ``name`` for anything non-finite or unparsable."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int, float, np.integer, np.floating)):
        raise ValueError(f"{name}: expected a number or a string like '13/15', got {value!r}")
    try:
        return Fraction(value.strip() if isinstance(value, str) else str(value))
    except (ValueError, ZeroDivisionError) as error:
        raise ValueError(f"{name}: cannot read {value!r} as a finite number ({error})") from None


def f_table_from_config(spec, length: int) -> list[Fraction]:
    """The f table f(1..) from a config entry: ``{kind: geometric, base: b}`` gives
    f(τ) = b^τ for τ = 1..``length``; ``{kind: table, values: [...]}`` gives the values as listed
    (the constant tail extends them: that is the table's definition of f beyond it). Raises
    ValueError naming the offending key."""
    if not isinstance(spec, dict):
        raise ValueError(f"f: expected a mapping with a 'kind' key, got {spec!r}")
    kind = spec.get("kind")
    if kind == "geometric":
        if "base" not in spec:
            raise ValueError("f.base: missing (f.kind is 'geometric')")
        base = exact(spec["base"], "f.base")
        if not 0 <= base <= 1:
            raise ValueError(f"f.base: must lie in [0, 1], got {spec['base']!r}")
        return [base**tau for tau in range(1, max(int(length), 1) + 1)]
    if kind == "table":
        values = spec.get("values")
        if not isinstance(values, (list, tuple)) or not values:
            raise ValueError(
                f"f.values: expected a non-empty list of f(1), f(2), ..., got {values!r}"
            )
        return [exact(v, f"f.values[{i}]") for i, v in enumerate(values)]
    raise ValueError(f"f.kind: unknown kind {kind!r} (expected 'geometric' or 'table')")


def as_list(values, name: str) -> list:
    array = np.asarray(values, dtype=object)
    if array.ndim != 1:
        raise ValueError(f"{name}: expected a flat list, got {values!r}")
    return list(array)


def delays_list(values) -> list[int]:
    delays = as_list(values, "delays")
    if any(
        isinstance(d, bool)
        or not isinstance(d, (int, np.integer, float, np.floating))
        or not math.isfinite(d)
        or d != int(d)
        or d < 1
        for d in delays
    ):
        raise ValueError(f"delays: must be integers >= 1, got {delays}")
    return [int(d) for d in delays]


def show_fractions(values: list[Fraction]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"
