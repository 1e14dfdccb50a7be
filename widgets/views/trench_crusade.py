"""Live widgets of the Trench Crusade chapter (display only; math in ``widgets.trench_crusade``)."""
from __future__ import annotations

import html
from fractions import Fraction

from .. import dice
from .. import trench_crusade as tc
from . import format as fmt
from .live import PAGE_ROOM, Bars, LiveWidget, Shown, number, select, toggle, widget_factory
from .table import Table

_SUCCESS_LABEL = {key: label for key, label, _, _ in tc.SUCCESS_CHART}
_INJURY_LABEL = {key: label for key, label, _, _ in tc.INJURY_CHART}
_INJURY_BAND = {"no_effect": "muted", "minor_hit": "success", "down": "critical",
                "out_of_action": "failure"}
_SUCCESS_BAND = {"failure": "failure", "success": "success", "critical": "critical"}
_SUCCESS_LEGEND = tuple((_SUCCESS_BAND[k], label) for k, label, _, _ in tc.SUCCESS_CHART)
_INJURY_LEGEND = tuple((_INJURY_BAND[k], label.split(":")[0]) for k, label, _, _ in tc.INJURY_CHART)


def _band_of(chart, colours):
    def band(total: int) -> str:
        for key, _, lo, hi in chart:
            if (lo is None or total >= lo) and (hi is None or total <= hi):
                return colours[key]
        raise ValueError(total)
    return band


def _dice_phrase(net: int, kept: int = 2) -> str:
    """``2D6을 굴려 모두 더합니다`` / ``4D6을 굴려 높은 눈 3개를 더합니다``."""
    rolled, kept = tc.roll_size(net, kept)
    if net == 0:
        return f"{fmt.josa(f'{rolled}D6', '을/를')} 굴려 모두 더합니다"
    side = "높은" if net > 0 else "낮은"
    return f"{fmt.josa(f'{rolled}D6', '을/를')} 굴려 {side} 눈 {kept}개를 더합니다"


def _dice_label(net: int) -> str:
    """``+1 DICE``, or ``±DICE 없음`` (a bare "0 DICE" reads oddly)."""
    return "±DICE 없음" if net == 0 else f"{fmt.signed(net)} DICE"


#: What a success roll answers first (``tc.success_or_better``).
SUCCESS_TOTAL = "성공 이상 (성공·대성공)"
#: Injury results from the worst for the target down (an attack's miss last), and the GM's
#: "or worse" lines (sums from the library: ``dice.or_better``).
_INJURY_ORDER = tuple(key for key, _, _, _ in reversed(tc.INJURY_CHART))
_INJURY_LINES = {"minor_hit": "경상 이상", "down": "중상 이상"}


def armour_choices() -> dict[int, str]:
    """The armour menu: each armour with what it takes off an injury roll (「표준 갑옷 (−1)」).

    >>> armour_choices()[1]
    '표준 갑옷 (−1)'
    """
    return {v: (f"{label} ({fmt.signed(-v)})" if v else label) for label, v in tc.ARMOUR.items()}


def _success_shown(net: int, modifier: int, head: str = "") -> Shown:
    """A success roll's answer: 성공 이상 first, then ``head`` (what made the ±DICE), how to
    roll it and the three results."""
    dist = tc.success_roll(net, modifier)
    odds = tc.success_odds(net, modifier)
    rows = [(_SUCCESS_LABEL[k], p) for k, p in odds.items()]
    mod = f", 보정치 {fmt.signed(modifier)}" if modifier else ""
    text = (fmt.total_first(SUCCESS_TOTAL, tc.success_or_better(odds)) + head
            + f"<p>{_dice_label(net)}{mod}: {_dice_phrase(net)}.</p>"
            + fmt.odds_table(rows, "성공 굴림 결과"))
    return Shown(text, Bars.from_dist(dist, _band_of(tc.SUCCESS_CHART, _SUCCESS_BAND)))


@widget_factory
def success_widget(uid: str = "tc-success") -> LiveWidget:
    """Success roll chart: odds of failure/success/critical for any net ±DICE and modifier."""
    return LiveWidget(
        uid, [number("dice", "순 ±DICE", -10, 10, 0), number("modifier", "보정치", -5, 5, 0)],
        lambda dice, modifier: _success_shown(dice, modifier),
        title="성공 굴림: 실패·성공·대성공이 얼마나 나오나", x_label="굴림값 (합계)", legend=_SUCCESS_LEGEND)


@widget_factory
def plus_minus_widget(uid: str = "tc-plusminus") -> LiveWidget:
    """±DICE: cancel +DICE against −DICE, then show the kept-2 distribution."""
    def compute(plus, minus):
        net = tc.net_dice(plus, minus)
        if plus and minus:
            head = (f"<p>+{plus} DICE와 −{minus} DICE가 하나씩 서로 지워져 "
                    f"{'아무것도 남지 않습니다' if net == 0 else _dice_label(net) + '만 남습니다'}.</p>")
        elif plus or minus:
            head = f"<p>지울 상대가 없어 {_dice_label(net)}가 그대로 남습니다.</p>"
        else:
            head = "<p>±DICE가 붙지 않았습니다.</p>"
        return _success_shown(net, 0, head)
    return LiveWidget(
        uid, [number("plus", "+DICE 개수", 0, 6, 1), number("minus", "−DICE 개수", 0, 6, 0)],
        compute, title="+DICE와 −DICE가 함께 붙으면 어떻게 되나", x_label="남긴 두 눈의 합",
        legend=_SUCCESS_LEGEND, page_room=PAGE_ROOM)


class WorkedExamples(Table):
    """Worked examples of the source, each (situation, input, result computed by the library),
    drawn by the one table helper; the text form (for nbval) is the rows alone."""

    def __init__(self, rows: list[tuple[str, str, str]]):
        super().__init__(["상황", "입력", "결과"], rows, kind="worked", row_heads=False,
                         strong_columns=(2,))

    def text(self) -> str:
        return "\n".join(" | ".join(r) for r in self.rows)


def dice_examples() -> WorkedExamples:
    """The source's ±DICE examples, computed by the library."""
    return WorkedExamples([
        ("+1 DICE, 눈 3·4·5", "높은 두 눈", str(tc.kept_total([3, 4, 5], dice=+1))),
        ("−1 DICE, 눈 3·4·5", "낮은 두 눈", str(tc.kept_total([3, 4, 5], dice=-1))),
        ("+1 DICE와 −1 DICE", "상쇄", f"{fmt.signed(tc.net_dice(1, 1))} DICE"),
        ("+2 DICE와 −1 DICE", "상쇄", f"{fmt.signed(tc.net_dice(2, 1))} DICE"),
        ("+1 DICE와 −2 DICE", "상쇄", f"{fmt.signed(tc.net_dice(1, 2))} DICE"),
    ])


#: Rolls a table uses, with the dice each keeps (bloodbath keeps one more).
_ROLL_KINDS = {"success": ("성공 굴림", 2), "injury": ("부상 굴림", 2),
               "bloodbath": ("유혈낭자를 쓴 부상 굴림", 3), "bombard": (f"포격처럼 {fmt.josa('3D6', '으로/로')} 주는 부상", 3),
               "bombard_bloodbath": ("포격 부상 + 유혈낭자", 4)}
#: The least number of D6 the digest asks each player to bring.
DICE_TO_BRING = 8


@widget_factory
def dice_pool_widget(uid: str = "tc-dice") -> LiveWidget:
    """What you need: how many D6 one roll throws (kept + |±DICE|) against the 8 to bring, and
    the D3 read off a D6."""
    def compute(kind, net):
        name, kept = _ROLL_KINDS[kind]
        rolled, kept = tc.roll_size(net, kept)
        enough = (f"주사위 {DICE_TO_BRING}개면 한 번에 굴릴 수 있습니다" if rolled <= DICE_TO_BRING
                  else f"준비물 {DICE_TO_BRING}개로는 모자라 {rolled - DICE_TO_BRING}개를 더 굴려 함께 봅니다")
        dist = dice.roll_and_keep(kept, net, 6)
        text = (f"<p>{name}, {_dice_label(net)}: {_dice_phrase(net, kept)}. "
                f"한 번에 D6 <b>{rolled}개</b>가 필요하고, {enough}.</p>"
                f"<p>합계 평균 {fmt.approx(dist.mean(), markup=True)}, 범위 {dist.min}~{dist.max}</p>"
                + _D3_TABLE)
        return Shown(text, Bars.from_dist(dist, lambda v: "neutral"))
    return LiveWidget(
        uid, [select("kind", "굴림", {k: v[0] for k, v in _ROLL_KINDS.items()}, "success"),
              number("net", "순 ±DICE", -6, 6, 0)],
        compute, title="한 번에 주사위가 몇 개 필요한가", x_label="남긴 눈의 합계")


_D3_TABLE = Table([], [["D6 눈", *range(1, 7)], ["D3 값", *(tc.d3_from_d6_face(f) for f in range(1, 7))]],
                  caption=f'{fmt.josa("D3", "이/가")} 없을 때: D6 눈을 {fmt.josa("D3", "으로/로")} 읽기').html()


@widget_factory
def activation_widget(uid: str = "tc-activation") -> LiveWidget:
    """Turns and activations: who starts and the alternating order."""
    def compute(models_a, models_b):
        first = tc.first_player(models_a, models_b)
        if first["A"] == first["B"]:
            who = "미니어처 수가 같으므로 D6 굴림으로 겨룹니다: 각 플레이어가 먼저 할 확률 " + fmt.prob(first["A"])
            starter = "A"
            note = " (A가 이겼다고 가정한 순서)"
        else:
            starter = "A" if first["A"] == 1 else "B"
            who = f"미니어처가 더 적은 {starter} 쪽이 먼저 시작합니다"
            note = ""
        order = tc.activation_order(models_a, models_b, starter)
        seq = " → ".join(order)
        left = abs(models_a - models_b)
        tail = (f"<p><b>가정</b>: 한쪽이 활성화할 미니어처를 다 쓰면 남은 쪽이 나머지 {left}개를 "
                "잇달아 활성화하는 것으로 그렸습니다. 요약본은 이 경우를 따로 적지 않습니다.</p>"
                if left else "")
        return Shown(f"<p>{who}.</p><p>활성화 순서{note}: {html.escape(seq)}</p>"
                     f"<p>이 차례의 활성화 횟수: {len(order)}</p>{tail}")
    return LiveWidget(
        uid, [number("models_a", "A 쪽 미니어처 수", 1, 20, 6),
              number("models_b", "B 쪽 미니어처 수", 1, 20, 8)],
        compute, title="누가 먼저 활성화하나", plot=False)


_RISKY = {"dash": "약진", "climb": "등반", "fire_step": "참호 발판 등반", "dash_climb": "약진 후 등반"}


@widget_factory
def risky_widget(uid: str = "tc-risky") -> LiveWidget:
    """Risky actions: the chance that the activation goes on."""
    def compute(action, dice, modifier):
        count = tc.RISKY_ROLLS[action]
        goes_on = tc.risky_chain_odds(dice, modifier, count)
        if count == 0:
            text = "<p>참호의 사격 발판으로 오르는 것은 위험한 행동이 아니므로 굴림 없이 성공합니다.</p>"
        else:
            need = next(lo for key, _, lo, _ in tc.SUCCESS_CHART if key == "success")
            text = (f"<p>성공 굴림(합계 {need} 이상)에 성공해야 활성화가 이어집니다.</p>" if count == 1 else
                    f"<p>성공 굴림 {count}번이 모두 성공해야(각각 합계 {need} 이상) 활성화가 이어집니다.</p>")
        text = (fmt.total_first("활성화가 이어질 확률", goes_on) + text
                + f"<p>활성화가 끝날 확률 {fmt.prob(1 - goes_on)}</p>")
        bars = Bars.outcomes({"stop": 1 - goes_on, "go": goes_on},
                             {"stop": "활성화 끝", "go": "계속"},
                             {"stop": "failure", "go": "success"}, start=0)
        return Shown(text, bars)
    return LiveWidget(
        uid, [select("action", "행동", _RISKY, "dash"), number("dice", "순 ±DICE", -3, 3, 0),
              number("modifier", "보정치", -2, 2, 0)],
        compute, title="위험한 행동 뒤에도 활성화가 이어질까", x_label="활성화")


@widget_factory
def charge_widget(uid: str = "tc-charge") -> LiveWidget:
    """Charge reach: Movement + D6 against the distance to the target."""
    def compute(movement, distance):
        p = tc.charge_odds(movement, distance)
        face = tc.charge_roll_needed(movement, distance)
        bars = Bars(tuple(range(1, 7)), (Fraction(1, 6),) * 6,
                    tuple("success" if f >= face else "failure" for f in range(1, 7)))
        need = ("이동력만으로 1\" 안에 닿습니다" if face == 0 else
                "어떤 눈이 나와도 1\" 안에 닿지 못합니다" if face > 6 else
                f"D6 눈이 {face} 이상이면 1\" 안에 닿아 근접전에 들어갑니다")
        text = (fmt.total_first("돌격이 닿을 확률", p)
                + f"<p>대상까지 {distance}\", 이동력 {movement}\": {need}. "
                f"닿지 못할 확률 {fmt.prob(1 - p)}</p>")
        return Shown(text, bars)
    return LiveWidget(
        uid, [number("movement", "이동력 (인치)", 4, 8, 6),
              number("distance", "대상까지 거리 (인치)", 1, 12, 9, step=0.5)],
        compute, title="돌격이 적의 1인치 안까지 닿을까", x_label="D6 눈")


@widget_factory
def markers_widget(uid: str = "tc-markers") -> LiveWidget:
    """How spending blood and blessing markers moves the success-roll odds."""
    def compute(base, blood, blessing):
        after = tc.markers_to_dice(base, blood, blessing)
        before_odds, after_odds = tc.success_odds(base), tc.success_odds(after)
        table = Table(["", "쓰기 전", "쓴 뒤"], [[_SUCCESS_LABEL[k], before_odds[k], after_odds[k]]
                                             for k in before_odds])
        text = (fmt.total_first(SUCCESS_TOTAL, [("쓰기 전", tc.success_or_better(before_odds)),
                                                ("쓴 뒤", tc.success_or_better(after_odds))])
                + f"<p>행동의 ±DICE {fmt.signed(base)} → 표식을 쓴 뒤 {fmt.signed(after)}</p>"
                + table.html())
        dist = tc.success_roll(after)
        return Shown(text, Bars.from_dist(dist, _band_of(tc.SUCCESS_CHART, _SUCCESS_BAND)))
    return LiveWidget(
        uid, [number("base", "행동의 ±DICE", -2, 2, 0),
              number("blood", "상대가 쓴 유혈 표식 (−DICE)", 0, 6, 1),
              number("blessing", "내가 쓴 축복 표식 (+DICE)", 0, 6, 0)],
        compute, title="표식을 쓰면 성공 확률이 얼마나 바뀌나", x_label="굴림값 (표식 반영 후)",
        legend=_SUCCESS_LEGEND)


@widget_factory
def injury_widget(uid: str = "tc-injury", default_dice: int = 0,
                  default_bloodbath: bool = False,
                  title: str = "부상 굴림: 맞은 적의 결과가 어떻게 나뉘나") -> LiveWidget:
    """Injury roll (supplementary chart) with ±DICE, bloodbath and armour; ``title`` names the
    question a chapter asks of it (each instance its own)."""

    def compute(dice, armour, shield, bloodbath, weapon_mod):
        total_armour = armour + (tc.TRENCH_SHIELD if shield else 0)
        dist = tc.injury_roll(dice, total_armour, weapon_mod, bloodbath)
        odds = tc.injury_odds(dice, total_armour, weapon_mod, bloodbath)
        kept = 3 if bloodbath else 2
        armour_text = (f"갑옷 {fmt.josa(total_armour, '을/를')} 뺍니다" if total_armour
                       else "갑옷이 없어 빼는 값은 없습니다")
        if weapon_mod:
            armour_text += f", 무기의 부상 보정치 {fmt.signed(weapon_mod)}"
        bath = ", 유혈낭자" if bloodbath else ""
        text = (fmt.graded_lines(odds, _INJURY_ORDER, _INJURY_LINES)
                + f"<p>{_dice_label(dice)}{bath}: {_dice_phrase(dice, kept)}. {armour_text}.</p>"
                + fmt.odds_table([(_INJURY_LABEL[k], p) for k, p in odds.items()],
                                 "부상 판정 결과 (보충 규칙)"))
        return Shown(text, Bars.from_dist(dist, _band_of(tc.INJURY_CHART, _INJURY_BAND)))
    return LiveWidget(
        uid, [number("dice", "부상 굴림 순 ±DICE", -3, 3, default_dice),
              select("armour", "갑옷", armour_choices(), 0),
              toggle("shield", "참호 방패 (−1)"),
              toggle("bloodbath", "유혈낭자 (D6 하나 더 남김)", default_bloodbath),
              number("weapon_mod", "무기의 부상 보정치 (무기 카드)", -2, 2, 0)],
        compute, title=title, x_label="부상 굴림 합계",
        legend=_INJURY_LEGEND)


_FRACTION_USES = {"count": "개수 (미니어처·표식·주사위: 정수만)",
                  "distance": "거리 (인치: 소수도 씀)"}


@widget_factory
def fraction_widget(uid: str = "tc-fraction") -> LiveWidget:
    """Fractions: a division applied where only whole numbers fit rounds up; where fractions
    fit (a measured distance) it stays as it is."""
    def compute(numerator, denominator, use):
        exact = Fraction(numerator, denominator)
        if use == "count":
            result = tc.round_up(numerator, denominator)
            verdict = (f"개수는 정수만 쓰므로 소수점 아래를 올려 <b>{result}</b>개" if exact.denominator > 1
                       else f"나누어떨어지므로 그대로 <b>{result}</b>개")
        else:
            verdict = f'거리는 소수까지 쓸 수 있으므로 그대로 <b>{float(exact):g}"</b>'
        return Shown(f"<p>{numerator} ÷ {denominator} = {fmt.approx(exact, markup=True)} → {verdict}.</p>")
    return LiveWidget(
        uid, [number("numerator", "나눌 수", 1, 24, 7), number("denominator", "나누는 수", 2, 4, 2),
              select("use", "나눈 값을 쓰는 곳", _FRACTION_USES, "count")],
        compute, title="나눈 값은 올릴까, 그대로 쓸까", plot=False)


_ATTACK_RESULT_BAND = {"miss": "muted", **_INJURY_BAND, "no_effect": "neutral"}
_ATTACK_LABEL = {"miss": "빗나감 (성공 굴림 실패)", **_INJURY_LABEL}
#: Short names of the attack results under the bars.
_ATTACK_AXIS = {k: label.split(" (")[0].split(":")[0] for k, label in _ATTACK_LABEL.items()}


@widget_factory
def attack_widget(uid: str = "tc-attack") -> LiveWidget:
    """One attack from the success roll to the injury chart: a critical success adds +1 DICE to
    the injury roll."""

    def compute(dice, armour, target_down, hit_mod, injury_dice, injury_mod):
        roll = tc.success_odds(dice, hit_mod)
        odds = tc.attack_odds(dice, armour, target_down, injury_dice, hit_mod, injury_mod)
        base = injury_dice + (1 if target_down else 0)
        def how(net):
            return "±DICE 없이" if net == 0 else fmt.josa(_dice_label(net), "으로/로")
        text = (fmt.total_first("명중 (성공 굴림이 성공·대성공)", tc.success_or_better(roll))
                + f"<p>성공 굴림({_dice_label(dice)})이 성공하면 부상 굴림을 {how(base)}, "
                f"대성공하면 {how(base + 1)} 굴립니다"
                + (" (대상이 이미 중상이라 +1 DICE, 보충 규칙)" if target_down else "")
                + (f", 부상 굴림 합계에 {fmt.signed(injury_mod)}" if injury_mod else "") + ". "
                f"성공 {fmt.prob(roll['success'])}, 대성공 {fmt.prob(roll['critical'])}.</p>"
                + fmt.odds_table([(_ATTACK_LABEL[k], odds[k]) for k in tc.ATTACK_RESULTS],
                                 "공격 한 번의 최종 결과 (부상 판정표는 보충 규칙)"))
        bars = Bars.outcomes({k: odds[k] for k in tc.ATTACK_RESULTS}, _ATTACK_AXIS,
                             _ATTACK_RESULT_BAND, start=0)
        return Shown(text, bars)
    return LiveWidget(
        uid, [number("dice", "공격의 순 ±DICE", -2, 2, 0),
              select("armour", "대상의 갑옷", armour_choices(), 0),
              toggle("target_down", "대상이 이미 중상"),
              number("hit_mod", "무기의 명중 보정치 (무기 카드)", -1, 1, 0),
              number("injury_dice", "무기의 부상 ±DICE (무기 카드)", -1, 1, 0),
              number("injury_mod", "무기의 부상 보정치 (무기 카드)", -1, 1, 0)],
        compute, title="공격 한 번으로 적이 어떻게 되나",
        x_label="공격의 결과")


@widget_factory
def ranged_widget(uid: str = "tc-ranged") -> LiveWidget:
    """Ranged modifiers (supplementary): long range, cover, elevation → DICE → odds."""
    ranges = {12: '12"', 18: '18"', 24: '24"', 36: '36"'}

    def compute(weapon_range, distance, cover, elevated):
        net = tc.ranged_dice(distance, weapon_range, cover, elevated)
        long_range = tc.ranged_band(distance, weapon_range).modifier < 0
        notes = [n for n, on in (("장거리(사거리 절반 초과) −1", long_range), ("엄폐 −1", cover),
                                 ("고지 +1", elevated)) if on]
        head = f"<p>적용: {', '.join(notes) or '없음'} → {_dice_label(net)}</p>"
        return _success_shown(net, 0, head)
    return LiveWidget(
        uid, [select("weapon_range", "무기 사거리", ranges, 24),
              number("distance", "대상까지 거리 (인치)", 1, 36, 14),
              toggle("cover", "대상이 엄폐"), toggle("elevated", "2\" 넘게 높은 곳에서")],
        compute, title="거리·엄폐·높이로 사격 성공률이 얼마나 바뀌나 (보충 규칙)", x_label="굴림값 (합계)",
        legend=_SUCCESS_LEGEND)
