# The framed card-reading shoe: every message to its event, every refusal to a fault with evidence.
from firmware import cards, faults
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers.serial_line import SerialLine
from firmware.drivers.shoe import Shoe
from firmware.events import CARD, FAULT, SHOE, SHOE_CUT, SHOE_HELLO, SHOE_IN, SHOE_OUT, \
    SHOE_UNREAD
from firmware.statemachine import EventQueue
from firmware.evidence import Evidence
from tests.firmware.expect import heap_lock_catches_allocation
from tests.firmware.device_helpers import LineSource, Sender, drain, kinds
from tests.firmware.fakes import FakeUART


def _shoe(source=None):
    queue = EventQueue(64)
    evidence = Evidence(slots=16, size=96)
    return Shoe(source, queue, evidence), queue, evidence


def _feed(shoe, *lines):
    for line in lines:
        shoe.handle(line)
    return drain(shoe.queue)


def test_hello_and_status_messages():
    shoe, _, evidence = _shoe()
    s = Sender("S", counter=0x30)
    hello = s.hello("shoe-2.3")
    events = _feed(shoe, hello, s("IN"), s("CUT"), s("UNREAD"), s("OUT"))
    assert kinds(events) == [(SHOE, SHOE_HELLO), (SHOE, SHOE_IN), (SHOE, SHOE_CUT), (SHOE, SHOE_UNREAD),
                             (SHOE, SHOE_OUT)]
    assert evidence.text(events[0][2]) == hello.decode()     # the firmware token is on record
    assert [b for _, _, b in events[1:]] == [0, 0, 0, 0]
    assert shoe.frames_ok == 5 and shoe.restarts == 1


def test_every_card_face_down_and_up():
    """Baccarat art. 4: a card that comes out face up is still valid; the flag says which."""
    shoe, _, _ = _shoe()
    s = Sender("S")
    for card in range(cards.DECK_SIZE):
        code = cards.name(card)
        assert _feed(shoe, s("CARD", code, "D"), s("CARD", code, "U")) == [(CARD, card, 0), (CARD, card, 1)]
    assert shoe.cards == 2 * cards.DECK_SIZE and shoe.lost == 0


def test_bad_card_codes_are_faults_with_the_line():
    shoe, _, evidence = _shoe()
    s = Sender("S")
    for words in (("ah", "D"), ("AH", "D"), ("10h", "D"), ("Ahh", "D"), ("1h", "D"), ("Ah", "X"),
                  ("Ah", "u"), ("Ah", "UP")):
        line = s("CARD", *words)
        events = _feed(shoe, line)
        assert kinds(events) == [(FAULT, faults.BAD_CARD)], words
        assert evidence.text(events[0][2]) == line.decode()
    assert shoe.cards == 0 and shoe.lost == 0


def test_sensor_fault_and_a_fault_without_a_code():
    shoe, _, evidence = _shoe()
    s = Sender("S")
    line = s("FAULT", "17")
    events = _feed(shoe, line)
    assert kinds(events) == [(FAULT, faults.SHOE_SENSOR)] and evidence.text(events[0][2]) == line.decode()
    assert kinds(_feed(shoe, s("FAULT", "optical"))) == [(FAULT, faults.FRAME_ARGS)]
    assert kinds(_feed(shoe, s("FAULT", "65536"))) == [(FAULT, faults.FRAME_ARGS)]


def test_bad_checksum_is_refused_counted_and_kept():
    shoe, _, evidence = _shoe()
    s = Sender("S")
    good = s("CARD", "Ah", "D")
    bad = good[:-1] + (b"0" if good[-1:] != b"0" else b"1")
    events = _feed(shoe, bad)
    assert kinds(events) == [(FAULT, faults.FRAME_CRC)] and evidence.text(events[0][2]) == bad.decode()
    assert shoe.crc_errors == 1 and shoe.cards == 0


def test_refused_lines_each_have_their_fault():
    shoe, _, _ = _shoe()
    cases = ((b"Ah up", faults.FRAME_SYNTAX),
             (b"S1 00 CARD Ah D", faults.FRAME_SYNTAX),            # truncated: no trailer
             (Sender("D")("DICE", "3", "4"), faults.FRAME_DEVICE),  # dice reader on the shoe port
             (Sender("S", version=2)("CUT"), faults.FRAME_VERSION),
             (b"x" * 200, faults.LINE_TOO_LONG))
    for line, code in cases:
        assert kinds(_feed(shoe, line)) == [(FAULT, code)], line
    assert shoe.bad_frames == len(cases) and shoe.frames_ok == 0


def test_unknown_type_or_word_count_is_refused_but_not_lost():
    shoe, _, _ = _shoe()
    s = Sender("S")
    events = _feed(shoe, s("CUT"), s("SHUFFLE"), s("CARD", "Ah"), s("CUT", "x"), s("CUT"))
    assert kinds(events) == [(SHOE, SHOE_CUT), (FAULT, faults.FRAME_TYPE), (FAULT, faults.FRAME_ARGS),
                             (FAULT, faults.FRAME_ARGS), (SHOE, SHOE_CUT)]
    assert shoe.lost == 0 and shoe.bad_frames == 3


def test_every_message_with_a_word_too_many_or_too_few_is_refused():
    # The shoe's messages and their words as docs/protocol.md gives them (written out here: a mutant that
    # let IN take a word lived, the test reading the driver's own TYPES back).
    shoe, _, _ = _shoe()
    s = Sender("S")
    wrong = (("HELLO",), ("HELLO", "shoe-2.3", "x"), ("CARD", "Ah"), ("CARD", "Ah", "D", "x"), ("UNREAD", "x"),
             ("CUT", "x"), ("IN", "x"), ("OUT", "x"), ("FAULT",), ("FAULT", "12", "x"))
    for words in wrong:
        assert kinds(_feed(shoe, s(*words))) == [(FAULT, faults.FRAME_ARGS)], words
    assert shoe.bad_frames == len(wrong) and shoe.frames_ok == 0


def test_lost_frames_are_a_fault_before_the_next_card():
    """A lost frame may have been a card: reported, never filled in (Baccarat art. 10 is the dealer's)."""
    shoe, _, evidence = _shoe()
    s = Sender("S")
    first = s("CARD", "2c", "D")
    s("CARD", "3c", "D")                 # lost on the line
    s("CARD", "4c", "D")                 # lost on the line
    after = s("CARD", "5c", "D")
    events = _feed(shoe, first, after)
    assert kinds(events) == [(CARD, cards.parse("2c")), (FAULT, faults.FRAME_LOST), (CARD, cards.parse("5c"))]
    assert evidence.text(events[1][2]) == after.decode()
    assert shoe.lost == 2


def test_garbled_frame_then_the_gap_it_left():
    shoe, _, _ = _shoe()
    s = Sender("S")
    a, b, c = s("CUT"), s("IN"), s("OUT")
    events = _feed(shoe, a, b[:7] + b"#" + b[8:], c)
    assert kinds(events) == [(SHOE, SHOE_CUT), (FAULT, faults.FRAME_CRC), (FAULT, faults.FRAME_LOST),
                             (SHOE, SHOE_OUT)]
    assert shoe.crc_errors == 1 and shoe.lost == 1


def test_duplicate_is_dropped_and_counted():
    shoe, _, _ = _shoe()
    s = Sender("S")
    card = s("CARD", "Kd", "U")
    assert _feed(shoe, card, card, card, s("CUT")) == [(CARD, cards.parse("Kd"), 1), (SHOE, SHOE_CUT, 0)]
    assert shoe.duplicates == 2 and shoe.lost == 0


def test_same_counter_other_message_is_a_conflict_not_a_card():
    shoe, _, _ = _shoe()
    s = Sender("S", counter=9)
    first = s("CARD", "Kd", "U")
    other = Sender("S", counter=9)("CARD", "Qd", "U")
    events = _feed(shoe, first, other, s("CUT"))
    assert kinds(events) == [(CARD, cards.parse("Kd")), (FAULT, faults.FRAME_CONFLICT), (SHOE, SHOE_CUT)]


def test_hello_restarts_the_counter_without_a_loss():
    shoe, _, _ = _shoe()
    s = Sender("S", counter=0x77)
    events = _feed(shoe, s("CUT"), s.hello(), s("CARD", "9s", "D"))
    assert kinds(events) == [(SHOE, SHOE_CUT), (SHOE, SHOE_HELLO), (CARD, cards.parse("9s"))]
    assert shoe.lost == 0 and shoe.restarts == 1


def test_poll_takes_lines_from_the_source_and_reports_a_dropped_one():
    source = LineSource()
    shoe, queue, _ = _shoe(source)
    assert not shoe.poll() and len(queue) == 0
    s = Sender("S")
    source.lines.append(s("CUT"))
    source.drops = 1                     # the source throws a line away before this one
    assert shoe.poll() and shoe.poll()   # one outcome per poll: the dropped line, then the frame
    assert not shoe.poll()
    assert drain(queue) == [(FAULT, faults.LINE_TOO_LONG, 1), (SHOE, SHOE_CUT, 0)]   # b: evidence handle
    assert shoe.dropped_lines == 1


def test_through_a_serial_line():
    uart = FakeUART()
    shoe, queue, _ = _shoe(SerialLine(uart))
    s = Sender("S")
    uart.feed(s("CARD", "Ah", "U") + b"\r\n" + s("CUT") + b"\n")
    while shoe.poll():
        pass
    assert drain(queue) == [(CARD, cards.parse("Ah"), 1), (SHOE, SHOE_CUT, 0)]


def test_garbage_never_raises():
    shoe, _, _ = _shoe()
    for line in (b"", b"*", b"S1 00 *0000", b"S1 00 CARD*FFFF", b"\xff" * 30, b"S1 GG CUT*0000",
                 bytearray(b"S1 00 CARD Ah D*3774")):
        shoe.handle(line)
    assert shoe.frames_ok == 0


def test_handling_a_line_allocates_nothing():
    assert heap_lock_catches_allocation()   # the lock is real: the block below proves something
    shoe, queue, _ = _shoe()
    s = Sender("S")
    shoe.handle(s.hello())                # warm up: evidence slots, instance attributes
    lines = [s("CARD", cards.name(i % 52), "U" if i & 1 else "D") for i in range(20)]
    lines += [s("CUT"), s("UNREAD"), s("FAULT", "3"), s("CARD", "Zz", "D"), lines[0][:-1] + b"0"]
    drain(queue)
    heap_lock()
    try:
        for line in lines:
            shoe.handle(line)
    finally:
        heap_unlock()
    events = drain(queue)
    assert len(events) == 25 and events[0] == (CARD, 0, 0)
    assert shoe.cards == 20 and shoe.crc_errors == 1
