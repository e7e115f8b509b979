# A Baccarat table controller on fake lights, fed events one at a time, its host reports read back.
# (Both runtimes; the shoe and bet reader drivers are tested on their own: here come their events.)
import json

from firmware import cards
from firmware.bets import BetReading
from firmware.drivers.pixels import ZoneLights
from firmware.drivers.serial_line import SerialLine
from firmware.events import (BETS, BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED, CARD, FAULT, SHOE, SHOE_IN,
                             TICK)
from firmware.games.baccarat import controller as bc
from firmware.games.baccarat import rules
from firmware.games.baccarat.settings import load_settings
from firmware.report import Reporter
from firmware.table import READY
from tests.firmware.fakes import FakeStrip, FakeUART

ZONE_MAP = [("player", [[0, 7]]), ("banker", [[8, 15]]), ("tie", [[16, 21]]), ("player_pair", [[22, 25]]),
            ("banker_pair", [[26, 29]]), ("seat1", [[30, 31]]), ("seat2", [[32, 33]]), ("seat3", [[34, 35]])]
PIXELS = 36
BUTTONS = {"confirm": 0, "void": 1, "shoe_change": 2}
SETTINGS = {"method": 1, "commission": "A", "tie_option": "returned", "decks": 6, "burn": "decks",
            "cut_card": "last_round", "demo_rounds": 0, "dealer": "shoe", "burn_each_round": False}
DEALER_MS = 400          # a dealer draws a card every 400 ms: never a double pull


class Rig:
    def __init__(self, seats=3, with_reader=True, **overrides):
        settings = dict(SETTINGS)
        for key in overrides:
            settings[key] = overrides[key]
        self.strip = FakeStrip(PIXELS)
        self.lights = ZoneLights(self.strip, PIXELS, sorted(ZONE_MAP))
        self.reading = BetReading(rules.ZONES, seats) if with_reader else None
        self.table = bc.BaccaratTable(self.lights, BUTTONS, load_settings(settings), self.reading, seats)
        self.uart = FakeUART()
        self.reporter = Reporter(SerialLine(self.uart), "B01", ["confirm", "void", "shoe_change"])
        self.reading_id = 0
        while self.table.state != READY:          # the boot lamp test
            self.event(TICK, 100)

    # -- inputs ------------------------------------------------------------------
    def event(self, kind, a=0, b=0):
        self.table.dispatch(kind, a, b)
        self.reporter.drain(self.table)

    def tick(self, ms=DEALER_MS):
        self.event(TICK, ms)

    def card(self, code, face_up=False, wait=DEALER_MS):
        if wait:
            self.tick(wait)
        self.event(CARD, cards.parse(code), 1 if face_up else 0)

    def cards(self, codes):
        for code in codes.split():
            self.card(code)

    def new_shoe(self, burn="2c 3c 4c 5c 6c 7c"):
        self.event(SHOE, SHOE_IN)
        if burn:
            self.cards(burn)

    def shoe(self, status):
        self.event(SHOE, status)

    def bets(self, table):
        """table: {seat: {zone: amount}} -> the reader's reading and its BETS event."""
        self.reading_id += 1
        amounts = self.reading.amounts
        for i in range(len(amounts)):
            amounts[i] = 0
        width = len(rules.ZONES)
        for seat in table:
            for zone in table[seat]:
                amounts[(seat - 1) * width + rules.ZONES.index(zone)] = table[seat][zone]
        self.reading.reading_id = self.reading_id
        self.event(BETS, self.reading_id, len(table))

    def press(self, role, long=False):
        index = BUTTONS[role]
        self.event(BUTTON, index, BUTTON_PRESSED)
        if long:
            self.event(BUTTON, index, BUTTON_LONG)
        self.event(BUTTON, index, BUTTON_RELEASED)

    def fault(self, code, detail=0):
        self.event(FAULT, code, detail)

    # -- outputs -------------------------------------------------------------------
    def reports(self, event=None):
        out = [json.loads(line) for line in self.uart.lines()]
        return [r for r in out if event is None or r["event"] == event]

    def last(self, event):
        found = self.reports(event)
        return found[-1] if found else None

    def colour(self, zone):
        return self.lights.colours[self.lights.index(zone)]


