# Bet recognition (RFID antennas under the bet spots) on its UART: one reading per close of bets.
#
#   OPEN <id>                              a reading starts (id 0..65535, the reader's own count)
#   SEAT <n> <zone>=<amount> ...           chips on seat n (1..seats), 1 to MAX_ARGS-1 zones a line
#                                          (<zone>=- : the chips in play there were taken off)
#   CLOSE <id> <lines>                     the reading ends after <lines> SEAT lines
#   HELLO <firmware> / FAULT <code>        as every device (docs/protocol.md, "Bet reader"): a HELLO
#                                          between readings is BETS_FAULT faults.BETS_RESTARTED (reported)
#
# A seat whose zones do not fit one line (MAX_LINE) takes several SEAT lines;
# a zone may appear once per seat in the whole reading. CLOSE counts SEAT
# lines, not seats, so a lost continuation line is caught even without the
# counter. A reading is accepted only whole: every frame in order, none lost,
# refused, or from a restarted reader, every zone known, every amount a whole
# number 1..MAX_AMOUNT or "-" (a take-down, bets.TAKE_DOWN in the reading) at a
# table that takes them (take_downs=True: Craps; Baccarat's bets are closed by
# the first card, so there a take-down refuses the reading). Then it is copied into `reading` (BetReading) and a
# BETS event (a = id, b = seats with chips) is posted. Anything else refuses
# the whole reading with one FAULT (evidence: the line that showed it); the
# accepted reading is left as it was, never partly overwritten.
from array import array

from firmware.bets import BetReading
from firmware.device_frame import uint
from firmware.drivers.device_link import DeviceLink

# copies of firmware.bets (tests/host/test_const_copies.py)
_TAKE_DOWN = const(-1)
# copies of firmware.device_frame (tests/host/test_const_copies.py)
_MAX_ARGS = const(8)
# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_BETS_FAULT = const(14)
# copies of firmware.faults (tests/host/test_const_copies.py)
_BETS_BAD_AMOUNT = const(45)
_BETS_BAD_SEAT = const(43)
_BETS_BAD_ZONE = const(44)
_BETS_DUP_ZONE = const(46)
_BETS_INCOMPLETE = const(42)
_BETS_RESTARTED = const(54)
_BETS_SENSOR = const(41)
_BETS_TAKE_DOWN = const(51)
_FRAME_ARGS = const(37)

DEVICE = b"B"
VERSION = const(1)
MAX_AMOUNT = const(999999999)   # 9 digits: a small int on every MicroPython port
MAX_READING_ID = const(65535)
_MAX_SEAT_LINES = const(255)
_MAX_ZONES = const(255)         # zones a reader tells apart (_next_zone: a byte a zone)

TYPES = (
    (b"HELLO", 1, 1),
    (b"OPEN", 1, 1),
    (b"SEAT", 2, _MAX_ARGS),
    (b"CLOSE", 2, 2),
    (b"FAULT", 1, 1),
)
_OPEN = const(1)
_SEAT = const(2)
_CLOSE = const(3)
_FAULT = const(4)

_IDLE = const(0)        # between readings
_COLLECTING = const(1)  # OPEN seen, all well so far
_REFUSING = const(2)    # this reading is refused: skip to its CLOSE (or the next OPEN)
_EQUALS = const(61)
_MINUS = const(45)


def _same_at(line, start, end, words, at):
    """line[start:end] == words[at:at + end - start] (the lengths agree: the caller checked), without
    slicing."""
    for i in range(end - start):
        if line[start + i] != words[at + i]:
            return False
    return True


class BetReader(DeviceLink):
    def __init__(self, source, queue, evidence, zones, seats, reading=None, take_downs=False, words=None):
        """zones: the game's zone names (e.g. baccarat.ZONES); seats: 1..seats on the layout;
        reading: the BetReading to fill (shared with the table controller), or a new one;
        take_downs: the table takes "zone=-" take-downs (else such a reading is refused whole);
        words: the zone names' bytes run together, a literal of the game's (constant in flash), or
        None (made here)."""
        if not zones or seats < 1:
            raise ValueError("a bet reader needs zones and at least one seat")
        DeviceLink.__init__(self, source, queue, evidence, DEVICE, VERSION, TYPES)
        # Its faults never hold a round (a refused reading only means no nets): an event kind of its own.
        self.fault_event = _BETS_FAULT
        if len(zones) > _MAX_ZONES:
            raise ValueError("a bet reader reads at most %d zones" % _MAX_ZONES)
        self._index(zones, words)
        self.take_downs = take_downs
        self.reading = reading if reading is not None else BetReading(zones, seats)
        self._work = array("i", [0] * len(self.reading.amounts))
        self.reading.source = self._work          # (BetReading.slots(): remembered while they agree)
        # The seats a SEAT line wrote into _work since it was last cleared (1 a seat): _open clears
        # only their rows (a reading not told every slot), _accept counts them as the seats with chips (a SEAT line writes at least
        # one zone, and a reading is accepted only if every word was), instead of walking every
        # seat x zone slot (700 at Craps) in Python twice a reading.
        self._seats_written = bytearray(self.reading.seats)

        class Slicer:       # Slicer()[:] is a slice object (MicroPython cannot call slice()), made once
            def __getitem__(self, key):     # here: x[:] builds one on the heap at every store, and a
                return key                  # reading allocates nothing (the class is not kept)
        self._all = Slicer()[:]
        self._state = _IDLE
        self._id = -1
        self._lines = 0
        self.readings = 0        # readings accepted
        self.refused = 0         # readings refused

    def _index(self, zones, words):
        """The zone lookup _seat() reads: _words, _word_at, _buckets, _next_zone."""
        # The zone names' bytes as one object, zone z's from _word_at[z] to _word_at[z + 1] (a bytes
        # object a zone, and a tuple of them, kept 0.3 KB more at Craps' 50 zones). The game's literal
        # when it has one (Craps' zones.ZONE_WORDS, in flash when frozen: made here it kept 0.5 KB of
        # the heap), checked zone by zone.
        if words is None:
            words = "".join(zones).encode()
        self._words = words
        word_at = self._word_at = array("H", [0] * (len(zones) + 1))
        for z in range(len(zones)):
            name = zones[z].encode()
            n = len(name)
            if not n:
                raise ValueError("a zone needs a name")
            word_at[z + 1] = word_at[z] + n
            if words[word_at[z]:word_at[z + 1]] != name:
                raise ValueError("the bet reader's words are not its zones at %r" % zones[z])
        if len(words) != word_at[len(zones)]:
            raise ValueError("the bet reader's words are not its zones")
        # Zone candidates by a hash of (length, first byte, last byte) in a table of buckets, a byte a
        # bucket: the first zone there + 1 (0: none), _next_zone[z] the next after z (+1; 0: none). A
        # word is compared with the few zones of its bucket of the same length (38 at Craps were
        # compared in turn, a call each). A dict of the exact keys kept 0.4 KB at Craps, this 0.14.
        # The hash: length + first byte * 5 + last byte * 11, masked (_seat() works it out the same
        # way): 5 and 11 spread Craps' 50 zones over 128 buckets at 1.2 candidates a zone (length, first
        # and last byte alike share a bucket).
        size = 16
        while size < 2 * len(zones):
            size <<= 1
        buckets = self._buckets = bytearray(size)          # (its length - 1: the mask)
        self._next_zone = bytearray(len(zones))
        for z in range(len(zones) - 1, -1, -1):
            at = word_at[z]
            key = (word_at[z + 1] - at + words[at] * 5 + words[word_at[z + 1] - 1] * 11) & (size - 1)
            self._next_zone[z] = buckets[key]
            buckets[key] = z + 1

    def _message(self, frame):
        kind = frame.type
        if kind == _SEAT:
            if self._state == _COLLECTING:
                self._seat(frame)
            elif self._state == _IDLE:           # chips without an OPEN: its OPEN was lost
                self._refuse(_BETS_INCOMPLETE)
        elif kind == _OPEN:
            if self._state == _COLLECTING:        # the previous reading never closed
                self._refuse(_BETS_INCOMPLETE)
            self._open(frame)
        elif kind == _CLOSE:
            self._close(frame)
        elif kind == _FAULT:
            self.fault(_BETS_SENSOR)          # breaks a reading in progress
        else:                                     # HELLO: a restart cuts a reading short
            if self._state == _COLLECTING:
                self._refuse(_BETS_INCOMPLETE)        # (the refusal shows the HELLO line)
            else:                                 # between readings: reported (`bet_reader` `restarted`)
                self.queue.put(self.fault_event, _BETS_RESTARTED, self.keep_line())
            self._state = _IDLE

    def _broken(self):
        if self._state == _COLLECTING:
            self._refuse(_BETS_INCOMPLETE)

    def _refuse(self, code):
        self.refused += 1
        self._state = _REFUSING
        self.queue.put(self.fault_event, code, self.keep_line())

    def _open(self, frame):
        reading_id = frame.arg_uint(0, MAX_READING_ID)
        if reading_id < 0:
            self._state = _COLLECTING             # so that _refuse counts this reading
            self._refuse(_FRAME_ARGS)
            return
        # The slots the last reading wrote are zeroed one by one, as the reading was told them (a
        # reading of 50 bets: 50 stores); past the most it holds, each row a seat wrote, zone by zone
        # (700 stores at most at Craps, a reading of more than 128 bets). A slice a row (and a row of
        # zeros) kept 0.3 KB more at Craps (issue 14).
        told = self.reading.clear_told()
        work = self._work
        written = self._seats_written
        width = len(self._word_at) - 1
        for seat in range(len(written)):
            if written[seat]:
                if not told:
                    for i in range(seat * width, seat * width + width):
                        work[i] = 0
                written[seat] = 0
        self.reading.work_cleared()
        self._id = reading_id
        self._lines = 0
        self._state = _COLLECTING

    def _close(self, frame):
        state = self._state
        self._state = _IDLE
        if state == _REFUSING:
            return                                # already refused and reported
        if state == _IDLE or frame.arg_uint(0, MAX_READING_ID) != self._id \
                or frame.arg_uint(1, _MAX_SEAT_LINES) != self._lines:
            self._refuse(_BETS_INCOMPLETE)
            self._state = _IDLE
            return
        self._accept()

    def _seat(self, frame):
        reading = self.reading
        seat = frame.arg_uint(0, reading.seats)
        if seat < 1:
            self._refuse(_BETS_BAD_SEAT)
            return
        line = frame.line
        words = self._words
        word_at = self._word_at
        buckets = self._buckets
        mask = len(buckets) - 1
        next_zone = self._next_zone
        work = self._work
        base = (seat - 1) * (len(word_at) - 1)
        self._seats_written[seat - 1] = 1                  # before any write: _open clears the row
        for i in range(1, frame.nargs):
            start = frame.starts[i]
            end = frame.ends[i]
            eq = start
            while eq < end and line[eq] != _EQUALS:
                eq += 1
            zone = -1
            if start < eq < end:                               # no "=", or no name: not a zone=amount word
                n = eq - start
                z = buckets[(n + line[start] * 5 + line[eq - 1] * 11) & mask] - 1     # (_index's hash)
                while z >= 0:
                    at = word_at[z]
                    if word_at[z + 1] - at == n and _same_at(line, start, eq, words, at):
                        zone = z
                        break
                    z = next_zone[z] - 1
            if zone < 0:
                self._refuse(_BETS_BAD_ZONE)
                return
            if eq + 2 == end and line[eq + 1] == _MINUS:
                if not self.take_downs:
                    self._refuse(_BETS_TAKE_DOWN)
                    return
                amount = _TAKE_DOWN
            else:
                amount = uint(line, eq + 1, end, MAX_AMOUNT)    # -1 when bad: never a take-down
                if amount < 1:
                    self._refuse(_BETS_BAD_AMOUNT)
                    return
            if work[base + zone]:
                self._refuse(_BETS_DUP_ZONE)
                return
            work[base + zone] = amount
            reading.work_wrote(base + zone)
        self._lines += 1

    def _accept(self):
        reading = self.reading
        reading.amounts[self._all] = self._work           # one slice store (same length and type)
        seats_with_chips = 0
        for written in self._seats_written:               # each holds a nonzero amount or a take-down
            seats_with_chips += written
        reading.reading_id = self._id
        self.readings += 1
        self.queue.put(_BETS, self._id, seats_with_chips)
