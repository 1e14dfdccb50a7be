"""Quick-reference tables (빠른 참조), one page per game, rendered from the library's data.

Display only: every number below comes from a library constant or a library call; this module
only picks and lays out. Each function returns a :class:`RefTable` (html for the book, text
for nbval).
"""
from __future__ import annotations

import html
import re

from .. import bfrpg as bf
from .. import hunters_moon as hm
from .. import pf2e
from .. import trench_crusade as tc
from .. import underface as uf
from ..ranges import BFRPG_MISSILE_RANGES, bfrpg_missile_bands
from . import format as fmt
from . import labels
from .table import Cell, Table



def _plain(label: str) -> str:
    """A library label without an English gloss: '단궁 (shortbow)' → '단궁'."""
    return re.sub(r"\s*\([A-Za-z][^)]*\)", "", label)


def _span(lo: int | None, hi: int | None) -> str:
    if lo is None:
        return f"{hi} 이하"
    if hi is None:
        return f"{lo} 이상"
    return str(lo) if lo == hi else f"{lo}~{hi}"


class RefTable(Table):
    """One quick-reference table: a caption, a header row and rows of text cells (the one
    table helper, :class:`~widgets.views.table.Table`; short cells such as ``−2`` or
    ``5/12 (41.67%)`` stay on one line).

    >>> t = RefTable("예", ["가", "나"], [["1", "2"]])
    >>> print(repr(t))
    예
    가 | 나
    1 | 2
    >>> "<caption>예</caption>" in t._repr_html_()
    True
    """

    def __init__(self, caption: str, header: list[str], rows: list[list[str]], note: str = ""):
        super().__init__(header, rows, caption=caption, note=note, kind="quickref", short=8)


class RefGroup:
    """Several quick-reference tables shown as one output, under an optional title line.

    >>> g = RefGroup([RefTable("가", ["a"], [["1"]]), RefTable("나", ["b"], [["2"]])], "둘")
    >>> print(repr(g))
    둘
    가
    a
    1
    <BLANKLINE>
    나
    b
    2
    >>> g._repr_html_().count("<table")
    2
    """

    def __init__(self, tables: list[RefTable], title: str = ""):
        self.tables, self.title = list(tables), title

    def _repr_html_(self) -> str:
        title = f'<p class="table-group">{html.escape(self.title)}</p>' if self.title else ""
        return title + "".join(t.html() for t in self.tables)

    def __repr__(self) -> str:
        return "\n".join(([self.title] if self.title else []) + ["\n\n".join(t.text() for t in self.tables)])


# --- Trench Crusade ------------------------------------------------------------------------

def tc_charts() -> RefGroup:
    """The success roll chart and the injury chart (supplementary), a small table each.

    >>> [t.rows[0] for t in tc_charts().tables]
    [['6 이하', '실패'], ['1 이하', '효과 없음']]
    """
    return RefGroup([
        RefTable("성공 굴림", ["합계", "결과"],
                 [[_span(lo, hi), _plain(label)] for _, label, lo, hi in tc.SUCCESS_CHART]),
        RefTable("부상 굴림 (보충 규칙)", ["합계", "결과"],
                 [[_span(lo, hi), _plain(label)] for _, label, lo, hi in tc.INJURY_CHART])],
        "판정표: 2D6 합계 (±DICE를 적용하고 보정치를 더한 값)")


def _how(net: int, kept: int = 2) -> str:
    thrown, kept = tc.roll_size(net, kept)
    return "2D6 그대로" if net == 0 else f"{thrown}D6 중 {'높은' if net > 0 else '낮은'} 눈 {kept}개"


def _dice_cell(net: int) -> Cell:
    """``+1 DICE`` with how the dice are thrown under it (a heading cell)."""
    label, how = f"{fmt.signed(net)} DICE", _how(net)
    return Cell(f"{label} ({how})", markup=f"{html.escape(label)}<br><small>{html.escape(how)}</small>")


def tc_success_odds(nets: tuple[int, ...] = (-3, -2, -1, 0, 1, 2, 3)) -> RefTable:
    """Success-roll odds for each net ±DICE (how the dice are thrown under each).

    >>> t = tc_success_odds((0, 1))
    >>> t.rows[0][0].text, t.rows[0][1], t.rows[1][0].text
    ('0 DICE (2D6 그대로)', '5/12 (41.67%)', '+1 DICE (3D6 중 높은 눈 2개)')
    """
    rows = []
    for net in nets:
        odds = tc.success_odds(net)
        rows.append([_dice_cell(net)] + [fmt.prob(odds[k]) for k, _, _, _ in tc.SUCCESS_CHART])
    return RefTable("순 ±DICE별 성공 굴림 확률 (보정치 0)", ["순 DICE"]
                    + [_plain(label) for _, label, _, _ in tc.SUCCESS_CHART], rows)


def tc_dice_sources() -> RefTable:
    """Every source of ±DICE, with the bloodbath cost and armour.

    >>> [r[2] for r in tc_dice_sources().rows][:2]
    ['−1 DICE', '+1 DICE']
    """
    rows = [[what, roll, f"{fmt.signed(dice)} DICE", basis]
            for what, roll, dice, basis in tc.DICE_SOURCES.values()]
    rows += [["능력치의 원거리 ±DICE", "그 미니어처의 원거리 공격", "능력치에 적힌 값", "보충"],
             ["능력치의 근접 ±DICE", "그 미니어처의 근접 공격", "능력치에 적힌 값", "보충"],
             ["무기 카드의 명중·부상 DICE 보정", "그 무기의 공격과 부상 굴림", "무기 카드에 적힌 값", "보충"]]
    rows.append([f"유혈낭자: 유혈 표식 {tc.BLOODBATH_COST['normal']}개(중상이면 "
                 f"{tc.BLOODBATH_COST['down']}개)를 한꺼번에 씀", "그 미니어처가 받는 부상 굴림",
                 "남기는 주사위 +1", "요약본"])
    for label, value in tc.ARMOUR.items():
        if value:
            rows.append([_plain(label), "그 미니어처가 받는 부상 굴림", f"합계 {fmt.signed(-value)}", "보충"])
    rows.append(["참호 방패 (갑옷과 함께)", "그 미니어처가 받는 부상 굴림",
                 f"합계 {fmt.signed(-tc.TRENCH_SHIELD)}", "보충"])
    return RefTable("±DICE와 갑옷: 어디서 붙나", ["상황", "바뀌는 굴림", "효과", "근거"], rows,
                    "+DICE와 −DICE는 하나씩 서로 지운 뒤 남은 만큼만 적용합니다. 유혈 표식과 축복 표식은 "
                    "쓰면 없어집니다(소모).")


def tc_injury_odds(dice: tuple[int, ...] = (0, 1, 2)) -> RefGroup:
    """Injury-roll odds (supplementary chart), a table for each armour: a row for each result,
    a column for each net ±DICE.

    >>> t = tc_injury_odds((0, 1)).tables[0]
    >>> t.caption, t.head, t.rows[-1]
    ('갑옷 없음', ['결과', '0 DICE', '+1 DICE'], ['전투 불능', '5/18 (27.78%)', '113/216 (52.31%)'])
    """
    tables = []
    for label, armour in tc.ARMOUR.items():
        odds = [tc.injury_odds(net, armour) for net in dice]
        rows = [[_plain(name.split(":")[0])] + [fmt.prob(o[key]) for o in odds]
                for key, name, _, _ in tc.INJURY_CHART]
        caption = f"{_plain(label)} (부상 굴림 합계 {fmt.signed(-armour)})" if armour else "갑옷 없음"
        tables.append(RefTable(caption, ["결과"] + [f"{fmt.signed(net)} DICE" for net in dice], rows))
    return RefGroup(tables, "부상 굴림 확률 (보충 규칙, 유혈낭자 없음): 갑옷마다 한 표, 받는 쪽의 순 ±DICE마다 한 열")


# --- Basic Fantasy RPG ---------------------------------------------------------------------

def bf_to_hit() -> RefTable:
    """Every to-hit modifier of the floor-plan chapter in one table.

    >>> [r[1] for r in bf_to_hit().rows][:2]
    ['+2', '+2']
    """
    bands = bfrpg_missile_bands(next(iter(BFRPG_MISSILE_RANGES))).table()
    (least_pct, least), (most_pct, most) = bf.COVER_PENALTY_RANGE
    rows = [["뒤에서 공격하기 (상대의 뒤쪽 칸에서)", fmt.signed(bf.REAR_ATTACK_BONUS), "원문 (핵심 규칙 「조우」를 따름)"],
            ["도주하는 상대에게 분리 사격 (떠난 상대마다 한 번)", fmt.signed(bf.PARTING_SHOT_BONUS),
             "원문 (핵심 규칙의 방어 이동을 따름)"]]
    rows += [[f"미사일: {b['label']}", fmt.signed(b["modifier"]), "보충 규칙 (사거리)"] for b in bands]
    rows += [["미사일: 장거리 너머", "쏠 수 없음", "보충 규칙 (사거리)"],
             ["5피트 안에서 근접전 중인 상대에게 미사일", fmt.signed(bf.INTO_MELEE_PENALTY), "보충 규칙"],
             [f"엄폐·은폐 ({least_pct}%~{most_pct}% 가려짐)",
              f"{fmt.signed(least)} ~ {fmt.signed(most)}", "보충 규칙 (GM이 정도를 정함)"],
             ["단단한 엄폐", f"{fmt.signed(least * bf.HARD_COVER_FACTOR)} ~ "
              f"{fmt.signed(most * bf.HARD_COVER_FACTOR)}", "보충 규칙"],
             ["아군 칸 너머로 사격", "GM 재량 (엄폐처럼)", "원문"]]
    return RefTable("명중 굴림 수정치", ["상황", "수정치", "근거"], rows)


def bf_missile_ranges() -> RefTable:
    """Missile ranges (short / medium / long, feet) of the core rules.

    >>> bf_missile_ranges().rows[0]
    ['장궁', '70', '140', '210']
    """
    rows = [[_plain(name), *(str(v) for v in feet)] for name, feet in BFRPG_MISSILE_RANGES.items()]
    bands = bfrpg_missile_bands(next(iter(BFRPG_MISSILE_RANGES))).table()
    return RefTable("미사일 사거리 (피트, 보충 규칙)", ["무기"]
                    + [f"{b['label']} ({fmt.signed(b['modifier'])})" for b in bands], rows)


def bf_diagonals(count: int = 8) -> RefTable:
    """Feet of straight diagonal moves (alternating 5/10 ft) beside orthogonal ones.

    >>> bf_diagonals(4).rows[-1]
    ['4칸', '20피트', '30피트']
    """
    rows = [[f"{n}칸", f"{bf.path_cost([(i, 0) for i in range(n + 1)])}피트",
             f"{bf.path_cost([(i, i) for i in range(n + 1)])}피트"] for n in range(1, count + 1)]
    return RefTable("이동 비용 (5/10피트 번갈아 세는 대각선)", ["칸 수", "가로·세로", "대각선"], rows)


def bf_melee_options() -> RefTable:
    """What each way of moving allows (from the library's movement options): attacking in the
    same round, and whether it takes parting shots (only moves that leave an opponent do). That
    a combatant who fled at walking speed may still attack is the book's reading (가정).

    >>> bf_melee_options().rows[0], bf_melee_options().rows[3]
    (['걸은 뒤 공격 가능', '예', '없음'], ['근접전을 유지한 채 달리기 (두 배로 세어 이동 속도의 두 배까지, 가정)', '아니요', '없음'])
    """
    rows = [("walk", labels.BF_MOVE_OPTIONS["walk"]), ("run", labels.BF_MOVE_OPTIONS["run"]),
            ("melee_move", labels.BF_MOVE_OPTIONS["melee_move"]),
            ("run", "근접전을 유지한 채 달리기 (두 배로 세어 이동 속도의 두 배까지, 가정)")]
    rows += [(k, labels.BF_MOVE_OPTIONS[k]) for k in ("withdraw", "flee_walk", "flee_run")]
    reading = {"flee_walk": " (가정)"}
    return RefTable("이동 방식과 공격", ["이동 방식", "같은 라운드에 공격", "분리 사격"],
                    [[label, ("예" if bf.can_attack_after(k) else "아니요") + reading.get(k, ""),
                      "떠난 상대마다 한 번" if k in bf.FLIGHT_OPTIONS else "없음"]
                     for k, label in rows],
                    "분리 사격은 떠난 상대가 명중 굴림 +2로 하는 공격으로, 보통은 근접 무기로 한 번 칩니다. "
                    "상대 곁을 떠나는 걸음에만 따르고, 근접전을 떠나지 않으면 달려도 분리 사격은 "
                    "없습니다 (원문 근접 예제 2의 5번 칸). 가정: 근접전 중에 차례를 시작한 전투원도 근접전을 떠나지 "
                    "않고 달릴 수 있다고 봅니다. 가정: 원문은 도주한 전투원이 공격할 수 있는지 "
                    "정하지 않습니다. 이 책은 걸어서 도주했다면 걷기처럼 공격할 수 있고, 달려서 도주했다면 "
                    "달리기처럼 공격할 수 없다고 봅니다. 근접전과 도주, 분리 사격은 상대마다 따로 셉니다.")


# --- Pathfinder 2e -------------------------------------------------------------------------

def pf_degrees(needs: tuple[int, ...] = tuple(range(1, 22, 2))) -> RefTable:
    """Degree-of-success odds by the d20 face needed (DC − modifier); d20 odds are multiples of
    1/20, so the percent is exact.

    >>> pf_degrees((11,)).rows[0]
    ['11', '5.00%', '45.00%', '45.00%', '5.00%']
    """
    rows = []
    for need in needs:
        odds = pf2e.degree_odds(0, need)
        rows.append([str(need)] + [fmt.percent(odds[k]) for k in pf2e.DEGREES])
    return RefTable("성공 단계 확률: 필요한 d20 눈 = DC(AC) − 1D20에 더하는 값", ["필요한 눈"]
                    + [pf2e.DEGREE_LABELS_KO[k] for k in pf2e.DEGREES], rows, pf2e.DEGREE_RULE)


def pf_map() -> RefTable:
    """Multiple attack penalty by attack number, normal and agile weapons.

    >>> pf_map().rows[1]
    ['두 번째', '−5', '−4']
    """
    rows = [[f"{'첫두세'[n - 1]} 번째",
             fmt.signed(pf2e.multiple_attack_penalty(n, False)),
             fmt.signed(pf2e.multiple_attack_penalty(n, True))] for n in (1, 2, 3)]
    rows.append(["네 번째 이후 (보충 규칙)", fmt.signed(pf2e.multiple_attack_penalty(4, False)),
                 fmt.signed(pf2e.multiple_attack_penalty(4, True))])
    return RefTable("다중 공격 페널티 (자기 턴의 공격만, 지금 쓰는 무기 기준)",
                    ["공격", "보통 무기", "날렵함 무기"], rows,
                    "원문은 세 번째 공격까지만 적습니다. 네 번째 이후도 세 번째와 같다는 것은 플레이어 코어에서 "
                    "가져온 보충 규칙입니다.")


def pf_ranges(increments: tuple[int, ...] = (10, 20, 30, 60, 100, 120)) -> RefTable:
    """Range penalty by increment: the far edge (ft) of each increment, a column for each
    weapon's range increment.

    >>> t = pf_ranges((120,))
    >>> t.head, t.rows[-1]
    (['구간', '페널티', '120'], ['6차', '−10', '720'])
    """
    tables = [pf2e.range_bands(inc).table() for inc in increments]
    rows = [[band["label"].split()[0], fmt.signed(band["modifier"])]
            + [str(t[i]["to"]) for t in tables] for i, band in enumerate(tables[0])]
    inc = increments[len(increments) // 2]            # a worked example, from the library
    far = inc * 5 // 2
    band = next(b for b in pf2e.range_bands(inc).table() if b["from"] < far <= b["to"])
    example = (f"예: 사거리 단위 {inc}ft인 무기로 {far}ft 떨어진 적을 치면 {band['label'].split()[0]} 구간"
               f"({band['to']}ft까지), 페널티 {fmt.signed(pf2e.range_penalty(far, inc))}. ")
    return RefTable("사거리 페널티: 사거리 단위(ft)마다 각 구간이 끝나는 거리(ft)", ["구간", "페널티"]
                    + [str(inc) for inc in increments], rows,
                    example + "여섯 번째 단위 너머로는 공격할 수 없습니다.")


def pf_modifiers() -> RefTable:
    """Bonus types, how they stack, and the off-guard penalty.

    >>> pf_modifiers().rows[-1][1]
    '−2 상황 페널티'
    """
    rows = [["상황 보너스·페널티", "전장의 형세, 아군의 도움, 무리한 전술"],
            ["상태 보너스·페널티", "주문이나 마법 효과"],
            ["물품 보너스·페널티", "마법 무기·갑옷, 불량품"],
            ["종류 미지정 페널티", "다중 공격 페널티, 사거리 페널티 (모두 더함)"],
            ["무방비 (AC, 보충 규칙)", f"{fmt.signed(pf2e.OFF_GUARD_PENALTY)} 상황 페널티"]]
    return RefTable("보너스와 페널티", ["종류", "출처 또는 값"], rows, pf2e.STACKING_RULE)


# --- Underface -----------------------------------------------------------------------------

def uf_hit_odds(skills: tuple[int, ...] = (40, 50, 60, 70, 80)) -> RefTable:
    """Chance that an attack hits (special included) for attack skill × defence skill.

    >>> uf_hit_odds((50,)).rows[0][1]
    '151/400 (37.75%)'
    """
    rows = []
    for attack in skills:
        cells = []
        for defence in skills:
            odds = uf.opposed_odds(attack, defence)
            cells.append(fmt.prob(odds["attacker_wins"] + odds["attacker_wins_special"]))
        rows.append([f"공격 {attack}"] + cells)
    return RefTable("명중 확률: 공격 기능 × 방어 기능 (판정 설정은 가정)", ["공격 \\ 방어"]
                    + [f"방어 {d}" for d in skills], rows)


def uf_death_thresholds(max_hps: tuple[int, ...] = tuple(range(8, 21))) -> RefTable:
    """Death threshold by maximum HP.

    >>> uf_death_thresholds((11,)).rows[0]
    ['11', '−6']
    """
    return RefTable("사망 임계 (PC만)", ["최대 HP", "사망 임계"],
                    [[str(hp), fmt.signed(uf.death_threshold(hp))] for hp in max_hps])


# --- Hunter's Moon -------------------------------------------------------------------------

def hm_checks(needs: tuple[int, ...] = tuple(range(2, 14))) -> RefTable:
    """Check odds by the dice total needed (target − modifiers), special and fumble apart.

    >>> hm_checks((7,)).rows[0][1]
    '7/12 (58.33%)'
    """
    rows = []
    for need in needs:
        odds = hm.check_odds(0, need)
        rows.append([str(need), fmt.prob(hm.success_chance(odds)),
                     fmt.prob(odds["failure"] + odds["fumble"])])
    return RefTable("판정 (가정): 2D6 + 능력치 + 수정 ≥ 목표치 (필요한 주사위 합 = 목표치 − 능력치 − 수정)",
                    ["필요한 합", "성공 (스페셜 포함)", "실패 (펌블 포함)"], rows,
                    f"주사위 두 개의 눈이 {hm.SPECIAL_RAW}이면 스페셜(언제나 성공), "
                    f"{hm.FUMBLE_RAW}이면 펌블(언제나 실패)입니다. 원문에 판정 절차가 없어 이 책이 정한 가정입니다.")


def hm_damage() -> RefTable:
    """Damage formulas of both sides, with the numbers from the library's constants.

    >>> hm_damage().rows[0][1]
    '무기 위력 + 자기 패러그래프 번호'
    """
    rows = [["PC의 공격", "무기 위력 + 자기 패러그래프 번호",
             "파멸의 색: + 각성단계, 크리티컬 히트: + 달성치"],
            ["위협의 공격 (자동 명중, 방어판정으로 막음)", "위력 + 파멸의 색 × 2", "자리 번호는 더하지 않음, 파멸의 색 = 각성단계"],
            ["추격 라운드", f"모든 데미지 + 1D{hm.PURSUIT_DAMAGE_DIE}", "위협이 PC에게 주는 데미지도"],
            ["정찰판정 펌블의 반격", f"1D{hm.RECON_COUNTERATTACK_DIE} + 괴물 레벨", "전투 중인 PC 모두"],
            ["위협 격파", "데미지 ≥ 【내구도】", "본체 【생명력】 − 그 위협의 【내구도】"],
            ["비행 중인 목표", f"대공이 없는 공격에 받는 데미지 −{hm.FLYING_DAMAGE_REDUCTION}",
             "0 아래로는 안 내려감 (가정)"],
            ["포박", f"PC 판정 {fmt.signed(hm.BOUND_CHECK_MODIFIER)}, 괴물 【공격치】·【방어치】 "
                     f"{fmt.signed(hm.BOUND_THREAT_VALUE_MODIFIER)}",
             f"라운드 종료 때 【생명력】 −1D{hm.BOUND_ROUND_END_DIE} (위협 카드는 잃지 않음, 가정)"],
            ["잠수 중인 PC가 잠수 중이 아닌 목표를 공격", "굴리지 않고 명중시킬 수 있음 (고를 수 있음)",
             f"달성치가 필요하면 {hm.DIVING_ACHIEVEMENT}"],
            ["잠수 중인 괴물·위협의 공격", "목표 PC는 방어판정을 할 수 없음", ""]]
    return RefTable("데미지와 상태", ["상황", "값", "덧붙임"], rows)


# --- whole fights (the chapters' fight widgets, widgets/views/fights.py) ---------------------
# An exact chance of a whole fight runs to dozens of digits: these tables give the percent
# (rounded from the exact value); the chapter's widget gives the exact fractions.

def uf_duel_odds(skills: tuple[int, ...] = (40, 50, 60, 70, 80), hp: int = 12,
                 weapon: str = "숏소드") -> RefTable:
    """Chance that A wins a duel, by both sides' weapon skill (the rest alike: the weapon, dodge
    50, no armour, DB 0, the HP; A attacks first).

    >>> uf_duel_odds((50,)).rows[0][1]
    '53.85%'
    """
    rows = []
    for a in skills:
        cells = []
        for b in skills:
            odds = uf.duel(uf.Fighter(a, 50, weapon, hp=hp), uf.Fighter(b, 50, weapon, hp=hp))
            cells.append(fmt.percent(odds.chance("a")))
        rows.append([f"A {a}"] + cells)
    return RefTable(f"결투에서 A가 이길 확률: 무기 기능 A × B ({weapon}, 회피 50, HP {hp}, 방어구·DB 없음, "
                    "A가 먼저 공격)", ["A \\ B"] + [f"B {b}" for b in skills], rows,
                    "각 칸은 정확한 값을 반올림한 백분율입니다. 라운드마다의 값과 규칙, 가정은 언더페이스 전투 장의 결투 계산기에 있습니다.")


def pf_down_odds(bonuses: tuple[int, ...] = (6, 10, 14, 18), acs: tuple[int, ...] = (14, 18, 22, 26),
                 hp: int = 30, damage: str = "1D8+4", turns: int = 3) -> RefTable:
    """Chance that a target is down within ``turns`` turns of three Strikes, by attack bonus × AC.

    >>> pf_down_odds((10,), (18,)).rows[0][1]
    '65.51%'
    """
    rows = [[f"{fmt.signed(b)}"] + [fmt.percent(pf2e.strikes_to_down(b, ac, hp, damage).chance("down", by=turns))
                                     for ac in acs] for b in bonuses]
    return RefTable(f"{turns}턴 안에 쓰러뜨릴 확률: 명중 보너스 × AC (HP {hp}, 명중 피해 {damage}, 한 턴에 타격 세 번)",
                    ["보너스 \\ AC"] + [f"AC {ac}" for ac in acs], rows,
                    "대성공의 두 배 피해와 최소 피해 1은 보충 규칙(플레이어 코어). 각 칸은 정확한 값을 반올림한 백분율이고, 턴마다의 값은 이 장의 계산기에 있습니다.")


def tc_out_odds(dice: tuple[int, ...] = (-1, 0, 1, 2), attacks: int = 3) -> RefTable:
    """Chance that a model is out of action within ``attacks`` attacks, by the attack's ±DICE
    × the target's armour (no blood markers spent, no TOUGH).

    >>> tc_out_odds((0,)).rows[0][1]
    '48.03%'
    """
    rows = [[f"{fmt.signed(d)} DICE"] + [fmt.percent(tc.attacks_to_out(dice=d, armour=v).chance("out", by=attacks))
                                         for v in tc.ARMOUR.values()] for d in dice]
    return RefTable(f"공격 {attacks}번 안에 전투 불능이 될 확률: 성공 굴림 ±DICE × 갑옷 (부상 판정표는 보충 규칙)",
                    ["±DICE \\ 갑옷"] + [f"{name} ({v})" for name, v in tc.ARMOUR.items()], rows,
                    "강인함 없음, 유혈 표식은 쓰지 않음. 각 칸은 정확한 값을 반올림한 백분율이고, 공격마다의 값은 이 장의 계산기에 있습니다.")


def hm_hunt_odds(lives: tuple[int, ...] = (10, 20, 30), defence: int = 9) -> RefTable:
    """Chance that the PCs bring the body down, by how many PCs (each 【무용】 2, weapon power 3,
    on paragraphs 1, 2, …) × the body's 【생명력】 (no pursuit, no threats: 가정).

    >>> hm_hunt_odds((20,)).rows[1][1]
    '9.85%'
    """
    rows = []
    for count in range(1, 5):
        pcs = [(2, 3, p) for p in range(1, count + 1)]
        rows.append([f"PC {count}명"] + [fmt.percent(hm.hunt(pcs, defence, life).chance("win")) for life in lives])
    return RefTable(f"난전 두 라운드에 본체를 쓰러뜨릴 확률: PC 수 × 【생명력】 (【방어치】 {defence}, "
                    "PC마다 【무용】 2, 무기 위력 3, 자리는 PC 1이 1, PC 2가 2, …)",
                    ["PC \\ 생명력"] + [f"【생명력】 {life}" for life in lives], rows,
                    "가정: 위협은 빼고, 추격하지 않음. 판정 모델도 가정입니다. 각 칸은 정확한 값을 반올림한 백분율이고, 라운드마다의 값은 이 장의 계산기에 있습니다.")
