"""core.sim.simulation.reuse_freed_memory: what it asks glibc's allocator for, and that it leaves
another allocator alone (timing belongs in `make benchmark`, not here)."""

import ctypes

from conftest import REPO_ROOT

from timebandits.core.build.preflight import load_paper
from timebandits.core.config import load_yaml
from timebandits.core.registry import paper_module
from timebandits.core.sim import simulation


class _Libc:
    def __init__(self):
        self.calls = []

    def mallopt(self, parameter, value):
        self.calls.append((parameter, value))
        return 1


def test_it_sets_glibcs_mmap_and_trim_thresholds(monkeypatch):
    libc = _Libc()
    monkeypatch.setattr(ctypes, "CDLL", lambda name: libc)
    simulation.reuse_freed_memory()
    # M_MMAP_THRESHOLD (-3) to 32 MiB, M_TRIM_THRESHOLD (-1) to 1 GiB
    assert sorted(libc.calls) == [(-3, 32 * 2**20), (-1, 2**30)]


def test_without_mallopt_it_does_nothing(monkeypatch):
    monkeypatch.setattr(ctypes, "CDLL", lambda name: object())
    simulation.reuse_freed_memory()  # no AttributeError


def test_a_simulate_job_sets_it_before_its_first_repetition(monkeypatch):
    config = load_yaml(REPO_ROOT / "config" / "config.yaml")
    config["scale"] = "smoke"
    paper = load_paper("delaydep")
    events = []
    monkeypatch.setattr(simulation, "reuse_freed_memory", lambda: events.append("reuse"))
    module = paper_module("delaydep", "simulation")
    real = module.simulate_repetition
    monkeypatch.setattr(
        module, "simulate_repetition", lambda *args: events.append("repetition") or real(*args)
    )
    simulation.run_chunk(config, paper, "fig2", 0, 1, log=lambda message: None)
    assert events[0] == "reuse" and "repetition" in events[1:]
