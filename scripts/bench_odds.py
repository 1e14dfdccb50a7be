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

Two tables: the library's dice functions, then the dice calculator (:mod:`widgets.notation`):
the text a GM types (one example per game of the book, then heavier ones), read and answered
from the text on every call, against icepool's own Python for the same roll.

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
SECTIONS = {"odds": CASES, "notation": NOTATION_CASES}

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


def digest(result) -> str:
    """A fingerprint of the exact answer: every outcome with its reduced probability."""
    import hashlib
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
    titles = {"odds": "library dice functions",
              "notation": "dice calculator (widgets.notation): the text as typed; uncached = read "
                          "and computed from scratch on every call"}
    for section in args.section or list(SECTIONS):
        print(f"{titles[section]}")
        header = (f"{'case':26} {'cold lib':>9} {'cold ice':>9} {'ratio':>7} | {'warm lib':>9} "
                  f"{'warm ice':>9} {'ratio':>7} | {'lib uncached':>12} | exact")
        print(header)
        print("-" * len(header))
        for index, (label, _, _) in enumerate(SECTIONS[section]):
            lib = measure("lib", section, index, args.cold_runs, args.warm_runs, args.timeout)
            ice = measure("ice", section, index, args.cold_runs, args.warm_runs, args.timeout)
            if lib is None:
                failures += 1
                print(f"{label:26} library ran out of time ({args.timeout:.0f} s)", flush=True)
                continue
            lib_imports.append(lib[1])
            if ice is None:
                print(f"{label:26} {ms(lib[0])} {'>' + str(int(args.timeout)) + ' s':>9} {'':>7} | "
                      f"{ms(lib[2])} {'-':>9} {'':>7} | {ms(lib[4]):>12} | icepool ran out of time",
                      flush=True)
                continue
            ice_imports.append(ice[1])
            agree = lib[3] == ice[3]
            failures += not agree
            cold_ratio, warm_ratio = ice[0] / lib[0], ice[2] / max(lib[2], 1e-9)
            if min(cold_ratio, warm_ratio) < 1:
                slower.append(f"{section}: {label}")
            print(f"{label:26} {ms(lib[0])} {ms(ice[0])} {cold_ratio:7.1f} | "
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
