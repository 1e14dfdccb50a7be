"""Exact dice odds: this library against icepool, the same questions side by side.

Each case asks both for the same exact distribution (or odds table) and checks that the two
answers agree exactly. Timings:

- cold: the first call in a fresh Python process (one subprocess per case and library; the
  import is timed separately and not included), median of ``--cold-runs`` processes;
- warm: median of ``--warm-runs`` repeated calls in that process, after the first, each
  library keeping its own caches (both memoize);
- lib uncached: the library's warm call with its memo caches cleared first (the algorithm
  itself, no memo), for comparison with icepool's cached warm call.

A process that runs past ``--timeout`` seconds is reported as such. Calls faster than a
millisecond are repeated and averaged within each timed sample.

Three tables: the library's dice functions, then the dice calculator (:mod:`widgets.notation`):
the text a GM types (one example per game of the book, then heavier ones), read and answered
from the text on every call, against icepool's own Python for the same roll; then whole fights
(``--section fight``, :mod:`widgets.fight`): each game's call against icepool's
``map(step, state, repeat=k)`` on the same chain, every step's chances compared exactly.

Ratio = icepool time / library time (above 1: the library is faster).

Run: ``python3 scripts/dev.py bench-odds`` (installs requirements-bench.txt, i.e. icepool) or
``.venv/bin/python scripts/bench_odds.py``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# label, library expression, icepool expression (each evaluates to a Dist/odds dict, a Die/odds dict)
CASES: list[tuple[str, str, str]] = [
    ("10 highest of 200d6", "dice.keep_highest(200, 10, 6)", "icepool.d6.highest(200, 10)"),
    ("30 highest of 100d6", "dice.keep_highest(100, 30, 6)", "icepool.d6.highest(100, 30)"),
    ("5 highest of 50d20", "dice.keep_highest(50, 5, 20)", "icepool.d20.highest(50, 5)"),
    ("40 highest of 150d8", "dice.keep_highest(150, 40, 8)", "icepool.d8.highest(150, 40)"),
    ("100 highest of 200d6", "dice.keep_highest(200, 100, 6)", "icepool.d6.highest(200, 100)"),
    ("3 lowest of 60d10", "dice.keep_lowest(60, 3, 10)", "icepool.d10.lowest(60, 3)"),
    ("success chart +50 DICE", "tc.success_odds(dice=50)", "chart(icepool.d6.highest(52, 2))"),
    ("success chart -50 DICE", "tc.success_odds(dice=-50)", "chart(icepool.d6.lowest(52, 2))"),
    ("success chart +200 DICE", "tc.success_odds(dice=200)", "chart(icepool.d6.highest(202, 2))"),
    ("success chart -200 DICE", "tc.success_odds(dice=-200)", "chart(icepool.d6.lowest(202, 2))"),
    ("sum 200d100", "dice.dice_sum(200, 100)", "200 @ icepool.d100"),
    ("sum 100d100+99d99", "damage.damage_dist('100D100+99D99')", "100 @ icepool.d100 + 99 @ icepool.d(99)"),
    ("sum 20d1000", "dice.dice_sum(20, 1000)", "20 @ icepool.d(1000)"),
    ("sum 2d6+1d4+3", "damage.damage_dist('2D6+1D4+3')", "2 @ icepool.d6 + icepool.d4 + 3"),
]

def _notation_cases() -> list[tuple[str, str, str]]:
    """The calculator's text against icepool: the book's examples (widgets.notation.EXAMPLES),
    then heavier rolls. A roll with a comparison answers success/failure odds."""
    sys.path.insert(0, str(ROOT))
    from widgets.notation import EXAMPLES
    icepool_of = {   # the same roll in icepool's Python (division rounds up: -(-x // 2))
        "4D6KH2": "icepool.d6.highest(4, 2)",
        "1d20+3>=15": "odds(icepool.d20 + 3 >= 15)",
        "1d20+9>=25": "odds(icepool.d20 + 9 >= 25)",
        "1D8+1D4": "icepool.d8 + icepool.d4",
        "1D6÷2": "icepool.d6.map(lambda x: -(-x // 2))",
        "1D100<=45": "odds(icepool.d100 <= 45)",
        "2D6+3>=9": "odds(2 @ icepool.d6 + 3 >= 9)",
    }
    heavier = [("3D6>=10", "odds(3 @ icepool.d6 >= 10)"),
               ("2D6*3-1D6+1", "2 @ icepool.d6 * 3 - icepool.d6 + 1"),
               ("1D6/2R+1D8/3", "icepool.d6.map(lambda x: (2 * x + 2) // 4) + icepool.d8.map(lambda x: x // 3)"),
               ("4dF+1", "4 @ icepool.Die([-1, 0, 1]) + 1"),
               ("D66A", "icepool.map(lambda a, b: 10 * min(a, b) + max(a, b), icepool.d6, icepool.d6)"),
               ("5B6>=4", "5 @ (icepool.d6 >= 4).map(lambda b: int(b))"),
               ("x5 2D6>=7", "5 @ (2 @ icepool.d6 >= 7).map(lambda b: int(b))"),
               ("2D20RO1", "2 @ icepool.d20.reroll([1], depth=1)"),
               ("4D6R1", "4 @ icepool.d6.reroll([1], depth='inf')"),
               ("8D6CS>=5", "8 @ (icepool.d6 >= 5).map(lambda b: int(b))"),
               ("4D6XO", "4 @ icepool.d6.explode(depth=1)"),
               ("CC(1)<=50", "icepool.map(lambda a, b, o: min(10 * (a % 10) + o % 10 or 100, "
                             "10 * (b % 10) + o % 10 or 100), icepool.d10, icepool.d10, icepool.d10)"),
               ("3U6[5]+1>=8", "3 @ ((icepool.d6.explode([5, 6], depth=4) + 1) >= 8).map(lambda b: int(b))"),
               ("2d20kh1+5>=15", "odds(icepool.d20.highest(2, 1) + 5 >= 15)"),
               ("4d6dl1", "icepool.d6.highest(4, 3)"),
               ("(1D6+1D4)÷2+1D8", "(icepool.d6 + icepool.d4).map(lambda x: -(-x // 2)) + icepool.d8"),
               ("10d10kh3", "icepool.d10.highest(10, 3)"),
               ("40d6", "40 @ icepool.d6"),
               ("3d20kh2-1d4+2>=25", "odds(icepool.d20.highest(3, 2) - icepool.d4 + 2 >= 25)"),
               ("100d6kh10", "icepool.d6.highest(100, 10)"),
               ("20d10+10d6kl5", "20 @ icepool.d10 + icepool.d6.lowest(10, 5)")]
    missing = [roll for _, roll in EXAMPLES if roll not in icepool_of]
    if missing:
        raise SystemExit(f"bench_odds.py: no icepool twin for the examples {missing}")
    # rolls that can go on without end: the library shows every outcome below its cut exactly and
    # the rest as one number; icepool explodes to a depth at which those outcomes are exact
    from widgets import notation
    endless = []
    for text, ice, step in (("3D6!", "3 @ icepool.d6.explode(depth={d})", 6),
                            ("2D10!>9+2", "2 @ icepool.d10.explode([9, 10], depth={d}) + 2", 9),
                            ("1D6!+1D8!", "icepool.d6.explode(depth={d}) + icepool.d8.explode(depth={d})", 6),
                            ("10D6!", "10 @ icepool.d6.explode(depth={d})", 6)):
        cut = notation.distribution(text).cut
        endless.append((text, f"shown({ice.format(d=cut // step + 1)}, {cut})"))
    rows = [(roll, icepool_of[roll]) for _, roll in EXAMPLES] + heavier + endless
    # success and failure where the command has them, else the distribution (counting dice, CC's D100)
    call = lambda text: ("notation.roll_odds" if isinstance(notation.parse(text), notation.Roll)
                         and notation.parse(text).has_odds() else "notation.distribution") + f"({text!r})"
    return [(text, call(text), ice) for text, ice in rows]


NOTATION_CASES = _notation_cases()

#: Whole fights (widgets.fight, issue 30): the library's call against icepool's
#: ``map(step, state, repeat=k)`` stepping the *same* chain (the game's own Chain, captured from
#: the library before the clock starts) over as many steps as the library lists. The library's
#: time covers building the chain from the rules, stepping it and reading every chance as a
#: Fraction; icepool's covers stepping and reading only.
FIGHT_CALLS: list[tuple[str, str]] = [
    ("duel HP 12 (숏소드 vs 단검)", "uf.duel(uf.Fighter(60, 50, '숏소드', hp=12), "
                                   "uf.Fighter(55, 60, '단검', armor=1, hp=12))"),
    ("duel HP 30", "uf.duel(uf.Fighter(60, 60, '숏소드', hp=30), uf.Fighter(60, 60, '브로드 소드', hp=30))"),
    ("duel HP 60 (upper bound)", "uf.duel(uf.Fighter(60, 60, '숏소드', hp=60), "
                                 "uf.Fighter(60, 60, '그레이트 소드', db='+1D6', hp=60))"),
    ("PF2e HP 30, 3 Strikes", "pf2e.strikes_to_down(10, 20, 30, '1d8+4')"),
    ("PF2e HP 60, 3 Strikes", "pf2e.strikes_to_down(10, 22, 60, '1d8+4', strikes=3, agile=True)"),
    ("TC attacks, none", "tc.attacks_to_out()"),
    ("TC TOUGH, armour 2, bloodbath", "tc.attacks_to_out(armour=2, tough=True, blood='bloodbath')"),
    ("HM 2 PCs, life 20, pursuit", "hm.hunt([(2, 3, 3), (1, 4, 2)], 9, 20, pursuit=2)"),
    ("HM 4 PCs, life 60, pursuit", "hm.hunt([(2, 3, 3), (1, 4, 2), (3, 2, 5), (0, 5, 1)], 9, 60, 2, 3)"),
]
FIGHT_CASES = [(label, f"read({call})", f"ice_fight({call!r})") for label, call in FIGHT_CALLS]
SECTIONS = {"odds": CASES, "notation": NOTATION_CASES, "fight": FIGHT_CASES}

FIGHT_LIB_SETUP = (
    "from widgets import underface as uf, pf2e, trench_crusade as tc, hunters_moon as hm\n"
    "def read(odds):\n"
    "    odds.ends, odds.details, odds.rest\n"
    "    return odds\n")
FIGHT_ICE_SETUP = """
import icepool
from fractions import Fraction
from widgets import fight, underface as uf, pf2e, trench_crusade as tc, hunters_moon as hm
CAPTURED = {}

def prepare(lib_expr):
    \"\"\"Run the library's call once, keeping the chains it steps and how many steps it lists.\"\"\"
    call = lib_expr[len("read("):-1]
    seen = {}
    walk, race = fight.walk, fight.race
    def spy_walk(chain, start, **kw):
        seen.update(kind="walk", chains=[chain] if isinstance(chain, fight.Chain) else list(chain),
                    start=start, kw=kw)
        return walk(chain, start, **kw)
    def spy_race(first, first_start, second, second_start, **kw):
        seen.update(kind="race", chains=[first, second], start=(first_start, second_start), kw=kw)
        return race(first, first_start, second, second_start, **kw)
    for module in (uf, pf2e, tc, hm):
        if hasattr(module, "walk"):
            module.walk = spy_walk
        if hasattr(module, "race"):
            module.race = spy_race
    odds = eval(call)
    for module in (uf, pf2e, tc, hm):
        if hasattr(module, "walk"):
            module.walk = walk
        if hasattr(module, "race"):
            module.race = race
    CAPTURED[call] = (seen, odds.steps)

def rows(chain):
    index = {s: i for i, s in enumerate(chain.states)}
    out = []
    for state in chain.states:
        weights, ends = chain.step(chain.start(state))
        out.append(([(j, w) for j, w in enumerate(weights) if w], [(k, w) for k, w in enumerate(ends) if w]))
    return out

def ice_fight(call):
    \"\"\"The same chain stepped by icepool.map(step, state, repeat=steps): outcomes (1, state(s), t)
    while live, (0, side, result, t) once ended (absorbing).\"\"\"
    seen, steps = CAPTURED[call]
    if seen["kind"] == "walk":
        chains = seen["chains"]
        table = [rows(c) for c in chains]
        fixed = len(chains) > 1
        def step(o):
            if o[0] == 0:
                return o
            _, i, _, t = o
            moves, ends = table[t if fixed else 0][i]
            return icepool.Die({**{(1, j, 0, t + 1): w for j, w in moves},
                                **{(0, 0, k, t + 1): w for k, w in ends}})
        start = (1, chains[0].states.index(seen["start"]), 0, 0)
        keys = [chains[0].keys]
    else:
        first, second = seen["chains"]
        t1, t2 = rows(first), rows(second)
        def step(o):
            if o[0] == 0:
                return o
            _, i, j, t = o
            out = {}
            moves1, ends1 = t1[i]
            for k, w in ends1:
                out[(0, 0, k, t + 1)] = out.get((0, 0, k, t + 1), 0) + w * second.denominator
            moves2, ends2 = t2[j]
            for i2, w in moves1:
                for j2, v in moves2:
                    out[(1, i2, j2, t + 1)] = out.get((1, i2, j2, t + 1), 0) + w * v
                for k, v in ends2:
                    out[(0, 1, k, t + 1)] = out.get((0, 1, k, t + 1), 0) + w * v
            return icepool.Die(out)
        start = (1, first.states.index(seen["start"][0]), second.states.index(seen["start"][1]), 0)
        keys = [first.keys, second.keys]
    die = icepool.map(step, icepool.Die([start]), repeat=steps)
    den = die.denominator()
    kw = seen["kw"]
    details = ([kw.get("detail_of") or {}] if seen["kind"] == "walk"
               else [kw.get("first_details") or {}, kw.get("second_details") or {}])
    answer = {}
    for o, q in die.items():
        if o[0] == 0:
            kind = "detail" if keys[o[1]][o[2]] in details[o[1]] else "plain"
            label = f"{o[1]}:{kind}@{o[3]}"
            answer[label] = answer.get(label, 0) + Fraction(q, den)
        else:
            answer["rest"] = answer.get("rest", 0) + Fraction(q, den)
    return {"fight": seen["kind"], "answer": answer}
"""

LIB_SETUP = "from widgets import dice, damage, notation, trench_crusade as tc"
ICE_SETUP = "import icepool"
CHART = ("def chart(die):\n"
         "    from fractions import Fraction\n"
         "    d = die.denominator()\n"
         "    bands = {'failure': 0, 'success': 0, 'critical': 0}\n"
         "    for o, q in die.items():\n"
         "        bands['failure' if o <= 6 else 'success' if o <= 11 else 'critical'] += q\n"
         "    return {k: Fraction(v, d) for k, v in bands.items()}\n"
         "def shown(die, cut):\n"
         "    from fractions import Fraction\n"
         "    d = die.denominator()\n"
         "    out = {o: Fraction(q, d) for o, q in die.items() if q and o < cut}\n"
         "    out['rest'] = 1 - sum(out.values())\n"
         "    return out\n"
         "def odds(die):\n"
         "    from fractions import Fraction\n"
         "    d = die.denominator()\n"
         "    return {'success': Fraction(die.quantity(True), d), 'failure': Fraction(die.quantity(False), d)}\n")


def clear_library_caches() -> None:
    from widgets import dice, notation
    for module in (dice, notation):
        for obj in vars(module).values():
            if callable(getattr(obj, "cache_clear", None)):
                obj.cache_clear()


def timed(call, before=None) -> float:
    """Seconds of one call; calls under a millisecond are repeated (``before`` each time) and
    averaged, so that the clock's resolution and noise do not decide a ratio."""
    if before:
        before()
    start = time.perf_counter()
    call()
    once = time.perf_counter() - start
    if once >= 0.001:
        return once
    repeat = min(10_000, int(0.005 / max(once, 1e-7)) + 1)
    total = 0.0
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        call()
        total += time.perf_counter() - start
    return total / repeat


def fight_answer(result) -> dict:
    """A whole fight as ``{"side:chain result@step": chance, "rest": chance}``: the library's
    FightOdds (its results and details read back to each side's chain results) or icepool's
    answer (already in that form)."""
    if isinstance(result, dict):
        return result["answer"]
    answer = {"rest": result.rest}
    detail_side = {d: result.keys.index(main) for d, main in result.detail_of.items()}
    for step, (end, part) in enumerate(zip(result.ends, result.details), start=1):
        for side, key in enumerate(result.keys):
            # a side's whole win, less its details, is the chain's plain result ("down"/"win"/"out")
            rest_of_win = end[key] - sum(p for d, p in part.items() if detail_side[d] == side)
            answer[f"{side if len(result.keys) > 1 else 0}:plain@{step}"] = rest_of_win
        for detail, p in part.items():
            answer[f"{detail_side[detail]}:detail@{step}"] = p
    return answer


def digest(result) -> str:
    """A fingerprint of the exact answer: every outcome with its reduced probability."""
    import hashlib
    if type(result).__name__ == "FightOdds" or (isinstance(result, dict) and "fight" in result):
        result = {k: p for k, p in fight_answer(result).items() if p}
    if hasattr(result, "rest_probability"):   # library OpenDist: the shown outcomes and the rest
        result = {**result.probabilities(), "rest": result.rest_probability()}
    if isinstance(result, dict):   # an odds table of Fractions
        items = sorted((str(k), Fraction(p)) for k, p in result.items())
    elif hasattr(result, "total") and hasattr(result, "weights"):   # library Dist
        items = [(str(k), Fraction(w, result.total)) for k, w in sorted(result.weights.items())]
    else:   # icepool Die
        den = result.denominator()
        items = [(str(k), Fraction(q, den)) for k, q in sorted(result.items()) if q]
    text = ";".join(f"{k}={p.numerator}/{p.denominator}" for k, p in items if p)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def child(which: str, section: str, index: int, warm_runs: int) -> None:
    """One fresh process: import, the first call, then ``warm_runs`` more calls; prints JSON."""
    _, lib_expr, ice_expr = SECTIONS[section][index]
    expr = lib_expr if which == "lib" else ice_expr
    start = time.perf_counter()
    env: dict = {}
    if section == "fight":
        exec(FIGHT_LIB_SETUP if which == "lib" else FIGHT_ICE_SETUP, env)
        if which == "ice":
            env["prepare"](lib_expr)      # the library's chain, captured before the clock starts
    else:
        exec(LIB_SETUP if which == "lib" else ICE_SETUP + "\n" + CHART, env)
    imported = time.perf_counter()
    result = eval(expr, env)
    done = time.perf_counter()
    warm, uncached = [], []
    code = compile(expr, "<case>", "eval")
    for _ in range(warm_runs):
        warm.append(timed(lambda: eval(code, env)))
        if which == "lib":
            uncached.append(timed(lambda: eval(code, env), before=clear_library_caches))
    print(json.dumps({"import": imported - start, "first": done - imported,
                      "warm": statistics.median(warm) if warm else None,
                      "uncached": statistics.median(uncached) if uncached else None,
                      "digest": digest(result) if warm_runs else None}))


def run(which: str, section: str, index: int, warm_runs: int, timeout: float) -> dict | None:
    try:
        out = subprocess.run([sys.executable, __file__, "--child", which, section, str(index),
                              str(warm_runs)],
                             capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode:
        raise SystemExit(f"{which} {section} case {index} failed:\n{out.stderr}")
    return json.loads(out.stdout)


def measure(which: str, section: str, index: int, cold_runs: int, warm_runs: int, timeout: float):
    """(median first call, median import, warm, digest); None times when it ran out of time."""
    first = run(which, section, index, warm_runs, timeout)
    if first is None:
        return None
    firsts, imports = [first["first"]], [first["import"]]
    for _ in range(cold_runs - 1):
        again = run(which, section, index, 0, timeout)
        if again:
            firsts.append(again["first"])
            imports.append(again["import"])
    return (statistics.median(firsts), statistics.median(imports), first["warm"], first["digest"],
            first["uncached"])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f}" if seconds < 0.001 else f"{seconds * 1000:9.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=4, metavar=("WHICH", "SECTION", "INDEX", "WARM"), help=argparse.SUPPRESS)
    parser.add_argument("--section", choices=sorted(SECTIONS), action="append",
                        help="only these tables (default: all)")
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120, help="seconds per process")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]), int(args.child[3]))
        return
    try:
        import icepool
    except ImportError:
        raise SystemExit("icepool is not installed: .venv/bin/pip install -r requirements-bench.txt")
    print(f"library (pure Python) vs icepool {icepool.__version__}; Python {sys.version.split()[0]}; "
          f"times in ms, median; ratio = icepool / library (> 1: library faster)\n")
    lib_imports, ice_imports, failures, slower = [], [], 0, []
    titles = {"fight": "whole fights (widgets.fight): the library's call, chain built from the rules and every "
                       "chance read, against icepool map(step, state, repeat=k) on the same chain",
              "odds": "library dice functions",
              "notation": "dice calculator (widgets.notation): the text as typed; uncached = read "
                          "and computed from scratch on every call"}
    for section in args.section or list(SECTIONS):
        print(f"{titles[section]}")
        header = (f"{'case':30} {'cold lib':>9} {'cold ice':>9} {'ratio':>7} | {'warm lib':>9} "
                  f"{'warm ice':>9} {'ratio':>7} | {'lib uncached':>12} | exact")
        print(header)
        print("-" * len(header))
        for index, (label, _, _) in enumerate(SECTIONS[section]):
            lib = measure("lib", section, index, args.cold_runs, args.warm_runs, args.timeout)
            ice = measure("ice", section, index, args.cold_runs, args.warm_runs, args.timeout)
            if lib is None:
                failures += 1
                print(f"{label:30} library ran out of time ({args.timeout:.0f} s)", flush=True)
                continue
            lib_imports.append(lib[1])
            if ice is None:
                print(f"{label:30} {ms(lib[0])} {'>' + str(int(args.timeout)) + ' s':>9} {'':>7} | "
                      f"{ms(lib[2])} {'-':>9} {'':>7} | {ms(lib[4]):>12} | icepool ran out of time",
                      flush=True)
                continue
            ice_imports.append(ice[1])
            agree = lib[3] == ice[3]
            failures += not agree
            cold_ratio, warm_ratio = ice[0] / lib[0], ice[2] / max(lib[2], 1e-9)
            if min(cold_ratio, warm_ratio) < 1:
                slower.append(f"{section}: {label}")
            print(f"{label:30} {ms(lib[0])} {ms(ice[0])} {cold_ratio:7.1f} | "
                  f"{ms(lib[2])} {ms(ice[2])} {warm_ratio:7.1f} | {ms(lib[4]):>12} | "
                  f"{'same' if agree else 'DIFFERENT'}", flush=True)
        print()
    print(f"import (median): library {statistics.median(lib_imports) * 1000:.0f} ms"
          + (f", icepool {statistics.median(ice_imports) * 1000:.0f} ms" if ice_imports else ""))
    if slower:
        print("behind icepool (ratio < 1):", "; ".join(slower))
    if failures:
        raise SystemExit("the library disagreed with icepool or ran out of time")


if __name__ == "__main__":
    main()
