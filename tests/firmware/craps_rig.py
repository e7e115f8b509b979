# A Craps table controller on fake lights, fed events one at a time, its host reports read back.
# (Both runtimes; the dice reader and bet reader drivers are tested on their own: here come their events.)
import json

from firmware import throws
from firmware.bets import DOWN_WORD, TAKE_DOWN, BetReading
from firmware.drivers.pixels import ZoneLights
from firmware.drivers.serial_line import SerialLine
from firmware.events import (BETS, BETS_FAULT, BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED, FAULT,
                             THROW, TICK)
from firmware.games.craps import controller as cc
from firmware.games.craps.zones import ZONES
from firmware.report import Reporter
from firmware.table import READY
from tests.firmware.craps_helpers import BASE
from tests.firmware.fakes import FakeStrip, FakeUART

LAYOUT = ("pass", "dont_pass", "come", "dont_come", "field", "big_6", "big_8", "any_seven", "any_craps",
          "eleven", "hard_4", "hard_6", "hard_8", "hard_10", "point_4", "point_5", "point_6", "point_8",
          "point_9", "point_10")
PIXELS = len(LAYOUT) * 2
BUTTONS = {"confirm": 0, "void": 1, "deal": 2}
FLAG_BIT = dict(zip(throws.FLAG_NAMES, throws.FLAG_BITS))


class Rig:
    def __init__(self, seats=3, with_reader=True, **overrides):
        settings = dict(BASE)
        for key in overrides:
            settings[key] = overrides[key]
        self.strip = FakeStrip(PIXELS)
        self.lights = ZoneLights(self.strip, PIXELS, sorted((z, [[2 * i, 2 * i + 1]]) for i, z in enumerate(LAYOUT)))
        self.reading = BetReading(ZONES, seats) if with_reader else None
        self.table = cc.CrapsController(self.lights, BUTTONS, settings, self.reading, seats)
        self.uart = FakeUART()
        self.reporter = Reporter(SerialLine(self.uart), "C01", ["confirm", "void", "deal"])
        self.reading_id = 0
        while self.table.state != READY:          # the boot lamp test
            self.event(TICK, 100)

    def event(self, kind, a=0, b=0):
        self.table.dispatch(kind, a, b)
        self.reporter.drain(self.table)

    def throw(self, d1, d2, flags=(), cocked=()):
        b = 0
        for f in flags:
            b |= FLAG_BIT[f]
        for die in cocked:
            b |= throws.COCKED_BITS[die]
        self.event(THROW, throws.pack(d1, d2), b)

    def bets(self, table):
        """table: {seat: {zone: amount or "down"}} -> the reader's reading and its BETS event."""
        self.reading_id += 1
        amounts = self.reading.amounts
        for i in range(len(amounts)):
            amounts[i] = 0
        width = len(ZONES)
        for seat in table:
            for zone in table[seat]:
                amount = table[seat][zone]
                amounts[(seat - 1) * width + ZONES.index(zone)] = TAKE_DOWN if amount == DOWN_WORD else amount
        self.reading.reading_id = self.reading_id
        self.event(BETS, self.reading_id, len(table))

    def bets_fault(self, code):
        self.event(BETS_FAULT, code, 0)

    def press(self, role, long=False):
        index = BUTTONS[role]
        self.event(BUTTON, index, BUTTON_PRESSED)
        if long:
            self.event(BUTTON, index, BUTTON_LONG)
        self.event(BUTTON, index, BUTTON_RELEASED)

    def fault(self, code, detail=0):
        self.event(FAULT, code, detail)

    def reports(self, event=None):
        out = [json.loads(line) for line in self.uart.lines()]
        return [r for r in out if event is None or r["event"] == event]

    def last(self, event):
        found = self.reports(event)
        return found[-1] if found else None

    def colour(self, zone):
        return self.lights.colours[self.lights.index(zone)]


def strip(report):
    return dict((k, v) for k, v in report.items() if k not in ("seq", "table"))
