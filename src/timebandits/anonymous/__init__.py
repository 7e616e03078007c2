"""Paper 002: composite and anonymous feedback (ARS-UCB, ARS-EXP3)."""
