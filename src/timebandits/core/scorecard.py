"""The scorecard (``results/scorecard.csv``): one row per paper counting its claims by the kind of
evidence that decides them and by verdict (DESIGN.md, "Claims and bounds").

Statistical tests are counted as reproduced / not reproduced / inconclusive; exact computations
(closed forms, enumeration, Karp) apart, as holding or failing; claims that cannot be checked
apart again. Each paper's verdicts come from ``results/claims/<paper>.csv``.
"""

from __future__ import annotations

import pandas as pd

from .claims import (EVIDENCE, EXACT, INCONCLUSIVE, NOT_CHECKABLE, NOT_REPRODUCED, REPRODUCED,
                     STATISTICAL)

COLUMNS = ["paper", "claims", "reproduced", "not_reproduced", "inconclusive", "exact",
           "exact_holds", "exact_fails", "not_checkable"]


def scorecard(verdicts: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per paper from its verdict table ({paper key: claims frame}). Raises ValueError
    on an evidence value outside ``claims.EVIDENCE``, so no claim goes uncounted."""
    rows = []
    for key, frame in verdicts.items():
        unknown = set(frame["evidence"]) - set(EVIDENCE)
        if unknown:
            raise ValueError(f"{key}: claims with unknown evidence {sorted(unknown)}")
        tests = frame[frame["evidence"] == STATISTICAL]["verdict"]
        exact = frame[frame["evidence"] == EXACT]["verdict"]
        rows.append({
            "paper": key, "claims": len(frame),
            "reproduced": int((tests == REPRODUCED).sum()),
            "not_reproduced": int((tests == NOT_REPRODUCED).sum()),
            "inconclusive": int((tests == INCONCLUSIVE).sum()),
            "exact": len(exact),
            "exact_holds": int((exact == REPRODUCED).sum()),
            "exact_fails": int((exact == NOT_REPRODUCED).sum()),
            "not_checkable": int((frame["evidence"] == NOT_CHECKABLE).sum()),
        })
    return pd.DataFrame(rows, columns=COLUMNS)
