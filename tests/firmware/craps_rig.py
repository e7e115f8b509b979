# A Craps table controller on fake lights, fed events one at a time, its host reports read back.
# (Both runtimes; the dice reader and bet reader drivers are tested on their own: here come their events.)
from firmware import throws
from firmware.bets import BetReading
from firmware.drivers.pixels import ZoneLights
from firmware.events import BETS_FAULT, THROW
from firmware.games.craps import controller as cc
from firmware.games.craps.zones import ZONES
from tests.firmware.craps_helpers import BASE
from tests.firmware.fakes import FakeStrip
from tests.firmware.table_rig import TableRig, strip  # noqa: F401 (strip: the tests import it from here)

LAYOUT = ("pass", "dont_pass", "come", "dont_come", "field", "big_6", "big_8", "any_seven", "any_craps",
          "eleven", "hard_4", "hard_6", "hard_8", "hard_10", "point_4", "point_5", "point_6", "point_8",
          "point_9", "point_10")
PIXELS = len(LAYOUT) * 2
BUTTONS = {"confirm": 0, "void": 1, "deal": 2}
FLAG_BIT = dict(zip(throws.FLAG_NAMES, throws.FLAG_BITS))


class Rig(TableRig):
    def __init__(self, seats=3, with_reader=True, table_seats=None, **overrides):
        settings = dict(BASE)
        if table_seats is not None:
            settings["seats"] = table_seats         # (the settings' default: 14)
        for key in overrides:
            settings[key] = overrides[key]
        self.strip = FakeStrip(PIXELS)
        lights = ZoneLights(self.strip, PIXELS, sorted((z, [[2 * i, 2 * i + 1]]) for i, z in enumerate(LAYOUT)))
        reading = BetReading(ZONES, seats) if with_reader else None
        self.start(cc.CrapsController(lights, BUTTONS, settings, reading, seats), lights, reading, ZONES, BUTTONS,
                   "C01")

    def throw(self, d1, d2, flags=(), cocked=()):
        b = 0
        for f in flags:
            b |= FLAG_BIT[f]
        for die in cocked:
            b |= throws.COCKED_BITS[die]
        self.event(THROW, throws.pack(d1, d2), b)

    def bets_fault(self, code):
        self.event(BETS_FAULT, code, 0)
