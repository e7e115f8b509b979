# Buffers a booted table keeps, sized to what they hold (issue 14: heap kept after boot; docs/performance-log.md,
# "Memory kept"), and the bound each size stands on: a frame or a line larger than a buffer holds is refused
# with a clear error, never cut or written wrong. Fakes only: runs on MicroPython too.
from array import array

import framebuf

from firmware import device_frame as fd
from firmware.device_frame import Sequence
from firmware.games.baccarat.payouts import NETS_TYPE, settle_seats
from firmware.games.baccarat.roads import Roads
from firmware.games.baccarat.rules import BANKER, PLAYER, TIE
from firmware.games.baccarat.scoreboard import Scoreboard
from firmware.link import frame as fm
from firmware.link import sender as sm
from firmware.link.ram_store import RamStore
from firmware.link.sender import Sender
from firmware.link.stamp import Stamp
from tests.firmware.baccarat_rig import Rig
from tests.firmware.booted import boot_pico
from tests.firmware.expect import raises_match
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_link_sender import Wire


def _frames(wire):
    """[(seq, type, payload)] the wire took since the last call (test_link_sender's Wire, each frame checked)."""
    return [f[1:4] for f in wire.take()]


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
    wire = Wire()
    sender = Sender(wire, RamStore(16, 200), 1, piece=128)
    text = ('{"event": "result", "pad": "%s"}' % ("z" * 300)).encode()
    assert sender.send(text) == 4                 # OPEN, then PART, PART, REPORT
    sender.poll(1)
    lines = bytes(wire.data).split(b"\n")[:-1]
    frames = _frames(wire)
    assert [f[1] for f in frames] == ["OPEN", "PART", "PART", "REPORT"]
    assert b"".join(f[2] for f in frames[1:]) == text
    assert max(len(line) + 1 for line in lines) <= 200


def test_a_sender_with_small_pieces_still_makes_its_own_longest_frame_gone():
    # GONE's payload, two positions of 9-digit numbers (39 bytes), is longer than a 20-byte piece.
    wire = Wire()
    sender = Sender(wire, RamStore(8, 200), 999999999, previous=(999999998, 999999999), piece=20)
    sender.poll(1)
    assert _frames(wire) == [(1, "OPEN", b"999999998.999999999")]
    assert sender.receive(fm.encode(999999999, 999999999, "REPLAY")[:-1]) == sm.CMD_REPLAY
    assert _frames(wire)[0] == (0, "GONE", b"999999999.999999999 999999999.2")
    long_gone = fm.encode(999999999, 0, "GONE", b"999999999.999999999 999999999.999999999", 10 ** 15 - 1,
                          10 ** 15 - 1)
    assert len(long_gone) <= len(sender._enc.buf)


def test_frames_held_at_boot_larger_than_this_boots_frames_fit_its_encoder():
    # A store that holds the last boot's frames, made with longer pieces: they are read back into the
    # encoder's buffer (a frame across the RAM ring's end, or on flash only), so it holds the longest.
    store = RamStore(8, fm.MAX_FRAME)
    first = Sender(Wire(), store, 1)
    first.send(b"q" * 400)
    longest = max(store.length_at(i) for i in range(store.count()))
    assert longest > 62 + 20 + 10
    wire = Wire()
    second = Sender(wire, store, 2, piece=20, timeout_ms=10)
    assert len(second._enc.buf) >= longest
    for i in range(store.count()):
        n = len(second._read(i))
        assert n == store.length_at(i)


def _long_shoe_roads():
    """Roads of 150 results with streaks of 1 to 14 (dragon tails turning under earlier ones) and ties."""
    roads = Roads()
    lengths = (1, 2, 9, 1, 1, 3, 14, 2, 1, 8, 1, 1, 2, 7, 3, 1, 12, 1, 2, 2, 6, 1, 1, 10, 4, 2, 1, 1, 5, 3)
    winner = BANKER
    n = 0
    while n < 150:
        for length in lengths:
            for i in range(length):
                if n < 150:
                    roads.add(TIE if n % 11 == 10 else winner, n % 7 == 3, n % 13 == 5)
                    n += 1
            winner = PLAYER if winner == BANKER else BANKER
    return roads


def test_a_whole_scoreboard_redraw_places_every_cell_where_place_into_does():
    # The scoreboard keeps no cell buffers (704 bytes): a whole redraw walks each road's Layout. Its cells
    # are checked here against the roads' own placement (place_into), an oracle apart from the Layout.
    roads = _long_shoe_roads()
    for visible_after in (20, 60, 150):
        part = Roads()
        for i in range(visible_after):
            code = roads.beads[i]
            part.add(code & 3, bool(code & 4), bool(code & 8))
        sb = Scoreboard(framebuf.FrameBuffer(bytearray(128 * 64 // 8), 128, 64, framebuf.MONO_VLSB), 128, 64)
        big, marks = [], [[], [], []]
        sb._big_cell = lambda roads, k, column, row: big.append((k, column, row))
        sb._mark = lambda roads, index, k, column, row: marks[index].append((k, column, row))
        sb.draw_all(part)
        cols, rows, ceiling, lengths = bytearray(156), bytearray(156), bytearray(156), bytearray(156)
        n = part.big_road_cells_into(cols, rows, ceiling)
        assert big == _shown(cols, rows, n, sb.big_columns) and len(big) > 0
        for index in range(3):
            n = part.derived_cells_into(index, lengths, cols, rows, ceiling)
            assert marks[index] == _shown(cols, rows, n, sb.derived_columns), (visible_after, index)
            assert sb._marks[index] == n == part.n_marks[index]


def _shown(cols, rows, n, visible):
    """[(k, display column, row)] of the cells a view of `visible` columns shows, its last column on screen."""
    last = max(cols[k] for k in range(n)) if n else 0
    first = last + 1 - visible if last >= visible else 0
    return [(k, cols[k] - first, rows[k]) for k in range(n) if cols[k] >= first]


def test_a_devices_counter_keeps_its_last_line_by_reference_and_a_copy_buffer_only_for_a_lent_buffer():
    # A booted table's line sources give each line as a bytes of its own (SerialLine.poll): the counter keeps
    # it by reference and makes no 96-byte copy buffer (issue 14); a source lending its own buffer gets one,
    # made at its first line, so a repeat is still told from a conflict after the source reuses the buffer.
    with ScratchDir() as state:
        ctx = boot_pico(state, "baccarat")
        for device in ctx.game.devices:
            assert device.sequence._last is None
    seq = Sequence()
    one = fd.encode("S", 1, 5, "CARD", ("Ah", "D"))
    assert seq.track(one, len(one), 5, False) == fd.SEQ_NEXT and seq._last is None
    assert seq.track(one, len(one), 5, False) == fd.SEQ_DUPLICATE
    lent = bytearray(fd.MAX_LINE)
    two = fd.encode("S", 1, 6, "CARD", ("Kd", "D"))
    lent[:len(two)] = two
    assert seq.track(lent, len(two), 6, False) == fd.SEQ_NEXT and len(seq._last) == fd.MAX_LINE
    kept = seq._last
    lent[:len(one)] = one                          # the source's buffer reused for another line
    lent[:len(two)] = two
    assert seq.track(lent, len(two), 6, False) == fd.SEQ_DUPLICATE
    lent[7] = ord("Q")                            # the same counter, other bytes
    assert seq.track(lent, len(two), 6, False) == fd.SEQ_CONFLICT
    three = fd.encode("S", 1, 7, "CARD", ("2c", "D"))
    lent[:len(three)] = three
    assert seq.track(memoryview(lent), len(three), 7, False) == fd.SEQ_NEXT and seq._last is kept   # made once
    assert seq.track(three, len(three), 7, False) == fd.SEQ_DUPLICATE


def _nets_as_settled(table):
    """The nets a settle over every zone gives the table's last round (0 where it had no bet)."""
    want = array(NETS_TYPE, [0] * len(table.nets))
    if table.has_bets:
        settle_seats(table.settings, table.record, table.round_bets, want)
    return list(want)


def test_a_baccarat_tables_nets_are_0_outside_its_rounds_bets_with_no_zeroed_copy_kept():
    # The result nets the round's bet slots only; the last round's nets are made 0 when the next round starts
    # (its slots), not by a slice store from a zeroed copy of nets kept for it (issue 14: 8 bytes a zone and
    # seat). After each result, and on a table restored from a snapshot, nets are a settle over every zone's.
    rig = Rig()
    assert not hasattr(rig.table, "_no_nets")
    rig.new_shoe()
    rounds = ({1: {"banker": 100, "tie": 5}, 2: {"player": 50, "player_pair": 5}}, {3: {"banker_pair": 5}}, None,
              {1: {"player": 20}, 3: {"tie": 10, "banker": 40}}, {2: {"banker": 1000}})
    for k, bets in enumerate(rounds):
        if bets is not None:
            rig.bets(bets)
        rig.cards("9h 5d Kc 2s")                     # Player 9 to Banker 7
        assert list(rig.table.nets) == _nets_as_settled(rig.table), k
        assert any(rig.table.nets) == (bets is not None), k
        if k == 3:
            fork = Rig()
            fork.table.restore(rig.table.snapshot())
            assert list(fork.table.nets) == list(rig.table.nets)
    fork.bets(rounds[-1])
    fork.cards("9h 5d Kc 2s")
    assert list(fork.table.nets) == list(rig.table.nets) == _nets_as_settled(fork.table)


def test_a_booted_tables_recall_keeps_the_round_that_waits_in_one_tuple():
    # A round's end noted waits as one tuple with its event's number and its Reporter, not in two attributes
    # more: the recall's 16 attributes keep its dict at 160 bytes on MicroPython 1.27, not 208 (issue 14).
    for game in ("baccarat", "craps"):
        with ScratchDir() as state:
            ctx = boot_pico(state, game)
            assert len(ctx.recall.__dict__) <= 17
            assert not hasattr(ctx.recall, "_reporter") and not hasattr(ctx.recall, "_waiting_event")
