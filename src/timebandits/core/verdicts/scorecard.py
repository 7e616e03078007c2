"""The scorecard (``results/scorecard.csv``): one row per paper and scope counting its claims by
the kind of evidence that decides them and by verdict (DESIGN.md, "Claims and bounds").

Scopes are counted apart: the paper's claims at the paper's settings, our extensions
(sensitivity runs, extra experiments) and errata (statements of the paper shown false, where
"not reproduced" is the expected outcome). Statistical tests are counted as reproduced / not
reproduced / inconclusive; exact computations (closed forms, enumeration, Karp) apart, as holding
or failing; claims that cannot be checked apart again. ``undecidable`` counts the claims that, as
configured, cannot reach "reproduced" or cannot reach "not reproduced"
(core/verdicts/decidability.py). Each paper's verdicts come from ``results/claims/<paper>.csv``.
"""

from __future__ import annotations

import pandas as pd

from timebandits.core.verdicts.vocabulary import (
    EVIDENCE,
    EXACT,
    INCONCLUSIVE,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    SCOPES,
    STATISTICAL,
    SUMMARY_COLUMNS,
    VERDICTS,
)

COLUMNS = [
    "paper",
    "scope",
    "claims",
    "reproduced",
    "not_reproduced",
    "inconclusive",
    "exact",
    "exact_holds",
    "exact_fails",
    "not_checkable",
    "undecidable",
]


def read_claims(path, paper: dict) -> pd.DataFrame:
    """A paper's claims table (``results/claims/<paper>.csv``), refused in one line unless it is
    whole and consistent with the paper file: every column; one row per configured claim, in the
    config's order, with its scope (a table cut at a row boundary, or of another paper, is
    refused); known verdicts and evidence; and no "reproduced" for a claim that as configured
    could not reach it or could not have been refuted. Nothing half-written is shown."""
    frame = pd.read_csv(path, keep_default_na=False)
    missing = [c for c in SUMMARY_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing columns {missing}; rebuild it")
    expected = [(c["id"], c["scope"]) for c in paper["claims"]]
    found = list(zip(frame["claim"], frame["scope"]))
    if found != expected:
        lost = [c for c, _ in expected if c not in set(frame["claim"])]
        raise ValueError(
            f"{path}: holds {len(found)} claims, the paper file {len(expected)}"
            + (f" (missing {', '.join(lost[:5])})" if lost else " (in another order or scope)")
            + "; rebuild it"
        )
    unknown = (set(frame["verdict"]) - set(VERDICTS)) | (set(frame["evidence"]) - set(EVIDENCE))
    if unknown:
        raise ValueError(
            f"{path}: unknown verdict or evidence values {sorted(unknown)}; rebuild it"
        )
    reachable = frame["can_reproduce"].astype(str).eq("True") & frame["can_refute"].astype(str).eq(
        "True"
    )
    impossible = frame[(frame["verdict"] == REPRODUCED) & ~reachable]
    if not impossible.empty:
        raise ValueError(
            f"{path}: {', '.join(impossible['claim'])} reproduced although as "
            f"configured it could not reach both verdicts; rebuild it"
        )
    for column in ("can_reproduce", "can_refute", "fragile"):
        frame[column] = frame[column].astype(str).eq("True")
    return frame


def scorecard(verdicts: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per paper and scope present, from each paper's verdict table ({paper key: claims
    frame}). Raises ValueError on an evidence or scope value outside ``claims.EVIDENCE`` and
    ``claims.SCOPES``, so no claim goes uncounted."""
    rows = []
    for key, frame in verdicts.items():
        unknown = (set(frame["evidence"]) - set(EVIDENCE)) | (set(frame["scope"]) - set(SCOPES))
        if unknown:
            raise ValueError(f"{key}: claims with unknown evidence or scope {sorted(unknown)}")
        for scope in SCOPES:
            claims = frame[frame["scope"] == scope]
            if claims.empty:
                continue
            tests = claims[claims["evidence"] == STATISTICAL]["verdict"]
            exact = claims[claims["evidence"] == EXACT]["verdict"]
            checkable = claims[claims["evidence"] != NOT_CHECKABLE]
            rows.append(
                {
                    "paper": key,
                    "scope": scope,
                    "claims": len(claims),
                    "reproduced": int((tests == REPRODUCED).sum()),
                    "not_reproduced": int((tests == NOT_REPRODUCED).sum()),
                    "inconclusive": int((tests == INCONCLUSIVE).sum()),
                    "exact": len(exact),
                    "exact_holds": int((exact == REPRODUCED).sum()),
                    "exact_fails": int((exact == NOT_REPRODUCED).sum()),
                    "not_checkable": int((claims["evidence"] == NOT_CHECKABLE).sum()),
                    "undecidable": int(
                        (
                            ~(
                                checkable["can_reproduce"].astype(bool)
                                & checkable["can_refute"].astype(bool)
                            )
                        ).sum()
                    ),
                }
            )
    return pd.DataFrame(rows, columns=COLUMNS)
