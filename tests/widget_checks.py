"""Checks every chapter's view tests share."""
from __future__ import annotations

from widgets.views.live import MAX_STATIC_ENTRIES, LiveWidget

#: What LiveWidget.shown() prints for an error that is not a rule message (a bug in a view).
UNEXPECTED = "입력을 처리할 수 없습니다"


def check_static_table(widget: LiveWidget, rule_messages_allowed: bool = False,
                       bars_total: int = 1) -> dict:
    """Every combination of options has an entry; no entry hides a view bug; plotted
    probabilities sum to ``bars_total`` (the number of distributions plotted side by side). With ``rule_messages_allowed`` an entry may show the library's
    Korean message (e.g. out of range); otherwise no entry may show any error."""
    table = widget.static_table()
    size = 1
    for c in widget.controls:
        size *= len(c.options)
    assert len(table) == size <= MAX_STATIC_ENTRIES
    for key, entry in table.items():
        assert UNEXPECTED not in entry["h"], key
        if not rule_messages_allowed:
            assert "widget-error" not in entry["h"], key
        if "y" in entry:
            assert abs(sum(entry["y"]) - bars_total) < 1e-9, key
    return table
