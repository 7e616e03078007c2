"""The examples in docstrings (``>>>``) are run, so that none goes stale: every module of the
package that has one is found and checked with doctest."""

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "timebandits"
WITH_EXAMPLES = sorted(
    ".".join(("timebandits", *path.relative_to(PACKAGE).with_suffix("").parts))
    for path in PACKAGE.rglob("*.py")
    if ">>> " in path.read_text()
)


def test_the_modules_with_examples_are_found():
    assert "timebandits.core.sim.checkpoints" in WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_examples_in_a_module_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
