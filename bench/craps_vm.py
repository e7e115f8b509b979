# Craps engine figures measured on MicroPython itself: RAM of the engine, rolls/s with a full layout.
#
# Runs in the MicroPython VM (python3 -m tools.mpvm --script bench/craps_vm.py, which
# bench/craps_odds.py --vm does) or on a board with firmware/ on it. Prints "key: value" lines.
import gc
import sys
import time

gc.collect()
import firmware.errors  # noqa: E402,F401  (shared imports, not counted)
import firmware.compat  # noqa: E402,F401
gc.collect()
_base = gc.mem_alloc()
from firmware.games import craps  # noqa: E402
gc.collect()
_engine = gc.mem_alloc()

print("runtime: %s %s" % (sys.implementation.name, sys.platform))
print("ram_craps_engine_bytes: %d" % (_engine - _base))

SETTINGS = {"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "off_on_come_out": [],
            "take_down": [], "shooter_change_on_come_out_craps": False, "max_open_bets": 256}
KINDS = (("field", 0), ("any_seven", 0), ("any_craps", 0), ("horn", 0), ("big", 0), ("small", 0),
         ("hard", 4), ("hard", 6), ("hard", 8), ("hard", 10), ("big_number", 4), ("big_number", 5),
         ("big_number", 6), ("big_number", 8), ("big_number", 9), ("big_number", 10))


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
    t = craps.CrapsTable(SETTINGS)
    stream = dice_stream(rolls)
    gc.collect()
    start = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)
    decided = 0
    for d in stream:
        for seat in range(seats):
            if t.point == 0:
                t.place_bet(seat, "pass", 10)
            for kind, number in KINDS:
                t.place_bet(seat, kind, 60, number)
        decided += len(t.roll(d))
    end = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)
    return end - start, decided, len(t.bets)


gc.collect()
before = gc.mem_alloc()
t = craps.CrapsTable(SETTINGS)
for seat in range(8):
    for kind, number in KINDS:
        t.place_bet(seat, kind, 60, number)
gc.collect()
print("ram_per_open_bet_bytes: %d" % ((gc.mem_alloc() - before) // (8 * len(KINDS))))
ms, decided, left = run(500, 4)
print("rolls: 500, seats: 4, bets placed/roll up to: %d, decided: %d" % (4 * (len(KINDS) + 1), decided))
print("engine_ms_per_roll_incl_placing_bets: %.2f" % (ms / 500.0))
