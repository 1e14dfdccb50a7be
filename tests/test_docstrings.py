"""Every public function of the library shows a runnable example in its docstring (the
examples themselves run under ``--doctest-modules``, see the README's test command)."""
from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import widgets

MODULES = sorted(m.name for m in pkgutil.iter_modules(widgets.__path__) if not m.ispkg)


def test_every_library_module_is_listed():
    assert {"dice", "notation", "ranges", "grid", "damage", "trench_crusade", "bfrpg", "pf2e",
            "underface", "hunters_moon"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_every_public_function_has_an_example(name):
    module = importlib.import_module(f"widgets.{name}")
    with_examples = {t.name.split(".")[-1] for t in doctest.DocTestFinder().find(module)
                     if t.examples}
    public = [n for n, obj in vars(module).items()
              if not n.startswith("_") and inspect.isfunction(obj) and obj.__module__ == module.__name__]
    classes = [n for n, obj in vars(module).items()
               if not n.startswith("_") and inspect.isclass(obj) and obj.__module__ == module.__name__]
    assert public or classes      # widgets.commands holds classes only (their methods have examples)
    assert [n for n in public if n not in with_examples] == []
