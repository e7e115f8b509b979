"""Benchmark: exact Baccarat odds time per configuration, and Monte-Carlo throughput, in one run.

    .venv/bin/python bench/baccarat_odds.py [--repeat 5] [--rounds 50000]

Exact mode: tools.odds_baccarat.exact() (enumeration plus the figures) per configuration.
Monte-Carlo: rounds per second dealing from hostsim.shoe.SimShoe through
firmware.games.baccarat.rules.Round (6 and 8 decks). CPU time, medians of --repeat runs, each run
preceded by a run of the calibration loop of bench/benchutil.py; the slowest configuration
and the Monte-Carlo rate are also given against that loop (the ratio moves far less with the
machine's load).
Target (docs/performance.md): under 1 s per exact configuration on CPython.
"""
import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402
from tools import odds_baccarat as ob  # noqa: E402

TARGET_S = 1.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=50000)
    args = ap.parse_args(argv)
    med = benchutil.median
    clock = benchutil.clock
    print("== %s" % benchutil.machine())
    print("== CPython, CPU time, medians of %d runs, each after a calibration loop run" % args.repeat)
    print("%-8s %-11s %6s  %12s  %14s" % ("method", "commission", "decks", "exact (s)", "MC rounds/s"))
    worst = (0.0, 0.0, None)
    cal_all = []
    mc_per_cal = []   # time per Monte-Carlo round in calibration iterations
    for method in (1, 2):
        for commission in ("A", "B"):
            for decks in range(6, 13):
                took, ratios, rates = [], [], []
                for _ in range(args.repeat):
                    cal = benchutil.calibration_s()
                    cal_all.append(cal)
                    start = clock()
                    ob.exact(method, commission, decks)
                    elapsed = clock() - start
                    took.append(elapsed)
                    ratios.append(elapsed / cal)
                    if decks in (6, 8):
                        start = clock()
                        ob.monte_carlo_distribution(method, commission, decks, args.rounds, 1)
                        mc = clock() - start
                        rates.append(args.rounds / mc)
                        mc_per_cal.append(mc / args.rounds / (cal / benchutil.CALIBRATION_ITERATIONS))
                if med(took) > worst[0]:
                    worst = (med(took), med(ratios), (method, commission, decks))
                mc = "%.0f" % med(rates) if rates else ""
                print("%-8d %-11s %6d  %12.4f  %14s" % (method, commission, decks, med(took), mc))
    print(benchutil.calibration_line(cal_all))
    print("slowest exact configuration (method %d, commission %s, %d decks): %.4f s = %.2f calibration runs"
          % (worst[2] + (worst[0], worst[1])))
    print("Monte-Carlo, time per round in calibration iterations: %s" % benchutil.spread(mc_per_cal, "%.0f"))
    print("target < %.0f s: %s" % (TARGET_S, "met" if worst[0] < TARGET_S else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
