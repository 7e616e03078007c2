"""Paper 003: "Continuous Time Bandits With Sampling Costs" (Vaze & Hanawal, arXiv 2107.05289)."""
