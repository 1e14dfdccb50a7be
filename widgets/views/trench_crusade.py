"""Live widgets of the Trench Crusade chapter (display only; math in ``widgets.trench_crusade``)."""
from __future__ import annotations

import html
from fractions import Fraction

from .. import dice
from .. import trench_crusade as tc
from . import format as fmt
from .live import Bars, LiveWidget, Shown, number, select, toggle

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


def _dice_phrase(net: int) -> str:
    if net == 0:
        return "2D6를 굴려 그대로 더합니다"
    side = "높은" if net > 0 else "낮은"
    return f"{2 + abs(net)}D6를 굴려 {side} 눈 2개를 더합니다"


def _success_shown(net: int, modifier: int) -> Shown:
    dist = tc.success_roll(net, modifier)
    odds = tc.success_odds(net, modifier)
    rows = [(_SUCCESS_LABEL[k], p) for k, p in odds.items()]
    text = (f"<p>{fmt.signed(net)} DICE, 보정치 {fmt.signed(modifier)}: {_dice_phrase(net)}.</p>"
            + fmt.odds_table(rows, "성공 굴림 결과"))
    return Shown(text, Bars.from_dist(dist, _band_of(tc.SUCCESS_CHART, _SUCCESS_BAND)))


def success_widget(uid: str = "tc-success") -> LiveWidget:
    """Success roll chart: odds of failure/success/critical for any net ±DICE and modifier."""
    return LiveWidget(
        uid, [number("dice", "순 ±DICE", -10, 10, 0), number("modifier", "보정치", -5, 5, 0)],
        lambda dice, modifier: _success_shown(dice, modifier),
        title="성공 굴림 확률 (Success roll)", x_label="굴림값 (합계)", legend=_SUCCESS_LEGEND)


def plus_minus_widget(uid: str = "tc-plusminus") -> LiveWidget:
    """±DICE: cancel +DICE against −DICE, then show the kept-2 distribution."""
    def compute(plus, minus):
        net = tc.net_dice(plus, minus)
        shown = _success_shown(net, 0)
        head = (f"<p>+{plus} DICE와 −{minus} DICE가 서로 지워져 순 {fmt.signed(net)} DICE가 "
                f"남습니다.</p>")
        return Shown(head + shown.html, shown.bars)
    return LiveWidget(
        uid, [number("plus", "+DICE 개수", 0, 6, 1), number("minus", "−DICE 개수", 0, 6, 0)],
        compute, title="±DICE 상쇄 (+Dice and −Dice)", x_label="남긴 두 눈의 합",
        legend=_SUCCESS_LEGEND)


def worked_examples_html(rows: list[tuple[str, str, str]]) -> str:
    """A small table of worked examples: (situation, input, result computed by the library)."""
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td>"
                   f"<td><b>{html.escape(c)}</b></td></tr>" for a, b, c in rows)
    return ('<table class="worked"><tr><th>상황</th><th>입력</th><th>결과</th></tr>'
            f"{body}</table>")


class WorkedExamples:
    """Displays worked examples as a table (html) and as text (for nbval)."""

    def __init__(self, rows: list[tuple[str, str, str]]):
        self.rows = rows

    def _repr_html_(self) -> str:
        return worked_examples_html(self.rows)

    def __repr__(self) -> str:
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


def dice_pool_widget(uid: str = "tc-pool") -> LiveWidget:
    """What you need: the sum of several D6, or of D3 read off D6."""
    kinds = {"d6": "D6", "d3": "D3 (D6로 대신: 1–2→1, 3–4→2, 5–6→3)"}

    def compute(count, kind):
        n = int(count) if float(count).is_integer() else count
        one = dice.die(6) if kind == "d6" else dice.d3_from_d6()
        dist = one.repeat_sum(n)
        name = "D6" if kind == "d6" else "D3"
        rows = [(f"{v}", p) for v, p in dist.probabilities().items()]
        text = (f"<p>{n}{name} 합계의 평균은 {fmt.fraction(dist.mean())}입니다.</p>"
                + (fmt.odds_table(rows, f"{n}{name} 합계의 분포") if len(rows) <= 16 else ""))
        return Shown(text, Bars.from_dist(dist, lambda v: "neutral"))
    return LiveWidget(
        uid, [number("count", "주사위 개수", 1, 8, 2), select("kind", "주사위", kinds, "d6")],
        compute, title="주사위 합계 분포 (Dice)", x_label="합계")


def activation_widget(uid: str = "tc-activation") -> LiveWidget:
    """Turns and activations: who starts and the alternating order."""
    def compute(models_a, models_b):
        first = tc.first_player(models_a, models_b)
        if first["A"] == first["B"]:
            who = "모델 수가 같으므로 D6 굴림 경합: 각 플레이어가 먼저 할 확률 " + fmt.prob(first["A"])
            starter = "A"
            note = " (A가 이겼다고 가정한 순서)"
        else:
            starter = "A" if first["A"] == 1 else "B"
            who = f"모델이 더 적은 {starter} 쪽이 먼저 시작합니다"
            note = ""
        order = tc.activation_order(models_a, models_b, starter)
        seq = " → ".join(order)
        return Shown(f"<p>{who}.</p><p>조작 순서{note}: {html.escape(seq)}</p>"
                     f"<p>이 차례의 조작 횟수: {len(order)}</p>")
    return LiveWidget(
        uid, [number("models_a", "A 쪽 모델 수", 1, 20, 6),
              number("models_b", "B 쪽 모델 수", 1, 20, 8)],
        compute, title="누가 먼저 조작하나 (Activations)", plot=False)


_RISKY = {"dash": "약진 (Dash)", "climb": "등반 (Climb)",
          "fire_step": "참호 발판 등반 (fire-step)", "dash_climb": "약진 후 등반"}


def risky_widget(uid: str = "tc-risky") -> LiveWidget:
    """Risky actions: the chance that the activation goes on."""
    def compute(action, dice, modifier):
        count = tc.RISKY_ROLLS[action]
        goes_on = tc.risky_chain_odds(dice, modifier, count)
        if count == 0:
            text = "<p>참호의 사격 발판으로 오르는 것은 위험한 행동이 아니므로 굴림 없이 성공합니다.</p>"
        else:
            text = (f"<p>성공 굴림 {count}번(각각 7 이상)이 모두 성공해야 조작이 이어집니다.</p>")
        rows = [("조작이 이어질 확률", goes_on), ("조작이 끝날 확률", 1 - goes_on)]
        bars = Bars((0, 1), (1 - goes_on, goes_on), ("failure", "success"))
        return Shown(text + fmt.odds_table(rows), bars)
    return LiveWidget(
        uid, [select("action", "행동", _RISKY, "dash"), number("dice", "순 ±DICE", -3, 3, 0),
              number("modifier", "보정치", -2, 2, 0)],
        compute, title="위험한 행동 (Risky)", x_label="0 = 조작 종료, 1 = 계속")


def charge_widget(uid: str = "tc-charge") -> LiveWidget:
    """Charge reach: Movement + D6 against the distance to the target."""
    def compute(movement, distance):
        p = tc.charge_odds(movement, distance)
        face = tc.charge_roll_needed(movement, distance)
        bars = Bars(tuple(range(1, 7)), (Fraction(1, 6),) * 6,
                    tuple("success" if f >= face else "failure" for f in range(1, 7)))
        need = ("이동력만으로 1\" 안에 닿습니다" if face == 0 else
                "어떤 눈이 나와도 1\" 안에 닿지 못합니다" if face > 6 else
                f"D6 눈이 {face} 이상이면 1\" 안에 닿아 단병접전에 들어갑니다")
        text = (f"<p>대상까지 {distance}\", 이동력 {movement}\": {need}.</p>"
                + fmt.odds_table([("돌격이 닿을 확률", p), ("닿지 못할 확률", 1 - p)]))
        return Shown(text, bars)
    return LiveWidget(
        uid, [number("movement", "이동력 (Movement, 인치)", 4, 8, 6),
              number("distance", "대상까지 거리 (인치)", 1, 12, 9, step=0.5)],
        compute, title="돌격 도달 확률 (Charge)", x_label="D6 눈")


def markers_widget(uid: str = "tc-markers") -> LiveWidget:
    """How spending blood and blessing markers moves the success-roll odds."""
    def compute(base, blood, blessing):
        after = tc.markers_to_dice(base, blood, blessing)
        before_odds, after_odds = tc.success_odds(base), tc.success_odds(after)
        rows = "".join(
            f"<tr><th>{html.escape(_SUCCESS_LABEL[k])}</th><td>{fmt.prob(before_odds[k])}</td>"
            f"<td>{fmt.prob(after_odds[k])}</td></tr>" for k in before_odds)
        text = (f"<p>행동의 ±DICE {fmt.signed(base)} → 표식을 쓴 뒤 {fmt.signed(after)}</p>"
                f'<table class="odds"><tr><th></th><th>쓰기 전</th><th>쓴 뒤</th></tr>{rows}</table>')
        dist = tc.success_roll(after)
        return Shown(text, Bars.from_dist(dist, _band_of(tc.SUCCESS_CHART, _SUCCESS_BAND)))
    return LiveWidget(
        uid, [number("base", "행동의 ±DICE", -2, 2, 0),
              number("blood", "상대가 쓴 유혈 표식 (−DICE)", 0, 6, 1),
              number("blessing", "내가 쓴 축복 표식 (+DICE)", 0, 6, 0)],
        compute, title="표식을 쓰면 달라지는 성공 확률", x_label="굴림값 (표식 반영 후)",
        legend=_SUCCESS_LEGEND)


def injury_widget(uid: str = "tc-injury", default_dice: int = 0,
                  default_bloodbath: bool = False) -> LiveWidget:
    """Injury roll (supplementary chart) with ±DICE, bloodbath and armour."""
    armour_choices = {v: label for label, v in tc.ARMOUR.items()}

    def compute(dice, armour, shield, bloodbath):
        total_armour = armour + (tc.TRENCH_SHIELD if shield else 0)
        dist = tc.injury_roll(dice, total_armour, 0, bloodbath)
        odds = tc.injury_odds(dice, total_armour, 0, bloodbath)
        kept = 3 if bloodbath else 2
        text = (f"<p>{kept + abs(dice)}D6를 굴려 "
                f"{'높은' if dice >= 0 else '낮은'} 눈 {kept}개를 더하고 갑옷 {total_armour}을(를) 뺍니다.</p>"
                + fmt.odds_table([(_INJURY_LABEL[k], p) for k, p in odds.items()],
                                 "부상 판정 결과 (보충 규칙)"))
        return Shown(text, Bars.from_dist(dist, _band_of(tc.INJURY_CHART, _INJURY_BAND)))
    return LiveWidget(
        uid, [number("dice", "부상 굴림 순 ±DICE", -3, 3, default_dice),
              select("armour", "갑옷 (armour)", armour_choices, 0),
              toggle("shield", "참호 방패 (trench shield, −1)"),
              toggle("bloodbath", "유혈낭자 (Bloodbath: D6 하나 더 남김)", default_bloodbath)],
        compute, title="부상 굴림 분포 (Injury roll)", x_label="부상 굴림 합계",
        legend=_INJURY_LEGEND)


def fraction_widget(uid: str = "tc-fraction") -> LiveWidget:
    """Fractions: divisions that must be whole numbers round up."""
    def compute(numerator, denominator):
        result = tc.round_up(numerator, denominator)
        exact = fmt.fraction(Fraction(numerator, denominator))
        return Shown(f"<p>{numerator} ÷ {denominator} = {exact} → 정수만 쓰는 곳에서는 "
                     f"<b>{result}</b></p>")
    return LiveWidget(
        uid, [number("numerator", "나눌 수", 0, 24, 7), number("denominator", "나누는 수", 1, 6, 2)],
        compute, title="분수 올림 (Fractions)", plot=False)


def ranged_widget(uid: str = "tc-ranged") -> LiveWidget:
    """Ranged modifiers (supplementary): long range, cover, elevation → DICE → odds."""
    ranges = {12: '12"', 18: '18"', 24: '24"', 36: '36"'}

    def compute(weapon_range, distance, cover, elevated):
        net = tc.ranged_dice(distance, weapon_range, cover, elevated)
        long_range = tc.ranged_band(distance, weapon_range).modifier < 0
        notes = [n for n, on in (("원거리(사거리 절반 초과) −1", long_range), ("엄폐 −1", cover),
                                 ("고지 +1", elevated)) if on]
        shown = _success_shown(net, 0)
        head = f"<p>적용: {', '.join(notes) or '없음'} → 순 {fmt.signed(net)} DICE</p>"
        return Shown(head + shown.html, shown.bars)
    return LiveWidget(
        uid, [select("weapon_range", "무기 사거리", ranges, 24),
              number("distance", "대상까지 거리 (인치)", 1, 36, 14),
              toggle("cover", "대상이 엄폐 (cover)"), toggle("elevated", "2\" 넘게 높은 곳에서 (elevated)")],
        compute, title="원거리 공격 보정 (보충 규칙)", x_label="굴림값 (합계)",
        legend=_SUCCESS_LEGEND)
