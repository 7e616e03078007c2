"""Paper 001: "Multi-Armed Bandits with Censored Consumption of Resources" (Bengs, Hüllermeier).
Spec: shared/specs/001-censored-resources.md."""
