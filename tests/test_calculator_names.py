"""「이 장의 계산기」 names each widget by the question it answers (issue 29), no two alike."""
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import calculators  # noqa: E402

CHAPTERS = {"uf": "underface", "hm": "hunters_moon", "bf": "bfrpg"}


def shown_widgets(chapter: str) -> list[tuple[str, str]]:
    """(uid, title) of every widget the chapter's stored outputs show, in page order."""
    nb = json.loads((ROOT / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    html = "".join("".join(o.get("data", {}).get("text/html", "")) for c in nb["cells"]
                   for o in c.get("outputs", []))
    return [(uid, title) for uid, title in calculators._WIDGET.findall(html)]


@pytest.mark.parametrize("prefix, chapter", sorted(CHAPTERS.items()))
def test_every_widget_goes_by_a_question_and_no_two_names_are_alike(prefix, chapter):
    widgets = shown_widgets(chapter)
    named = {uid for uid in calculators.QUESTIONS if uid.startswith(prefix + "-")}
    assert named <= {uid for uid, _ in widgets}, named - {uid for uid, _ in widgets}
    names = [calculators.calculator_name(uid, title, "") for uid, title in widgets]
    assert len(names) == len(set(names)), names
    for uid, _ in widgets:
        if uid in named:
            assert calculators.QUESTIONS[uid].endswith("?"), uid
    assert not re.search(r"[A-Za-z_]{3,}", " ".join(names))
