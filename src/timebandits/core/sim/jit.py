"""numba's ``njit``, applied when a compiled function is first called, so that importing a module
that defines kernels does not import numba (about a second of start-up).

A job that only analyses (a figure, a table, a summary, the claims) imports model and theory
modules for their exact quantities, and those modules also hold the kernels a simulation
compiles; with ``from timebandits.core.sim.jit import njit`` such a job never imports numba.

``njit(**options)`` returns a :class:`Kernel`: a stand-in that keeps the Python function and
numba's options. The first call of any kernel imports numba, compiles every kernel defined so
far with ``numba.njit(**options)`` (lazily, as numba does: machine code is made per signature
at its first call, and ``cache=True`` reads numba's cache) and puts each dispatcher in place of
its stand-in in every loaded module (the kernel's own, those that imported it, a test's), so
that compiled code calls (and inlines) compiled code exactly as if numba had been imported up
front: the same machine code, the same bits.

numba invalidates a cached function only when its own file changes -- not when a function it
calls (or inlines) from another module does. So the cache lives in a directory named by a digest
of the package's whole source: after any edit, every kernel compiles afresh instead of running
stale code. The base directory is the package's ``__pycache__/numba`` unless
``TIMEBANDITS_NUMBA_CACHE`` names another.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]  # the timebandits package

_PENDING: list["Kernel"] = []
_CACHE: dict[str, str] = {}  # the cache directory this process set
_FORBIDDEN: dict[str, str] = {}  # the job that must not compile (forbid_kernels)


class Kernel:
    """A function to be compiled by ``numba.njit(**options)`` at its first call (module
    docstring); calling it calls the dispatcher."""

    def __init__(self, function, options: dict, intrinsic: bool = False):
        self.py_func = function
        self.options = options
        self.intrinsic = intrinsic
        self.dispatcher = None
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__
        self.__module__ = function.__module__
        self.__wrapped__ = function
        _PENDING.append(self)

    def __call__(self, *args, **kwargs):
        if self.dispatcher is None:
            compile_pending(self)
        return self.dispatcher(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<kernel {self.__module__}.{self.__qualname__} (numba.njit at first call)>"


def njit(function=None, **options):
    """``numba.njit`` with the same options (``cache``, ``inline``, …), deferred to the first
    call of any kernel; usable bare (``@njit``) or with options (``@njit(cache=True)``)."""
    if function is not None:
        return Kernel(function, options)
    return lambda f: Kernel(f, options)


def source_digest(package: Path = PACKAGE, files: list[Path] | None = None) -> str:
    """16 hex digits of SHA-256 over ``files`` (by default the package's ``.py`` files): their
    paths within the package and their bytes, sorted."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py") if files is None else files):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def use_source_keyed_cache() -> str:
    """Point numba's cache at ``<base>/<source_digest>`` (module docstring); returns it."""
    base = os.environ.get("TIMEBANDITS_NUMBA_CACHE") or str(PACKAGE / "__pycache__" / "numba")
    cache = os.path.join(base, source_digest())
    os.environ["NUMBA_CACHE_DIR"] = cache
    if "numba" in sys.modules:  # numba read its config already: set it where the locator looks
        sys.modules["numba"].config.CACHE_DIR = cache
    return cache


def intrinsic(function):
    """``numba.core.extending.intrinsic``, deferred like :func:`njit` (an intrinsic is called only
    from compiled code; its typing function imports what it needs from numba and llvmlite)."""
    return Kernel(function, {}, intrinsic=True)


def forbid_kernels(job: str) -> None:
    """Make calling a kernel in this process an error: a ``job`` that does not simulate (a
    figure, a summary) never imports numba, nor hides a simulation."""
    _FORBIDDEN["job"] = job


def compile_pending(called: Kernel | None = None) -> None:
    """Hand every kernel defined so far to numba and bind the dispatchers in their place in
    every loaded module (module docstring); ``called`` is the kernel whose call asked for it."""
    if _FORBIDDEN:
        name = f" {called.__module__}.{called.__qualname__}" if called is not None else ""
        raise RuntimeError(
            f"a {_FORBIDDEN['job']} job does not simulate, but called the compiled "
            f"kernel{name}: compute it in the simulation or with numpy"
        )
    if "dir" not in _CACHE or os.environ.get("NUMBA_CACHE_DIR") != _CACHE["dir"]:
        _CACHE["dir"] = use_source_keyed_cache()
    import numba
    from numba.core.extending import intrinsic as numba_intrinsic
    from numba.core.typing.typeof import typeof_impl

    if Kernel not in typeof_impl.registry:
        # a stand-in held elsewhere (a list, an argument) types as its dispatcher
        typeof_impl.register(Kernel)(lambda kernel, c: numba.typeof(kernel.dispatcher))

    while _PENDING:
        kernel = _PENDING.pop()
        make = numba_intrinsic if kernel.intrinsic else numba.njit(**kernel.options)
        kernel.dispatcher = make(kernel.py_func)
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if namespace is None:
            continue
        for attribute, value in list(namespace.items()):
            if isinstance(value, Kernel):
                namespace[attribute] = value.dispatcher
