# The framed dice reader: every throw the engine can be given is one THROW event that decides as the
# engine does (Craps arts. 1-3); anything two true dice cannot show is a fault with the line, never a throw.
from firmware import faults, throws
from firmware.compat import heap_lock, heap_unlock
from firmware.device_frame import crc16
from firmware.drivers.dice_reader import DiceReader
from firmware.drivers.serial_line import SerialLine
from firmware.events import (DICE_HELLO_AGAIN, DICE_HELLO_FIRST, DICE_READER_HELLO, FAULT, THROW,
                             THROW_COCKED1, THROW_COCKED2, THROW_INVALID, THROW_NOT_ROLLED, THROW_OFF_TABLE, THROW_SHORT,
                             THROW_WALL)
from firmware.statemachine import EventQueue
from firmware.evidence import Evidence
from firmware.games.craps.dice import DiceError, check_report
from tests.firmware.device_helpers import LineSource, Sender, drain, kinds
from tests.firmware.expect import heap_lock_catches_allocation, raises
from tests.firmware.fakes import FakeUART

# The wire's flag words in their one order, written out here apart from firmware.throws (docs/protocol.md).
WIRE_FLAGS = ("off_table", "short", "wall", "not_rolled", "invalid")
BITS = {"off_table": THROW_OFF_TABLE, "short": THROW_SHORT, "wall": THROW_WALL, "not_rolled": THROW_NOT_ROLLED,
        "invalid": THROW_INVALID}


def _reader(source=None):
    queue = EventQueue(64)
    evidence = Evidence(slots=16, size=96)
    return DiceReader(source, queue, evidence), queue, evidence


def _feed(reader, *lines):
    for line in lines:
        reader.handle(line)
    return drain(reader.queue)


def _subsets(words):
    """Every subset of words, each in the order of words."""
    out = []
    for mask in range(1 << len(words)):
        out.append([words[i] for i in range(len(words)) if mask >> i & 1])
    return out


def _wire_face(face, cocked):
    return "-" if face is None else "%d%s" % (face, "c" if cocked else "")


def _engine_report(d1, d2, flags, cocked):
    """The report the engine would be given for this throw, built apart from firmware.throws."""
    return {"dice": [d1, d2], "valid": "invalid" not in flags,
            "flags": [f for f in flags if f != "invalid"], "cocked": list(cocked)}


def _engine(report):
    """check_report's verdict, or "alarm" for a report it refuses (DiceError)."""
    try:
        return check_report(report)
    except DiceError:
        return "alarm"


def test_hello_keeps_the_firmware_line():
    reader, _, evidence = _reader()
    s = Sender("D", counter=0x41)
    hello = s.hello("cam-3.1")
    events = _feed(reader, hello, s("THROW", "3", "4"))
    assert kinds(events) == [(DICE_READER_HELLO, DICE_HELLO_FIRST), (THROW, throws.pack(3, 4))]
    assert evidence.text(events[0][2]) == hello.decode()
    assert reader.restarts == 1 and reader.frames_ok == 2 and reader.throws == 1
    again = _feed(reader, s.hello("cam-3.1"))           # it restarted after it had spoken: the table may have
    assert kinds(again) == [(DICE_READER_HELLO, DICE_HELLO_AGAIN)]   # missed a throw (the Craps controller's alarm)
    first = _reader()[0]
    assert kinds(_feed(first, Sender("D", counter=7)("THROW", "1", "1"), Sender("D").hello("cam-3.1"))) == \
        [(THROW, throws.pack(1, 1)), (DICE_READER_HELLO, DICE_HELLO_AGAIN)]


def test_every_pair_of_faces_is_a_roll_art_2_4():
    reader, _, _ = _reader()
    s = Sender("D")
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            events = _feed(reader, s("THROW", str(d1), str(d2)))
            assert events == [(THROW, d1 * 8 + d2, 0)], (d1, d2)
            assert throws.face(events[0][1], 0) == d1 and throws.face(events[0][1], 1) == d2
            report = throws.report(events[0][1], events[0][2])
            assert report == {"dice": [d1, d2], "valid": True, "flags": [], "cocked": []}
            assert check_report(report) == (d1, d2, None)
    assert reader.throws == 36 and reader.lost == 0


def test_every_flag_and_cocked_die_decides_as_the_engine():
    """Each combination of flags, cocked dice and read or unread faces: the driver's THROW, through
    firmware.throws, gives the engine the verdict it gives the same report built by hand; a report
    the engine would refuse (an unread die in a throw that counts) is a fault, never a throw."""
    reader, _, _ = _reader()
    s = Sender("D")
    seen = {"roll": 0, "no_roll": 0, "fault": 0}
    for flags in _subsets(WIRE_FLAGS):
        for cocked in ((), (0,), (1,), (0, 1)):
            for d1, d2 in ((2, 5), (None, 5), (2, None), (None, None)):
                if (d1 is None and 0 in cocked) or (d2 is None and 1 in cocked):
                    continue                       # a cocked die is a read die: its own test below
                words = [_wire_face(d1, 0 in cocked), _wire_face(d2, 1 in cocked)] + flags
                events = _feed(reader, s("THROW", *words))
                expected = _engine(_engine_report(d1, d2, flags, cocked))
                case = (words, expected)
                if expected == "alarm":
                    assert kinds(events) == [(FAULT, faults.DICE_UNREAD)], case
                    seen["fault"] += 1
                    continue
                assert len(events) == 1 and events[0][0] == THROW, case
                a, b = events[0][1], events[0][2]
                bits = 0
                for f in flags:
                    bits |= BITS[f]
                bits |= (THROW_COCKED1 if 0 in cocked else 0) | (THROW_COCKED2 if 1 in cocked else 0)
                assert b == bits and a == (d1 or 0) * 8 + (d2 or 0), case
                assert _engine(throws.report(a, b)) == expected, case
                assert throws.no_roll(b) == (expected[2] is not None), case
                seen["no_roll" if expected[2] else "roll"] += 1
    assert seen == {"roll": 12, "no_roll": 261, "fault": 15}     # 32 flag sets x 9 face/cocked cases
    assert reader.throws == 273


def test_art_3_2_1_off_the_layout_is_no_roll_even_with_a_die_unread():
    reader, _, _ = _reader()
    s = Sender("D")
    (event,) = _feed(reader, s("THROW", "4", "-", "off_table"))
    report = throws.report(event[1], event[2])
    assert report == {"dice": [4, None], "valid": True, "flags": ["off_table"], "cocked": []}
    assert check_report(report) == (0, 0, "a die left the layout (art. 3(2)(1))")


def test_art_3_2_2_short_is_no_roll_unless_a_die_hit_the_wall():
    reader, _, _ = _reader()
    s = Sender("D")
    short, counts = _feed(reader, s("THROW", "6", "5", "short"), s("THROW", "6", "5", "short", "wall"))
    assert check_report(throws.report(short[1], short[2]))[2] == "the dice did not pass the centre (art. 3(2)(2))"
    report = throws.report(counts[1], counts[2])
    assert report["flags"] == ["short", "wall"]            # the report shows why it counts
    assert check_report(report) == (6, 5, None)
    assert kinds(_feed(reader, s("THROW", "6", "-", "short", "wall"))) == [(FAULT, faults.DICE_UNREAD)]


def test_art_3_3_not_rolled_and_a_throw_flagged_invalid_are_no_roll():
    reader, _, _ = _reader()
    s = Sender("D")
    not_rolled, invalid = _feed(reader, s("THROW", "1", "1", "not_rolled"), s("THROW", "-", "-", "invalid"))
    assert check_report(throws.report(not_rolled[1], not_rolled[2]))[2] == "the dice did not roll (art. 2(5), 3(3))"
    report = throws.report(invalid[1], invalid[2])
    assert report == {"dice": [None, None], "valid": False, "flags": [], "cocked": []}
    assert check_report(report) == (0, 0, "throw flagged invalid by the reader (art. 3(2))")


def test_art_3_1_a_cocked_die_counts_as_the_face_read():
    reader, _, _ = _reader()
    s = Sender("D")
    one, both = _feed(reader, s("THROW", "3", "5c"), s("THROW", "6c", "1c", "wall"))
    assert one == (THROW, throws.pack(3, 5), THROW_COCKED2)
    assert throws.report(one[1], one[2]) == {"dice": [3, 5], "valid": True, "flags": [], "cocked": [1]}
    assert check_report(throws.report(one[1], one[2])) == (3, 5, None)
    assert both[2] == THROW_COCKED1 | THROW_COCKED2 | THROW_WALL
    assert check_report(throws.report(both[1], both[2])) == (6, 1, None)


def test_a_face_outside_1_to_6_is_a_fault_with_the_line_never_a_throw():
    """Art. 1(2): true dice show 1..6; anything else is the reader's fault."""
    reader, _, evidence = _reader()
    s = Sender("D")
    for words in (("0", "3"), ("3", "7"), ("x", "2"), ("2", "10"), ("03", "2"), ("3C", "2"), ("3cc", "2"),
                  ("-c", "2", "off_table"), ("c", "2"), ("+3", "2"), ("3", "9", "off_table"), ("--", "1", "short")):
        line = s("THROW", *words)
        events = _feed(reader, line)
        assert kinds(events) == [(FAULT, faults.DICE_BAD_FACE)], words
        assert evidence.text(events[0][2]) == line.decode()
    assert reader.throws == 0 and reader.lost == 0 and reader.frames_ok == 12


def test_an_unread_die_in_a_throw_that_counts_is_a_fault():
    reader, _, evidence = _reader()
    s = Sender("D")
    for words in (("-", "3"), ("3", "-"), ("-", "-"), ("-", "4", "wall"), ("2", "-", "short", "wall")):
        line = s("THROW", *words)
        events = _feed(reader, line)
        assert kinds(events) == [(FAULT, faults.DICE_UNREAD)], words
        assert evidence.text(events[0][2]) == line.decode()
    assert reader.throws == 0


def test_unknown_repeated_or_misplaced_flags_are_a_fault():
    reader, _, evidence = _reader()
    s = Sender("D")
    for words in (("3", "4", "cocked"), ("3", "4", "OFF_TABLE"), ("3", "4", "short", "short"),
                  ("3", "4", "wall", "short"), ("3", "4", "invalid", "off_table"), ("3", "4", "valid"),
                  ("3", "4", "off_table", "short", "wall", "not_rolled", "invalid", "invalid"),
                  ("3", "4", "cocked1"), ("3", "4", "4")):
        line = s("THROW", *words)
        events = _feed(reader, line)
        assert kinds(events) == [(FAULT, faults.DICE_BAD_FLAG)], words
        assert evidence.text(events[0][2]) == line.decode()
    assert reader.throws == 0


def test_every_flag_at_once_fits_a_frame():
    reader, _, _ = _reader()
    s = Sender("D")
    (event,) = _feed(reader, s("THROW", "5c", "5c", *WIRE_FLAGS))
    assert event[0] == THROW and event[2] == throws.ALL_BITS
    assert check_report(throws.report(event[1], event[2]))[2] is not None


def test_wrong_word_counts_and_sensor_faults():
    reader, _, evidence = _reader()
    s = Sender("D")
    body = b"D1 05 THROW 1 2 off_table short wall not_rolled invalid x y"      # 9 words: over MAX_ARGS
    too_many = body + ("*%04X" % crc16(body)).encode()
    s.counter = 6
    line = s("FAULT", "512")
    events = _feed(reader, Sender("D", counter=4)("THROW", "3"), too_many, line, s("FAULT", "lens"),
                   s("FAULT", "65536"), s("FAULT"), s("THROW", "2", "2"))
    assert kinds(events) == [(FAULT, faults.FRAME_ARGS), (FAULT, faults.FRAME_SYNTAX), (FAULT, faults.FRAME_LOST),
                             (FAULT, faults.DICE_SENSOR), (FAULT, faults.FRAME_ARGS), (FAULT, faults.FRAME_ARGS),
                             (FAULT, faults.FRAME_ARGS), (THROW, throws.pack(2, 2))]
    assert evidence.text(events[3][2]) == line.decode()
    assert reader.lost == 1 and reader.throws == 1     # the 9-word line was refused unread: counter 05 is lost


def test_frames_of_other_devices_versions_and_types_are_refused():
    reader, _, _ = _reader()
    cases = ((Sender("S")("CARD", "Ah", "D"), faults.FRAME_DEVICE),      # the shoe on the dice port
             (Sender("D", version=2)("THROW", "3", "4"), faults.FRAME_VERSION),
             (b"3 4", faults.FRAME_SYNTAX),                               # the plain dice line
             (b"noroll short", faults.FRAME_SYNTAX),
             (Sender("D")("DICE", "3", "4"), faults.FRAME_TYPE))
    for line, code in cases:
        assert kinds(_feed(reader, line)) == [(FAULT, code)], line
    assert reader.throws == 0


def test_a_lost_frame_is_a_fault_before_the_next_throw():
    """A lost frame may have been a throw: reported, never filled in."""
    reader, _, evidence = _reader()
    s = Sender("D")
    first = s("THROW", "2", "3")
    s("THROW", "6", "6")                  # lost on the line
    after = s("THROW", "4", "1")
    events = _feed(reader, first, after)
    assert kinds(events) == [(THROW, throws.pack(2, 3)), (FAULT, faults.FRAME_LOST), (THROW, throws.pack(4, 1))]
    assert evidence.text(events[1][2]) == after.decode() and reader.lost == 1


def test_a_repeated_throw_is_one_throw_and_a_contradiction_is_none():
    reader, _, _ = _reader()
    s = Sender("D", counter=0xFF)
    throw = s("THROW", "5", "2", "short")
    other = Sender("D", counter=0xFF)("THROW", "5", "2")           # same counter, other bytes
    events = _feed(reader, throw, throw, other, s("THROW", "1", "2"))
    assert kinds(events) == [(THROW, throws.pack(5, 2)), (FAULT, faults.FRAME_CONFLICT), (THROW, throws.pack(1, 2))]
    assert events[0][2] == THROW_SHORT and reader.duplicates == 1 and reader.throws == 2


def test_a_garbled_throw_is_refused_then_missed():
    reader, _, _ = _reader()
    s = Sender("D")
    a, b, c = s("THROW", "3", "3"), s("THROW", "4", "4"), s("THROW", "5", "5")
    events = _feed(reader, a, b[:12] + b"3" + b[13:], c)
    assert kinds(events) == [(THROW, throws.pack(3, 3)), (FAULT, faults.FRAME_CRC), (FAULT, faults.FRAME_LOST),
                             (THROW, throws.pack(5, 5))]


def test_a_partial_frame_times_out_and_the_next_frame_is_read():
    """A frame stopped mid-way is dropped after the line timeout, never joined to the next one."""
    uart = FakeUART()
    reader, queue, _ = _reader(SerialLine(uart, timeout_ms=50))
    s = Sender("D")
    uart.feed(s("THROW", "1", "1") + b"\n")
    assert reader.poll(10)
    cut = s("THROW", "6", "6")
    uart.feed(cut[:10])
    assert not reader.poll(10)
    assert reader.poll(50)                # quiet past the timeout: the partial frame is dropped
    uart.feed(s("THROW", "2", "1") + b"\r\n")
    while reader.poll(10):
        pass
    assert kinds(drain(queue)) == [(THROW, throws.pack(1, 1)), (FAULT, faults.PARTIAL_LINE),
                                   (FAULT, faults.FRAME_LOST), (THROW, throws.pack(2, 1))]
    assert reader.dropped_lines == 1 and reader.lost == 1


def test_poll_reports_a_line_the_source_dropped():
    source = LineSource()
    reader, queue, _ = _reader(source)
    source.lines.append(Sender("D")("THROW", "1", "6"))
    source.drops = 1
    while reader.poll():
        pass
    assert kinds(drain(queue)) == [(FAULT, faults.LINE_TOO_LONG), (THROW, throws.pack(1, 6))]


def test_report_refuses_what_no_throw_event_holds():
    for a, b in ((-1, 0), (64, 0), (0, -1), (9, 128), (9, 1 << 20)):
        raises(ValueError, throws.report, a, b)
    # A face over 6 in a THROW is no report the driver makes; if one came, the engine alarms (art. 1(2)).
    raises(DiceError, check_report, throws.report(throws.pack(7, 1), 0))


def test_garbage_never_raises():
    reader, _, _ = _reader()
    for line in (b"", b"*", b"D1 00 *0000", b"D1 00 THROW*FFFF", b"\xff" * 40, b"D1 GG THROW 1 2*0000",
                 bytearray(b"D1 00 THROW 1 2*0000")):
        reader.handle(line)
    assert reader.frames_ok == 0 and reader.throws == 0


def test_decoding_throws_allocates_nothing():
    assert heap_lock_catches_allocation()   # the lock is real: the block below proves something
    reader, queue, _ = _reader()
    s = Sender("D")
    reader.handle(s.hello())              # warm up: evidence slots, instance attributes
    lines = [s("THROW", str(1 + i % 6), str(1 + i // 6 % 6)) for i in range(12)]
    lines += [s("THROW", "5c", "-", "off_table", "short", "wall", "not_rolled", "invalid"),
              s("THROW", "3", "4c", "short", "wall"), s("THROW", "7", "1"), s("THROW", "-", "1"),
              s("THROW", "1", "2", "wall", "short"), s("THROW", "1", "2", "bogus"), s("FAULT", "9"),
              lines[0][:-1] + (b"1" if lines[0][-1:] == b"0" else b"0")]
    drain(queue)
    heap_lock()
    try:
        for line in lines:
            reader.handle(line)
    finally:
        heap_unlock()
    events = drain(queue)
    assert kinds(events[12:]) == [(THROW, throws.pack(5, 0)), (THROW, throws.pack(3, 4)),
                                  (FAULT, faults.DICE_BAD_FACE), (FAULT, faults.DICE_UNREAD),
                                  (FAULT, faults.DICE_BAD_FLAG), (FAULT, faults.DICE_BAD_FLAG),
                                  (FAULT, faults.DICE_SENSOR), (FAULT, faults.FRAME_CRC)]
    assert reader.throws == 14 and reader.crc_errors == 1
