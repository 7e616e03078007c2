"""Paper 004: "Stochastic Bandits with Delay-Dependent Payoffs" (Cella, Cesa-Bianchi; AISTATS
2020). Spec: shared/specs/004-delay-dependent-payoffs.md."""
