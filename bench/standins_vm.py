# Profiling aid, not a bench: how much of bench/table_vm.py's timed passes is the bench's own stand-ins
# for hardware (bench/vmtable.py's UART, USB console and strip, tests.firmware.fakes' pins, I2C bus,
# watchdog and PIO state machine). They are Python here; on a board each is a C function of the port
# (machine.Pin.value, machine.I2C.writeto, the UART's ring copies...), so their Python is time a
# board does not spend, though their C is (not measured here: no board). Each call inside a timed
# pass is timed in a wrapper, less the clock's own cost (an empty window); a call the wrapper does
# not see (one outside the timed pass) is not counted. Prints, per figure, the calls a pass makes
# and their median time, and the sum: a pass's stand-ins' time (an estimate: +-1 us a call).
#
#   .venv/bin/python -c "from bench import whole_table as w; print(w.run_vm('standins_vm.py', steps=True))"
import gc

from bench import table_vm as tv
from bench import vmtable

ROUNDS = 3                  # per VM run call; 2 run calls
now = tv.now_us
SEEN = {}                   # label -> [durations] of the pass being timed
PASSES = {}                 # figure -> [(pass us, {label: [durations]})]
FIGURE = [None]


def _wrap(owner, name, label):
    plain = getattr(owner, name)

    def timed(*args):
        if FIGURE[0] is None:
            return plain(*args)
        t0 = now()
        result = plain(*args)
        SEEN.setdefault(label, []).append(now() - t0)
        return result
    setattr(owner, name, timed)


def _timed_pass(t, plain=tv.timed_pass):
    name = NAME[0]
    if name == "craps":                      # a reading's 12 line passes, its last the CLOSE, then the throw
        k = CRAPS_PASS[0]
        CRAPS_PASS[0] = k + 1
        name = "craps CLOSE" if k == 11 else "craps throw" if k == 12 else "craps reading line"
    SEEN.clear()
    FIGURE[0] = name
    us = plain(t)
    FIGURE[0] = None
    PASSES.setdefault(name, []).append((us, dict((k, list(v)) for k, v in SEEN.items())))
    return us


NAME = [None]
CRAPS_PASS = [0]
FIGURES = ("baccarat last card", "craps CLOSE", "craps throw", "craps reading line", "omaha last check")


def setup():
    tv.setup()
    for game, t in tv.TABLES.items():
        machine = t.machine
        _wrap(machine.Pin, "value", "Pin.value")
        _wrap(machine.I2C, "writeto", "I2C.writeto")
        _wrap(machine.WDT, "feed", "WDT.feed")
    for name in ("write", "readinto", "any"):
        _wrap(vmtable.BenchUART, name, "UART." + name)
        _wrap(vmtable.BenchUSB, name, "USB." + name)
    _wrap(vmtable.Strip, "write", "Strip.write")
    _wrap(vmtable.Strip, "__setitem__", "Strip[i] =")
    state_machine = type(tv.TABLES["craps"].bets_sm)
    for name in ("rx_fifo", "get", "put", "tx_fifo"):
        if hasattr(state_machine, name):
            _wrap(state_machine, name, "StateMachine." + name)
    tv.timed_pass = _timed_pass


def rounds(n):
    for _ in range(n):
        NAME[0] = "baccarat last card"
        tv.baccarat_next(tv.TABLES["baccarat"], tv.STATE["k"])
        tv.STATE["k"] += 1
        NAME[0] = "craps"
        CRAPS_PASS[0] = 0
        tv.craps_round(tv.TABLES["craps"])
        NAME[0] = "omaha last check"
        tv.omaha_hand(tv.TABLES["omaha"], tv.STATE["seed"])
        tv.STATE["seed"] += 1
        gc.collect()


def report():
    clock = tv.clock_overhead()
    print("clock's own cost: %.1f us a window (taken from each call)" % clock)
    for figure in FIGURES:
        rows = PASSES.get(figure, ())
        calls = {}
        for _, seen in rows:
            for label, durations in seen.items():
                calls.setdefault(label, []).extend(durations)
        total = 0.0
        parts = []
        for label in sorted(calls):
            durations = sorted(calls[label])
            each = max(durations[len(durations) // 2] - clock, 0.0)
            per_pass = len(durations) / len(rows)
            total += each * per_pass
            parts.append("%s %.1f x %.0f us" % (label, per_pass, each))
        passes = sorted(us for us, _ in rows)
        print("%s: %d passes, median %.0f us (the wrappers' own cost in it); the stand-ins' calls ~%.0f us a pass: %s"
              % (figure, len(rows), tv.median(passes), total, "; ".join(parts)))


setup()
# --- next run call ---
rounds(ROUNDS)
# --- next run call ---
rounds(ROUNDS)
# --- next run call ---
report()
