# Host-link frames (docs/host-link.md): the worked example, every refusal reason, the encoder's limits.
from binascii import crc32

from firmware.link import frame as fm
from firmware.link.frame import Encoder, Frame
from firmware.link.frame_host import HostFrame
from firmware.link.stamp import Stamp, put_uint
from tests.firmware.expect import count_calls, cpython_only, raises, raises_match

# The worked example of docs/host-link.md, CRC included (checked against zlib below).
EXAMPLE = (b'#3.17 52310@1764525652433 REPORT {"seq": 16, "table": "BAC-01", "event": "card", '
           b'"card": "Ah", "face_up": true}*3621BC0F')
EXAMPLE_PAYLOAD = b'{"seq": 16, "table": "BAC-01", "event": "card", "card": "Ah", "face_up": true}'
ACK = b"#3.17 0 ACK*4363B1E4"


def _decode(line):
    frame = HostFrame()          # the decoder, with the host's readers (type_name, uptime_ms, host_ms)
    return frame, frame.decode(line)


def _sealed(body):
    """"#" + body + a correct trailer: for lines whose checksum holds but whose grammar does not."""
    return b"#" + body + ("*%08X" % (crc32(body) & 0xFFFFFFFF)).encode()


def test_worked_example_decodes_to_its_fields():
    frame, status = _decode(EXAMPLE)
    assert status == fm.OK
    assert (frame.boot, frame.seq) == (3, 17)
    assert frame.type_is(b"REPORT") and not frame.type_is(b"REPOR") and frame.type_name() == "REPORT"
    assert frame.payload() == EXAMPLE_PAYLOAD
    assert frame.uptime_ms() == 52310 and frame.host_ms() == 1764525652433


def test_encode_gives_the_worked_example():
    assert fm.encode(3, 17, "REPORT", EXAMPLE_PAYLOAD, 52310, 1764525652433) == EXAMPLE + b"\n"
    assert fm.encode(3, 17, b"ACK") == ACK + b"\n"


@cpython_only    # zlib: an independent CRC-32 (CPython's, not the one the firmware calls)
def test_example_crc_is_zlib_crc32_between_marker_and_star():
    import zlib
    body = EXAMPLE[1:EXAMPLE.index(b"*", len(EXAMPLE) - 9)]
    assert "%08X" % zlib.crc32(body) == EXAMPLE[-8:].decode()


def test_host_commands_parse():
    frame, status = _decode(fm.encode(0, 0, "TIME", "1764525600000")[:-1])
    assert status == fm.OK and frame.type_is(b"TIME") and frame.payload_uint() == 1764525600000
    frame, status = _decode(fm.encode(0, 0, "RECALL", "10")[:-1])
    assert status == fm.OK and frame.payload_uint(4) == 10
    frame, status = _decode(fm.encode(4, 250, "REPLAY")[:-1])
    assert status == fm.OK and (frame.boot, frame.seq) == (4, 250) and frame.payload() == b""
    assert frame.payload_uint() == -1 and frame.host_ms() == -1
    frame, status = _decode(fm.encode(0, 0, "RECALL", "0100")[:-1])
    assert status == fm.OK and frame.payload_uint() == -1            # not canonical: not a number


def test_a_decoded_buffer_prefix():
    buf = bytearray(fm.MAX_FRAME)
    buf[:len(ACK)] = ACK
    frame = Frame()
    assert frame.decode(buf, len(ACK)) == fm.OK and frame.seq == 17


def test_every_truncation_is_refused_never_half_read():
    for n in range(len(EXAMPLE)):
        frame, status = _decode(EXAMPLE[:n])
        assert status in (fm.TRUNCATED, fm.BAD_CRC), (n, status)
        assert frame.boot == -1 and frame.seq == -1
    for n in range(1, len(EXAMPLE)):                   # a frame whose start was lost
        assert _decode(EXAMPLE[n:])[1] in (fm.NO_START, fm.TRUNCATED), n


def test_every_single_byte_corruption_is_refused():
    for i in range(len(EXAMPLE)):
        for delta in (1, 0x20, 0x80):
            line = bytearray(EXAMPLE)
            line[i] ^= delta
            status = _decode(line)[1]
            assert status in (fm.BAD_CRC, fm.NO_START, fm.TRUNCATED), (i, delta, status)


def test_a_duplicated_or_dropped_byte_is_refused():
    for i in range(len(EXAMPLE)):
        doubled = EXAMPLE[:i + 1] + EXAMPLE[i:]
        dropped = EXAMPLE[:i] + EXAMPLE[i + 1:]
        assert _decode(doubled)[1] != fm.OK, i
        assert _decode(dropped)[1] != fm.OK, i


def test_two_frames_run_together_are_refused():
    assert _decode(ACK + ACK)[1] == fm.BAD_CRC           # the LF between them was lost
    assert _decode(EXAMPLE[:30] + ACK)[1] == fm.BAD_CRC  # a broken frame, then a whole one


def test_too_long():
    payload = b"x" * fm.MAX_PAYLOAD
    line = fm.encode(fm.MAX_NUMBER, fm.MAX_NUMBER, "ABCDEFGH", payload, 10 ** 15 - 1, 10 ** 15 - 1)
    assert len(line) == fm.MAX_FRAME                   # the longest frame there is fits, with its LF
    assert _decode(line[:-1])[1] == fm.OK
    assert _decode(_sealed(b"1.1 0 REPORT " + b"x" * (fm.MAX_FRAME - 22)))[1] == fm.TOO_LONG


def test_refusal_reasons():
    assert _decode(b"")[1] == fm.TRUNCATED
    assert _decode(b"3.17 0 ACK*4363B1E4")[1] == fm.NO_START
    assert _decode(b"#3.17 0 ACK*4363B1E")[1] == fm.TRUNCATED
    assert _decode(b"#3.17 0 ACK*4363b1e4")[1] == fm.BAD_CRC       # one spelling: upper-case hex
    assert _decode(b"#3.17 0 ACK*4363B1E5")[1] == fm.BAD_CRC
    assert _decode(b"#3.17 0 ACK*4363B1EG")[1] == fm.BAD_CRC
    assert fm.STATUS_NAMES[fm.BAD_SYNTAX] == "bad_syntax"


def test_bad_syntax_under_a_good_crc():
    cases = (
        b"3.17 0 ack", b"3.17 0 AC1", b"31.17 0", b"3.17 0 ", b"3.17 ACK", b"3 0 ACK", b"3. 0 ACK", b".3 0 ACK",
        b"03.17 0 ACK", b"3.017 0 ACK", b"3.17 00 ACK", b"3.17  0 ACK", b"3.17 0  ACK",
        b"3.17 0 ACK ", b"3.17 0 ACKACKACK", b"-3.17 0 ACK", b"3.17 0@ ACK", b"3.17 @5 ACK",
        b"3.17 0@5@6 ACK", b"3.17 0 ACK\tx", b"3.17 0 ACK \xc4", b"3.17 0 ACK x\ny",
        b"1234567890.1 0 ACK", b"1.1234567890 0 ACK", b"1.1 1234567890123456 ACK", b"3.17 0 A.CK",
    )
    for body in cases:
        frame, status = _decode(_sealed(body))
        assert status == fm.BAD_SYNTAX, body
        assert frame.boot == -1


def test_payload_may_hold_star_and_hash():
    line = fm.encode(1, 2, "REPORT", '{"bytes": "*#*"}')
    frame, status = _decode(line[:-1])
    assert status == fm.OK and frame.payload() == b'{"bytes": "*#*"}'


def test_encoder_reuses_its_buffer():
    enc = Encoder()
    buf = enc.buf
    n = enc.encode(2, 5, b"REPORT", b"{}", 7)
    assert bytes(buf[:n]) == fm.encode(2, 5, "REPORT", "{}", 7) and enc.buf is buf
    m = enc.encode(2, 6, b"ACK")
    assert enc.buf is buf and bytes(buf[:m]) == fm.encode(2, 6, "ACK")


def test_encoder_refuses_what_decode_would():
    enc = Encoder()
    raises_match(ValueError, "boot and seq", enc.encode, -1, 1, "ACK")
    raises_match(ValueError, "boot and seq", enc.encode, 1, fm.MAX_NUMBER + 1, "ACK")
    raises_match(ValueError, "TYPE", enc.encode, 1, 1, "ack")
    raises_match(ValueError, "TYPE", enc.encode, 1, 1, "")
    raises_match(ValueError, "TYPE", enc.encode, 1, 1, "ABCDEFGHI")
    raises_match(ValueError, "printable", enc.encode, 1, 1, "REPORT", "caf\xe9")
    raises_match(ValueError, "printable", enc.encode, 1, 1, "REPORT", "a\nb")
    raises_match(ValueError, "fit", enc.encode, 1, 1, "REPORT", "x" * (fm.MAX_PAYLOAD + 1))
    raises(ValueError, enc.encode, 1, 1, "ACK", "", -1)
    raises(ValueError, enc.encode, 1, 1, "ACK", "", 10 ** 15)
    small = Encoder(64)
    raises_match(ValueError, "fit", small.encode, 1, 1, "REPORT", "x")


def test_every_byte_outside_printable_ascii_is_refused_whatever_the_payload_type():
    enc = Encoder()
    for bad in (0, 9, 10, 31, 127, 128, 255):
        payload = b"ok " + bytes((bad,)) + b" ok"
        for given in (payload, bytearray(payload), memoryview(payload)):
            raises_match(ValueError, "byte %d is not" % bad, fm.check_printable, given)
            raises_match(ValueError, "byte %d is not" % bad, enc.encode, 1, 1, "REPORT", given)
    fm.check_printable(bytes(range(32, 127)))                     # the whole range passes
    fm.check_printable(memoryview(bytes(range(32, 127))))
    fm.check_printable(b"")
    n = enc.encode(1, 1, "REPORT", bytes(range(32, 127)))
    assert bytes(enc.buf[:n]) == fm.encode(1, 1, "REPORT", bytearray(range(32, 127)))


def test_a_payload_checked_by_the_caller_is_framed_as_the_unchecked_one():
    enc = Encoder()
    payload = b'{"event": "result", "round": 3}'
    n = enc.encode(4, 9, "PART", memoryview(payload), 120, -1, True)
    assert bytes(enc.buf[:n]) == fm.encode(4, 9, "PART", payload, 120)


def test_a_type_is_the_same_frame_as_str_bytes_or_bytearray_and_only_capitals_pass():
    enc = Encoder()
    frames = []
    for given in ("REPORT", b"REPORT", bytearray(b"REPORT")):
        n = enc.encode(1, 2, given, "{}", 3)
        frames.append(bytes(enc.buf[:n]))
    assert frames[0] == frames[1] == frames[2] == b"#1.2 3 REPORT {}*" + frames[0][-9:]
    for bad in ("R\xc9PORT", b"RE PORT", b"REPORT\n", b"@", b"[", bytearray(b"ab")):
        raises_match(ValueError, "TYPE", enc.encode, 1, 1, bad)


def test_header_numbers_are_written_in_decimal_at_every_digit_count():
    """The header's numbers (boot, seq, stamps up to 15 digits): digits counted by comparing, the same text."""
    buf = bytearray(40)
    values = [0, 1, 9]
    for k in range(1, 15):
        values += [10 ** k - 1, 10 ** k, 10 ** k + 1, 7 * 10 ** k + 3]
    values.append(10 ** 15 - 1)
    for value in values:
        end = put_uint(buf, 2, value)
        assert bytes(buf[2:end]) == ("%d" % value).encode(), value


def test_a_stamp_writes_the_digits_its_milliseconds_have():
    # The Sender's stamps (uptime, host time) as two small ints: the same frame as the int gives,
    # at every place the low part's six digits carry, pad or vanish.
    enc = Encoder()
    for ms in (0, 7, 999999, 1000000, 1000001, 1000010, 2 ** 30 + 5, 1764547200000, 10 ** 15 - 1):
        stamp = Stamp(ms)
        assert stamp.ms() == ms
        n = enc.encode(2, 9, b"REPORT", b"{}", stamp, stamp)
        assert bytes(enc.buf[:n]) == fm.encode(2, 9, "REPORT", "{}", ms, ms), ms
    stamp = Stamp(999990)
    total = 999990
    for step in (9, 1, 1, 999999, 3000000, 0, 123456789):
        stamp.add(step)
        total += step
        assert stamp.ms() == total and 0 <= stamp.lo < 1000000
    raises(ValueError, Stamp, 10 ** 15)
    raises(ValueError, Stamp, -1)
    stamp = Stamp(10 ** 15 - 1)
    stamp.add(1)                                   # past 15 digits: no frame may carry it
    raises(ValueError, enc.encode, 2, 9, b"REPORT", b"{}", stamp)


def test_a_type_checked_once_is_still_checked_when_another_comes():
    # Encoder.encode checks a TYPE only when it is not the bytes object it checked last (a frame's
    # TYPE is the sender's constant): a bad one after a good one, or a str or bytearray spelling of a
    # good one, is checked all the same, and the frames are the ones encode() builds.
    enc = Encoder()
    n = enc.encode(1, 1, b"REPORT", b"{}")
    assert bytes(enc.buf[:n]) == fm.encode(1, 1, "REPORT", "{}")
    raises_match(ValueError, "TYPE", enc.encode, 1, 2, b"report")
    raises_match(ValueError, "TYPE", enc.encode, 1, 2, bytearray(b"REP0RT"))
    n = enc.encode(1, 3, bytearray(b"PART"), b"{}")
    assert bytes(enc.buf[:n]) == fm.encode(1, 3, "PART", "{}")
    n = enc.encode(1, 4, "ACK")
    assert bytes(enc.buf[:n]) == fm.encode(1, 4, "ACK")
    raises_match(ValueError, "TYPE", enc.encode, 1, 5, "ABCDEFGHI")
    n = enc.encode(1, 6, b"REPORT", b"{}")
    assert bytes(enc.buf[:n]) == fm.encode(1, 6, "REPORT", "{}")


def test_a_stamp_is_checked_and_written_as_an_int_of_its_value():
    enc = Encoder()
    for ms in (0, 9, 999999, 1000000, 1000007, 2 ** 30 + 5, 10 ** 15 - 1):
        for host in (-1, 1764547200123):
            stamp_host = Stamp(host) if host >= 0 else -1
            n = enc.encode(2, 9, b"REPORT", b"{}", Stamp(ms), stamp_host)
            assert bytes(enc.buf[:n]) == fm.encode(2, 9, "REPORT", "{}", ms, host), (ms, host)
    big = Stamp(0)
    big.hi = 10 ** 9                           # 10**15 ms: past what a stamp may hold
    raises_match(ValueError, "stamp", enc.encode, 1, 1, b"ACK", b"", big)
    raises_match(ValueError, "stamp", enc.encode, 1, 1, b"ACK", b"", 0, big)


def test_the_frames_of_one_pass_write_their_header_digits_once():
    # The Sender's frames of one pass share boot and stamps: the header of the first is kept in the
    # buffer and the next frames bump their seq's last digit(s) in place (issue 14: 3 to 5 us a frame
    # on the VM). Every frame is the one a fresh encoder makes, across a carry, a seq that gains a
    # digit, a stamp, a boot and a host's time that change, a seq that jumps, int stamps, and after
    # the buffer was written by someone else (forget()).
    enc = Encoder()
    uptime = Stamp(52310)
    host = Stamp(1764525652433)
    # stamp.put_uint as the encoder calls it (frame.put_uint): a frame's header digits written whole
    puts, plain_put_uint = count_calls(fm, "put_uint")
    try:
        steps = []
        for seq in range(7, 13):                                   # 9 -> 10: a digit more
            steps.append((3, seq, "PART", -1))
        steps.append((3, 13, "REPORT", -1))
        n = enc.encode(3, 7, b"PART", b"x" * 40, uptime, -1)
        assert puts[0] == 3                                        # boot, seq, uptime
        frames = [bytes(enc.buf[:n])]
        for boot, seq, type, h in steps[1:]:
            n = enc.encode(boot, seq, type.encode(), b"x" * 40, uptime, h)
            frames.append(bytes(enc.buf[:n]))
        assert puts[0] == 6                                        # 10: written whole once more
        assert frames == [fm.encode(boot, seq, type, b"x" * 40, 52310) for boot, seq, type, h in steps]
        # (boot, seq, host's stamp, header kept: the frame before had the same boot and stamps and seq - 1)
        cases = [(3, 1998, -1, False), (3, 1999, -1, True), (3, 2000, -1, True), (3, 2001, -1, True),
                 (3, 2001, -1, False), (3, 2002, host, False), (3, 2003, host, True), (4, 2004, host, False),
                 (4, 2010, host, False), (4, 99999, -1, False), (4, 100000, -1, False),
                 (4, fm.MAX_NUMBER - 1, -1, False), (4, fm.MAX_NUMBER, -1, True), (4, 0, -1, False),
                 (4, 1, -1, True)]
        for boot, seq, h, kept in cases:
            calls = puts[0]
            n = enc.encode(boot, seq, b"REPORT", b"{}", uptime, h)
            assert (puts[0] == calls) == kept, (boot, seq)
            expected = fm.encode(boot, seq, "REPORT", "{}", uptime.ms(), -1 if h == -1 else h.ms())
            assert bytes(enc.buf[:n]) == expected, (boot, seq)
        for ms in (1, 999999, 5):                      # the stamps move: written again (after seq)
            uptime.add(ms)
            n = enc.encode(4, 2, b"REPORT", b"{}", uptime, -1)
            assert bytes(enc.buf[:n]) == fm.encode(4, 2, "REPORT", "{}", uptime.ms())
            host.add(ms)
            n = enc.encode(4, 3, b"REPORT", b"{}", uptime, host)
            assert bytes(enc.buf[:n]) == fm.encode(4, 3, "REPORT", "{}", uptime.ms(), host.ms())
        n = enc.encode(4, 4, b"REPORT", b"{}", uptime.ms(), host.ms())    # ints: not kept
        calls = puts[0]
        n = enc.encode(4, 5, b"REPORT", b"{}", uptime.ms(), host.ms())
        assert puts[0] > calls
        assert bytes(enc.buf[:n]) == fm.encode(4, 5, "REPORT", "{}", uptime.ms(), host.ms())
        enc.encode(4, 6, b"REPORT", b"{}", uptime, host)
        enc.buf[0:20] = b"#9.99 1 PART 0123456"                   # a held frame read into it
        enc.forget()
        n = enc.encode(4, 7, b"REPORT", b"{}", uptime, host)
        assert bytes(enc.buf[:n]) == fm.encode(4, 7, "REPORT", "{}", uptime.ms(), host.ms())
    finally:
        fm.put_uint = plain_put_uint


def test_a_refused_frame_leaves_the_kept_header_right():
    enc = Encoder()
    uptime = Stamp(777)
    enc.encode(2, 8, b"PART", b"a", uptime)
    raises_match(ValueError, "TYPE", enc.encode, 2, 9, "part", b"a", uptime)
    raises_match(ValueError, "printable", enc.encode, 2, 9, b"PART", b"\x01", uptime)
    raises_match(ValueError, "boot and seq", enc.encode, 2, fm.MAX_NUMBER + 1, b"PART", b"a", uptime)
    for seq in (9, 10):
        n = enc.encode(2, seq, b"REPORT", b"{}", uptime)
        assert bytes(enc.buf[:n]) == fm.encode(2, seq, "REPORT", "{}", 777)


def test_the_next_piece_of_a_report_is_the_frame_encode_would_make():
    # encode_next: the frame after the last one, its header kept (the Sender's pieces of one report:
    # issue 14, 3-4 us a piece on the VM), seq one more, across a carry and a digit more.
    uptime = Stamp(2 ** 30 + 7)
    host = Stamp(1764525652433)
    for first, h in ((7, -1), (97, host), (998, -1)):
        enc = Encoder()
        n = enc.encode(5, first, b"PART", b"a" * 30, uptime, h, True)
        assert bytes(enc.buf[:n]) == fm.encode(5, first, "PART", b"a" * 30, uptime.ms(), -1 if h == -1 else h.ms())
        for seq in range(first + 1, first + 5):
            type = "REPORT" if seq == first + 4 else "PART"
            n = enc.encode_next(type.encode(), memoryview(b"b" * 40)[:seq % 40])
            want = fm.encode(5, seq, type, b"b" * (seq % 40), uptime.ms(), -1 if h == -1 else h.ms())
            assert bytes(enc.buf[:n]) == want, seq
        n = enc.encode(5, first + 5, b"REPORT", b"{}", uptime, h)    # and encode() goes on from it
        assert bytes(enc.buf[:n]) == fm.encode(5, first + 5, "REPORT", "{}", uptime.ms(), -1 if h == -1 else h.ms())


def test_a_reports_frames_bytes_are_known_before_they_are_made():
    # run_bytes: what a store checks a report's frames against before it takes any (JournalStore.append_run:
    # all or none, issue 14): their total and longest, as encode_next() then makes them, across a seq a
    # digit longer at the first frame after the first, at the last, in the middle, and none.
    uptime = Stamp(12345)
    for first in (1, 5, 7, 8, 9, 10, 95, 96, 98, 99, 100, 996, 999, 9995, 99999):
        for size, most in ((61, 20), (80, 20), (21, 20), (300, 128), (129, 128)):
            payload = memoryview(bytes(range(65, 65 + 26)) * 12)[:size]
            enc = Encoder()
            n = enc.encode(3, first, b"PART", payload[:most], uptime, -1, True)
            total, longest = enc.run_bytes(n, size, most, b"PART", b"REPORT")
            made = [n]
            for at in range(most, size, most):
                made.append(enc.encode_next(b"PART" if at + most < size else b"REPORT", payload[at:at + most]))
            assert (total, longest) == (sum(made), max(made)), (first, size, most)
    raises_match(ValueError, "no header kept", Encoder().run_bytes, 10, 30, 20, b"PART", b"REPORT")

def test_the_next_piece_needs_a_kept_header():
    enc = Encoder()
    raises_match(ValueError, "no header kept", enc.encode_next, b"PART", b"x")
    enc.encode(5, 1, b"PART", b"x", 100)                            # int stamps: not kept
    raises_match(ValueError, "no header kept", enc.encode_next, b"PART", b"x")
    enc.encode(5, 1, b"PART", b"x", Stamp(100))
    enc.forget()
    raises_match(ValueError, "no header kept", enc.encode_next, b"PART", b"x")
    enc.encode(5, 1, b"PART", b"x", Stamp(100))
    raises_match(ValueError, "TYPE", enc.encode_next, b"part", b"x")
    raises_match(ValueError, "may not fit", enc.encode_next, b"PART", b"x" * fm.MAX_FRAME)
    n = enc.encode_next(b"REPORT", b"y")                             # refused ones took no seq
    assert bytes(enc.buf[:n]) == fm.encode(5, 2, "REPORT", "y", 100)
