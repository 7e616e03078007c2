"""The scorecard (``results/scorecard.csv``): one row per paper and scope counting its claims by
the kind of evidence that decides them and by verdict (DESIGN.md, "Claims and bounds").

Scopes are counted apart: the paper's claims at the paper's settings, our extensions
(sensitivity runs, extra experiments) and errata (statements of the paper shown false, where
"not reproduced" is the expected outcome). Statistical tests are counted as reproduced / not
reproduced / inconclusive; exact computations (closed forms, enumeration, Karp) apart, as holding
or failing; claims that cannot be checked apart again. ``undecidable`` counts the claims that, as
configured, cannot reach "reproduced" or cannot reach "not reproduced" (core/decidability.py).
Each paper's verdicts come from ``results/claims/<paper>.csv``.
"""

from __future__ import annotations

import pandas as pd

from .claims import (EVIDENCE, EXACT, INCONCLUSIVE, NOT_CHECKABLE, NOT_REPRODUCED, REPRODUCED,
                     SCOPES, STATISTICAL)

COLUMNS = ["paper", "scope", "claims", "reproduced", "not_reproduced", "inconclusive", "exact",
           "exact_holds", "exact_fails", "not_checkable", "undecidable"]


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
            rows.append({
                "paper": key, "scope": scope, "claims": len(claims),
                "reproduced": int((tests == REPRODUCED).sum()),
                "not_reproduced": int((tests == NOT_REPRODUCED).sum()),
                "inconclusive": int((tests == INCONCLUSIVE).sum()),
                "exact": len(exact),
                "exact_holds": int((exact == REPRODUCED).sum()),
                "exact_fails": int((exact == NOT_REPRODUCED).sum()),
                "not_checkable": int((claims["evidence"] == NOT_CHECKABLE).sum()),
                "undecidable": int((~(checkable["can_reproduce"].astype(bool)
                                      & checkable["can_refute"].astype(bool))).sum()),
            })
    return pd.DataFrame(rows, columns=COLUMNS)
