"""Shared widget library of the combat rulebook.

Layers, bottom to top:

- generic mechanics: ``dice`` (exact distributions), ``notation`` (dice-bot notation such as
  ``4D6KH3`` or ``1D100<=45``: the one reader of typed dice expressions, exact odds), ``ranges``
  (range bands), ``grid`` (square grid movement, sight, facing), ``damage`` (damage expressions:
  the notation plus the DB, armor, HP), ``fight`` (whole fights: exact absorbing chains stepped
  round by round, ``FightOdds``), ``errors`` (the
  one input contract: validators, Korean particles, rounding), ``limits`` (the size limits every
  module shares), ``datafiles`` (rules tables shipped as CSV/JSON in ``widgets/data``); pure
  Python, no numpy, every call answered within about a second or refused at once;
- per-system rules and data: ``trench_crusade``, ``bfrpg``, ``pf2e``, ``underface``,
  ``hunters_moon`` (each names its source and marks supplementary rules and assumptions);
- views: ``widgets.views`` (display only: Bokeh + CustomJS lookups for the static site,
  ipywidgets for Jupyter), plus ``widgets/js`` (JS twins of Python algorithms, tested to agree);
- notebooks in ``book/`` only call the views and the library.

The layers are a contract (import-linter, ``pyproject.toml``; ``tests/test_layers.py``): errors,
then limits, then the generic mechanics, the games and the views, each importing only those
below it, and no import cycles.
"""
