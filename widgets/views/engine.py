"""The in-page engine's entry point: the same library answering in the reader's browser.

The page script sends a widget's :attr:`~widgets.views.live.LiveWidget.origin` and the raw
control values (typed text, menu keys, switch states) as JSON; :func:`answer` rebuilds that
widget once, calls its pure ``compute`` and returns what the page shows, in the same form as
the page's table of first answers. Nothing here imports Bokeh, ipywidgets or numpy.
"""
from __future__ import annotations

import importlib
import json

from .live import LiveWidget, rebuild

_WIDGETS: dict[str, LiveWidget] = {}

#: The modules whose widget factories the engine rebuilds (every ``widgets.views`` module with
#: a :func:`~widgets.views.live.widget_factory` whose widgets run in the page; the appendix on
#: the odds' math needs sympy and ships every answer in its page instead).
ENGINE_MODULES = ("generic", "trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon",
                  "dice_calc", "worked", "fights", "turn")


def warm_modules() -> list[str]:
    """What :func:`warm` imports, in order: every module the engine answers for, then the dice
    bots' commands (else read at the first dice command). The in-page engine imports them one
    at a time after its first answers, so that a question asked meanwhile waits for one module.

    >>> warm_modules()[0], warm_modules()[-1]
    ('widgets.views.generic', 'widgets.commands')
    """
    return [f"widgets.views.{name}" for name in ENGINE_MODULES] + ["widgets.commands"]


def warm() -> int:
    """Import every module the engine answers for (the in-page engine imports them one at a
    time once it has answered the questions that waited for it); the number of modules.

    >>> warm() == len(ENGINE_MODULES)
    True
    """
    for name in warm_modules():
        importlib.import_module(name)
    return len(ENGINE_MODULES)


def exercise() -> int:
    """Answer, as the page's engine would, every declared widget's first moves (its defaults and
    each offered value of one control, a text control's examples), a value beyond each slider
    and a refused one: what the site's build runs in Pyodide to learn which standard-library
    modules the engine needs (book/_ext/vendor_assets.py packs only those); the number of answers.

    >>> exercise() > 500
    True
    """
    from .live import _FACTORIES
    warm()
    # an exact answer of thousands of digits (150D6!): newer Pythons (the engine's) convert and
    # divide such integers in the standard library's _pylong module, which no first move reaches
    big = 7 ** 4500
    int(str(big)), divmod(big, 3 ** 2000)
    try:
        import _pylong   # CPython 3.12 and later
    except ImportError:
        pass
    else:
        _pylong.int_to_decimal_string(big), _pylong.int_from_string(str(big)), _pylong.int_divmod(big, 3 ** 2000)
    count = 0
    for factory in list(_FACTORIES.values()):
        widget = factory()
        for values in widget.first_moves()[0]:
            raw = {c.name: c.key(values[c.name]) for c in widget.controls}
            widget.answer(raw)
            count += 1
            for c in widget.controls:
                if c.kind == "number" and raw == {d.name: d.key(d.default) for d in widget.controls}:
                    for typed in (str(c.options[-1] * 3 + 7), "일곱", "-1"):
                        widget.answer({**raw, c.name: typed})
                        count += 1
    return count


def answer(request: str) -> str:
    """JSON request ``{"origin": …, "values": {name: raw}}`` → JSON answer (an entry with
    ``h`` and, for plots, ``x y c t``; or ``{"error": Korean message}``).

    >>> from widgets.views.generic import dice_pool_widget
    >>> origin = dice_pool_widget().origin
    >>> reply = answer(json.dumps({"origin": origin,
    ...                            "values": {"count": "40", "sides": "6", "keep": "high2"}}))
    >>> json.loads(reply)["t"][-1].endswith("(99.39%)")
    True
    """
    try:
        req = json.loads(request)
        origin, values = req["origin"], req["values"]
        if not isinstance(values, dict):
            raise ValueError("values must be an object")
        key = json.dumps(origin, sort_keys=True)
        widget = _WIDGETS.get(key)
        if widget is None:
            widget = _WIDGETS[key] = rebuild(origin)
        result = widget.answer(values)
    except (KeyError, TypeError, ValueError, ImportError, AttributeError) as err:
        result = {"error": f"요청을 처리할 수 없습니다 ({type(err).__name__})."}
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))
