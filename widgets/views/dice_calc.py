"""주사위 계산기: one box for the notation a table already types into its dice bot.

Display only: the reading and every number come from :mod:`widgets.notation`; this module holds
the page's Korean words (the grammar, what is not supported, the examples' notes) and lays the
answer out: the exact distribution (fraction and percent, bars, "N 이상 · N 이하"), its mean,
and for a comparison the success chance.
"""
from __future__ import annotations

import html
from typing import NamedTuple

from .. import notation
from . import format as fmt
from .live import Bars, LiveWidget, Shown, text, widget_factory
from .table import Table, number_cell, strong

#: The notation, one row per feature: (how it is written, what it means).
GRAMMAR_KO: tuple[tuple[str, str], ...] = (
    ("2D6, D20", "주사위 개수와 면 수. 개수를 빼면 1개입니다(D20 = 1D20)."),
    ("D%, 1D100", "백분위 주사위(1부터 100까지)."),
    ("2D6+1D4-1", "주사위와 정수를 더하고 뺍니다."),
    ("4D6KH3, 2D20KL1", "높은(KH) 또는 낮은(KL) 주사위를 그 개수만큼 남깁니다. 개수를 빼면 1개, K만 쓰면 KH입니다."),
    ("4D6DL1, 4D6DH1", "낮은(DL) 또는 높은(DH) 주사위를 그 개수만큼 버립니다(4D6DL1 = 4D6KH3)."),
    ("1D6÷2, 1D6/2, (1D6+1D4)/2",
     "나눈 뒤 올림합니다(언더페이스 방식). 주사위 항이나 괄호로 묶은 식에 한 번 씁니다. "
     "BCDice의 /는 버림이라 값이 다를 수 있습니다."),
    ("1D100<=45, 3D6>=10, 2D6+3>9, 1D20=20",
     "끝에 비교를 하나 붙이면 합계가 그 조건을 만족할 확률(성공)과 아닐 확률(실패)을 셉니다. "
     "쓸 수 있는 비교는 >=, <=, >, <, = 입니다."),
    ("１Ｄ６＋１, ≥, ≤, −", "대문자·소문자, 띄어쓰기, 전각 문자, ≥·≤·− 기호를 가리지 않고 읽습니다."),
)

#: What the calculator does not compute (each is refused with a message naming it).
UNSUPPORTED_KO = (
    "지원하지 않는 표기: 폭발 주사위(!, x), 다시 굴리기(r, ro, BCDice의 R 주사위), "
    "주사위마다 성공 세기(BCDice의 B 주사위, Foundry의 cs·cf), 최솟값·최댓값 바꾸기(min, max), "
    "정렬(sa, sd), BCDice의 U 주사위, D66, 페이트 주사위(dF), 게임 전용 명령(CC, CHOICE 등), "
    "비밀 굴림(S), 곱하기(*, ×), 거듭제곱(^), 같지 않음 비교(<>, !=), 반올림(/2R), 소수, "
    "묶음 굴림이나 꼬리표([ ], { }), 캐릭터 값 참조(@), 반복 굴림(#), 여러 식을 한 번에(쉼표), "
    "설명 글. 이런 표기를 넣으면 어느 글자의 무엇을 지원하지 않는지 알려 줍니다. 비교는 BCDice처럼 "
    "합계와 합니다(Roll20의 3d6>4처럼 주사위마다 세지 않습니다). 나누기는 언제나 올림입니다"
    "(BCDice의 /는 버림)."
)

GAME_KO = {"trench_crusade": "트렌치 크루세이드", "bfrpg": "베이식 판타지", "pf2e": "패스파인더 2판",
           "underface": "언더페이스", "hunters_moon": "헌터즈 문"}


class Example(NamedTuple):
    """A roll a GM of one of the book's games would type, with what it asks."""

    game: str
    text: str
    note_ko: str


#: The library's examples (:data:`widgets.notation.EXAMPLES`) with what each one asks.
_NOTES = {
    "4D6KH2": "+2 DICE 성공 굴림: 주사위 4개 중 높은 2개",
    "1d20+3>=15": "명중 보너스 +3으로 AC 15를 맞힐 확률",
    "1d20+9>=25": "공격 +9로 AC 25 이상(성공 이상). 대성공·대실패 단계는 패스파인더 장의 계산기로 보세요",
    "1D8+1D4": "1D8 무기에 DB +1D4를 더한 피해",
    "1D6÷2": "절반 피해(1D6÷2, 올림)",
    "1D100<=45": "기능 45%로 성공할 확률",
    "2D6+3>=9": "2D6 + 3으로 목표치 9 이상",
}
EXAMPLES: tuple[Example, ...] = tuple(Example(game, roll, _NOTES[roll])
                                      for game, roll in notation.EXAMPLES)


def _band(comparison):
    def band_of(total: int) -> str:
        if comparison is None:
            return "neutral"
        return "success" if comparison.holds(total) else "failure"
    return band_of


@widget_factory
def dice_calculator_widget(uid: str = "dice-calc", default: str = "2D6+3") -> LiveWidget:
    """The calculator: one text box; the answer is the library's exact distribution.

    >>> w = dice_calculator_widget()
    >>> "성공" in w.answer({"expr": "3D6>=10"})["h"], w.answer({"expr": "3D6>=10"})["t"][-1]
    (True, '1/216 (0.46%)')
    >>> w.answer({"expr": "2d6!"})["error"]
    "'2d6!'를 주사위 식으로 읽을 수 없습니다: 4번째 글자의 '!'(폭발 주사위)는 지원하지 않습니다"
    """
    def compute(expr):
        roll = notation.parse(expr)
        dist = roll.dist()
        rows = [["평균", number_cell(fmt.approx(dist.mean()))],
                ["범위", number_cell(f"{dist.min}~{dist.max}")]]
        head = f"<p><b>{html.escape(str(roll))}</b></p>"
        if roll.comparison is not None:
            odds = roll.odds()
            rows = [[strong(f"성공 (합계 {roll.comparison})"), odds["success"]],
                    ["실패", odds["failure"]]] + rows
        table = Table([], rows).html()
        return Shown(head + table, Bars.from_dist(dist, _band(roll.comparison)))

    return LiveWidget(
        uid, [text("expr", "주사위 식 (예: 2D6+3, 4D6KH3, 1D100<=45)", default,
                   tuple(e.text for e in EXAMPLES))],
        compute, title="주사위 계산기", x_label="합계",
        legend=(("success", "성공 (비교를 만족)"), ("failure", "실패"), ("neutral", "비교 없음")))


def grammar_table() -> Table:
    """How to write a roll (the page states the grammar in Korean).

    >>> grammar_table().rows[0][0]
    '2D6, D20'
    """
    return Table(["쓰는 법", "뜻"], [list(row) for row in GRAMMAR_KO], caption="주사위 식 쓰는 법",
                 kind="odds grammar")


def examples_table(uid: str = "dice-calc") -> "ExampleLinks":
    """One example per game, each a link that types it into the calculator (the page address
    carries the text, as a shared link does).

    >>> "#go=dice-calc&amp;dice-calc.expr=4D6KH2" in examples_table().html()
    True
    """
    return ExampleLinks(uid)


class ExampleLinks(Table):
    """The examples as a table whose rolls are links into the calculator."""

    def __init__(self, uid: str):
        from urllib.parse import quote
        self.uid = uid
        rows = [[GAME_KO[e.game],
                 _link_cell(f"#go={uid}&{uid}.expr={quote(e.text, safe='')}", e.text), e.note_ko]
                for e in EXAMPLES]
        super().__init__(["게임", "식", "묻는 것"], rows, caption="게임마다 자주 치는 식",
                         row_heads=False)

    def text(self) -> str:
        return "\n".join(f"{GAME_KO[e.game]} | {e.text} | {e.note_ko}" for e in EXAMPLES)


def _link_cell(href: str, label: str):
    from .table import Cell
    return Cell(label, f'<a href="{html.escape(href)}"><code>{html.escape(label)}</code></a>',
                number=True)


def unsupported_note() -> "Note":
    """What the calculator does not compute, said plainly.

    >>> "폭발 주사위" in unsupported_note()._repr_html_()
    True
    """
    return Note(UNSUPPORTED_KO)


class Note:
    """A paragraph of the page's own words (html and text)."""

    def __init__(self, words: str):
        self.words = words

    def _repr_html_(self) -> str:
        return f'<p class="dice-unsupported">{html.escape(self.words)}</p>'

    def __repr__(self) -> str:
        return self.words


ALL_WIDGETS = [dice_calculator_widget]
