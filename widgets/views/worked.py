"""A worked round per chapter: one full example from the declaration to the result.

Display only: each ``*_round`` function walks one example through the library's calls and
returns a :class:`WorkedRound` (its steps as Korean text, its numbers for the tests); each
``*_round_widget`` lets the reader change one number of the example.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction

from .. import bfrpg as bf
from .. import hunters_moon as hm
from .. import pf2e
from .. import trench_crusade as tc
from .. import underface as uf
from ..errors import require_bool, require_int
from ..grid import Terrain
from . import format as fmt
from . import labels
from .format import josa
from .live import LiveWidget, Shown, number, toggle, widget_factory
from .pf2e import RANK_CHOICES
from .table import EXACT_LABEL, exact_fold

_E = html.escape


@dataclass
class WorkedRound:
    """Steps (heading, text) of one worked example and the numbers it shows. A step may carry a
    third item: long exact values ``(label, Fraction)`` its text gives in percent, shown behind
    one 「정확한 값」 disclosure (:func:`~widgets.views.table.exact_fold`).

    >>> r = WorkedRound("예", [("선언", "한 번 친다.")], {"x": Fraction(1, 2)})
    >>> "<ol" in r.html() and "선언" in r.text()
    True
    >>> WorkedRound("예", [("끝:", "약 50%.", [("남음", Fraction(1, 2))])]).text()
    '예\\n1. 끝: 약 50%. (정확한 값: 남음 1/2)'
    """

    title: str
    steps: list[tuple] = field(default_factory=list)
    numbers: dict[str, object] = field(default_factory=dict)

    def html(self) -> str:
        items = "".join(f"<li><b>{_E(step[0])}</b> {_E(step[1])}"
                        f"{exact_fold(step[2]) if len(step) > 2 else ''}</li>" for step in self.steps)
        return f'<p class="worked-title"><b>{_E(self.title)}</b></p><ol class="worked-round">{items}</ol>'

    def text(self) -> str:
        def line(step) -> str:
            exact = ", ".join(f"{label} {fmt.fraction(p)}" for label, p in step[2]) if len(step) > 2 else ""
            return f"{step[0]} {step[1]}" + (f" ({EXACT_LABEL}: {exact})" if exact else "")
        return "\n".join([self.title] + [f"{i}. {line(step)}" for i, step in enumerate(self.steps, 1)])

    def _repr_html_(self) -> str:
        return self.html()

    def __repr__(self) -> str:
        return self.text()


def _odds_line(rows: list[tuple[str, Fraction]]) -> str:
    return ", ".join(f"{label} {fmt.prob(p)}" for label, p in rows)


def _ira(word: object) -> str:
    """``word`` + 이라/라 by its last sound: '성공이라', '실패라'."""
    with_i = josa(word, "이/가")
    return with_i[:-1] + ("이라" if with_i.endswith("이") else "라")


def _sum(face: int, modifier: int) -> str:
    """'13 + 1 = 14', '13 − 2 = 11'."""
    sign = "+" if modifier >= 0 else "−"
    return f"{face} {sign} {abs(modifier)} = {face + modifier}"


def _band_label(chart, total: int) -> str:
    for _key, label, lo, hi in chart:
        if (lo is None or total >= lo) and (hi is None or total <= hi):
            return label
    raise ValueError(total)


# --- Trench Crusade ------------------------------------------------------------------------

#: The example: a rifle (24") against a target in cover wearing standard armour.
TC_RIFLE_RANGE = 24
TC_TARGET_ARMOUR = "표준 갑옷"
#: Faces the example's dice happen to show (the first 2 + |DICE| are used).
TC_SUCCESS_FACES = (6, 5, 4, 6, 3)
TC_INJURY_FACES = (4, 3)


def tc_round(distance: int = 18) -> WorkedRound:
    """A shot at a target in cover: ranged modifiers → success roll → injury roll.

    >>> r = tc_round(18)
    >>> r.numbers["net"], r.numbers["kept"], r.numbers["injury_total"]
    (-2, 9, 6)
    """
    armour = tc.ARMOUR[TC_TARGET_ARMOUR]
    band = tc.ranged_band(distance, TC_RIFLE_RANGE)
    net = tc.ranged_dice(distance, TC_RIFLE_RANGE, cover=True)
    thrown, kept_n = tc.roll_size(net)
    odds = tc.success_odds(net)
    faces = TC_SUCCESS_FACES[:thrown]
    kept = tc.kept_total(list(faces), net)
    result = _band_label(tc.SUCCESS_CHART, kept)
    injury_total = sum(TC_INJURY_FACES) - armour
    injury_name, _, injury_effect = _band_label(tc.INJURY_CHART, injury_total).partition(":")
    attack = tc.attack_odds(dice=net, armour=armour)
    side = "높은" if net > 0 else "낮은"
    how = (f"{josa('2D6', '을/를')} 그대로 더합니다" if net == 0
           else f"{josa(f'{thrown}D6', '을/를')} 굴려 {side} 눈 {kept_n}개를 더합니다")
    labels = {key: label.split(":")[0] for key, label, _, _ in tc.INJURY_CHART}
    steps = [
        ("선언:", f"사수가 사거리 {TC_RIFLE_RANGE}\"짜리 소총으로 {distance}\" 떨어진 적을 쏘겠다고 합니다. "
                  f"사수는 근접전 중이 아니고 이번 활성화에 돌격하지 않았으므로 원거리 공격을 할 수 있습니다. "
                  f"적은 엄폐물 뒤에 있고 {josa(TC_TARGET_ARMOUR, '을/를')} 입었습니다."),
        ("보정:", f"거리 구간은 {band.label}({fmt.signed(band.modifier)} DICE), 엄폐 "
                  f"{fmt.signed(tc.DICE_SOURCES['cover'][2])} DICE. 모두 더하면 순 {fmt.signed(net)} DICE이므로 "
                  f"{how}."),
        ("성공 굴림:", f"확률은 {_odds_line([(label, odds[k]) for k, label, _, _ in tc.SUCCESS_CHART])}. "
                      f"주사위가 {josa(', '.join(map(str, faces)), '으로/로')} 나왔다면 남기는 두 눈의 합은 {kept}, "
                      f"결과는 {result}입니다."),
        ("부상 굴림:", f"성공했으므로 부상 굴림을 합니다(대성공이었다면 "
                      f"{fmt.signed(tc.DICE_SOURCES['critical'][2])} DICE). 주사위가 "
                      f"{josa(' + '.join(map(str, TC_INJURY_FACES)), '으로/로')} 나오고 {josa(f'갑옷 {armour}', '을/를')} 빼면 "
                      f"{injury_total}, 결과는 {injury_name}입니다({injury_effect.strip()})."),
        ("공격 한 번의 전체 확률:", _odds_line([("빗나감", attack["miss"])]
                                       + [(labels[k], attack[k]) for k, _, _, _ in tc.INJURY_CHART]) + "."),
    ]
    return WorkedRound(f"{distance}\" 거리의 엄폐한 적을 쏠 때", steps,
                       {"net": net, "odds": odds, "kept": kept, "injury_total": injury_total,
                        "attack": attack})


@widget_factory
def tc_round_widget(uid: str = "tc-worked") -> LiveWidget:
    """The Trench Crusade worked round with the distance to change."""
    return LiveWidget(uid, [number("distance", "대상까지 거리 (인치)", 1, TC_RIFLE_RANGE, 18)],
                      lambda distance: Shown(tc_round(distance).html()),
                      title="한 번의 사격 따라가기", plot=False)


# --- Basic Fantasy RPG ---------------------------------------------------------------------

BF_RATE = 30
BF_BONUS = 1
BF_GOBLIN_AC = 14
BF_WEAPON = "단궁 (shortbow)"
#: The d20 face the example's attack roll happens to show.
BF_EXAMPLE_FACE = 13
#: The goblin stands this many squares away along the diagonal.
BF_GOBLIN_DIAGONAL = 16


def bf_round(diagonal: int = 3) -> WorkedRound:
    """Doughbert walks ``diagonal`` squares toward a goblin and shoots: move → range → to-hit.

    >>> r = bf_round(3)
    >>> r.numbers["moved"], r.numbers["option"], r.numbers["distance"], r.numbers["modifier"]
    (20, 'walk', 95, 0)
    >>> bf_round(5).numbers["option"]
    'run'
    >>> from widgets.errors import RuleInputError
    >>> try:
    ...     bf_round(16)
    ... except RuleInputError as err:
    ...     print(err.korean)
    다가가는 칸 수는 0부터 15까지의 정수여야 합니다 (입력값: 16).
    """
    diagonal = require_int(diagonal, "diagonal", "다가가는 칸 수", 0, BF_GOBLIN_DIAGONAL - 1)
    size = BF_GOBLIN_DIAGONAL + 1
    goblin = (BF_GOBLIN_DIAGONAL, BF_GOBLIN_DIAGONAL)
    terrain = Terrain(size, size, enemies={goblin})
    options = bf.move_options(terrain, (0, 0), BF_RATE)
    square = (diagonal, diagonal)
    option, moved = options.option(square), options.feet(square)
    steps = [("선언:", f"도우버트(이동 속도 {BF_RATE}피트, 명중 보너스 {fmt.signed(BF_BONUS)})가 대각선으로 "
                       f"{BF_GOBLIN_DIAGONAL}칸 떨어진 고블린(AC {BF_GOBLIN_AC})에게 {diagonal}칸 다가간 뒤 "
                       f"단궁을 쏘겠다고 합니다.")]
    numbers: dict[str, object] = {"moved": moved, "option": option}
    if moved is None:
        steps.append(("이동:", "그 칸에는 이번 라운드에 닿지 못합니다."))
        return WorkedRound("다가가서 쏘기", steps, numbers)
    steps.append(("이동:", f"대각선 {diagonal}칸은 5/10피트를 번갈아 세어 {moved}피트입니다. "
                           f"{labels.BF_MOVE_OPTIONS[option]}."))
    if not bf.can_attack_after(option):
        steps.append(("결과:", "달렸으므로 이번 라운드에는 쏠 수 없습니다. 다가가는 것으로 라운드가 끝납니다."))
        return WorkedRound("다가가서 쏘기", steps, numbers)
    check = bf.missile_check(terrain, square, goblin, BF_WEAPON)
    numbers.update(distance=check.distance, modifier=check.modifier)
    if not check.allowed:
        steps.append(("사거리:", f"고블린까지 {check.distance}피트로 장거리를 넘어 쏠 수 없습니다."))
        return WorkedRound("다가가서 쏘기", steps, numbers)
    total = BF_BONUS + check.modifier
    odds = bf.attack_roll_odds(total, BF_GOBLIN_AC)
    hit = bf.attack_roll_hits(BF_EXAMPLE_FACE, total, BF_GOBLIN_AC)
    numbers.update(total=total, odds=odds)
    steps += [("사거리와 시야:", f"남은 거리는 {check.distance}피트, 단궁의 {check.range_label}라 명중 굴림에 "
                               f"{fmt.signed(check.modifier)}입니다. 사이를 가리는 것이 없어 시야도 있습니다."),
              ("명중 굴림:", f"{josa(f'd20 {fmt.signed(total)}', '이/가')} AC {BF_GOBLIN_AC} 이상이면 맞습니다 (1은 늘 빗나가고 "
                            f"20은 늘 맞음). 맞힐 확률 {fmt.prob(odds['hit'])}, 빗나갈 확률 {fmt.prob(odds['miss'])}."),
              ("결과:", f"예를 들어 d20이 {josa(BF_EXAMPLE_FACE, '이/가')} 나왔다면 {_sum(BF_EXAMPLE_FACE, total)}, "
                        + ("명중입니다." if hit else "빗나갑니다."))]
    numbers.update(hit=hit)
    return WorkedRound("다가가서 쏘기", steps, numbers)


@widget_factory
def bf_round_widget(uid: str = "bf-worked") -> LiveWidget:
    """The Basic Fantasy worked round with the squares walked to change."""
    return LiveWidget(uid, [number("diagonal", "다가가는 대각선 칸 수", 0, 8, 3)],
                      lambda diagonal: Shown(bf_round(diagonal).html()),
                      title="다가가서 쏘는 한 라운드", plot=False)


# --- Pathfinder 2e -------------------------------------------------------------------------

PF_LEVEL = 1
PF_STRENGTH = 4
PF_RANK = "expert"
#: The d20 faces the example's two Strikes happen to show.
PF_EXAMPLE_FACES = (12, 15)


def pf_round(ac: int = 16) -> WorkedRound:
    """Stride, Strike, Strike with a longsword against ``ac``.

    >>> r = pf_round(16)
    >>> r.numbers["bonus"], r.numbers["penalties"]
    (9, [0, -5])
    """
    proficiency = pf2e.proficiency_bonus(PF_RANK, PF_LEVEL)
    bonus = pf2e.attack_bonus("melee", strength=PF_STRENGTH, proficiency=proficiency)
    penalties = [pf2e.multiple_attack_penalty(n, False) for n in (1, 2)]
    strikes = [pf2e.strike_odds(bonus, ac, attack_number=n) for n in (1, 2)]
    labels = pf2e.DEGREE_LABELS_KO
    steps = [("선언:", f"{PF_LEVEL}레벨 파이터(근력 {fmt.signed(PF_STRENGTH)}, 장검 숙련 "
                       f"{RANK_CHOICES['expert']})가 세 행동으로 보행 한 번, 장검 타격 두 번을 "
                       f"하겠다고 합니다. 상대의 AC는 {ac}입니다."),
             ("보행:", "적에게 다가갑니다. 이동하는 동안 주변 적의 반응 행동을 부를 수 있습니다."),
             ("명중 보너스:", f"근력 {fmt.signed(PF_STRENGTH)} + 숙련 보너스 {fmt.signed(proficiency)} "
                             f"= {fmt.signed(bonus)}.")]
    rolled = [pf2e.roll_degree(face, bonus + penalty, ac)
              for face, penalty in zip(PF_EXAMPLE_FACES, penalties)]
    for n, (penalty, odds) in enumerate(zip(penalties, strikes), start=1):
        face = PF_EXAMPLE_FACES[n - 1]
        steps.append((f"{'첫두'[n - 1]} 번째 타격:", f"다중 공격 페널티 {fmt.signed(penalty)}, d20 "
                      f"{fmt.signed(bonus + penalty)} 대 AC {ac}. "
                      + _odds_line([(labels[k], odds[k]) for k in pf2e.DEGREES])
                      + f". 예를 들어 d20이 {josa(face, '이/가')} 나왔다면 {_sum(face, bonus + penalty)}, "
                      f"{labels[rolled[n - 1]]}입니다."))
    return WorkedRound(f"AC {ac}인 적에게 보행·타격·타격", steps,
                       {"bonus": bonus, "penalties": penalties, "strikes": strikes, "rolled": rolled})


@widget_factory
def pf_round_widget(uid: str = "pf-worked") -> LiveWidget:
    """The Pathfinder worked round with the target's AC to change."""
    return LiveWidget(uid, [number("ac", "상대의 AC", 10, 26, 16)],
                      lambda ac: Shown(pf_round(ac).html()),
                      title="보행 한 번, 타격 두 번", plot=False)


# --- Underface -----------------------------------------------------------------------------

UF_WEAPON, UF_DB, UF_ARMOR = "숏소드", "+1D4", "방탄조끼"
UF_DODGE, UF_MOV, UF_MOVED = 40, 8, 5
UF_HP, UF_MAX_HP = 3, 12
#: What the example's dice happen to show: 가람's D100, 다온's D100, damage dice + DB together.
UF_ATTACK_ROLL, UF_DODGE_ROLL, UF_DAMAGE_TOTAL = 23, 31, 7


def uf_round(skill: int = 50) -> WorkedRound:
    """An attack with a short sword against a dodge: move → opposed check → damage → HP.

    >>> r = uf_round(50)
    >>> r.numbers["move"], r.numbers["dodge_target"]
    ('walk', 35)
    """
    move = uf.movement(UF_MOVED, UF_MOV)
    dodge_target = uf.effective_target(UF_DODGE, penalty=UF_ARMOR)
    odds = uf.opposed_odds(skill, UF_DODGE, defense_penalty=UF_ARMOR)
    normal = uf.damage_distribution(UF_WEAPON, UF_ARMOR, UF_DB)
    special = uf.damage_distribution(UF_WEAPON, UF_ARMOR, UF_DB, special=True)
    weapon_max = uf.damage_distribution(UF_WEAPON, 0, "0", special=True).min
    armor_points = uf.ARMOR[UF_ARMOR].armor_value
    threshold = fmt.signed(uf.death_threshold(UF_MAX_HP))
    after = uf.hit_hp_states(UF_WEAPON, UF_HP, UF_MAX_HP, UF_ARMOR, UF_DB)
    attack_target = uf.effective_target(skill)
    rolled = uf.opposed_result(UF_ATTACK_ROLL, attack_target, UF_DODGE_ROLL, dodge_target)
    lost = uf.damage_after_armor(UF_DAMAGE_TOTAL, UF_ARMOR)
    hp_left = uf.hp_after_hit(UF_HP, UF_DAMAGE_TOTAL, UF_ARMOR)
    then = {"attacker_wins": f"피해 주사위와 DB의 합이 {josa(UF_DAMAGE_TOTAL, '이/가')} 나왔다면 방어 점수를 빼고 "
                             f"{lost}만큼 HP가 줄어 다온의 HP는 {hp_left}"
                             + ("입니다." if hp_left > 0 else "입니다. 0 이하이므로 다온은 기절합니다."),
            "attacker_wins_special": "무기 최대 피해에 DB를 굴려 더한 값에서 방어 점수를 뺍니다.",
            "defender_wins": "다온이 공격을 피해 HP가 줄지 않습니다.",
            "defender_wins_special": "다온이 완벽하게 피해, 가람의 다음 행동 하나가 어려움 난이도가 됩니다.",
            "both_fail": "둘 다 실패해 공격이 빗나갑니다."}[rolled]
    steps = [("의도 선언:", f"가람(숏소드 기능 {skill}, DB {UF_DB})이 \"탁자를 돌아 들어가 칼을 휘두르겠다\"고 "
                           f"말합니다. 상대 다온은 최대 HP가 {_ira(UF_MAX_HP)} 사망 임계가 {threshold}이고, 지난 라운드에 다쳐 HP가 "
                           f"{UF_HP} 남았습니다. {josa(UF_ARMOR, '을/를')} 입었으며 회피 기능은 {UF_DODGE}입니다."),
             ("이동:", f"MOV {UF_MOV}인 가람이 {UF_MOVED}미터를 움직입니다. {labels.UF_MOVES[move]}."),
             ("명중 판정:", f"가람은 {skill}, 다온은 {UF_ARMOR}의 불이익을 뺀 {josa(dodge_target, '을/를')} 목표로 D100을 "
                           "굴리는 대항 판정입니다(판정 설정은 가정). "
                           + _odds_line([(uf.OUTCOME_LABELS[k], p) for k, p in odds.items()]) + "."),
             ("피해:", f"보통 명중이면 숏소드와 DB를 굴려 {josa(f'방어 점수 {armor_points}', '을/를')} 뺍니다. "
                      f"HP 감소 평균 {fmt.approx(normal.mean())}, "
                      f"최대 {normal.max}. 스페셜 명중이면 숏소드의 최대 피해 {weapon_max}에 DB를 굴려 더하고 "
                      f"{josa(f'방어 점수 {armor_points}', '을/를')} 빼므로 HP 감소는 {special.min}~{special.max}입니다."),
             ("맞은 뒤:", f"보통 명중을 맞은 다온(HP {UF_HP}/{UF_MAX_HP}, 사망 임계 {threshold})의 상태: "
                        + _odds_line([(labels.HP_STATES[k], p) for k, p in after.items()]) + "."),
             ("결과:", f"예를 들어 가람이 {UF_ATTACK_ROLL}(목표치 {attack_target}), 다온이 {UF_DODGE_ROLL}"
                      f"(목표치 {dodge_target})을 굴렸다면 결과는 「{uf.OUTCOME_LABELS[rolled]}」입니다. {then}")]
    return WorkedRound(f"{josa(f'숏소드 기능 {skill}', '으로/로')} 회피하는 상대를 칠 때", steps,
                       {"move": move, "dodge_target": dodge_target, "odds": odds, "rolled": rolled,
                        "hp_left": hp_left,
                        "normal": normal, "special": special, "after": after})


@widget_factory
def uf_round_widget(uid: str = "uf-worked") -> LiveWidget:
    """The Underface worked round with the attacker's skill to change."""
    return LiveWidget(uid, [number("skill", "가람의 숏소드 기능", 20, 90, 50, step=10)],
                      lambda skill: Shown(uf_round(skill).html()),
                      title="한 번의 공격 따라가기", plot=False)


# --- Hunter's Moon -------------------------------------------------------------------------

HM_MIGHT, HM_POWER = 3, 3
HM_THREAT = dict(defence=9, durability=6, attack_value=8, power=4, paragraph=3)
HM_BODY_DEFENCE = 8
HM_PC_DEFENCE = 2
#: What the example's dice happen to show: the PC's hit check, then its defence check.
HM_HIT_DICE, HM_DEFENCE_DICE = (4, 2), (5, 4)


def hm_round(plot: int = 2, scouted: bool = True) -> WorkedRound:
    """One melee round: recon → plot → order → the PC's attack and the threat's attack, in the
    order the paragraphs are processed. The PC may target the threat card only while it is
    미행동 (``hm.threat_state``); otherwise it attacks the monster body.

    >>> r = hm_round(2)
    >>> r.numbers["damage"], r.numbers["target"], r.numbers["order"]
    (5, 'threat', ('pc', 'threat'))
    >>> hm_round(4).numbers["target"], hm_round(4).numbers["order"]
    ('body', ('threat', 'pc'))
    >>> hm_round(3, scouted=False).numbers["state"]
    'unplaced'
    """
    plot = require_int(plot, "plot", "플롯치", 1, hm.OUT_OF_RANGE)
    scouted = require_bool(scouted, "scouted", "정찰로 공개한 카드")
    t = HM_THREAT
    place = hm.paragraph_label(plot)
    threat_place = hm.paragraph_label(t["paragraph"])
    bonus = hm.OUT_OF_RANGE_DAMAGE_BONUS if plot == hm.OUT_OF_RANGE else plot
    damage = hm.pc_damage(HM_POWER, plot).min
    state = hm.threat_state(plot, t["paragraph"], placed_before=scouted)
    target = "threat" if hm.can_target_threat(state) else "body"
    pc_first = state != "acted"
    order = ("pc", "threat") if pc_first else ("threat", "pc")
    defence = hm.defence_odds(HM_PC_DEFENCE, t["attack_value"])
    threat_damage = hm.threat_damage(t["power"]).min
    aim = t["defence"] if target == "threat" else HM_BODY_DEFENCE
    hit = hm.check_result(*HM_HIT_DICE, HM_MIGHT, aim)
    hit_ok = hit in ("success", "special")
    dealt = hm.pc_damage(HM_POWER, plot, critical_achievement=(
        sum(HM_HIT_DICE) + HM_MIGHT if hit == "special" else None))
    guard = hm.check_result(*HM_DEFENCE_DICE, HM_PC_DEFENCE, t["attack_value"])
    numbers: dict[str, object] = {"damage": damage, "state": state, "target": target,
                                  "order": order, "pc_first": pc_first, "defence": defence,
                                  "hit": hit, "guard": guard}
    stats = (f"「발톱」은 【방어치】 {t['defence']}, 【내구도】 {t['durability']}, 【공격치】 {t['attack_value']}, "
             f"위력 {t['power']}인 공격 위협입니다.")
    recon = (f"정찰 라운드에 패러그래프 {t['paragraph']}의 정찰판정에 성공해 위협 카드 「발톱」이 드러났고, GM이 "
             f"그 카드를 앞면으로 놓았습니다. 난전 1라운드 개시의 리프레쉬로 카드는 미행동입니다. {stats}"
             if scouted else
             f"정찰 라운드에 패러그래프 {t['paragraph']}의 위협은 드러나지 않아 시트에는 이름 「발톱」만 적혀 "
             f"있습니다. 카드는 패러그래프 {t['paragraph']}의 괴물 측 행동이 올 때에야 미행동으로 놓입니다. {stats}")
    steps = [("정찰:", recon),
             ("플롯:", f"난전 1라운드. PC는 주사위를 가려 {josa(plot, '을/를')} 정했고, 공개한 뒤 말을 {place}에 놓습니다. "
                      f"괴물 본체의 【방어치】는 {HM_BODY_DEFENCE}입니다."),
             ("순서:", (f"PC의 자리가 패러그래프 {t['paragraph']}보다 앞이므로 PC가 먼저 행동합니다."
                        if plot < t["paragraph"] else
                        f"같은 패러그래프에서는 PC가 먼저이므로 PC가 먼저 행동합니다."
                        if plot == t["paragraph"] else
                        f"{josa(threat_place, '을/를')} 먼저 처리하므로 위협이 먼저 움직이고, 행동한 카드는 "
                        "행동완료가 됩니다."))]
    add = (f"무기 위력 {HM_POWER} + 자리 보너스 {bonus}"
           + (" (권외는 0, 가정)" if plot == hm.OUT_OF_RANGE else "") + f" = {damage}")
    if target == "threat":
        destroy = hm.destroy_odds(HM_MIGHT, t["defence"], HM_POWER, plot, t["durability"])
        destroyed = hit_ok and dealt.at_least(t["durability"]) == 1
        numbers.update(destroy=destroy, destroyed=destroyed)
        pc_step = (f"「발톱」이 미행동이므로 목표로 고릅니다. 이 책의 가정대로 {josa(f'【무용】 {HM_MIGHT}', '으로/로')} "
                   f"명중판정(2D6 + {HM_MIGHT} ≥ {t['defence']}). 명중 확률 {fmt.prob(destroy.hit)}. 데미지는 "
                   + (f"{add}이고 【내구도】 {t['durability']} 이상이라 맞히면 격파합니다."
                      if damage >= t["durability"] else
                      f"{josa(add, '으로/로')} 【내구도】 {t['durability']}에 못 미치므로, 스페셜(크리티컬 히트)이 "
                      "나와야 격파합니다.")
                   + f" 격파 확률 {fmt.prob(destroy.destroy)}, 격파하면 본체 【생명력】 −{destroy.body_loss}.")
        pc_result = (f"명중판정 주사위가 {_ira(' + '.join(map(str, HM_HIT_DICE)))}면 달성치 "
                     f"{josa(sum(HM_HIT_DICE) + HM_MIGHT, '으로/로')} {labels.HM_OUTCOMES[hit]}입니다."
                     + ((f" {josa(f'데미지 {dealt.min}', '으로/로')}"
                         + (" 「발톱」을 격파합니다." if destroyed else "는 격파하지 못합니다."))
                        if hit_ok else ""))
    else:
        loss = hm.body_attack_damage(HM_MIGHT, HM_BODY_DEFENCE, HM_POWER, plot)
        destroyed = False
        numbers.update(body_loss=loss, destroyed=False)
        why = ("아직 놓이지 않아" if state == "unplaced" else "이미 행동완료라")
        pc_step = (f"「발톱」 카드가 {why} 목표로 고를 수 없으므로(목표는 미행동인 위협 카드나 본체), PC는 괴물 "
                   f"본체를 노립니다. 이 책의 가정대로 명중판정(2D6 + {HM_MIGHT} ≥ {HM_BODY_DEFENCE}). 명중 확률 "
                   f"{fmt.prob(1 - loss.probability(0))}. 데미지는 {add}이고, 맞히면 본체 【생명력】이 그만큼 줄어듭니다"
                   f"(스페셜이면 달성치만큼 더).")
        pc_result = (f"명중판정 주사위가 {_ira(' + '.join(map(str, HM_HIT_DICE)))}면 달성치 "
                     f"{josa(sum(HM_HIT_DICE) + HM_MIGHT, '으로/로')} {labels.HM_OUTCOMES[hit]}입니다."
                     + (f" 본체 【생명력】 −{dealt.min}." if hit_ok else ""))
    acts = not (pc_first and destroyed)
    placed_now = ("카드가 아직 없으므로 「발톱」을 미행동으로 놓고, " if state == "unplaced" or
                  (state == "acted" and not scouted) else "")
    threat_step = (f"{placed_now}위협의 공격은 자동 명중입니다. PC가 방어판정(2D6 + {HM_PC_DEFENCE} ≥ "
                   f"{t['attack_value']})에 실패하면 {josa(f'데미지 {threat_damage}', '을/를')} 받습니다. 맞을 확률 "
                   f"{fmt.prob(defence['failure'] + defence['fumble'])}. 공격한 「발톱」은 행동완료가 됩니다."
                   + (" (원문은 격파된 위협이 행동종료(가로)가 된다고만 적습니다. 이 책은 격파된 위협은 그 라운드에 "
                      "행동하지 못한다고 봅니다: 가정.)" if pc_first and target == "threat" else ""))
    threat_result = (f"방어판정 주사위가 {_ira(' + '.join(map(str, HM_DEFENCE_DICE)))}면 달성치 "
                     f"{josa(sum(HM_DEFENCE_DICE) + HM_PC_DEFENCE, '으로/로')} {_ira(labels.HM_OUTCOMES[guard])}"
                     + (" 막아 냅니다." if guard in ("success", "special") else
                        f" {josa(f'데미지 {threat_damage}', '을/를')} 받습니다.")
                     if acts else "격파된 「발톱」은 행동하지 못합니다(가정).")
    pcs = [("PC의 공격:", pc_step)]
    threats = [("위협의 공격:", threat_step)]
    steps += pcs + threats if pc_first else threats + pcs
    first, second = (pc_result, threat_result) if pc_first else (threat_result, pc_result)
    steps.append(("결과:", f"예를 들어 {first} 그다음 {second}"
                  if pc_first else f"예를 들어 먼저 위협의 공격에서 {first} 그다음 PC의 {second}"))
    return WorkedRound(f"{josa(f'플롯치 {plot}', '으로/로')} 위협 하나와 맞설 때"
                       + ("" if scouted else " (정찰로 드러나지 않은 카드)"), steps, numbers)


@widget_factory
def hm_round_widget(uid: str = "hm-worked") -> LiveWidget:
    """The Hunter's Moon worked round with the plot value and the recon result to change."""
    return LiveWidget(uid, [number("plot_value", "PC의 플롯치", 1, 6, 2),
                            toggle("scouted", "정찰 라운드에 「발톱」 카드가 공개됨", True)],
                      lambda plot_value, scouted=True: Shown(hm_round(plot_value, scouted).html()),
                      title="난전 라운드 한 번 따라가기", plot=False)
