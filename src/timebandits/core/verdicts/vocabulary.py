"""The words of a verdict (DESIGN.md, "Claims and bounds"): the four verdicts, the evidence that
decides a claim or a sub-check, a sub-check's role in its claim, a claim's scope, and the columns
of the claims tables."""

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_CHECKABLE = "not checkable"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_CHECKABLE)

# The kind of evidence that decides a claim (or a sub-check).
STATISTICAL = "statistical test"
EXACT = "exact computation"
EVIDENCE = (STATISTICAL, EXACT, NOT_CHECKABLE)

# The role of a sub-check in its claim.
DECIDES = "decides"
SUPPORTS = "supports"

SUMMARY_COLUMNS = [
    "claim",
    "scope",
    "where",
    "quote",
    "tested_as",
    "kind",
    "evidence",
    "verdict",
    "decided_by",
    "can_reproduce",
    "can_refute",
    "decidability",
    "thresholds",
    "multiplicity",
    "flips_at",
    "fragile",
    "runs_to_decide",
    "parent",
    "cause",
    "cause_line",
    "variants",
]

# The scope of a claim: the paper's claim at the paper's setting, our sensitivity runs and
# extra experiments, or a statement of the paper shown false ("not reproduced" confirms it).
PAPER, EXTENSION, ERRATUM = "paper", "extension", "erratum"
SCOPES = (PAPER, EXTENSION, ERRATUM)
DETAIL_COLUMNS = ["claim", "scope", "evidence", "role", "verdict", "headline", "statistic"]
