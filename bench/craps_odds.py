"""Benchmark: exact Craps house edges (Fraction Markov chain over the engine) and Monte-Carlo throughput.

    .venv/bin/python bench/craps_odds.py [--repeat 3] [--rolls 50000] [--vm]

Exact mode: best of --repeat runs of tools.odds_craps.exact_edges() (every bet of art. 5,
each solved through firmware.games.craps.CrapsTable.roll). Monte-Carlo: dice rolls per second
through one table holding one bet of every kind (28 rows, refilled as they are decided).
--vm also runs bench/craps_vm.py in the MicroPython VM (engine rolls/s and RAM there).
"""
import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools import odds_craps as oc  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rolls", type=int, default=50000)
    ap.add_argument("--vm", action="store_true", help="also measure the engine on the MicroPython VM")
    args = ap.parse_args(argv)
    print("Python %s (%s), %s" % (platform.python_version(), platform.python_implementation(), platform.machine()))
    for field_12 in (2, 3):
        settings = oc.make_settings(field_12)
        best = None
        for _ in range(args.repeat):
            start = time.perf_counter()
            rows = oc.exact_edges(settings)
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        states = sum(r["states"] or 0 for r in rows)
        print("exact, field 12 pays %d:1: %d rows, %d Markov states, best of %d: %.3f s"
              % (field_12, len(rows), states, args.repeat, best))
    settings = oc.make_settings(2)
    _rows, elapsed = oc.monte_carlo(settings, args.rolls, 1)
    print("Monte-Carlo: %d rolls in %.2f s: %.0f rolls/s (28 bets standing)" % (args.rolls, elapsed, args.rolls / elapsed))
    if args.vm:
        from tools import mpvm
        status, out = mpvm.run_script(os.path.join("bench", "craps_vm.py"), timeout=600)
        print(out.rstrip())
        return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
