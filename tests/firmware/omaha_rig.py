# An Omaha table controller on fake lights, fed events one at a time, its host reports read back.
# (Both runtimes; the shoe and keypad drivers are tested on their own: here come their events.)
from firmware import cards
from firmware.drivers.pixels import ZoneLights
from firmware.events import CARD, HOST, KEY, SHOE
from firmware.games.omaha.controller import OmahaTable
from tests.firmware import omaha_fixtures
from tests.firmware.fakes import FakeStrip
from tests.firmware.table_rig import TableRig

ZONE_MAP = [("seat%d" % s, [[3 * (s - 1), 3 * s - 1]]) for s in range(1, 11)] + [
    ("button", [[30, 30]]), ("pot", [[31, 36]])]
PIXELS = 37
BUTTONS = {"confirm": 0, "void": 1, "deal": 2}
# The boards' 6 x 4 dealer keypad, row by row ("" = no key there).
LEGENDS = ["new", "button", "seat", "stack",
           "1", "2", "3", "fold",
           "4", "5", "6", "check",
           "7", "8", "9", "call",
           "clear", "0", "enter", "bet",
           "allin", "", "", "raise"]
CONFIG = {"table_id": "O01", "game": "omaha"}


class Rig(TableRig):
    def __init__(self, **options):
        self.settings = omaha_fixtures.settings(**options)
        self.strip = FakeStrip(PIXELS)
        lights = ZoneLights(self.strip, PIXELS, sorted(ZONE_MAP))
        self.start(OmahaTable(lights, BUTTONS, self.settings, LEGENDS), lights, None, (), BUTTONS, "O01")

    # -- inputs --------------------------------------------------------------------------
    def keys(self, text):
        """Keys by legend, e.g. "4 raise 3 0 enter" (a number is keyed digit by digit)."""
        for word in text.split():
            if word.isdigit():
                for digit in word:
                    self.event(KEY, LEGENDS.index(digit))
            else:
                self.event(KEY, LEGENDS.index(word))

    def act(self, seat, act, amount=None):
        """The dealer keys [seat] ACT [amount] ENTER (seat None: the seat to act)."""
        text = "" if seat is None else "%d " % seat
        text += act
        if amount is not None:
            text += " %d" % amount
        self.keys(text + " enter")

    def stacks(self, stacks):
        """{seat: chips} keyed between hands."""
        for seat in stacks:
            self.keys("%d stack %d enter" % (seat, stacks[seat]))

    def card(self, code, face_up=False):
        self.event(CARD, cards.parse(code) if isinstance(code, str) else code, 1 if face_up else 0)

    def cards(self, deck):
        """Card ints or codes, in the order they leave the shoe."""
        for card in deck:
            self.card(card)

    def shoe(self, status):
        self.event(SHOE, status)

    def host_hand(self, request):
        """The host's parsed `hand` request, as firmware.main hands it over, then its HOST event."""
        a, b = self.table.host_request(request)
        self.event(HOST, a, b)

    # -- outputs -------------------------------------------------------------------------
    def refusals(self):
        return self.reports("action_refused")
