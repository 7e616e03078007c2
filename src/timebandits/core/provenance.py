"""The provenance table of a paper file: every value with where it comes from and why."""

from __future__ import annotations

import pandas as pd


def _value_at(entry: dict, dotted: str):
    value = entry
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def provenance_table(paper: dict) -> pd.DataFrame:
    """One row per provenance entry of every algorithm, experiment and claim:
    scope, key, value (when the key names a field), source (paper|reconstructed|assumed), why."""
    rows = []
    claims = {claim["id"]: claim for claim in paper.get("claims", [])}
    for kind, section in (("algorithm", paper["algorithms"]), ("experiment", paper["experiments"]),
                          ("claim", claims)):
        for item_id, item in section.items():
            for key, entry in (item.get("provenance") or {}).items():
                value = _value_at(item.get("params", {}) if kind == "algorithm" else item, key)
                rows.append({"scope": f"{kind} {item_id}", "key": key,
                             "value": "" if value is None else str(value),
                             "source": entry["source"], "why": entry["why"]})
    return pd.DataFrame(rows, columns=["scope", "key", "value", "source", "why"])
