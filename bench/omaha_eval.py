"""Omaha benchmarks: the evaluator against treys on CPython, and the showdown on MicroPython.

    .venv/bin/python bench/omaha_eval.py                # both parts
    .venv/bin/python bench/omaha_eval.py --skip-vm      # CPython part only

(1) CPython: firmware.games.poker_eval.evaluate and treys' Evaluator on the
    same random five-card hands (card conversion done beforehand, not timed),
    interleaved, best of --repeats runs: hands/s and the ratio.
(2) MicroPython VM (tools/mpvm.py running bench/omaha_vm.py): the evaluator's
    RAM cost by gc.mem_alloc() before/after import, a 10-seat showdown time and
    a calibration loop timed in the same run. The RP2040 figure is an ESTIMATE:
    showdown_vm * (RP2040 calibration time / VM calibration time), with the
    RP2040 calibration time an assumption (--rp2040-us-per-iter) until it is
    measured on a board (run bench/omaha_vm.py there: mpremote mount . run bench/omaha_vm.py).
"""
import argparse
import os
import random
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from firmware import cards  # noqa: E402
from firmware.games import poker_eval  # noqa: E402

# Assumed time per iteration of bench/omaha_vm.py's calibrate() on an RP2040 at
# 125 MHz (MicroPython 1.2x, code in RAM): ~13 bytecodes per iteration at
# roughly 20-40 Cortex-M0+ cycles each. NOT measured here; replace it with the
# board's own figure (calibration_ms / 100) when one is available.
RP2040_US_PER_ITER = 4.0


def cpython_part(n_hands, repeats, seed):
    from treys import Card, Evaluator

    rnd = random.Random(seed)
    hands = [tuple(rnd.sample(range(52), 5)) for _ in range(n_hands)]
    tcard = [Card.new(cards.name(c)) for c in range(52)]
    t_hands = [[tcard[c] for c in h] for h in hands]
    t_split = [(h[:2], h[2:]) for h in t_hands]
    evaluator = Evaluator()
    ours = poker_eval.evaluate
    theirs = evaluator.evaluate
    theirs_five = evaluator._five

    # Same results first: our strength is the mirror of treys' rank.
    for h, (a, b) in zip(hands[:2000], t_split[:2000]):
        if poker_eval.strength(ours(h)) != 7463 - theirs(a, b):
            raise SystemExit("evaluators disagree on %s" % cards.names(h))

    def run_ours():
        t = time.perf_counter()
        for h in hands:
            ours(h)
        return time.perf_counter() - t

    def run_treys():
        t = time.perf_counter()
        for a, b in t_split:
            theirs(a, b)
        return time.perf_counter() - t

    def run_treys_five():
        t = time.perf_counter()
        for h in t_hands:
            theirs_five(h)
        return time.perf_counter() - t

    best = {"ours": None, "treys": None, "treys_five": None}
    for _ in range(repeats):
        for key, fn in (("ours", run_ours), ("treys", run_treys), ("treys_five", run_treys_five)):
            dt = fn()
            if best[key] is None or dt < best[key]:
                best[key] = dt
    rate = {k: n_hands / v for k, v in best.items()}
    print("== CPython %s: %d random five-card hands, best of %d interleaved runs"
          % (sys.version.split()[0], n_hands, repeats))
    print("  firmware poker_eval.evaluate(hand)        %10.0f hands/s" % rate["ours"])
    print("  treys Evaluator.evaluate(hand, board)     %10.0f hands/s   ratio ours/treys %.2f"
          % (rate["treys"], rate["ours"] / rate["treys"]))
    print("  treys Evaluator._five(cards) (internal)   %10.0f hands/s   ratio ours/_five %.2f"
          % (rate["treys_five"], rate["ours"] / rate["treys_five"]))
    return rate


def vm_part(us_per_iter):
    from tools import mpvm

    status, out = mpvm.run_script(os.path.join(REPO, "bench", "omaha_vm.py"), timeout=600)
    if status != 0:
        raise SystemExit("MicroPython run failed:\n" + out)
    fig = {}
    runtime = ""
    for line in out.splitlines():
        if line.startswith("runtime: MicroPython"):
            runtime = line[len("runtime: "):]
        elif ": " in line:
            key, value = line.split(": ", 1)
            if value.lstrip("-").isdigit():
                fig[key] = int(value)
    showdown_ms = fig["showdown_total_ms"] / fig["showdowns"]
    engine_ms = fig["engine_showdown_total_ms"] / fig["engine_showdowns"]
    cal_ms = fig["calibration_ms"]
    rp_cal_ms = us_per_iter * fig["calibration_iterations"] / 1000.0
    scale = rp_cal_ms / cal_ms
    print("== MicroPython VM: %s" % runtime)
    print("  RAM on import (gc.mem_alloc after - before, gc.collect() first):")
    print("    firmware/games/poker_eval.py       %6d bytes  (budget 16384)" % fig["ram_poker_eval_bytes"])
    print("    firmware/games/omaha_hand.py       %6d bytes" % fig["ram_omaha_hand_bytes"])
    print("    omaha engine (omaha, _betting, _pots, _settings) %6d bytes" % fig["ram_omaha_engine_bytes"])
    print("  calibration loop: %d iterations in %d ms (%.2f us/iteration)"
          % (fig["calibration_iterations"], cal_ms, 1000.0 * cal_ms / fig["calibration_iterations"]))
    print("  10-seat showdown (prepare board, 10 x best of 60, winners): %.2f ms  (%d showdowns in %d ms)"
          % (showdown_ms, fig["showdowns"], fig["showdown_total_ms"]))
    print("  engine showdown incl. pots, rake, payout (last river check): %.2f ms  (%d hands)"
          % (engine_ms, fig["engine_showdowns"]))
    print("== RP2040 ESTIMATE (assumed %.1f us/calibration iteration => %.0f ms for the loop; scale x%.1f)"
          % (us_per_iter, rp_cal_ms, scale))
    print("  10-seat showdown ~ %.1f ms;  engine showdown ~ %.1f ms" % (showdown_ms * scale, engine_ms * scale))
    return fig


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300000, help="random five-card hands (default 300000)")
    ap.add_argument("--repeats", type=int, default=7, help="interleaved runs, best kept (default 7)")
    ap.add_argument("--seed", type=int, default=2010)
    ap.add_argument("--skip-vm", action="store_true", help="CPython part only")
    ap.add_argument("--rp2040-us-per-iter", type=float, default=RP2040_US_PER_ITER,
                    help="RP2040 time per calibration iteration (default %.1f: an assumption)" % RP2040_US_PER_ITER)
    a = ap.parse_args(argv)
    cpython_part(a.hands, a.repeats, a.seed)
    if not a.skip_vm:
        vm_part(a.rp2040_us_per_iter)
    return 0


if __name__ == "__main__":
    sys.exit(main())
