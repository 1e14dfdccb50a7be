"""System-independent widgets (the dice-pool plot of the introduction)."""
from __future__ import annotations

from .. import dice
from ..errors import RuleInputError
from . import format as fmt
from .live import Bars, LiveWidget, Shown, number, select, widget_factory

_KEEP = {"all": "모두 더하기", "high1": "높은 눈 1개", "high2": "높은 눈 2개",
         "low1": "낮은 눈 1개", "low2": "낮은 눈 2개"}


def pool_distribution(count: int, sides: int, keep: str) -> dice.Dist:
    """The dice pool a reader asked for: all dice summed, or the highest/lowest 1 or 2 kept."""
    if keep == "all":
        return dice.dice_sum(count, sides)
    if keep not in _KEEP:
        raise ValueError(f"unknown keep mode {keep!r}")
    kept = int(keep[-1])
    if kept > count:
        raise RuleInputError(f"cannot keep {kept} of {count} dice",
                                  f"주사위 {count}개에서 {kept}개를 남길 수는 없습니다.")
    chooser = dice.keep_highest if keep.startswith("high") else dice.keep_lowest
    return chooser(count, kept, sides)


@widget_factory
def dice_pool_widget(uid: str = "dice-pool") -> LiveWidget:
    def compute(count, sides, keep):
        dist = pool_distribution(count, sides, keep)
        text = (f"<p>{count}D{sides}, {_KEEP[keep]}: 평균 {fmt.fraction(dist.mean())} "
                f"(≈ {float(dist.mean()):.2f}), 최솟값 {dist.min}, 최댓값 {dist.max}</p>"
                + fmt.odds_table([(f"{dist.max} (최댓값)", dist.probability(dist.max)),
                                  (f"{dist.min} (최솟값)", dist.probability(dist.min))]))
        return Shown(text, Bars.from_dist(dist, lambda v: "neutral"))
    return LiveWidget(
        uid, [number("count", "주사위 개수", 1, 5, 3),
              select("sides", "면 수", {4: "D4", 6: "D6", 8: "D8", 10: "D10", 12: "D12"}, 6),
              select("keep", "남기는 방법", _KEEP, "high2")],
        compute, title="주사위 풀 분포", x_label="결과")
