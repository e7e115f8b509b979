# A bet reading: chips per seat and zone, as the bet-recognition reader reported them when bets closed.
#
# The data the bet reader driver fills and the table controllers read: it lives
# here, apart from both, so a controller knows nothing of the driver's internals.
from array import array

from firmware.compat import const

# An amount that is not chips but a take-down: the chips in play on that seat's zone were taken off
# (the reader's "zone=-"; reports and the replay say "down"). Only a table that takes them asks for it.
TAKE_DOWN = const(-1)
DOWN_WORD = "down"


class BetReading:
    """Chips per seat and zone of the last accepted reading (amounts: seats x zones, row per seat;
    TAKE_DOWN where the chips in play were taken off)."""

    def __init__(self, zones, seats):
        self.zones = zones
        self.seats = seats
        self.reading_id = -1            # -1: nothing accepted yet
        self.amounts = array("i", [0] * (seats * len(zones)))
        # A view of each seat's row, made once (amounts is never replaced, only written into): a row
        # without chips is passed over by one compare with empty_row, in C (slots()).
        width = len(zones)
        view = memoryview(self.amounts)
        self.rows = tuple(view[seat * width:seat * width + width] for seat in range(seats))
        self.empty_row = array("i", [0] * width)
        # slots() remembered while amounts are still a copy of the reader's work buffer (source) as it
        # was then: the reader forgets them (work_changed) whenever it writes that buffer, and a
        # compare of the two arrays (in C) catches anyone else writing amounts in between. The
        # journal's record of a reading and its placement then walk the rows once, not twice.
        self.source = None              # the reader's array the accepted reading is copied from
        self._slots = None

    def amount(self, seat, zone):
        """Chips on seat 1..seats, zone index (into zones)."""
        if not 1 <= seat <= self.seats or not 0 <= zone < len(self.zones):
            raise ValueError("no seat %r zone %r at this table" % (seat, zone))
        return self.amounts[(seat - 1) * len(self.zones) + zone]

    def slots(self):
        """The slots (seat row * zones + zone, ascending, a tuple) holding chips or a take-down; the
        rows without any are passed over by one compare each instead of a walk of their zones in
        Python (14 seats x 38 zones at Craps, mostly empty)."""
        known = self._slots
        if known is not None and self.amounts == self.source:
            return known
        out = []
        empty = self.empty_row
        width = len(self.zones)
        base = 0
        for row in self.rows:
            if row != empty:
                i = base
                for amount in row:
                    if amount:
                        out.append(i)
                    i += 1
            base += width
        out = tuple(out)
        if self.source is not None and self.amounts == self.source:
            self._slots = out
        return out

    def work_changed(self):
        """The reader is writing its work buffer (source): slots() must look again."""
        self._slots = None

    def as_dict(self):
        """{seat: {zone name: amount or "down"}} of the seats with chips or take-downs (reports, tests)."""
        out = {}
        width = len(self.zones)
        for seat in range(1, self.seats + 1):
            row = {}
            for z in range(width):
                value = self.amounts[(seat - 1) * width + z]
                if value:
                    row[self.zones[z]] = DOWN_WORD if value == TAKE_DOWN else value
            if row:
                out[seat] = row
        return out
