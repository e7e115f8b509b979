# Craps engine figures measured on MicroPython itself: RAM kept by the engine and per open bet,
# and the time per roll with a full layout, timed in the same rounds as a calibration loop.
# Prints "key: value" lines. The times (*_us) are microseconds of bench/vmclock.py's clock
# (bench/table_vm.py's too): in the VM the CPU time of its process, to the microsecond (up to commit 542baae
# they were the wall clock's time.ticks_us(), which counts whole ms in this port, so a 0.15 ms
# seven-out read 0 or 1000 us a time, and counts other jobs' load too); on a board time.ticks_us().
# The figures' names and meaning are unchanged: time taken, in microseconds.
#
# In the MicroPython VM: python -m tools.mpvm --steps bench/craps_vm.py --copy bench (bench/craps_odds.py --vm
# does it). --steps runs each part between "# --- next run call ---" lines as its own VM run call:
# in the WebAssembly port a gc.collect() frees nothing allocated during its own call, so memory
# KEPT is measured by collecting in later calls, three times, the last two of which must agree
# (else a ram_unsteady_slot line says so). On a board (mpremote mount . run bench/craps_vm.py)
# the file runs as one script.
import gc
import sys

MEM = [0] * 8    # by slot: the latest gc.mem_alloc() after gc.collect()
PREV = [0] * 8   # by slot: the one before, which must agree


def measure(slot):
    gc.collect()
    PREV[slot] = MEM[slot]
    MEM[slot] = gc.mem_alloc()


# --- next run call ---
import firmware.errors  # noqa: E402,F401  (shared imports, not counted)
import firmware.compat  # noqa: E402,F401
import firmware.games  # noqa: E402,F401  (the package itself, not counted either)
# --- next run call ---
measure(0)
# --- next run call ---
measure(0)
# --- next run call ---
measure(0)  # the shared imports
# --- next run call ---
from firmware.games.craps import rules as craps  # noqa: E402
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)  # the engine: craps.rules, bets, dice, settings
# --- next run call ---
SETTINGS = {"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "off_on_come_out": [],
            "take_down": [], "shooter_change_on_come_out_craps": False, "max_open_bets": 256}
KINDS = (("field", 0), ("any_seven", 0), ("any_craps", 0), ("horn", 0), ("big", 0), ("small", 0),
         ("hard", 4), ("hard", 6), ("hard", 8), ("hard", 10), ("big_number", 4), ("big_number", 5),
         ("big_number", 6), ("big_number", 8), ("big_number", 9), ("big_number", 10))
BET_SEATS = 8
TABLE = craps.CrapsTable(SETTINGS)
# --- next run call ---
measure(2)
# --- next run call ---
measure(2)
# --- next run call ---
measure(2)  # a table, no bets
# --- next run call ---
for _seat in range(BET_SEATS):
    for _kind, _number in KINDS:
        TABLE.place_bet(_seat, _kind, 60, _number)
# --- next run call ---
measure(3)
# --- next run call ---
measure(3)
# --- next run call ---
measure(3)  # the same table with BET_SEATS x len(KINDS) open bets
# --- next run call ---


def report_ram():
    print("runtime: %s %s" % (sys.implementation.name, sys.platform))
    for slot in range(4):
        if MEM[slot] != PREV[slot]:
            print("ram_unsteady_slot_%d: %d" % (slot, MEM[slot] - PREV[slot]))
    bets = BET_SEATS * len(KINDS)
    if len(TABLE.bets) != bets:
        raise RuntimeError("bench table holds %d bets, not %d" % (len(TABLE.bets), bets))
    print("ram_craps_engine_bytes: %d" % (MEM[1] - MEM[0]))
    print("ram_craps_table_bytes: %d" % (MEM[2] - MEM[1]))
    print("open_bets: %d" % bets)
    print("ram_per_open_bet_bytes: %d" % ((MEM[3] - MEM[2]) // bets))


report_ram()

# The clock of bench/table_vm.py (bench/vmclock.py; imported after the RAM part, so none of it is in
# the heap measured above): in the VM the CPU time of its process, to the microsecond; on a board
# time.ticks_us().
from bench.vmclock import CLOCK, calibrate, clock_overhead_us, diff_us, now_us  # noqa: E402


CALIBRATION_ITERATIONS = 200000
ROUNDS = 11
ROLLS = 100
SEATS = 4


def dice_stream(n):
    seed = 12345
    out = []
    for _ in range(n):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        a = (seed >> 16) % 6 + 1
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((a, (seed >> 16) % 6 + 1))
    return out


def run(rolls, seats):
    # Every roll: each seat bets pass when the puck is off and one of each KINDS; then the roll.
    # placed counts the bets the engine accepted (it refuses some, e.g. beyond max_open_bets).
    t = craps.CrapsTable(SETTINGS)
    stream = dice_stream(rolls)
    gc.collect()
    start = now_us()
    placed = 0
    decided = 0
    for d in stream:
        for seat in range(seats):
            if t.point == 0:
                placed += t.place_bet(seat, "pass", 10)[1] is None
            for kind, number in KINDS:
                placed += t.place_bet(seat, kind, 60, number)[1] is None
        decided += len(t.roll(d))
    return diff_us(now_us(), start), placed, decided


PLACE_BETS = 50   # bets placed on a table whose point is on, then decided by one seven-out
PLACE_REPS = 60   # times per round (as many as when the VM's clock counted whole ms)


def place_and_seven_out(reps):
    # PLACE_BETS bets (4 seats, KINDS in turn) on a fresh table with the point on, then a seven-out
    # deciding every one of them (the multi-roll ones lose, the one-roll ones lose or win).
    bets = []
    for i in range(PLACE_BETS):
        bets.append((i % SEATS,) + KINDS[(i // SEATS) % len(KINDS)])
    place_us = 0
    seven_us = 0
    decided = 0
    for _ in range(reps):
        t = craps.CrapsTable(SETTINGS)
        t.roll((2, 2))
        gc.collect()
        start = now_us()
        for seat, kind, number in bets:
            t.place_bet(seat, kind, 60, number)
        mid = now_us()
        decided += len(t.roll((3, 4)))
        end = now_us()
        place_us += diff_us(mid, start)
        seven_us += diff_us(end, mid)
    if decided != reps * PLACE_BETS or not t.seven_out:
        raise RuntimeError("seven-out decided %d bets, not %d" % (decided, reps * PLACE_BETS))
    return place_us, seven_us


def time_rounds():
    calibrate(1000)
    for r in range(ROUNDS):
        gc.collect()
        t0 = now_us()
        calibrate(CALIBRATION_ITERATIONS)
        cal = diff_us(now_us(), t0)
        elapsed, placed, decided = run(ROLLS, SEATS)
        place_us, seven_us = place_and_seven_out(PLACE_REPS)
        print("round %d: calibration_us: %d rolls: %d rolls_total_us: %d placed: %d decided: %d"
              " place_reps: %d place50_total_us: %d seven_out_total_us: %d"
              % (r, cal, ROLLS, elapsed, placed, decided, PLACE_REPS, place_us, seven_us))
    print("calibration_iterations: %d" % CALIBRATION_ITERATIONS)
    print("clock: %s" % CLOCK)
    print("clock_overhead_us: %d" % clock_overhead_us())


time_rounds()
