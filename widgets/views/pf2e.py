"""Live widgets of the Pathfinder 2e attack-roll chapter (display only; math in ``widgets.pf2e``
and ``widgets.ranges``)."""
from __future__ import annotations

import html
from fractions import Fraction
from typing import Callable, Mapping

from .. import pf2e
from ..errors import RuleInputError
from ..ranges import RangeBands
from . import format as fmt
from .live import Bars, LiveWidget, Shown, number, select, toggle, widget_factory
from .table import Table, number_cell, strong
from .trench_crusade import WorkedExamples

#: Colour band of each degree of success in the bar plots.
DEGREE_BANDS = {"critical_success": "critical", "success": "success",
                "failure": "failure", "critical_failure": "down"}

RANK_CHOICES = {"untrained": "미훈련", "trained": "훈련",
                "expert": "전문", "master": "달인", "legendary": "전설"}
LEVEL_CHOICES = {1: "1레벨", 5: "5레벨", 10: "10레벨", 15: "15레벨", 20: "20레벨"}


def _e(text: object) -> str:
    return html.escape(str(text))


def _odds_cells(odds: Mapping) -> list[Fraction]:
    return [odds[k] for k in pf2e.DEGREES]


def _degree_head(*first: str) -> list[str]:
    return [*first, *(pf2e.DEGREE_LABELS_KO[k] for k in pf2e.DEGREES)]


def _degree_bars(odds: Mapping) -> Bars:
    """One bar per degree of success, named on the axis."""
    return Bars.outcomes({k: odds[k] for k in pf2e.DEGREES}, pf2e.DEGREE_LABELS_KO, DEGREE_BANDS)


def grouped_bars(groups: list[tuple[str, Mapping]]) -> Bars:
    """The degree bars of several rolls side by side, one group per roll (``(label, odds)``),
    a gap between groups, each group named under its own bars (its centre) and marked as a
    group (:attr:`Bars.groups`: the plot separates groups there, not through them).

    >>> b = grouped_bars([("1격", pf2e.strike_odds(10, 18)), ("2격", pf2e.strike_odds(5, 18))])
    >>> b.x, b.ticks, b.groups
    ((1, 2, 3, 4, 6, 7, 8, 9), ((2.5, '1격'), (7.5, '2격')), (('1격', 4), ('2격', 4)))
    """
    xs, ps, bands, ticks = [], [], [], []
    for label, odds in groups:
        start = xs[-1] + 2 if xs else 1
        own = [start + i for i in range(len(pf2e.DEGREES))]
        xs += own
        ps += [odds[k] for k in pf2e.DEGREES]
        bands += [DEGREE_BANDS[k] for k in pf2e.DEGREES]
        ticks.append((sum(own) / len(own), label))
    return Bars(tuple(xs), tuple(ps), tuple(bands), tuple(ticks),
                groups=tuple((label, len(pf2e.DEGREES)) for label, _ in groups))


# --- display objects (tables rendered from the library) -----------------------------------

class ProficiencyTable(Table):
    """Proficiency bonus by rank and level (supplementary rule), computed by the library."""

    def __init__(self, levels=(1, 5, 10, 15, 20)):
        self.levels = tuple(levels)
        super().__init__(["등급", *(f"{lv}레벨" for lv in self.levels)],
                         [[name, *(number_cell(fmt.signed(pf2e.proficiency_bonus(r, lv)))
                                   for lv in self.levels)] for r, name in RANK_CHOICES.items()],
                         caption="숙련 보너스 (보충 규칙)")

    def text(self) -> str:   # the caption is shown above the table, not repeated in the text
        return "\n".join(super().text().splitlines()[1:])


class RangeTable(Table):
    """The six range increments of one weapon, from :class:`~widgets.ranges.RangeBands`."""

    def __init__(self, bands: RangeBands, caption: str):
        self.bands = bands.table()
        super().__init__(["구간", "거리", "사거리 페널티"], [self._cells(r) for r in self.bands],
                         caption=caption, short=24)

    @staticmethod
    def _cells(row) -> list[str]:
        unit = row["unit"]
        span = (f"0–{row['to']}{unit}" if row["from"] == 0
                else f"{row['from']}{unit} 초과 ~ {row['to']}{unit}")
        return [row["label"], span, fmt.signed(row["modifier"])]

    def text(self) -> str:
        return "\n".join(" | ".join(r) for r in self.rows)


def crossbow_table() -> RangeTable:
    """The source's crossbow (range increment 120 ft)."""
    return RangeTable(pf2e.range_bands(120), "쇠뇌 (crossbow, 사거리 단위 120ft)")


def map_examples() -> WorkedExamples:
    """The source's longsword / agile shortsword example, computed by the library."""
    long_, short_ = "장검", "소검 (날렵함)"
    rows = []
    for n in (1, 2, 3):
        rows.append((f"{n}번째 공격", long_, fmt.signed(pf2e.multiple_attack_penalty(n, False))))
        rows.append((f"{n}번째 공격", short_, fmt.signed(pf2e.multiple_attack_penalty(n, True))))
    seq = pf2e.strike_sequence([(0, False), (0, False), (0, True)])
    rows.append(("장검 → 장검 → 소검", "세 번째는 소검", " / ".join(fmt.signed(v) for v in seq)))
    reaction = pf2e.strike_sequence([(0, False)], own_turn=False)
    rows.append(("남의 턴에 반응 행동으로 타격 (기회 공격 등)", "장검", fmt.signed(reaction[0])))
    return WorkedExamples(rows)


def crossbow_examples() -> WorkedExamples:
    """The source's crossbow distances, computed by the library."""
    rows = [(f"쇠뇌, 대상까지 {d}ft", "사거리 단위 120ft", fmt.signed(pf2e.range_penalty(d, 120)))
            for d in (120, 121, 240, 241, 360, 720)]
    try:
        pf2e.range_penalty(721, 120)
    except RuleInputError as err:
        rows.append(("쇠뇌, 대상까지 721ft", "사거리 단위 120ft", err.korean))
    return WorkedExamples(rows)


# --- 1. attack bonus ----------------------------------------------------------------------

_WEAPON_KINDS = {"melee": "근접 무기 (근력)", "finesse": "근접 기교 무기 (근력·민첩 중 높은 쪽)",
                 "ranged": "원거리 무기 (민첩)"}


@widget_factory
def attack_widget(uid: str = "pf-attack") -> LiveWidget:
    """Weapon attack bonus: ability modifier + proficiency (rank and level)."""
    def compute(kind, strength, dexterity, rank, level):
        prof = pf2e.proficiency_bonus(rank, level)
        args = dict(strength=strength, dexterity=dexterity, finesse=(kind == "finesse"))
        attack = "ranged" if kind == "ranged" else "melee"
        total = pf2e.attack_bonus(attack, proficiency=prof, **args)
        ability = pf2e.attack_bonus(attack, proficiency=0, **args)
        name = {"melee": "근력", "ranged": "민첩"}.get(
            kind, "민첩" if dexterity > strength else "근력")
        return Shown(
            f"<p>{name} {fmt.signed(ability)} + 숙련 {fmt.signed(prof)} "
            f"({RANK_CHOICES[rank].split()[0]}·{level}레벨) = "
            f"<b>{fmt.signed(total)}</b></p><p>명중 굴림: d20 {fmt.signed(total)} + 보너스·페널티</p>")
    return LiveWidget(
        uid, [select("kind", "무기 종류", _WEAPON_KINDS, "melee"),
              number("strength", "근력 수정치", 0, 4, 4),
              number("dexterity", "민첩 수정치", 0, 4, 2),
              select("rank", "숙련 등급", RANK_CHOICES, "trained"),
              select("level", "레벨", LEVEL_CHOICES, 1)],
        compute, title="내 기본 명중 보너스는 얼마인가 (능력 수정치 + 숙련)", plot=False)


# --- 2. typed bonuses and penalties -------------------------------------------------------

_TYPE_KO = {"circumstance": "상황", "status": "상태", "item": "물품", "untyped": "종류 미지정"}
_MOD_CHOICES = {
    "circumstance": {"0": "없음", "1": "+1 (아군의 조력)", "1,2": "+1과 +2 (조력 + 유리한 지형)",
                     "-2": "−2 (도박적인 전술)", "2,-2": "+2와 −2"},
    "status": {"0": "없음", "1": "+1 (보조 주문)", "1,2": "+1과 +2 (주문 두 개)",
               "-1,-2": "−1과 −2 (해로운 주문 두 개)", "1,-1": "+1과 −1"},
    "item": {"0": "없음", "1": "+1 (강화의 룬 +1)", "2": "+2 (강화의 룬 +2)",
             "1,2": "+1과 +2 (물품 두 개)", "-2": "−2 (불량품)", "1,-2": "+1과 −2"},
    "untyped": {"0": "없음", "-5": "−5 (다중 공격 2번째)", "-5,-2": "−5와 −2 (다중 공격 + 사거리)"},
}


def _parse_mods(kind: str, code: str) -> list[tuple[str, int]]:
    return [(kind, int(v)) for v in str(code).split(",") if int(v) != 0]


@widget_factory
def bonus_widget(uid: str = "pf-bonus") -> LiveWidget:
    """Typed bonuses and penalties: which ones count (supplementary stacking rule)."""
    def compute(circumstance, status, item, untyped):
        codes = {"circumstance": circumstance, "status": status, "item": item,
                 "untyped": untyped}
        mods = {k: _parse_mods(k, c) for k, c in codes.items()}
        rows = []
        for kind, ms in mods.items():
            given = ", ".join(fmt.signed(v) for _, v in ms) or "없음"
            plus = pf2e.stack_modifiers([m for m in ms if m[1] > 0])
            minus = pf2e.stack_modifiers([m for m in ms if m[1] < 0])
            rows.append([_TYPE_KO[kind], given,   # untyped: penalties only (STACKING_RULE)
                         "—" if kind == "untyped" else number_cell(fmt.signed(plus)),
                         number_cell(fmt.signed(minus))])
        total = pf2e.stack_modifiers([m for ms in mods.values() for m in ms])
        return Shown(
            Table(["종류", "붙은 값", "적용 보너스", "적용 페널티"], rows).html()
            + f"<p>명중 굴림에 더해지는 보너스·페널티 합계: <b>{fmt.signed(total)}</b></p>")
    return LiveWidget(
        uid, [select(k, _TYPE_KO[k], _MOD_CHOICES[k], "0") for k in _MOD_CHOICES],
        compute, title="보너스와 페널티: 어느 것이 적용되나", plot=False)


# --- 3. armor class -----------------------------------------------------------------------

_DEX_CAPS = {None: "상한 없음 (갑옷 없음)", 0: "+0", 1: "+1", 2: "+2", 3: "+3"}
_DEFENSE_PROF = {"untrained:1": "미훈련", "trained:1": "훈련·1레벨", "expert:11": "전문·11레벨",
                 "master:13": "달인·13레벨", "legendary:17": "전설·17레벨"}


def _rank_level(code: str) -> tuple[str, int]:
    rank, level = str(code).split(":")
    return rank, int(level)


@widget_factory
def ac_widget(uid: str = "pf-ac") -> LiveWidget:
    """AC = 10 + Dex (up to the armor's cap) + proficiency + armor item bonus (+ off-guard)."""
    def compute(dex, cap, item, prof, off_guard):
        rank, level = _rank_level(prof)
        p = pf2e.proficiency_bonus(rank, level)
        ac = pf2e.armor_class(dex, cap, p, item=item, off_guard=off_guard)
        plain = pf2e.armor_class(dex, cap, p, item=item)
        capped = pf2e.armor_class(dex, cap, 0) - 10
        cap_txt = "상한 없음" if cap is None else f"상한 {fmt.signed(cap)}"
        note = (f" 무방비 상황 페널티 {fmt.signed(ac - plain)} (보충 규칙)."
                if off_guard else "")
        return Shown(
            f"<p>AC = 10 + 민첩 {fmt.signed(capped)} (수정치 {fmt.signed(dex)}, {cap_txt}) + 숙련 "
            f"{fmt.signed(p)} ({_e(_DEFENSE_PROF[prof])}) + 갑옷 물품 {fmt.signed(item)}.{note}</p>"
            f"<p><b>AC {ac}</b></p>")
    return LiveWidget(
        uid, [number("dex", "민첩 수정치", 0, 4, 3),
              select("cap", "갑옷의 민첩 상한", _DEX_CAPS, 1),
              number("item", "갑옷의 물품 보너스", 0, 6, 4),
              select("prof", "갑옷 숙련", _DEFENSE_PROF, "trained:1"),
              toggle("off_guard", "무방비 (보충 규칙)")],
        compute, title="방어도(AC)는 얼마인가", plot=False)


# --- 4. strike sequence -------------------------------------------------------------------

@widget_factory
def strike_widget(uid: str = "pf-strikes") -> LiveWidget:
    """Up to three Strikes in one turn: each Strike's own weapon decides the MAP; exact odds."""
    def compute(bonus, ac, agile1, agile2, agile3):
        agile = (agile1, agile2, agile3)
        totals = pf2e.strike_sequence([(bonus, a) for a in agile])
        rows, strikes = [], []
        for n, (a, total) in enumerate(zip(agile, totals), start=1):
            odds = pf2e.strike_odds(bonus, ac, attack_number=n, agile=a)
            penalty = pf2e.multiple_attack_penalty(n, a)
            weapon = "날렵함" if a else "보통"
            rows.append([f"{n}격 ({weapon})", number_cell(fmt.signed(penalty)),
                         number_cell(fmt.signed(total)), *_odds_cells(odds)])
            strikes.append((f"{n}격", odds))
        head = _degree_head("공격", "다중 공격 페널티", "최종 보너스")
        hits = [(label, pf2e.success_or_better(odds)) for label, odds in strikes]
        return Shown(fmt.total_first("명중 (대성공 포함)", hits)
                     + f"<p>명중 보너스 {fmt.signed(bonus)}, 대상 AC {ac}</p>"
                     + Table(head, rows).html(),
                     grouped_bars(strikes))
    return LiveWidget(
        uid, [number("bonus", "명중 보너스 (다중 공격 페널티 전)", 6, 22, 10, step=4),
              number("ac", "대상 AC", 14, 30, 18, step=4),
              toggle("agile1", "1격 무기가 날렵함"),
              toggle("agile2", "2격 무기가 날렵함"),
              toggle("agile3", "3격 무기가 날렵함")],
        compute, title="타격 세 번은 각각 얼마나 맞나 (다중 공격 페널티)",
        x_label="타격 (막대 넷: 대성공·성공·실패·대실패)",
        legend=tuple((DEGREE_BANDS[k], pf2e.DEGREE_LABELS_KO[k]) for k in pf2e.DEGREES))


# --- 5. range bands (reusable) --------------------------------------------------------------

def range_band_widget(uid: str, bands_for: Callable[[object], RangeBands], *,
                      choice: object, distance: tuple, title: str,
                      describe: Callable[[object, object, object], str] | None = None,
                      out_note: str = "") -> LiveWidget:
    """A reusable range calculator: ``bands_for(value)`` builds the :class:`RangeBands` of the
    chosen weapon (or range increment), the reader moves the distance.

    ``choice`` is the control for the weapon (a :func:`select` or a :func:`number`);
    ``distance`` is ``(low, high, step, default)`` of the distance slider. ``describe(value,
    distance, band)`` may add a sentence; ``out_note`` is appended to an out-of-range message.
    """
    def compute(**values):
        value, dist = values[choice.name], values["distance"]
        bands = bands_for(value)
        if not bands.in_range(dist):  # text or a negative distance raises here instead
            try:
                bands.band(dist)
            except RuleInputError as err:
                return Shown(fmt.error(err.korean + out_note))
        band = bands.band(dist)
        unit = bands.unit
        text = (f"<p>대상까지 {_e(dist)}{_e(unit)}: <b>{_e(band.label)}</b>, 수정치 "
                f"<b>{fmt.signed(band.modifier)}</b> (최대 {_e(bands.table()[-1]['to'])}{_e(unit)})</p>")
        if describe is not None:
            text += describe(value, dist, band)
        return Shown(text)
    low, high, step, default = distance
    return LiveWidget(uid, [choice, number("distance", "대상까지 거리", low, high, default, step)],
                      compute, title=title, plot=False)


@widget_factory
def range_widget(uid: str = "pf-range") -> LiveWidget:
    """PF2e range penalty: distance and range increment → penalty, or out of range."""
    return range_band_widget(
        uid, pf2e.range_bands,
        choice=number("increment", "사거리 단위 (ft)", 10, 120, 120, step=10),
        distance=(0, 800, 10, 250), title="이 거리에서 사거리 페널티는 얼마인가",
        describe=lambda inc, d, band: (f"<p>명중 굴림 사거리 페널티: "
                                       f"{fmt.signed(pf2e.range_penalty(d, inc))}</p>"))


_REACH_WEAPONS = {"reach5": "근접 무기 (간격 5ft)", "reach10": "간격 무기 (간격 10ft)",
                  "inc60": "원거리 무기 (사거리 단위 60ft)", "inc120": "쇠뇌 (사거리 단위 120ft)"}


def reach_or_range_bands(weapon: str) -> RangeBands:
    """Where a weapon can Strike: melee reach as one band, ranged weapons by increments."""
    if weapon.startswith("reach"):
        return RangeBands.from_uppers([("간격 안", int(weapon[5:]), 0, None)],
                                      unit="ft")
    return pf2e.range_bands(int(weapon[3:]))


_ENEMY_REACH = {5: "간격 5ft (보통)", 10: "간격 10ft (간격 무기·큰 존재)"}


@widget_factory
def strike_reach_widget(uid: str = "pf-reach") -> LiveWidget:
    """Can I Strike from here, and if not, how to close in: a Step (5 ft, no reactions) or a
    Stride, whose every 5 ft inside the enemy's reach can trigger its reactions."""
    def compute(weapon, distance, enemy_reach):
        bands = reach_or_range_bands(weapon)
        if bands.in_range(distance):
            band = bands.band(distance)
            extra = (f", 사거리 페널티 {fmt.signed(band.modifier)}" if band.modifier else "")
            return Shown(f"<p>대상까지 {distance}ft: <b>지금 자리에서 타격할 수 있습니다</b>"
                         f" ({_e(band.label)}{extra}).</p>")
        if not weapon.startswith("reach"):
            return Shown(f"<p>대상까지 {distance}ft: 최대 사거리 {bands.table()[-1]['to']}ft를 넘어 "
                         "쏠 수 없습니다. 보행으로 다가가야 합니다.</p>")
        reach = int(weapon[5:])
        plan = pf2e.approach_options(distance, reach, enemy_reach)
        rows = [[number_cell(f"{a}ft → {b}ft"),
                 strong("상대 간격 안의 칸을 떠남: 반응 행동을 부를 수 있음") if hot else "간격 밖: 반응 없음"]
                for a, b, hot in plan["stride"]]
        hot = sum(1 for *_, h in plan["stride"] if h)
        step = (f"<p><b>한 걸음</b>: {plan['gap']}ft만 다가가면 되므로 한 걸음으로 충분합니다. "
                "한 걸음은 반응 행동을 부르지 않습니다.</p>" if plan["step"] else
                f"<p>한 걸음은 5ft뿐이라 {plan['gap']}ft를 다가가기에 모자랍니다.</p>")
        text = (f"<p>대상까지 {distance}ft, 내 간격 {reach}ft: 타격하려면 {plan['gap']}ft 다가가야 합니다.</p>"
                + step + "<p><b>보행</b>으로 다가가면 5ft 걸음마다 반응 행동의 계기를 따집니다. "
                f"그 가운데 상대 간격 안의 칸을 떠나 기회 공격을 부를 수 있는 걸음은 모두 <b>{hot}개</b>입니다. "
                "칸을 떠날 때라는 조건은 원문에 없어 플레이어 코어의 기회 공격에서 가져왔습니다 (보충 규칙).</p>"
                + Table(["5ft 이동", f"상대(간격 {enemy_reach}ft)"], rows).html())
        return Shown(text)
    return LiveWidget(
        uid, [select("weapon", "내 무기", _REACH_WEAPONS, "reach5"),
              number("distance", "대상까지 거리 (ft)", 5, 60, 15, step=5),
              select("enemy_reach", "상대의 간격", _ENEMY_REACH, 10)],
        compute, title="지금 자리에서 타격할 수 있나: 보행과 한 걸음 (반응 조건은 보충 규칙)", plot=False)


# --- 6. spells -----------------------------------------------------------------------------

_CASTER_PROF = {"trained:1": "훈련·1레벨", "trained:5": "훈련·5레벨", "expert:7": "전문·7레벨",
                "master:15": "달인·15레벨", "legendary:19": "전설·19레벨"}


#: A target's save from the caster's side: the failures "or worse" (sums from ``dice.or_better``).
_SAVE_FAILS = {"failure": "대상이 내성에 실패 (대실패 포함)"}


@widget_factory
def spell_widget(uid: str = "pf-spell") -> LiveWidget:
    """Spell attack modifier and spell DC, with the odds of a target's saving throw."""
    def compute(ability, prof, save):
        rank, level = _rank_level(prof)
        p = pf2e.proficiency_bonus(rank, level)
        attack = pf2e.attack_bonus("spell", spellcasting=ability, proficiency=p)
        dc = pf2e.spell_dc(ability, p)
        odds = pf2e.save_odds(save, dc)
        return Shown(
            f"<p>주문시전 능력 수정치 {fmt.signed(ability)}, 숙련 {fmt.signed(p)} "
            f"({_e(_CASTER_PROF[prof])}): 주문 명중 굴림 <b>d20 {fmt.signed(attack)}</b>, "
            f"<b>주문 DC {dc}</b></p>"
            + fmt.total_first("대상이 내성에 성공 (대성공 포함)", pf2e.success_or_better(odds))
            + fmt.graded_lines(odds, tuple(reversed(pf2e.DEGREES)), _SAVE_FAILS)
            + Table(_degree_head(), [_odds_cells(odds)], row_heads=False,
                    caption=f"내성 수정치 {fmt.signed(save)}인 대상의 내성굴림 결과").html(),
            _degree_bars(odds))
    return LiveWidget(
        uid, [number("ability", "주문시전 능력 수정치", 0, 5, 4),
              select("prof", "주문 숙련", _CASTER_PROF, "trained:1"),
              number("save", "대상의 내성 수정치", 0, 30, 6, step=3)],
        compute, title="주문 DC는 얼마이고, 대상은 얼마나 버티나", x_label="대상의 내성굴림 결과",
        legend=tuple((DEGREE_BANDS[k], pf2e.DEGREE_LABELS_KO[k]) for k in pf2e.DEGREES))
