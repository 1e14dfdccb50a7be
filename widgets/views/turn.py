"""A whole turn, live: one turn or round walked through step by step, with dice the reader can change.

A walkthrough is a list of :class:`Step` s. Each step names the rule it applies (a link to its
section of the chapter), the exact odds at that moment (the library's, read as a player says
them: 「약 N%」 first, the fraction beside it) and the dice it rolled. A game's turn is a plain
function of a :class:`Dice`: it asks for each roll in order, and what it asks next depends on
what came before (a charge that falls short has no melee attack after it), so changing any
step's dice re-resolves the rest.

Where the dice come from: the reader's typed text (one group per roll, groups split by ``/``,
a group left empty or ``-`` is rolled), else 「다시 굴리기」 — a seed: 0 gives the book's own
example dice, any other number ``random.Random`` dice (each roll its own stream, so changing one
roll's dice never changes another's). All of it is a pure ``compute`` (:func:`turn_widget`),
so the site's page table, its engine and Jupyter answer alike.
"""
from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

from .. import trench_crusade as tc
from ..errors import RuleInputError, require_int
from .format import josa, number as fmt_number, signed
from .live import MAX_TEXT_INPUT, LiveWidget, Shown, normalise_typed, number, text, widget_factory
from .practice import chance

_E = html.escape
#: A step's own room (the steps are long: a gap tells one from the next).
_LI = "margin-bottom:0.7em"
#: Largest seed the 「다시 굴리기」 box takes (the slider offers the first few).
MAX_SEED = 999_999
#: Seeds whose answers ship in the page (the rest come from the engine).
PAGE_SEEDS = 12


@dataclass(frozen=True)
class Slot:
    """One roll of a turn, in order: its Korean name (「가의 돌격」) and the book's example faces
    (what seed 0 rolls; a roll needing more dice takes the rest from the seeded stream)."""

    name: str
    example: tuple[int, ...]


class Dice:
    """The dice of one turn: typed groups first, else the seed's (0: the book's example).

    >>> d = Dice("4 / ６ 6", 0, [Slot("돌격", (2,)), Slot("명중", (1, 1)), Slot("부상", (5, 4))])
    >>> d.roll(0, 1), d.roll(1, 2), d.roll(2, 2)
    ((4,), (6, 6), (5, 4))
    >>> d.source(0), d.source(2)
    ('직접 넣음', '예시 주사위')
    >>> try:
    ...     Dice("7", 0, [Slot("돌격", (2,))]).roll(0, 1)
    ... except RuleInputError as err:
    ...     print(err.korean)
    1번째 칸(돌격)의 주사위 눈은 1부터 6까지의 정수여야 합니다 (입력값: 7).
    """

    def __init__(self, typed: str, seed: int, slots: Sequence[Slot], span: str = ""):
        self.slots = list(slots)
        #: What the walkthrough covers, in its chapter's own word (「턴」 in Pathfinder, 「차례」 in
        #: Trench Crusade, 「라운드」 …: each game's ``*_SPAN``); "" says 「이 예시」.
        self.span = span
        self.seed = require_int(seed, "seed", "다시 굴리기 번호", 0, MAX_SEED)
        if not isinstance(typed, str):
            raise RuleInputError("typed dice must be text", "주사위는 글자로 넣어 주세요.")
        if len(typed) > MAX_TEXT_INPUT:
            raise RuleInputError(f"typed dice: at most {MAX_TEXT_INPUT} characters",
                                 f"주사위: {MAX_TEXT_INPUT}자까지만 넣을 수 있습니다 (입력: {len(typed)}자).")
        groups = normalise_typed(typed).split("/") if typed.strip() else []
        if len(groups) > len(self.slots):
            raise RuleInputError(
                f"typed dice: {len(groups)} groups for {len(self.slots)} rolls",
                f"주사위 칸이 {len(groups)}개입니다. 이 {self.span or '예시'}의 굴림은 {len(self.slots)}번이라 "
                f"칸도 {len(self.slots)}개까지입니다 (칸은 /로 나눕니다).")
        self.typed: list[list[str] | None] = []
        for i, group in enumerate(groups):
            words = [w for w in re.split(r"[\s,]+", group.strip()) if w]
            self.typed.append(None if words in ([], ["-"]) else words)
        self.typed += [None] * (len(self.slots) - len(self.typed))
        self.used: list[tuple[int, ...] | None] = [None] * len(self.slots)

    def _where(self, i: int) -> str:
        return f"{i + 1}번째 칸({self.slots[i].name})"

    def roll(self, i: int, count: int, sides: int = 6) -> tuple[int, ...]:
        """Slot ``i``'s ``count`` faces of a d``sides``: typed ones (checked: how many, which
        faces), else the seed's."""
        words = self.typed[i]
        if words is not None:
            if len(words) != count:
                raise RuleInputError(
                    f"slot {i + 1} ({self.slots[i].name}): {count} dice, got {len(words)}",
                    f"{self._where(i)}: 이 굴림은 주사위 {count}개를 굴립니다 (입력: {len(words)}개).")
            faces = []
            for w in words:
                if not re.fullmatch(r"[+-]?\d{1,6}", w):
                    raise RuleInputError(
                        f"slot {i + 1} ({self.slots[i].name}): not a face: {w!r}",
                        f"{self._where(i)}: 주사위 눈은 숫자로 적어 주세요 (입력값: {w[:20]!r}).")
                faces.append(require_int(int(w), "face", f"{self._where(i)}의 주사위 눈", 1, sides))
            got = tuple(faces)
        else:
            stream = random.Random(self.seed * 64 + i)
            example = self.slots[i].example if self.seed == 0 else ()
            got = tuple(example[:count]) + tuple(stream.randint(1, sides)
                                                 for _ in range(max(0, count - len(example))))
        self.used[i] = got
        return got

    def draw(self, i: int, dist) -> int:
        """Slot ``i``'s one total of a distribution (a damage total): the typed number, checked
        to be one the distribution can give, else one drawn by the seed with its exact weights
        (seed 0: the book's example)."""
        words = self.typed[i]
        outcomes = dist.outcomes()
        if words is not None:
            if len(words) != 1 or not re.fullmatch(r"[+-]?\d{1,6}", words[0]):
                raise RuleInputError(
                    f"slot {i + 1} ({self.slots[i].name}): one total",
                    f"{self._where(i)}: 합계 하나를 숫자로 적어 주세요 (입력값: {' '.join(words)[:20]!r}).")
            got = int(words[0])
            if dist.probability(got) == 0:
                raise RuleInputError(
                    f"slot {i + 1} ({self.slots[i].name}): {got} cannot be rolled",
                    f"{self._where(i)}: 이 굴림의 합계는 {outcomes[0]}부터 {outcomes[-1]}까지입니다 "
                    f"(입력값: {got}).")
        elif self.seed == 0 and self.slots[i].example and dist.probability(self.slots[i].example[0]):
            got = self.slots[i].example[0]
        else:
            weights = dist.weights
            got = random.Random(self.seed * 64 + i).choices(list(weights), list(weights.values()))[0]
        self.used[i] = (got,)
        return got

    def source(self, i: int) -> str:
        """Where slot ``i``'s dice came from, in Korean."""
        if self.typed[i] is not None:
            return "직접 넣음"
        return "예시 주사위" if self.seed == 0 else f"다시 굴리기 {self.seed}번"

    def replay_text(self) -> str:
        """The typed text that rolls this very turn again (skipped rolls as ``-``)."""
        return " / ".join(" ".join(map(str, f)) if f else "-" for f in self.used)


@dataclass
class Step:
    """One step of a walkthrough: who acts and what (``head``), the rule it applies (``rule``:
    its Korean name and the anchor of its section), what happens (``text``), the exact odds at
    that moment (``odds``: Korean label → probability), the dice rolled (``slot``: which roll of
    the :class:`Dice`) and its result; a step that does not happen says why (``skipped``)."""

    head: str
    rule: tuple[str, str]
    text: str = ""
    odds: list[tuple[str, Fraction]] = field(default_factory=list)
    slot: int | tuple[int, ...] | None = None
    result: str = ""
    skipped: str = ""


@dataclass
class Turn:
    """A walked-through turn: its title, its steps, the dice used and its numbers for the tests.

    >>> t = Turn("예", [Step("가의 돌격", ("돌격", "tcs-move"), "돌격합니다.",
    ...                       [("닿음", Fraction(2, 3))], 0, "닿습니다.")],
    ...          Dice("", 0, [Slot("돌격", (4,))]))
    >>> t.dice.roll(0, 1)
    (4,)
    >>> "약 67% (2/3)" in t.html() and 'href="#tcs-move"' in t.html()
    True
    """

    title: str
    steps: list[Step]
    dice: Dice
    numbers: dict[str, object] = field(default_factory=dict)

    def html(self) -> str:
        items = []
        for n, s in enumerate(self.steps, 1):
            rule = f'<a class="turn-rule" href="#{_E(s.rule[1])}">{_E(s.rule[0])}</a>'
            head = f'<b>{n}. {_E(s.head)}</b> <span class="turn-rule-name">규칙: {rule}</span>'
            if s.skipped:
                items.append(f'<li class="turn-step turn-skipped" style="{_LI}">{head}<br>'
                             f'<i>일어나지 않음: {_E(s.skipped)}</i></li>')
                continue
            parts = [head]
            if s.text:
                parts.append(_E(s.text))
            if s.odds:
                parts.append("지금의 확률: " + ", ".join(
                    f"{_E(label)} <b>{_E(chance(p))}</b>" for label, p in s.odds))
            if s.slot is not None:
                slots = (s.slot,) if isinstance(s.slot, int) else s.slot
                parts.append('<span class="turn-dice">' + " · ".join(
                    f'주사위 {i + 1}번 칸({_E(self.dice.slots[i].name)}): '
                    f'<b>{_E(" ".join(map(str, self.dice.used[i] or ())))}</b> ({_E(self.dice.source(i))})'
                    for i in slots) + "</span>")
            if s.result:
                parts.append(f"→ {_E(s.result)}")
            items.append(f'<li class="turn-step" style="{_LI}">{"<br>".join(parts)}</li>')
        names = " / ".join(s.name for s in self.dice.slots)
        again = josa(self.dice.span or "예시", "을/를")
        return (f'<p class="turn-title"><b>{_E(self.title)}</b></p>'
                f'<p class="turn-slots">주사위 칸 (굴리는 순서대로): {_E(names)}<br>이 {_E(again)} 다시 만드는 주사위: '
                f'<code>{_E(self.dice.replay_text())}</code></p>'
                f'<ol class="turn-steps" style="list-style:none;padding-left:0">{"".join(items)}</ol>')

    def text(self) -> str:
        lines = [self.title]
        for n, s in enumerate(self.steps, 1):
            body = s.skipped and f"일어나지 않음: {s.skipped}" or " ".join(
                x for x in (s.text, s.result) if x)
            lines.append(f"{n}. {s.head} [{s.rule[0]}] {body}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return self.html()

    def __repr__(self) -> str:
        return self.text()


def _plus(face: int, modifier: int) -> str:
    """'14 + 3 = 17', '15 − 5 = 10': a die and its modifier, summed.

    >>> _plus(15, -5)
    '15 − 5 = 10'
    """
    return f"{face} {'+' if modifier >= 0 else '−'} {abs(modifier)} = {face + modifier}"


def turn_widget(uid: str, play: Callable[[Dice], Turn], slots: Sequence[Slot], span: str, title: str,
                examples: Sequence[str] = ()) -> LiveWidget:
    """The live widget of a walkthrough: a text box for typed dice (``examples`` ship in the
    page) and 「다시 굴리기」 (a seed; 0 is the book's example), one pure compute. ``span``: what
    it walks through in the chapter's own word (:class:`Dice`)."""
    help_ = ("굴린 주사위 (칸은 /로 나눔, 빈 칸은 「다시 굴리기」로 굴림): "
             + " / ".join(s.name for s in slots))

    def compute(dice: str = "", seed: int = 0) -> Shown:
        return Shown(play(Dice(dice, seed, slots, span)).html())

    return LiveWidget(uid, [text("dice", help_, "", examples),
                            number("seed", "다시 굴리기 (0은 예시 주사위)", 0, PAGE_SEEDS - 1, 0)],
                      compute, title=title, plot=False)


# --- Trench Crusade: alternating activations, a charge, a melee exchange -------------------

TC_MODELS = {"A": 2, "B": 3}
TC_MOVEMENT = 6
TC_CHARGE_DISTANCE = 10
TC_ARMOUR = "표준 갑옷"
#: Blood markers 비토 carries from an earlier turn, and how many the opponent spends at a time.
TC_BLOOD_START = 2
TC_BLOOD_SPENT = 1
#: What the walkthrough covers, in the chapter's own word (Trench Crusade's turn (both warbands' activations) is 「차례」).
TC_SPAN = "차례"
TC_SLOTS = (Slot("루카의 돌격", (4,)), Slot("루카의 명중", (6, 6)), Slot("비토의 부상", (5, 4, 2, 1)),
            Slot("비토의 반격", (6, 5, 4, 3)), Slot("루카의 부상", (3, 2)))
TC_EXAMPLES = ("1", "- / 2 3", "- / 5 6", "- / - / 6 6 5 4", "- / - / 1 1 2 1")


def _tc_odds(odds: dict, chart) -> list[tuple[str, Fraction]]:
    return [(label.split(":")[0], odds[key]) for key, label, _, _ in chart]


def tc_turn(dice: Dice) -> Turn:
    """One Trench Crusade turn: who goes first, 루카's charge and melee attack on 비토 (blood markers
    spent on the injury roll), 비토's reply while Down, then the rest of the activations.

    >>> t = tc_turn(Dice("", 0, TC_SLOTS))
    >>> t.numbers["order"], t.numbers["reached"], t.numbers["hit"], t.numbers["injury"]
    ('ABABB', True, 'critical', (8, 'down'))
    >>> t.numbers["reply"], t.numbers["blood"]
    ('success', {'비토': 1, '루카': 1})
    >>> tc_turn(Dice("1", 0, TC_SLOTS)).numbers["hit"] is None   # the charge falls short
    True
    """
    armour = tc.ARMOUR[TC_ARMOUR]
    first = "A" if tc.first_player(TC_MODELS["A"], TC_MODELS["B"])["A"] == 1 else "B"
    order = "".join(tc.activation_order(TC_MODELS["A"], TC_MODELS["B"], first))
    blood = {"비토": TC_BLOOD_START, "루카": 0}
    numbers: dict[str, object] = {"order": order, "reached": False, "hit": None, "injury": None,
                                  "reply": None, "reply_injury": None, "blood": blood}
    steps = [Step("차례의 시작", ("차례와 활성화", "tcs-turn"),
                  f"A는 미니어처 {TC_MODELS['A']}개(루카, 세라), B는 {TC_MODELS['B']}개(비토, 도노, 마르코)입니다. "
                  f"미니어처가 적은 {first}가 먼저 하고, 이번 차례의 활성화 순서는 {' '.join(order)}입니다. "
                  f"비토는 지난 차례에 다쳐 유혈 표식 {TC_BLOOD_START}개가 있고, 루카와 비토는 {TC_ARMOUR}"
                  f"(부상 굴림 −{armour})을 입었습니다.")]

    # A's first activation: 루카 charges 비토
    need = tc.charge_roll_needed(TC_MOVEMENT, TC_CHARGE_DISTANCE)
    reach = tc.charge_odds(TC_MOVEMENT, TC_CHARGE_DISTANCE)
    face = dice.roll(0, 1)[0]
    reached = tc.charge_reaches(TC_MOVEMENT, TC_CHARGE_DISTANCE, face)
    numbers["reached"] = reached
    steps.append(Step(
        "A의 활성화 1: 루카의 돌격", ("돌격", "tcs-move"),
        f'루카(이동력 {TC_MOVEMENT}")가 {TC_CHARGE_DISTANCE}" 떨어진 비토에게 돌격합니다. 이동력에 D6"를 더해 '
        f'비토의 1" 안에 들어야 하므로 D6이 {need} 이상이어야 합니다.',
        [("닿음", reach), ("못 닿음", 1 - reach)], 0,
        f'{TC_MOVEMENT}" + {face}"로 비토의 1" 안에 들어가 근접전이 됩니다.' if reached else
        f'{TC_MOVEMENT}" + {face}"로는 비토의 1" 안에 들지 못합니다. 근접전이 되지 않습니다.'))

    # 루카's melee attack: success roll, then 비토's injury roll
    hit_step = Step("루카의 근접 공격: 성공 굴림", ("공격", "tcs-attack"))
    injury_step = Step("비토의 부상 굴림", ("부상 굴림", "tcs-injury"))
    nah_state = "ok"
    if not reached:
        hit_step.skipped = "돌격이 닿지 않아 근접전이 아니므로 근접 공격을 할 수 없습니다."
        injury_step.skipped = "근접 공격이 없었습니다."
    else:
        odds = tc.success_odds(0)
        rolls = dice.roll(1, tc.roll_size(0)[0])
        hit = tc.success_result(list(rolls), 0)
        numbers["hit"] = hit
        hit_step.text = "±DICE 없이 2D6을 굴립니다. 7 이상이면 맞히고, 12 이상이면 대성공입니다."
        hit_step.odds, hit_step.slot = _tc_odds(odds, tc.SUCCESS_CHART), 1
        label = dict((k, l) for k, l, _, _ in tc.SUCCESS_CHART)[hit]
        hit_step.result = (f"합계 {sum(rolls)}, {label}입니다."
                           + (" 맞혔고, 대성공이라 부상 굴림에 +1 DICE가 붙습니다." if hit == "critical" else
                              " 맞혔습니다." if hit == "success" else " 빗나갔습니다."))
        if hit == "failure":
            injury_step.skipped = "루카의 공격이 빗나갔습니다."
        else:
            spent = min(TC_BLOOD_SPENT, blood["비토"])
            net = (tc.DICE_SOURCES["critical"][2] * (hit == "critical")
                   + tc.DICE_SOURCES["blood_injury"][2] * spent)
            thrown, kept = tc.roll_size(net)
            blood["비토"] -= spent
            rolls = dice.roll(2, thrown)
            total, result = tc.injury_result(list(rolls), net, armour)
            numbers["injury"] = (total, result)
            blood["비토"] = tc.markers_after_injury(blood["비토"], result)
            nah_state = {"down": "down", "out_of_action": "out"}.get(result, "ok")
            label = dict((k, l) for k, l, _, _ in tc.INJURY_CHART)[result]
            injury_step.text = (f"A는 비토의 유혈 표식 {spent}개를 써서 +{spent} DICE를 얻습니다(쓴 표식은 없어집니다)."
                                + (" 대성공의 +1 DICE와 합쳐" if hit == "critical" else "")
                                + f" 순 {signed(net)} DICE: {thrown}D6 가운데 높은 눈 {kept}개를 더하고 "
                                  f"{TC_ARMOUR} {armour}을 뺍니다.")
            injury_step.odds = _tc_odds(tc.injury_odds(net, armour), tc.INJURY_CHART)
            injury_step.slot = 2
            injury_step.result = (f"합계 {total}, {label.split(':')[0]}입니다. "
                                  + {"down": f"비토는 중상(Down)이 되어 스스로 움직일 수 없고, 유혈 표식은 {blood['비토']}개입니다.",
                                     "out": "비토는 전투 불능이 되어 전장에서 치웁니다.",
                                     "ok": f"비토의 유혈 표식은 {blood['비토']}개입니다."}[nah_state])
    steps += [hit_step, injury_step]

    # B's first activation: 비토 hits back while in melee
    reply_step = Step("B의 활성화 1: 비토의 반격", ("유혈 표식", "tcs-markers"))
    back_step = Step("루카의 부상 굴림", ("부상 굴림", "tcs-injury"))
    if not reached:
        reply_step.skipped = "근접전이 아니어서 이 예의 반격은 없습니다. 비토는 다른 행동을 합니다."
        back_step.skipped = "반격이 없었습니다."
    elif nah_state == "out":
        reply_step.skipped = "비토는 전투 불능이라 전장에 없습니다. B는 도노를 활성화합니다."
        back_step.skipped = "반격이 없었습니다."
    else:
        down = nah_state == "down"
        spent = min(TC_BLOOD_SPENT, blood["비토"])
        net = tc.markers_to_dice(tc.DICE_SOURCES["own_down"][2] * down, spent, 0, blood["비토"])
        blood["비토"] -= spent
        thrown, _ = tc.roll_size(net)
        rolls = dice.roll(3, thrown)
        reply = tc.success_result(list(rolls), net)
        numbers["reply"] = reply
        side = "낮은" if net < 0 else "높은"
        reply_step.text = ((f"비토는 중상이라 자기 행동에 {signed(tc.DICE_SOURCES['own_down'][2])} DICE(보충)를 받고, " if down
                            else "")
                           + (f"A가 비토의 유혈 표식 {spent}개를 써서 −{spent} DICE를 붙입니다. " if spent else "")
                           + f"순 {signed(net)} DICE로 근접 공격의 성공 굴림을 합니다"
                           + (f": {thrown}D6 가운데 {side} 눈 2개를 더합니다." if net else "."))
        reply_step.odds, reply_step.slot = _tc_odds(tc.success_odds(net), tc.SUCCESS_CHART), 3
        label = dict((k, l) for k, l, _, _ in tc.SUCCESS_CHART)[reply]
        reply_step.result = f"남긴 두 눈의 합 {tc.kept_total(list(rolls), net)}, {label}입니다." + (
            " 빗나갔습니다." if reply == "failure" else " 맞혔습니다.")
        if reply == "failure":
            back_step.skipped = "비토의 반격이 빗나갔습니다."
        else:
            net2 = tc.DICE_SOURCES["critical"][2] * (reply == "critical")
            thrown, kept = tc.roll_size(net2)
            rolls = dice.roll(4, thrown)
            total, result = tc.injury_result(list(rolls), net2, armour)
            numbers["reply_injury"] = (total, result)
            blood["루카"] = tc.markers_after_injury(blood["루카"], result)
            label = dict((k, l) for k, l, _, _ in tc.INJURY_CHART)[result].split(":")[0]
            back_step.text = ((f"대성공이라 +1 DICE: {thrown}D6 가운데 높은 눈 {kept}개를 더하고 " if net2
                               else "2D6을 더하고 ") + f"{TC_ARMOUR} {armour}을 뺍니다.")
            back_step.odds = _tc_odds(tc.injury_odds(net2, armour), tc.INJURY_CHART)
            back_step.slot = 4
            back_step.result = f"합계 {total}, {label}입니다." + (
                " 루카는 전투 불능이 되어 전장에서 치웁니다." if result == "out_of_action"
                else f" 루카의 유혈 표식은 {blood['루카']}개입니다.")
    steps += [reply_step, back_step]
    steps.append(Step("나머지 활성화", ("차례와 활성화", "tcs-turn"),
                      f"남은 순서대로 A의 세라, B의 도노와 마르코가 활성화하면 차례가 끝납니다. 남은 유혈 표식"
                      f"(비토 {blood['비토']}개, 루카 {blood['루카']}개)은 다음 차례에도 상대가 씁니다."))
    return Turn("트렌치 크루세이드의 한 차례", steps, dice, numbers)


@widget_factory
def tc_turn_widget(uid: str = "tc-worked") -> LiveWidget:
    """The Trench Crusade turn, live: type any roll's dice or roll again."""
    return turn_widget(uid, tc_turn, TC_SLOTS, TC_SPAN, f"한 {TC_SPAN} 따라가기: 돌격, 근접 공격, 중상", TC_EXAMPLES)


# --- Pathfinder 2e: three actions, MAP 0/−5, a throw with a range penalty, a critical hit ---

PF_LEVEL, PF_STRENGTH, PF_DEXTERITY, PF_RANK = 1, 4, 2, "expert"
PF_AC, PF_HP = 16, 20
#: The longsword (1d8 + Str) against the orc beside the fighter; the javelin (thrown, range
#: increment 30 ft, 1d6 + Str) against the second orc 45 ft away.
PF_SWORD, PF_JAVELIN = (8, "장검"), (6, "투창")
PF_JAVELIN_INCREMENT, PF_FAR = 30, 45
#: What the walkthrough covers, in the chapter's own word (Pathfinder's turn is 「턴」 (「차례」 is the turn order)).
PF_SPAN = "턴"
PF_SLOTS = (Slot("행동 1의 d20", (13,)), Slot("행동 1의 피해", (5,)),
            Slot("행동 2의 d20", (20,)), Slot("행동 2의 피해", (4,)),
            Slot("행동 3의 d20", (15,)), Slot("행동 3의 피해", (3,)))
PF_EXAMPLES = ("1", "19 / 8", "- / - / 1", "- / - / 2 / - / 20")


def pf_turn(dice: Dice) -> Turn:
    """One Pathfinder 2e turn of three actions: a fighter strikes the orc beside it with a
    longsword (MAP 0, then −5) while it stands, then throws a javelin at the far orc (MAP and a
    range penalty); a critical hit doubles the damage.

    >>> t = pf_turn(Dice("", 0, PF_SLOTS))
    >>> t.numbers["degrees"], t.numbers["damage"], t.numbers["hp"]
    (['success', 'critical_success', 'failure'], [9, 16, None], 0)
    >>> pf_turn(Dice("- / - / 2", 0, PF_SLOTS)).numbers["targets"]   # the orc still stands
    ['A', 'A', 'A']
    >>> "이 턴을 다시 만드는 주사위" in pf_turn(Dice("", 0, PF_SLOTS, PF_SPAN)).html()
    True
    """
    from .. import pf2e
    from .format import josa
    from .pf2e import RANK_CHOICES
    labels = pf2e.DEGREE_LABELS_KO
    proficiency = pf2e.proficiency_bonus(PF_RANK, PF_LEVEL)
    melee = pf2e.attack_bonus("melee", strength=PF_STRENGTH, proficiency=proficiency)
    thrown = pf2e.attack_bonus("ranged", dexterity=PF_DEXTERITY, proficiency=proficiency)
    far = pf2e.range_penalty(PF_FAR, PF_JAVELIN_INCREMENT)
    hp = PF_HP
    numbers: dict[str, object] = {"degrees": [], "damage": [], "targets": [], "odds": []}
    steps = [Step("턴의 시작", ("한 턴과 세 행동", "pfs-turn"),
                  f"{PF_LEVEL}레벨 파이터(근력 {signed(PF_STRENGTH)}, 민첩 {signed(PF_DEXTERITY)}, 무기 숙련 "
                  f"{RANK_CHOICES[PF_RANK]})가 한 손에 장검, 다른 손에 투창을 들었습니다. 오크 A(AC {PF_AC}, "
                  f"HP {PF_HP})는 바로 옆, 오크 B는 {PF_FAR}ft 떨어져 있습니다. 행동 세 개로 A가 쓰러질 때까지 장검으로 "
                  f"치고, A가 쓰러지면 B에게 투창을 던집니다. 명중 보너스는 장검 {signed(melee)}, 투창 "
                  f"{signed(thrown)}입니다.")]
    javelin_thrown = False
    for n in (1, 2, 3):
        d20, dmg = 2 * (n - 1), 2 * (n - 1) + 1
        map_ = pf2e.multiple_attack_penalty(n)
        if hp > 0:
            target, (sides, weapon), bonus, rng = "A", PF_SWORD, melee, 0
        elif not javelin_thrown:
            target, (sides, weapon), bonus, rng = "B", PF_JAVELIN, thrown, far
            javelin_thrown = True
        else:
            steps.append(Step(f"행동 {n}: 보행", ("한 턴과 세 행동", "pfs-turn"),
                              f"A는 쓰러졌고 투창도 던졌습니다. 남은 행동으로 B에게 다가갑니다(굴림 없음)."))
            numbers["targets"].append(None)
            continue
        numbers["targets"].append(target)
        kwargs = ({"distance_ft": PF_FAR, "increment_ft": PF_JAVELIN_INCREMENT} if rng else {})
        odds = pf2e.strike_odds(bonus, PF_AC, attack_number=n, **kwargs)
        numbers["odds"].append(odds)
        total_mod = bonus + map_ + rng
        face = dice.roll(d20, 1, 20)[0]
        degree = pf2e.roll_degree(face, total_mod, PF_AC)
        numbers["degrees"].append(degree)
        parts = [f"다중 공격 페널티 {signed(map_)}"] + ([f"사거리 페널티 {signed(rng)}"] if rng else [])
        what = (f"{n}번째 공격이라 " + ", ".join(parts) + f": d20 {signed(total_mod)} 대 AC {PF_AC}. "
                f"굴림 합계가 {PF_AC + 10} 이상이면 대성공, 눈 20은 한 단계 올리고 1은 내립니다.")
        if target == "B":
            what = (f"A가 쓰러져 {PF_FAR}ft 떨어진 B에게 투창을 던집니다(사거리 단위 {PF_JAVELIN_INCREMENT}ft의 "
                    f"두 번째 단위). " + what)
        rule = (("사거리 페널티", "pfs-range") if rng else ("다중 공격 페널티", "pfs-map") if n > 1
                else ("명중 굴림", "pfs-attack"))
        hit = degree in ("success", "critical_success")
        steps.append(Step(f"행동 {n}: {weapon}으로 오크 {target} 타격", rule, what,
                          [(labels[k], odds[k]) for k in pf2e.DEGREES], d20,
                          f"{face} {'+' if total_mod >= 0 else '−'} {abs(total_mod)} = {face + total_mod}, "
                          f"{labels[degree]}입니다."
                          + {20: " 눈 20이라 한 단계 올려 셉니다.", 1: " 눈 1이라 한 단계 내려 셉니다."}.get(face, "")
                          + (" 맞혔습니다." if hit else " 빗나갔습니다.")))
        damage_step = Step(f"행동 {n}의 피해", ("피해와 HP", "pfs-damage"))
        if not hit:
            damage_step.skipped = "빗나가서 피해가 없습니다."
            numbers["damage"].append(None)
        else:
            critical = degree == "critical_success"
            dist = pf2e.hit_damage(sides, 1, PF_STRENGTH, critical)
            faces = dice.roll(dmg, 1, sides)
            dealt = pf2e.damage_of_roll(list(faces), sides, PF_STRENGTH, critical)
            numbers["damage"].append(dealt)
            roll = f"1D{sides} + 근력 {PF_STRENGTH}"
            damage_step.text = ((f"{josa(roll, '을/를')} 굴려 두 배로 합니다(대성공은 피해 두 배, 보충)." if critical
                                 else f"{roll}입니다.")
                                + (" 던지는 무기도 근력을 피해에 더합니다(보충)." if target == "B" else "")
                                + (f" 오크 A의 남은 HP는 {hp}입니다." if target == "A" else ""))
            damage_step.slot = dmg
            if target == "A":
                damage_step.odds = [("A가 쓰러짐", dist.at_least(hp)), ("A가 버팀", 1 - dist.at_least(hp))]
                hp = max(0, hp - dealt)
            damage_step.result = (f"피해 {dealt}"
                                  + (f" = ({faces[0]} + {PF_STRENGTH}) × 2" if critical else f" = {faces[0]} + {PF_STRENGTH}")
                                  + (". A가 쓰러집니다." if target == "A" and hp == 0 else
                                     f". A의 HP는 {hp}입니다." if target == "A" else ". B가 피해를 입습니다."))
        steps.append(damage_step)
    numbers["hp"] = hp
    return Turn(f"패스파인더 2판: {josa('세 행동', '과/와')} 대성공", steps, dice, numbers)


@widget_factory
def pf_turn_widget(uid: str = "pf-worked") -> LiveWidget:
    """The Pathfinder 2e turn, live: type any action's d20 or damage, or roll again."""
    return turn_widget(uid, pf_turn, PF_SLOTS, PF_SPAN, "세 행동 따라가기: 장검 두 번, 투창 한 번", PF_EXAMPLES)


# --- Underface: DEX order, an attack against a parry, a special, armour, the death threshold -----

UF_WEAPON, UF_DB, UF_ARMOR = "브로드 소드", "+1D4", "가죽 갑옷"
UF_BANDIT = dict(name="도적", dex=14, skill=60)
UF_PC = dict(name="가람", dex=12, skill=50, parry="숏소드", hp=3, max_hp=12)
#: The endurance check's target: the source gives none (the book's example value, 가정).
UF_ENDURANCE = 50
#: What the walkthrough covers, in the chapter's own word (the walkthrough covers one Underface round).
UF_SPAN = "라운드"
UF_SLOTS = (Slot("도적의 공격 D100", (8,)), Slot("가람의 막기 D100", (31,)),
            Slot("피해 합계", (12,)), Slot("가람의 인내 판정 D100", (42,)))
UF_EXAMPLES = ("70", "- / 20", "- / - / 9", "- / - / - / 77", "30 / 40")


def uf_turn(dice: Dice) -> Turn:
    """One Underface round between a bandit and the PC 가람: DEX order, the bandit's attack
    against 가람's parry, a special's maximum damage through armour, and 가람's endurance check
    past the death threshold on his own turn.

    >>> t = uf_turn(Dice("", 0, UF_SLOTS))
    >>> t.numbers["order"], t.numbers["outcome"], t.numbers["hp"], t.numbers["endurance"]
    (['도적', '가람'], 'attacker_wins_special', -7, 'success')
    >>> uf_turn(Dice("70", 0, UF_SLOTS)).numbers["hp"]     # the attack fails: 가람 stands
    3
    """
    from .. import underface as uf
    from . import labels
    from .format import josa
    b, pc = UF_BANDIT, UF_PC
    order = [c.name for c in uf.turn_order([uf.Character(pc["name"], pc["dex"], weapon_skill=pc["skill"]),
                                            uf.Character(b["name"], b["dex"], weapon_skill=b["skill"], pc=False)])]
    threshold = uf.death_threshold(pc["max_hp"])
    armour = uf.ARMOR[UF_ARMOR].armor_value
    numbers: dict[str, object] = {"order": order, "outcome": None, "hp": pc["hp"], "endurance": None}
    steps = [Step("라운드의 시작: 턴 순서", ("라운드와 턴 순서", "uf-sec-order"),
                  f"도적(NPC, DEX {b['dex']}, {UF_WEAPON} 기능 {b['skill']}, DB {UF_DB})과 가람(PC, DEX {pc['dex']}, "
                  f"{pc['parry']} 기능 {pc['skill']})이 맞섭니다. DEX가 높은 쪽부터라 순서는 {' → '.join(order)}입니다. "
                  f"가람은 지난 라운드에 다쳐 HP {pc['hp']}/{pc['max_hp']}, 사망 임계 {signed(threshold)}이고 "
                  f"{josa(UF_ARMOR, '을/를')} 입었습니다(방어 점수 {armour}).")]
    odds = uf.opposed_odds(b["skill"], pc["skill"])
    a_roll = dice.roll(0, 1, 100)[0]
    d_roll = dice.roll(1, 1, 100)[0]
    outcome = uf.opposed_result(a_roll, uf.effective_target(b["skill"]), d_roll, uf.effective_target(pc["skill"]))
    numbers["outcome"] = outcome
    steps.append(Step("도적의 턴: 공격과 가람의 막기", ("명중 판정", "uf-sec-hit"),
                      f"도적은 {UF_WEAPON} 기능 {b['skill']}, 가람은 {pc['parry']}로 막기 기능 {pc['skill']}. 둘 다 D100을 굴려 "
                      "목표치 이하면 성공이고, 둘 다 성공하면 성공 폭(목표치 − 굴림)이 큰 쪽이 이깁니다. "
                      "판정의 스페셜·펌블 기준은 이 책의 가정입니다.",
                      [(uf.OUTCOME_LABELS[k], p) for k, p in odds.items()], (0, 1),
                      f"도적 {a_roll}, 가람 {d_roll}: 「{uf.OUTCOME_LABELS[outcome]}」입니다."))
    special_step = Step("스페셜", ("전투에서의 스페셜", "uf-sec-special"))
    damage_step = Step("피해와 방어구", ("피해, 기절, 사망", "uf-sec-damage"))
    if outcome == "attacker_wins_special":
        special_step.text = "도적이 스페셜로 이겼습니다. 무기의 최대 피해에 DB를 굴려 더합니다."
    elif outcome == "defender_wins_special":
        special_step.text = "가람이 스페셜로 막았습니다. 도적의 다음 행동 하나가 어려움 난이도가 됩니다."
    else:
        special_step.skipped = "누구도 스페셜로 이기지 않았습니다."
    hp = pc["hp"]
    if outcome in uf.HIT_OUTCOMES:
        special = outcome == "attacker_wins_special"
        raw = uf.damage_distribution(UF_WEAPON, 0, UF_DB, special=special)
        total = dice.draw(2, raw)
        hp = uf.hp_after_hit(hp, total, UF_ARMOR)
        states = uf.hit_hp_states(UF_WEAPON, pc["hp"], pc["max_hp"], UF_ARMOR, UF_DB, special=special)
        damage_step.text = ((f"{UF_WEAPON}의 최대 피해에 DB {UF_DB[1:]}를 굴려 더하고" if special else
                             f"{UF_WEAPON}의 피해와 DB {UF_DB[1:]}를 굴려 더하고")
                            + f" {UF_ARMOR}의 {josa(f'방어 점수 {armour}', '을/를')} 뺍니다.")
        damage_step.odds = [(labels.HP_STATES[k], p) for k, p in states.items()]
        damage_step.slot = 2
        lost = uf.damage_after_armor(total, UF_ARMOR)
        weapon_max = uf.damage_distribution(UF_WEAPON, special=True).max     # DB 0: the weapon alone
        parts = f"(최대 피해 {weapon_max} + {UF_DB[1:]} 눈 {total - weapon_max})" if special else "(무기 + DB)"
        damage_step.result = (f"피해 합계 {total}{parts} − {armour} = {lost}, 가람의 HP는 {fmt_number(hp)}입니다. "
                              + ("가람은 서 있습니다." if hp > 0 else
                                 "가람은 기절합니다." if hp > threshold else
                                 f"가람은 기절했고 HP가 사망 임계 {signed(threshold)} 이하입니다."))
    else:
        damage_step.skipped = "명중하지 않아 피해가 없습니다."
    numbers["hp"] = hp
    steps += [special_step, damage_step]
    end_step = Step("가람의 턴: 인내 판정", ("피해, 기절, 사망", "uf-sec-damage"))
    if hp > threshold:
        end_step.skipped = ("가람은 서 있으니 자기 턴에 움직입니다(이 예는 여기까지)." if hp > 0 else
                            "가람은 기절했지만 사망 임계보다 위라 인내 판정을 하지 않습니다.")
    else:
        e_odds = uf.check_odds(UF_ENDURANCE)
        roll = dice.roll(3, 1, 100)[0]
        result = uf.check_result(roll, UF_ENDURANCE)
        numbers["endurance"] = result
        alive = result in ("special", "success")
        end_step.text = (f"사망 임계 이하의 PC는 자기 턴마다 인내 판정을 합니다. 목표치는 원문에 없어 이 예는 "
                         f"{josa(UF_ENDURANCE, '으로/로')} 둡니다(가정).")
        end_step.odds = [("살아남음", e_odds["special"] + e_odds["success"]),
                         ("죽음", e_odds["failure"] + e_odds["fumble"])]
        end_step.slot = 3
        end_step.result = (f"D100 {roll}: " + ("성공, 가람은 쓰러진 채 살아 있습니다. 동료의 응급처치가 급합니다."
                                              if alive else "실패, 가람은 죽습니다."))
    steps.append(end_step)
    return Turn("언더페이스의 한 라운드", steps, dice, numbers)


@widget_factory
def uf_turn_widget(uid: str = "uf-worked") -> LiveWidget:
    """The Underface round, live: type any D100 or the damage total, or roll again."""
    return turn_widget(uid, uf_turn, UF_SLOTS, UF_SPAN, f"한 {UF_SPAN} 따라가기: 막기, 스페셜, 사망 임계", UF_EXAMPLES)


# --- Hunter's Moon: recon, the plot, two melee rounds, pursuit -----------------------------------

HM_PC = dict(might=3, brain=2, defence=2, power=3)
HM_BODY = dict(life=12, defence=8, level=2)
HM_THREAT = dict(name="발톱", paragraph=3, defence=9, durability=6, attack_value=8, power=4)
#: The GM's recon target (the source names none; the same as the recon widget's first value) and
#: the PC's plot: made once, in melee round 1 (the source: 행동순서 결정은 난전 라운드 1라운드에만),
#: the token stays there all combat.
HM_RECON_TARGET = 8
HM_PLOT = 2
HM_MELEE_ROUNDS = 2
#: What the walkthrough covers, in the chapter's own word (the walkthrough covers one Hunter's Moon fight: scouting, two melee rounds, the pursuit).
HM_SPAN = "전투"
HM_SLOTS = (Slot("정찰판정", (4, 3)), Slot("정찰 펌블의 반격 데미지", (4,)),
            Slot("1라운드 명중판정", (4, 3)), Slot("1라운드 방어판정", (5, 4)),
            Slot("2라운드 명중판정", (4, 2)), Slot("2라운드 방어판정", (3, 3)),
            Slot("추격판정", (5, 3)), Slot("추격 라운드 명중판정", (5, 5)), Slot("추격 데미지 합계", (8,)))
HM_EXAMPLES = ("1 1", "2 2", "- / - / 6 6", "- / - / - / 1 2", "- / - / - / - / - / - / 1 1")


def hm_turn(dice: Dice) -> Turn:
    """One Hunter's Moon combat: the recon round, two melee rounds (the PC's plot in round 1, kept
    in round 2; the order of the paragraphs; the PC's attack and the threat's), then the pursuit
    check and round. In round 1 the PC tries the claw; a plain hit cannot reach its durability, so
    in round 2 the PC aims at the body.

    >>> t = hm_turn(Dice("", 0, HM_SLOTS))
    >>> t.numbers["scouted"], t.numbers["destroyed"], t.numbers["life"], t.numbers["pursued"], t.numbers["won"]
    (True, False, 0, True, True)
    >>> hm_turn(Dice("- / - / 6 6", 0, HM_SLOTS)).numbers["destroyed"]   # a special destroys the claw
    True
    >>> hm_turn(Dice("1 1", 0, HM_SLOTS)).numbers["scouted"]     # a recon fumble
    False
    """
    from .. import hunters_moon as hm
    from . import labels
    from .format import josa
    pc, body, th = HM_PC, HM_BODY, HM_THREAT
    out = labels.HM_OUTCOMES
    life = body["life"]
    numbers: dict[str, object] = {"scouted": False, "destroyed": False, "life": life,
                                  "pursued": None, "won": False, "hurt": 0}

    # recon round
    r_odds = hm.recon_odds(pc["brain"], HM_RECON_TARGET)
    faces = dice.roll(0, 2)
    recon = hm.check_result(*faces, pc["brain"], HM_RECON_TARGET)
    scouted = recon in ("success", "special")
    numbers["scouted"] = scouted
    steps = [Step("정찰 라운드: 정찰판정", ("정찰 라운드", "hm-sec-recon"),
                  f"괴물 본체(【생명력】 {body['life']}, 【방어치】 {body['defence']}, 레벨 {body['level']})의 패러그래프 "
                  f"{th['paragraph']}에 위협 「{th['name']}」이 숨어 있습니다. PC(【무용】 {pc['might']}, 【두뇌】 {pc['brain']}, 방어판정 능력치 {pc['defence']}, "
                  f"무기 위력 {pc['power']})는 2D6 + 【두뇌】 {pc['brain']}로 GM이 정한 목표치 {HM_RECON_TARGET} 이상을 노립니다.",
                  [(out[k], p) for k, p in r_odds.items()], 0,
                  f"{faces[0]} + {faces[1]} + {pc['brain']} = {sum(faces) + pc['brain']}, {out[recon]}. "
                  + (f"「{th['name']}」 카드가 드러나 앞면으로 놓입니다." if scouted else
                     "카드가 드러나지 않아 이름만 적힌 채 난전에 들어갑니다."))]
    counter = Step("정찰 펌블의 반격", ("정찰 라운드", "hm-sec-recon"))
    if recon == "fumble":
        dist = hm.recon_counterattack(body["level"])
        hurt = dice.draw(1, dist)
        numbers["hurt"] += hurt
        counter.text = f"펌블이라 괴물이 반격합니다: 1D6 + 레벨 {body['level']}의 데미지를 모든 PC가 받습니다."
        counter.slot, counter.result = 1, f"PC는 {josa(f'데미지 {hurt}', '을/를')} 받습니다."
    else:
        counter.skipped = "정찰판정이 펌블이 아니었습니다."
    steps.append(counter)

    destroyed, placed = False, scouted
    plot = HM_PLOT
    plain = hm.pc_damage(pc["power"], plot).min          # a plain hit's damage from this paragraph
    for rnd in range(1, HM_MELEE_ROUNDS + 1):
        hit_slot, guard_slot = 2 * rnd, 2 * rnd + 1
        state = hm.threat_state(plot, th["paragraph"], placed_before=placed)
        pc_first = state != "acted"
        where = (f"PC는 주사위를 가려 {josa(f'플롯치 {plot}', '을/를')} 정하고, 공개한 뒤 말을 {hm.paragraph_label(plot)}에 놓습니다."
                 if rnd == 1 else
                 f"행동순서 결정은 1라운드에만 하므로 PC의 말은 {hm.paragraph_label(plot)}에 그대로 있습니다.")
        steps.append(Step(f"난전 {rnd}라운드: " + ("플롯과 순서" if rnd == 1 else "순서"), ("난전 라운드", "hm-sec-melee"),
                          f"리프레쉬로 모두 미행동이 됩니다. {where} 패러그래프는 1부터 차례로 처리하므로 "
                          + ("PC가 위협보다 먼저 움직입니다." if pc_first else
                             f"패러그래프 {th['paragraph']}의 「{th['name']}」이 먼저 움직입니다.")))
        attack = Step(f"난전 {rnd}라운드: PC의 공격", ("PC의 공격", "hm-sec-attack"))
        guard = Step(f"난전 {rnd}라운드: 위협의 공격", ("방어판정", "hm-sec-defence"))
        on_threat = not destroyed and pc_first and hm.can_target_threat(state) and rnd == 1
        # the PC's attack
        faces = dice.roll(hit_slot, 2)
        aim = th["defence"] if on_threat else body["defence"]
        hit = hm.check_result(*faces, pc["might"], aim)
        achieved = sum(faces) + pc["might"]
        landed = hit in ("success", "special")
        dealt = hm.pc_damage(pc["power"], plot, critical_achievement=achieved if hit == "special" else None).min
        roll_text = f"{faces[0]} + {faces[1]} + {pc['might']} = {achieved}, {out[hit]}."
        if on_threat:
            d = hm.destroy_odds(pc["might"], th["defence"], pc["power"], plot, th["durability"])
            attack.text = (f"「{th['name']}」이 미행동이라 목표로 고릅니다. 2D6 + 【무용】 {pc['might']} ≥ 【방어치】 "
                           f"{th['defence']}. 데미지가 【내구도】 {th['durability']} 이상이면 격파하고, 본체 【생명력】이 "
                           f"{d.body_loss} 줄어듭니다."
                           + (f" 보통 명중의 {josa(f'데미지 {plain}', '은/는')} 그에 못 미쳐, 스페셜로 달성치를 더해야 격파합니다."
                              " 못 미친 데미지는 위협에 남지 않습니다(가정)." if plain < th["durability"] else ""))
            attack.odds = [("명중", d.hit), ("격파", d.destroy)]
            broke = landed and dealt >= th["durability"]
            if broke:
                destroyed, life = True, max(0, life - d.body_loss)
            attack.result = roll_text + (f" {josa(f'데미지 {dealt}', '으로/로')} 격파합니다. 본체 【생명력】 {life}." if broke else
                                         f" {josa(f'데미지 {dealt}', '으로/로')}는 격파하지 못합니다." if landed else "")
        else:
            loss = hm.body_attack_damage(pc["might"], body["defence"], pc["power"], plot)
            why = ("「" + th["name"] + "」은 격파되었으므로" if destroyed else
                   "「" + th["name"] + "」이 미행동이 아니라" if not (pc_first and hm.can_target_threat(state)) else
                   f"보통 명중의 {josa(f'데미지 {plain}', '으로/로')}는 「{th['name']}」의 【내구도】 {th['durability']}에 못 미쳐, 이번에는")
            attack.text = (f"{why} 괴물 본체를 노립니다. 2D6 + 【무용】 {pc['might']} ≥ 【방어치】 {body['defence']}. "
                           f"데미지는 무기 위력 {pc['power']} + 패러그래프 {plot}(스페셜이면 달성치를 더함).")
            attack.odds = [("명중", 1 - loss.probability(0)), ("본체가 쓰러짐", loss.at_least(life))]
            if landed:
                life = max(0, life - dealt)
            attack.result = roll_text + (f" 본체 【생명력】 −{dealt} → {life}." if landed else "")
        attack.slot = hit_slot
        # the threat's attack
        acts = not destroyed and life > 0
        if acts:
            g_odds = hm.defence_odds(pc["defence"], th["attack_value"])
            faces = dice.roll(guard_slot, 2)
            g = hm.check_result(*faces, pc["defence"], th["attack_value"])
            harm = hm.threat_damage(th["power"]).min
            missed = g in ("success", "special")
            numbers["hurt"] += 0 if missed else harm
            guard.text = ((f"카드가 아직 없어 「{th['name']}」을 미행동으로 놓고, " if not placed else "")
                          + f"「{th['name']}」이 공격합니다. PC는 2D6 + 카드가 정한 능력치 {pc['defence']} ≥ 【공격치】 {th['attack_value']}로 "
                            f"막고, 실패하면 {josa(f'데미지 {harm}', '을/를')} 받습니다.")
            guard.odds = [(out[k], p) for k, p in g_odds.items()]
            guard.slot = guard_slot
            guard.result = (f"{faces[0]} + {faces[1]} + {pc['defence']} = {sum(faces) + pc['defence']}, {out[g]}. "
                            + ("막아 냅니다." if missed else f"PC는 {josa(f'데미지 {harm}', '을/를')} 받습니다."))
            placed = True
        else:
            guard.skipped = (f"격파된 「{th['name']}」은 행동하지 못합니다(가정)." if destroyed else
                             "본체가 쓰러져 전투가 끝났습니다.")
        steps += [attack, guard] if pc_first else [guard, attack]
        if life == 0:
            break
    numbers.update(destroyed=destroyed, life=life)

    chase = Step("추격판정", ("추격", "hm-sec-pursuit"))
    hunt = Step("추격 라운드의 공격", ("추격", "hm-sec-pursuit"))
    if not hm.can_pursue(life):
        chase.skipped = hunt.skipped = "본체의 【생명력】이 0이라 전투가 끝났습니다."
    else:
        p = hm.pursuit_odds(pc["brain"], body["defence"])
        faces = dice.roll(6, 2)
        c = hm.check_result(*faces, pc["brain"], body["defence"])
        numbers["pursued"] = c in ("success", "special")
        chase.text = (f"난전 2라운드가 끝나도 본체의 【생명력】이 {life} 남아 도망칩니다. PC는 2D6 + 【두뇌】 {pc['brain']} ≥ "
                      f"본체의 【방어치】 {body['defence']}로 쫓습니다.")
        chase.odds, chase.slot = [("추격 성공", p), ("놓침", 1 - p)], 6
        chase.result = (f"{faces[0]} + {faces[1]} + {pc['brain']} = {sum(faces) + pc['brain']}, {out[c]}. "
                        + ("추격 라운드가 하나 더 열립니다." if numbers["pursued"] else "괴물이 달아납니다."))
        if not numbers["pursued"]:
            hunt.skipped = "추격에 실패했습니다."
        else:
            loss = hm.body_attack_damage(pc["might"], body["defence"], pc["power"], plot, pursuit=True)
            faces = dice.roll(7, 2)
            h = hm.check_result(*faces, pc["might"], body["defence"])
            hunt.text = (f"추격 라운드는 난전 3라운드로 셉니다. PC는 {hm.paragraph_label(plot)}에서 본체를 노리고, "
                         f"이 라운드의 데미지는 모두 +1D6입니다.")
            hunt.odds = [("명중", 1 - loss.probability(0)), ("본체가 쓰러짐", loss.at_least(life))]
            hunt.slot = (7, 8) if h in ("success", "special") else 7
            text = f"{faces[0]} + {faces[1]} + {pc['might']} = {sum(faces) + pc['might']}, {out[h]}."
            if h in ("success", "special"):
                dist = hm.pc_damage(pc["power"], plot, pursuit=True, critical_achievement=(
                    sum(faces) + pc["might"] if h == "special" else None))
                dealt = dice.draw(8, dist)
                fixed = hm.pc_damage(pc["power"], plot, critical_achievement=(
                    sum(faces) + pc["might"] if h == "special" else None)).min   # the same hit without the 1D6
                before, life = life, max(0, life - dealt)
                seat = hm.pc_damage(pc["power"], plot).min - pc["power"]
                extra = fixed - pc["power"] - seat   # the critical hit's achievement value, else 0
                text += (f" 데미지 합계 {dealt} = 무기 위력 {pc['power']} + 자리 번호 {seat}"
                         + (f" + 달성치 {extra}" if h == "special" else "")
                         + f" + 1D6의 눈 {dealt - fixed}. 본체 【생명력】 {before} − {dealt}"
                         + (f" = {life}." if before >= dealt else ", 0 아래로는 내려가지 않아 0."))
            hunt.result = text
    steps += [chase, hunt]
    course = hm.combat_course(False, numbers["life"], bool(numbers["pursued"]), life, body["level"],
                              fell_in_first_round=False)
    numbers.update(life=life, won=course.pcs_win)
    steps.append(Step("전투의 끝", ("전투의 끝", "hm-sec-end"),
                      (f"본체의 【생명력】이 0이 되어 PC가 이깁니다. 전과표를 레벨 수({course.spoils_rolls}번)만큼 씁니다."
                       if course.pcs_win else f"본체는 【생명력】 {life}을 남기고 달아났습니다. 전과표는 쓰지 않습니다.")
                      + f" 이 전투에서 PC가 받은 데미지는 모두 {numbers['hurt']}입니다."))
    return Turn("헌터즈 문의 한 전투", steps, dice, numbers)


@widget_factory
def hm_turn_widget(uid: str = "hm-worked") -> LiveWidget:
    """The Hunter's Moon combat, live: type any check's dice or a damage total, or roll again."""
    return turn_widget(uid, hm_turn, HM_SLOTS, HM_SPAN, f"한 {HM_SPAN} 따라가기: 정찰, 난전 두 라운드, 추격", HM_EXAMPLES)


# --- Basic Fantasy: a round on the floor plan, leaving a melee, a parting shot -------------------

BF_SIZE = 8
BF_START, BF_GOBLIN_A, BF_GOBLIN_B, BF_DEST = (2, 2), (3, 2), (2, 7), (2, 6)
BF_RATE, BF_BONUS, BF_AC, BF_HP, BF_SWORD = 30, 1, 15, 3, 8
BF_GOBLIN = dict(bonus=1, ac=14, hp=4, damage=6)
#: What the walkthrough covers, in the chapter's own word (the walkthrough covers one Basic Fantasy round).
BF_SPAN = "라운드"
BF_SLOTS = (Slot("고블린 A의 분리 사격 d20", (14,)), Slot("분리 사격 피해 d6", (2,)),
            Slot("도우버트의 공격 d20", (13,)), Slot("도우버트의 피해 d8", (3,)),
            Slot("고블린 B의 공격 d20", (9,)), Slot("고블린 B의 피해 d6", (4,)))
BF_EXAMPLES = ("2", "14 / 3", "- / - / 4", "- / - / - / 6", "- / - / - / - / 20 / 6")


def bf_turn(dice: Dice) -> Turn:
    """One Basic Fantasy round on the floor plan: Doughbert, engaged with goblin A, walks past
    it to goblin B (a flight: A takes its parting shot at +2), attacks B, and B strikes back.

    >>> t = bf_turn(Dice("", 0, BF_SLOTS))
    >>> t.numbers["option"], t.numbers["feet"], t.numbers["parting"], t.numbers["hp"], t.numbers["goblin_hp"]
    ('flee_walk', 20, ((3, 2),), 1, 1)
    >>> bf_turn(Dice("14 / 3", 0, BF_SLOTS)).numbers["attacked"]    # Doughbert falls on the way
    False
    """
    from .. import bfrpg as bf
    from ..dice import die
    from ..grid import Terrain
    from . import labels
    from .format import josa
    terrain = Terrain(BF_SIZE, BF_SIZE, enemies={BF_GOBLIN_A, BF_GOBLIN_B})
    options = bf.move_options(terrain, BF_START, BF_RATE)
    option, feet = options.option(BF_DEST), options.feet(BF_DEST)
    parting = options.parting_shots(BF_DEST)
    hp, goblin_hp = BF_HP, BF_GOBLIN["hp"]
    numbers: dict[str, object] = {"option": option, "feet": feet, "parting": parting, "attacked": False}
    steps = [Step("이동: 근접전을 떠나기", ("이동", "bf-sec-move"),
                  f"도우버트(이동 속도 {BF_RATE}피트, HP {BF_HP}, AC {BF_AC})는 칸 {BF_START}에서 고블린 A와 맞붙어 "
                  f"있습니다. 마법사를 노리는 고블린 B(칸 {BF_GOBLIN_B})를 막으려고 칸 {BF_DEST}까지 갑니다.",
                  result=f"{feet}피트: {labels.BF_MOVE_OPTIONS[option]}. "
                         + (f"근접전에서 떠나는 상대 {len(parting)}명이 분리 사격을 합니다." if parting else
                            "떠나는 상대가 없어 분리 사격이 없습니다."))]
    for foe in parting:
        bonus = BF_GOBLIN["bonus"] + bf.PARTING_SHOT_BONUS
        odds = bf.attack_roll_odds(bonus, BF_AC)
        face = dice.roll(0, 1, bf.ATTACK_DIE)[0]
        hit = bf.attack_roll_hits(face, bonus, BF_AC)
        shot = Step("고블린 A의 분리 사격", ("근접전과 분리 사격", "bf-sec-melee"),
                    f"떠나는 도우버트의 등 뒤로 고블린 A가 +{bf.PARTING_SHOT_BONUS}를 받아 한 번 칩니다: "
                    f"d20 {signed(bonus)}(공격 보너스 {signed(BF_GOBLIN['bonus'])}, 분리 사격 {signed(bf.PARTING_SHOT_BONUS)}) "
                    f"대 AC {BF_AC}(1은 늘 빗나가고 20은 늘 맞음).",
                    [("명중", odds["hit"]), ("빗나감", odds["miss"])], 0,
                    f"{_plus(face, bonus)}, " + ("맞았습니다." if hit else "빗나갔습니다."))
        steps.append(shot)
        harm = Step("분리 사격의 피해", ("근접전과 분리 사격", "bf-sec-melee"))
        if hit:
            dist = die(BF_GOBLIN["damage"])
            dealt = dice.draw(1, dist)
            hp -= dealt
            harm.text = f"고블린의 피해는 1d{BF_GOBLIN['damage']}, 도우버트의 HP는 {BF_HP}입니다."
            harm.odds = [("도우버트가 쓰러짐", dist.at_least(BF_HP))]
            harm.slot = 1
            harm.result = f"피해 {dealt}, 도우버트의 HP {fmt_number(hp)}" + (": 쓰러집니다." if hp <= 0 else ".")
        else:
            harm.skipped = "분리 사격이 빗나갔습니다."
        steps.append(harm)
    attack = Step("도우버트의 공격", ("명중 굴림", "bf-sec-melee"))
    wound = Step("도우버트의 피해", ("명중 굴림", "bf-sec-melee"))
    if hp <= 0:
        attack.skipped = wound.skipped = "도우버트가 분리 사격에 쓰러졌습니다."
    elif not bf.can_attack_after(option):
        attack.skipped = wound.skipped = "이 이동 뒤에는 공격할 수 없습니다."
    else:
        numbers["attacked"] = True
        odds = bf.attack_roll_odds(BF_BONUS, BF_GOBLIN["ac"])
        face = dice.roll(2, 1, bf.ATTACK_DIE)[0]
        hit = bf.attack_roll_hits(face, BF_BONUS, BF_GOBLIN["ac"])
        attack.text = (f"걸어서 떠났으므로 공격할 수 있습니다. 장검으로 고블린 B를 칩니다: d20 {signed(BF_BONUS)} "
                       f"대 AC {BF_GOBLIN['ac']}.")
        attack.odds, attack.slot = [("명중", odds["hit"]), ("빗나감", odds["miss"])], 2
        attack.result = f"{_plus(face, BF_BONUS)}, " + ("맞았습니다." if hit else "빗나갔습니다.")
        if hit:
            dist = die(BF_SWORD)
            dealt = dice.draw(3, dist)
            goblin_hp -= dealt
            wound.text = f"장검의 피해는 1d{BF_SWORD}, 고블린 B의 HP는 {BF_GOBLIN['hp']}입니다."
            wound.odds, wound.slot = [("고블린 B가 쓰러짐", dist.at_least(BF_GOBLIN["hp"]))], 3
            wound.result = f"피해 {dealt}, 고블린 B의 HP {fmt_number(goblin_hp)}" + (": 쓰러집니다." if goblin_hp <= 0 else ".")
        else:
            wound.skipped = "도우버트의 공격이 빗나갔습니다."
    steps += [attack, wound]
    back = Step("고블린 B의 공격", ("명중 굴림", "bf-sec-melee"))
    back_harm = Step("고블린 B의 피해", ("명중 굴림", "bf-sec-melee"))
    if hp <= 0:
        back.skipped = back_harm.skipped = "도우버트가 이미 쓰러졌습니다."
    elif goblin_hp <= 0:
        back.skipped = back_harm.skipped = "고블린 B가 쓰러졌습니다."
    else:
        odds = bf.attack_roll_odds(BF_GOBLIN["bonus"], BF_AC)
        face = dice.roll(4, 1, bf.ATTACK_DIE)[0]
        hit = bf.attack_roll_hits(face, BF_GOBLIN["bonus"], BF_AC)
        back.text = f"고블린 B가 도우버트를 칩니다: d20 {signed(BF_GOBLIN['bonus'])} 대 AC {BF_AC}."
        back.odds, back.slot = [("명중", odds["hit"]), ("빗나감", odds["miss"])], 4
        back.result = f"{_plus(face, BF_GOBLIN['bonus'])}, " + (
            "맞았습니다." if hit else "빗나갔습니다.")
        if hit:
            dist = die(BF_GOBLIN["damage"])
            dealt = dice.draw(5, dist)
            before = hp
            hp -= dealt
            back_harm.text = f"고블린의 피해는 1d{BF_GOBLIN['damage']}, 도우버트의 HP는 {fmt_number(before)}입니다."
            back_harm.odds, back_harm.slot = [("도우버트가 쓰러짐", dist.at_least(before))], 5
            back_harm.result = f"피해 {dealt}, 도우버트의 HP {fmt_number(hp)}" + (": 쓰러집니다." if hp <= 0 else ".")
        else:
            back_harm.skipped = "고블린 B의 공격이 빗나갔습니다."
    steps += [back, back_harm]
    numbers.update(hp=hp, goblin_hp=goblin_hp)
    return Turn("베이식 판타지의 한 라운드", steps, dice, numbers)


@widget_factory
def bf_turn_widget(uid: str = "bf-worked") -> LiveWidget:
    """The Basic Fantasy round, live: type any d20 or damage die, or roll again."""
    return turn_widget(uid, bf_turn, BF_SLOTS, BF_SPAN, f"한 {BF_SPAN} 따라가기: 이동, 분리 사격, 공격", BF_EXAMPLES)
