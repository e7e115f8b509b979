# Device line frames: CRC-16/CCITT-FALSE, the decoder's every status, the counter rules, no allocation.
from firmware import device_frame as df
from firmware.compat import IS_MICROPYTHON, heap_lock, heap_unlock
from firmware.device_frame import Frame, Sequence
from tests.firmware.expect import count_calls, heap_lock_catches_allocation, raises, raises_match

TYPES = ((b"HELLO", 1, 1), (b"CARD", 2, 2), (b"CUT", 0, 0), (b"SEAT", 2, df.MAX_ARGS))
# Computed with binascii.crc_hqx(body, 0xFFFF) on CPython, an independent CRC-16/CCITT-FALSE.
KNOWN = b"S1 2A CARD Ah D*3774"
KNOWN_HEX = b"S1 05 FAULT 7*88E1"      # a CRC with letters in it


def _sealed(body):
    """body + a correct trailer: for lines whose checksum holds but whose syntax does not."""
    return body + ("*%04X" % df.crc16(body)).encode()


def _decode(line, types=TYPES, device=b"S"):
    frame = Frame(device, 1, types)
    return frame, frame.decode(line)


def test_crc_check_value_and_ranges():
    assert df.crc16(b"123456789") == 0x29B1            # the catalogued check value
    assert df.crc16(b"") == 0xFFFF                     # init, nothing shifted in
    assert df.crc16(b"A") == 0xB915
    assert df.crc16(b"xx123456789yy", 2, 11) == 0x29B1
    assert df.crc16(b"6789", crc=df.crc16(b"12345")) == 0x29B1    # chained


def test_known_frame_decodes_to_its_fields():
    frame, status = _decode(KNOWN)
    assert status == df.OK
    assert frame.counter == 0x2A and frame.type == 1 and frame.nargs == 2
    assert frame.arg_is(0, b"Ah") and frame.arg_is(1, b"D") and not frame.arg_is(0, b"A")
    assert frame.arg_len(0) == 2 and frame.arg_byte(0, 1) == ord("h")


def test_encode_gives_the_known_frame():
    assert df.encode("S", 1, 0x2A, "CARD", ("Ah", "D")) == KNOWN
    assert df.encode("S", 1, 0, "CUT") == _sealed(b"S1 00 CUT")


def test_decode_a_prefix_of_a_buffer():
    buf = bytearray(df.MAX_LINE)
    buf[:len(KNOWN)] = KNOWN
    frame = Frame(b"S", 1, TYPES)
    assert frame.decode(buf, len(KNOWN)) == df.OK and frame.counter == 0x2A
    assert frame.decode(KNOWN, 0) == df.BAD_SYNTAX      # an empty line: not the frame its buffer still holds


def test_too_long():
    line = df.encode("S", 1, 0, "SEAT", ("1", "x" * 78))
    assert len(line) == df.MAX_LINE
    assert _decode(line)[1] == df.OK
    assert _decode(_sealed(b"S1 00 SEAT 1 " + b"x" * (df.MAX_LINE - 17)))[1] == df.TOO_LONG


def test_bad_syntax_cases():
    cases = (
        b"", b"S1 00 CUT", b"S1 00 CUT*", b"S1 00 CUT*12", b"garbage line here",
        KNOWN_HEX[:-4] + KNOWN_HEX[-4:].lower(),       # lower-case CRC digits: one spelling only
        _sealed(b"S1 2a CARD Ah D"),                   # lower-case counter
        _sealed(b"S1 2 CARD Ah D"),
        _sealed(b"S1  2A CARD Ah D"),
        _sealed(b"s1 2A CARD Ah D"),                   # device must be a capital
        _sealed(b"SX 2A CARD Ah D"),                   # version must be a digit
        _sealed(b"S1 2A card Ah D"),
        _sealed(b"S1 2A CARDS2 Ah D"),
        _sealed(b"S1 2A CARDCARDS Ah D"),              # TYPE longer than MAX_TYPE
        _sealed(b"S1 2A CARD  Ah D"),                  # empty word
        _sealed(b"S1 2A CARD Ah D "),                  # trailing blank
        _sealed(b"S1 2A CARD Ah\tD"),
        _sealed(b"S1 2A CARD Ah \xc4"),
        _sealed(b"S1 2A CARD A*h D"),                  # a second "*"
        _sealed(b"S1 2A SEAT 1 2 3 4 5 6 7 8 9"),      # more than MAX_ARGS words
        _sealed(b"S1 2A"),
    )
    for line in cases:
        assert _decode(line)[1] == df.BAD_SYNTAX, line


def test_known_frame_with_hex_letters():
    frame = Frame(b"S", 1, ((b"HELLO", 1, 1), (b"FAULT", 1, 1)))
    assert frame.decode(KNOWN_HEX) == df.OK and frame.arg_uint(0, 99) == 7


def test_bad_crc():
    assert _decode(KNOWN[:-1] + b"5")[1] == df.BAD_CRC
    assert _decode(b"S1 2A CARD Ah U" + KNOWN[-5:])[1] == df.BAD_CRC


def test_wrong_device_and_version_after_a_good_checksum():
    assert _decode(df.encode("B", 1, 0, "CUT"))[1] == df.WRONG_DEVICE
    assert _decode(df.encode("S", 2, 0, "CUT"))[1] == df.BAD_VERSION


def test_unknown_type_and_wrong_word_count_keep_the_counter():
    frame, status = _decode(df.encode("S", 1, 7, "SHUFFLE"))
    assert status == df.UNKNOWN_TYPE and frame.counter == 7
    frame, status = _decode(df.encode("S", 1, 8, "CARD", ("Ah",)))
    assert status == df.BAD_ARGS and frame.counter == 8 and frame.type == 1
    assert _decode(df.encode("S", 1, 9, "CUT", ("now",)))[1] == df.BAD_ARGS


def test_every_prefix_of_a_frame_is_refused():
    for n in range(len(KNOWN)):
        assert _decode(KNOWN[:n])[1] != df.OK, n


def test_every_single_byte_change_is_refused():
    frame = Frame(b"S", 1, TYPES)
    line = bytearray(KNOWN)
    for i in range(len(line)):
        original = line[i]
        for value in range(256):
            if value != original:
                line[i] = value
                assert frame.decode(line) != df.OK, (i, value)
        line[i] = original


def test_uint_is_canonical_and_bounded():
    assert df.uint(b"0", 0, 1, 9) == 0
    assert df.uint(b"x123", 1, 4, 999) == 123
    assert df.uint(b"123", 0, 3, 122) == -1
    for bad in (b"", b"007", b"-1", b"+1", b"1.5", b"1e3", b"12a", b"1234567890", b"1000000000", b"1:", b"/1"):
        assert df.uint(bad, 0, len(bad), 1 << 30) == -1, bad      # (":" and "/": the bytes either side of 0-9)
    assert df.uint(b"999999999", 0, 9, 1 << 30) == 999999999      # nine digits at most


def test_frame_and_encoder_refuse_bad_specs():
    raises(ValueError, Frame, b"s", 1, TYPES)
    raises(ValueError, Frame, b"S", 0, TYPES)
    raises(ValueError, Frame, b"S", 1, ((b"TOOLONGTYPE", 0, 0),))
    raises(ValueError, Frame, b"S", 1, ((b"X", 2, 1),))
    raises(ValueError, Frame, b"S", 1, ((b"card", 2, 2),))
    raises(ValueError, Frame, b"S", 1, ((b"", 0, 0),))
    raises_match(ValueError, "counter", df.encode, "S", 1, 256, "CUT")
    raises(ValueError, df.encode, "s", 1, 0, "CUT")
    raises(ValueError, df.encode, "S", 10, 0, "CUT")
    raises(ValueError, df.encode, "S", 1, 0, "Cut")
    raises(ValueError, df.encode, "S", 1, 0, "CUT", ("1",) * 9)
    raises(ValueError, df.encode, "S", 1, 0, "CARD", ("A h",))
    raises(ValueError, df.encode, "S", 1, 0, "CARD", ("",))
    raises(ValueError, df.encode, "S", 1, 0, "CARD", ("a*",))
    raises_match(ValueError, "MAX_LINE", df.encode, "S", 1, 0, "CARD", ("x" * 90,))


# -- the counter (docs/protocol.md, "Counter") ---------------------------------------

def _track(seq, counter, restart=False, line=None):
    if line is None:
        line = ("frame %d" % counter).encode()
    return seq.track(line, len(line), counter, restart)


def test_first_frame_synchronises_then_counts_on():
    seq = Sequence()
    assert _track(seq, 0x41) == df.SEQ_NEXT        # booted mid-stream: nothing known to be lost
    assert _track(seq, 0x42) == df.SEQ_NEXT
    assert seq.expected == 0x43


def test_counter_wraps():
    seq = Sequence()
    for c in (0xFE, 0xFF, 0x00, 0x01):
        assert _track(seq, c) == df.SEQ_NEXT


def test_repeat_of_the_last_frame_is_a_duplicate():
    seq = Sequence()
    _track(seq, 5)
    assert _track(seq, 5) == df.SEQ_DUPLICATE
    assert _track(seq, 6) == df.SEQ_NEXT


def test_last_counter_with_other_bytes_is_a_conflict():
    seq = Sequence()
    _track(seq, 5, line=b"one")
    assert _track(seq, 5, line=b"two") == df.SEQ_CONFLICT
    assert _track(seq, 5, line=b"onx") == df.SEQ_CONFLICT
    assert _track(seq, 6) == df.SEQ_NEXT            # expectation unchanged by the conflict


def test_jump_counts_the_lost_frames():
    seq = Sequence()
    _track(seq, 0xFE)
    assert _track(seq, 0x02) == df.SEQ_GAP and seq.gap == 3     # FF, 00, 01 lost
    assert _track(seq, 0x03) == df.SEQ_NEXT and seq.gap == 0
    assert _track(seq, 0x01) == df.SEQ_GAP and seq.gap == 253   # an old counter is no exception


def test_hello_restarts_the_count_and_a_repeated_hello_is_dropped():
    seq = Sequence()
    _track(seq, 0x80)
    assert _track(seq, 0x00, restart=True, line=b"hello") == df.SEQ_NEXT
    assert _track(seq, 0x00, restart=True, line=b"hello") == df.SEQ_DUPLICATE
    assert _track(seq, 0x01) == df.SEQ_NEXT
    seq.forget()
    assert _track(seq, 0x33) == df.SEQ_NEXT


# -- allocation ------------------------------------------------------------------------

def test_decode_and_track_allocate_nothing():
    if IS_MICROPYTHON:
        assert heap_lock_catches_allocation()       # else the test below proves nothing
    frame = Frame(b"S", 1, TYPES)
    seq = Sequence()
    lines = (KNOWN, _sealed(b"S1 2B SEAT 3 banker=100 tie=25"), KNOWN[:-1] + b"0", b"garbage",
             df.encode("B", 1, 0, "CUT"))
    statuses = bytearray(len(lines))
    heap_lock()
    try:
        for i in range(len(lines)):
            statuses[i] = frame.decode(lines[i])
            if statuses[i] == df.OK:
                seq.track(lines[i], frame.length, frame.counter, False)
                frame.arg_uint(0, 9)
    finally:
        heap_unlock()
    assert list(statuses) == [df.OK, df.OK, df.BAD_CRC, df.BAD_SYNTAX, df.WRONG_DEVICE]
    assert seq.expected == 0x2C


def test_every_byte_in_a_hex_digit_is_taken_only_as_upper_case_hex():
    # The trailer's and the counter's digits are looked up in a table: each of the 256 byte values in
    # each place is a digit of its value, or the line is not a frame.
    frame = Frame(b"S", 1, TYPES)
    digits = b"0123456789ABCDEF"
    for place in range(4):                          # the CRC's four digits
        trailer = KNOWN.index(b"*") + 1 + place
        for value in range(256):
            line = bytearray(KNOWN)
            line[trailer] = value
            status = frame.decode(bytes(line))
            if value == KNOWN[trailer]:
                assert status == df.OK
            elif value in digits:
                assert status == df.BAD_CRC, (place, value)
            else:
                assert status == df.BAD_SYNTAX, (place, value)
    for place in (3, 4):                            # the counter's two digits
        for value in range(256):
            line = bytearray(KNOWN[:KNOWN.index(b"*")])
            line[place] = value
            status = frame.decode(_sealed(bytes(line)))
            if value in digits:
                assert status == df.OK and frame.counter == int(bytes(line[3:5]).decode(), 16), (place, value)
            else:
                assert status == df.BAD_SYNTAX, (place, value)


def test_a_duplicate_is_the_same_bytes_whatever_buffer_either_line_came_in():
    # A whole bytes line is kept by reference (not copied byte by byte); a buffer's is copied (it may change).
    line = KNOWN
    for first in (line, bytearray(line), line + b"xx"):
        for again in (line, bytearray(line), bytearray(line + b"yy")):
            seq = Sequence()
            n = len(line)
            came = bytearray(first) if isinstance(first, bytearray) else first
            assert seq.track(came, n, 0x2A, False) == df.SEQ_NEXT
            if isinstance(came, bytearray):
                came[0] = ord("X")                   # the source reuses its buffer: the kept copy stays
            assert seq.track(again, n, 0x2A, False) == df.SEQ_DUPLICATE, (first, again)
            other = bytearray(again)
            other[7] = ord("Z")
            seq.expected = 0x2B
            assert seq.track(other, n, 0x2A, False) == df.SEQ_CONFLICT


def test_a_whole_lines_crc_is_checked_as_the_bodys_crc_against_the_trailer():
    # A whole line's CRC is taken over all its bytes and compared with the claimed CRC carried on
    # through the trailer: it must hold for exactly the lines whose body has the claimed CRC, and agree
    # with decode(buffer, n) (the body's CRC compared directly).
    frame = Frame(b"S", 1, TYPES)
    body = KNOWN[:KNOWN.index(b"*")]
    good = df.crc16(body)
    digits = b"0123456789ABCDEF"
    assert frame.decode(KNOWN) == df.OK
    for bit in range(16):                               # every CRC one bit off
        line = body + ("*%04X" % (good ^ (1 << bit))).encode()
        assert frame.decode(line) == df.BAD_CRC, bit
    for place in range(len(body)):                      # every body byte changed
        for value in (0x20, 0x41, 0x5A, body[place] ^ 1):
            if value == body[place]:
                continue
            line = bytearray(KNOWN)
            line[place] = value
            line = bytes(line)
            status = frame.decode(line)
            assert status == df.BAD_CRC, (place, value, status)
            buffer = bytearray(line + b"tail")
            assert frame.decode(buffer, len(line)) == status
            sealed = _sealed(line[:len(body)])
            assert frame.decode(sealed) == frame.decode(bytearray(sealed + b"xx"), len(sealed)) != df.BAD_CRC
    for claimed in range(0, 0x10000, 257):              # claimed CRCs across the range
        line = body + b"*" + bytes(digits[(claimed >> s) & 15] for s in (12, 8, 4, 0))
        assert (frame.decode(line) == df.OK) == (claimed == good), claimed


def test_the_message_type_is_found_by_startswith_in_c_not_a_byte_loop():
    # The type word is compared where it lies (bytes.startswith at its offset, in C): same(), a Python
    # loop a byte, is not called to decode a frame; a type of another length or spelling is not taken.
    calls, same = count_calls(df, "same")
    try:
        for line in (KNOWN, bytearray(KNOWN), df.encode("S", 1, 3, "CUT"), df.encode("S", 1, 4, "SEAT", (1, 2))):
            frame, status = _decode(line)
            assert status == df.OK, line
        assert _decode(df.encode("S", 1, 5, "CART", ("Ah", "D")))[1] == df.UNKNOWN_TYPE
        assert _decode(df.encode("S", 1, 6, "CARDS", ("Ah", "D")))[1] == df.UNKNOWN_TYPE
        assert _decode(df.encode("S", 1, 7, "CUTS"))[1] == df.UNKNOWN_TYPE
    finally:
        df.same = same
    assert calls[0] == 0


class _CountedLine:
    """A line that counts the reads of each of its bytes by index (find and startswith: the bytes' own)."""

    def __init__(self, data):
        self.data = data
        self.reads = [0] * len(data)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        self.reads[i] += 1
        return self.data[i]

    def find(self, sub, start, end):
        return self.data.find(sub, start, end)

    def startswith(self, prefix, start):
        return self.data.startswith(prefix, start)


def test_a_known_types_word_is_found_by_find_and_startswith_its_bytes_read_only_by_the_crc():
    # The type word's end is found by bytes.find (in C) and a known type's name matched there by
    # startswith: no loop reads its letters (the CRC reads every body byte once); a word that is no
    # type is still checked a byte at a time (BAD_SYNTAX or UNKNOWN_TYPE as before).
    for line, status in ((KNOWN, df.OK), (df.encode("S", 1, 3, "CUT"), df.OK),
                         (df.encode("S", 1, 4, "SEAT", (1, 2)), df.OK),
                         (df.encode("S", 1, 5, "CARD", ("Ah",)), df.BAD_ARGS)):
        counted = _CountedLine(line)
        frame = Frame(b"S", 1, TYPES)
        assert frame.decode(counted) == status, line
        word_end = line.find(b" ", 6, len(line) - 5)
        word_end = len(line) - 5 if word_end < 0 else word_end
        assert counted.reads[6:word_end] == [1] * (word_end - 6), (line, counted.reads)
    for body, status in ((b"S1 2A SHUFFLE", df.UNKNOWN_TYPE), (b"S1 2A ZAP", df.UNKNOWN_TYPE),
                         (b"S1 2A A", df.UNKNOWN_TYPE), (b"S1 2A CAR1D Ah D", df.BAD_SYNTAX),
                         (b"S1 2A CARDx Ah D", df.BAD_SYNTAX), (b"S1 2A  Ah D", df.BAD_SYNTAX),
                         (b"S1 2A CARDCARDS", df.BAD_SYNTAX), (b"S1 2A CARD\x01 Ah", df.BAD_SYNTAX)):
        counted = _CountedLine(_sealed(body))
        assert Frame(b"S", 1, TYPES).decode(counted) == status, body
