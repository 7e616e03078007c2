"""Machinery shared by every paper: config, seeding, RNG, checkpoints, traces, statistics,
claims, plotting and notebooks. Nothing here knows about a particular paper."""
