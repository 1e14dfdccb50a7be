"""The library's layers as a contract (import-linter, configured in ``pyproject.toml``):
errors → limits → generic mechanics (dice, notation, ranges, grid, damage, fight, datafiles) →
games → views, each layer importing only those below it, and no import cycles in any package."""
from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:      # Python 3.10
    import tomli as tomllib

import widgets

ROOT = Path(__file__).resolve().parent.parent


def contracts() -> list[dict]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def test_lint_imports_keeps_every_contract():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                          "lint_imports_command()", "--no-cache"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "2 kept, 0 broken" in out.stdout


def test_every_module_of_the_library_has_its_layer():
    layers = next(c for c in contracts() if c["type"] == "layers")["layers"]
    named = {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}
    modules = {f"widgets.{m.name}" for m in pkgutil.iter_modules(widgets.__path__)}
    assert modules == named, (sorted(modules - named), sorted(named - modules))


def test_the_cycle_contract_covers_every_package():
    acyclic = next(c for c in contracts() if c["type"] == "acyclic_siblings")
    packages = {"widgets"} | {f"widgets.{m.name}" for m in pkgutil.iter_modules(widgets.__path__) if m.ispkg}
    assert set(acyclic["ancestors"]) == packages
