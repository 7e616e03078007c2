"""timebandits: replication of five papers on bandits with time or resources.

The compiled kernels (``core.sim.jit``) are cached on disk by numba, in a directory named by a
digest of the package's whole source (``core.sim.jit.use_source_keyed_cache``).
"""
