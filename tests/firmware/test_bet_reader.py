# The bet-recognition reader: a reading is used whole or refused whole, never in part.
from array import array

from firmware import fault_kinds, faults
from firmware.bets import TAKE_DOWN
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers.bet_reader import MAX_AMOUNT, BetReader
from firmware.events import BETS, BETS_FAULT as FAULT
from firmware.statemachine import EventQueue
from firmware.evidence import Evidence
from firmware.games.baccarat.payouts import ZONES
from tests.firmware.device_helpers import LineSource, Sender, drain, kinds
from tests.firmware.expect import heap_lock_catches_allocation, raises

SEATS = 7
PLAYER, BANKER, TIE, PLAYER_PAIR, BANKER_PAIR = range(5)


def _reader(source=None):
    return BetReader(source, EventQueue(64), Evidence(slots=16, size=96), ZONES, SEATS)


def _feed(reader, lines):
    for line in lines:
        reader.handle(line)
    return drain(reader.queue)


def _reading(s, reading_id, seat_lines, close_lines=None, close_id=None):
    """OPEN, one SEAT frame per entry of seat_lines (words after SEAT), CLOSE."""
    frames = [s("OPEN", str(reading_id))]
    for words in seat_lines:
        frames.append(s("SEAT", *words))
    count = len(seat_lines) if close_lines is None else close_lines
    frames.append(s("CLOSE", str(reading_id if close_id is None else close_id), str(count)))
    return frames


def _accept_first(reader, s):
    """A good reading, accepted, so refusals can be seen to leave it alone."""
    events = _feed(reader, _reading(s, 1, [("2", "banker=100")]))
    assert events == [(BETS, 1, 1)]
    return reader.reading.as_dict()


def test_a_complete_reading_is_accepted():
    reader = _reader()
    s = Sender("B")
    frames = _reading(s, 41, [("3", "banker=100", "banker_pair=5"), ("1", "player=25", "tie=10")])
    assert _feed(reader, frames) == [(BETS, 41, 2)]
    reading = reader.reading
    assert reading.reading_id == 41
    assert reading.amount(3, BANKER) == 100 and reading.amount(3, BANKER_PAIR) == 5
    assert reading.amount(1, PLAYER) == 25 and reading.amount(1, TIE) == 10 and reading.amount(2, TIE) == 0
    assert reading.as_dict() == {1: {"player": 25, "tie": 10}, 3: {"banker": 100, "banker_pair": 5}}
    assert reader.readings == 1 and reader.refused == 0
    raises(ValueError, reading.amount, 0, BANKER)
    raises(ValueError, reading.amount, SEATS + 1, BANKER)
    raises(ValueError, reading.amount, 1, len(ZONES))


def test_an_empty_reading_is_a_reading():
    reader = _reader()
    s = Sender("B")
    _accept_first(reader, s)
    assert _feed(reader, _reading(s, 2, [])) == [(BETS, 2, 0)]
    assert reader.reading.as_dict() == {} and reader.reading.reading_id == 2


def test_a_seat_over_several_lines_and_the_largest_amount():
    reader = _reader()
    s = Sender("B")
    big = "%d" % MAX_AMOUNT
    frames = _reading(s, 7, [("7", "player=" + big, "banker=" + big), ("7", "tie=1")])
    assert _feed(reader, frames) == [(BETS, 7, 1)]
    assert reader.reading.as_dict() == {7: {"player": MAX_AMOUNT, "banker": MAX_AMOUNT, "tie": 1}}


def _refused(seat_lines, code, **kw):
    """A reading refused with exactly one fault `code`; the previous reading is untouched."""
    reader = _reader()
    s = Sender("B")
    before = _accept_first(reader, s)
    frames = _reading(s, 9, seat_lines, **kw)
    events = _feed(reader, frames)
    assert kinds(events) == [(FAULT, code)], (seat_lines, events)
    assert reader.reading.as_dict() == before and reader.reading.reading_id == 1
    assert reader.refused == 1 and reader.readings == 1
    # The next complete reading is accepted again.
    assert _feed(reader, _reading(s, 10, [("4", "tie=5")])) == [(BETS, 10, 1)]
    return reader, events


def test_unknown_or_malformed_zone_is_refused():
    for words in (("1", "dragon=5"), ("1", "Banker=5"), ("1", "banker"), ("1", "=5"), ("1", "banker:5"),
                  ("1", "tie=5", "bankerr=5")):
        _refused([words], faults.BETS_BAD_ZONE)


def test_bad_amounts_are_refused():
    for amount in ("0", "-5", "1.5", "05", "", "1000000000", "99999999999", "5x", "+5"):
        _refused([("1", "banker=" + amount)], faults.BETS_BAD_AMOUNT)


def test_seat_out_of_range_is_refused():
    for seat in ("0", str(SEATS + 1), "x", "01", "-1"):
        _refused([(seat, "banker=5")], faults.BETS_BAD_SEAT)


def test_duplicate_zone_is_refused_in_one_line_or_across_lines():
    _refused([("1", "tie=5", "tie=5")], faults.BETS_DUP_ZONE)
    _refused([("1", "tie=5"), ("1", "tie=10")], faults.BETS_DUP_ZONE)


def test_close_must_match_the_open_and_count_the_seat_lines():
    _refused([("1", "tie=5")], faults.BETS_INCOMPLETE, close_id=8)
    _refused([("1", "tie=5")], faults.BETS_INCOMPLETE, close_lines=2)
    _refused([("1", "tie=5"), ("2", "tie=5")], faults.BETS_INCOMPLETE, close_lines=1)


def test_the_evidence_is_the_line_that_showed_the_problem():
    reader, events = _refused([("1", "tie=5"), ("2", "dragon=5")], faults.BETS_BAD_ZONE)
    assert "SEAT 2 dragon=5" in reader.evidence.text(events[0][2])


def test_bad_open_id_refuses_the_reading():
    reader = _reader()
    s = Sender("B")
    events = _feed(reader, [s("OPEN", "65536"), s("SEAT", "1", "tie=5"), s("CLOSE", "65536", "1")])
    assert kinds(events) == [(FAULT, faults.FRAME_ARGS)]
    assert reader.refused == 1 and reader.readings == 0


def test_any_lost_frame_refuses_the_reading_whole():
    for lost in range(4):
        reader = _reader()
        s = Sender("B")
        before = _accept_first(reader, s)
        frames = _reading(s, 5, [("1", "tie=5"), ("2", "banker=50")])
        del frames[lost]                     # OPEN, a SEAT line or CLOSE never arrives
        events = _feed(reader, frames)
        assert not [e for e in events if e[0] == BETS]
        assert reader.reading.as_dict() == before
        # A lost CLOSE shows when the next reading opens; that reading stands on its own.
        events += _feed(reader, _reading(s, 6, [("3", "tie=9")]))
        assert kinds(events) == [(FAULT, faults.FRAME_LOST), (FAULT, faults.BETS_INCOMPLETE),
                                 (BETS, 6)], lost
        assert reader.refused == 1 and reader.lost == 1
        assert reader.reading.as_dict() == {3: {"tie": 9}}


def test_a_garbled_frame_refuses_the_reading():
    reader = _reader()
    s = Sender("B")
    frames = _reading(s, 5, [("1", "tie=5"), ("2", "banker=50")])
    frames[2] = frames[2].replace(b"banker=50", b"banker=90")
    events = _feed(reader, frames)
    assert kinds(events) == [(FAULT, faults.FRAME_CRC), (FAULT, faults.BETS_INCOMPLETE),
                             (FAULT, faults.FRAME_LOST)]
    assert reader.readings == 0 and reader.refused == 1


def test_repeated_frames_are_dropped_and_the_reading_stands():
    reader = _reader()
    s = Sender("B")
    frames = _reading(s, 5, [("1", "tie=5"), ("2", "banker=50")])
    frames = frames[:2] + frames[1:3] + frames[2:]
    assert _feed(reader, frames) == [(BETS, 5, 2)]
    assert reader.duplicates == 2 and reader.reading.as_dict() == {1: {"tie": 5}, 2: {"banker": 50}}


def test_stray_frames_outside_a_reading():
    reader = _reader()
    s = Sender("B")
    assert kinds(_feed(reader, [s("CLOSE", "3", "0")])) == [(FAULT, faults.BETS_INCOMPLETE)]
    # SEAT lines without their OPEN: one fault, the rest of that reading skipped silently.
    events = _feed(reader, [s("SEAT", "1", "tie=5"), s("SEAT", "2", "tie=5"), s("CLOSE", "3", "2")])
    assert kinds(events) == [(FAULT, faults.BETS_INCOMPLETE)]
    assert _feed(reader, _reading(s, 4, [("1", "tie=5")])) == [(BETS, 4, 1)]


def test_open_before_close_refuses_the_first_reading_only():
    reader = _reader()
    s = Sender("B")
    events = _feed(reader, [s("OPEN", "1"), s("SEAT", "1", "tie=5")] + _reading(s, 2, [("3", "tie=7")]))
    assert kinds(events) == [(FAULT, faults.BETS_INCOMPLETE), (BETS, 2)]
    assert reader.reading.as_dict() == {3: {"tie": 7}}


def test_restart_or_sensor_fault_in_a_reading_refuses_it():
    reader = _reader()
    s = Sender("B")
    events = _feed(reader, [s("OPEN", "1"), s("SEAT", "1", "tie=5"), s.hello(), s("CLOSE", "1", "1")])
    assert kinds(events) == [(FAULT, faults.BETS_INCOMPLETE), (FAULT, faults.BETS_INCOMPLETE)]
    reader = _reader()
    events = _feed(reader, [s("OPEN", "1"), s("FAULT", "12"), s("SEAT", "1", "tie=5"), s("CLOSE", "1", "1")])
    assert kinds(events) == [(FAULT, faults.BETS_SENSOR), (FAULT, faults.BETS_INCOMPLETE)]
    assert reader.readings == 0


def test_a_line_the_source_dropped_refuses_the_reading():
    source = LineSource()
    reader = _reader(source)
    s = Sender("B")
    frames = _reading(s, 5, [("1", "tie=5")])
    source.lines += frames[:2]
    while reader.poll():
        pass
    source.drops = 1                      # an overlong line thrown away by the serial line
    source.buf = bytearray(b"B1 02 SEAT 1 tie=5 player=")    # (the bytes its buffer kept)
    source.fault_len = len(source.buf)
    source.lines.append(frames[2])
    while reader.poll():
        pass
    # b: evidence. The refusal shows the line that broke the reading, as the drop did (regression: it
    # carried no evidence, 0, and its report said "bytes": "", as if nothing had come).
    assert drain(reader.queue) == [(FAULT, faults.LINE_TOO_LONG, 1), (FAULT, faults.BETS_INCOMPLETE, 1)]
    assert reader.evidence.text(1) == "B1 02 SEAT 1 tie=5 player="
    assert reader.readings == 0 and reader.dropped_lines == 1
    reader.handle(b"zz")                  # the next bad line shows its own bytes, not the dropped line's
    assert drain(reader.queue) == [(FAULT, faults.FRAME_SYNTAX, 2)] and reader.evidence.text(2) == "zz"


def test_zone_vocabulary_comes_from_the_game():
    reader = BetReader(None, EventQueue(8), Evidence(), ("pass", "come_odds_6", "hard_8"), 10)
    s = Sender("B")
    assert _feed(reader, _reading(s, 1, [("10", "hard_8=5", "come_odds_6=30")])) == [(BETS, 1, 1)]
    assert reader.reading.as_dict() == {10: {"hard_8": 5, "come_odds_6": 30}}
    raises(ValueError, BetReader, None, EventQueue(8), Evidence(), (), 7)
    raises(ValueError, BetReader, None, EventQueue(8), Evidence(), ZONES, 0)


def test_a_whole_reading_allocates_nothing():
    assert heap_lock_catches_allocation()   # the lock is real: the block below proves something
    reader = _reader()
    s = Sender("B")
    _accept_first(reader, s)
    good = _reading(s, 2, [(str(n), "banker=%d" % (n * 100), "tie=5", "player_pair=1") for n in range(1, 8)])
    bad = _reading(s, 3, [("1", "tie=5"), ("2", "dragon=1")])
    heap_lock()
    try:
        for line in good:
            reader.handle(line)
        for line in bad:
            reader.handle(line)
    finally:
        heap_unlock()
    assert kinds(drain(reader.queue)) == [(BETS, 2), (FAULT, faults.BETS_BAD_ZONE)]
    assert reader.reading.amount(7, BANKER) == 700


def test_the_next_reading_starts_from_zeros_after_a_reading_of_any_size():
    # OPEN zeroes the slots the last reading was told (BetReading.clear_told), or, past the 128 it
    # holds, every row a seat wrote: no chip of a reading is ever read again in the next, and a
    # zone the last reading had is never taken for a duplicate. Allocation-free either way.
    from firmware.games.craps.zones import ZONE_WORDS, ZONES as CRAPS
    assert heap_lock_catches_allocation()
    reader = BetReader(None, EventQueue(16), Evidence(), CRAPS, 14, take_downs=True, words=ZONE_WORDS)
    s = Sender("B")

    def lines(seat_zones):
        out = []
        for seat, zones in seat_zones:
            for i in range(0, len(zones), 4):                 # (4 words: a frame's 96 bytes)
                out.append((str(seat),) + tuple("%s=%d" % (z, 5) for z in zones[i:i + 4]))
        return out

    big = lines([(seat, CRAPS[:44]) for seat in (2, 5, 9)])              # 132 slots: past the 128 told
    small = lines([(5, ("pass", "field")), (14, CRAPS[-3:])])
    for first, second in ((big, small), (small, big), (small, small), (big, big)):
        _feed(reader, _reading(s, 1, first))
        frames = _reading(s, 2, second)
        heap_lock()
        try:
            for line in frames:
                reader.handle(line)
        finally:
            heap_unlock()
        assert drain(reader.queue) == [(BETS, 2, len(set(words[0] for words in second)))]
        want = {}
        for words in second:
            for word in words[1:]:
                want.setdefault(int(words[0]), {})[word.split("=")[0]] = 5
        assert reader.reading.as_dict() == want
        assert sum(1 for amount in reader.reading.amounts if amount) == sum(len(row) for row in want.values())


# -- take-downs: "zone=-", the chips in play on that zone were taken off ---------------------------
def test_a_take_down_at_a_table_that_takes_none_refuses_the_reading_whole():
    # Baccarat: bets are closed by the first card; a take-down is never half-read as chips.
    reader, events = _refused([("1", "tie=5"), ("2", "banker=-")], faults.BETS_TAKE_DOWN)
    assert "SEAT 2 banker=-" in reader.evidence.text(events[0][2])
    assert fault_kinds.name(faults.BETS_TAKE_DOWN) == "bets_take_down"


def test_a_take_down_is_read_at_a_table_that_takes_them():
    reader = BetReader(None, EventQueue(8), Evidence(), ("pass", "pass_odds", "big_number_6"), 3,
                       take_downs=True)
    s = Sender("B")
    assert _feed(reader, _reading(s, 4, [("2", "pass_odds=-", "big_number_6=12"), ("3", "pass=-")])) \
        == [(BETS, 4, 2)]
    assert reader.reading.amount(2, 1) == TAKE_DOWN and reader.reading.amount(2, 2) == 12
    assert reader.reading.as_dict() == {2: {"pass_odds": "down", "big_number_6": 12}, 3: {"pass": "down"}}


def test_only_a_lone_minus_is_a_take_down():
    reader = BetReader(None, EventQueue(8), Evidence(), ZONES, SEATS, take_downs=True)
    s = Sender("B")
    for amount in ("--", "-0", "-5", "-1", "-x", "5-"):
        events = _feed(reader, _reading(s, 5, [("1", "tie=" + amount)]))
        assert kinds(events) == [(FAULT, faults.BETS_BAD_AMOUNT)], (amount, events)
    events = _feed(reader, _reading(s, 6, [("1", "tie=-", "tie=5")]))
    assert kinds(events) == [(FAULT, faults.BETS_DUP_ZONE)]
    assert reader.readings == 0


def test_a_new_reading_starts_clean_after_partly_written_ones():
    # _open clears only the rows a SEAT line wrote, and _accept counts those rows as the seats with
    # chips: a refused reading's rows and an accepted one's must not leak into the next reading.
    reader = _reader()
    s = Sender("B")
    wide = _reading(s, 1, [(str(n), "banker=100", "tie=5") for n in range(1, SEATS + 1)])
    assert kinds(_feed(reader, wide)) == [(BETS, 1)]
    bad = _reading(s, 2, [("2", "player=7"), ("4", "tie=5", "dragon=1"), ("6", "tie=9")])
    assert kinds(_feed(reader, bad)) == [(FAULT, faults.BETS_BAD_ZONE)]
    assert reader.reading.reading_id == 1 and len(reader.reading.as_dict()) == SEATS   # left as it was
    assert _feed(reader, _reading(s, 3, [("5", "player=25")])) == [(BETS, 3, 1)]
    assert reader.reading.as_dict() == {5: {"player": 25}}
    assert _feed(reader, _reading(s, 4, [("1", "banker=10"), ("7", "banker=20", "tie=-1")])) != []
    assert _feed(reader, _reading(s, 5, [("7", "player=5"), ("7", "tie=5")])) == [(BETS, 5, 1)]
    assert reader.reading.as_dict() == {7: {"player": 5, "tie": 5}}
    assert _feed(reader, _reading(s, 6, [])) == [(BETS, 6, 0)]
    assert reader.reading.as_dict() == {}


def test_zones_sharing_length_and_first_and_last_byte_are_told_apart():
    # The reader looks a word's zone up by (length, first byte, last byte) and then compares it
    # whole: zones alike in those three are still told apart, and a word alike but unknown refused.
    zones = ("ab", "axb", "ayb", "azb", "b", "a")
    reader = BetReader(None, EventQueue(16), Evidence(slots=4, size=96), zones, 2)
    s = Sender("B")
    events = _feed(reader, _reading(s, 1, [("1", "ayb=5", "azb=6", "a=1"), ("2", "axb=7", "ab=2", "b=3")]))
    assert events == [(BETS, 1, 2)]
    assert reader.reading.as_dict() == {1: {"ayb": 5, "azb": 6, "a": 1}, 2: {"axb": 7, "ab": 2, "b": 3}}
    for word in ("aqb=5", "=5", "ab", "abb=5", "b=5=", "bb=5"):
        events = _feed(reader, _reading(s, 2, [("1", word)]))
        assert kinds(events) == [(FAULT, faults.BETS_BAD_ZONE if word != "b=5=" else faults.BETS_BAD_AMOUNT)], word
    assert reader.reading.reading_id == 1


# -- BetReading.slots(): the slots with chips, each seat's row passed over by one compare when empty ----
def _naive_slots(reading):
    return [i for i in range(len(reading.amounts)) if reading.amounts[i]]


def test_reading_slots_are_every_slot_with_chips_or_a_take_down_in_order():
    from firmware.bets import BetReading
    reading = BetReading(("pass", "field", "hard_8"), 5)
    assert reading.slots() == ()
    for i, value in ((14, 5), (0, 10), (4, TAKE_DOWN), (8, 1), (9, 2)):
        reading.amounts[i] = value               # written in place, as the reader and recovery write it
    assert list(reading.slots()) == [0, 4, 8, 9, 14] == _naive_slots(reading)
    reading.amounts[0] = 0
    reading.amounts[14] = 0
    assert list(reading.slots()) == [4, 8, 9] == _naive_slots(reading)


def test_reading_slots_follow_an_accepted_reading_and_the_next():
    reader = _reader()
    s = Sender("B")
    _feed(reader, _reading(s, 1, [("7", "tie=5", "banker=100"), ("2", "player=3")]))
    width = len(ZONES)
    assert list(reader.reading.slots()) == [1 * width + PLAYER, 6 * width + BANKER, 6 * width + TIE]
    _feed(reader, _reading(s, 2, [("1", "banker_pair=1")]))
    assert list(reader.reading.slots()) == [BANKER_PAIR] == _naive_slots(reader.reading)


def test_reading_slots_are_remembered_only_while_the_reading_is_the_readers_copy():
    # Issue 14: the journal's record and the placement both ask for a reading's slots; the second asks
    # no walk. Whoever writes amounts, or the reader's next reading, is never answered from memory.
    reader = _reader()
    s = Sender("B")
    reading = reader.reading
    width = len(ZONES)
    _feed(reader, _reading(s, 1, [("3", "tie=5", "banker=100")]))
    first = reading.slots()
    assert reading.slots() is first and list(first) == [2 * width + BANKER, 2 * width + TIE]
    reading.amounts[0] = 40                           # written in place (recovery, a test rig)
    assert list(reading.slots()) == [0, 2 * width + BANKER, 2 * width + TIE] == _naive_slots(reading)
    reading.amounts[0] = 0
    assert list(reading.slots()) == [2 * width + BANKER, 2 * width + TIE]
    for line in _reading(s, 2, [("1", "player=7")])[:-1]:    # the next reading, not yet closed
        reader.handle(line)
    assert list(reading.slots()) == [2 * width + BANKER, 2 * width + TIE]
    for i in range(len(reading.amounts)):             # amounts made what the reader is reading now
        reading.amounts[i] = 0
    reading.amounts[PLAYER] = 7
    assert list(reading.slots()) == [PLAYER] == _naive_slots(reading)
    _feed(reader, _reading(s, 3, [("2", "tie=1")]))
    assert list(reading.slots()) == [width + TIE] and reading.slots() is reading.slots()


def test_a_closed_readings_slots_come_from_the_slots_the_reader_wrote_sorted():
    # Issue 14: the reader tells the reading each slot as its lines come, so the CLOSE sorts those
    # instead of walking the rows (rows taken away below: a walk would find nothing).
    reader = _reader()
    s = Sender("B")
    width = len(ZONES)
    _feed(reader, _reading(s, 1, [("7", "tie=5", "player=100"), ("2", "banker_pair=1", "banker=3")]))
    reading = reader.reading
    rows = reading.rows
    reading.rows = ()
    try:
        assert list(reading.slots()) == [width + BANKER, width + BANKER_PAIR, 6 * width + PLAYER, 6 * width + TIE]
    finally:
        reading.rows = rows
    assert list(reading.slots()) == _naive_slots(reading)


def test_a_reading_of_more_slots_than_the_reader_tells_is_walked():
    from firmware.games.craps.zones import ZONES as CRAPS_ZONES
    reader = BetReader(None, EventQueue(8), Evidence(), CRAPS_ZONES, 14, take_downs=True)
    s = Sender("B")
    lines = []
    for seat in range(14, 0, -1):                     # 14 seats x 10 zones = 140 slots, last seat first
        words = ["%s=%d" % (CRAPS_ZONES[z], 5) for z in range(37, 27, -1)]
        if seat == 11:
            words[0] = CRAPS_ZONES[37] + "=-"         # a take-down is a slot too
        for i in range(0, 10, 4):                     # a few words a line (MAX_LINE, MAX_ARGS)
            lines.append([str(seat)] + words[i:i + 4])
    assert _feed(reader, _reading(s, 4, lines)) == [(BETS, 4, 14)]
    reading = reader.reading
    assert len(reading.slots()) == 140 and list(reading.slots()) == _naive_slots(reading)
    assert _feed(reader, _reading(s, 5, [("3", "hard_8=5")])) == [(BETS, 5, 1)]
    assert list(reading.slots()) == [2 * len(CRAPS_ZONES) + CRAPS_ZONES.index("hard_8")] == _naive_slots(reading)


def _told(reading, order):
    # The reader's side: each slot written into its work buffer and told (BetReading.work_wrote),
    # then the reading accepted (amounts made a copy of the work buffer).
    work = array("i", [0] * len(reading.amounts))
    reading.source = work
    reading.work_cleared()
    for slot in order:
        work[slot] = 5
        reading.work_wrote(slot)
    reading.amounts[:] = work


def test_a_reading_told_seat_by_seat_is_kept_in_order_so_the_close_sorts_nothing():
    # Issue 14: a reading comes seat by seat, each line's zones in any order: each slot told is put
    # in its place as it comes (a reading pass), so the CLOSE's slots() (the journal's record and the
    # placement) sorts nothing. Slots told far out of order are sorted at slots(), as before.
    from firmware import bets as bets_module
    from firmware.bets import BetReading
    from firmware.games.craps.zones import ZONES as CRAPS_ZONES
    width = len(CRAPS_ZONES)
    sorts = []

    def counted_sorted(values):
        sorts.append(len(values))
        return sorted(values)
    bets_module.sorted = counted_sorted               # the module's global, found before the builtin
    try:
        reading = BetReading(CRAPS_ZONES, 14)
        order = [seat * width + z for seat in range(10) for z in (0, 25, 19, 18, 30)]
        _told(reading, order)
        assert list(reading.slots()) == sorted(order) == _naive_slots(reading) and sorts == []
        seed = 7
        for n in (1, 2, 9, 20, 60, 128):               # any order: still every slot, ascending
            slots = []
            while len(slots) < n:
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                slot = seed % (14 * width)
                if slot not in slots:
                    slots.append(slot)
            reading = BetReading(CRAPS_ZONES, 14)
            _told(reading, slots)
            assert list(reading.slots()) == sorted(slots) == _naive_slots(reading), n
        assert sorts                                   # (far out of order: sorted at slots())
        del sorts[:]
        reading = BetReading(CRAPS_ZONES, 14)
        _told(reading, [seat * width + 3 for seat in range(13, -1, -1)])    # the last seat first
        assert list(reading.slots()) == _naive_slots(reading) and sorts == [14]
    finally:
        del bets_module.sorted


def test_a_reading_says_when_it_holds_no_take_down():
    # Issue 14: the Craps CLOSE looks for take-downs among a reading's slots only when the reading
    # may hold one: the reader tells each slot it writes, take-downs among them.
    from firmware.bets import BetReading
    from firmware.games.craps.zones import ZONES as CRAPS_ZONES
    assert BetReading(CRAPS_ZONES, 14).may_take_down()          # nothing told: look
    reader = BetReader(None, EventQueue(8), Evidence(), CRAPS_ZONES, 14, take_downs=True)
    reading = reader.reading
    s = Sender("B")
    assert _feed(reader, _reading(s, 1, [("3", "pass=10", "field=5"), ("9", "hard_8=5")])) == [(BETS, 1, 2)]
    assert not reading.may_take_down()
    assert _feed(reader, _reading(s, 2, [("3", "pass=10"), ("9", "field=-")])) == [(BETS, 2, 2)]
    assert reading.may_take_down()
    assert _feed(reader, _reading(s, 3, [("4", "field=5")])) == [(BETS, 3, 1)]
    assert not reading.may_take_down()
    reading.amounts[0] = TAKE_DOWN                               # written in place (recovery, a test rig)
    assert reading.may_take_down()
    reading.amounts[0] = 0
    assert not reading.may_take_down()
    for line in _reading(s, 4, [("1", "pass=-")])[:-1]:          # the next reading, not yet closed
        reader.handle(line)
    assert reading.may_take_down()                               # (amounts are not the reader's copy now)


def test_every_message_with_a_word_too_many_or_too_few_is_refused():
    # The bet reader's messages and their words as docs/protocol.md gives them, written out (not read back
    # from the driver's TYPES): each frame refused as it stands, and no reading is taken from around it.
    reader = _reader()
    s = Sender("B")
    wrong = (("HELLO",), ("HELLO", "bets-1.0", "x"), ("OPEN",), ("OPEN", "1", "2"), ("SEAT", "1"), ("CLOSE", "1"),
             ("CLOSE", "1", "0", "x"), ("FAULT",), ("FAULT", "12", "x"))
    for words in wrong:
        assert kinds(_feed(reader, [s(*words)])) == [(FAULT, faults.FRAME_ARGS)], words
    assert reader.bad_frames == len(wrong) and reader.readings == 0
    # inside a reading, such a frame refuses the reading whole (a reading is used whole or not at all)
    events = _feed(reader, [s("OPEN", "2"), s("SEAT", "1", "tie=5"), s("CLOSE", "2", "1", "x"), s("CLOSE", "2", "1")])
    assert kinds(events) == [(FAULT, faults.FRAME_ARGS), (FAULT, faults.BETS_INCOMPLETE)]
    assert reader.readings == 0 and _feed(reader, _reading(s, 3, [("1", "tie=5")])) == [(BETS, 3, 1)]
