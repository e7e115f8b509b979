"""Benchmark: exact Baccarat odds time per configuration, and Monte-Carlo throughput, in one run.

    .venv/bin/python bench/baccarat_odds.py [--repeat 3] [--rounds 50000]

Exact mode: best of --repeat runs of tools.odds_baccarat.exact() (enumeration
plus the figures) per configuration. Monte-Carlo: rounds per second dealing
from hostsim.shoe.SimShoe through firmware.games.baccarat.Round. Target from
issue 3: under 1 s per exact configuration on CPython.
"""
import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools import odds_baccarat as ob  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=50000)
    args = ap.parse_args(argv)
    print("Python %s (%s), %s" % (platform.python_version(), platform.python_implementation(), platform.machine()))
    print("%-8s %-11s %6s  %12s  %14s" % ("method", "commission", "decks", "exact (s)", "MC rounds/s"))
    worst = 0.0
    for method in (1, 2):
        for commission in ("A", "B"):
            for decks in range(6, 13):
                best = None
                for _ in range(args.repeat):
                    _d, figs, elapsed = ob.exact(method, commission, decks)
                    best = elapsed if best is None else min(best, elapsed)
                worst = max(worst, best)
                mc = ""
                if decks in (6, 8):
                    start = time.perf_counter()
                    ob.monte_carlo_distribution(method, commission, decks, args.rounds, 1)
                    mc = "%.0f" % (args.rounds / (time.perf_counter() - start))
                print("%-8d %-11s %6d  %12.4f  %14s" % (method, commission, decks, best, mc))
    print("slowest exact configuration: %.4f s (target < 1 s): %s" % (worst, "met" if worst < 1 else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
