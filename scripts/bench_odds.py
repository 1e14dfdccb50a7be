"""Exact dice odds: this library against icepool, the same questions side by side.

Each case asks both for the same exact distribution (or odds table) and checks that the two
answers agree exactly. Timings:

- cold: the first call in a fresh Python process (one subprocess per case and library; the
  import is timed separately and not included), median of ``--cold-runs`` processes;
- warm: median of ``--warm-runs`` repeated calls in that process, after the first, each
  library keeping its own caches (both memoize);
- lib uncached: the library's warm call with its memo caches cleared first (the algorithm
  itself, no memo), for comparison with icepool's cached warm call.

A process that runs past ``--timeout`` seconds is reported as such.

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

LIB_SETUP = "from widgets import dice, damage, trench_crusade as tc"
ICE_SETUP = "import icepool"
CHART = ("def chart(die):\n"
         "    from fractions import Fraction\n"
         "    d = die.denominator()\n"
         "    bands = {'failure': 0, 'success': 0, 'critical': 0}\n"
         "    for o, q in die.items():\n"
         "        bands['failure' if o <= 6 else 'success' if o <= 11 else 'critical'] += q\n"
         "    return {k: Fraction(v, d) for k, v in bands.items()}\n")


def clear_library_caches() -> None:
    from widgets import dice
    for name in ("_keep_highest", "_dice_sum", "_mixed_weights", "_die"):
        getattr(dice, name).cache_clear()


def digest(result) -> str:
    """A fingerprint of the exact answer: every outcome with its reduced probability."""
    import hashlib
    if isinstance(result, dict):   # an odds table of Fractions
        items = sorted((str(k), Fraction(p)) for k, p in result.items())
    elif hasattr(result, "total") and hasattr(result, "weights"):   # library Dist
        items = [(str(k), Fraction(w, result.total)) for k, w in sorted(result.weights.items())]
    else:   # icepool Die
        den = result.denominator()
        items = [(str(k), Fraction(q, den)) for k, q in sorted(result.items()) if q]
    text = ";".join(f"{k}={p.numerator}/{p.denominator}" for k, p in items if p)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def child(which: str, index: int, warm_runs: int) -> None:
    """One fresh process: import, the first call, then ``warm_runs`` more calls; prints JSON."""
    _, lib_expr, ice_expr = CASES[index]
    expr = lib_expr if which == "lib" else ice_expr
    start = time.perf_counter()
    env: dict = {}
    exec(LIB_SETUP if which == "lib" else ICE_SETUP + "\n" + CHART, env)
    imported = time.perf_counter()
    result = eval(expr, env)
    done = time.perf_counter()
    warm, uncached = [], []
    for _ in range(warm_runs):
        t = time.perf_counter()
        eval(expr, env)
        warm.append(time.perf_counter() - t)
        if which == "lib":
            clear_library_caches()
            t = time.perf_counter()
            eval(expr, env)
            uncached.append(time.perf_counter() - t)
    print(json.dumps({"import": imported - start, "first": done - imported,
                      "warm": statistics.median(warm) if warm else None,
                      "uncached": statistics.median(uncached) if uncached else None,
                      "digest": digest(result) if warm_runs else None}))


def run(which: str, index: int, warm_runs: int, timeout: float) -> dict | None:
    try:
        out = subprocess.run([sys.executable, __file__, "--child", which, str(index), str(warm_runs)],
                             capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode:
        raise SystemExit(f"{which} case {index} failed:\n{out.stderr}")
    return json.loads(out.stdout)


def measure(which: str, index: int, cold_runs: int, warm_runs: int, timeout: float):
    """(median first call, median import, warm, digest); None times when it ran out of time."""
    first = run(which, index, warm_runs, timeout)
    if first is None:
        return None
    firsts, imports = [first["first"]], [first["import"]]
    for _ in range(cold_runs - 1):
        again = run(which, index, 0, timeout)
        if again:
            firsts.append(again["first"])
            imports.append(again["import"])
    return (statistics.median(firsts), statistics.median(imports), first["warm"], first["digest"],
            first["uncached"])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f}" if seconds < 0.001 else f"{seconds * 1000:9.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=3, metavar=("WHICH", "INDEX", "WARM"), help=argparse.SUPPRESS)
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120, help="seconds per process")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return
    try:
        import icepool
    except ImportError:
        raise SystemExit("icepool is not installed: .venv/bin/pip install -r requirements-bench.txt")
    print(f"library (pure Python) vs icepool {icepool.__version__}; Python {sys.version.split()[0]}; "
          f"times in ms, median; ratio = icepool / library (> 1: library faster)\n")
    header = (f"{'case':26} {'cold lib':>9} {'cold ice':>9} {'ratio':>7} | {'warm lib':>9} "
              f"{'warm ice':>9} {'ratio':>7} | {'lib uncached':>12} | exact")
    print(header)
    print("-" * len(header))
    lib_imports, ice_imports, failures = [], [], 0
    for index, (label, _, _) in enumerate(CASES):
        lib = measure("lib", index, args.cold_runs, args.warm_runs, args.timeout)
        ice = measure("ice", index, args.cold_runs, args.warm_runs, args.timeout)
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
        print(f"{label:26} {ms(lib[0])} {ms(ice[0])} {ice[0] / lib[0]:7.1f} | "
              f"{ms(lib[2])} {ms(ice[2])} {ice[2] / max(lib[2], 1e-9):7.0f} | {ms(lib[4]):>12} | "
              f"{'same' if agree else 'DIFFERENT'}", flush=True)
    print(f"\nimport (median): library {statistics.median(lib_imports) * 1000:.0f} ms"
          + (f", icepool {statistics.median(ice_imports) * 1000:.0f} ms" if ice_imports else ""))
    if failures:
        raise SystemExit("the library disagreed with icepool or ran out of time")


if __name__ == "__main__":
    main()
