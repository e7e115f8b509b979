"""Property tests: device frames and drivers against an independent encoder (hostsim.devices).

hostsim.devices builds frames with format strings and binascii.crc_hqx, apart
from firmware/device_frame.py, so a round trip checks the firmware's CRC and
parser against a second implementation. Damage (a changed byte, a cut line,
a lost or repeated frame) must never turn into a different accepted message.
"""
from hypothesis import assume, given, settings, strategies as st

from firmware import cards, device_frame as df, faults, throws
from firmware.drivers.bet_reader import MAX_AMOUNT, MAX_READING_ID, BetReader
from firmware.drivers.dice_reader import DiceReader
from firmware.drivers.shoe import TYPES as SHOE_TYPES, Shoe
from firmware.events import BETS, BETS_FAULT, CARD, FAULT, SHOE, SHOE_CUT, SHOE_HELLO, SHOE_IN, \
    SHOE_OUT, SHOE_UNREAD, THROW
from firmware.statemachine import EventQueue
from firmware.evidence import Evidence
from firmware.games.craps.dice import DiceError, check_report
from firmware.games.baccarat.payouts import ZONES
from hostsim import devices

WORD = st.text(alphabet=[chr(c) for c in range(33, 127) if chr(c) != "*"], min_size=1, max_size=14)
TYPE = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=df.MAX_TYPE)
CRAPS_LIKE = ("pass", "dont_pass", "pass_odds", "come", "come_odds_4", "come_odds_6", "come_odds_10",
              "dont_come_odds_10", "field", "hard_4", "hard_8", "big_number_6", "any_seven", "horn")


def _drain(queue):
    out = []
    while queue.get():
        out.append((queue.kind, queue.a, queue.b))
    return out


@st.composite
def frames(draw):
    device = draw(st.sampled_from("ABDSZ"))
    version = draw(st.integers(1, 9))
    counter = draw(st.integers(0, 255))
    kind = draw(TYPE)
    words = draw(st.lists(WORD, max_size=df.MAX_ARGS))
    line = devices.frame(device, version, counter, kind, *words).rstrip(b"\n")
    assume(len(line) <= df.MAX_LINE)
    return device, version, counter, kind, words, line


@settings(max_examples=400)
@given(frames())
def test_any_frame_round_trips_and_both_encoders_agree(spec):
    device, version, counter, kind, words, line = spec
    assert df.encode(device, version, counter, kind, words) == line
    frame = df.Frame(device.encode(), version, ((kind.encode(), 0, df.MAX_ARGS),))
    assert frame.decode(line) == df.OK
    assert frame.counter == counter and frame.type == 0 and frame.nargs == len(words)
    assert [bytes(line[frame.starts[i]:frame.ends[i]]).decode() for i in range(frame.nargs)] == words


@settings(max_examples=400)
@given(frames(), st.data())
def test_one_changed_byte_is_always_refused(spec, data):
    *_, line = spec
    i = data.draw(st.integers(0, len(line) - 1))
    value = data.draw(st.integers(0, 255).filter(lambda v: v != line[i]))
    damaged = bytearray(line)
    damaged[i] = value
    kind = spec[3].encode()
    frame = df.Frame(spec[0].encode(), spec[1], ((kind, 0, df.MAX_ARGS),))
    assert frame.decode(damaged) != df.OK


@settings(max_examples=300)
@given(frames(), st.data())
def test_a_cut_frame_is_always_refused(spec, data):
    *_, line = spec
    keep = data.draw(st.integers(0, len(line) - 1))
    frame = df.Frame(spec[0].encode(), spec[1], ((spec[3].encode(), 0, df.MAX_ARGS),))
    assert frame.decode(line[:keep]) != df.OK


@settings(max_examples=500)
@given(st.binary(max_size=140))
def test_arbitrary_bytes_never_raise_and_only_canonical_frames_pass(data):
    frame = df.Frame(b"S", 1, SHOE_TYPES)
    if frame.decode(data) == df.OK:        # then it is exactly what an encoder would send
        words = [bytes(data[frame.starts[i]:frame.ends[i]]).decode() for i in range(frame.nargs)]
        kind = SHOE_TYPES[frame.type][0].decode()
        assert df.encode("S", 1, frame.counter, kind, words) == data
    Shoe(None, EventQueue(8), Evidence()).handle(data)
    BetReader(None, EventQueue(8), Evidence(), ZONES, 7).handle(data)
    DiceReader(None, EventQueue(8), Evidence()).handle(data)


# -- the shoe ---------------------------------------------------------------------------

CARD_CODES = st.integers(0, 51).map(cards.name)


@st.composite
def shoe_messages(draw):
    """(method name, args, expected event (kind, a) or None for a HELLO)."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        code = draw(CARD_CODES)
        up = draw(st.booleans())
        return ("card", (code, up), (CARD, cards.parse(code), 1 if up else 0))
    name, status = (("cut_card", SHOE_CUT), ("inserted", SHOE_IN), ("removed", SHOE_OUT),
                    ("unreadable", SHOE_UNREAD), ("hello", SHOE_HELLO))[choice - 1]
    return (name, (), (SHOE, status, None))


def _acted(messages, lines, skip=-1):
    """(kind, a) the shoe acts on, line `skip` lost: the same bytes as the frame before (a HELLO
    right after a HELLO: counter 00, same firmware) cannot be told from a repeat: dropped."""
    out, last = [], None
    for n, (message, line) in enumerate(zip(messages, lines)):
        if n != skip and line != last:
            out.append(message[2][:2])
            last = line
    return out


@settings(max_examples=200)
@given(st.integers(0, 255), st.lists(shoe_messages(), max_size=40))
def test_shoe_messages_round_trip(counter, messages):
    device = devices.ShoeDevice(counter=counter)
    lines = [getattr(device, name)(*args).rstrip(b"\n") for name, args, _ in messages]
    shoe = Shoe(None, EventQueue(64), Evidence())
    for line in lines:
        shoe.handle(line)
    events = _drain(shoe.queue)
    acted = _acted(messages, lines)
    assert [(k, a) for k, a, _ in events] == acted
    for kind, a, b in events:             # a HELLO keeps its line (the firmware token) as evidence
        assert (b > 0) == (kind == SHOE and a == SHOE_HELLO) or kind == CARD
    assert shoe.lost == shoe.crc_errors == shoe.bad_frames == 0
    assert shoe.duplicates == len(messages) - len(acted)


def _subsequence(part, whole):
    it = iter(whole)
    return all(item in it for item in part)


@settings(max_examples=300)
@given(st.lists(shoe_messages(), min_size=2, max_size=10), st.data())
def test_damaged_shoe_frame_never_becomes_another_message(messages, data):
    device = devices.ShoeDevice()
    sent = [getattr(device, name)(*args).rstrip(b"\n") for name, args, _ in messages]
    k = data.draw(st.integers(0, len(sent) - 1))
    i = data.draw(st.integers(0, len(sent[k]) - 1))
    lines = list(sent)
    lines[k] = devices.garble(sent[k], index=i, value=data.draw(st.integers(0, 255).filter(
        lambda v: v != sent[k][i])))
    shoe = Shoe(None, EventQueue(64), Evidence())
    for line in lines:
        shoe.handle(line)
    events = _drain(shoe.queue)
    assert any(kind == FAULT for kind, _, _ in events)
    delivered = [(kind, a) for kind, a, _ in events if kind != FAULT]
    before = _acted(messages[:k], sent[:k])
    after = _acted(messages, sent, skip=k)[len(before):]
    assert delivered[:len(before)] == before
    if messages[k][0] == "hello":
        # The lost HELLO restarted the counter unseen: the frames after it may now clash with
        # counters already seen and be refused; none is ever taken for something else.
        assert _subsequence(delivered[len(before):], after)
    else:
        assert delivered[len(before):] == after


# -- the bet reader ----------------------------------------------------------------------

def bet_readings(zones, seats=7):
    amounts = st.integers(1, MAX_AMOUNT)
    seat_bets = st.dictionaries(st.sampled_from(zones), amounts, min_size=1)
    return st.dictionaries(st.integers(1, seats), seat_bets, max_size=seats)


def _reader(zones=ZONES, seats=7):
    return BetReader(None, EventQueue(64), Evidence(), zones, seats)


def _send(reader, frames):
    for line in frames:
        reader.handle(line.rstrip(b"\n"))
    return _drain(reader.queue)


@settings(max_examples=200)
@given(bet_readings(ZONES), st.integers(0, MAX_READING_ID), st.integers(0, 255))
def test_any_bet_reading_round_trips(bets, reading_id, counter):
    reader = _reader()
    events = _send(reader, devices.BetReaderDevice(counter=counter).bet_frames(bets, reading_id))
    assert events == [(BETS, reading_id, len(bets))]
    assert reader.reading.as_dict() == bets and reader.reading.reading_id == reading_id


def take_down_readings(zones, seats=7):
    """Readings with chips and take-downs ("down", on the wire "zone=-") mixed."""
    amounts = st.one_of(st.integers(1, MAX_AMOUNT), st.just(devices.DOWN))
    seat_bets = st.dictionaries(st.sampled_from(zones), amounts, min_size=1)
    return st.dictionaries(st.integers(1, seats), seat_bets, max_size=seats)


@settings(max_examples=150)
@given(take_down_readings(CRAPS_LIKE, seats=10), st.integers(0, MAX_READING_ID))
def test_take_downs_round_trip_where_the_table_takes_them_and_refuse_the_reading_elsewhere(bets, reading_id):
    frames = devices.BetReaderDevice().bet_frames(bets, reading_id)
    reader = BetReader(None, EventQueue(64), Evidence(), CRAPS_LIKE, 10, take_downs=True)
    assert _send(reader, frames) == [(BETS, reading_id, len(bets))]
    assert reader.reading.as_dict() == bets
    plain = BetReader(None, EventQueue(64), Evidence(), CRAPS_LIKE, 10)   # Baccarat's: bets closed by the card
    events = _send(plain, frames)
    has_down = any(a == devices.DOWN for zones in bets.values() for a in zones.values())
    if has_down:
        assert [e[:2] for e in events] == [(BETS_FAULT, faults.BETS_TAKE_DOWN)]
        assert plain.reading.reading_id == -1 and plain.readings == 0
    else:
        assert events == [(BETS, reading_id, len(bets))]


def test_a_seat_line_takes_seven_pairs_where_they_fit():
    # Eight short pairs: seven fit one frame (the seat word and seven: MAX_ARGS), the eighth goes on the next.
    zones = ("pass", "come", "field", "horn", "hard_4", "hard_8", "dont_pass", "any_seven")
    frames = devices.BetReaderDevice().bet_frames({1: dict((zone, 5) for zone in zones)})
    seat_lines = [f.split(b"*")[0].split(b" ")[4:] for f in frames[1:-1]]
    assert [len(words) for words in seat_lines] == [df.MAX_ARGS - 1, 1], seat_lines
    reader = _reader(CRAPS_LIKE, 10)
    assert _send(reader, frames)[0][0] == BETS


@settings(max_examples=150)
@given(bet_readings(CRAPS_LIKE, seats=10))
def test_long_zone_lists_split_over_lines_and_round_trip(bets):
    reader = _reader(CRAPS_LIKE, 10)
    frames = devices.BetReaderDevice().bet_frames(bets)
    assert all(len(f) - 1 <= df.MAX_LINE for f in frames)
    assert _send(reader, frames)[0][0] == BETS
    assert reader.reading.as_dict() == bets
    # Packed as full as a frame allows: a seat's line ends only where its next pair would not fit in 96 bytes
    # or it has 7 pairs (the seat word and 7 make MAX_ARGS), so the emulated reader's lines reach both limits.
    lines = [f.split(b"*")[0].split(b" ") for f in frames[1:-1]]
    for line, after in zip(lines, lines[1:]):
        if line[3] == after[3]:                              # the same seat goes on in the next line
            pairs = line[4:]
            assert len(pairs) == df.MAX_ARGS - 1 or len(b" ".join(line)) + 1 + len(after[4]) + 5 > df.MAX_LINE, line


@settings(max_examples=200)
@given(bet_readings(ZONES), bet_readings(ZONES), st.data())
def test_a_reading_missing_any_frame_is_refused_whole(first, second, data):
    device = devices.BetReaderDevice()
    reader = _reader()
    _send(reader, device.bet_frames(first))
    frames = device.bet_frames(second)
    lost = data.draw(st.integers(0, len(frames) - 1))
    events = _send(reader, devices.drop(frames, lost))
    assert not [e for e in events if e[0] == BETS]
    assert reader.reading.as_dict() == first            # the accepted reading is untouched
    if lost < len(frames) - 1:                           # a lost CLOSE shows at the next frame
        assert any(e[0] == BETS_FAULT for e in events)
    after = _send(reader, device.bet_frames({1: {"tie": 5}}))
    assert after[-1][0] == BETS and reader.reading.as_dict() == {1: {"tie": 5}}
    assert reader.refused == 1


@settings(max_examples=150)
@given(bet_readings(ZONES), st.data())
def test_a_repeated_frame_changes_nothing(bets, data):
    frames = devices.BetReaderDevice().bet_frames(bets)
    again = data.draw(st.integers(0, len(frames) - 1))
    reader = _reader()
    assert [e[0] for e in _send(reader, devices.repeat(frames, again))] == [BETS]
    assert reader.reading.as_dict() == bets and reader.duplicates == 1


@settings(max_examples=200)
@given(bet_readings(ZONES), st.data())
def test_a_garbled_frame_refuses_the_reading(bets, data):
    frames = devices.BetReaderDevice().bet_frames(bets)
    k = data.draw(st.integers(0, len(frames) - 1))
    i = data.draw(st.integers(0, len(frames[k]) - 2))
    frames[k] = devices.garble(frames[k], index=i, value=data.draw(st.integers(0, 255).filter(
        lambda v: v not in (frames[k][i], 10, 13))))
    reader = _reader()
    events = _send(reader, frames + devices.BetReaderDevice(counter=len(frames)).bet_frames({}, 999)[:1])
    assert not [e for e in events if e[0] == BETS]
    assert reader.reading.reading_id == -1 and reader.refused == 1


# -- the dice reader -------------------------------------------------------------------------

DICE_FLAGS = devices.DiceReaderDevice.FLAGS          # the wire order, as hostsim writes it


def _dice_reader():
    return DiceReader(None, EventQueue(64), Evidence())


def _verdict(report):
    """The engine's decision on a report: (d1, d2, None), (0, 0, reason), or "alarm"."""
    try:
        return check_report(report)
    except DiceError:
        return "alarm"


@st.composite
def dice_throws(draw):
    """(d1, d2, flags in wire order, cocked dice): anything the wire can carry, counting or not."""
    flags = [f for f in DICE_FLAGS if draw(st.booleans())]
    faces = [draw(st.one_of(st.none(), st.integers(1, 6))) for _ in range(2)]
    cocked = [die for die in range(2) if faces[die] is not None and draw(st.booleans())]
    return faces[0], faces[1], flags, cocked


def _engine_report(d1, d2, flags, cocked):
    return {"dice": [d1, d2], "valid": "invalid" not in flags, "flags": [f for f in flags if f != "invalid"],
            "cocked": cocked}


@settings(max_examples=400)
@given(dice_throws(), st.integers(0, 255))
def test_any_throw_round_trips_to_the_engine_s_verdict(spec, counter):
    d1, d2, flags, cocked = spec
    line = devices.DiceReaderDevice(counter=counter).throw(d1, d2, flags, cocked).rstrip(b"\n")
    assert df.encode("D", 1, counter, "THROW", line[12:-5].decode().split(" ")) == line
    reader = _dice_reader()
    reader.handle(line)
    events = _drain(reader.queue)
    expected = _verdict(_engine_report(d1, d2, flags, cocked))
    if expected == "alarm":                              # an unread die in a throw that would count
        assert [(k, a) for k, a, _ in events] == [(FAULT, faults.DICE_UNREAD)]
        return
    assert len(events) == 1 and events[0][0] == THROW
    report = throws.report(events[0][1], events[0][2])
    assert report == _engine_report(d1, d2, flags, cocked)   # every flag survives, for the host report too
    assert check_report(report) == expected
    assert throws.no_roll(events[0][2]) == (expected[2] is not None)


@st.composite
def engine_reports(draw):
    """Reports as dice.check_report takes them (flags in any order, repeated; a bare pair)."""
    d1, d2 = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    if draw(st.booleans()):
        return (d1, d2)
    report = {"dice": [d1, d2]}
    if draw(st.booleans()):
        report["flags"] = draw(st.lists(st.sampled_from(("off_table", "short", "wall", "not_rolled")), max_size=5))
    if draw(st.booleans()):
        report["valid"] = draw(st.booleans())
    if draw(st.booleans()):
        report["cocked"] = draw(st.lists(st.sampled_from((0, 1)), max_size=2, unique=True))
    if _verdict(report)[2] is not None:                  # a no roll may leave dice unread
        for die in draw(st.sampled_from(((), (0,), (1,), (0, 1)))):
            if die not in report.get("cocked", ()):
                report["dice"][die] = None
    return report


@settings(max_examples=300)
@given(engine_reports())
def test_every_engine_report_travels_the_wire_with_its_verdict(report):
    reader = _dice_reader()
    reader.handle(devices.DiceReaderDevice().report(report).rstrip(b"\n"))
    events = _drain(reader.queue)
    assert len(events) == 1 and events[0][0] == THROW, (report, events)
    assert check_report(throws.report(events[0][1], events[0][2])) == check_report(report)


GOOD_FACES = st.sampled_from(("1", "2", "3", "4", "5", "6", "1c", "4c", "6c", "-"))
BAD_FACES = st.one_of(st.sampled_from(("0", "7", "x", "10", "-c", "3C", "03", "c", "3cc")), WORD)


@st.composite
def face_words(draw):
    """Two faces as the reader spells them, or one of them spelt as no face is."""
    faces = [draw(GOOD_FACES), draw(GOOD_FACES)]
    if draw(st.integers(0, 3)) == 0:
        faces[draw(st.integers(0, 1))] = draw(BAD_FACES)
    return faces
JUNK_FLAGS = st.one_of(st.sampled_from(("cocked", "WALL", "valid", "2", "1c")), WORD)


@st.composite
def flag_words(draw):
    """Flags in wire order, or damaged: two swapped, one repeated, a word no flag is."""
    flags = [f for f in DICE_FLAGS if draw(st.booleans())]
    change = draw(st.sampled_from(("none", "swap", "repeat", "junk")))
    if change == "swap" and len(flags) >= 2:
        i = draw(st.integers(0, len(flags) - 2))
        flags[i], flags[i + 1] = flags[i + 1], flags[i]
    elif change == "repeat" and flags:
        flags.insert(draw(st.integers(0, len(flags))), draw(st.sampled_from(flags)))
    elif change == "junk":
        flags.insert(draw(st.integers(0, len(flags))), draw(JUNK_FLAGS))
    return flags


@settings(max_examples=500)
@given(face_words(), flag_words(), st.integers(0, 255))
def test_an_accepted_throw_has_one_spelling(faces, flags, counter):
    """Any THROW the driver accepts is byte for byte what the device sends for the report it becomes:
    a second spelling of the same throw (flags reordered or repeated, a face spelt otherwise) is refused."""
    line = devices.frame("D", 1, counter, "THROW", *(faces + flags)).rstrip(b"\n")
    assume(len(line) <= df.MAX_LINE)
    reader = _dice_reader()
    reader.handle(line)
    events = _drain(reader.queue)
    assert len(events) == 1
    kind, a, b = events[0]
    if kind == THROW:
        again = devices.DiceReaderDevice(counter=counter).report(throws.report(a, b)).rstrip(b"\n")
        assert again == line
    else:
        assert kind == FAULT and a in (faults.DICE_BAD_FACE, faults.DICE_UNREAD, faults.DICE_BAD_FLAG), events


@settings(max_examples=300)
@given(st.lists(dice_throws(), min_size=2, max_size=10), st.data())
def test_damaged_dice_frame_never_becomes_another_throw(specs, data):
    device = devices.DiceReaderDevice()
    sent = [device.throw(*spec).rstrip(b"\n") for spec in specs]
    k = data.draw(st.integers(0, len(sent) - 1))
    i = data.draw(st.integers(0, len(sent[k]) - 1))
    lines = list(sent)
    lines[k] = devices.garble(sent[k], index=i, value=data.draw(st.integers(0, 255).filter(
        lambda v: v != sent[k][i])))

    def delivered(frames):
        reader = _dice_reader()
        for line in frames:
            reader.handle(line)
        return reader, [(kind, a, b) for kind, a, b in _drain(reader.queue) if kind == THROW]

    reader, got = delivered(lines)
    assert got == delivered(sent[:k] + sent[k + 1:])[1]       # the damaged one is missing, no other
    assert reader.crc_errors + reader.bad_frames == 1
