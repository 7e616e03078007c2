"""Provenance: the table of a paper file (every value with where it comes from and why) and
the code revision recorded with generated data."""

from __future__ import annotations

import subprocess

import pandas as pd


def code_revision() -> dict:
    """The git commit of the working tree and whether it had uncommitted changes (None outside
    a git checkout): recorded with generated data, since code may change during a long run."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = bool(
            subprocess.run(
                ["git", "status", "--porcelain", "--untracked-files=no"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        )
        return {"git_commit": commit, "uncommitted_changes": dirty}
    except (OSError, subprocess.CalledProcessError):
        return {"git_commit": None, "uncommitted_changes": None}


def _value_at(entry: dict, dotted: str):
    value = entry
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def provenance_table(paper: dict) -> pd.DataFrame:
    """One row per provenance entry of the algorithms, experiments and claims: scope, key, value
    (when the key names a field), source (paper|reconstructed|assumed), why. Entries that agree in
    kind, key, value, source and why (e.g. the shared synthetic settings of many experiments)
    share one row, whose scope lists them all: "experiment fig4_poscorr, fig4_negcorr"."""
    rows: dict[tuple, list[str]] = {}
    claims = {claim["id"]: claim for claim in paper.get("claims", [])}
    for kind, section in (
        ("algorithm", paper["algorithms"]),
        ("experiment", paper["experiments"]),
        ("claim", claims),
    ):
        for item_id, item in section.items():
            for key, entry in (item.get("provenance") or {}).items():
                value = _value_at(item.get("params", {}) if kind == "algorithm" else item, key)
                shown = "" if value is None else str(value)
                rows.setdefault((kind, key, shown, entry["source"], entry["why"]), []).append(
                    item_id
                )
    return pd.DataFrame(
        [
            {
                "scope": f"{kind} {', '.join(ids)}",
                "key": key,
                "value": value,
                "source": source,
                "why": why,
            }
            for (kind, key, value, source, why), ids in rows.items()
        ],
        columns=["scope", "key", "value", "source", "why"],
    )
