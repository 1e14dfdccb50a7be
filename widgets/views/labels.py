"""The Korean words the widgets and pages show for the library's result keys.

The rules modules name their results by key (``"flee_walk"``, ``"special"`` …) and say which
keys exist; what a reader reads for each key is the views' choice, kept here in one place.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from .. import bfrpg as bf
from .. import damage
from .. import hunters_moon as hm
from .. import underface as uf

#: Basic Fantasy movement options (:data:`widgets.bfrpg.MOVE_OPTIONS`).
BF_MOVE_OPTIONS: Mapping[str, str] = MappingProxyType({
    "start": "제자리",
    "walk": "걸은 뒤 공격 가능",
    "run": "달리기 (공격 불가)",
    "melee_move": "근접 이동: 근접전을 유지하며 한 칸 10피트, 공격 가능",
    "withdraw": "전투 철수: 이동 속도의 절반까지, 공격 가능",
    "flee_walk": "도주 (걷기): 상대가 +2로 분리 사격",
    "flee_run": "도주 (달리기): 상대가 +2로 분리 사격, 공격 불가",
    "out": "닿지 않음",
    "pass": "아군 칸: 지나갈 수만 있음",
    "blocked": "들어갈 수 없음 (벽 또는 적)",
})

#: HP states after a hit (:data:`widgets.damage.HP_STATES`).
HP_STATES: Mapping[str, str] = MappingProxyType({
    "standing": "깨어 있음",
    "unconscious": "기절 (사망 임계보다 위)",
    "at_death_threshold": "기절 (사망 임계 이하)",
})

#: Hunter's Moon check outcomes (:data:`widgets.hunters_moon.OUTCOMES`).
HM_OUTCOMES: Mapping[str, str] = MappingProxyType(
    {"fumble": "펌블", "failure": "실패", "success": "성공", "special": "스페셜"})

#: Underface check results (:data:`widgets.underface.CHECK_RESULTS`).
UF_CHECKS: Mapping[str, str] = MappingProxyType(
    {"special": "스페셜", "success": "성공", "failure": "실패", "fumble": "펌블"})

#: Underface kinds of move (:data:`widgets.underface.MOVES`).
UF_MOVES: Mapping[str, str] = MappingProxyType({
    "walk": "걷기: 평소대로 행동",
    "run": "달리기: 다음 자신의 턴까지 방어를 포함한 모든 행동이 어려움 난이도",
    "too_far": "한 턴에 갈 수 없는 거리 (MOV×3미터 초과)",
})


def covers_every_key() -> bool:
    """Every key a rules module names has its words here, and no other.

    >>> covers_every_key()
    True
    """
    return (set(BF_MOVE_OPTIONS) == set(bf.MOVE_OPTIONS) and set(HP_STATES) == set(damage.HP_STATES)
            and set(HM_OUTCOMES) == set(hm.OUTCOMES) and set(UF_CHECKS) == set(uf.CHECK_RESULTS)
            and set(UF_MOVES) == set(uf.MOVES))
