"""The appendix "확률은 어떻게 계산하나": one generating function per game, expanded with sympy.

Display only. Each widget writes one roll of a chapter as a generating function (the coefficient
of x^k is the chance of total k), expands it with sympy, reads the chapter's outcomes off the
coefficients and puts them beside what the library computes, so the reader sees the two agree.
Formulas are shown as MathML, which the browser draws itself (no math script, no network).
Every control is a menu with few choices, so the page ships every answer (sympy does not run
in the reader's browser).
"""
from __future__ import annotations

import html
from fractions import Fraction

from .. import dice, hunters_moon as hm, pf2e, trench_crusade as tc, underface as uf
from . import format as fmt
from . import labels
from .live import Bars, LiveWidget, Shown, select, toggle, widget_factory
from .table import Table


def _sympy():
    import sympy
    return sympy


def _x():
    return _sympy().Symbol("x")


def die_gf(sides: int, low: int = 1):
    """(x^low + … + x^sides) / (sides − low + 1): one fair die as a generating function."""
    sp, x = _sympy(), _x()
    return sp.Mul(sp.Rational(1, sides - low + 1), sp.Add(*(x**k for k in range(low, sides + 1))),
                  evaluate=False)


def coefficients(expr) -> dict[int, Fraction]:
    """Exponent → exact coefficient of an expanded Laurent polynomial in x."""
    sp, x = _sympy(), _x()
    out: dict[int, Fraction] = {}
    for term in sp.Add.make_args(sp.expand(expr)):
        coeff, power = term.as_coeff_exponent(x)
        out[int(power)] = out.get(int(power), Fraction(0)) + Fraction(int(coeff.p), int(coeff.q))
    return dict(sorted(out.items()))


def mathml(expr, lhs: str = "G(x)") -> str:
    """A block MathML formula ``lhs = expr`` (terms from the lowest power up)."""
    from sympy.printing.mathml import mathml as to_mathml
    body = to_mathml(expr, printer="presentation", order="rev-lex").replace(
        "&InvisibleTimes;", "\u2062")  # the character itself: no entity name in the page
    return (f'<math display="block"><mrow><mi>{html.escape(lhs)}</mi><mo>=</mo>{body}</mrow>'
            "</math>")


def _compare(rows: list[tuple[str, Fraction, Fraction]]) -> str:
    """(outcome, from the generating function, from the library) as a table with a check mark."""
    return Table(["결과", "생성함수에서", "책의 계산", ""],
                 [[label, a, b, "✓ 같음" if a == b else "✗ 다름"] for label, a, b in rows]).html()


def _particle(word: object, pair: str) -> str:
    """Only the particle that fits after ``word`` (for words wrapped in markup)."""
    return fmt.josa(word, pair)[len(str(word)):]


def _band(coeffs: dict[int, Fraction], low: int | None, high: int | None) -> Fraction:
    return sum((p for k, p in coeffs.items()
                if (low is None or k >= low) and (high is None or k <= high)), Fraction(0))


def _bars(coeffs: dict[int, Fraction], band_of) -> Bars:
    return Bars(tuple(coeffs), tuple(coeffs.values()), tuple(band_of(k) for k in coeffs))


# --- Trench Crusade: the success roll ---------------------------------------------------------
@widget_factory
def trench_crusade_widget(uid: str = "om-tc") -> LiveWidget:
    """2D6 + modifier: G(x) = x^m · ((x + … + x⁶)/6)²."""
    def compute(modifier):
        x = _x()
        gf = x**modifier * die_gf(6) ** 2
        coeffs = coefficients(gf)
        odds = tc.success_odds(0, modifier)
        rows = [(label, _band(coeffs, lo, hi), odds[key]) for key, label, lo, hi in tc.SUCCESS_CHART]
        shift = ("보정치가 없으면 그대로 둡니다" if modifier == 0 else
                 f"{fmt.josa(f'보정치 {fmt.signed(modifier)}', '은/는')} x<sup>{modifier}</sup>"
                 f"{_particle(modifier, '을/를')} 곱해 모든 지수를 "
                 f"{abs(modifier)}만큼 {'올립니다' if modifier > 0 else '내립니다'}")
        text = (f"<p>주사위 하나는 (x + x² + … + x⁶)/6이고, 두 개를 더한 합은 그 제곱입니다. {shift}.</p>"
                + mathml(gf) + mathml(_sympy().expand(gf), "G(x)") +
                "<p>전개한 식에서 x⁷~x¹¹의 계수를 더하면 성공, x¹² 이상은 대성공입니다.</p>"
                + _compare(rows))
        return Shown(text, _bars(coeffs, lambda k: "failure" if k <= 6 else
                                 ("success" if k <= 11 else "critical")))
    return LiveWidget(uid, [select("modifier", "보정치", _signed_choices(range(-2, 3)), 0)], compute,
                      title="트렌치 크루세이드: 성공 굴림의 생성함수", x_label="x의 지수 (굴림값)")


# --- Basic Fantasy: the d20 attack roll --------------------------------------------------------
def _signed_choices(values) -> dict[int, str]:
    return {v: fmt.signed(v) for v in values}


@widget_factory
def bfrpg_widget(uid: str = "om-bf") -> LiveWidget:
    """d20 + bonuses against the number needed: G(x) = x^b · (x + … + x²⁰)/20."""
    def compute(rear, needed):
        bonus = 2 if rear else 0
        x = _x()
        gf = x**bonus * die_gf(20)
        coeffs = coefficients(gf)
        library = (dice.die(20) + bonus).at_least(needed)
        text = (f"<p>d20은 (x + x² + … + x²⁰)/20이고, {fmt.josa(f'보너스 {fmt.signed(bonus)}', '은/는')} "
                f"x<sup>{bonus}</sup>{_particle(bonus, '을/를')} 곱하는 것입니다. 필요한 값 {needed} 이상인 항의 계수를 더하면 명중 확률입니다.</p>"
                + mathml(gf) + _compare([(f"{needed} 이상 (명중)", _band(coeffs, needed, None), library)]))
        return Shown(text, _bars(coeffs, lambda k: "success" if k >= needed else "failure"))
    return LiveWidget(uid, [toggle("rear", "뒤에서 공격 (+2)"),
                            select("needed", "명중에 필요한 값", {n: str(n) for n in (11, 13, 15)}, 13)],
                      compute, title="베이식 판타지: 명중 굴림의 생성함수", x_label="x의 지수 (d20 + 보너스)")


# --- Pathfinder: degrees of success ------------------------------------------------------------
@widget_factory
def pf2e_widget(uid: str = "om-pf") -> LiveWidget:
    """d20 + bonus; the die's own 20 and 1 shift a degree, so each face is kept apart."""
    def compute(bonus, ac):
        x = _x()
        gf = x**bonus * die_gf(20)
        coeffs = coefficients(gf)
        steps = ["critical_failure", "failure", "success", "critical_success"]
        got = dict.fromkeys(steps, Fraction(0))
        for total, p in coeffs.items():
            face = total - bonus
            degree = (3 if total >= ac + 10 else 2 if total >= ac else 1 if total > ac - 10 else 0)
            degree += 1 if face == 20 else -1 if face == 1 else 0
            got[steps[max(0, min(3, degree))]] += p
        library = pf2e.degree_odds(bonus, ac)
        labels = {"critical_success": "대성공", "success": "성공", "failure": "실패",
                  "critical_failure": "대실패"}
        rows = [(labels[k], got[k], library[k]) for k in reversed(steps)]
        text = (f"<p>d20 + {bonus}의 생성함수에서 x<sup>k</sup>의 계수는 합계가 k일 확률입니다. "
                f"AC {ac} 기준으로 항마다 성공 단계를 정하고, 주사위 눈 20(x<sup>{20 + bonus}</sup>)과 "
                f"1(x<sup>{1 + bonus}</sup>)의 항은 한 단계 올리고 내립니다(보충 규칙).</p>"
                + mathml(gf) + _compare(rows))
        return Shown(text, _bars(coeffs, lambda k: "success" if k >= ac else "failure"))
    return LiveWidget(uid, [select("bonus", "명중 보너스", _signed_choices((6, 10)), 10),
                            select("ac", "대상 AC", {18: "18", 22: "22"}, 18)],
                      compute, title="패스파인더 2판: 명중 굴림의 생성함수", x_label="x의 지수 (d20 + 보너스)")


# --- Underface: damage through armour ----------------------------------------------------------
_UF_WEAPONS = ("숏소드", "배틀 액스", "단검")
_UF_ARMOR = ("평상복", "가죽 갑옷", "방탄조끼")


@widget_factory
def underface_widget(uid: str = "om-uf") -> LiveWidget:
    """Weapon dice + DB die − armour, floored at 0: expand, then fold the negative powers into x⁰."""
    def compute(weapon, armor):
        w = uf.WEAPONS[weapon]
        points = uf.ARMOR[armor].armor_value
        x = _x()
        flat, gf = -points, die_gf(4)  # DB +1D4
        for term in w.expr.terms:
            if term.kind == "const":
                flat += term.sign * term.value
            elif term.kind == "dice":
                gf *= die_gf(term.sides) ** term.count
        gf *= x**flat
        raw = coefficients(gf)
        folded: dict[int, Fraction] = {}
        for k, p in raw.items():
            folded[max(0, k)] = folded.get(max(0, k), Fraction(0)) + p
        library = uf.damage_distribution(weapon, armor=armor, db="+1D4").probabilities()
        rows = [(f"피해 {k}", p, library.get(k, Fraction(0))) for k, p in folded.items()]
        text = (f"<p>{html.escape(weapon)} {html.escape(w.damage)}, DB +1D4, {html.escape(armor)}(방어 점수 "
                f"{points}): 피해 주사위마다 생성함수를 곱하고 x<sup>{flat}</sup>{_particle(flat, '으로/로')} 고정값과 방어 점수를 "
                "반영합니다. 전개한 뒤 지수가 0보다 작은 항은 피해 0에 모읍니다(피해는 0에서 멈춤).</p>"
                + mathml(gf) + _compare(rows))
        return Shown(text, _bars(folded, lambda k: "muted" if k == 0 else "neutral"))
    return LiveWidget(uid, [select("weapon", "무기", {n: n for n in _UF_WEAPONS}, "숏소드"),
                            select("armor", "방어구", {n: n for n in _UF_ARMOR}, "가죽 갑옷")],
                      compute, title="언더페이스: 방어구를 뚫은 피해의 생성함수", x_label="피해")


# --- Hunter's Moon: the 2D6 check --------------------------------------------------------------
@widget_factory
def hunters_moon_widget(uid: str = "om-hm") -> LiveWidget:
    """Raw 2D6 first (x² is the fumble, x¹² the special), then the modifier against the target."""
    def compute(modifier, target):
        gf = die_gf(6) ** 2
        coeffs = coefficients(gf)
        got = dict.fromkeys(hm.OUTCOMES, Fraction(0))
        for raw, p in coeffs.items():
            got[hm.check_outcome(raw, modifier, target)] += p
        library = hm.check_odds(modifier, target)
        rows = [(labels.HM_OUTCOMES[k], got[k], library[k]) for k in hm.OUTCOMES]
        text = ("<p>수정을 더하기 전의 눈 합이 펌블과 스페셜을 정하므로 수정을 더하기 전 2D6의 생성함수를 씁니다. "
                f"x²의 계수가 펌블, x¹²의 계수가 스페셜이고, 나머지 항은 지수 + {modifier} ≥ {target}이면 "
                "성공입니다(가정).</p>" + mathml(_sympy().expand(gf)) + _compare(rows))
        band = {"fumble": "down", "failure": "failure", "success": "success", "special": "critical"}
        return Shown(text, _bars(coeffs, lambda k: band[hm.check_outcome(k, modifier, target)]))
    return LiveWidget(uid, [select("modifier", "더하는 값", _signed_choices((0, 2, 4)), 2),
                            select("target", "목표치", {8: "8", 10: "10"}, 10)],
                      compute, title="헌터즈 문: 판정의 생성함수", x_label="x의 지수 (눈 합)")


ALL_WIDGETS = [trench_crusade_widget, bfrpg_widget, pf2e_widget, underface_widget,
               hunters_moon_widget]
