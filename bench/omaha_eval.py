"""Omaha benchmarks: the evaluator against treys on CPython, and the showdown on MicroPython.

    .venv/bin/python bench/omaha_eval.py                # both parts
    .venv/bin/python bench/omaha_eval.py --skip-vm      # CPython part only

(1) CPython (bench/eval_treys.py, its five-card part):
    firmware.games.omaha.poker_eval.evaluate and treys' Evaluator on the
    same random five-card hands (card conversion done beforehand, not timed),
    side by side in blocks of 5,000 hands, each block also timing the
    calibration loop of bench/benchutil.py, in CPU time: medians over every
    block of --repeats rounds (and the middle half), so load on a shared
    machine hits both sides alike.
(2) MicroPython VM (python -m tools.mpvm --steps bench/omaha_vm.py --copy bench): RAM kept
    by the evaluator and the engine (gc.collect() in a later VM run call), and
    the 10-seat showdown with a calibration loop timed in the same rounds. The
    RP2040 figure is an ESTIMATE: showdown_vm * (RP2040 calibration time / VM
    calibration time), the RP2040 calibration time being an assumption
    (--rp2040-us-per-iter) until measured on a board
    (mpremote mount . run bench/omaha_vm.py).
(3) MicroPython's Unix port (tools/mpunix.py: x86-64 native code): a board runs the showdown's pair as
    viper code (firmware/games/omaha/hand_value_viper.py), which the VM cannot: bench/omaha_vm.py run
    with the plain pair as bytecode and with the viper pair, alternated (bench/native_unix.py's
    variants), and the RP2040 estimate with it, by the VM's proportions (its bytecode iterations times
    the port's viper / bytecode ratio) and by the port's own (its viper iterations).
"""
import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402

# Assumed time per iteration of the calibration loop on an RP2040 at 125 MHz
# (MicroPython 1.2x, code in RAM): ~13 bytecodes per iteration at roughly 20-40
# Cortex-M0+ cycles each, i.e. 2-4 us. NOT measured; replace it with the board's
# own figure (calibration_us / calibration_iterations) when one is available.
RP2040_US_PER_ITER = 4.0
SHOWDOWN_TARGET_MS = 10.0


def cpython_part(n_hands, repeats, seed):
    """The evaluator against treys: bench/eval_treys.py (five-card part)."""
    from bench import eval_treys
    return eval_treys.five_card(n_hands, repeats, seed)


def _vm_figures(out):
    fig = {}
    rounds = []
    runtime = ""
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
    return runtime, fig, rounds


def vm_part(us_per_iter):
    from tools import mpvm

    status, out = mpvm.run_steps(os.path.join(REPO, "bench", "omaha_vm.py"), timeout=600,
                                 copies=mpvm.DEFAULT_COPIES + ("bench",))
    if status != 0:
        raise SystemExit("MicroPython run failed:\n" + out)
    runtime, fig, rounds = _vm_figures(out)
    med = benchutil.median
    iters = fig["calibration_iterations"]
    cal_ms = [r["calibration_us"] / 1000.0 for r in rounds]
    sd_ms = [r["showdown_total_us"] / 1000.0 / r["showdowns"] for r in rounds]
    eng_ms = [r["engine_total_us"] / 1000.0 / r["engine_showdowns"] for r in rounds]
    # Each round's showdown time in calibration iterations: the host's speed cancels out.
    sd_iters = [1000.0 * s / (c * 1000.0 / iters) for s, c in zip(sd_ms, cal_ms)]
    eng_iters = [1000.0 * e / (c * 1000.0 / iters) for e, c in zip(eng_ms, cal_ms)]
    print("== MicroPython VM: %s, bench/omaha_vm.py run with tools.mpvm --steps" % runtime)
    for key in sorted(fig):
        if key.startswith("ram_unsteady"):
            print("  WARNING %s: %d (the last two measurements differ)" % (key, fig[key]))
    print("  RAM kept (gc.collect() + gc.mem_alloc() in a later VM run call than the import):")
    print("    firmware/games/omaha/poker_eval.py       %6d bytes  (budget 16384; %d counted in the import's own call)"
          % (fig["ram_poker_eval_bytes"], fig["ram_poker_eval_same_call_bytes"]))
    print("    firmware/games/omaha/hand_value.py       %6d bytes" % fig["ram_omaha_hand_bytes"])
    print("    omaha engine (omaha, _betting, _pots, _settings) %6d bytes" % fig["ram_omaha_engine_bytes"])
    sp = benchutil.spread
    print("  %d rounds, each timing the calibration loop, then the showdowns (CPU time of the VM's process,"
          " us)" % len(rounds))
    print("  calibration loop, %d iterations, ms: %s; %.2f us/iteration"
          % (iters, sp(cal_ms, "%.0f"), 1000.0 * med(cal_ms) / iters))
    print("  10-seat showdown (prepare board, 10 x best of 60, winners), %d per round:" % rounds[0]["showdowns"])
    print("    ms: %s" % sp(sd_ms))
    print("    in calibration iterations: %s" % sp(sd_iters, "%.0f"))
    print("  engine showdown with side pots (3 pots), rake, payout (the river's last check), %d per round:"
          % rounds[0]["engine_showdowns"])
    print("    ms: %s" % sp(eng_ms))
    print("    in calibration iterations: %s" % sp(eng_iters, "%.0f"))
    play_ms = [r["play_total_us"] / 1000.0 / r["hands_played"] for r in rounds]
    play_iters = [1000.0 * m / (c * 1000.0 / iters) for m, c in zip(play_ms, cal_ms)]
    print("  a 10-seat hand dealt and played (check or call, a bet of 60 on the flop, legal() before each act) to"
          " the river's last check,"
          " %d actions:" % (rounds[0]["actions"] // rounds[0]["hands_played"]))
    print("    ms: %s" % sp(play_ms))
    print("    in calibration iterations: %s" % sp(play_iters, "%.0f"))
    five_us = [1.0 * r["five_card_total_us"] / r["five_card_hands"] for r in rounds]
    five_iters = [f / (c * 1000.0 / iters) for f, c in zip(five_us, cal_ms)]
    print("  five-card poker_eval.evaluate(hand), %d a round (random hands):" % rounds[0]["five_card_hands"])
    print("    us a hand: %s" % sp(five_us, "%.3f"))
    print("    in calibration iterations: %s" % sp(five_iters, "%.2f"))
    print("== RP2040 ESTIMATE, not a measurement: ASSUMING %.1f us per calibration iteration on the board"
          % us_per_iter)
    print("  10-seat showdown ~ %.1f ms;  engine showdown with side pots ~ %.1f ms"
          % (med(sd_iters) * us_per_iter / 1000.0, med(eng_iters) * us_per_iter / 1000.0))
    print("  under %.0f ms if the board runs the loop at under %.1f us/iteration (the showdown), %.1f (with side pots)"
          % (SHOWDOWN_TARGET_MS, SHOWDOWN_TARGET_MS * 1000.0 / med(sd_iters),
             SHOWDOWN_TARGET_MS * 1000.0 / med(eng_iters)))
    print("  (all of it bytecode, as the VM runs it: a board runs the showdown's pair as viper code, next)")
    return fig, med(sd_iters), med(eng_iters)


def native_part(us_per_iter, vm_sd_iters, vm_eng_iters, runs=2):
    """A board runs hand_value_viper's showdown (viper code), which the VM cannot run: bench/omaha_vm.py on
    MicroPython's Unix port (x86-64 native code), the plain pair as bytecode and the viper pair alternated
    (bench/native_unix.py's variants), and the RP2040 estimate by each port's proportions."""
    from bench import native_unix
    from tools import mpunix
    import tempfile
    try:
        port = mpunix.version()
    except mpunix.UnixPortUnavailable as exc:
        print("== MicroPython Unix port: not run (%s)" % exc)
        return None
    results = {"bytecode": [], "viper": []}
    with tempfile.TemporaryDirectory(prefix="omaha-eval-") as tmp:
        plain = native_unix.plain_tree(tmp, [])
        for _ in range(runs):
            for variant, path in (("bytecode", (plain,)), ("viper", ())):
                results[variant] += native_unix.one_run(path)[0]
    s = {v: native_unix.summary(results[v]) for v in results}
    print("== MicroPython Unix port (%s): bench/omaha_vm.py, %d runs of each, alternated; calibration iterations,"
          " medians of %d rounds" % (port, runs, s["viper"]["rounds"]))
    for v, words in (("bytecode", "the plain pair as bytecode (a port without native code)"),
                     ("viper", "hand_value_viper's pair (a board's)")):
        print("  %-8s %s: 10-seat showdown %.0f, engine showdown with side pots %.0f"
              % (v, words, s[v]["showdown_it"], s[v]["engine_showdown_it"]))
    sd_ratio = s["viper"]["showdown_it"] / s["bytecode"]["showdown_it"]
    eng_ratio = s["viper"]["engine_showdown_it"] / s["bytecode"]["engine_showdown_it"]
    print("  viper / bytecode: 10-seat showdown %.3f, engine showdown %.3f" % (sd_ratio, eng_ratio))
    print("== RP2040 ESTIMATE with the viper showdown, not a measurement: ASSUMING %.1f us per calibration"
          " iteration on the board, and the Unix port's viper / bytecode ratios for Thumb code" % us_per_iter)
    print("  by the VM's proportions (its bytecode iterations x the ratio): 10-seat showdown ~ %.1f ms;"
          " engine showdown with side pots ~ %.1f ms"
          % (vm_sd_iters * sd_ratio * us_per_iter / 1000.0, vm_eng_iters * eng_ratio * us_per_iter / 1000.0))
    print("  by the Unix port's proportions (its viper iterations): 10-seat showdown ~ %.1f ms;"
          " engine showdown with side pots ~ %.1f ms"
          % (s["viper"]["showdown_it"] * us_per_iter / 1000.0, s["viper"]["engine_showdown_it"] * us_per_iter / 1000.0))
    return s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300000, help="random five-card hands (default 300000)")
    ap.add_argument("--repeats", type=int, default=5, help="rounds over all the hands, block by block (default 5)")
    ap.add_argument("--seed", type=int, default=2010)
    ap.add_argument("--skip-vm", action="store_true", help="CPython part only")
    ap.add_argument("--rp2040-us-per-iter", type=float, default=RP2040_US_PER_ITER,
                    help="RP2040 time per calibration iteration (default %.1f: an assumption)" % RP2040_US_PER_ITER)
    a = ap.parse_args(argv)
    cpython_part(a.hands, a.repeats, a.seed)
    if not a.skip_vm:
        _, sd_iters, eng_iters = vm_part(a.rp2040_us_per_iter)
        native_part(a.rp2040_us_per_iter, sd_iters, eng_iters)
    return 0


if __name__ == "__main__":
    sys.exit(main())
