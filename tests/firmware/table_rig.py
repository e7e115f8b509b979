# What the game rigs share: a table controller on fake lights, fed events one at a time, its host
# reports read back through the real Reporter and the real host link (both runtimes): the frames
# the Sender writes are decoded and acknowledged as a host would. A game's rig builds the controller.
import json

from firmware import faults
from firmware.bets import DOWN_WORD, TAKE_DOWN
from firmware.events import BETS, BETS_FAULT, BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED, FAULT, TICK
from firmware.report import Reporter
from firmware.table_codes import READY
from firmware.link.frame import MAX_FRAME
from firmware.link.sender import Sender
from firmware.link.ram_store import RamStore
from tests.firmware.fakes import FakeUART

_STORE_FRAMES = 32         # as the board's (firmware.startup.HOST_STORE_FRAMES)


class TableRig:
    def start(self, table, lights, reading, zones, buttons, table_id):
        """Take over `table` (booting), report through a fake host UART, run the boot lamp test."""
        self.table = table
        self.lights = lights
        self.reading = reading
        self.zones = zones
        self.buttons = buttons
        self.uart = FakeUART()
        names = [role for role, _ in sorted(buttons.items(), key=lambda item: item[1])]
        self.sender = Sender(self.uart, RamStore(_STORE_FRAMES, MAX_FRAME), 1)
        self.reporter = Reporter(self.sender, table_id, names)
        self.reading_id = 0
        self.room_from_link = False   # True: a BETS event carries the link's room, as firmware.main gives it
        while self.table.state != READY:          # the boot lamp test
            self.event(TICK, 100)

    # -- inputs --------------------------------------------------------------------------
    def event(self, kind, a=0, b=0):
        if kind == BETS and self.room_from_link:
            self.table.link_room = self.sender.room()   # as firmware.main._dispatch
        self.table.dispatch(kind, a, b)
        self.reporter.drain(self.table)
        self._link()

    def _link(self):
        """The sender writes what it holds; the host's ACKs (FakeUART's) go back to it."""
        while True:
            self.sender.poll(0)
            acks = bytes(self.uart.rx)
            self.uart.rx = bytearray()
            if not acks:
                return
            for line in acks.split(b"\n"):
                if line:
                    self.sender.receive(line)

    def bets(self, table, journal_full=False):
        """table: {seat: {zone: amount or "down"}} -> the reader's reading and its BETS event; journal_full:
        the reading the table refused for its journal's room (firmware.main._dispatch: BETS_FAULT
        faults.JOURNAL_NEARLY_FULL with its id, after the driver had copied it in)."""
        self.reading_id += 1
        amounts = self.reading.amounts
        for i in range(len(amounts)):
            amounts[i] = 0
        width = len(self.zones)
        for seat in table:
            for zone in table[seat]:
                amount = table[seat][zone]
                amounts[(seat - 1) * width + self.zones.index(zone)] = TAKE_DOWN if amount == DOWN_WORD else amount
        self.reading.reading_id = self.reading_id
        if journal_full:
            self.event(BETS_FAULT, faults.JOURNAL_NEARLY_FULL, self.reading_id)
        else:
            self.event(BETS, self.reading_id, len(table))

    def press(self, role, long=False):
        index = self.buttons[role]
        self.event(BUTTON, index, BUTTON_PRESSED)
        if long:
            self.event(BUTTON, index, BUTTON_LONG)
        self.event(BUTTON, index, BUTTON_RELEASED)

    def fault(self, code, detail=0):
        self.event(FAULT, code, detail)

    # -- outputs -------------------------------------------------------------------------
    def reports(self, event=None):
        out = [json.loads(line) for line in self.uart.reports()]
        return [r for r in out if event is None or r["event"] == event]

    def last(self, event):
        found = self.reports(event)
        return found[-1] if found else None

    def colour(self, zone):
        return self.lights.colours[self.lights.index(zone)]


def strip(report):
    """A report without its seq and table fields."""
    return dict((k, v) for k, v in report.items() if k not in ("seq", "table"))
