"""core.build.timing.fastest: runs the callable the asked number of times and hands back its last
result; the time it reports is never checked (tests do not time anything)."""

import pytest

from timebandits.core.build.timing import fastest


def test_fastest_runs_every_repeat_and_returns_the_last_result():
    calls = []
    seconds, out = fastest(lambda: calls.append(len(calls)) or len(calls), 3)
    assert calls == [0, 1, 2] and out == 3 and seconds >= 0.0


def test_fastest_needs_a_repeat():
    with pytest.raises(ValueError, match="repeats must be at least 1, got 0"):
        fastest(lambda: None, 0)
