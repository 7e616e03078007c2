"""Paper 000: "A Farewell to Arms: Sequential Reward Maximization on a Budget with a Giving Up
Option" (Sharoff, Mehta, Ganti; AISTATS 2020). Spec: shared/specs/000-farewell-to-arms.md."""
