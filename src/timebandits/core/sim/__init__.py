"""Simulation: compiled kernels and their random numbers, seeding, checkpoints, the simulation
loop and the trace files it writes. Imports only the root of core (config, registry, paths,
atomic)."""
