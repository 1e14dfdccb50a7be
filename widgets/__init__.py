"""Shared widget library of the combat rulebook.

Layers: generic mechanics (``dice``, ``errors``) → per-system rules (``trench_crusade``, …)
→ views (``widgets.views``: Bokeh for the static site, ipywidgets for Jupyter).
"""
