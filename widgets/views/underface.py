"""Live widgets of the Underface (『언더페이스』) combat chapter.

Display only: every number comes from ``widgets.underface`` (and the shared range component
``widgets.ranges.RangeBands`` for the table); this module picks the library call and formats it.
"""
from __future__ import annotations

import html
from fractions import Fraction

from .. import underface as uf
from ..damage import DB_OPTIONS
from ..ranges import RangeBands
from . import format as fmt
from . import labels
from .live import Bars, LiveWidget, Shown, number, select, text, toggle, widget_factory
from .table import Table, number_cell
from ..damage import parse_damage
from ..errors import RuleInputError
from .live import normalise_typed
from .trench_crusade import WorkedExamples

_E = html.escape

# --- display objects: tables rendered from the library data ---------------------------


class HtmlTable(Table):
    """A rules table built from library data (the one table helper, :class:`Table`): short
    cells (numbers, dice) stay on one line."""

    def __init__(self, header: list[str], rows: list[list[str]], caption: str = ""):
        super().__init__(header, rows, caption=caption, kind="uf-table", row_heads=False,
                         short=12)


def melee_table() -> HtmlTable:
    """4.7.1.1 근접 무기, from ``MELEE_WEAPONS``."""
    return HtmlTable(["이름", "특화 분야", "기본 확률", "피해", "손"],
                     [[w.name, w.skill, f"{w.base_chance:02d}", w.damage, w.hands_label]
                      for w in uf.MELEE_WEAPONS.values()], "근접 무기 (원문 4.7.1.1)")


def ranged_table() -> HtmlTable:
    """4.7.1.2 사격 무기, from ``RANGED_WEAPONS``; the last column is the hard band (×2)."""
    rows = []
    for w in uf.RANGED_WEAPONS.values():
        bands = RangeBands.multiples(w.range_m).table()
        rows.append([w.name, w.skill, f"{w.base_chance:02d}", w.damage, w.hands_label,
                     f"{bands[0]['to']}m", f"{bands[1]['to']}m"])
    return HtmlTable(["이름", "특화 분야", "기본 확률", "피해", "손", "사정거리",
                      "어려움으로 닿는 거리"], rows, "사격 무기 (원문 4.7.1.2)")


def shield_table() -> HtmlTable:
    """4.7.3 방패, from ``SHIELDS``."""
    return HtmlTable(["방패", "분류", "피해", "사용 기능"],
                     [[w.name, w.shield_class or "-", w.damage, w.skill]
                      for w in uf.SHIELDS.values()], "방패 (원문 4.7.3)")


def armor_table() -> HtmlTable:
    """4.7.2 방어구, from ``ARMOR``."""
    return HtmlTable(["방어구", "방어 점수", "불이익"],
                     [[a.name, str(a.armor_value), a.penalty_label] for a in uf.ARMOR.values()],
                     "방어구 (원문 4.7.2)")


def physical_checks() -> HtmlTable:
    """The checks the armour penalty applies to (``PHYSICAL_CHECKS``)."""
    return HtmlTable(["방어구 불이익을 받는 신체 판정"], [[", ".join(uf.PHYSICAL_CHECKS)]])


def settings_table(settings: uf.CheckSettings = uf.DEFAULT_SETTINGS,
                   caption: str = "판정 설정 — (가정)은 원문에 없는 시스템 규칙의 기본값") -> HtmlTable:
    """The assumed check rules (``CheckSettings.rows()``) shown beside the widgets."""
    return HtmlTable(["판정 규칙", "이 책의 값" if settings == uf.DEFAULT_SETTINGS else "고른 값"],
                     [list(r) for r in settings.rows()], caption)


def worked_examples() -> WorkedExamples:
    """The source's worked examples, computed by the library."""
    return WorkedExamples([
        ("HP 12, 방어 점수 2인 갑옷, 피해 6", "갑옷을 뚫은 피해",
         str(uf.damage_after_armor(6, 2))),
        ("HP 12, 방어 점수 2인 갑옷, 피해 6", "남은 HP", str(uf.hp_after_hit(12, 6, armor=2))),
        ("방어 점수 5, 피해 1 (이 책의 예: 하한 0)", "갑옷을 뚫은 피해", str(uf.damage_after_armor(1, 5))),
        ("최대 HP 11", "사망 임계", fmt.signed(uf.death_threshold(11))),
        ("회피 60%, 방탄조끼", "회피 목표치", str(uf.effective_target(60, penalty="방탄조끼"))),
    ])


# --- widgets -----------------------------------------------------------------------------

#: The fixed roster of the static turn-order builder: name, weapon skill.
ROSTER = (("가람", 50), ("나래", 60), ("다온", 50))
#: Who has a PC/NPC switch on the static page (나래 stays a PC: her skill already breaks ties).
SWITCHABLE_PC = ("가람", "다온")
_CHECK_BAND = {"special": "critical", "success": "success", "failure": "failure",
               "fumble": "down"}


def _check_bars(odds: dict[str, Fraction]) -> Bars:
    return Bars.outcomes(odds, labels.UF_CHECKS, _CHECK_BAND)


def _check_rows(odds: dict[str, Fraction]) -> list[tuple[str, Fraction]]:
    return [(labels.UF_CHECKS[k], p) for k, p in odds.items()]


@widget_factory
def turn_order_widget(uid: str = "uf-order") -> LiveWidget:
    """Turn order of one round for three characters (DEX, weapon kind, PC/NPC, waiting)."""
    controls = []
    for i, (name, _skill) in enumerate(ROSTER):
        s = "abc"[i]
        controls += [number(f"dex_{s}", f"{name} DEX", 12, 14, 14 if i == 0 else 12, step=2),
                     toggle(f"ranged_{s}", f"{name}: 사격 무기", i == 1)]
        if name in SWITCHABLE_PC:
            controls.append(toggle(f"pc_{s}", f"{name}: PC (끄면 NPC)", i != 2))
        controls.append(toggle(f"wait_{s}", f"{name}: 대기", False))

    def compute(**v):
        chars = [uf.Character(name, v[f"dex_{s}"], ranged=v[f"ranged_{s}"], weapon_skill=skill,
                              pc=v.get(f"pc_{s}", True)) for s, (name, skill) in zip("abc", ROSTER)]
        waiting = [c.name for s, c in zip("abc", chars) if v[f"wait_{s}"]]
        order = uf.turn_order(chars, waiting)
        items = "".join(f"<li>{_E(c.name)}{' (대기)' if c.name in waiting else ''}</li>"
                        for c in order)
        return Shown(f"<ol>{items}</ol>")

    return LiveWidget(uid, controls, compute, title="턴 순서 만들기", plot=False)


@widget_factory
def movement_widget(uid: str = "uf-move") -> LiveWidget:
    """Walk or run: the kind of move, and the next action's odds (hard after running)."""
    def compute(mov, distance, skill):
        kind = uf.movement(distance, mov)
        text = f"<p>MOV {mov}, 이동 {distance}m → <b>{_E(labels.UF_MOVES[kind])}</b></p>"
        if kind == "too_far":
            return Shown(text)
        odds = uf.check_odds(skill, hard=kind == "run")
        target = uf.effective_target(skill, hard=kind == "run")
        text += (fmt.total_first("다음 판정 성공 (스페셜 포함)", uf.success_chance(odds))
                 + fmt.odds_table(_check_rows(odds), f"기능 {skill}의 다음 판정 (목표치 {target})"))
        return Shown(text, _check_bars(odds))
    return LiveWidget(
        uid, [number("mov", "MOV", 6, 10, 8, step=2), number("distance", "이동 거리 (m)", 0, 30, 12, step=2),
              number("skill", "이 턴에 쓸 기능 (%)", 30, 90, 60, step=10)],
        compute, title="걷기와 달리기",
        x_label="다음 판정의 결과")


#: Defence choices of the hit widget: dodge in each armour penalty class, parry, none.
def _defence_choices() -> dict[str, str]:
    groups: dict[int, list[str]] = {}
    for a in uf.ARMOR.values():
        groups.setdefault(a.penalty, []).append(a.name)
    choices = {f"dodge:{names[0]}": f"회피 — {'·'.join(names)} ({uf.ARMOR[names[0]].penalty_label})"
               for names in groups.values()}
    choices[f"dodge:{CUSTOM}"] = "회피 — 직접 입력 (불이익은 아래 칸)"
    choices["parry"] = "막기: 근접 무기 (방어구 불이익 없음)"
    choices["shield"] = "막기: 방패 (방패 기능)"
    choices["none"] = "방어할 수 없음 (총기·에너지 무기)"
    return choices


#: Short table labels of the hit widget (the full ones, ``OUTCOME_LABELS``, stand in the text).
HIT_SHORT = {"attacker_wins": "보통 명중", "attacker_wins_special": "스페셜 명중",
             "defender_wins": "막음/피함", "defender_wins_special": "스페셜 방어",
             "both_fail": "빗나감"}

#: What the hit widgets answer first: the attack hits, whatever the grade (``uf.hit_chance``).
HIT_TOTAL = "명중 (스페셜 포함)"

_OUTCOME_BAND = {"attacker_wins": "success", "attacker_wins_special": "critical",
                 "defender_wins": "neutral", "defender_wins_special": "down",
                 "both_fail": "muted"}


@widget_factory
def hit_widget(uid: str = "uf-hit") -> LiveWidget:
    """The hit check: attack skill against parry or dodge as an opposed check."""
    def compute(attack, defense, defence, penalty_points, attack_hard, defense_hard):
        a_target = uf.effective_target(attack, hard=attack_hard)
        penalty = defence.split(":", 1)[1] if defence.startswith("dodge:") else 0
        if penalty == CUSTOM:
            penalty = penalty_points
        if defence == "none":
            odds = uf.opposed_odds(attack, None, attack_hard=attack_hard)
            d_text = "방어 굴림 없음: 공격 판정이 성공하면 명중"
        else:
            odds = uf.opposed_odds(attack, defense, attack_hard=attack_hard,
                                   defense_hard=defense_hard, defense_penalty=penalty)
            d_target = uf.effective_target(defense, hard=defense_hard, penalty=penalty)
            d_text = f"{'회피' if defence.startswith('dodge:') else '막기'} {d_target}"
        rows = [(HIT_SHORT[k], p) for k, p in odds.items()]
        text = (fmt.total_first(HIT_TOTAL, uf.hit_chance(odds))
                + f"<p>목표치: 공격 {a_target}, {d_text}</p>" + fmt.odds_table(rows))
        bars = Bars.outcomes(odds, HIT_SHORT, _OUTCOME_BAND)
        return Shown(text, bars)
    return LiveWidget(
        uid, [number("attack", "공격 기능 (%)", 40, 80, 60, step=10),
              number("defense", "방어 기능 (%)", 40, 80, 60, step=10),
              defence := select("defence", "방어 방법", _defence_choices(), "dodge:평상복"),
              number("penalty_points", "방어구의 신체 판정 불이익 (%, 직접 입력)", 0, 30, 10,
                     step=5).only_when(defence, f"dodge:{CUSTOM}"),
              toggle("attack_hard", "공격이 어려움 난이도"),
              toggle("defense_hard", "방어가 어려움 난이도")],
        compute, title="명중 판정: 공격 대 막기·회피",
        x_label="명중 판정의 결과")


def _weapon_choices(shields: bool = True, grouped: bool = False,
                    custom: bool = False) -> dict[str, str]:
    """Weapons by name; ``grouped``: one entry per damage expression (value: its first weapon);
    ``custom`` adds 「직접 입력」 for the table's own weapon (source 4.7.1: the GM may add them)."""
    table = {**uf.MELEE_WEAPONS, **uf.RANGED_WEAPONS, **(uf.SHIELDS if shields else {})}
    if not grouped:
        choices = {name: f"{name} ({w.damage})" for name, w in table.items()}
    else:
        groups: dict[str, list[str]] = {}
        for name, w in table.items():
            groups.setdefault(w.damage, []).append(name)
        choices = {names[0]: f"{'·'.join(names)} ({damage})" for damage, names in groups.items()}
    return {**choices, CUSTOM: "직접 입력 (하우스 룰 무기)"} if custom else choices


def _armor_choices(custom: bool = False) -> dict[str, str]:
    """Armour by 방어 점수 (names sharing a value share one entry; the value is the first name);
    ``custom`` adds 「직접 입력」 for the table's own armour (source 4.7.2: the GM may add armour)."""
    groups: dict[int, list[str]] = {}
    for a in uf.ARMOR.values():
        groups.setdefault(a.armor_value, []).append(a.name)
    choices = {names[0]: f"{'·'.join(names)} (방어 점수 {uf.ARMOR[names[0]].armor_value})"
               for names in groups.values()}
    return {**choices, CUSTOM: "직접 입력 (하우스 룰 방어구)"} if custom else choices


# --- house-rule equipment (source 4.7.1–4.7.3: the GM may add or change weapons, armour and
# shields): 「직접 입력」 in the menus, with the values shown only while it is chosen ----------

#: The menu key of 「직접 입력」.
CUSTOM = "custom"
#: How a house-rule weapon adds the damage bonus.
_DB_MODES = {"full": "DB를 더함 (근접 무기)", "half": "½DB를 더함 (던지는 무기 등)",
             "none": "더하지 않음 (총기 등)"}
_DB_TERMS = {"full": "+DB", "half": "+½DB", "none": ""}


def custom_weapon_controls(menu) -> list:
    """The controls of a house-rule weapon, shown while ``menu`` says 「직접 입력」: its damage
    (dice and constants, as the weapon tables write them) and how it adds the DB."""
    return [text("damage", "무기의 피해 (직접 입력, 예: 1D8+1)", "1D8+1", ("1D6+2", "2D6"))
            .only_when(menu, CUSTOM),
            select("db_mode", "DB를 더하는 방식", _DB_MODES, "full").only_when(menu, CUSTOM)]


def weapon_expression(weapon: str, damage: str, db_mode: str) -> str:
    """The weapon the library is asked about: a table name, or a house-rule weapon's damage
    expression with its DB term (``1D8+1+DB``); the damage must not name the DB itself.

    >>> weapon_expression("숏소드", "1D8", "full"), weapon_expression(CUSTOM, "1d8 + 1", "half")
    ('숏소드', '1D8+1+½DB')
    """
    if weapon != CUSTOM:
        return weapon
    if "DB" in normalise_typed(str(damage)).upper():
        raise RuleInputError("write the house-rule weapon's damage without DB; choose how it adds "
                             "the DB from the menu",
                             "무기의 피해에는 DB를 쓰지 말고, 「DB를 더하는 방식」에서 고르세요.")
    return str(parse_damage(normalise_typed(damage), allow_db=False)) + _DB_TERMS[db_mode]


def custom_armor_controls(menu) -> list:
    """The 방어 점수 of a house-rule armour, shown while ``menu`` says 「직접 입력」."""
    return [number("armor_points", "방어 점수 (직접 입력)", 0, 8, 3).only_when(menu, CUSTOM)]


def armor_value(armor: str, armor_points: int) -> str | int:
    """A table name, or a house-rule armour's 방어 점수.

    >>> armor_value("가죽 갑옷", 5), armor_value(CUSTOM, 5)
    ('가죽 갑옷', 5)
    """
    return armor_points if armor == CUSTOM else armor


def db_phrase(damage: str, db: str) -> str:
    """How a weapon's damage takes the chosen DB, in the words of its answer: the DB itself,
    half of it, or none (a house-rule weapon set to 「더하지 않음」, a firearm).

    >>> db_phrase("1D8+1+DB", "+1D4"), db_phrase("1D6+½DB", "+1D4"), db_phrase("1D8+1", "+1D4")
    ('DB +1D4', '½DB (DB +1D4의 절반)', 'DB를 더하지 않음')
    """
    label = DB_OPTIONS[db].label
    if "½DB" in damage:
        return f"½DB (DB {label}의 절반)"
    return f"DB {label}" if "DB" in damage else "DB를 더하지 않음"


def _db_choices(keys=None) -> dict[str, str]:
    return {k: f"DB {o.label}" for k, o in DB_OPTIONS.items() if keys is None or k in keys}


#: Shown beside every widget with a DB choice: the source names no DB table.
_DB_NOTE = ('<p class="assumption">DB(피해 보너스) 주사위는 원문에 표가 없어 독자가 고르는 값입니다'
            "(<b>가정</b>).</p>")


def _damage_band(v: int) -> str:
    return "muted" if v == 0 else "neutral"


@widget_factory
def damage_widget(uid: str = "uf-damage") -> LiveWidget:
    """Exact distribution of the HP one hit takes through armour (special on/off)."""
    def compute(weapon, damage, db_mode, db, armor, armor_points, special):
        used = weapon_expression(weapon, damage, db_mode)
        dist = uf.damage_distribution(used, armor_value(armor, armor_points), db, special)
        house = f"<p>직접 입력한 무기: {_E(used)}</p>" if weapon == CUSTOM else ""
        text = (house + f"<p>평균 {fmt.approx(dist.mean(), markup=True)}, 범위 {dist.min}~{dist.max}, "
                f"피해 0: <b>{fmt.prob(dist.probability(0))}</b></p>" + _DB_NOTE)
        return Shown(text, Bars.from_dist(dist, _damage_band))
    weapon = select("weapon", "무기", _weapon_choices(shields=False, grouped=True, custom=True),
                    "숏소드")
    armor = select("armor", "대상의 방어구", _armor_choices(custom=True), "가죽 갑옷")
    return LiveWidget(
        uid, [weapon, *custom_weapon_controls(weapon),
              select("db", "피해 보너스 (DB)", _db_choices(), "0"),
              armor, *custom_armor_controls(armor),
              toggle("special", "스페셜 명중")],
        compute, title="피해와 방어구", x_label="HP 감소량")


#: The HP widget's labels: the same words as the chapter's walkthrough (one label per outcome).
HP_SHORT = labels.HP_STATES


@widget_factory
def hp_widget(uid: str = "uf-hp") -> LiveWidget:
    """One hit against a target's current and maximum HP: standing, out, at the death threshold."""
    def compute(weapon, damage, db_mode, db, armor, armor_points, special, hp, max_hp):
        states = uf.hit_hp_states(weapon_expression(weapon, damage, db_mode), hp, max_hp,
                                  armor_value(armor, armor_points), db, special)
        rows = [(HP_SHORT[k], p) for k, p in states.items()]
        text = (f"<p>HP {hp}/{max_hp}, 사망 임계 {fmt.signed(uf.death_threshold(max_hp))}</p>"
                + fmt.odds_table(rows) + _DB_NOTE)
        if states["at_death_threshold"]:
            text += ("<p>사망 임계 이하가 된 PC는 자기 턴마다 인내 판정을 합니다. 인내 판정의 목표치는 "
                     "원문에 없어 이 책은 그 확률을 계산하지 않습니다(<b>가정</b>이 필요한 부분).</p>")
        return Shown(text)
    weapon = select("weapon", "무기", _weapon_choices(shields=False, grouped=True, custom=True),
                    "브로드 소드")
    armor = select("armor", "대상의 방어구", _armor_choices(custom=True), "가죽 갑옷")
    return LiveWidget(
        uid, [weapon, *custom_weapon_controls(weapon),
              select("db", "피해 보너스 (DB)", _db_choices(("0", "+1D4")), "+1D4"),
              armor, *custom_armor_controls(armor),
              toggle("special", "스페셜 명중"),
              number("hp", "대상의 현재 HP", 6, 12, 12, step=6),
              number("max_hp", "대상의 최대 HP", 12, 16, 12, step=4)],
        compute, title="한 방을 맞은 뒤의 상태", plot=False)


@widget_factory
def special_widget(uid: str = "uf-special") -> LiveWidget:
    """Normal against special damage of one weapon (before armour)."""
    def compute(weapon, damage, db_mode, db):
        used = weapon_expression(weapon, damage, db_mode)
        normal = uf.damage_distribution(used, 0, db, False)
        special = uf.damage_distribution(used, 0, db, True)
        table = Table(["", "보통 명중", "스페셜 명중"], [
            ["평균 피해", number_cell(fmt.approx(normal.mean())), number_cell(fmt.approx(special.mean()))],
            ["범위", number_cell(f"{normal.min}~{normal.max}"),
             number_cell(f"{special.min}~{special.max}")]])
        name = ("직접 입력한 무기", used) if weapon == CUSTOM else (weapon, uf.WEAPONS[weapon].damage)
        text = (f"<p>{_E(name[0])} {_E(name[1])}, {_E(db_phrase(name[1], db))}</p>"
                + table.html() + _DB_NOTE)
        return Shown(text, Bars.from_dist(special, lambda v: "critical"))
    weapon = select("weapon", "무기·방패", _weapon_choices(custom=True), "배틀 액스")
    return LiveWidget(
        uid, [weapon, *custom_weapon_controls(weapon),
              select("db", "피해 보너스 (DB)", _db_choices(), "+1D4")],
        compute, title="스페셜 명중의 피해 (방어구 빼기 전)", x_label="스페셜 명중의 피해")


#: Skills of the example shooter and target in the range widget.
RANGE_EXAMPLE = dict(attack=60, defense=60)


@widget_factory
def range_widget(uid: str = "uf-range") -> LiveWidget:
    """A shot: the range decides the shooter's difficulty, the weapon and the target's answer
    decide whether and how hard the target may defend (``uf.ranged_hit_odds``)."""
    ex = RANGE_EXAMPLE

    def compute(weapon, distance, response):
        difficulty = uf.range_difficulty(distance, weapon)
        if difficulty == "out_of_range":
            return Shown(f"<p>{_E(weapon)}, {distance}m: <b>닿지 않음</b> (사정거리 "
                         f"{uf.RANGED_WEAPONS[weapon].range_m}m의 2배까지만 쏠 수 있음)</p>")
        allowed, hard = uf.ranged_defence(weapon, response)
        odds = uf.ranged_hit_odds(weapon, distance, ex["attack"], ex["defense"], response)
        firearm = uf.RANGED_WEAPONS[weapon].skill in uf.FIREARM_SKILLS
        defence = ("총기는 탄속이 빨라 막을 수도 피할 수도 없습니다" if firearm and response != "none" else
                   "방어 굴림 없음" if not allowed else
                   f"{_E(uf.RANGED_RESPONSES[response])}: {'어려움' if hard else '보통'} 난이도")
        text = (fmt.total_first(HIT_TOTAL, uf.hit_chance(odds))
                + f"<p>{_E(weapon)}, {distance}m: 쏘는 쪽 <b>{_E(uf.RANGE_LABELS[difficulty])}</b>. "
                f"맞는 쪽: {defence}.</p>"
                + fmt.odds_table([(HIT_SHORT[k], p) for k, p in odds.items()]))
        bars = Bars.outcomes(odds, HIT_SHORT, _OUTCOME_BAND)
        return Shown(text, bars)
    return LiveWidget(
        uid, [select("weapon", "사격 무기", {n: f"{n} ({w.range_m}m)"
                                          for n, w in uf.RANGED_WEAPONS.items()}, "롱보우"),
              number("distance", "대상까지 거리 (m)", 0, 200, 125, step=25),
              select("response", "맞는 쪽의 대응", uf.RANGED_RESPONSES, "shield")],
        compute, title=f"사정거리와 방어: 사격 기능 {ex['attack']}, 방어 기능 {ex['defense']}",
        x_label="명중 판정의 결과")


#: The melee attacker of the armour widget.
ARMOR_EXAMPLE = dict(attack=60)


@widget_factory
def armor_widget(uid: str = "uf-armor") -> LiveWidget:
    """Armour's trade-off: its 방어 점수 lowers the damage, its penalty lowers the dodge."""
    ex = ARMOR_EXAMPLE

    def compute(armor, weapon, dodge):
        loss = uf.hp_loss_per_attack(weapon, ex["attack"], dodge, armor)
        bare = uf.hp_loss_per_attack(weapon, ex["attack"], dodge, "평상복")
        target = uf.effective_target(dodge, penalty=armor)
        a = uf.ARMOR[armor]
        table = Table(["", "평상복", armor], [
            ["회피 목표치", dodge, target],
            ["방어 점수", 0, a.armor_value],
            ["HP를 하나도 잃지 않을 확률", bare.probability(0), loss.probability(0)],
            ["공격 한 번에 잃는 HP 평균", number_cell(fmt.approx(bare.mean())),
             number_cell(fmt.approx(loss.mean()))]])
        verdict = ("이 방어구를 입으면 평상복보다 덜 다칩니다" if loss.mean() < bare.mean() else
                   "이 방어구를 입으면 회피가 떨어지는 만큼 평상복보다 더 다칩니다"
                   if loss.mean() > bare.mean() else "이 방어구를 입어도 평상복만큼 다칩니다")
        text = (f"<p>{_E(armor)}: 회피에 {_E(a.penalty_label)}, 피해 −{a.armor_value}. "
                f"공격 기능 {ex['attack']}인 상대의 {_E(weapon)} 공격 한 번을 회피할 때 {verdict}.</p>"
                + table.html())
        return Shown(text, Bars.from_dist(loss, _damage_band))
    return LiveWidget(
        uid, [select("armor", "방어구", {n: f"{n} (방어 점수 {a.armor_value}, {a.penalty_label})"
                                        for n, a in uf.ARMOR.items()}, "방탄조끼"),
              select("weapon", "상대의 무기", _weapon_choices(shields=False, grouped=True), "숏소드"),
              number("dodge", "회피 기능 (%)", 40, 80, 60, step=20)],
        compute, title="방어구의 득실: 덜 다치는가, 덜 피하는가",
        x_label="공격 한 번에 잃는 HP (0 = 빗나감·회피·막힘)")


@widget_factory
def weeks_widget(uid: str = "uf-weeks") -> LiveWidget:
    """Natural recovery: weeks until an unconscious character wakes (HP 1 or more)."""
    def compute(hp):
        dist = uf.weeks_to_recover(hp)
        text = (f"<p>현재 HP {fmt.number(hp)}에서 HP 1이 될 때까지: 평균 {fmt.approx(dist.mean(), markup=True)}주, "
                f"최대 {dist.max}주</p>"
                + fmt.odds_table([(f"{w}주 안에 깨어남", dist.at_most(w))
                                  for w in dist.outcomes()[:4]]))
        return Shown(text, Bars.from_dist(dist, lambda v: "neutral"))
    return LiveWidget(uid, [number("hp", "현재 HP", -12, 0, -4)], compute,
                      title="자연 회복으로 깨어나기까지", x_label="걸리는 주 수")


@widget_factory
def first_aid_widget(uid: str = "uf-firstaid") -> LiveWidget:
    """First aid: HP after repeated tries on an unconscious character, chance to wake."""
    def compute(hp, skill, attempts):
        dist = uf.first_aid(hp, skill, attempts)
        text = (f"<p>HP {fmt.number(hp)}인 캐릭터에게 응급처치 기능 {fmt.josa(skill, '으로/로')} 최대 {attempts}번 시도</p>"
                + fmt.odds_table([("깨어남 (HP 1 이상)", dist.at_least(1)),
                                  ("아직 기절", dist.at_most(0))]))
        return Shown(text, Bars.from_dist(dist, lambda v: "success" if v >= 1 else "muted"))
    return LiveWidget(
        uid, [number("hp", "현재 HP", -8, 0, -2), number("skill", "응급처치 기능 (%)", 30, 90, 60,
                                                         step=10),
              number("attempts", "시도 횟수", 1, 5, 1)],
        compute, title="응급처치", x_label="시도를 마친 뒤의 HP")


#: The settings widget's choices (value → Korean); any other number can be typed where the
#: control is a number.
_FUMBLE_CHOICES = {96: "96~100 (기본값)", 100: "100만", 101: "펌블 없음"}
_HARD_CHOICES = {"divide": "목표치 절반 (올림, 기본값)", "penalty": "목표치 −20"}
_MARGIN_CHOICES = {"target_minus_roll": "목표치 − 굴린 값 (기본값)", "roll": "굴린 값이 큰 쪽"}


@widget_factory
def settings_widget(uid: str = "uf-settings") -> LiveWidget:
    """The assumed check settings (``uf.CheckSettings``) as controls: a GM whose table plays
    fumbles, specials, hard difficulty or the success margin differently sees what that does to
    one check and to the hit check. The chapter's other widgets use the defaults."""
    def compute(attack, defense, fumble_from, special_divisor, hard, margin, attack_hard):
        settings = uf.CheckSettings(fumble_from=fumble_from, special_divisor=special_divisor,
                                    hard=hard, margin=margin)
        target = uf.effective_target(attack, hard=attack_hard, settings=settings)
        check = uf.check_odds(attack, hard=attack_hard, settings=settings)
        odds = uf.opposed_odds(attack, defense, attack_hard=attack_hard, settings=settings)
        text = (fmt.total_first(f"공격 {attack} 대 방어 {defense}의 {HIT_TOTAL}", uf.hit_chance(odds))
               
                + settings_table(settings, "고른 판정 설정 — (가정)은 원문에 없는 시스템 규칙")._repr_html_()
                + fmt.odds_table(_check_rows(check), f"공격 기능 {attack}의 판정 한 번 (목표치 {target})")
                + fmt.odds_table([(HIT_SHORT[k], p) for k, p in odds.items()],
                                 f"명중 판정: 공격 {attack} 대 방어 {defense}"))
        bars = Bars(tuple(range(1, 6)), tuple(odds.values()), tuple(_OUTCOME_BAND[k] for k in odds))
        return Shown(text, bars)
    return LiveWidget(
        uid, [number("attack", "공격 기능 (%)", 40, 80, 60, step=20),
              number("defense", "방어 기능 (%)", 40, 80, 60, step=20),
              select("fumble_from", "펌블 (가정)", _FUMBLE_CHOICES, 96),
              number("special_divisor", "스페셜: 목표치를 나누는 수 (가정)", 5, 10, 5, step=5),
              select("hard", "어려움 난이도 (가정)", _HARD_CHOICES, "divide"),
              select("margin", "성공 폭 계산 (가정)", _MARGIN_CHOICES, "target_minus_roll"),
              toggle("attack_hard", "공격이 어려움 난이도")],
        compute, title="판정 설정 바꿔 보기 (가정)",
        x_label="1 보통 명중 · 2 스페셜 명중 · 3 막음/피함 · 4 스페셜 방어 · 5 빗나감")


ALL_WIDGETS = [turn_order_widget, movement_widget, settings_widget, hit_widget, damage_widget,
               hp_widget, special_widget, range_widget, armor_widget, weeks_widget, first_aid_widget]


#: Where the library's full label is the short name itself, the legend says what it means.
_HIT_MEANING = {"defender_wins": "방어자가 이김 (피해 없음)"}


def outcome_legend() -> HtmlTable:
    """The five results of the hit check: short name (widgets, tables), full meaning (library)."""
    return HtmlTable(["줄임말", "뜻"], [[HIT_SHORT[k], _HIT_MEANING.get(k, label)]
                                          for k, label in uf.OUTCOME_LABELS.items()],
                     "명중 판정의 다섯 가지 결과")
