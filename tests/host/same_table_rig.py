# The harness of tests/host/same_table_play.py (run on every runtime: CPython, MicroPython's VM and its
# Unix port): a table booted by firmware.startup.boot() from boards/pico.json on the bench's fake hardware
# (bench/vmtable.py), with a technician PIN and its own table file on its flash, its host port's bytes kept
# and read back as a host reads them, its USB console typed on, its buttons pressed, its host line cut and
# its power cut. No clock is read: every pass is given its elapsed ms.
import os

from bench import vmtable
from firmware.console.pins import provision
from firmware.link import frame as link_frame
from tests.firmware.fakes import FakeUART, link_reports
from tests.firmware.scratch import make_dir

BUTTON_PINS = {"deal": 10, "confirm": 11, "void": 12, "shoe_change": 13}   # boards/pico.json

# Every BenchUART's bytes as taken, in order: (the UART, its bytes), the UART itself kept (an id() of one a
# boot cut short by a power cut could be a later UART's: its bytes showed up in another boot's, on CPython
# now and then as memory was laid out); and every boot's machine since the Played began, a boot a cut
# stopped too: the host reads what its port wrote before the power went.
TAKEN = []
MACHINES = []
AWAY = [False]              # the host away: the bytes the board writes meanwhile reach no one
_take = vmtable.BenchUART.take
_bench_machine = vmtable.bench_machine


def _kept_take(uart):
    data = _take(uart)
    if not AWAY[0]:
        TAKEN.append((uart, data))
    return data


def _kept_machine():
    machine = _bench_machine()
    MACHINES.append(machine)
    return machine


vmtable.BenchUART.take = _kept_take
vmtable.bench_machine = _kept_machine


class PowerCut(Exception):
    """The board lost power during a flash write (CutFS)."""


class CutFS:
    """The board's flash (the runtime's files) as firmware.startup.boot's `fs`, its power cut at one write:
    write calls, removes and renames are counted, the one after `cut_after` raises PowerCut (torn: half of
    its bytes land first), and every call after it too (hostsim/flash.py's FlashFS, on every runtime)."""

    def __init__(self, cut_after=None, torn=False):
        self.cut_after = cut_after
        self.torn = torn
        self.writes = 0
        self.cut = False

    def _power(self):
        if self.cut:
            raise PowerCut("the board has no power")

    def _due(self):
        if self.cut_after is not None and self.writes >= self.cut_after:
            self.cut = True
            return True
        return False

    def open(self, name, mode="r"):
        self._power()
        f = open(name, mode)
        return _CutFile(self, f) if "w" in mode or "a" in mode or "+" in mode else f

    def remove(self, name):
        self._power()
        if self._due():
            raise PowerCut("cut at flash write %d: remove" % (self.writes + 1))
        os.remove(name)
        self.writes += 1

    def rename(self, old, new):
        self._power()
        if self._due():
            raise PowerCut("cut at flash write %d: rename" % (self.writes + 1))
        os.rename(old, new)
        self.writes += 1

    def stat(self, name):
        self._power()
        return os.stat(name)

    def write(self, f, data):
        self._power()
        if self._due():
            if self.torn:
                f.write(data[:len(data) // 2])
                f.flush()
            raise PowerCut("cut at flash write %d: %d bytes" % (self.writes + 1, len(data)))
        n = f.write(data)
        f.flush()
        self.writes += 1
        return n


class _CutFile:
    """A file open for writing: each write goes through CutFS.write."""

    def __init__(self, fs, f):
        self._fs = fs
        self._f = f

    def write(self, data):
        return self._fs.write(self._f, data)

    def read(self, *args):
        return self._f.read(*args)

    def seek(self, *args):
        return self._f.seek(*args)

    def tell(self):
        return self._f.tell()

    def flush(self):
        self._f.flush()

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class ConsoleUSB(FakeUART):
    """The USB console ({"usb": true} on the pico) a technician types on: feed() the keys; what the table
    writes back is kept in tx (printed with the reports)."""


vmtable.BenchUSB = ConsoleUSB       # (bench/vmtable.py's Table makes its console with this name)
PIN = "246810"


class Played:
    """A booted table whose host port's bytes are all kept (the reports read back at the end), on a flash
    of its own: a technician PIN provisioned and a copy of the game's table file (a settings change
    writes it)."""

    def __init__(self, game, fs=None):
        del TAKEN[:]
        del MACHINES[:]
        self.game = game
        state_dir = make_dir()
        provision(state_dir, PIN)
        table_path = state_dir + "/table.json"
        with open("boards/tables/sim-%s.json" % game) as src:
            with open(table_path, "w") as dst:
                dst.write(src.read())
        self.t = vmtable.Table(game, state_dir, table_path, fs)
        self.consoles = [self.t.usb]

    def power_cut(self, fs=None):
        """The board's power cut between two passes, or in a flash write (CutFS) that raised PowerCut (the
        devices' too: their frame counters start again); it boots again on the same flash (fs: a CutFS of
        its own), recovers from its journals and runs its lamp test."""
        self.t = vmtable.Table(self.game, self.t.state_dir, self.t.table_path, fs)
        self.consoles.append(self.t.usb)

    def host_away(self):
        """The host line cut: nothing the board writes arrives, nothing is acknowledged."""
        AWAY[0] = True
        self.t.ack = self.t.host.take

    def host_back(self):
        AWAY[0] = False
        del self.t.ack                                      # (the class's again: every frame acknowledged)
        self.t.passes(150, 100)                             # the Sender's back-off tops out at 8 s

    def type(self, *lines):
        """Lines typed at the console, each with its Enter, a few passes each."""
        for line in lines:
            self.t.usb.feed(line + b"\r")
            self.t.passes(5)

    def press(self, button, hold_passes=5):
        """A dealer button held for hold_passes input passes (a long press from 100: firmware/drivers/
        buttons.py counts polls), then released."""
        pin = self.t.machine.pins[BUTTON_PINS[button]]
        pin.value(0)                                       # active low: pressed
        self.t.passes(hold_passes)
        pin.value(1)
        self.t.passes(5)

    def host_request(self, payload, kind="REQUEST", tag=0):
        """A REQUEST (or RECALL) frame from the host, with its tag (`#0.<tag>`: given back in the answer)."""
        self.t.host.feed(link_frame.encode(0, tag, kind, payload))
        self.t.passes(20)                                   # (a RECALL's answer goes out paced by the link)

    def raw(self, data):
        """Bytes on the reader port as they came (noise, a damaged frame)."""
        self.t.reader.feed(data)
        self.t.passes(2)

    def reports(self):
        self.t.passes(20, 100)                              # the rest out, acknowledged
        # What a host reads, in the board's order: each report once, LOST counts where they came; every boot's
        # port, one a power cut stopped too (its boot report, say, went out before the cut).
        port = vmtable._HOST_UART                           # (boards/pico.json's report port)
        hosts = [m.uarts[port] for m in MACHINES if port in m.uarts]
        data = b"".join(chunk for uart, chunk in TAKEN if any(uart is host for host in hosts))
        reports = link_reports(data, lost=True)
        said = b"".join(bytes(usb.tx) for usb in self.consoles).decode()
        return reports + ["console: " + line for line in said.replace("\r", "").split("\n") if line.strip()]


def state(t):
    table = t.ctx.table
    return table.STATE_NAMES[table.state]


def close_alarm(p):
    """CONFIRM where the table holds an alarm."""
    if state(p.t) == "fault":
        p.press("confirm")


def trailer():
    """Which code ran (not compared: it differs by runtime by design), then the end: a run cut short by an
    exception has no such line (the VM's command exits 0 even then)."""
    from firmware.games.omaha import hand_value
    from firmware.link import crc32
    print("# native: crc32 %s, omaha showdown viper %s" % (crc32.NATIVE, hand_value.VIPER))
    print("== end")
