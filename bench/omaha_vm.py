# Omaha figures measured on MicroPython itself: RAM kept by the evaluator and the engine,
# a calibration loop, the 10-seat showdown, the engine's showdown and the five-card evaluate() timed side by
# side. Prints "key: value" lines.
# The times (*_us) are microseconds of bench/vmclock.py's clock (bench/table_vm.py's
# too): in the VM
# the CPU time of its process, to the microsecond (up to commit 542baae they were the wall clock's
# time.ticks_us(), which counts whole ms in this port and counts other jobs' load too); on a board
# time.ticks_us(). The figures' names and meaning are unchanged: time taken, in microseconds.
#
# In the MicroPython VM: python -m tools.mpvm --steps bench/omaha_vm.py --copy bench (bench/omaha_eval.py
# does it). --steps runs each part between "# --- next run call ---" lines as its own VM run
# call: in the WebAssembly port a gc.collect() frees nothing allocated during its own call, so
# memory KEPT is measured by collecting in later calls. Every measurement is taken three times,
# each in a call of its own, and the last two must agree (the first call after an import can
# still see some of its garbage), else a ram_unsteady_slot line says so. On a board (mpremote mount . run bench/omaha_vm.py) the file runs as one script.
import gc
import sys

MEM = [0] * 8    # by slot: the latest gc.mem_alloc() after gc.collect()
PREV = [0] * 8   # by slot: the one before, which must agree


def measure(slot):
    gc.collect()
    PREV[slot] = MEM[slot]
    MEM[slot] = gc.mem_alloc()


# --- next run call ---
measure(0)
# --- next run call ---
measure(0)
# --- next run call ---
measure(0)  # baseline: nothing of the firmware
# --- next run call ---
import firmware.cards  # noqa: E402,F401  (the evaluator's imports, not counted)
import firmware.errors  # noqa: E402,F401
import firmware.games  # noqa: E402,F401  (the package itself, not counted either)
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)  # the shared imports
# --- next run call ---
measure(2)  # for comparison, in the same call as the import: counts what compiling it left
from firmware.games.omaha import poker_eval  # noqa: E402,F401
measure(3)
# --- next run call ---
measure(4)
# --- next run call ---
measure(4)
# --- next run call ---
measure(4)  # poker_eval kept
# --- next run call ---
from firmware.games.omaha import hand_value as omaha_hand  # noqa: E402
# --- next run call ---
measure(5)
# --- next run call ---
measure(5)
# --- next run call ---
measure(5)  # omaha_hand kept
# --- next run call ---
from firmware.games.omaha import rules as omaha  # noqa: E402
# --- next run call ---
measure(6)
# --- next run call ---
measure(6)
# --- next run call ---
measure(6)  # the betting engine kept (omaha rules, betting, pots, settings)
# --- next run call ---


def report_ram():
    print("runtime: %s %s" % (sys.implementation.name, sys.platform))
    for slot in (0, 1, 4, 5, 6):
        if MEM[slot] != PREV[slot]:
            print("ram_unsteady_slot_%d: %d" % (slot, MEM[slot] - PREV[slot]))
    print("ram_poker_eval_bytes: %d" % (MEM[4] - MEM[1]))
    print("ram_poker_eval_same_call_bytes: %d" % (MEM[3] - MEM[2]))
    print("ram_omaha_hand_bytes: %d" % (MEM[5] - MEM[4]))
    print("ram_omaha_engine_bytes: %d" % (MEM[6] - MEM[5]))


report_ram()

# The clock of bench/table_vm.py (bench/vmclock.py; imported after the RAM part, so none of it is in
# the heap measured above): in the VM the CPU time of its process, to the microsecond; on a board
# time.ticks_us().
from bench.vmclock import CLOCK, calibrate, clock_overhead_us, diff_us, now_us  # noqa: E402


CALIBRATION_ITERATIONS = 200000
ROUNDS = 11
DEALS = 60
PASSES = 3          # each round times DEALS x PASSES showdowns
ENGINE_HANDS = 40   # per round, all brought to the river's last check, then timed together
FIVE_CARD_HANDS = 500    # poker_eval.evaluate() alone: random five-card hands (decks of their own), each
FIVE_CARD_PASSES = 4     # timed this many times a round (500 tuples: ~16 KB of a board's heap)


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


def us(start):
    return diff_us(now_us(), start)


SETTINGS = omaha.OmahaSettings(structure="pot_limit", small_blind=5, big_blind=10, rake_percent=5,
                               rake_cap_big_blinds=5, odd_chip="croupier", heads_up="no_raise_cap", seats=10)


# Stacks by seat: two short ones go all in on the flop's bet, making two side pots at the showdown
# (bench/table_vm.py's OMAHA_STACKS, so that both benches time the same "showdown with side pots": written
# out, as a board runs this file alone; tests/host/test_bench.py checks that the two agree).
STACKS = ((1, 1000), (2, 1000), (3, 40), (4, 1000), (5, 1000), (6, 55), (7, 1000), (8, 1000), (9, 1000), (10, 1000))
POTS = 3            # the main pot and two side pots: each engine hand is checked to have made them


def at_last_check(seed):
    # A 10-seat hand up to the river's last check, whose act makes the showdown: all call pre-flop; on
    # the flop a full stack (over 100 left) bets 60 and all call (seats 3 and 6 all in for less); then checks.
    d = shuffled(seed)
    hand = omaha.OmahaHand(SETTINGS, 1, list(STACKS))
    bet_made = False
    while True:
        kind, seat = hand.expected()
        if kind == omaha.EXPECT_ACTION:
            legal = hand.legal()
            if hand.street == 3 and seat == hand.seats[hand.n - 1]:
                return hand, seat
            if hand.street == 1 and not bet_made and legal.can_check and hand.stack[hand.to_act] > 100:
                hand.act(seat, "bet", 60)
                bet_made = True
            else:
                hand.act(seat, "check" if legal.can_check else "call")
        else:
            hand.deal(d.pop(0))


def evaluate_all(hands, evaluate=poker_eval.evaluate):
    for h in hands:
        evaluate(h)


def time_rounds():
    deals = []
    for k in range(DEALS):
        d = shuffled(k + 1)
        deals.append(([d[4 * p:4 * p + 4] for p in range(10)], d[40:45]))
    fives = []
    for k in range(FIVE_CARD_HANDS // 10):
        d = shuffled(5000 + k)
        fives.extend([tuple(d[5 * p:5 * p + 5]) for p in range(10)])
    calibrate(1000)
    for r in range(ROUNDS):
        gc.collect()
        t0 = now_us()
        calibrate(CALIBRATION_ITERATIONS)
        cal = us(t0)
        gc.collect()
        t0 = now_us()
        for _ in range(PASSES):
            for holes, board in deals:
                showdown(holes, board)
        sd = us(t0)
        gc.collect()
        t0 = now_us()
        pending = [at_last_check(1000 + k) for k in range(ENGINE_HANDS)]   # deals and actions, legal() each
        play = us(t0)
        gc.collect()
        t0 = now_us()
        for hand, seat in pending:
            hand.act(seat, "check")
        eng = us(t0)
        gc.collect()
        t0 = now_us()
        for _ in range(FIVE_CARD_PASSES):
            evaluate_all(fives)
        five = us(t0)
        for hand, _seat in pending:
            if hand.expected()[0] != omaha.EXPECT_DONE:
                raise RuntimeError("bench hand did not reach the showdown")
            if len(hand.result().pots) != POTS:
                raise RuntimeError("bench hand made %d pots, not %d" % (len(hand.result().pots), POTS))
        print("round %d: calibration_us: %d showdowns: %d showdown_total_us: %d engine_showdowns: %d engine_total_us: %d"
              " hands_played: %d play_total_us: %d actions: %d five_card_hands: %d five_card_total_us: %d"
              % (r, cal, DEALS * PASSES, sd, ENGINE_HANDS, eng, ENGINE_HANDS, play,
                 sum(len(h.history) for h, _s in pending), len(fives) * FIVE_CARD_PASSES, five))
    print("calibration_iterations: %d" % CALIBRATION_ITERATIONS)
    print("clock: %s" % CLOCK)
    print("clock_overhead_us: %d" % clock_overhead_us())


time_rounds()
