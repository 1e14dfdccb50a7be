"""Whole fights on the page: one widget per chapter that answers a GM's question about a whole
fight, not one roll (「이 결투, 누가 먼저 쓰러질까」), and a worked fight walked round by round.

Display only: every number comes from the library's fight calls (``underface.duel``,
``pf2e.strikes_to_down``, ``trench_crusade.attacks_to_out``, ``hunters_moon.hunt``), which return
a :class:`~widgets.fight.FightOdds`; this module picks the call and lays its numbers out the same
way for every game (:func:`fight_shown`):

1. the GM's number first, as 「약 N%」 with the exact fraction beside it (a long one behind a
   「정확한 값」 disclosure: :func:`~widgets.views.table.readable`);
2. the mean length of the fights that ended, and what it leaves out;
3. the exact cumulative table by step (fraction and percent; the one table helper), every step
   while its fractions stay short (:func:`shown_steps`), then the totals in percent;
4. a picture: per step, one bar per result (its cumulative chance) and the chance that the fight
   is still on, in grey (the book's grouped bars, :class:`~widgets.views.live.Bars`).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from fractions import Fraction

from .. import hunters_moon as hm
from .. import pf2e
from .. import trench_crusade as tc
from .. import underface as uf
from ..errors import RuleInputError
from . import format as fmt
from .format import josa
from .live import Bars, LiveWidget, Shown, normalise_typed, number, select, text, toggle, widget_factory
from .table import INLINE_FRACTION_CHARS, Table, prob_cell, rounded_percent
from .trench_crusade import armour_choices as tc_armour_choices
from .underface import _armor_choices, _db_choices
from .worked import WorkedRound

_E = html.escape

#: Steps with a row of their own in an answer's table and a group of bars in its plot: at most
#: this many, and only while the row's exact fractions stay short (an exact chance of a whole
#: fight grows by a few digits a step). Where the fight stands after the last listed step is
#: then given in percent; the library's ``FightOdds`` holds every exact value.
TABLE_STEPS = 4
#: Most characters of one exact fraction in a row of the table (numerator, "/", denominator); a
#: fraction longer than :data:`~widgets.views.table.INLINE_FRACTION_CHARS` is folded.
ROW_FRACTION_CHARS = 48


# --- the shared layout -----------------------------------------------------------------------

@dataclass(frozen=True)
class FightLayout:
    """How one game's fight reads: its result keys with their Korean names and bar colours, the
    name of a step (``라운드``, ``턴``, ``공격``), how a step is named (``{k}번째 공격``) or each
    step's own name, how steps are counted (``번``), and the name of the rest.

    >>> turn = FightLayout((("down", "쓰러짐", "success"),), "턴")
    >>> turn.step_name(2), turn.unit
    ('2턴', '턴')
    >>> attack = FightLayout((("out", "전투 불능", "down"),), "공격", ordinal="{k}번째 공격", count="번")
    >>> attack.step_name(2), attack.unit
    ('2번째 공격', '번')
    """

    results: tuple[tuple[str, str, str], ...]
    step: str
    rest: str = "아직 끝나지 않음"
    names: tuple[str, ...] = ()
    ordinal: str = "{k}{step}"
    count: str = ""

    def step_name(self, k: int) -> str:
        return self.names[k - 1] if self.names else self.ordinal.format(k=k, step=self.step)

    @property
    def unit(self) -> str:
        """The word after a number of steps (a mean length: 「약 2.5번」)."""
        return self.count or self.step

    def label(self, key: str) -> str:
        return next(label for k, label, _ in self.results if k == key)


def lead(label: str, p: Fraction) -> str:
    """The answer's first line: the GM's number, 「약 N%」, then the exact value, as every
    answer's first line reads (:func:`~widgets.views.format.total_first`).

    >>> lead("A가 이길 확률", Fraction(5, 8))
    '<p class="answer-total"><b>A가 이길 확률: 약 63% · 5/8 (62.50%)</b></p>'
    """
    return fmt.total_first(label, p)


def shown_steps(odds) -> list[int]:
    """The steps with a row of their own: the first listed steps, at most :data:`TABLE_STEPS`,
    while every exact fraction of the row has at most :data:`ROW_FRACTION_CHARS` characters
    (the first step always).

    >>> from widgets.fight import FightOdds
    >>> odds = FightOdds(("x",), [{"x": Fraction(1, 2 ** k)} for k in range(1, 40)], Fraction(1, 2 ** 39))
    >>> shown_steps(odds)
    [1, 2, 3, 4]
    >>> tiny = Fraction(1, 10 ** 30)
    >>> long = FightOdds(("x",), [{"x": Fraction(1, 2)}, {"x": tiny}, {"x": Fraction(1, 2) - tiny}], 0)
    >>> shown_steps(long)
    [1]
    """
    out = []
    cums = [odds.cumulative(key) for key in odds.keys]
    for k in range(1, min(odds.steps, TABLE_STEPS) + 1):
        row = [c[k - 1] for c in cums] + [1 - odds.ended(by=k)]
        if out and max(len(fmt.fraction(p)) for p in row) > ROW_FRACTION_CHARS:
            break
        out.append(k)
    return out


def fight_table(odds, layout: FightLayout) -> Table:
    """The exact cumulative table: per shown step, each result by then and what is left."""
    rows = []
    cums = {key: odds.cumulative(key) for key, _, _ in layout.results}
    for k in shown_steps(odds):
        rows.append([layout.step_name(k), *[prob_cell(cums[key][k - 1]) for key, _, _ in layout.results],
                     prob_cell(1 - odds.ended(by=k))])
    return Table([layout.step, *[f"{label} (누적)" for _, label, _ in layout.results], layout.rest],
                 rows, caption=f"{layout.step}마다 누적 확률 (정확한 값)", kind="odds fight")


def totals_line(odds, layout: FightLayout) -> str:
    """Where the fight stands after the last listed step, when the table stops before it: each
    result's total and what is left, in percent (the exact values are the library's)."""
    if odds.steps == len(shown_steps(odds)):
        return ""
    parts = [f"{label} {fmt.percent(odds.chance(key))}" for key, label, _ in layout.results]
    parts.append(f"{layout.rest} {fmt.percent(odds.rest)}")
    return (f'<p class="fight-totals">{_E(layout.step_name(odds.steps))}까지 (계산을 멈춘 곳): '
            f"{_E(', '.join(parts))}</p>")


def fight_bars(odds, layout: FightLayout) -> Bars:
    """Per shown step, a group of bars: each result's cumulative chance, then what is left (grey)."""
    xs, ps, bands, ticks, groups = [], [], [], [], []
    cums = {key: odds.cumulative(key) for key, _, _ in layout.results}
    size = len(layout.results) + 1
    for k in shown_steps(odds):
        start = xs[-1] + 2 if xs else 1
        own = list(range(start, start + size))
        xs += own
        ps += [cums[key][k - 1] for key, _, _ in layout.results] + [1 - odds.ended(by=k)]
        bands += [band for _, _, band in layout.results] + ["muted"]
        name = str(k) if not layout.names else layout.step_name(k)
        ticks.append((sum(own) / size, name))
        groups.append((name, size))
    return Bars(tuple(xs), tuple(ps), tuple(bands), tuple(ticks), groups=tuple(groups))


def mean_line(odds, layout: FightLayout, what: str = "싸움이 끝나기까지") -> str:
    """The mean length of the fights that ended within the listed steps (all of them when
    nothing is left); when some are still on after the last step, it says that the mean counts
    only the fights over by then, and how likely the rest is.

    >>> from widgets.fight import FightOdds
    >>> odds = FightOdds(("down",), [{"down": Fraction(1, 2)}, {"down": Fraction(1, 4)}], Fraction(1, 4))
    >>> print(mean_line(odds, DOWN, "쓰러뜨리기까지"))
    <p>쓰러뜨리기까지 평균 <b>약 1.33턴</b>: 계산한 2턴까지 끝나는 경우만의 평균입니다. 2턴이 지나도 끝나지 않을 확률(25.00%)은 셈에 넣지 않았습니다.</p>
    """
    mean = odds.mean_steps()
    if mean is None:
        return f"<p>{_E(layout.rest)}: 계산한 {odds.steps}{_E(layout.unit)} 안에 끝나지 않습니다.</p>"
    rest = ""
    if odds.rest and not odds.fixed_end:
        last = layout.step_name(odds.steps)
        rest = (f": 계산한 {last}까지 끝나는 경우만의 평균입니다. {josa(last, '이/가')} 지나도 끝나지 "
                f"않을 확률({fmt.percent(odds.rest)})은 셈에 넣지 않았습니다.")
    return f"<p>{_E(what)} 평균 <b>약 {_E(f'{float(mean):.2f}')}{_E(layout.unit)}</b>{_E(rest)}</p>"


def lead_within(odds, key: str, steps: int, label: str) -> str:
    """The GM's number of a fight with no fixed end: the chance of ``key`` within ``steps`` steps
    (``label`` names it, ``{by}`` the steps: fewer when the fight is certainly over sooner).

    >>> from widgets.fight import FightOdds
    >>> lead_within(FightOdds(("down",), [{"down": Fraction(1, 2)}], Fraction(1, 2)), "down", 3, "{by}턴 안에")
    '<p class="answer-total"><b>1턴 안에: 50% · 1/2 (50.00%)</b></p>'
    """
    by = min(steps, odds.steps)
    return lead(label.format(by=by), odds.chance(key, by=by))


def fight_shown(odds, layout: FightLayout, first: str, more: str = "",
                what: str = "싸움이 끝나기까지") -> Shown:
    """A fight's answer: ``first`` (the GM's number, :func:`lead`), ``more`` (other lines), the
    mean length, the cumulative table and the bars."""
    html_ = (first + more + mean_line(odds, layout, what) + fight_table(odds, layout).html()
             + totals_line(odds, layout))
    return Shown(html_, fight_bars(odds, layout))


def fight_legend(layout: FightLayout) -> tuple[tuple[str, str], ...]:
    return tuple((band, f"{label} (누적)") for _, label, band in layout.results) + (("muted", layout.rest),)


def walk_value(p: Fraction) -> str:
    """A chance as a worked fight writes it: 「약 N%」 first, the exact fraction beside it while
    it is short (:data:`~widgets.views.table.INLINE_FRACTION_CHARS`); a longer one waits in the
    step's 「정확한 값」 (:func:`walk_steps`).

    >>> walk_value(Fraction(1, 4)), walk_value(Fraction(0)), walk_value(Fraction(1, 3 * 10 ** 60))
    ('25% (1/4)', '0%', '0.01% 미만')
    """
    p = Fraction(p)
    if p in (0, 1) or len(fmt.fraction(p)) > INLINE_FRACTION_CHARS:
        return rounded_percent(p)
    return f"{rounded_percent(p)} ({fmt.fraction(p)})"


def walk_steps(odds, layout: FightLayout, most: int = 5) -> list[tuple]:
    """One fight step by step (the worked examples): what ended at each step and where the fight
    stands after it, exact, from the library's ``FightOdds``; then where it stands when the
    listing stops. Each step's long exact values come third, for its 「정확한 값」."""
    out = []
    cums = {key: odds.cumulative(key) for key, _, _ in layout.results}

    def folded(values):
        return [(label, p) for label, p in values if len(fmt.fraction(p)) > INLINE_FRACTION_CHARS]

    for k in range(1, min(odds.steps, most) + 1):
        lines, values = [], []
        for key, label, _ in layout.results:
            at, by = odds.ends[k - 1][key], cums[key][k - 1]
            lines += [f"{josa(label, '은/는')} 그 {layout.step}에 {walk_value(at)}.",
                      f"여기까지 {walk_value(by)}."]
            values += [(f"그 {layout.step}에 {label}", at), (f"여기까지 {label}", by)]
        left = 1 - odds.ended(by=k)
        lines += [f"{layout.rest}: {walk_value(left)}."]
        values.append((layout.rest, left))
        out.append((f"{layout.step_name(k)}:", " ".join(lines), folded(values)))
    if odds.steps > most:
        lines = [f"{label}: {walk_value(odds.chance(key))}." for key, label, _ in layout.results]
        lines += [f"{layout.rest}: {walk_value(odds.rest)}."]
        values = [(label, odds.chance(key)) for key, label, _ in layout.results] + [(layout.rest, odds.rest)]
        out.append((f"계산을 멈춘 {layout.step_name(odds.steps)}까지:", " ".join(lines), folded(values)))
    return out


# --- Underface: a duel -------------------------------------------------------------------------

DUEL = FightLayout((("a", "A 승리", "success"), ("b", "B 승리", "failure")), "라운드")
#: The duel's fighters in the widget: (prefix, name, attack, defence, weapon, DB, armour, HP).
DUEL_DEFAULTS = {"a": (60, 50, "브로드 소드", "+1D4", "가죽 갑옷", 12),
                 "b": (60, 30, "헤비 메이스", "0", "가죽 갑옷", 12)}
_FIRST = {"a": "A가 먼저 공격", "b": "B가 먼저 공격"}
#: The DB menu of the duel (as the HP widget's: a few values; each menu value is a first answer
#: the page ships).
DUEL_DB = ("0", "+1D4", "+1D6")


def _melee_choices() -> dict[str, str]:
    """The melee weapons by damage (names sharing a damage share one entry: its first name)."""
    groups: dict[str, list[str]] = {}
    for name, w in uf.MELEE_WEAPONS.items():
        groups.setdefault(w.damage, []).append(name)
    return {names[0]: f"{'·'.join(names)} ({damage})" for damage, names in groups.items()}


def _fighter(v: dict, side: str):
    return uf.Fighter(v[f"{side}_attack"], v[f"{side}_defence"], v[f"{side}_weapon"],
                      db=v[f"{side}_db"], armor=v[f"{side}_armor"], hp=v[f"{side}_hp"])


def duel_odds(**v):
    """The library's duel for the widget's values (``a_…``, ``b_…``, ``first``)."""
    return uf.duel(_fighter(v, "a"), _fighter(v, "b"), first=v["first"])


def _detail_lines(odds) -> str:
    """The GM's second question (4.4): the chance that the blow that downs the loser takes a PC
    loser to the death threshold or below (maximum HP = the HP the duel starts with, 가정)."""
    lines = []
    for key, side in (("b_at_death_threshold", "B"), ("a_at_death_threshold", "A")):
        loses = odds.chance(odds.detail_of[key])
        if loses:
            share = odds.chance(key) / loses
            lines.append(f"<li>{side}가 PC라면, {side}를 쓰러뜨리는 일격이 사망 임계 이하까지 갈 확률: "
                         f"{_E(fmt.percent(odds.chance(key)))} ({side}가 지는 결투의 {_E(fmt.percent(share))})</li>")
    return f'<ul class="fight-details">{"".join(lines)}</ul>' if lines else ""


@widget_factory
def duel_widget(uid: str = "uf-duel") -> LiveWidget:
    """「이 결투, 누가 먼저 쓰러질까」: two fighters, round by round, exact (``underface.duel``)."""
    def compute(**v):
        odds = duel_odds(**v)
        first = lead("A가 이길 확률", odds.chance("a"))
        more = (f"<p>B가 이길 확률 {_E(fmt.percent(odds.chance('b')))}</p>"
                + _detail_lines(odds))
        return fight_shown(odds, DUEL, first, more, "결투가 끝나기까지")
    controls = []
    for side, name in (("a", "A"), ("b", "B")):
        attack, defence, weapon, db, armor, hp = DUEL_DEFAULTS[side]
        controls += [
            number(f"{side}_attack", f"{name}의 무기 기능 (%)", 40, 80, attack, step=20),
            number(f"{side}_defence", f"{name}의 막기·회피 기능 (%, 불이익 뺀 값)", 30, 70, defence, step=20),
            select(f"{side}_weapon", f"{name}의 무기", _melee_choices(), weapon),
            select(f"{side}_db", f"{name}의 피해 보너스 (DB)", _db_choices(DUEL_DB), db),
            select(f"{side}_armor", f"{name}의 방어구", _armor_choices(), armor),
            number(f"{side}_hp", f"{name}의 HP", 6, 18, hp, step=6)]
    controls.append(select("first", "먼저 공격하는 쪽", _FIRST, "a"))
    return LiveWidget(uid, controls, compute, title="이 결투, 누가 먼저 쓰러질까",
                      x_label="라운드 (막대: A 승리·B 승리 누적, 회색은 아직 결투 중)",
                      legend=fight_legend(DUEL))


def duel_walk() -> WorkedRound:
    """The chapter's worked duel, round by round, from ``underface.duel``."""
    v = {f"{s}_{f}": x for s in "ab" for f, x in zip(
        ("attack", "defence", "weapon", "db", "armor", "hp"), DUEL_DEFAULTS[s])}
    odds = duel_odds(**v, first="a")
    a, b = DUEL_DEFAULTS["a"], DUEL_DEFAULTS["b"]
    setup = (f"A는 무기 기능 {a[0]}, 회피 {a[1]}, {a[2]}, DB {a[3]}, {a[4]}, HP {a[5]}. "
             f"B는 무기 기능 {b[0]}, 회피 {b[1]}, {b[2]}, DB {b[3]}, {b[4]}, HP {b[5]}. A가 먼저 공격합니다. "
             "회피는 방어구의 불이익을 이미 뺀 값입니다.")
    return WorkedRound("한 결투를 라운드마다 따라가기", [("준비:", setup)] + walk_steps(odds, DUEL),
                       {"odds": odds})


# --- Pathfinder 2e: turns to bring a target down ------------------------------------------------

DOWN = FightLayout((("down", "쓰러짐", "success"),), "턴", rest="아직 서 있음")
#: The GM's number: the chance the target is down within this many turns.
PF_TURNS = 3
PF_DEFAULTS = dict(bonus=10, ac=18, hp=30, damage="1D8+4")


def pf_odds(bonus, ac, off_guard, hp, damage, strikes, agile):
    return pf2e.strikes_to_down(bonus, ac, hp, normalise_typed(damage), strikes=strikes,
                                agile=agile, off_guard=off_guard)


@widget_factory
def down_widget(uid: str = "pf-down") -> LiveWidget:
    """「몇 턴이면 쓰러뜨릴까」: Strikes turn after turn until the target's HP is gone
    (``pf2e.strikes_to_down``)."""
    def compute(bonus, ac, off_guard, hp, damage, strikes, agile):
        odds = pf_odds(bonus, ac, off_guard, hp, damage, strikes, agile)
        first = lead_within(odds, "down", PF_TURNS, "{by}턴 안에 쓰러뜨릴 확률")
        used = fmt.josa(ac + pf2e.OFF_GUARD_PENALTY, "으로/로")
        more = (f"<p>무방비: AC {ac} − {-pf2e.OFF_GUARD_PENALTY} = {used} 계산 (보충 규칙)</p>"
                if off_guard else "")
        return fight_shown(odds, DOWN, first, more, "쓰러뜨리기까지")
    return LiveWidget(
        uid, [number("bonus", "명중 보너스 (다중 공격 페널티 전)", 6, 22, PF_DEFAULTS["bonus"], step=4),
              number("ac", "대상 AC", 14, 30, PF_DEFAULTS["ac"], step=4),
              toggle("off_guard", "무방비 (AC −2, 보충 규칙)"),
              number("hp", "대상 HP", 10, 50, PF_DEFAULTS["hp"], step=20),
              text("damage", "한 번 명중의 피해 (예: 1D8+4)", PF_DEFAULTS["damage"], ("2D6+4", "1D12+4")),
              number("strikes", "한 턴의 타격 횟수", 1, 3, 3),
              toggle("agile", "날렵함 무기 (−4/−8)")],
        compute, title="몇 턴이면 쓰러뜨릴까",
        x_label="턴 (막대: 쓰러짐 누적, 회색은 아직 서 있음)", legend=fight_legend(DOWN))


def pf_walk() -> WorkedRound:
    d = PF_DEFAULTS
    odds = pf_odds(d["bonus"], d["ac"], False, d["hp"], d["damage"], 3, False)
    setup = (f"명중 보너스 {fmt.signed(d['bonus'])}인 파이터가 AC {d['ac']}, HP {d['hp']}인 적을 매 턴 "
             f"세 번 칩니다. 명중 피해는 {d['damage']}.")
    return WorkedRound("적 하나를 쓰러뜨리기까지 턴마다 따라가기", [("준비:", setup)] + walk_steps(odds, DOWN),
                       {"odds": odds})


# --- Trench Crusade: attacks to take a model out of action -------------------------------------

OUT = FightLayout((("out", "전투 불능", "down"),), "공격", rest="아직 전투 가능", ordinal="{k}번째 공격",
                  count="번")
#: The GM's number: the chance the model is out within this many attacks.
TC_ATTACKS = 3
TC_DEFAULTS = dict(dice=0, modifier=0, injury_dice=0, armour=1)


@widget_factory
def out_widget(uid: str = "tc-out") -> LiveWidget:
    """「몇 번 쏘면 전투 불능이 될까」: attack after attack until the model is out of action
    (``trench_crusade.attacks_to_out``)."""
    def compute(dice, modifier, injury_dice, armour, tough, blood):
        odds = tc.attacks_to_out(dice=dice, modifier=modifier, injury_dice=injury_dice,
                                 armour=armour, tough=tough, blood=blood)
        first = lead_within(odds, "out", TC_ATTACKS, "공격 {by}번 안에 전투 불능이 될 확률")
        half = next((k for k, p in enumerate(odds.cumulative("out"), 1) if p >= Fraction(1, 2)), None)
        more = f"<p>공격 <b>{half}번</b>이면 절반 넘게 전투 불능이 됩니다.</p>" if half else ""
        return fight_shown(odds, OUT, first, more, "전투 불능이 되기까지")
    return LiveWidget(
        uid, [number("dice", "성공 굴림 ±DICE", -2, 2, 0),
              number("modifier", "성공 굴림 보정치", -1, 1, 0),
              number("injury_dice", "부상 굴림 ±DICE (무기 등)", -1, 1, 0),
              select("armour", "대상의 갑옷", tc_armour_choices(), TC_DEFAULTS["armour"]),
              toggle("tough", "강인함 (TOUGH)"),
              select("blood", "유혈 표식을 쓰는 방법 (가정)", dict(tc.BLOOD_POLICIES), "none")],
        compute, title="몇 번 공격하면 전투 불능이 될까",
        x_label="공격 (막대: 전투 불능 누적, 회색은 아직 전투 가능)", legend=fight_legend(OUT))


def tc_walk() -> WorkedRound:
    d = TC_DEFAULTS
    odds = tc.attacks_to_out(dice=d["dice"], modifier=d["modifier"], injury_dice=d["injury_dice"],
                             armour=d["armour"])
    armour = next(label for label, v in tc.ARMOUR.items() if v == d["armour"])
    worn = fmt.josa(armour, "을/를")   # the particle follows the armour's name, the number in between
    if d["armour"]:
        worn = f"{armour}(부상 굴림 {fmt.signed(-d['armour'])}){worn[len(armour):]}"
    setup = f"±DICE 없이 {worn} 입은 대상을 한 번씩 공격합니다. 유혈 표식은 쓰지 않습니다."
    return WorkedRound("미니어처 하나가 전투 불능이 되기까지 공격마다 따라가기",
                       [("준비:", setup)] + walk_steps(odds, OUT), {"odds": odds})


# --- Hunter's Moon: can the PCs bring the body down? ------------------------------------------

HUNT = FightLayout((("win", "본체를 쓰러뜨림", "success"),), "라운드", rest="본체가 살아남음",
                   names=("난전 1라운드", "난전 2라운드", "추격 라운드"))
HM_DEFAULTS = dict(pcs="2/3/1, 2/3/2, 1/5/3", defence=9, life=20, doom=0, pursuit=2)
_PURSUIT = {None: "추격하지 않음", 1: "1", 2: "2", 3: "3", 4: "4"}
_TRIPLE = re.compile(r"\s*([+-]?\d+)\s*[/\s]\s*([+-]?\d+)\s*[/\s]\s*([+-]?\d+)\s*")


def parse_pcs(typed: str) -> list[tuple[int, int, int]]:
    """The PCs typed as 「무용/위력/자리」, one PC per comma: ``2/3/1, 1/5/2``.

    >>> parse_pcs("2/3/1, １/５/２")
    [(2, 3, 1), (1, 5, 2)]
    >>> parse_pcs("2/3")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: each PC is might/power/paragraph, PCs joined by commas, got '2/3'
    """
    parts = [p for p in normalise_typed(typed).split(",")]
    out = []
    for part in parts:
        m = _TRIPLE.fullmatch(part)
        if not m:
            raise RuleInputError(
                f"each PC is might/power/paragraph, PCs joined by commas, got {part.strip()[:40]!r}",
                "PC마다 【무용】/무기 위력/자리 세 수를 ‘/’로 잇고, PC 사이는 쉼표로 나눠 주세요 "
                f"(예: 2/3/1, 2/3/2). 읽지 못한 부분: {part.strip()[:40]!r}")
        out.append(tuple(int(x) for x in m.groups()))
    return out


def hm_odds(pcs, defence, life, doom, pursuit):
    return hm.hunt(parse_pcs(pcs), defence, life, doom=doom, pursuit=pursuit)


@widget_factory
def hunt_widget(uid: str = "hm-hunt") -> LiveWidget:
    """「본체를 쓰러뜨릴 수 있을까」: two melee rounds and the pursuit (``hunters_moon.hunt``)."""
    def compute(pcs, defence, life, doom, pursuit):
        odds = hm_odds(pcs, defence, life, doom, pursuit)
        first = lead("본체를 쓰러뜨릴 확률", odds.chance("win"))
        return fight_shown(odds, HUNT, first, "", "쓰러뜨린 경우, 쓰러뜨리기까지")
    return LiveWidget(
        uid, [text("pcs", "PC마다 【무용】/무기 위력/자리 (쉼표로 나눔, 1~4명)", HM_DEFAULTS["pcs"],
                   ("2/3/1, 2/3/2", "2/3/1, 2/3/2, 1/5/3, 2/4/4")),
              number("defence", "본체의 【방어치】", 8, 10, HM_DEFAULTS["defence"]),
              number("life", "본체의 【생명력】", 10, 30, HM_DEFAULTS["life"], step=10),
              number("doom", "파멸의 색 각성단계", 0, 1, HM_DEFAULTS["doom"]),
              select("pursuit", "추격할 PC의 【두뇌】 또는 【기술】", _PURSUIT, HM_DEFAULTS["pursuit"])],
        compute, title="본체를 쓰러뜨릴 수 있을까",
        x_label="라운드 (막대: 쓰러뜨림 누적, 회색은 본체가 살아남음)", legend=fight_legend(HUNT))


def hm_walk() -> WorkedRound:
    d = HM_DEFAULTS
    odds = hm_odds(d["pcs"], d["defence"], d["life"], d["doom"], d["pursuit"])
    setup = (f"PC 셋(【무용】/무기 위력/자리: {d['pcs']})이 【방어치】 {d['defence']}, 【생명력】 {d['life']}인 "
             f"본체를 공격하고, 【두뇌】 {d['pursuit']}인 PC가 추격합니다.")
    return WorkedRound("본체를 쓰러뜨리기까지 라운드마다 따라가기", [("준비:", setup)] + walk_steps(odds, HUNT),
                       {"odds": odds})


ALL_WIDGETS = [duel_widget, down_widget, out_widget, hunt_widget]
