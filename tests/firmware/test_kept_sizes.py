# Buffers a booted table keeps, sized to what they hold (issue 14: heap kept after boot; docs/performance.md,
# "Memory kept"), and the bound each size stands on: a frame or a line larger than a buffer holds is refused
# with a clear error, never cut or written wrong. Fakes only: runs on MicroPython too.
from firmware.link import frame as fm
from firmware.link import sender as sm
from firmware.link.ram_store import RamStore
from firmware.link.sender import Sender
from firmware.link.stamp import Stamp
from tests.firmware.booted import boot_pico
from tests.firmware.expect import raises_match
from tests.firmware.scratch import ScratchDir


class _Wire:
    def __init__(self):
        self.data = bytearray()

    def write(self, data):
        self.data.extend(data)
        return len(data)

    def frames(self):
        """[(seq, type, payload)] written so far, each frame checked."""
        out = []
        frame = fm.Frame()
        for line in bytes(self.data).split(b"\n")[:-1]:
            assert frame.decode(line) == fm.OK, line
            out.append((frame.seq, frame.type_name(), frame.payload()))
        return out


def test_a_booted_tables_encoder_holds_its_largest_frame_a_128_byte_piece_not_max_frame():
    with ScratchDir() as state:
        ctx = boot_pico(state, "baccarat")
        sender = ctx.sender
        assert sender.piece == 128
        # the longest header (62 bytes), a piece, "*" and 8 CRC digits, the LF: the store's 200-byte slot
        assert len(sender._enc.buf) == 200 == 62 + sender.piece + 9 + 1


def test_the_encoder_refuses_a_frame_larger_than_it_holds():
    enc = fm.Encoder(200)
    assert enc.encode(1, 2, "REPORT", b"x" * 128) == len(b"#1.2 0 REPORT ") + 128 + 9 + 1
    raises_match(ValueError, "a 129-byte payload may not fit a 200-byte frame", enc.encode, 1, 2, "REPORT",
                 b"x" * 129)
    enc.encode(1, 2, "REPORT", b"y", Stamp())     # a Stamp: its header kept, for encode_next
    raises_match(ValueError, "a 129-byte payload may not fit a 200-byte frame", enc.encode_next, b"REPORT",
                 b"x" * 129)


def test_a_report_longer_than_a_piece_goes_out_whole_in_pieces_from_the_smaller_encoder():
    wire = _Wire()
    sender = Sender(wire, RamStore(16, 200), 1, piece=128)
    text = ('{"event": "result", "pad": "%s"}' % ("z" * 300)).encode()
    assert sender.send(text) == 4                 # OPEN, then PART, PART, REPORT
    sender.poll(1)
    frames = wire.frames()
    assert [f[1] for f in frames] == ["OPEN", "PART", "PART", "REPORT"]
    assert b"".join(f[2] for f in frames[1:]) == text
    assert max(len(line) + 1 for line in bytes(wire.data).split(b"\n")[:-1]) <= 200


def test_a_sender_with_small_pieces_still_makes_its_own_longest_frame_gone():
    # GONE's payload, two positions of 9-digit numbers (39 bytes), is longer than a 20-byte piece.
    wire = _Wire()
    sender = Sender(wire, RamStore(8, 200), 999999999, previous=(999999998, 999999999), piece=20)
    sender.poll(1)
    assert wire.frames() == [(1, "OPEN", b"999999998.999999999")]
    wire.data = bytearray()
    assert sender.receive(fm.encode(999999999, 999999999, "REPLAY")[:-1]) == sm.CMD_REPLAY
    assert wire.frames()[0] == (0, "GONE", b"999999999.999999999 999999999.2")
    long_gone = fm.encode(999999999, 0, "GONE", b"999999999.999999999 999999999.999999999", 10 ** 15 - 1,
                          10 ** 15 - 1)
    assert len(long_gone) <= len(sender._enc.buf)


def test_frames_held_at_boot_larger_than_this_boots_frames_fit_its_encoder():
    # A store that holds the last boot's frames, made with longer pieces: they are read back into the
    # encoder's buffer (a frame across the RAM ring's end, or on flash only), so it holds the longest.
    store = RamStore(8, fm.MAX_FRAME)
    first = Sender(_Wire(), store, 1)
    first.send(b"q" * 400)
    longest = max(store.length_at(i) for i in range(store.count()))
    assert longest > 62 + 20 + 10
    wire = _Wire()
    second = Sender(wire, store, 2, piece=20, timeout_ms=10)
    assert len(second._enc.buf) >= longest
    for i in range(store.count()):
        n = len(second._read(i))
        assert n == store.length_at(i)
