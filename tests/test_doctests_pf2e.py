"""Run the doctests of the PF2e and range modules; every public function must have one."""
from __future__ import annotations

import doctest
import inspect

import pytest

import widgets.pf2e
import widgets.ranges


@pytest.mark.parametrize("module", [widgets.pf2e, widgets.ranges])
def test_doctests_pass(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("module", [widgets.pf2e, widgets.ranges])
def test_every_public_function_has_an_example(module):
    finder = doctest.DocTestFinder()
    with_examples = {t.name.split(".")[-1] for t in finder.find(module) if t.examples}
    public = [name for name, obj in vars(module).items()
              if not name.startswith("_") and inspect.isfunction(obj)
              and obj.__module__ == module.__name__]
    assert public
    assert [name for name in public if name not in with_examples] == []
