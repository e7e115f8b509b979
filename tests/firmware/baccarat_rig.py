# A Baccarat table controller on fake lights, fed events one at a time, its host reports read back.
# (Both runtimes; the shoe and bet reader drivers are tested on their own: here come their events.)
from firmware import cards
from firmware.bets import BetReading
from firmware.drivers.pixels import ZoneLights
from firmware.events import CARD, SHOE, SHOE_CUT, SHOE_IN, TICK
from firmware.games.baccarat import controller as bc
from firmware.games.baccarat import payouts
from firmware.games.baccarat.settings import load_settings
from tests.firmware.fakes import FakeStrip
from tests.firmware.table_rig import TableRig

ZONE_MAP = [("player", [[0, 7]]), ("banker", [[8, 15]]), ("tie", [[16, 21]]), ("player_pair", [[22, 25]]),
            ("banker_pair", [[26, 29]]), ("seat1", [[30, 31]]), ("seat2", [[32, 33]]), ("seat3", [[34, 35]])]
PIXELS = 36
BUTTONS = {"confirm": 0, "void": 1, "shoe_change": 2}
SETTINGS = {"method": 1, "commission": "A", "tie_option": "returned", "decks": 6, "burn": "decks",
            "cut_card": "last_round", "demo_rounds": 0, "dealer": "shoe", "burn_each_round": False}
DEALER_MS = 400          # a dealer draws a card every 400 ms: never a double pull


class Rig(TableRig):
    def __init__(self, seats=3, with_reader=True, **overrides):
        settings = dict(SETTINGS)
        for key in overrides:
            settings[key] = overrides[key]
        self.strip = FakeStrip(PIXELS)
        lights = ZoneLights(self.strip, PIXELS, sorted(ZONE_MAP))
        reading = BetReading(payouts.ZONES, seats) if with_reader else None
        self.start(bc.BaccaratTable(lights, BUTTONS, load_settings(settings), reading, seats), lights, reading,
                   payouts.ZONES, BUTTONS, "B01")

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


def _dealing(rig):
    rig.new_shoe()
    rig.cards("9h")


def _shoe_closed(rig):
    rig.new_shoe()
    rig.shoe(SHOE_CUT)                                   # the round it came out in is the last
    rig.cards("9h 5d Kc 2s")


# The table's states of play, each reached from a fresh Rig: (name, what takes it there).
PLAY_STATES = (("ready", lambda rig: None), ("burning", lambda rig: rig.new_shoe(burn="2c")),
               ("burning, no card out", lambda rig: rig.new_shoe(burn="")), ("betting", lambda rig: rig.new_shoe()),
               ("dealing", _dealing), ("shoe_closed", _shoe_closed))
