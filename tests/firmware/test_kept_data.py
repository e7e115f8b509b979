# What a booted table keeps, kept compact (issue 14: heap kept after boot; docs/performance-log.md, "Memory kept"):
# the bet reader's zone names as one bytes object and small ints, the board description without what only
# the bring-up read. Behaviour is the same (the bet reader's and the console's own tests); these show the
# structures themselves. Fakes only: runs on MicroPython too.
import sys

from firmware.drivers.bet_reader import BetReader
from firmware.events import BETS
from firmware.statemachine import EventQueue
from firmware.evidence import Evidence
from firmware.games.craps.zones import ZONE_WORDS as CRAPS_WORDS
from firmware.games.craps.zones import ZONES as CRAPS_ZONES
from tests.firmware.booted import boot_pico
from tests.firmware.device_helpers import Sender, drain
from tests.firmware.expect import raises
from tests.firmware.scratch import ScratchDir


def _zone_found(reader, name):
    """The zone index the reader's lookup gives a word (as _seat() looks it up), -1: none."""
    word = name.encode()
    z = reader._buckets[_bucket(reader, word)] - 1
    while z >= 0:
        at = reader._word_at[z]
        if reader._words[at:reader._word_at[z + 1]] == word:
            return z
        z = reader._next_zone[z] - 1
    return -1


def _bucket(reader, word):
    return (len(word) + word[0] * 5 + word[-1] * 11) & (len(reader._buckets) - 1)


def test_the_bet_reader_keeps_its_zone_names_as_one_bytes_object_and_small_ints():
    reader = BetReader(None, EventQueue(8), Evidence(), CRAPS_ZONES, 14, take_downs=True, words=CRAPS_WORDS)
    assert reader._words is CRAPS_WORDS          # the game's literal (in flash when frozen), not a copy
    assert CRAPS_WORDS == "".join(CRAPS_ZONES).encode() and isinstance(reader._words, bytes)
    assert len(reader._word_at) == len(CRAPS_ZONES) + 1
    assert len(reader._buckets) == 128 and isinstance(reader._buckets, bytearray)   # a byte a bucket
    most = 0
    for z in range(len(CRAPS_ZONES)):
        word = CRAPS_ZONES[z].encode()
        chain = 0
        k = reader._buckets[_bucket(reader, word)] - 1
        while k >= 0:
            chain += 1
            k = reader._next_zone[k] - 1
        most = max(most, chain)
    assert most <= 2                             # a word is compared with 2 zones at most
    for z in range(len(CRAPS_ZONES)):
        assert _zone_found(reader, CRAPS_ZONES[z]) == z, CRAPS_ZONES[z]
    assert _zone_found(reader, "passs") == -1
    # Every zone of the Craps layout read, 4 words a SEAT line (a reader splits a seat's zones to fit a line).
    s = Sender("B")
    lines = [s("OPEN", "1")]
    names = list(CRAPS_ZONES)
    count = 0
    while names:
        lines.append(s("SEAT", "3", *["%s=%d" % (name, 5) for name in names[:4]]))
        names = names[4:]
        count += 1
    lines.append(s("CLOSE", "1", str(count)))
    for line in lines:
        reader.handle(line)
    assert drain(reader.queue) == [(BETS, 1, 1)]
    assert reader.reading.as_dict() == {3: dict((name, 5) for name in CRAPS_ZONES)}
    # One row of zeros: the reading's, which the reader also clears its rows from (never written); and
    # 29 attributes, which fill a MicroPython instance dict of 29 slots (one more: 37).
    assert not hasattr(reader, "_zero_row") and len(reader.__dict__) <= 29
    for line in (s("OPEN", "2"), s("SEAT", "4", "pass=10"), s("CLOSE", "2", "1")):
        reader.handle(line)
    assert drain(reader.queue) == [(BETS, 2, 1)]
    assert reader.reading.as_dict() == {4: {"pass": 10}}
    assert list(reader.reading.empty_row) == [0] * len(CRAPS_ZONES)


def test_zones_alike_in_length_first_and_last_byte_are_chained():
    zones = ("axb", "ab", "ayb", "azb")
    reader = BetReader(None, EventQueue(8), Evidence(), zones, 1)
    assert [_zone_found(reader, name) for name in zones] == [0, 1, 2, 3]
    assert _zone_found(reader, "aqb") == -1
    alike = [reader._buckets[_bucket(reader, name.encode())] for name in ("axb", "ayb", "azb")]
    assert alike == [1, 1, 1] and reader._next_zone[0] == 3 and reader._next_zone[2] == 4  # one bucket


def test_a_bet_reader_made_here_its_words_or_checks_the_games():
    zones = ("pass", "field")
    assert BetReader(None, EventQueue(8), Evidence(), zones, 1)._words == b"passfield"
    BetReader(None, EventQueue(8), Evidence(), zones, 1, words=b"passfield")
    for words in (b"passfiels", b"pasfield", b"passfieldx", b"fieldpass"):
        raises(ValueError, BetReader, None, EventQueue(8), Evidence(), zones, 1, words=words)


def test_a_bet_reader_refuses_zones_it_cannot_tell_apart():
    raises(ValueError, BetReader, None, EventQueue(8), Evidence(), ("pass", ""), 7)
    raises(ValueError, BetReader, None, EventQueue(8), Evidence(), tuple("z%d" % i for i in range(256)), 1)
    BetReader(None, EventQueue(8), Evidence(), tuple("z%d" % i for i in range(255)), 1)


def test_a_booted_table_keeps_of_the_board_file_what_the_run_reads():
    for game in ("craps", "omaha"):
        with ScratchDir() as state:
            ctx = boot_pico(state, game)
            board = ctx.board
            assert board.zones is None and board.keypad is None
            assert board.displays == ("dealer", "i2c", "result", "scoreboard")
            if game == "omaha":             # the table reads the keypad: a settings change reads its legends
                assert len(board.keypad_keys) == 24 and board.key_index("enter") == 18
                assert ctx.hw.keypad is not None
            else:                           # Craps reads no keypad (KEYPAD_GAMES): not brought up, legends dropped
                assert board.keypad_keys == [] and board.key_index("enter") == -1
                assert ctx.hw.keypad is None
            assert board.button_index("confirm") >= 0 and "host" in board.ports     # `board` reads the ports
            lines = ctx.console.handle(b"board")
            assert lines[0] == "board pico (rp2040): Raspberry Pi Pico (RP2040) table controller, MicroPython"


def test_the_lights_zone_names_are_the_games_own_objects():
    # The names parsed from the board file are freed once the lights take the game's equal ones (its zone
    # table, kept anyway): 0.3 KB at Craps. The names themselves, and so `zones`, are the same.
    from firmware.games.craps.bets import ZONE_TABLE
    with ScratchDir() as state:
        ctx = boot_pico(state, "craps")
        names = ctx.table.lights.names
        assert "point_4" in names and "hard_10" in names and "big_6" in names
        for name in names:
            assert [word for word in ZONE_TABLE if word is name], name
        assert ctx.console.handle(b"zones") == [" ".join(sorted(names))]


_SEATS = ("seat1", "seat2", "seat3", "seat4", "seat5", "seat6", "seat7", "seat8", "seat9", "seat10")


def test_the_seat_lights_names_are_literals():
    # Interned literals, not the board file's copies (0.2-0.3 KB at Baccarat's 7 seats and Omaha's 10).
    for game, seats in (("baccarat", 7), ("omaha", 10)):
        with ScratchDir() as state:
            ctx = boot_pico(state, game)
            names = ctx.table.lights.names
            found = [name for name in names if name.startswith("seat")]
            assert sorted(found) == sorted(_SEATS[:seats]), game
            for name in found:
                assert [seat for seat in _SEATS if seat is name], name


def test_a_journal_on_the_boards_own_files_keeps_no_object_of_its_own_for_them():
    # FlashFiles is static methods only: every journal on the board's files shares the class (an instance a
    # journal was five more objects a table), and reaches the builtins themselves through it.
    import os
    from firmware.link import journal as jn
    with ScratchDir() as d:
        for fs in (None, os):
            j = jn.Journal(d, "t", fs)
            assert j._fs is jn.FlashFiles and j._fs.open is open and j._fs.stat is os.stat
        j.append(1, b"abc")
        assert list(jn.Journal(d, "t").records()) == [(1, b"abc")]



class _Bus:
    """Records the OLED's transactions (writevto: one transaction of its buffers)."""

    def __init__(self):
        self.transactions = []

    def writeto(self, addr, buf, stop=True):
        self.transactions.append((addr, bytes(buf)))

    def writevto(self, addr, vector, stop=True):
        self.writeto(addr, b"".join(bytes(buf) for buf in vector), stop)

    def readfrom_into(self, addr, buf, stop=True):       # the status byte the probe reads: the display on
        buf[0] = 0


def test_a_table_without_a_scoreboard_keeps_a_panel_and_its_display_test_sends_the_same_bytes():
    # Craps and Omaha draw nothing on the board's OLED but the console's display test: a Panel, no 1 KB RAM
    # image kept (1.4 KB of their data after boot); the test lights every pixel, then clears them, as before.
    from firmware.drivers.ssd1306_panel import Panel
    from tests.firmware.console_rig import boot_with_pin, login, typed
    from tests.firmware.test_main import _run
    window = bytes((0x00, 0x21, 0, 127, 0x22, 0, 7))
    for game in ("craps", "omaha", "baccarat"):
        with ScratchDir() as state:
            ctx, machine, _ = boot_with_pin(state, game)
            oled = ctx.hw.displays["scoreboard"]
            if game == "baccarat":        # (the driver as this boot imported it: Craps' and Omaha's released it)
                assert isinstance(oled, sys.modules["firmware.drivers.ssd1306"].SSD1306)
                assert ctx.game.scoreboard[1] is oled
                continue
            assert isinstance(oled, Panel) and ctx.game.scoreboard is None
            assert "firmware.drivers.ssd1306" not in sys.modules      # the driver went with its picture
            assert not [v for v in oled.__dict__.values() if isinstance(v, (bytearray, memoryview)) and len(v) > 7]
            login(ctx, machine)
            bus = oled.i2c = _Bus()
            assert "scoreboard: test pattern for 3 s" in typed(ctx, machine, "display test", 1)
            assert bus.transactions == [(60, window), (60, b"\x40" + b"\xff" * 1024)]
            _run(ctx, 35)
            assert bus.transactions[2:] == [(60, window), (60, b"\x40" + bytes(1024))]
            assert "display scoreboard: ok" in typed(ctx, machine, "selftest", 1)


def test_a_craps_table_names_its_seats_with_the_reports_literal():
    # reports.SEAT_KEYS (a literal) when it names every seat, not a tuple of its own; more seats: made.
    from firmware.games.craps.reports import SEAT_KEYS
    from tests.firmware.craps_rig import Rig, strip
    rig = Rig()
    assert rig.table._seat_keys is SEAT_KEYS
    big = Rig(seats=24, table_seats=24)
    assert len(big.table._seat_keys) == 24 and big.table._seat_keys[23] == "24"
    big.bets({24: {"pass": 10}, 2: {"pass": 5}})
    big.throw(3, 4)                                      # a natural: Pass wins (art. 5(2)(1))
    assert strip(big.last("throw"))["nets"] == {"2": {"pass": 5}, "24": {"pass": 10}}
