# A bet reading: chips per seat and zone, as the bet-recognition reader reported them when bets closed.
#
# The data the bet reader driver fills and the table controllers read: it lives
# here, apart from both, so a controller knows nothing of the driver's internals.
from array import array


# An amount that is not chips but a take-down: the chips in play on that seat's zone were taken off
# (the reader's "zone=-"; reports and the replay say "down"). Only a table that takes them asks for it.
TAKE_DOWN = const(-1)
DOWN_WORD = "down"
_WRITTEN_MAX = const(128)       # slots a reading's reader tells as it writes them (more: slots() walks)
_SHIFT_MAX = const(8)           # places a told slot is moved back to keep them ascending (more: sorted later)


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
        self.empty_row = array("i", [0] * width)       # never written (the reader clears rows from it too)
        # slots() answered without a walk while amounts are still a copy of the reader's work buffer
        # (source) as it was then: a compare of the two arrays (in C) catches anyone else writing
        # amounts. The reader tells each slot it writes as the lines come (work_wrote: a reading's
        # passes before its CLOSE), so the CLOSE sorts those (in C) instead of walking the rows, and
        # the journal's record and the placement ask once.
        self.source = None              # the reader's array the accepted reading is copied from
        self._slots = None              # slots() of source, while it is unchanged
        self._written = array("H", [0] * _WRITTEN_MAX)   # the slots written into source since cleared,
        self._written_count = 0                         # -1: more than they hold
        self._written_sorted = True     # _written ascending (each slot put in its place as told)
        self._downs = 0                 # take-downs among the slots told

    def amount(self, seat, zone):
        """Chips on seat 1..seats, zone index (into zones)."""
        if not 1 <= seat <= self.seats or not 0 <= zone < len(self.zones):
            raise ValueError("no seat %r zone %r at this table" % (seat, zone))
        return self.amounts[(seat - 1) * len(self.zones) + zone]

    def slots(self):
        """The slots (seat row * zones + zone, ascending; a tuple, or an array of the slots the reader
        told, never written into) holding chips or a take-down; the
        rows without any are passed over by one compare each instead of a walk of their zones in
        Python (14 seats x 50 zones at Craps, mostly empty)."""
        source = self.source
        if source is not None and self.amounts == source:
            if self._slots is not None:
                return self._slots
            n = self._written_count
            if n >= 0:                                   # every slot of source not 0, each once
                if self._written_sorted:
                    self._slots = self._written[:n]      # (an array: tuple() of one takes 0.5 us an item)
                else:
                    self._slots = tuple(sorted(self._written[:n]))
                return self._slots
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
        if source is not None and self.amounts == source:
            self._slots = out
        return out

    def may_take_down(self):
        """False when the reading is known to hold no take-down (the reader's copy, every slot it
        wrote told: the table's CLOSE looks for none), else True (look)."""
        source = self.source
        return source is None or self._written_count < 0 or self._downs > 0 or self.amounts != source

    # The reader's side (source): every change of that buffer goes through these three.
    def clear_told(self):
        """Zero the slots of source told since it was last cleared (work_wrote) and return True, when
        every one written was told (at most _WRITTEN_MAX); else False: the reader clears the rows it
        wrote. The reader then calls work_cleared()."""
        n = self._written_count
        if n < 0:
            return False
        source = self.source
        written = self._written
        for k in range(n):
            source[written[k]] = 0
        return True

    def work_cleared(self):
        """source is all zeros again."""
        self._slots = None
        self._written_count = 0
        self._written_sorted = True
        self._downs = 0

    def work_wrote(self, slot):
        """source's slot, 0 until now, holds chips or a take-down."""
        self._slots = None
        if self.source[slot] == TAKE_DOWN:
            self._downs += 1
        n = self._written_count
        if 0 <= n < _WRITTEN_MAX:
            # Kept ascending as they come (a reading comes seat by seat; a line's zones in any order
            # move a few places back), so the CLOSE's slots() need not sort them; a slot that would
            # move further is left where it is and slots() sorts (a reading's pass stays short).
            written = self._written
            i = n
            if self._written_sorted:
                stop = n - _SHIFT_MAX if n > _SHIFT_MAX else 0
                while i > stop and written[i - 1] > slot:
                    written[i] = written[i - 1]
                    i -= 1
                if i == stop and i and written[i - 1] > slot:
                    while i < n:                         # too far back: undone, sorted at slots()
                        written[i] = written[i + 1]
                        i += 1
                    self._written_sorted = False
            written[i] = slot
            self._written_count = n + 1
        else:
            self._written_count = -1                     # slots() walks the rows instead

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
