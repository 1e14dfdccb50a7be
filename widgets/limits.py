"""The library's size limits, in one place: every module checks its inputs against these.

Limits come from cost, not from any rule: each one keeps the worst accepted call of its kind
to well under a second on an ordinary machine (pure Python, no numpy), and bigger inputs are
refused at once with a :class:`~widgets.errors.RuleInputError` that names the limit and says
why. They are the same in every chapter (a ±DICE pool, a damage expression and a plain dice
sum obey the same numbers); :func:`limits_table` lists them for the API appendix.

>>> check_sum(200, 100)      # 200D100: 200 dice, 20,000 dice × sides: the most a sum may have
>>> check_sum(101, 200)
Traceback (most recent call last):
...
widgets.errors.RuleInputError: 101D200 is too big: dice × sides may be at most 20000 (got 20200), so that every answer comes within a second
"""
from __future__ import annotations

from fractions import Fraction

from .errors import MAX_NAME_TEXT, RuleInputError, particle, require_int, require_items

#: Most faces one die may have.
MAX_SIDES = 1000
#: Most dice one roll may hold when some of them are kept (a ±DICE pool).
MAX_POOL = 1000
#: Most dice added up in one sum (each die widens every exact weight, which is what reading
#: 20,000 exact probabilities costs).
MAX_SUM_DICE = 200
#: Most dice × sides in one sum (about the number of totals it can show): 200D100 or 20D1000.
MAX_SUM_SIZE = 20_000
#: Most kept² × sides² × dice × bits(sides) for keeping the highest or lowest dice of a pool: the
#: measured work of the order-statistics sum (40 of 150D8, 100 of 200D6, 2 of 1000D100 fit).
MAX_KEEP_WORK = 750_000_000
#: Most outcome pairs when two irregular distributions are added pairwise.
MAX_PAIRS = 4_000_000
#: Most bits of one packed product when two big irregular distributions are added (totals ×
#: bits of the largest weight): about 0.3 s of exact multiplication.
MAX_PRODUCT_BITS = 8_000_000
#: Net ±DICE (Trench Crusade): one more die per DICE on a roll that keeps 2 or 3, so the pool
#: (kept + |DICE|) stays within MAX_POOL.
MAX_NET_DICE = 500
#: Characters in one dice or damage expression (:mod:`widgets.notation`, :mod:`widgets.damage`),
#: terms in it (dice, numbers, DB), and brackets inside brackets.
MAX_EXPRESSION_TEXT = 80
MAX_EXPRESSION_TERMS = 12
MAX_EXPRESSION_DEPTH = 3
#: Largest whole number written in an expression, largest divisor of a divided term (``1D6÷2``),
#: and largest number a comparison names (``1D100<=45``).
MAX_CONSTANT = 1000
MAX_DIVISOR = 100
MAX_TARGET = 100_000
#: Most work of one search for fleeing moves (``widgets.grid.flight_map``): partial moves
#: (square, feet, opponents left so far) made plus comparisons between them. Many opponents
#: and a long move make many different sets of parting shots; this keeps the search to about
#: a second in pure Python (the book's rates, up to 40 ft, need a few thousand).
MAX_FLIGHT_WORK = 10_000_000
#: Squares in one path the grid helpers read square by square (about 0.1 s at the limit), and
#: steps in one count of steps (a diagonal count): a count is answered at once, but it is held to
#: the same number so a path and its count are refused alike. 10,000 squares are 50,000 ft.
MAX_STEPS = 10_000
#: Bands of one range table, and of one chart an outcome is read against (bands × outcomes is
#: the work of reading a chart).
MAX_BANDS = 100
#: Characters of one number typed into a widget's box: longer text is refused before it is read
#: as a number (Python reads at most 4,300 digits, and every limit here is far smaller).
MAX_NUMBER_TEXT = 1000
#: Characters of one name the library looks up (a rank, an armour, a weapon, a load, a bonus type,
#: a choice): longer text is refused unread, before it is normalised (stripped, lower-cased, spaces
#: removed) for the lookup, so a refusal never copies the text it refuses. (Defined with the
#: validators in :mod:`widgets.errors`, which read it; imported above.)
#: Dice in one term of a dice expression (``200D6``, ``200B6``): BCDice rolls at most 200 at once
#: (more count as no dice at all there), so the calculator reads at most 200 too.
MAX_TERM_DICE = 200
#: Dice one roll may roll in all, extra rolls of exploding or rerolled dice included: BCDice stops
#: a command that rolls more than 10,000 (``UPPER_LIMIT_RANDS``). A roll that could pass this
#: with a chance above :data:`OPEN_REST` is refused.
MAX_ROLLED_DICE = 10_000
#: A roll that can go on without end (exploding dice, rerolls that add dice) is shown outcome by
#: outcome until what is left is at most this, and that rest is given as one exact number.
OPEN_REST_DENOMINATOR = 1_000_000
OPEN_REST = Fraction(1, OPEN_REST_DENOMINATOR)
#: Most outcomes computed for such a roll (the same as the totals of the biggest sum).
MAX_OPEN_REACH = 20_000
#: Most work of computing and reading such a roll (outcomes × faces that roll again × the bits of
#: their weights, which grow with every roll again), and most bits of the one packed product that
#: joins its parts: smaller than :data:`MAX_PRODUCT_BITS`, so that the in-page engine answers
#: the heaviest within half a second.
MAX_SERIES_STEPS = 6_000_000
MAX_SERIES_PRODUCT_BITS = 1_000_000
#: A whole fight (:mod:`widgets.fight`) is listed step by step until what is left is at most
#: :data:`OPEN_REST`; a fight that may need more steps than this (by the bound of
#: ``widgets.fight.length``, which steps the fight in floats first) is refused before it starts.
MAX_FIGHT_STEPS = 2_000
#: Most moves (states × outcomes, step after step) of that float plan: about 20 ms, so that a
#: fight too long to list is refused at once (one that can never end is refused before it).
MAX_FIGHT_PLAN = 500_000
#: Most work of one whole fight: steps × the bits its weights grow to (steps × bits of one
#: step's denominator, at least 64) × (the chain's moves, states × outcomes, + 128 per result
#: read back as exact fractions), over 64. The heaviest accepted fight answers, and is read in
#: full, within about 0.15 s natively.
MAX_FIGHT_WORK = 30_000_000
#: Most D66 rolls added up in one term (``50D66``): each is two dice read as tens and units.
MAX_D66_DICE = 50
#: Most repetitions of one command (``x5 2D6``) and items of one choice (``choice[A,B,C]``): BCDice's
#: own limits (``REPEAT_LIMIT``, 100 items).
MAX_REPEAT = 100
MAX_CHOICE_ITEMS = 100
#: Characters of one choice command (its items are words; reading them costs nothing like an
#: expression's terms, so it may be longer than :data:`MAX_EXPRESSION_TEXT`).
MAX_CHOICE_TEXT = 200
#: Most bonus or penalty dice of one Call of Cthulhu roll (``CC(2)``): BCDice's own limit.
MAX_BONUS_DICE = 100
#: Most sides of a die whose faces are counted one by one (``8TY6``): BCDice's own limit.
MAX_TALLY_SIDES = 20


def _why() -> str:
    return "so that every answer comes within a second"


def check_sum(count: int, sides: int) -> None:
    """Refuse a sum of ``count`` dice with ``sides`` faces past :data:`MAX_SUM_DICE` or
    :data:`MAX_SUM_SIZE` (``count`` and ``sides`` are already whole numbers).

    >>> check_sum(20, 1000)
    """
    if count > MAX_SUM_DICE:
        raise RuleInputError(
            f"{count}D{sides} is too big: one sum may add at most {MAX_SUM_DICE} dice, {_why()}",
            f"{particle(f'{count}D{sides}', '은/는')} 너무 큽니다: 한 번에 더하는 주사위는 "
            f"{MAX_SUM_DICE}개까지입니다. 모든 답이 1초 안에 나오도록 정한 한도입니다.")
    if count * sides > MAX_SUM_SIZE:
        raise RuleInputError(
            f"{count}D{sides} is too big: dice × sides may be at most {MAX_SUM_SIZE} "
            f"(got {count * sides}), {_why()}",
            f"{particle(f'{count}D{sides}', '은/는')} 너무 큽니다: 주사위 개수 × 면 수는 {MAX_SUM_SIZE}까지입니다 "
            f"(입력: {count * sides}). 모든 답이 1초 안에 나오도록 정한 한도입니다.")


def check_sum_groups(groups) -> None:
    """Refuse a sum of groups ``(sides, count)`` of dice past :data:`MAX_SUM_DICE` or
    :data:`MAX_SUM_SIZE` in total.

    >>> check_sum_groups([(100, 100), (99, 99)])
    """
    groups = require_items(groups, "groups", "주사위 묶음", MAX_SIDES)   # one group per die size
    dice = sum(n for _, n in groups)
    size = sum(s * n for s, n in groups)
    if dice > MAX_SUM_DICE or size > MAX_SUM_SIZE:
        raise RuleInputError(
            f"the sum is too big: {dice} dice with dice × sides {size}; at most {MAX_SUM_DICE} dice "
            f"and {MAX_SUM_SIZE}, {_why()}",
            f"합이 너무 큽니다: 주사위 {dice}개, 주사위 개수 × 면 수 {size}. 주사위는 "
            f"{MAX_SUM_DICE}개, 개수 × 면 수는 {MAX_SUM_SIZE}까지입니다 (모든 답이 1초 안에 나오도록 정한 한도).")


def check_sum_size(size: int, name: str = "outcomes", name_ko: str = "결과 수") -> None:
    """Refuse a sum of irregular distributions with more than :data:`MAX_SUM_SIZE` totals.

    >>> check_sum_size(19_801)
    """
    if size > MAX_SUM_SIZE:
        raise RuleInputError(
            f"the sum is too big: {name} would give {size} totals, at most {MAX_SUM_SIZE}, {_why()}",
            f"합이 너무 큽니다: 가능한 총합이 {size}가지로, {MAX_SUM_SIZE}가지까지만 계산합니다 "
            "(모든 답이 1초 안에 나오도록 정한 한도).")


def keep_work(count: int, keep: int, sides: int) -> int:
    """The cost measure of keeping ``keep`` of ``count`` dice (see :data:`MAX_KEEP_WORK`).

    >>> keep_work(150, 40, 8), keep_work(202, 2, 6)
    (61440000, 87264)
    """
    return keep ** 2 * sides ** 2 * count * sides.bit_length()


def check_keep(count: int, keep: int, sides: int) -> None:
    """Refuse keeping ``keep`` of ``count`` dice with ``sides`` faces when the sum of the kept
    dice would pass :data:`MAX_SUM_SIZE` or the work would pass :data:`MAX_KEEP_WORK`.

    >>> check_keep(200, 10, 6)
    >>> check_keep(200, 100, 1000)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: keeping 100 of 200D1000 is too big: kept × sides may be at most 20000 (got 100000), so that every answer comes within a second
    """
    if keep * sides > MAX_SUM_SIZE:
        raise RuleInputError(
            f"keeping {keep} of {count}D{sides} is too big: kept × sides may be at most "
            f"{MAX_SUM_SIZE} (got {keep * sides}), {_why()}",
            f"{count}D{sides}에서 {keep}개를 남기는 계산은 너무 큽니다: 남길 개수 × 면 수는 "
            f"{MAX_SUM_SIZE}까지입니다 (입력: {keep * sides}). 모든 답이 1초 안에 나오도록 정한 한도입니다.")
    check_sum(keep, sides)
    if count != keep and keep_work(count, keep, sides) > MAX_KEEP_WORK:
        raise RuleInputError(
            f"keeping {keep} of {count}D{sides} is too much work: kept² × sides² × dice × bits(sides) may be "
            f"at most {MAX_KEEP_WORK} (got {keep_work(count, keep, sides)}), {_why()}",
            f"{count}D{sides}에서 {keep}개를 남기는 계산은 너무 큽니다: (남길 개수)² × (면 수)² × "
            f"주사위 개수 × (면 수의 비트 수)는 {MAX_KEEP_WORK}까지입니다. 모든 답이 1초 안에 나오도록 정한 한도입니다.")


def check_expression_work(keep_work_total: int, product_bits_total: int) -> None:
    """Refuse one expression whose kept dice together pass :data:`MAX_KEEP_WORK`, or whose
    additions of distributions together pass :data:`MAX_PRODUCT_BITS` (each term alone may fit,
    but twelve such terms would not answer within a second).

    >>> check_expression_work(2 * 300_000_000, 3_000_000)
    >>> check_expression_work(3 * 300_000_000, 0)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: the expression keeps too many dice: its kept dice together take 900000000 of kept² × sides² × dice × bits(sides), at most 750000000, so that every answer comes within a second
    """
    if keep_work_total > MAX_KEEP_WORK:
        raise RuleInputError(
            f"the expression keeps too many dice: its kept dice together take {keep_work_total} of "
            f"kept² × sides² × dice × bits(sides), at most {MAX_KEEP_WORK}, {_why()}",
            f"식이 너무 큽니다: 높은/낮은 주사위를 남기는 항들의 계산량을 합하면 {keep_work_total}로, "
            f"{MAX_KEEP_WORK}까지만 계산합니다 (모든 답이 1초 안에 나오도록 정한 한도).")
    if product_bits_total > MAX_PRODUCT_BITS:
        raise RuleInputError(
            f"the expression is too big: adding its terms takes {product_bits_total} bits of "
            f"products, at most {MAX_PRODUCT_BITS}, {_why()}",
            f"식이 너무 큽니다: 항들을 더하는 곱을 합하면 {product_bits_total}비트로, "
            f"{MAX_PRODUCT_BITS}비트까지만 계산합니다 (모든 답이 1초 안에 나오도록 정한 한도).")


def check_pairs(pairs: int) -> None:
    """Refuse adding two irregular distributions with more than :data:`MAX_PAIRS` outcome pairs.

    >>> check_pairs(100)
    """
    if pairs > MAX_PAIRS:
        raise RuleInputError(
            f"the sum is too big: {pairs} outcome pairs, at most {MAX_PAIRS}, {_why()}",
            f"합이 너무 큽니다: 결과 쌍이 {pairs}개로, {MAX_PAIRS}개까지만 계산합니다 "
            "(모든 답이 1초 안에 나오도록 정한 한도).")


def check_product(bits: int) -> None:
    """Refuse adding two big irregular distributions whose packed product passes
    :data:`MAX_PRODUCT_BITS` (sums of dice never get here: they have their own recurrence).

    >>> check_product(1_000_000)
    """
    if bits > MAX_PRODUCT_BITS:
        raise RuleInputError(
            f"the sum is too big: adding these distributions takes a {bits}-bit product, at most "
            f"{MAX_PRODUCT_BITS}, {_why()}",
            f"합이 너무 큽니다: 두 분포를 더하는 곱이 {bits}비트로, {MAX_PRODUCT_BITS}비트까지만 "
            "계산합니다 (모든 답이 1초 안에 나오도록 정한 한도).")


def check_open(reach: int, steps: int, bits: int) -> None:
    """Refuse computing a roll that can go on without end to more than :data:`MAX_OPEN_REACH`
    outcomes, in more than :data:`MAX_SERIES_STEPS` steps, or with a packed product of more than
    :data:`MAX_PRODUCT_BITS` bits, before anything is computed.

    >>> check_open(100, 100, 10_000)
    >>> check_open(30_000, 100, 10)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: the roll goes on too long: it would be shown up to 30000 outcomes, at most 20000, so that every answer comes within a second
    """
    if reach > MAX_OPEN_REACH:
        raise RuleInputError(
            f"the roll goes on too long: it would be shown up to {reach} outcomes, at most "
            f"{MAX_OPEN_REACH}, {_why()}",
            f"끝없이 이어질 수 있는 굴림이 너무 깁니다: 나머지가 충분히 작아지려면 결과 {reach}가지를 "
            f"보여야 해서, {MAX_OPEN_REACH}가지까지만 계산합니다 (모든 답이 1초 안에 나오도록 정한 한도).")
    if steps > MAX_SERIES_STEPS:
        raise RuleInputError(
            f"the roll goes on too long: {steps} bit-steps of work, at most {MAX_SERIES_STEPS}, {_why()}",
            f"끝없이 이어질 수 있는 굴림이 너무 큽니다: 계산량이 {steps}(결과 수 × 비트 수)로, "
            f"{MAX_SERIES_STEPS}까지만 계산합니다 (모든 답이 1초 안에 나오도록 정한 한도).")
    if bits > MAX_SERIES_PRODUCT_BITS:
        raise RuleInputError(
            f"the roll goes on too long: joining it takes a {bits}-bit product, at most "
            f"{MAX_SERIES_PRODUCT_BITS}, {_why()}",
            f"끝없이 이어질 수 있는 굴림이 너무 큽니다: 계산을 합치는 곱이 {bits}비트로, "
            f"{MAX_SERIES_PRODUCT_BITS}비트까지만 계산합니다 (모든 답이 1초 안에 나오도록 정한 한도).")


def refuse_pool(count: int) -> None:
    """Raise the refusal of a pool of ``count`` dice (more than :data:`MAX_POOL`).

    >>> refuse_pool(1001)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: a roll may hold at most 1000 dice, got 1001, so that every answer comes within a second
    """
    raise RuleInputError(f"a roll may hold at most {MAX_POOL} dice, got {count}, {_why()}",
                         f"한 번에 굴리는 주사위는 {MAX_POOL}개까지입니다 (입력: {count}개). "
                         "모든 답이 1초 안에 나오도록 정한 한도입니다.")


def fight_work(steps: int, moves: int, step_bits: int, results: int = 1) -> int:
    """The cost measure of a fight of ``steps`` steps over a chain of ``moves`` moves whose one
    step multiplies the denominator by a number of ``step_bits`` bits, with ``results`` series of
    chances to read (see :data:`MAX_FIGHT_WORK`).

    >>> fight_work(10, 100, 20), fight_work(100, 100, 20, results=2)
    (7125, 1112500)
    """
    return steps * max(64, steps * step_bits) * (moves + 128 * results) // 64


def check_fight(steps: "int | None", moves: int, step_bits: int, results: int = 1) -> None:
    """Refuse a whole fight that may need more than :data:`MAX_FIGHT_STEPS` steps (``None``: no
    end was found within the plan) or more than :data:`MAX_FIGHT_WORK` work, before it starts.

    >>> check_fight(40, 2_000, 30)
    >>> check_fight(None, 100, 20)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: the fight may go on for more than 2000 steps (or past the float plan's limit) before its end is within one in a million, so that every answer comes within a second
    """
    if steps is not None:
        steps = require_int(steps, "steps", "단계 수", 0, 10**12)
    moves = require_int(moves, "moves", "상태 이동 수", 0, 10**12)
    step_bits = require_int(step_bits, "step_bits", "한 단계의 비트 수", 0, 10**6)
    results = require_int(results, "results", "결과 수", 0, 10**6)
    if steps is None or steps > MAX_FIGHT_STEPS:
        raise RuleInputError(
            f"the fight may go on for more than {MAX_FIGHT_STEPS} steps (or past the float plan's "
            f"limit) before its end is within one in a million, {_why()}",
            f"이 싸움은 너무 길어 계산하지 않습니다{'' if steps is None else f' (입력: {steps}단계)'}: "
            f"{MAX_FIGHT_STEPS}단계(라운드·턴·공격) 안에, 또는 "
            "정한 계산량 안에 끝날 확률이 100만분의 1 이내로 좁혀지지 않습니다. 명중하거나 피해를 줄 확률이 "
            "너무 낮거나 HP가 너무 큽니다. 모든 답이 1초 안에 나오도록 정한 한도입니다.")
    work = fight_work(steps, moves, step_bits, results)
    if work > MAX_FIGHT_WORK:
        raise RuleInputError(
            f"the fight is too big: {steps} steps over {moves} moves take {work} of work, at most "
            f"{MAX_FIGHT_WORK}, {_why()}",
            f"이 싸움은 계산이 너무 큽니다: 최대 {steps}단계, 상태 이동 {moves}가지, 한 단계 {step_bits}비트, "
            f"결과 {results}가지로 계산량이 {work}, "
            f"{MAX_FIGHT_WORK}까지만 계산합니다. HP를 줄이거나 명중·피해를 높여 주세요 "
            "(모든 답이 1초 안에 나오도록 정한 한도).")


def limits_table() -> list[dict[str, object]]:
    """The limits with what they bound, for the API appendix (Korean and English).

    >>> [row["name"] for row in limits_table()][:3]
    ['MAX_SIDES', 'MAX_POOL', 'MAX_SUM_DICE']
    """
    rows = [
        ("MAX_SIDES", MAX_SIDES, "주사위 하나의 면 수", "faces on one die"),
        ("MAX_POOL", MAX_POOL, "일부를 남기는 주사위 풀(±DICE 등)에서 굴리는 주사위 개수",
         "dice in one pool some of which are kept (±DICE)"),
        ("MAX_SUM_DICE", MAX_SUM_DICE, "합 하나에 더하는 주사위 개수", "dice added up in one sum"),
        ("MAX_SUM_SIZE", MAX_SUM_SIZE, "합 하나의 주사위 개수 × 면 수 (예: 200D100, 20D1000)",
         "dice × sides of one sum (e.g. 200D100, 20D1000)"),
        ("MAX_KEEP_WORK", MAX_KEEP_WORK,
         "높은/낮은 주사위 남기기: (남길 개수)² × (면 수)² × 주사위 개수 × (면 수의 비트 수) "
         "(예: 150D8에서 40개)",
         "keeping the highest/lowest dice: kept² × sides² × dice × bits(sides) (e.g. 40 of 150D8)"),
        ("MAX_PAIRS", MAX_PAIRS, "불규칙한 두 분포를 더할 때 결과 쌍의 수",
         "outcome pairs when two irregular distributions are added"),
        ("MAX_PRODUCT_BITS", MAX_PRODUCT_BITS, "불규칙한 두 큰 분포를 더하는 곱의 비트 수",
         "bits of one product adding two big irregular distributions"),
        ("MAX_NET_DICE", MAX_NET_DICE, "트렌치 크루세이드의 순 ±DICE", "net ±DICE (Trench Crusade)"),
        ("MAX_EXPRESSION_TEXT", MAX_EXPRESSION_TEXT, "주사위 식·피해 식 하나의 글자 수",
         "characters in one dice or damage expression"),
        ("MAX_EXPRESSION_TERMS", MAX_EXPRESSION_TERMS, "주사위 식·피해 식 하나의 항 수",
         "terms in one dice or damage expression"),
        ("MAX_EXPRESSION_DEPTH", MAX_EXPRESSION_DEPTH, "식 안에 겹쳐 쓰는 괄호의 수",
         "brackets inside brackets in one expression"),
        ("MAX_CONSTANT", MAX_CONSTANT, "식에 쓰는 정수 하나의 크기",
         "a whole number written in an expression"),
        ("MAX_DIVISOR", MAX_DIVISOR, "나누기(1D6÷2)의 나누는 수",
         "the divisor of a divided term (1D6÷2)"),
        ("MAX_TARGET", MAX_TARGET, "비교(1D100<=45)에 쓰는 수의 크기",
         "the number a comparison names (1D100<=45)"),
        ("MAX_TERM_DICE", MAX_TERM_DICE, "주사위 식의 한 항에 굴리는 주사위 개수 (BCDice의 한도)",
         "dice in one term of a dice expression (BCDice's limit)"),
        ("MAX_ROLLED_DICE", MAX_ROLLED_DICE,
         "한 굴림에 모두 굴리는 주사위 개수, 폭발·다시 굴리기로 더 굴리는 것 포함 (BCDice의 한도)",
         "dice one roll rolls in all, extra rolls included (BCDice's limit)"),
        ("OPEN_REST_DENOMINATOR", OPEN_REST_DENOMINATOR,
         "끝없이 이어질 수 있는 굴림에서 하나로 묶어 보이는 나머지 확률은 이 수분의 1 이하 (OPEN_REST)",
         "the rest of a roll that can go on without end, shown as one number, is at most 1 over this"),
        ("MAX_OPEN_REACH", MAX_OPEN_REACH, "끝없이 이어질 수 있는 굴림에서 계산하는 결과의 수",
         "outcomes computed for a roll that can go on without end"),
        ("MAX_SERIES_STEPS", MAX_SERIES_STEPS,
         "그 계산과 읽기의 양 (결과 수 × 다시 굴리는 눈의 수 × 가중치의 비트 수)",
         "work of computing and reading it (outcomes × faces that roll again × bits of the weights)"),
        ("MAX_SERIES_PRODUCT_BITS", MAX_SERIES_PRODUCT_BITS, "그 계산을 합치는 곱의 비트 수",
         "bits of the product that joins that computation"),
        ("MAX_FIGHT_STEPS", MAX_FIGHT_STEPS,
         "싸움 전체(결투·쓰러뜨리기까지)를 계산할 때 나열하는 최대 단계(라운드·턴·공격) 수",
         "steps (rounds, turns, attacks) one whole fight may need"),
        ("MAX_FIGHT_PLAN", MAX_FIGHT_PLAN,
         "싸움의 길이를 미리 어림할 때(소수 계산) 따라가는 상태 이동의 수",
         "moves of the float plan that finds a fight's length first"),
        ("MAX_FIGHT_WORK", MAX_FIGHT_WORK,
         "싸움 전체의 계산량 (단계 수 × 가중치 비트 수 × (상태 이동 수 + 결과 수 × 128) ÷ 64)",
         "work of one whole fight (steps × bits of the weights × (moves + 128 × results) ÷ 64)"),
        ("MAX_D66_DICE", MAX_D66_DICE, "식의 한 항에 더하는 D66의 수", "D66 rolls added up in one term"),
        ("MAX_REPEAT", MAX_REPEAT, "반복 명령(x5 2D6)의 반복 횟수 (BCDice의 한도)",
         "repetitions of one command (BCDice's limit)"),
        ("MAX_CHOICE_ITEMS", MAX_CHOICE_ITEMS, "choice 명령의 항목 수 (BCDice의 한도)",
         "items of one choice (BCDice's limit)"),
        ("MAX_CHOICE_TEXT", MAX_CHOICE_TEXT, "choice 명령 하나의 글자 수", "characters of one choice command"),
        ("MAX_BONUS_DICE", MAX_BONUS_DICE, "크툴루 7판 CC의 보너스·페널티 주사위 수 (BCDice의 한도)",
         "bonus or penalty dice of one CC roll (BCDice's limit)"),
        ("MAX_TALLY_SIDES", MAX_TALLY_SIDES, "눈별로 세는 주사위(8TY6)의 면 수 (BCDice의 한도)",
         "sides of a die whose faces are counted (BCDice's limit)"),
        ("MAX_FLIGHT_WORK", MAX_FLIGHT_WORK,
         "평면도에서 도주 경로를 찾을 때 만드는 중간 이동(칸, 거리, 그때까지 떠난 상대)과 그 비교의 수",
         "partial moves (square, feet, opponents left) made and compared by one search for fleeing moves"),
        ("MAX_STEPS", MAX_STEPS, "경로 하나의 칸 수, 한 번에 세는 대각선·가로/세로 칸 수",
         "squares in one path, and steps in one count of diagonal or orthogonal steps"),
        ("MAX_BANDS", MAX_BANDS, "사거리 표 하나, 또는 결과를 읽는 표 하나의 구간 수",
         "bands of one range table, or of one chart an outcome is read against"),
        ("MAX_NUMBER_TEXT", MAX_NUMBER_TEXT, "입력란에 적는 수 하나의 글자 수", "characters of one number typed into a box"),
        ("MAX_NAME_TEXT", MAX_NAME_TEXT, "찾아보는 이름 하나(숙련 등급, 갑옷, 무기, 무게, 보너스 종류, 고르는 항목)의 글자 수",
         "characters in one name looked up (a rank, an armour, a weapon, a load, a bonus type, a choice)"),
    ]
    return [{"name": n, "value": v, "what_ko": ko, "what_en": en} for n, v, ko, en in rows]
