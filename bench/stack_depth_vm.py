# How deep the table drives MicroPython's C stack: micropython.stack_use() at every leaf each path ends in,
# run on real MicroPython (the VM, the Unix port); bench/stack_depth.py runs it and compares with the RP2040's
# limit. The firmware runs unchanged on bench/vmtable.py's fake hardware, as bench/whole_table.py runs it.
#
# A leaf is where a path leaves the table's Python for the hardware or a store: a UART's write, readinto
# and any (host link, readers, the USB console), a pin read, an I2C write (displays), the watchdog, the
# pixel strip (its __setitem__, Python on a board too: MicroPython's neopixel.py; its write()), every
# flash operation (the fs given to startup.boot: open, each write, flush, read, remove, rename, stat: the
# link store's and the journals' appends end in them). Each is wrapped HERE (never in firmware/): the
# wrapper's body reads stack_use(), the depth a Python function called at that point starts at; a board's
# C leaf (littlefs, the UART driver) then uses C stack of its own, not measured (docs/performance.md).
# Only calls that call no firmware code are wrapped: a wrapper around the store's append would put a frame
# of its own under every flash write below it. A file opened "wb" (a journal's compaction or checkpoint, a
# file rewritten) has its writes also counted under "PATH/rewrite NAME".
#
# Depth is measured below the main loop's task: the bench's pass (Table.one_pass) stands where the board's
# input_task / output_task coroutine stands (firmware/main.py: both call the firmware's pass functions
# directly), and its boot where run() stands; each leaf's stack_use() less the one_pass's (or __init__'s)
# own. board_task / board_run: stack_use() in those frames reached as a board reaches them, from the
# script's top level through run() and asyncio.run(serve(ctx)) (a stand-in of asyncio's run and
# run_until_complete where the runtime has no asyncio.run: the VM's pyscript asyncio); the figure "as on
# the board" is that plus the depth below it.
#
# Prints "baseline: N", "board_task: N", "board_run: N", "asyncio: real|stand-in", then per path
# "path NAME: raw R depth D board B leaf LEAF hits H" (the deepest leaf: R its stack_use() as this script
# reaches it, D its depth below the loop's task or run(), B = D + board_task or board_run: as on a board)
# With STOP set, the run ends at that leaf with Stop's traceback (the calls down to it).
import sys

import micropython

BASELINE = micropython.stack_use()           # the script's top level: where main.py's code runs on a board

import gc  # noqa: E402
import json  # noqa: E402

from bench import table_vm, vmtable  # noqa: E402
from firmware.link import frame as fm  # noqa: E402
from tests.firmware import fakes  # noqa: E402
from tests.firmware.scratch import make_dir  # noqa: E402

stack_use = micropython.stack_use

# -- the board's frames down to the loop's task -----------------------------------------------------
BOARD = {}


def _run_until_complete(coro):        # asyncio's (frozen asyncio/core.py) as frames: a loop sending to the task
    while True:
        try:
            coro.send(None)
        except StopIteration:
            return


def _asyncio_run(coro):
    return _run_until_complete(coro)


def _board_run():
    """firmware/main.py's run(): boot() called here, then asyncio.run(serve(ctx))."""
    BOARD["run"] = stack_use()
    try:
        import asyncio
        arun = asyncio.run
        BOARD["asyncio"] = "real"
    except (ImportError, AttributeError):
        arun = _asyncio_run
        BOARD["asyncio"] = "stand-in"
    arun(_serve())


async def _serve():
    import asyncio
    gather = getattr(asyncio, "gather", None)
    if BOARD["asyncio"] == "real":
        await gather(_input_task())
    else:
        await _input_task()


async def _input_task():
    BOARD["task"] = stack_use()


_board_run()

# -- the leaves -----------------------------------------------------------------------------------------
ENTRY = [None]       # (stack_use() of the frame standing for the board's task or run(), that frame's on a
                     # board), None outside
PATH = ["-"]         # the path running
PEAKS = {}           # path -> [raw, depth, leaf, hits]
NESTED = []          # a file written anew ("wb": a journal's compaction, a checkpoint): its hits also go to
                     # "PATH/rewrite NAME"
OUTSIDE = [0]        # leaf hits outside any pass (the bench's own calls, not a board path)
STOP = None          # (path prefix, bytes): bench/stack_depth.py --where replaces this line; the first leaf of
                     # that path as deep as that on a board raises Stop, whose traceback names the calls down to it


class Stop(BaseException):       # (not an Exception: the firmware's own handlers let it through)
    pass


def _note(leaf, u):
    entry = ENTRY[0]
    if entry is None:
        OUTSIDE[0] += 1
        return
    depth = u - entry[0]
    for name in [PATH[0]] + [PATH[0] + "/" + n for n in NESTED]:
        peak = PEAKS.get(name)
        if peak is None:
            peak = PEAKS[name] = [0, 0, 0, "", 0]
        peak[4] += 1
        if entry[1] + depth > peak[2]:
            peak[0] = u
            peak[1] = depth
            peak[2] = entry[1] + depth
            peak[3] = leaf
            if STOP is not None and PATH[0].startswith(STOP[0]) and peak[2] >= STOP[1]:
                raise Stop("%s: %d bytes at %s" % (PATH[0], peak[2], leaf))


def wrap(cls, name, leaf):
    plain = getattr(cls, name)

    def leaf_call(*args, **kw):
        _note(leaf, stack_use())
        return plain(*args, **kw)
    setattr(cls, name, leaf_call)


class File:
    """A file of the state dir: the builtin file, each operation a leaf."""

    def __init__(self, f, label=None):
        self.f = f
        self.label = label

    def write(self, data):
        if self.label is None:
            _note("flash write", stack_use())
        else:
            NESTED.append(self.label)
            _note("flash write", stack_use())
            NESTED.pop()
        return self.f.write(data)

    def flush(self):
        _note("flash flush", stack_use())
        return self.f.flush()

    def read(self, *n):
        _note("flash read", stack_use())
        return self.f.read(*n)

    def readinto(self, *args):
        _note("flash read", stack_use())
        return self.f.readinto(*args)

    def seek(self, *args):
        return self.f.seek(*args)

    def tell(self):
        return self.f.tell()

    def close(self):
        _note("flash close", stack_use())
        return self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _note("flash close", stack_use())     # (not through close(): a frame of its own a board's file has not)
        self.f.close()
        return False


class FS:
    """The fs startup.boot takes (firmware/saved_state.py FlashFiles' calls): the builtin ones, each a leaf."""

    @staticmethod
    def open(name, mode="r"):
        _note("flash open", stack_use())
        return File(open(name, mode), "rewrite " + name.split("/")[-1] if mode == "wb" else None)

    @staticmethod
    def remove(name):
        _note("flash remove", stack_use())
        import os
        return os.remove(name)

    @staticmethod
    def rename(a, b):
        _note("flash rename", stack_use())
        import os
        return os.rename(a, b)

    @staticmethod
    def stat(name):
        _note("flash stat", stack_use())
        import os
        return os.stat(name)


for cls, name, leaf in ((vmtable.BenchUART, "write", "uart write"), (vmtable.BenchUART, "readinto", "uart read"),
                        (vmtable.BenchUART, "any", "uart any"), (fakes.FakeUART, "write", "usb write"),
                        (fakes.FakeUART, "readinto", "usb read"), (fakes.FakeUART, "any", "usb any"),
                        (vmtable.Strip, "write", "pixels write"), (vmtable.Strip, "__setitem__", "pixels set")):
    wrap(cls, name, leaf)


def machine_leaves(machine):
    for cls, name, leaf in ((machine.I2C, "writeto", "i2c write"), (machine.I2C, "writevto", "i2c write"),
                            (machine.Pin, "value", "pin"), (machine.WDT, "feed", "watchdog")):
        wrap(cls, name, leaf)
    return machine


# -- the table --------------------------------------------------------------------------------------------
class Table(vmtable.Table):
    """bench/vmtable.py's table booted on a given flash (a reset: the same state dir again) through FS; the
    host's ACKs come in on the host port, read in a pass as on a board (vmtable's go to the Sender directly)."""

    def __init__(self, game, state_dir=None, usb=None, lamp_test=True, table_path=None):
        from firmware import main, startup
        self.main = main
        self.game = game
        self.machine = machine_leaves(vmtable.bench_machine())
        self.np = vmtable.NeoPixelModule()
        self.state_dir = make_dir() if state_dir is None else state_dir
        self.usb = vmtable.BenchUSB() if usb is None else usb
        ENTRY[0] = (stack_use(), BOARD["run"])     # this frame: where run() calls boot() on a board
        try:
            self.ctx = startup.boot(self.machine, self.np, vmtable.BOARD,
                                    table_path or "boards/tables/sim-%s.json" % game, self.state_dir, None, self.usb,
                                    fs=FS)
        finally:
            ENTRY[0] = None
        self.reader = self.machine.uarts[vmtable._READER_UART]
        self.host = self.machine.uarts[vmtable._HOST_UART]
        self.shoe = vmtable.DeviceSender("S")
        self.dice = vmtable.DeviceSender("D")
        self.bets_sender = vmtable.DeviceSender("B")
        self.reading_id = 0
        self.log = None
        self.strip = self.np.strips[0]
        self.bets_sm = sys.modules["rp2"].machines[vmtable._BETS_SM]
        self.rounds_in_shoe = 0
        if lamp_test:
            self.passes(80, 100)

    def one_pass(self, elapsed_ms=vmtable.PASS_MS, draw=True):
        ENTRY[0] = (stack_use(), BOARD["task"])    # this frame: where input_task / output_task stand on a board
        try:
            self.main.poll_inputs(self.ctx, elapsed_ms)
            self.main.refresh_outputs(self.ctx, draw, elapsed_ms)
        finally:
            ENTRY[0] = None

    def ack(self):
        data = self.host.take()
        if data:
            line = vmtable._ack_line(data)
            if line is not None:
                self.host.feed(line + b"\n")       # read by the next pass
        return data

    def finish(self):
        out = b""
        for _ in range(12):
            more = self.ack()
            self.one_pass()
            out += more
            if not more and not self.host.sent:
                break
        return [json.loads(text) for text in fakes.link_reports(out)]

    def host_frame(self, type, payload=b"", boot=0, seq=0):
        self.host.feed(fm.encode(boot, seq, type, payload))

    def lamp_test_but_its_last_pass(self, each_pass):
        i = 0
        while self.ctx.table.lamp_zone < len(self.ctx.table.lights.names):
            each_pass(i)
            self.one_pass(100)
            self.ack()
            i += 1


# -- the paths ------------------------------------------------------------------------------------------
def path(name):
    PATH[0] = name
    gc.collect()


def typed(t, text, passes=4):
    t.usb.feed(text.encode() + b"\r")
    t.passes(passes)


def main():
    path("boot baccarat (fresh flash, lamp test)")
    bac = Table("baccarat")
    path("baccarat round (7 seats' bets, shoe, 3 rounds)")
    table_vm.baccarat_shoe(bac)
    for k in range(3):
        table_vm.baccarat_next(bac, k, timed=False)

    path("boot craps (fresh flash, lamp test)")
    craps = Table("craps")
    path("craps round (50 bets, the throw resolving them)")
    for _ in range(2):
        table_vm.craps_round(craps, timed=False)
    path("craps at a point, bets on")
    craps.bet_reading([(seat, [("pass", 10), ("field", 10), ("hard_6", 10)]) for seat in range(1, 11)])
    craps.throw_frame(2, 4)                            # a point of 6
    craps.passes(3)

    path("recovery craps (power cut at a point, events during the lamp test let in)")
    reboot = Table("craps", craps.state_dir, lamp_test=False)

    def during_lamp_test(i):
        if i in (2, 9):
            reboot.host_frame("RECALL", str(3 + i))
        elif i == 5:
            reboot.host_frame("REQUEST", "roads")      # refused at Craps: a host_error
        elif i == 7:
            reboot.throw_frame(3, 3)
        elif i in (11, 12, 13):
            reboot.bet_line(reboot.bet_lines([(1, [("field", 10)]), (2, [("pass", 10)])])[i - 11])
    reboot.lamp_test_but_its_last_pass(during_lamp_test)
    reboot.throw_frame(6, 6)
    reboot.passes(30)
    reboot.finish()

    path("boot omaha (fresh flash, lamp test)")
    om = Table("omaha")
    path("omaha showdown (10 seats, side pots)")
    for seed in (1, 2):
        table_vm.omaha_hand(om, seed, timed=False)

    path("recovery baccarat (power cut mid-round, events during the lamp test let in)")
    bac.bet_reading(table_vm.BACCARAT_BETS)
    bac.card_frame("9h")
    bac.passes(2, 400)
    rb = Table("baccarat", bac.state_dir, lamp_test=False)

    def during(i):
        if i == 3:
            rb.host_frame("RECALL", "20")
        elif i == 6:
            rb.card_frame("5d")
        elif i == 8:
            rb.host_frame("REPLAY")
    rb.lamp_test_but_its_last_pass(during)
    rb.passes(40)
    rb.finish()

    path("host requests (RECALL 100, REPLAY from the oldest held)")
    rb.host_frame("RECALL", "100")
    rb.passes(60)
    rb.finish()
    rb.host_frame("REPLAY")
    rb.passes(30)
    rb.finish()

    path("console session (login, status, recall, set, commit, logout)")
    from firmware.console.pins import provision
    state = make_dir()
    provision(state, "246810")
    usb = fakes.FakeUART()
    with open("boards/tables/sim-baccarat.json") as f:     # a copy: the change rewrites the table's file
        text = f.read()
    with open(state + "/table.json", "w") as f:
        f.write(text)
    con = Table("baccarat", state, usb=usb, table_path=state + "/table.json")
    table_vm.baccarat_shoe(con)
    table_vm.baccarat_next(con, 0, timed=False)
    for line in ("login", "246810", "status", "recall", "recall 10", "set commission B", "commit CAB-17"):
        typed(con, line)
    path("settings change applied (at the next new shoe), logout")
    con.rounds_in_shoe = table_vm.SHOE_ROUNDS         # the cut card, its last round, then a new shoe
    for k in (1, 2):
        table_vm.baccarat_next(con, k, timed=False)
    con.passes(20)
    typed(con, "logout")
    if con.ctx.config["rules"].commission != "B":
        raise RuntimeError("the settings change was not applied: %r" % bytes(usb.tx)[-400:])

    path("baccarat rounds until the link store compacts")
    comp = Table("baccarat")
    table_vm.baccarat_shoe(comp)
    store_journal = comp.ctx.sender.store._journal
    before = store_journal.compactions
    k = 0
    while store_journal.compactions == before and k < 400:
        table_vm.baccarat_next(comp, k, timed=False)
        k += 1
    if store_journal.compactions == before:
        raise RuntimeError("the link store did not compact in %d rounds" % k)

    print("runtime: %s %s" % (sys.implementation.name, sys.implementation._machine))
    print("baseline: %d" % BASELINE)
    print("board_run: %d" % BOARD["run"])
    print("board_task: %d" % BOARD["task"])
    print("asyncio: %s" % BOARD["asyncio"])
    print("outside_hits: %d" % OUTSIDE[0])
    for name in sorted(PEAKS):
        raw, depth, board, leaf, hits = PEAKS[name]
        print("path %s: raw %d depth %d board %d leaf %s hits %d" % (name, raw, depth, board, leaf.replace(" ", "_"),
                                                                     hits))


main()
