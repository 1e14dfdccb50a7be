"""Live widgets of the Hunter's Moon chapter (display only; math in ``widgets.hunters_moon``).

Every number shown comes from a call into :mod:`widgets.hunters_moon`; this module only picks
the calls and formats them. The check procedure (2D6 + modifiers ≥ target, raw 12 special,
raw 2 fumble) and the hit/defence model (2D6 + 【무용】 vs 【방어치】, 2D6 + card ability vs
【공격치】) are the book's labelled assumptions (가정; the source gives no dice procedure): see
``WORKING_MODEL_NOTE``.
"""
from __future__ import annotations

import html
from fractions import Fraction

from .. import dice
from .. import hunters_moon as hm
from . import format as fmt
from . import labels
from .live import Bars, LiveWidget, Shown, number, select, toggle, widget_factory
from .table import Table, number_cell

#: Shown beside every widget that uses the check model (the book's assumption, not the source).
WORKING_MODEL_NOTE = ("가정: 명중판정 = 2D6 + 【무용】 + 수정 ≥ 목표의 【방어치】, "
                      "방어·방해판정 = 2D6 + 카드에 적힌 능력치 + 수정 ≥ 위협의 【공격치】. "
                      "주사위 눈 그대로 12는 스페셜(항상 성공), 2는 펌블(항상 실패)인 판정 절차도 가정.")

_OUTCOME_BAND = {"fumble": "down", "failure": "failure", "success": "success",
                 "special": "critical"}
OUTCOME_AXIS = "판정 결과"
#: What a check's answer gives first (``hm.success_chance``; a special always succeeds).
SUCCESS_TOTAL = "성공 (스페셜 포함)"


def _outcome_rows(odds: dict[str, Fraction]) -> list[tuple[str, Fraction]]:
    return [(labels.HM_OUTCOMES[k], odds[k]) for k in hm.OUTCOMES]


def _outcome_bars(odds: dict[str, Fraction]) -> Bars:
    return Bars.outcomes({k: odds[k] for k in hm.OUTCOMES}, labels.HM_OUTCOMES, _OUTCOME_BAND, start=0)


def dist_text(dist) -> str:
    """``7`` for a fixed damage, ``6~11 (평균 17/2 = 8.5)`` for a rolled one."""
    if dist.min == dist.max:
        return str(dist.min)
    return f"{dist.min}~{dist.max} (평균 {_mean_text(dist.mean())})"


def _mean_text(x: Fraction) -> str:
    """``17/2 = 8.5`` / ``229/81 ≈ 2.83`` / ``7``."""
    return fmt.approx(x).replace(" (", " ").replace(")", "")


def _paragraph_choices() -> dict[int, str]:
    return {p: f"{p} ({hm.paragraph_label(p)})" for p in (*hm.PARAGRAPHS, hm.OUT_OF_RANGE)}


# --- 1. the check -------------------------------------------------------------------------------
@widget_factory
def check_widget(uid: str = "hm-check") -> LiveWidget:
    """Odds of one 2D6 check by outcome; special and fumble shown apart."""
    def compute(modifier, target):
        odds = hm.check_odds(modifier, target)
        need = target - modifier
        need_text = ("주사위 눈의 합이 몇이든 목표치에 닿지만" if need <= 2 else
                     "주사위 눈의 합이 12여도 목표치에 못 미치지만" if need > 12 else
                     f"주사위 눈의 합 {need} 이상이면 성공하지만")
        text = (fmt.total_first(SUCCESS_TOTAL, hm.success_chance(odds))
                + f"<p>2D6 {fmt.signed(modifier)} ≥ {target}: {need_text}, 눈의 합 2는 언제나 펌블, "
                f"12는 언제나 스페셜입니다.</p>"
                + fmt.odds_table(_outcome_rows(odds), "판정 결과별 확률"))
        two = dice.dice_sum(2, 6).probabilities()
        bars = Bars(tuple(two), tuple(two.values()),
                    tuple(_OUTCOME_BAND[hm.check_outcome(raw, modifier, target)] for raw in two))
        return Shown(text, bars)
    return LiveWidget(
        uid, [number("modifier", "더하는 값 (능력치 + 수정)", -2, 8, 2),
              number("target", "목표치", 5, 14, 9)],
        compute, title="판정 확률 (가정: 12 스페셜·2 펌블)", x_label="주사위 두 개의 눈 합 (수정 전)",
        legend=tuple((_OUTCOME_BAND[k], labels.HM_OUTCOMES[k]) for k in hm.OUTCOMES))


# --- 2. recon -----------------------------------------------------------------------------------
@widget_factory
def recon_widget(uid: str = "hm-recon") -> LiveWidget:
    """Recon check (【두뇌】) odds and the fumble counterattack 1D6 + level."""
    def compute(brain, target, level):
        odds = hm.recon_odds(brain, target)
        hit = hm.recon_counterattack(level)
        rows = [("성공: 정찰목표의 위협 카드 공개", hm.success_chance(odds)),
                ("실패(펌블 제외): 정찰 라운드 종료", odds["failure"]),
                ("펌블: 반격을 받고 정찰 라운드 종료", odds["fumble"])]
        text = (fmt.total_first(f"정찰판정 {SUCCESS_TOTAL}", hm.success_chance(odds))
                + f"<p>【두뇌】 {brain}, 목표치 {target} (GM이 정함)</p>"
                + fmt.odds_table(rows, "정찰판정 한 번")
                + f"<p>펌블 시 반격: 참가 PC 전원이 각각 1D6+{level} = "
                  f"<b>{dist_text(hit)}</b> 데미지</p>"
                )
        return Shown(text, Bars.from_dist(hit, lambda v: "failure"))
    return LiveWidget(
        uid, [number("brain", "정찰할 PC의 【두뇌】", 0, 4, 2),
              number("target", "정찰판정 목표치", 6, 11, hm.RECON_TARGET_EXAMPLE),
              number("level", "괴물 본체 레벨", 1, 5, 2)],
        compute, title="정찰판정과 펌블 반격 (판정은 가정 모델, 목표치는 GM 설정)",
        x_label="반격 데미지 (PC 한 명당)")


# --- 3. plot choice -----------------------------------------------------------------------------
def _all_threats() -> list[hm.PlacedThreat]:
    return [hm.PlacedThreat(f"위협{p}", p) for p in hm.PARAGRAPHS]


def plot_choice_rows(weapon_power: int, doom_stage: int) -> list[tuple[int, list[str], list[str], int]]:
    """(plot, threats acting before, threats acting after, damage) for plot 1–6, from the library."""
    rows = []
    for plot in (*hm.PARAGRAPHS, hm.OUT_OF_RANGE):
        order = hm.round_order([hm.PlottedPC("PC", plot)], _all_threats())
        at = next(i for i, item in enumerate(order) if isinstance(item, hm.PlottedPC))
        before = [item.paragraph_label for item in order[:at]]
        after = [item.paragraph_label for item in order[at + 1:]]
        damage = hm.pc_damage(weapon_power, plot, doom_stage)
        rows.append((plot, before, after, damage.min))
    return rows


@widget_factory
def plot_widget(uid: str = "hm-plot") -> LiveWidget:
    """For every plot value: when the PC acts relative to the threats, and its damage."""
    def compute(plot_value, weapon_power, doom_stage):
        plot = plot_value
        chosen = hm.pc_damage(weapon_power, plot, doom_stage)
        bonus = hm.pc_damage(0, plot).min
        rows = plot_choice_rows(weapon_power, doom_stage)
        table = Table(["플롯치", "자리", "먼저 움직이는 위협", "나중에 움직이는 위협", "명중 시 데미지"],
                      [[p, hm.paragraph_label(p), len(b), len(a), number_cell(d)]
                       for p, b, a, d in rows], row_heads=False,
                      marked=tuple(i for i, r in enumerate(rows) if r[0] == plot)).html()
        mine = rows[[r[0] for r in rows].index(plot)]
        numbers = [x.replace("패러그래프 ", "") for x in mine[1]]
        before = f"패러그래프 {'·'.join(numbers)}" if numbers else "없음"
        text = (f"<p>플롯치 {plot} → <b>{hm.paragraph_label(plot)}</b>. 나보다 먼저 행동하는 위협: "
                f"{before}. 명중 시 데미지 = 무기 위력 {weapon_power} + 자리 {bonus} + 파멸의 색 "
                f"{doom_stage} = <b>데미지 {dist_text(chosen)}</b></p>" + table
)
        return Shown(text)
    return LiveWidget(
        uid, [select("plot_value", "플롯치", _paragraph_choices(), 3),
              number("weapon_power", "무기 위력", 0, 10, 3),
              number("doom_stage", "파멸의 색 (흑색 영역 각성단계, 0 = 각성 안 함)", 0, 4, 0)],
        compute, title="플롯치 고르기: 행동 순서와 데미지", plot=False)


# --- 4. round processing walkthrough ------------------------------------------------------------
THREAT_LAYOUTS = {
    "12345": "패러그래프 1~5 모두",
    "135": "패러그래프 1·3·5",
    "24": "패러그래프 2·4",
    "45": "패러그래프 4·5",
    "": "위협 없음",
}
_PC_NAMES = ("A", "B", "C")


@widget_factory
def order_widget(uid: str = "hm-order") -> LiveWidget:
    """Given three plotted PCs and the paragraphs with a threat, everything in processing order."""
    def compute(a, b, c, threats):
        if not isinstance(threats, str) or any(ch not in "12345" for ch in threats):
            raise ValueError("위협 배치는 1~5 숫자의 나열이어야 합니다")
        pcs = [hm.PlottedPC(name, plot) for name, plot in zip(_PC_NAMES, (a, b, c))]
        placed = [hm.PlacedThreat(f"위협{p}", int(p)) for p in threats]
        order = hm.round_order(pcs, placed)
        steps = "".join(
            f"<li>{item.paragraph_label}: "
            + (f"PC {item.name}" if isinstance(item, hm.PlottedPC) else "위협 행동") + "</li>"
            for item in order)
        ties = []
        for p in (*hm.PARAGRAPHS, hm.OUT_OF_RANGE):
            names = [pc.name for pc in pcs if pc.paragraph == p]
            if len(names) > 1:
                ties.append(f"{hm.paragraph_label(p)}의 {'·'.join(names)}"
                            f"(위는 {'→'.join(names)} 순서로 정한 경우)")
        tie_text = ("<p>같은 자리: " + ", ".join(ties) + ". 플레이어끼리 상의해서 순서를 정하고, "
                    "정해지지 않으면 1D6을 굴려 높은 눈부터 행동합니다.</p>") if ties else ""
        return Shown(f"<ol>{steps}</ol>{tie_text}")
    plots = _paragraph_choices()
    return LiveWidget(
        uid, [select("a", "PC A 플롯치", plots, 2), select("b", "PC B 플롯치", plots, 6),
              select("c", "PC C 플롯치", plots, 2),
              select("threats", "이번 라운드에 위협이 있는 곳", THREAT_LAYOUTS, "12345")],
        compute, title="난전 라운드 처리 순서", plot=False)


def tie_examples():
    """Ties in one paragraph: agreed order, or 1D6 (higher first), computed by the library."""
    from .trench_crusade import WorkedExamples

    def names(pcs, threats=()):
        return " → ".join(item.name for item in hm.round_order(pcs, threats))
    return WorkedExamples([
        ("A·B 모두 플롯치 2, 상의로 B 먼저", "상의한 순서: B, A",
         names([hm.PlottedPC("B", 2), hm.PlottedPC("A", 2)], [hm.PlacedThreat("위협2", 2)])),
        ("A·B 모두 플롯치 2, 상의 실패", "1D6: A 3, B 5",
         names([hm.PlottedPC("A", 2, 3), hm.PlottedPC("B", 2, 5)], [hm.PlacedThreat("위협2", 2)])),
        ("A 플롯치 6(권외), B 플롯치 1", "위협 1·5",
         names([hm.PlottedPC("A", 6), hm.PlottedPC("B", 1)],
               [hm.PlacedThreat("위협1", 1), hm.PlacedThreat("위협5", 5)])),
    ])


# --- 5. attack: destroying a threat -------------------------------------------------------------
@widget_factory
def destroy_widget(uid: str = "hm-destroy") -> LiveWidget:
    """Chance one attack hits a threat and destroys it (격파), and what the body loses."""
    def compute(might, defence, weapon_power, paragraph, durability):
        odds = hm.destroy_odds(might, defence, weapon_power, paragraph, durability)
        plain = hm.pc_damage(weapon_power, paragraph)
        among_hits = (f", 명중한 공격 가운데로는 {fmt.prob(odds.critical / odds.hit)}" if odds.hit else "")
        text = (fmt.total_first("공격 한 번", [("명중 (스페셜 포함)", odds.hit), ("격파", odds.destroy)])
                + f"<p>크리티컬 히트(스페셜): 공격 한 번에 {fmt.prob(odds.critical)}{among_hits}. 보통 명중 데미지 "
                f"{dist_text(plain)} vs 【내구도】 {durability}. 격파하면 본체 【생명력】 "
                f"−{odds.body_loss}, 이 공격 한 번의 기대 감소 {_mean_text(odds.expected_body_loss)}</p>")
        return Shown(text)
    return LiveWidget(
        uid, [number("might", "【무용】", 1, 3, 2), number("defence", "위협의 【방어치】", 8, 10, 9),
              number("weapon_power", "무기 위력", 2, 5, 3),
              select("paragraph", "공격하는 PC의 자리", _paragraph_choices(), 3),
              number("durability", "위협의 【내구도】", 4, 10, 6, step=2)],
        compute, title="위협 격파 확률 (명중판정은 가정 모델)", plot=False)


def damage_examples():
    """PC damage cases (to a threat or the body), computed by the library."""
    from .trench_crusade import WorkedExamples
    return WorkedExamples([
        ("위력 3 무기, 패러그래프 2", "3 + 2", str(hm.pc_damage(3, 2).min)),
        ("같은 공격, 파멸의 색 각성단계 1", "3 + 2 + 1", str(hm.pc_damage(3, 2, 1).min)),
        ("같은 공격이 스페셜, 달성치 15", "3 + 2 + 1 + 15",
         str(hm.pc_damage(3, 2, 1, critical_achievement=15).min)),
        ("위력 3 무기, 권외 (가정: 자리 번호 0)", "3 + 0", str(hm.pc_damage(3, 6).min)),
        ("위협의 공격, 위력 4, 각성단계 2", "4 + 2×2", str(hm.threat_damage(4, 2).min)),
    ])


# --- 6. threat attack and defence; interference -------------------------------------------------
@widget_factory
def defence_widget(uid: str = "hm-defence") -> LiveWidget:
    """Defence check against a threat's attack and the damage if it fails."""
    def compute(ability, attack_value, power, doom):
        odds = hm.defence_odds(ability, attack_value)
        damage = hm.threat_damage(power, doom)
        lands = hm.failure_chance(odds)
        text = (fmt.total_first(f"방어판정 {SUCCESS_TOTAL}", hm.success_chance(odds))
                + f"<p>방어에 실패하면 데미지 <b>{dist_text(damage)}</b> (위력 {power} + 파멸의 색 "
                f"{doom} × 2, 자리 번호는 더하지 않음). 맞을 확률 {fmt.prob(lands)}, 기대 데미지 "
                f"{_mean_text(lands * damage.mean())}</p>"
                + fmt.odds_table(_outcome_rows(odds), "방어판정"))
        return Shown(text, _outcome_bars(odds))
    return LiveWidget(
        uid, [number("ability", "카드의 「판정」란 능력치 (PC 값)", 0, 4, 2),
              number("attack_value", "위협의 【공격치】", 6, 11, 8),
              number("power", "위협의 위력", 2, 8, 4, step=2),
              number("doom", "파멸의 색 각성단계", 0, 2, 0)],
        compute, title="위협의 공격과 방어판정 (가정 모델)", x_label=OUTCOME_AXIS)


_PLACED = {True: "정찰 라운드나 앞선 난전 라운드에", False: "이번 라운드에 막"}


@widget_factory
def interfere_widget(uid: str = "hm-interfere") -> LiveWidget:
    """Interference: the three conditions and the cost first, then the check."""
    def compute(same, earlier, areas, ability, attack_value):
        ok, why = hm.can_interfere(same, earlier, areas)
        if not ok:
            return Shown(f"<p><b>방해할 수 없습니다</b>: {why}.</p>",
                         _outcome_bars({"fumble": Fraction(0), "failure": Fraction(1),
                                        "success": Fraction(0), "special": Fraction(0)}))
        odds = hm.defence_odds(ability, attack_value)
        text = (fmt.total_first(f"방해판정 {SUCCESS_TOTAL}", hm.success_chance(odds))
                + f"<p>조건을 모두 채웠습니다. 먼저 흑색이 아닌 {hm.INTERFERENCE_AREAS}개 영역에서 인과를 "
                f"하나씩 없애고 방해판정을 합니다. 성공하면 술식의 효과가 전부 없던 일이 됩니다.</p>"
                + fmt.odds_table(_outcome_rows(odds), "방해판정 (가정 모델)"))
        return Shown(text, _outcome_bars(odds))
    return LiveWidget(
        uid, [toggle("same", "위협이 나와 같은 패러그래프", True),
              select("earlier", "위협 카드가 놓인 때", _PLACED, True),
              number("areas", "인과가 남은 영역 (흑색 제외 4곳 중)", 2, 4, 4),
              number("ability", "카드의 「판정」란 능력치 (PC 값)", 0, 4, 2),
              number("attack_value", "위협의 【공격치】", 6, 10, 8, step=2)],
        compute, title="술식 방해: 할 수 있는가, 성공할까 (방해판정은 가정 모델)", x_label=OUTCOME_AXIS,
        legend=tuple((_OUTCOME_BAND[k], labels.HM_OUTCOMES[k]) for k in hm.OUTCOMES))


@widget_factory
def body_attack_widget(uid: str = "hm-body") -> LiveWidget:
    """A PC attacks the monster body: the 【생명력】 it loses (0 on a miss)."""
    def compute(might, body_defence, weapon_power, paragraph, doom_stage):
        loss = hm.body_attack_damage(might, body_defence, weapon_power, paragraph, doom_stage)
        odds = hm.check_odds(might, body_defence)
        plain = hm.pc_damage(weapon_power, paragraph, doom_stage)
        text = (fmt.total_first("명중 (스페셜 포함)", hm.success_chance(odds))
                + f"<p>명중하면 본체 【생명력】이 데미지만큼 곧바로 줄어듭니다: 보통 명중 "
                f"<b>{dist_text(plain)}</b>, 스페셜이면 달성치만큼 더. 빗나갈 확률 "
                f"{fmt.prob(loss.probability(0))}, 이 공격 한 번의 평균 감소 "
                f"<b>{_mean_text(loss.mean())}</b></p>"
                + fmt.odds_table(_outcome_rows(odds), "명중판정 (가정 모델)"))
        return Shown(text, Bars.from_dist(loss, lambda v: "muted" if v == 0 else "success"))
    return LiveWidget(
        uid, [number("might", "【무용】", 1, 3, 2), number("body_defence", "본체의 【방어치】", 8, 10, 9),
              number("weapon_power", "무기 위력", 3, 5, 3, step=2),
              select("paragraph", "공격하는 PC의 자리", _paragraph_choices(), 3),
              number("doom_stage", "파멸의 색 각성단계", 0, 1, 0)],
        compute, title="본체를 공격하기 (명중판정은 가정 모델)", x_label="본체가 잃는 【생명력】")


# --- 7. pursuit ---------------------------------------------------------------------------------
_LIFE = {0: "0", 1: "1 이상"}


@widget_factory
def pursuit_widget(uid: str = "hm-pursuit") -> LiveWidget:
    """Chance to catch the body and the damage of one hit in the pursuit round (+1D6)."""
    def compute(life, ability, body_defence, weapon_power, paragraph):
        if not hm.can_pursue(life):
            return Shown("<p>본체의 【생명력】이 0이면 추격할 일이 없습니다: 전투가 끝나고 PC가 "
                         "이깁니다.</p>")
        chance = hm.pursuit_odds(ability, body_defence)
        normal = hm.pc_damage(weapon_power, paragraph)
        chased = hm.pc_damage(weapon_power, paragraph, pursuit=True)
        text = (fmt.total_first(f"추격판정 {SUCCESS_TOTAL}", chance)
                + f"<p>추격판정에 성공하면 난전 {hm.PURSUIT_ROUND}라운드째로 치는 추격 라운드 한 번.</p>"
                f"<p>{hm.paragraph_label(paragraph)}에서 위력 {weapon_power} 무기: 평소 데미지 "
                f"{dist_text(normal)}, 추격 라운드에서는 <b>{dist_text(chased)}</b></p>"
)
        return Shown(text, Bars.from_dist(chased, lambda v: "neutral"))
    return LiveWidget(
        uid, [select("life", "난전 종료 시 본체 【생명력】", _LIFE, 1),
              number("ability", "추격할 PC의 【두뇌】 또는 【기술】", 1, 4, 2),
              number("body_defence", "본체의 【방어치】", 8, 11, 9),
              number("weapon_power", "무기 위력", 2, 6, 4, step=2),
              select("paragraph", "자리", _paragraph_choices(), 3)],
        compute, title="추격판정과 추격 라운드 데미지 (판정은 가정 모델)",
        x_label="추격 라운드 데미지 (+1D6)")


# --- 8. end of combat ---------------------------------------------------------------------------
_FELL = {"melee1": "난전 1라운드", "melee2": "난전 2라운드", "none": "난전에서는 버팀"}

@widget_factory
def end_widget(uid: str = "hm-end") -> LiveWidget:
    """Which rounds are played, when combat ends, who wins, how many spoils rolls."""
    round_names = {"recon": "정찰 라운드", "melee1": "난전 1라운드", "melee2": "난전 2라운드",
                   "pursuit": f"추격 라운드 (난전 {hm.PURSUIT_ROUND}라운드째 취급, 데미지 +1D6)"}
    why = {"body_destroyed_in_melee": "본체 【생명력】이 0이 되어 그 자리에서 종료",
           "no_pursuit": "난전 라운드가 끝났고 추격하지 않음(추격판정에 실패한 경우도 이 책은 여기에 넣음)",
           "body_destroyed_in_pursuit": "본체 【생명력】이 0이 되어 종료",
           "pursuit_over": "추격 라운드가 끝나 종료"}

    def compute(ambush, fell, pursue, life_end, level):
        course = hm.combat_course(ambush, 0 if fell in ("melee1", "melee2") else 1, pursue,
                                  life_end, level, fell_in_first_round=fell == "melee1")
        result = (f"<b>PC 승리</b>: 전과표를 괴물 레벨만큼 {course.spoils_rolls}번 사용"
                  if course.pcs_win else "<b>PC 패배</b>: 본체 【생명력】이 남아 전과표를 쓰지 않음")
        rounds = " → ".join(round_names[r] for r in course.rounds)
        return Shown(f"<p>진행: {rounds}</p><p>종료: {why[course.ended_by]}</p><p>{result}</p>")
    return LiveWidget(
        uid, [toggle("ambush", "기습·우연한 조우 (정찰 라운드 생략)"),
              select("fell", "본체 【생명력】이 0이 된 때", _FELL, "none"),
              toggle("pursue", "추격판정에 성공"),
              select("life_end", "추격 라운드 종료 시 본체 【생명력】", _LIFE, 0),
              number("level", "괴물 레벨", 1, 5, 2)],
        compute, title="전투 종료와 승패", plot=False)


# --- 9. statuses --------------------------------------------------------------------------------
class StatusTable(Table):
    """The three statuses as the library words them (html table and text)."""

    def __init__(self):
        super().__init__(["상태", "효과"], [[s.name_ko, s.rule_ko] for s in hm.STATUSES],
                         kind="statuses")

    def text(self) -> str:
        return "\n".join(f"{s.name_ko}: {s.rule_ko}" for s in hm.STATUSES)


STATUS_ATTACK = dict(might=2, defence=9, weapon_power=3, durability=6)


@widget_factory
def status_attack_widget(uid: str = "hm-status-attack") -> LiveWidget:
    """A PC attacks a threat (fixed example numbers) under bound / flying / diving."""
    s = STATUS_ATTACK

    def compute(paragraph, attacker_bound, threat_bound, threat_flying, anti_air, attacker_flying,
                attacker_diving, threat_diving):
        flags = dict(attacker_bound=attacker_bound, threat_bound=threat_bound,
                     threat_flying=threat_flying, anti_air=anti_air,
                     attacker_flying=attacker_flying, attacker_diving=attacker_diving,
                     threat_diving=threat_diving)
        base = hm.destroy_odds(s["might"], s["defence"], s["weapon_power"], paragraph, s["durability"])
        now = hm.destroy_odds(s["might"], s["defence"], s["weapon_power"], paragraph, s["durability"],
                              **flags)
        dealt = hm.flying_damage(hm.pc_damage(s["weapon_power"], paragraph), threat_flying,
                                 anti_air, attacker_flying)
        auto = hm.diving_auto_hit(attacker_diving, threat_diving)
        lines = (("명중", base.hit, now.hit), ("크리티컬", base.critical, now.critical),
                 ("격파", base.destroy, now.destroy))
        if not any(flags.values()):
            table = Table(["", "상태 없음"], [[label, a] for label, a, _ in lines])
            return Shown(f"<p>보통 명중 데미지 {dist_text(dealt)}. 아래 스위치로 상태를 켜면 상태가 "
                         f"없을 때와 나란히 비교합니다.</p>" + table.html())
        table = Table(["", "상태 없음", "상태 적용"], [list(line) for line in lines])
        if auto:
            choice = (" · 잠수: 주사위 없이 자동명중을 고름(격파 확률이 굴릴 때 이상, 가정)" if now.auto_hit else
                      " · 잠수: 자동명중은 크리티컬이 없어 격파할 수 없으므로 명중판정을 굴림(가정)")
        else:
            choice = ""
        text = f"<p>보통 명중 데미지 {dist_text(dealt)}{choice}</p>" + table.html()
        return Shown(text)
    return LiveWidget(
        uid, [select("paragraph", "공격하는 PC의 자리", _paragraph_choices(), 3),
              toggle("attacker_bound", "공격 PC 포박 (판정 −1)"),
              toggle("threat_bound", "위협 포박 (【방어치】 −1)"),
              toggle("threat_flying", "위협 비행 (대공 아니면 데미지 −5, 가정)"),
              toggle("anti_air", "무기에 「대공」"),
              toggle("attacker_flying", "공격 PC 비행 (모든 무기가 대공)"),
              toggle("attacker_diving", "공격 PC 잠수"), toggle("threat_diving", "위협 잠수")],
        compute, title=(f"상태와 공격 (가정 모델): 【무용】 {s['might']}, 【방어치】 {s['defence']}, 위력 "
                        f"{s['weapon_power']}, 【내구도】 {s['durability']}"), plot=False)


STATUS_DEFENCE = dict(ability=2, attack_value=9)


@widget_factory
def status_defence_widget(uid: str = "hm-status-defence") -> LiveWidget:
    """A threat attacks a PC (fixed example numbers) under bound / flying / diving."""
    s = STATUS_DEFENCE

    def compute(power, pc_bound, threat_bound, threat_diving, pc_flying, anti_air, threat_flying):
        odds = hm.defence_odds(s["ability"], s["attack_value"], bound=pc_bound,
                               threat_bound=threat_bound, threat_diving=threat_diving)
        damage = hm.flying_damage(hm.threat_damage(power), pc_flying, anti_air, threat_flying)
        lands = hm.failure_chance(odds)
        text = (fmt.total_first("맞을 확률 (방어판정 실패·펌블)", lands)
                + ("<p>잠수한 위협의 공격: 방어판정을 할 수 없어 그대로 맞습니다.</p>"
                 if threat_diving else fmt.odds_table(_outcome_rows(odds), "방어판정"))
                + f"<p>위력 {power}인 위협에 맞으면 데미지 <b>{dist_text(damage)}</b></p>")
        if pc_bound:
            text += (f"<p>포박된 PC는 라운드 종료 시 【생명력】 "
                     f"{dist_text(hm.bound_round_end_loss())} 감소, 이동 불가</p>")
        return Shown(text, _outcome_bars(odds))
    return LiveWidget(
        uid, [number("power", "위협의 위력", 4, 10, 6, step=2),
              toggle("pc_bound", "PC 포박 (판정 −1)"),
              toggle("threat_bound", "위협 포박 (【공격치】 −1)"),
              toggle("threat_diving", "위협 잠수 (방어판정 불가)"),
              toggle("pc_flying", "PC 비행 (대공 아니면 데미지 −5)"),
              toggle("anti_air", "위협의 공격에 「대공」"),
              toggle("threat_flying", "위협 비행 (그 공격이 대공, 가정)")],
        compute, title=(f"상태와 방어 (가정 모델): 능력치 {s['ability']}, 【공격치】 {s['attack_value']}"),
        x_label=OUTCOME_AXIS)


ALL_WIDGETS = [check_widget, recon_widget, plot_widget, order_widget, destroy_widget,
               body_attack_widget, defence_widget, interfere_widget, pursuit_widget, end_widget,
               status_attack_widget, status_defence_widget]
