# Baccarat automatic shuffler-dealer (art. 7(2)): a round on a shoe that is refilled before every
# round, timed against the calibration loop of bench/benchutil.py in the same rounds. Runs on both:
#   .venv/bin/python bench/shoe_refill.py                         (CPython, CPU time)
#   .venv/bin/python -m tools.mpvm --script bench/shoe_refill.py  (MicroPython VM, wall clock)
# Prints the median over 9 rounds of one round's time (start_round with its refill, 4 cards,
# end_round) in calibration-loop iterations, then every round's figure.
import sys
import time

if sys.implementation.name != "micropython":
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from firmware.games.baccarat import shoe as S  # noqa: E402
from firmware.games.baccarat.settings import load_settings  # noqa: E402

CALIBRATION_ITERATIONS = 100000
ROUNDS_PER_RUN = 1000
RUNS = 9
SETTINGS = {"method": 1, "commission": "A", "tie_option": "returned", "decks": 8, "burn": "decks",
            "cut_card": "last_round", "demo_rounds": 3, "dealer": "auto_shuffler", "burn_each_round": False}
ROUND = (35, 18, 47, 1)   # 9h 5d Kc 2s: Player 9 against Banker 7, four cards


def calibrate(n):
    # The reference loop; identical to bench/benchutil.py's.
    t = (1, 2, 4, 8)
    x = 0
    for i in range(n):
        x = (x + t[i & 3]) ^ i
    return x


if hasattr(time, "ticks_us"):
    def now():
        return time.ticks_us()

    def since(start):
        return time.ticks_diff(time.ticks_us(), start)
else:
    def now():
        return time.process_time()

    def since(start):
        return (time.process_time() - start) * 1e6


def rounds(shoe, n):
    for _ in range(n):
        shoe.start_round(False)
        for c in ROUND:
            shoe.deal(c)
        shoe.end_round()


def main():
    shoe = S.Shoe(load_settings(SETTINGS))
    rounds(shoe, 10)
    res = []
    for _ in range(RUNS):
        t0 = now()
        calibrate(CALIBRATION_ITERATIONS)
        cal = since(t0)
        t0 = now()
        rounds(shoe, ROUNDS_PER_RUN)
        took = since(t0)
        res.append(took * CALIBRATION_ITERATIONS / ROUNDS_PER_RUN / cal)
    res.sort()
    print("%s: auto-shuffler round (start_round with its refill, 4 cards, end_round) in calibration iterations:"
          " median %.0f (%s)" % (sys.implementation.name, res[RUNS // 2], " ".join("%.0f" % x for x in res)))


main()
