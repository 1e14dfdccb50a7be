"""주사위 계산기: one box for the commands a table already types into its dice bot.

Display only: the reading and every number come from :mod:`widgets.notation`; this module holds
the page's Korean words (the grammar with one example per command, what BCDice does that the
calculator does not, the examples' notes) and lays each answer out: the exact distribution
(fraction and percent, bars, "N 이상 · N 이하"), its mean, for a comparison the success chance,
for counting dice "k개 이상", for Call of Cthulhu the success levels with their rule, and for a
roll that can go on without end the outcomes shown one by one and the rest as one exact number.
"""
from __future__ import annotations

import html
from fractions import Fraction
from typing import NamedTuple

from .. import limits, notation
from ..dice import Dist, OpenDist
from . import format as fmt
from .live import Bars, LiveWidget, Shown, text, widget_factory
from .table import INLINE_FRACTION_CHARS, Cell, Table, number_cell, prob_cell, strong

#: The notation, one row per command: (how it is written, what it means, an example the page
#: types into the calculator). Where BCDice decides a rule, the row says what BCDice does.
GRAMMAR_KO: tuple[tuple[str, str, str], ...] = (
    ("2D6, D20, 2D", "주사위 개수와 면 수. 개수를 빼면 1개(D20 = 1D20), 면 수를 빼면 6면(BCDice: 2D = 2D6).",
     "2D6+3"),
    ("D%, 1D100", "백분위 주사위(1부터 100까지).", "1D100<=45"),
    ("+ - * /, ( )", "더하기·빼기·곱하기·나누기와 괄호. 곱하기·나누기를 먼저 합니다. 주사위끼리 곱해도 됩니다.",
     "(2D6+1D4)*2"),
    ("/2, /2F, /2C, /2U, /2R",
     "BCDice의 나누기. 그냥 /와 F는 버림(일반 주사위 봇 기준), C와 U는 올림, R은 반올림(0.5는 0에서 먼 쪽). "
     "0으로 나누면 BCDice처럼 1입니다. 답 아래에 어느 반올림을 썼는지 적습니다.", "1D6/2R"),
    ("1D6÷2", "이 책의 나누기: 나눈 뒤 올림(원전 방식). 부호는 나중에 붙입니다(−1D4÷2도 크기를 올림).", "1D6÷2"),
    ("(1+3)D(2+2)", "개수와 면 수에 계산을 씁니다(주사위는 쓰지 못합니다).", "(1+3)D(2+2)"),
    ("4D6KH3, 4D6KL1, 4D6DH1, 4D6DL1",
     "높은(KH)·낮은(KL) 주사위를 남기거나, 높은(DH)·낮은(DL) 주사위를 버립니다. 개수를 빼면 1개, K만 쓰면 KH. "
     "BCDice처럼 KH0은 0, 굴린 것보다 많이 남기면 전부입니다.", "4D6KH3"),
    ("2D20MAX, 2D20MIN", "BCDice의 최댓값·최솟값: 2D20KH1, 2D20KL1과 같습니다.", "2D20MIN"),
    (">=, >, <=, <, =, ==, !=, <>",
     "끝에 비교를 하나 붙이면 합계가 그 조건을 만족할 확률(성공)과 아닐 확률(실패)을 셉니다. 목표치에도 계산을 씁니다.",
     "2D6+2>=5+3"),
    ("2D6>=?", "BCDice의 목표치 미정: 판정 없이 분포만 봅니다.", "2D6>=?"),
    ("D66, D66A, D66D, 2D66",
     "두 D6을 십의 자리·일의 자리로 읽습니다. A(또는 S)는 작은 눈을 앞에, D는 큰 눈을 앞에 둡니다. "
     "식 안에서는 1D66, 2D66(더하기)으로 씁니다.", "D66A"),
    ("S2D6", "BCDice의 비밀 굴림: 결과를 숨길 뿐, 확률은 같습니다.", "S2D6>=7"),
    ("1D100<=60 관찰력", "한 칸 띄고 쓴 뒤의 글은 BCDice처럼 설명으로 보고 계산에 넣지 않습니다.", "1D100<=60 관찰력"),
    ("5B6>=4, 2B6+3B10>5",
     "BCDice의 바라바라 주사위: 조건을 만족하는 주사위가 몇 개인지(성공 수)의 분포와 'k개 이상'.", "5B6>=4"),
    ("5B6, 8TY6, 8TZ6", "목표치 없는 B 주사위와 BCDice의 집계 주사위: 눈마다 몇 개 나오는지.", "8TY6"),
    ("2R6[>3]>=5, 2R6>=5@>3",
     "BCDice의 개수 추가 굴림: [ ] 또는 @의 조건에 맞는 주사위마다 하나씩 더 굴리고, 목표를 만족한 주사위 수를 셉니다. "
     "조건의 비교를 빼면 목표의 비교를, 둘 다 없으면 >=를 씁니다. 끝없이 더 굴리는 조건은 BCDice처럼 받지 않습니다.",
     "3R6[6]>=5"),
    ("2U6[4]+2>=10, 2U6>=10@4",
     "BCDice의 상방 무한 굴림: 기준 이상이 나온 주사위는 다시 굴려 더합니다. 목표가 있으면 목표를 만족한 주사위 "
     "묶음 수, 없으면 가장 큰 묶음과 합계(보정은 합계에 한 번).", "3U6[5]+1>=8"),
    ("choice[A,B,C], choice2 A B C",
     "BCDice의 선택: 항목 가운데 하나(choice2는 서로 다른 둘)를 같은 확률로 고릅니다. A-D, 1-6처럼 범위로도 씁니다.",
     "choice[공격,방어,도주]"),
    ("x5 2D6>=7, rep5, repeat5",
     "BCDice의 반복: 같은 명령을 그 횟수만큼 따로 굴립니다. 목표가 있으면 몇 번 만족하는지의 분포.", "x5 2D6>=7"),
    ("C(10-4*3/2+2)", "BCDice의 계산: 주사위 없이 수 하나(0으로 나누면 받지 않습니다).", "C(10-4*3/2+2)"),
    ("CC<=60, CC(1)<=60, CC(-1)<=60, CC<=60H",
     "크툴루의 부름 7판(BCDice Cthulhu7th): D100과 보너스(+)·페널티(−) 주사위, 성공 단계. 목표치 뒤 H·E·C는 "
     "그 난이도의 성공만 봅니다(R은 보통).", "CC(1)<=60"),
    ("CCB<=55, CCB(98)<=55",
     "크툴루 6판(BCDice Cthulhu)의 5% 규칙: 5 이하 크리티컬, 96 이상 펌블, 목표치의 1/5 이하 스페셜. 괄호 안은 고장 넘버.",
     "CCB<=55"),
    ("3D6!, 3D6!>5, 3D6!3, 2D6!!, 2D6!p",
     "Roll20의 폭발: 가장 높은 눈(!>5는 5 이상, !3은 3)이 나오면 하나 더 굴려 더하기를 되풀이합니다. !!는 합계가 같고, "
     "!p는 더 굴린 주사위마다 1을 뺍니다.", "3D6!"),
    ("2D10x>=9, 4D6xo", "Foundry의 폭발(x, 조건은 >=9·>9처럼 씀)과 한 번만 폭발(xo).", "4D6xo"),
    ("4D6r1, 4D6r<2, 4D6rr1, 2D20ro1",
     "다시 굴리기: r(Roll20)과 rr(Foundry)은 조건을 벗어날 때까지, ro는 한 번만 다시 굴립니다.", "2D20ro1"),
    ("8D6cs>=5", "Foundry의 성공 세기: 조건을 만족한 주사위 수(폭발로 더 굴린 것 포함).", "8D6cs>=5"),
    ("4dF", "페이트 주사위: 주사위마다 −1, 0, +1.", "4dF+1"),
    ("１Ｄ６＋１, ≥, ≤, −",
     "대문자·소문자, 연산 기호 사이의 띄어쓰기, 전각 문자, ≥·≤·− 기호를 가리지 않고 읽습니다.", "１Ｄ６＋１≥４"),
)

#: What BCDice (or a VTT) does that the calculator does not, one plain line each. The calculator
#: refuses each of these with a Korean message naming what was typed.
UNSUPPORTED_KO: tuple[str, ...] = (
    "게임 전용 명령: 이 계산기는 BCDice의 공통 명령만 읽습니다(크툴루 CC·CCB만 예외). CBR·RES·FAR, 광기표 같은 "
    "각종 표, 다른 게임의 명령(K20, 2DX 등)은 이름을 들어 받지 않습니다.",
    "띄어쓰기: BCDice는 첫 띄어쓰기 뒤를 모두 설명으로 버립니다(2D6 +3은 2D6). 이 계산기는 식이 이어지면 "
    "띄어쓰기를 건너뛰고 읽고(2D6 +3은 2D6+3), 이어지지 않는 글부터 설명으로 봅니다.",
    "주사위 수: BCDice는 한 항에 200개를 넘게(또는 0개 이하) 굴리면 주사위를 굴리지 않고 0으로 셉니다. 이 계산기는 "
    "그런 식을 받지 않습니다.",
    "끝없는 굴림의 한도: BCDice는 한 명령에 주사위를 1만 개까지 굴리고 넘으면 오류를 냅니다. Roll20·Foundry에도 "
    "폭발 횟수 한도가 있습니다. 이 계산기는 한도 없이 정확히 세고, 1만 개를 넘을 확률이 보이는 나머지보다 클 수 있는 "
    "굴림은 받지 않습니다.",
    "목표 없는 R 주사위: BCDice는 성공 수 0을 보입니다. 이 계산기는 모두 몇 개를 굴리는지 보입니다. 목표 없는 B "
    "주사위는 BCDice가 눈만 늘어놓고, 이 계산기는 눈마다 나오는 개수를 보입니다.",
    "게임 설정: BCDice는 게임 시스템마다 /의 반올림, D66의 정렬, 면 수를 뺀 D의 면 수가 다를 수 있습니다. 이 "
    "계산기는 일반 주사위 봇과 크툴루 7판 봇의 설정(버림, 정렬 없음, 6면)을 따릅니다.",
    "크툴루: CC는 7판 봇(Cthulhu7th) 기준입니다. 한국어판 봇(Cthulhu7th:Korean)은 보너스·페널티 주사위를 ±2까지만 "
    "받고, 목표치 100 이상에서 100이 나오면 대실패가 아니라 성공으로 봅니다. 6판 봇의 CC(1% 규칙)는 읽지 않습니다.",
    "Roll20과 Foundry: Roll20의 8d6>4(주사위마다 세기)는 BCDice처럼 합계 비교로 읽습니다(주사위마다 세려면 8d6cs>4나 "
    "8B6>4). Foundry의 r은 한 번만 다시 굴리지만 이 계산기의 r은 Roll20처럼 조건을 벗어날 때까지 굴립니다(한 번만은 ro).",
    "읽지 않는 Roll20·Foundry 표기: 주사위마다 실패 세기(cf), 성공 차이(ms), 최솟값·최댓값 바꾸기(min2, max5), "
    "정렬, 짝수·홀수 세기, 폭발과 남기기·다시 굴리기를 한 항에 같이 쓰기, 폭발 주사위를 빼거나 주사위와 곱하기, "
    "주사위에 붙지 않은 폭발 표시(!), 묶음 굴림이나 꼬리표, 꼬리표·굴림표(#), 캐릭터 값 참조, "
    "여러 식을 한 번에, 거듭제곱, 소수, 나머지 셈(%).",
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

#: BCDice's Korean names of Call of Cthulhu's success levels (its Cthulhu7th:Korean and
#: Cthulhu ko_kr texts), each with the rule BCDice applies (its Cthulhu7th.rb / Cthulhu.rb).
CTHULHU_KO = {
    "critical": ("대성공", "01 (BCDice Cthulhu7th: 1은 언제나 크리티컬)"),
    "extreme": ("대단한 성공", "목표치의 1/5 이하 (버림)"),
    "hard": ("어려운 성공", "목표치의 1/2 이하 (버림)"),
    "regular": ("보통 성공", "목표치 이하"),
    "success": ("성공", "난이도를 적용한 목표치 이하"),
    "failure": ("실패", "목표치보다 큼"),
    "fumble": ("대실패", "목표치 50 미만이면 96~100, 50 이상이면 100 (BCDice Cthulhu7th)"),
}
CTHULHU6_KO = {
    "critical_special": ("크리티컬/스페셜", "5 이하이면서 목표치의 1/5 이하 (BCDice Cthulhu, 5% 규칙)"),
    "critical": ("크리티컬", "5 이하 성공"),
    "special": ("스페셜", "목표치의 1/5 이하 (버림, 최소 1)"),
    "success": ("성공", "목표치 이하, 100은 제외"),
    "failure": ("실패", "목표치보다 큼"),
    "fumble": ("펌블", "실패 가운데 96 이상"),
    "broken": ("고장", "고장 넘버 이상 (성공이라도)"),
    "fumble_broken": ("펌블/고장", "96 이상이면서 고장 넘버 이상"),
}
_LEVEL_BAND = {"critical": "critical", "extreme": "success", "hard": "success", "regular": "success",
               "success": "success", "failure": "failure", "fumble": "down", "critical_special": "critical",
               "special": "success", "broken": "down", "fumble_broken": "down"}

#: Rows of the calculator's own "k 이상" tables at most (evenly spaced beyond that).
TABLE_ROWS = 24


def _band(comparison):
    def band_of(total: int) -> str:
        if comparison is None:
            return "neutral"
        return "success" if comparison.holds(total) else "failure"
    return band_of


def _head(command) -> str:
    """The command as read, with BCDice's secret mark and comment said in words."""
    out = f"<p><b>{html.escape(str(command))}</b>"
    notes = []
    if getattr(command, "secret", False) or (isinstance(command, notation.RepeatRoll)
                                             and getattr(command.command, "secret", False)):
        notes.append("비밀 굴림(S): 확률은 같습니다")
    if getattr(command, "comment", ""):
        notes.append(f"설명: {command.comment}")
    if notes:
        out += " <span class=\"dice-note\">(" + html.escape(" · ".join(notes)) + ")</span>"
    return out + "</p>"


#: How each rounding of a division is said under the answer.
_ROUNDING_WORDS = {"": "뒤에 글자가 없는 /는 버림(BCDice 일반 주사위 봇의 기본)", "F": "/…F는 버림",
                   "C": "/…C는 올림", "U": "/…U는 올림", "R": "/…R은 반올림(0.5는 0에서 먼 쪽)",
                   "÷": "÷는 이 책의 방식(나눈 뒤 올림, 부호는 나중)"}


def _rounding_note(roll: notation.Roll) -> str:
    words = [_ROUNDING_WORDS[key] for key in roll.roundings()]
    return f'<p class="dice-note">나누기: {html.escape(", ".join(words))}.</p>' if words else ""


def _spaced(values: list[int]) -> list[int]:
    """At most :data:`TABLE_ROWS` of ``values``, evenly spaced, the first and last kept."""
    if len(values) <= TABLE_ROWS:
        return values
    step = (len(values) - 1) / (TABLE_ROWS - 1)
    return sorted({values[round(i * step)] for i in range(TABLE_ROWS)})


def _open_rows(dist: OpenDist, unit: str = "") -> list[list]:
    """"N 이상 · N 이하" of an open distribution, with the rest: every shown outcome (or a
    spaced choice of them), then the rest as one exact number."""
    shown = dist.outcomes()
    rows = [[number_cell(f"{v}{unit}"), dist.probability(v), dist.at_least(v), dist.at_most(v)]
            for v in _spaced(shown)]
    rows.append([strong(f"{dist.cut}{unit} 이상 나머지"), number_cell("—"), _p(dist.rest_probability(), True),
                 number_cell("—")])
    return rows


def _count_rows(dist: "Dist | OpenDist", unit: str = "개") -> list[list]:
    """"k개 이상" of a count, every k (or a spaced choice) from 1."""
    if isinstance(dist, OpenDist):
        return _open_rows(dist, unit)
    values = [v for v in dist.outcomes() if v >= 1] or dist.outcomes()
    return [[number_cell(f"{k}{unit}"), dist.probability(k), dist.at_least(k), dist.at_most(k)]
            for k in _spaced(values)]


def _cumulative_details(rows: list[list], what: str, head: tuple[str, ...]) -> str:
    table = _table(head, rows, kind="odds cum")
    return (f'<details class="cumulative"><summary>{html.escape(what)}</summary>'
            f"{table.html()}</details>")


def _mean_cell(x) -> Cell:
    """A mean: ``7/2 (= 3.5)``; a long fraction comes after its decimal, behind 「정확한 값 보기」.

    >>> _mean_cell(Fraction(7, 2)).text, _mean_cell(Fraction(10**30 + 1, 10**28)).markup[:9]
    ('7/2 (= 3.5)', '≈ 100.00 ')
    """
    if len(fmt.fraction(x)) <= INLINE_FRACTION_CHARS:
        return number_cell(fmt.approx(x))
    return Cell(fmt.approx(x), fmt.approx(x, markup=True))


def _prob_text(p) -> str:
    """A probability as the answer writes it: ``5/12 (41.67%)``, or the percent first when the
    fraction is long (a reader sees it without scrolling).

    >>> _prob_text(Fraction(5, 12)), _prob_text(Fraction(1, 10**30))[:19]
    ('5/12 (41.67%)', '0.01% 미만 (정확히 1/100')
    """
    return _prob_words(p)[0]


def _prob_words(p) -> tuple[str, str, bool]:
    """The text, its html (a long fraction behind 「정확한 값 보기」), and whether it is short; the
    fraction written once (a long answer has hundreds of long fractions)."""
    exact, share = fmt.fraction(p), fmt.percent(p)
    if len(exact) <= INLINE_FRACTION_CHARS:
        text = f"{exact} ({share})"
        return text, html.escape(text), True
    return f"{share} (정확히 {exact})", fmt.prob_html(p), False


def _prob_html(p) -> str:
    return _prob_words(p)[1]


def _p(p, strong: bool = False) -> Cell:
    """A probability cell: one line when short; a long fraction after its percent, free to wrap."""
    text, markup, short = _prob_words(p)
    return Cell(text, strong=strong, number=True) if short else Cell(text, markup, strong=strong)


def _table(head, rows, **kw) -> Table:
    """A table of this answer: its probabilities through :func:`_p`."""
    return Table(list(head), [[_p(c) if isinstance(c, Fraction) else c for c in row] for row in rows], **kw)


def _mean_row(dist) -> list:
    mean = dist.mean()
    return [] if mean is None else [["평균", _mean_cell(mean)]]


def _open_note(dist: OpenDist, what: str) -> str:
    rest = limits.OPEN_REST
    rest_ko = f"{rest.denominator // 10000}만분의 {rest.numerator}" if rest.denominator % 10000 == 0 \
        else fmt.prob(rest)
    return (f'<p class="dice-note">끝없이 이어질 수 있는 굴림입니다: {what} {dist.cut - 1}까지는 하나하나 정확한 '
            f"확률을 보이고, {dist.cut} 이상은 합쳐서 정확한 한 수(나머지)로 보입니다. 나머지가 "
            f"{html.escape(rest_ko)} 이하가 될 때까지 보입니다.</p>")


def _answer_roll(roll: notation.Roll) -> Shown:
    dist = roll.dist()
    rows: list[list] = []
    if roll.comparison is not None:
        odds = roll.odds()
        rows = [[strong(f"성공 (합계 {roll.comparison})"), odds["success"]], ["실패", odds["failure"]]]
    extra = _rounding_note(roll)
    if isinstance(dist, OpenDist):
        rows += _mean_row(dist) + [["범위", number_cell(f"{dist.low}~ (끝없음)")],
                                   [f"{dist.cut} 이상 나머지", dist.rest_probability()]]
        body = _table([], rows).html() + _open_note(dist, "합계") + \
            _cumulative_details(_open_rows(dist), "합계: N 이상 · N 이하", ("N", "정확히 N", "N 이상", "N 이하"))
        probs = dist.probabilities()
        bars = Bars(tuple(probs), tuple(probs.values()),
                    tuple(_band(roll.comparison)(v) for v in probs), cumulative=False)
        return Shown(_head(roll) + body + extra, bars)
    rows += [["평균", _mean_cell(dist.mean())], ["범위", number_cell(f"{dist.min}~{dist.max}")]]
    if roll.undecided:
        rows.append(["판정", "목표치 미정(?): 판정하지 않습니다"])
    return Shown(_head(roll) + _table([], rows).html() + extra, Bars.from_dist(dist, _band(roll.comparison)))


def _answer_count(command, dist, what: str) -> Shown:
    """A distribution of a count (B, R, U with a target, x5 with a target): "k개 이상"."""
    rows = _mean_row(dist)
    if isinstance(dist, OpenDist):
        rows += [[f"{dist.cut}개 이상 나머지", dist.rest_probability()]]
    body = _table([], [["무엇을 세나", what]] + rows).html()
    if isinstance(dist, OpenDist):
        body += _open_note(dist, "개수")
    body += _cumulative_details(_count_rows(dist), f"{what}: k개 이상 · k개 이하",
                                ("k", "정확히 k개", "k개 이상", "k개 이하"))
    probs = dist.probabilities()
    bars = Bars(tuple(probs), tuple(probs.values()), ("neutral",) * len(probs), cumulative=False)
    return Shown(_head(command) + body, bars)


def _answer_faces(command: notation.CountRoll) -> Shown:
    faces = command.faces()
    most = min(3, max(n for n, _ in command.groups))
    head = ["눈", "평균 개수"] + [f"{k}개 이상" for k in range(1, most + 1)]
    rows = [[number_cell(face), _mean_cell(dist.mean())] + [dist.at_least(k) for k in range(1, most + 1)]
            for face, dist in faces.items()]
    note = ("BCDice는 목표치 없는 B 주사위의 눈을 늘어놓기만 합니다: 여기서는 눈마다 몇 개 나오는지 셉니다."
            if command.kind == "B" else "BCDice의 집계 주사위: 눈마다 몇 개 나오는지.")
    table = _table(head, rows, caption="눈마다 나오는 주사위 수")
    return Shown(_head(command) + f'<p class="dice-note">{html.escape(note)}</p>' + table.html())


def _answer_upper_total(command: notation.UpperRoll) -> Shown:
    total, highest = command.dist(), command.highest()
    rows = _mean_row(total) + ([["가장 큰 묶음의 평균", _mean_cell(highest.mean())]]
                               if highest.mean() is not None else [])
    if isinstance(total, OpenDist):
        rows.append([f"합계 {total.cut} 이상 나머지", total.rest_probability()])
    body = _table([], [["무엇을 보나", "합계(막대)와 가장 큰 주사위 묶음(보정 포함)"]] + rows).html()
    if isinstance(total, OpenDist):
        body += _open_note(total, "합계")
        body += _cumulative_details(_open_rows(total), "합계: N 이상 · N 이하", ("N", "정확히 N", "N 이상", "N 이하"))
    body += _cumulative_details(_open_rows(highest), "가장 큰 묶음: N 이상 · N 이하", ("N", "정확히 N", "N 이상", "N 이하"))
    probs = total.probabilities()
    return Shown(_head(command) + body,
                 Bars(tuple(probs), tuple(probs.values()), ("neutral",) * len(probs), cumulative=False))


#: Call of Cthulhu 7th's success levels "or better", as a GM asks for them.
_CTHULHU_OR_BETTER = {"regular": "성공 이상", "success": "성공 이상", "hard": "어려운 성공 이상",
                      "extreme": "대단한 성공 이상", "critical": "대성공"}


def _cthulhu_lines(command, levels: dict) -> str:
    """The lead lines of a Call of Cthulhu 7th roll: 「성공 이상」, 「어려운 성공 이상」,
    「대단한 성공 이상」 and 「대성공」 (those its levels have), summed by the library; the 6th
    edition's levels are not one scale (고장 goes with any), so it keeps its table only.

    >>> lines = _cthulhu_lines(notation.parse("CC(1)<=55"), notation.parse("CC(1)<=55").levels())
    >>> "어려운 성공 이상 <b>약 47% · 93/200</b>" in lines
    True
    """
    if not isinstance(command, notation.CthulhuRoll):
        return ""
    shown = {k: _CTHULHU_OR_BETTER[k] for k in reversed(levels) if k in _CTHULHU_OR_BETTER}
    return fmt.graded_lines(levels, tuple(levels), shown)


def _answer_cthulhu(command) -> Shown:
    dist = command.dist()
    if command.target is None:
        rows = [["평균", _mean_cell(dist.mean())]]
        return Shown(_head(command) + _table([], rows).html() +
                     '<p class="dice-note">목표치가 없어 성공 단계를 보지 않습니다.</p>',
                     Bars.from_dist(dist, lambda v: "neutral"))
    words = CTHULHU_KO if isinstance(command, notation.CthulhuRoll) else CTHULHU6_KO
    levels = command.levels()
    odds = command.odds()
    rows = [[strong("성공 (모든 성공 단계)"), odds["success"], ""], ["실패 (대실패 포함)", odds["failure"], ""]]
    rows += [[words[k][0], p, words[k][1]] for k, p in levels.items()]
    goal = command.goal if isinstance(command, notation.CthulhuRoll) else command.target
    source = ("크툴루의 부름 7판은 이 책의 게임이 아니므로, 단계와 수치는 모두 BCDice(Cthulhu7th)의 판정 그대로입니다"
              if isinstance(command, notation.CthulhuRoll) else
              "크툴루 6판은 이 책의 게임이 아니므로, 단계와 수치는 모두 BCDice(Cthulhu, 5% 규칙)의 판정 그대로입니다")
    bonus = ""
    if isinstance(command, notation.CthulhuRoll) and command.bonus:
        kind = "보너스" if command.bonus > 0 else "페널티"
        bonus = (f"{kind} 주사위 {abs(command.bonus)}개: 십의 자리 주사위를 {abs(command.bonus) + 1}개 굴려 "
                 f"{'가장 낮은' if command.bonus > 0 else '가장 높은'} 값을 씁니다(00과 0은 100). ")
    table = _table(["결과", "확률", "BCDice의 규칙"], rows, caption=f"D100 ≤ {goal}")
    note = f'<p class="dice-note">{html.escape(bonus + source)}.</p>'
    probs = dist.probabilities()
    return Shown(_head(command) + _cthulhu_lines(command, levels) + table.html() + note,
                 Bars(tuple(probs), tuple(probs.values()),
                      tuple(_LEVEL_BAND[command.level(v)] for v in probs), cumulative=False))


def _answer_choice(command: notation.ChoiceRoll) -> Shown:
    rows = [[item, p] for item, p in command.chances().items()]
    note = (f"결과 {command.outcome_count()}가지(뽑는 차례까지)가 모두 같은 확률입니다." if command.takes > 1 else
            f"{len(command.items)}개 가운데 하나를 같은 확률로 고릅니다.")
    return Shown(_head(command) + _table(["항목", "뽑힐 확률"], rows).html() +
                 f'<p class="dice-note">{html.escape(note)}</p>')


def _answer(command) -> Shown:
    if isinstance(command, notation.Roll):
        return _answer_roll(command)
    if isinstance(command, notation.CountRoll):
        if command.comparison is None:
            return _answer_faces(command)
        return _answer_count(command, command.dist(),
                             f"조건 {fmt.josa(command.comparison, '을/를')} 만족한 주사위")
    if isinstance(command, notation.RerollRoll):
        what = (f"조건 {fmt.josa(command.comparison, '을/를')} 만족한 주사위(더 굴린 것 포함)" if command.comparison else
                "굴린 주사위 (BCDice는 목표가 없으면 성공 수 0을 보입니다)")
        return _answer_count(command, command.dist(), what)
    if isinstance(command, notation.UpperRoll):
        if command.comparison is None:
            return _answer_upper_total(command)
        return _answer_count(command, command.dist(),
                             f"조건 {fmt.josa(command.comparison, '을/를')} 만족한 주사위 묶음")
    if isinstance(command, (notation.CthulhuRoll, notation.CthulhuClassicRoll)):
        return _answer_cthulhu(command)
    if isinstance(command, notation.D66Roll):
        dist = command.dist()
        rows = [["평균", _mean_cell(dist.mean())], ["나오는 값", number_cell(f"{len(dist.outcomes())}가지")]]
        return Shown(_head(command) + _table([], rows).html(), Bars.from_dist(dist, lambda v: "neutral"))
    if isinstance(command, notation.ChoiceRoll):
        return _answer_choice(command)
    if isinstance(command, notation.RepeatRoll):
        if command.command.has_odds():
            p = command.command.odds()["success"]
            shown = _answer_count(command, command.dist(), f"{command.times}번 가운데 목표를 만족한 굴림")
            return Shown(shown.html + f'<p class="dice-note">한 번 굴려 만족할 확률: {_prob_html(p)}.</p>',
                         shown.bars)
        inner = _answer(command.command)
        return Shown(_head(command) + f'<p class="dice-note">같은 굴림을 {command.times}번 따로 굴립니다: '
                     "한 번의 분포는 다음과 같습니다.</p>" + inner.html, inner.bars)
    if isinstance(command, notation.CalcRoll):
        return Shown(_head(command) + _table([], [["계산 결과", number_cell(command.value)]]).html() +
                     '<p class="dice-note">주사위 없는 계산입니다 (나누기는 BCDice처럼 버림).</p>')
    raise AssertionError(type(command))   # pragma: no cover


@widget_factory
def dice_calculator_widget(uid: str = "dice-calc", default: str = "2D6+3") -> LiveWidget:
    """The calculator: one text box; the answer is the library's exact distribution.

    >>> w = dice_calculator_widget()
    >>> "성공" in w.answer({"expr": "3D6>=10"})["h"], w.answer({"expr": "3D6>=10"})["t"][-1]
    (True, '1/216 (0.46%)')
    >>> "나머지" in w.answer({"expr": "2d6!"})["h"], "대성공" in w.answer({"expr": "CC<=50"})["h"]
    (True, True)
    >>> w.answer({"expr": "CBR(50,20)"})["error"].split(": ", 1)[1]
    "이 계산기는 BCDice의 공통 명령만 읽습니다: 1번째 글자의 'CBR'은 게임 전용 명령입니다 (크툴루 CC·CCB는 읽습니다)"
    """
    def compute(expr):
        return _answer(notation.parse(expr))

    examples = tuple(dict.fromkeys([e.text for e in EXAMPLES] + [row[2] for row in GRAMMAR_KO]))
    return LiveWidget(
        uid, [text("expr", "주사위 식 (예: 2D6+3, 4D6KH3, CC<=60, 5B6>=4)", default, examples)],
        compute, title="주사위 계산기", x_label="결과",
        legend=(("success", "성공"), ("failure", "실패"), ("critical", "대성공·크리티컬"),
                ("down", "대실패·펌블·고장"), ("neutral", "비교 없음")))


def grammar_table(uid: str = "dice-calc") -> Table:
    """How to write a command (the page states the grammar in Korean), each with an example link
    under it that types it into the calculator (two columns: a phone has room for the meaning).

    >>> grammar_table().rows[0][0].text
    '2D6, D20, 2D'
    >>> "#go=dice-calc&amp;dice-calc.expr=CC%281%29%3C%3D60" in grammar_table().html()
    True
    """
    rows = [[_form_cell(form, _href(uid, example), example), meaning] for form, meaning, example in GRAMMAR_KO]
    return Table(["쓰는 법 (예를 누르면 계산기에)", "뜻"], rows, caption="주사위 식 쓰는 법", kind="odds grammar")


def _form_cell(form: str, href: str, example: str) -> Cell:
    link = f'<a href="{html.escape(href)}"><code>{html.escape(example)}</code></a>'
    return Cell(form, f'{html.escape(form)}<br><span class="dice-example">예: {link}</span>')


def _href(uid: str, roll: str) -> str:
    from urllib.parse import quote
    return f"#go={uid}&{uid}.expr={quote(roll, safe='')}"


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
        self.uid = uid
        rows = [[GAME_KO[e.game], _link_cell(_href(uid, e.text), e.text), e.note_ko] for e in EXAMPLES]
        super().__init__(["게임", "식", "묻는 것"], rows, caption="게임마다 자주 치는 식",
                         row_heads=False)

    def text(self) -> str:
        return "\n".join(f"{GAME_KO[e.game]} | {e.text} | {e.note_ko}" for e in EXAMPLES)


def _link_cell(href: str, label: str) -> Cell:
    return Cell(label, f'<a href="{html.escape(href)}"><code>{html.escape(label)}</code></a>',
                number=True)


def unsupported_note() -> "Note":
    """What BCDice (or a VTT) does that the calculator does not, said plainly, one line each.

    >>> "게임 전용 명령" in unsupported_note()._repr_html_()
    True
    """
    return Note(UNSUPPORTED_KO)


class Note:
    """A plain list of the page's own words (html and text)."""

    def __init__(self, lines: "tuple[str, ...] | str"):
        self.lines = (lines,) if isinstance(lines, str) else tuple(lines)

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.lines)
        return f'<ul class="dice-unsupported">{items}</ul>'

    def __repr__(self) -> str:
        return "\n".join(f"- {line}" for line in self.lines)


ALL_WIDGETS = [dice_calculator_widget]
