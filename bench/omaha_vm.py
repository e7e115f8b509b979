# Omaha figures measured on MicroPython itself: evaluator RAM, calibration loop, 10-seat showdown time.
#
# Runs in the MicroPython VM (python3 -m tools.mpvm --script bench/omaha_vm.py,
# which bench/omaha_eval.py does) or on a real board with firmware/ on it
# (mpremote mount . run bench/omaha_vm.py). Prints "key: value" lines.
import gc
import sys
import time

gc.collect()
_before = gc.mem_alloc()
import firmware.cards  # noqa: E402,F401  (the evaluator's imports, not counted)
import firmware.errors  # noqa: E402,F401
import firmware.games  # noqa: E402,F401  (the package itself, not counted either)
gc.collect()
_base = gc.mem_alloc()
from firmware.games import poker_eval  # noqa: E402,F401
gc.collect()
_eval = gc.mem_alloc()
from firmware.games import omaha_hand  # noqa: E402
gc.collect()
_hand = gc.mem_alloc()
from firmware.games import omaha  # noqa: E402
gc.collect()
_engine = gc.mem_alloc()

print("runtime: %s %s" % (sys.implementation.name, sys.platform))
print("ram_poker_eval_bytes: %d" % (_eval - _base))
print("ram_omaha_hand_bytes: %d" % (_hand - _eval))
print("ram_omaha_engine_bytes: %d" % (_engine - _hand))

CALIBRATION_ITERATIONS = 100000


def calibrate(n):
    # The reference loop: the RP2040 time per iteration of exactly this
    # function scales the showdown time (docs/performance.md).
    t = (1, 2, 4, 8)
    x = 0
    for i in range(n):
        x = (x + t[i & 3]) ^ i
    return x


def shuffled(seed):
    deck = list(range(52))
    for i in range(51, 0, -1):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        j = seed % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def showdown(holes, board):
    # Art. 10(1)-(2): every seat's best hand, then the winners of the pot.
    prepared = omaha_hand.prepare_board(board)
    best = -1
    winners = []
    for i in range(len(holes)):
        v = omaha_hand.best_value(holes[i], prepared)
        if v > best:
            best = v
            winners = [i]
        elif v == best:
            winners.append(i)
    return winners


def ms(start):
    return time.ticks_diff(time.ticks_ms(), start)


DEALS = 60
deals = []
for k in range(DEALS):
    d = shuffled(k + 1)
    deals.append(([d[4 * p:4 * p + 4] for p in range(10)], d[40:45]))

calibrate(1000)
best_cal = None
best_sd = None
for _ in range(7):
    gc.collect()
    t0 = time.ticks_ms()
    calibrate(CALIBRATION_ITERATIONS)
    cal = ms(t0)
    gc.collect()
    t0 = time.ticks_ms()
    for holes, board in deals:
        showdown(holes, board)
    sd = ms(t0)
    if best_cal is None or cal < best_cal:
        best_cal = cal
    if best_sd is None or sd < best_sd:
        best_sd = sd
print("calibration_iterations: %d" % CALIBRATION_ITERATIONS)
print("calibration_ms: %d" % best_cal)
print("showdowns: %d" % DEALS)
print("showdown_total_ms: %d" % best_sd)

# The same through the engine: the river's last check triggers showdown, pots and payout.
settings = omaha.OmahaSettings(structure="pot_limit", small_blind=5, big_blind=10, rake_percent=5,
                               rake_cap_big_blinds=5, odd_chip="croupier", heads_up="no_raise_cap", seats=10)
HANDS = 20
total = 0
for k in range(HANDS):
    d = shuffled(1000 + k)
    hand = omaha.OmahaHand(settings, 1, [(s, 1000) for s in range(1, 11)])
    while True:
        kind, seat = hand.expected()
        if kind == omaha.EXPECT_ACTION:
            legal = hand.legal()
            last = hand.street == 3 and seat == hand.seats[hand.n - 1]
            if last:
                gc.collect()
                t0 = time.ticks_ms()
            hand.act(seat, "check" if legal.can_check else "call")
            if last:
                total += ms(t0)
                break
        else:
            hand.deal(d.pop(0))
    if hand.expected()[0] != omaha.EXPECT_DONE:
        raise RuntimeError("bench hand did not reach the showdown")
print("engine_showdowns: %d" % HANDS)
print("engine_showdown_total_ms: %d" % total)
