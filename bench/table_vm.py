# The whole table on MicroPython, timed: the real controller booted by firmware.startup.boot on fake
# hardware (bench/vmtable.py), each figure from a device's framed line to the report frames built
# (numbered and checksummed in the host link store's RAM), the lights' pixel buffer filled and the
# displays drawn: the table's answer. The host link's turn that follows in the same pass (the frames
# on flash in one record, written to the host port: firmware.main.send_reports) is timed as a figure
# of its own (*_link_us). Prints "key: value" lines and one line per round; bench/whole_table.py runs
# it in the VM and turns them into medians.
#
# Every round times the calibration loop first (the same loop as bench/benchutil.py's), then:
# - baccarat: the last card of a round (its shoe frame read, the result, lights, both LCDs redrawn, the
#   result's reports framed); EVENTS rounds, each timed alone; and the display pass after it, where the
#   scoreboard, which waits a pass behind the LCDs (firmware/main.py, show_outputs), is drawn and shown;
# - craps_bets: one bet reader reading of 50 bets (10 seats x 5 bets): its 12 passes (a line each,
#   fed through the PIO UART's IRQ handler before the pass: not timed), summed; craps_close: the
#   pass that reads CLOSE and places the 50 bets;
# - craps_throw: the throw that resolves those 50 bets (a 7 on the come-out), with lights and reports;
# - omaha: the river's last check of a 10-seat hand with side pots (the ENTER key: showdown, pots,
#   rake, payout, reports, lights, displays);
# - lights: ZoneLights.show() of the board's 76 pixels, all zones changed, and one zone changed (the
#   frame computation; the WS2812 bitstream is wire time, 30 us a pixel, not timed).
# A "pass" is the main loop's input pass and output pass (firmware.main.poll_inputs, refresh_outputs:
# show_outputs, then send_reports); the answer is timed to the end of show_outputs.
# Each event is timed alone. In the WebAssembly port under Node.js (whose ticks_us() counts whole
# ms) the clock is the process's CPU time (process.cpuUsage(), microseconds): a shared machine's
# load then costs the VM time it is not counted for (the wall clock of performance.now() moved
# 8-fold with other jobs running); on a board, time.ticks_us(). The clock's own cost (an empty
# window, clock_overhead_us, a median of 50) is printed; bench/whole_table.py subtracts it.
#
#   .venv/bin/python bench/whole_table.py            (runs this in the VM, a VM run call per round)
# As a plain script (MicroPython elsewhere) the parts below run in one go; not tried on a board.
import gc
import sys

from bench import vmtable
from firmware.drivers import pixels

# firmware.events.BETS (tests/host/test_bench.py checks it): not imported, as a board never imports that code
# table, and bench/memory_vm.py counts every firmware module it finds imported after a boot as the table's.
BETS = 13

CALIBRATION_ITERATIONS = 200000
ROUNDS = 11          # bench/whole_table.py --rounds N replaces this line
EVENTS = 9           # timed events of each kind per round (--events N)

from bench.vmclock import CLOCK, calibrate, now_us  # noqa: E402  (the VM's CPU time; bench/vmclock.py)


LINK_US = []     # each timed pass's host link turn, in us (timed_pass appends; one_round takes them)


def timed_pass(table):
    """One pass (table.one_pass()'s work) in two windows: the table's answer (inputs, dispatch, reports
    made into frames, lights, displays: the issue's figures), returned; then the host link's turn after
    it in the same pass (the frames on flash in one record, out on the port), appended to LINK_US."""
    t0 = now_us()
    table.answer_pass()
    t1 = now_us()
    table.link_pass()
    LINK_US.append(now_us() - t1)
    return t1 - t0


LINKS = {"baccarat": [], "craps_throw": [], "omaha": []}   # the link's turn after each timed answer


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


# -- Baccarat ------------------------------------------------------------------------------------
# Rounds of 4, 5 and 6 cards, dealt in the order they leave the shoe (art. 9): naturals; the
# player stands and the banker draws; both draw. The suits turn every third round, so that no card
# leaves an 8-deck shoe more than 8 times (6 at most in SHOE_ROUNDS + 1 rounds; the burn cards are
# of ranks the rounds do not use).
BACCARAT_ROUNDS = (("9h", "5d", "Kc", "Qs"), ("4c", "2d", "3h", "Ah", "9s"), ("2c", "4h", "3d", "8s", "6h", "Td"))
BURN = ("7c", "7d", "7h", "7s", "Jc", "Jd", "Jh", "Js")
SUITS = "cdhs"
BACCARAT_BETS = [(seat, [("banker", 100), ("player_pair", 5)] if seat % 2 else [("player", 50), ("tie", 10)])
                 for seat in range(1, 8)]
SHOE_ROUNDS = 30     # then the cut card: one more round, a new shoe


def round_cards(k):
    turn = k // 3
    return [code[0] + SUITS[(SUITS.index(code[1]) + turn) % 4] for code in BACCARAT_ROUNDS[k % 3]]


def baccarat_shoe(t):
    t.shoe_frame("IN")
    t.passes(3)
    for code in BURN:                        # art. 2: as many cards burned as decks (8)
        t.card_frame(code)
        t.passes(5, 100)
    t.rounds_in_shoe = 0


def baccarat_round(t, k, timed=True):
    """One round; returns the last card's window in us (0 untimed)."""
    t.bet_reading(BACCARAT_BETS)
    cards = round_cards(k)
    for code in cards[:-1]:
        t.passes(1, 400)                     # a dealer draws every 400 ms (no double pull)
        t.card_frame(code)
        t.passes(1)
    t.passes(1, 400)
    t.card_frame(cards[-1])
    gc.collect()
    elapsed = timed_pass(t) if timed else (t.one_pass() or 0)
    if timed and LINK_US:                    # (a profiling aid's own timed_pass times no link turn)
        LINKS["baccarat"].append(LINK_US.pop())
    if timed:
        SCOREBOARD_US.append(scoreboard_pass(t))
    reports = finish(t)
    if "result" not in _events(reports):
        raise RuntimeError("the last card's pass built no result report: %r" % reports)
    t.rounds_in_shoe += 1
    return elapsed


SCOREBOARD_US = []   # the display pass after each timed Baccarat result (scoreboard_pass)


def scoreboard_pass(t):
    """The pass after a result's, its answer timed as timed_pass() times one (its link turn not): the
    scoreboard, which waited for it, drawn and shown. Checks that it waited and that it was drawn."""
    table = t.ctx.table
    if not table.scoreboard_dirty:
        raise RuntimeError("the result's pass drew the scoreboard: it waits a display pass (firmware/main.py)")
    t0 = now_us()
    t.answer_pass()
    elapsed = now_us() - t0
    t.link_pass()
    if table.scoreboard_dirty:
        raise RuntimeError("the display pass after the result did not draw the scoreboard")
    return elapsed


def finish(t):
    """After a timed window (not timed): the reports written, the rest of a long one's frames too."""
    return t.finish()


def _events(reports):
    return [r["event"] for r in reports]


def baccarat_next(t, k, timed=True):
    """A round, with a new shoe when the last one is closed (the cut card every SHOE_ROUNDS)."""
    if t.rounds_in_shoe == SHOE_ROUNDS:
        t.shoe_frame("CUT")
        t.passes(2)
    elif t.rounds_in_shoe > SHOE_ROUNDS:
        baccarat_shoe(t)
    return baccarat_round(t, k, timed)


# -- Craps ---------------------------------------------------------------------------------------
CRAPS_BETS = [(seat, [("pass", 10), ("field", 10), ("any_seven", 10), ("any_craps", 10), ("hard_6", 10)])
              for seat in range(1, 11)]


def placing_pass(t, into):
    """The CLOSE's pass with only the table's dispatch of the closed reading timed (its BETS event: the 50
    bets checked and placed, their lights' frame rendered), appended to `into`: the issue's "placing those
    50 bets from one bet-reader message". The pass's table journal record before it and its report, link
    record and displays after it are not in this figure (they are in the whole pass's). The timing
    wrapper is the table instance's own attribute for this pass only (its call is not in the figure)."""
    table = t.ctx.table
    plain = table.dispatch

    def dispatch(kind, a, b):
        if kind != BETS:
            return plain(kind, a, b)
        t0 = now_us()
        plain(kind, a, b)
        into.append(now_us() - t0)
    table.dispatch = dispatch
    try:
        t.one_pass()
    finally:
        del table.dispatch


def craps_round(t, timed=True, placing=None):
    """50 bets from one reading, then a 7 on the come-out resolving all of them.
    Returns (all passes of the reading, its CLOSE pass, the throw's pass) in us; with a list `placing`,
    the CLOSE pass times the placing alone into it (placing_pass) and the first two are None."""
    gc.collect()
    total = 0.0
    last = 0.0
    lines = t.bet_lines(CRAPS_BETS)
    for line in lines:
        t.bet_line(line)                     # the IRQ handler's work, as the bytes arrive: not timed
        if placing is not None and line is lines[-1]:
            placing_pass(t, placing)
            total = last = None
            break
        last = timed_pass(t) if timed else (t.one_pass() or 0)
        total += last
    open_bets = len(t.ctx.table.engine.bets)
    reports = finish(t)
    if "bets" not in _events(reports) or open_bets != 50:
        raise RuntimeError("the reading placed %d bets, not 50: %r" % (open_bets, reports))
    t.passes(2)
    t.throw_frame(3, 4)
    gc.collect()
    throw = timed_pass(t) if timed else (t.one_pass() or 0)
    if timed and LINK_US:                    # (a profiling aid's own timed_pass times no link turn)
        LINKS["craps_throw"].append(LINK_US.pop())
    reports = finish(t)
    if "throw" not in _events(reports) or len(t.ctx.table.decided) != 50:
        raise RuntimeError("the throw decided %d bets, not 50: %r" % (len(t.ctx.table.decided), reports))
    t.passes(2)
    return total, last, throw, open_bets


# -- Omaha ---------------------------------------------------------------------------------------

_KEY = {}        # legend -> key index, from the board file's keypad (boards/pico.json)
# Stacks: two short ones go all in on the flop's bet, making two side pots at the showdown.
OMAHA_STACKS = {1: 1000, 2: 1000, 3: 40, 4: 1000, 5: 1000, 6: 55, 7: 1000, 8: 1000, 9: 1000, 10: 1000}


def keys_of(text):
    if not _KEY:
        legends = vmtable.board_keys()
        for i in range(len(legends)):
            if legends[i]:
                _KEY[legends[i]] = i
    out = []
    for word in text.split():
        if word.isdigit():
            out.extend(_KEY[d] for d in word)
        else:
            out.append(_KEY[word])
    return out


def shuffled(seed):
    deck = list(range(52))
    for i in range(51, 0, -1):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        j = seed % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _last_to_act(hand):
    """No one but the seat to act still has a decision on this street: its check ends the hand."""
    b = hand.betting
    for i in range(hand.n):
        if i != hand.to_act and b.needs_action(i):
            return False
    return True


def omaha_hand(t, seed, timed=True, keys=None):
    """A 10-seat hand: stacks keyed, all call pre-flop, a bet of 60 on the flop called by all (two
    short stacks all in: two side pots), checks to the river's last check, which is timed."""
    from firmware import cards
    from firmware.games.omaha import rules
    table = t.ctx.table
    keys = t.keys if keys is None else keys
    for seat in sorted(OMAHA_STACKS):          # (a dict: MicroPython keeps no insertion order)
        if table.stacks[seat] != OMAHA_STACKS[seat]:
            keys(keys_of("%d stack %d enter" % (seat, OMAHA_STACKS[seat])))
    keys(keys_of("new enter"))
    deck = shuffled(seed)
    hand = table.hand
    bet_made = False
    while True:
        kind, seat = hand.expected()
        if kind == rules.EXPECT_ACTION:
            if hand.street == 3 and hand.legal().can_check and _last_to_act(hand):
                break
            legal = hand.legal()
            if hand.street == 1 and not bet_made and legal.can_check and OMAHA_STACKS[seat] >= 1000:
                keys(keys_of("bet 60 enter"))
                bet_made = True
            elif legal.can_check:
                keys(keys_of("check enter"))
            else:
                keys(keys_of("call enter"))
        elif kind == rules.EXPECT_DONE:
            raise RuntimeError("the hand ended before the river's last check")
        else:
            t.card_frame(cards.name(deck.pop()))
            t.passes(1)
    keys(keys_of("check"))
    t.ctx.queue.put(vmtable.KEY, _KEY["enter"], 0)
    gc.collect()
    elapsed = timed_pass(t) if timed else (t.one_pass() or 0)
    if timed and LINK_US:                    # (a profiling aid's own timed_pass times no link turn)
        LINKS["omaha"].append(LINK_US.pop())
    pots = -1
    for report in finish(t):
        if report["event"] == "hand_result":
            pots = len(report["pots"])
    if pots < 0:
        raise RuntimeError("the last check built no hand_result report")
    t.passes(3)
    return elapsed, pots


# -- Lights --------------------------------------------------------------------------------------
def lights_frame(t):
    """ZoneLights.show() with every zone's colour changed (the worst frame), and with one zone's
    (the seat1 zone, 2 pixels: a typical frame); returns the two lists of times."""
    lights = t.ctx.hw.lights
    colours = (pixels.RED, pixels.GREEN)
    every, one = [], []
    seat = lights.index("seat1")
    for k in range(EVENTS):
        lights.set_all(colours[k & 1])
        t0 = now_us()
        lights.show()
        every.append(now_us() - t0)
        lights.set(seat, colours[(k + 1) & 1])
        t0 = now_us()
        lights.show()
        one.append(now_us() - t0)
    return every, one


def clock_overhead():
    xs = []
    for _ in range(50):
        t0 = now_us()
        xs.append(now_us() - t0)
    return median(xs)


TABLES = {}
STATE = {"seed": 1, "k": 0}


def setup():
    print("runtime: %s %s" % (sys.implementation.name, sys.platform))
    print("clock: %s" % CLOCK)
    for game in ("baccarat", "craps", "omaha"):
        TABLES[game] = vmtable.Table(game)
    bac = TABLES["baccarat"]
    baccarat_shoe(bac)
    for k in range(3):
        baccarat_next(bac, k, timed=False)        # warm up
    STATE["k"] = 3
    craps_round(TABLES["craps"], timed=False)
    print("pixels: %d" % bac.ctx.board.pixel_count)
    calibrate(1000)


def one_round(r):
    gc.collect()
    t0 = now_us()
    calibrate(CALIBRATION_ITERATIONS)
    cal = now_us() - t0
    b = []
    for _ in range(EVENTS):
        b.append(baccarat_next(TABLES["baccarat"], STATE["k"]))
        STATE["k"] += 1
    cb, cc, ct, cp = [], [], [], []
    for i in range(EVENTS):
        # every other reading times its placing alone (placing_pass), the others their whole passes
        placing = [] if i % 2 else None
        total, last, throw, open_bets = craps_round(TABLES["craps"], placing=placing)
        if placing is None:
            cb.append(total)
            cc.append(last)
        else:
            cp.extend(placing)
        ct.append(throw)
    om = []
    for _ in range(3):
        elapsed, pots = omaha_hand(TABLES["omaha"], STATE["seed"])
        STATE["seed"] += 1
        om.append(elapsed)
    li, li_one = lights_frame(TABLES["baccarat"])
    print("round %d: calibration_us: %d clock_overhead_us: %.1f baccarat_us: %.0f baccarat_max_us: %.0f "
          "baccarat_link_us: %.0f baccarat_scoreboard_us: %.0f craps_bets_us: %.0f craps_close_us: %.0f craps_placing_us: %.0f craps_throw_us: %.0f "
          "craps_throw_max_us: %.0f craps_throw_link_us: %.0f open_bets: %d omaha_us: %.0f omaha_max_us: %.0f "
          "omaha_link_us: %.0f pots: %d lights_us: %.0f lights_one_zone_us: %.0f"
          % (r, cal, clock_overhead(), median(b), max(b), median(LINKS["baccarat"] or [0]),
             median(SCOREBOARD_US), median(cb), median(cc),
             median(cp), median(ct), max(ct), median(LINKS["craps_throw"] or [0]), open_bets, median(om), max(om),
             median(LINKS["omaha"] or [0]), pots, median(li), median(li_one)))
    for times in LINKS.values():
        times[:] = []
    SCOREBOARD_US[:] = []
    LINK_US[:] = []


def report():
    print("calibration_iterations: %d" % CALIBRATION_ITERATIONS)


# Run as a plain script (MicroPython elsewhere; not tried on a board) the parts below run in one go;
# bench/whole_table.py runs them with tools.mpvm --steps, one VM run call per round: the
# WebAssembly port frees what a call allocated only after that call, so one call for the whole
# bench would grow the heap by every round's garbage (and time the heap's growth).
if __name__ == "__main__":
    setup()
# --- next run call ---
# @rounds-begin
if __name__ == "__main__":
    for _r in range(ROUNDS):
        one_round(_r)
# @rounds-end
# --- next run call ---
if __name__ == "__main__":
    report()
