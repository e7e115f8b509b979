"""Rounds per second of `python -m hostsim --headless` for each game (CPython).

    .venv/bin/python bench/headless.py [--rounds 40] [--repeats 5] [--seed 1] [--game G ...]

Each run is a fresh interpreter (`python bench/headless.py --one GAME ROUNDS SEED`) that imports
hostsim, runs the calibration loop of bench/benchutil.py, then times hostsim.__main__.main(
["--headless", "--game", GAME, "--rounds", ROUNDS, "--seed", SEED]) -- exactly what
`python -m hostsim --headless` runs: the firmware on the simulated board, the dealer, the
bettors, the host link -- in CPU time (bench/benchutil.clock), start-up and imports not counted.
The games run one after the other, --repeats times; the figures are medians with the middle half.
A round is a Baccarat coup, a Craps shooter (its throws are given too) or an Omaha hand. The
run's own summary line must report every round played and no alarm, or the bench stops.
"""
import argparse
import contextlib
import io
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402

GAMES = ("baccarat", "craps", "omaha")


def one(game, rounds, seed):
    """In a fresh interpreter: calibration, then one timed headless run; prints one JSON line."""
    from hostsim import __main__ as sim_main

    cal = benchutil.calibration_s()
    out = io.StringIO()
    start = benchutil.clock()
    with contextlib.redirect_stdout(out):
        status = sim_main.main(["--headless", "--game", game, "--rounds", str(rounds), "--seed", str(seed)])
    cpu = benchutil.clock() - start
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    print(json.dumps({"status": status, "cpu_s": cpu, "calibration_s": cal, "summary": summary}))


def run_one(game, rounds, seed):
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", game, str(rounds), str(seed)],
                          capture_output=True, text=True, cwd=REPO, timeout=600)
    if proc.returncode != 0:
        raise SystemExit("headless %s failed:\n%s%s" % (game, proc.stdout, proc.stderr))
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    s = res["summary"]
    played = s.get("rounds", s.get("shooters", s.get("hands")))
    if res["status"] != 0 or s["alarms"] or played != rounds:
        raise SystemExit("headless %s: status %r, %r rounds of %d, %r alarms"
                         % (game, res["status"], played, rounds, s["alarms"]))
    return res


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--one"]:
        one(argv[1], int(argv[2]), int(argv[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40, help="rounds (Craps: shooters, Omaha: hands) per run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", choices=GAMES, help="game(s) to run (default all three)")
    a = ap.parse_args(argv)
    games = a.game or GAMES
    runs = {g: [] for g in games}
    for _ in range(a.repeats):
        for g in games:
            runs[g].append(run_one(g, a.rounds, a.seed))
    sp = benchutil.spread
    print("== %s" % benchutil.machine())
    print("== python -m hostsim --headless --game G --rounds %d --seed %d, in-process, CPU time"
          " (start-up not counted), %d runs of each" % (a.rounds, a.seed, a.repeats))
    cal_all = []
    for g in games:
        rs = runs[g]
        cal_all += [r["calibration_s"] for r in rs]
        rate = [a.rounds / r["cpu_s"] for r in rs]
        in_cal = [r["cpu_s"] / a.rounds / r["calibration_s"] for r in rs]
        unit = {"baccarat": "rounds", "craps": "shooters", "omaha": "hands"}[g]
        print("  %-8s %s/s: %s" % (g, unit, sp(rate)))
        print("  %-8s a round in calibration-loop runs: %s" % ("", sp(in_cal, "%.3f")))
        if g == "craps":
            throws = rs[0]["summary"]["throws"]
            print("  %-8s %d throws per run: throws/s %s" % ("", throws, sp([throws / r["cpu_s"] for r in rs], "%.0f")))
    print("  " + benchutil.calibration_line(cal_all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
