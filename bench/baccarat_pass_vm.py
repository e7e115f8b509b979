# The Baccarat last card's pass alone (bench/table_vm.py's: the same table, rounds and timed pass), in a
# VM run of ~2 s, for A/B runs of two trees alternated many times on a noisy machine (bench/whole_table.py
# times every game and takes ~25 s a run). Prints one line: the median pass in calibration-loop
# iterations (the loop timed before each 8 rounds), its middle half, and the loop's us an iteration.
#
#   .venv/bin/python -m tools.mpvm --steps bench/baccarat_pass_vm.py --copy bench
#   for i in $(seq 15); do for w in ../base .; do (cd $w && .venv/bin/python -m tools.mpvm \
#       --steps bench/baccarat_pass_vm.py --copy bench | tail -1); done; done       (15 pairs)
import gc

from bench import table_vm as tv
from bench.vmclock import now_us

_CALIBRATION = 100000
PASSES = []        # each timed pass over its round's calibration: iterations
US_PER_ITERATION = []


def setup():
    table = tv.TABLES["baccarat"] = tv.vmtable.Table("baccarat")
    tv.baccarat_shoe(table)
    for k in range(3):
        tv.baccarat_next(table, k, timed=False)       # warm up


def rounds(k0, n):
    t0 = now_us()
    tv.calibrate(_CALIBRATION)
    us = (now_us() - t0) / _CALIBRATION
    US_PER_ITERATION.append(us)
    for k in range(k0, k0 + n):
        gc.collect()
        PASSES.append(tv.baccarat_next(tv.TABLES["baccarat"], k) / us)


def report():
    xs = sorted(PASSES)
    n = len(xs)
    print("baccarat last card: median %.0f it (middle half %.0f-%.0f, %d passes), %.3f us/it"
          % (xs[n // 2], xs[n // 4], xs[3 * n // 4], n, sorted(US_PER_ITERATION)[len(US_PER_ITERATION) // 2]))


setup()
# --- next run call ---
rounds(3, 8)
# --- next run call ---
rounds(11, 8)
# --- next run call ---
rounds(19, 8)
# --- next run call ---
rounds(27, 4)
# --- next run call ---
report()
