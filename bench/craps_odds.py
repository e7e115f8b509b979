"""Benchmark: exact Craps house edges (Fraction Markov chain over the engine) and Monte-Carlo throughput.

    .venv/bin/python bench/craps_odds.py [--repeat 7] [--rolls 20000] [--vm]

Exact mode: tools.odds_craps.exact_edges() (every bet of art. 5, each solved through
firmware.games.craps.rules.CrapsTable.roll). Monte-Carlo: dice rolls per second through one table
holding one bet of every kind (28 rows, refilled as they are decided). CPU time, --repeat runs
of each, each preceded by a run of the calibration loop of bench/benchutil.py; every figure is
also given in calibration-loop runs (the ratio moves far less with the machine's load than the
time). --vm also runs bench/craps_vm.py in the MicroPython VM (python -m tools.mpvm --steps --copy bench):
RAM kept by the engine and per open bet, and the time per roll with a calibration loop timed
in the same rounds.
"""
import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402
from tools import odds_craps as oc  # noqa: E402


def _timed(fn, repeat):
    """CPU seconds of each run of fn, and of the calibration loop run just before it."""
    cal, took = [], []
    for _ in range(repeat):
        cal.append(benchutil.calibration_s())
        start = benchutil.clock()
        fn()
        took.append(benchutil.clock() - start)
    return took, cal


def cpython_part(repeat, rolls):
    sp = benchutil.spread
    print("== %s" % benchutil.machine())
    print("== CPython, CPU time; %d runs of each, each run after a calibration loop run" % repeat)
    cal_all = []
    for field_12 in (2, 3):
        settings = oc.make_settings(field_12)
        rows = oc.exact_edges(settings)
        states = sum(r["states"] or 0 for r in rows)
        took, cal = _timed(lambda: oc.exact_edges(settings), repeat)
        cal_all += cal
        print("  exact, field 12 pays %d:1 (%d rows, %d Markov states):" % (field_12, len(rows), states))
        print("    s: %s" % sp(took, "%.3f"))
        print("    in calibration loop runs: %s" % sp([t / c for t, c in zip(took, cal)]))
    settings = oc.make_settings(2)
    took, cal = _timed(lambda: oc.monte_carlo(settings, rolls, 1), repeat)
    cal_all += cal
    print("  Monte-Carlo, 28 bets standing, %d rolls:" % rolls)
    print("    rolls/s: %s" % sp([rolls / t for t in took], "%.0f"))
    print("    in calibration loop runs: %s" % sp([t / c for t, c in zip(took, cal)]))
    print("  " + benchutil.calibration_line(cal_all))


def vm_part():
    from tools import mpvm

    status, out = mpvm.run_steps(os.path.join(REPO, "bench", "craps_vm.py"), timeout=600,
                                 copies=mpvm.DEFAULT_COPIES + ("bench",))
    if status != 0:
        raise SystemExit("MicroPython run failed:\n" + out)
    fig, rounds, runtime = {}, [], ""
    for line in out.splitlines():
        if line.startswith("runtime: MicroPython"):
            runtime = line[len("runtime: "):]
        elif line.startswith("round "):
            words = line.split()
            rounds.append({words[i].rstrip(":"): int(words[i + 1]) for i in range(2, len(words), 2)})
        elif ": " in line:
            key, value = line.split(": ", 1)
            if value.lstrip("-").isdigit():
                fig[key] = int(value)
    med = benchutil.median
    iters = fig["calibration_iterations"]
    cal_ms = [r["calibration_us"] / 1000.0 for r in rounds]
    roll_ms = [r["rolls_total_us"] / 1000.0 / r["rolls"] for r in rounds]
    roll_iters = [1000.0 * m / (c * 1000.0 / iters) for m, c in zip(roll_ms, cal_ms)]
    r0 = rounds[0]
    print("== MicroPython VM: %s, bench/craps_vm.py run with tools.mpvm --steps" % runtime)
    for key in sorted(fig):
        if key.startswith("ram_unsteady"):
            print("  WARNING %s: %d (the last two measurements differ)" % (key, fig[key]))
    print("  RAM kept (gc.collect() + gc.mem_alloc() in a later VM run call):")
    print("    engine package (craps: rules, bets, dice, settings)%6d bytes" % fig["ram_craps_engine_bytes"])
    print("    a CrapsTable, no bets                             %6d bytes" % fig["ram_craps_table_bytes"])
    print("    per open bet (%d bets on one table)             %6d bytes" % (fig["open_bets"], fig["ram_per_open_bet_bytes"]))
    sp = benchutil.spread
    print("  %d rounds, each timing the calibration loop, then %d rolls (CPU time of the VM's process,"
          " us)" % (len(rounds), r0["rolls"]))
    print("  calibration loop, %d iterations, ms: %s; %.2f us/iteration"
          % (iters, sp(cal_ms, "%.0f"), 1000.0 * med(cal_ms) / iters))
    print("  a roll, with %.1f bets placed and %.1f decided per roll:"
          % (r0["placed"] / float(r0["rolls"]), r0["decided"] / float(r0["rolls"])))
    print("    ms: %s" % sp(roll_ms))
    print("    in calibration iterations: %s" % sp(roll_iters, "%.0f"))
    for key, label in (("place50_total_us", "placing 50 bets (4 seats, point on)"),
                       ("seven_out_total_us", "a seven-out deciding those 50 bets")):
        ms = [r[key] / 1000.0 / r["place_reps"] for r in rounds]
        it = [1000.0 * m / (c * 1000.0 / iters) for m, c in zip(ms, cal_ms)]
        print("  %s:" % label)
        print("    ms: %s" % sp(ms, "%.3f"))
        print("    in calibration iterations: %s" % sp(it, "%.0f"))
    return status


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--rolls", type=int, default=20000)
    ap.add_argument("--vm", action="store_true", help="also measure the engine on the MicroPython VM")
    args = ap.parse_args(argv)
    cpython_part(args.repeat, args.rolls)
    if args.vm:
        return vm_part()
    return 0


if __name__ == "__main__":
    sys.exit(main())
