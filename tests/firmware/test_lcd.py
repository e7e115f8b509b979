# HD44780/PCF8574 LCD driver, checked on both runtimes against a fake I2C bus that decodes the E strobes.
from firmware.drivers import lcd, lcd_charset
from firmware.drivers.lcd import CharLCD
from tests.firmware.expect import count_calls, raises


def no_sleep(ms):
    pass


class FakeI2C:
    """Records expander bytes; every falling edge of E (bit 2) is one strobe (rs, nibble)."""

    def __init__(self, addrs=(0x27,)):
        self.addrs = addrs
        self.transactions = []
        self.port = 0xFF
        self.strobes = []

    def writeto(self, addr, buf, stop=True):
        if addr not in self.addrs:
            raise OSError(19)
        data = bytes(buf)
        self.transactions.append(data)
        for b in data:
            if self.port & 4 and not b & 4 and not self.port & 2:   # E falls on a write cycle
                self.strobes.append((self.port & 1, self.port >> 4, self.port & 2))
            self.port = b
        return len(data)

    def readfrom_into(self, addr, buf, stop=True):
        """The expander's outputs read back (a PCF8574 reads what it drives)."""
        if addr not in self.addrs:
            raise OSError(19)
        for i in range(len(buf)):
            buf[i] = self.port

    def ops(self, start=4):
        """Strobes after the four 8-bit init nibbles, paired into (rs, byte)."""
        out = []
        s = self.strobes[start:]
        for i in range(0, len(s) - 1, 2):
            out.append((s[i][0], (s[i][1] << 4) | s[i + 1][1]))
        return out

    def reset_log(self):
        self.transactions = []
        self.strobes = []


def make(cols=8, rows=2, addr=0x27):
    bus = FakeI2C((addr,))
    return bus, CharLCD(bus, addr, cols, rows, sleep=no_sleep)


def text_of(ops):
    return "".join(chr(v) for rs, v in ops if rs)


def test_init_sequence_resets_to_4bit_then_configures():
    bus, _ = make(20, 4)
    first = [(rs, n) for rs, n, rw in bus.strobes[:4]]
    assert first == [(0, 3), (0, 3), (0, 3), (0, 2)]
    glyphs = []
    for g in lcd_charset.SUIT_GLYPHS:
        glyphs += [(1, b) for b in g]
    assert bus.ops() == [(0, 0x28), (0, 0x08), (0, 0x40)] + glyphs[:8] + [(0, 0x48)] + glyphs[8:16] + \
        [(0, 0x50)] + glyphs[16:24] + [(0, 0x58)] + glyphs[24:] + [(0, 0x01), (0, 0x06), (0, 0x0C)]
    assert all(rw == 0 for _, _, rw in bus.strobes)
    assert bus.port & lcd.MASK_BACKLIGHT


def test_one_line_display_uses_one_line_function_set():
    bus, _ = make(16, 1)
    assert bus.ops()[0] == (0, 0x20)


def test_absent_backpack_raises_oserror():
    exc = raises(OSError, CharLCD, FakeI2C((0x26,)), 0x27, 20, 4, no_sleep)
    assert exc.args[0] == 19


def test_lost_setup_reads_the_expander_back_and_tells_a_power_up_from_the_driver_s_own_last_write():
    # The PCF8574 powers up with every output high; each write of the driver leaves E low (firmware.main's
    # probe, every second: a backpack reseated between two writes is blank and not set up).
    bus, display = make(20, 4)
    display.show(["a", "b"])
    sent = len(bus.transactions)
    assert display.lost_setup() is False and len(bus.transactions) == sent     # a read: nothing written
    bus.port = 0xFF                                   # the backpack powered up again
    assert display.lost_setup() is True
    display.show(["a", "b"])                          # nothing to write: nothing asked
    assert raises(OSError, display.show, ["a", "c"]).args[0] == 5     # a write would hide it: asked first
    assert len(bus.transactions) == sent
    display.init_display()
    assert display.lost_setup() is False
    bus.addrs = ()                                    # the cable out
    assert raises(OSError, display.lost_setup).args[0] == 19


def test_bad_geometry_rejected():
    raises(ValueError, CharLCD, FakeI2C(), 0x27, 20, 5, no_sleep)
    raises(ValueError, CharLCD, FakeI2C(), 0x27, 41, 1, no_sleep)


def test_show_writes_each_changed_row_in_one_transaction():
    bus, d = make(8, 2)
    bus.reset_log()
    assert d.show(["Player", "Banker"]) == 2
    assert bus.ops(0) == [(0, 0x80)] + [(1, ord(c)) for c in "Player"] + \
        [(0, 0xC0)] + [(1, ord(c)) for c in "Banker"]
    # per row: the 4-byte "set address" command and 4 bytes per changed character, in one go
    # (the trailing spaces were blank already)
    assert [len(t) for t in bus.transactions] == [28, 28]


def test_show_sends_only_from_the_first_changed_character_to_the_last():
    bus, d = make(20, 4)
    d.show(["ROUND 11", "PLAYER WINS 9-5", "BOTH STAND", "B0 P1 T0"])
    bus.reset_log()
    assert d.show(["ROUND 12", "PLAYER WINS 9-5", "BOTH STAND", "B0 P2 T0"]) == 2
    # row 0 at column 7: address 0x87; row 3 (0x54 + 4): 0xD8; a character each
    assert bus.ops(0) == [(0, 0x87), (1, ord("2")), (0, 0xD8), (1, ord("2"))]
    bus.reset_log()
    assert d.show(["ROUND 12", "BANKER WINS 7-6", "BOTH STAND", "B1 P2 T1"]) == 2
    assert bus.ops(0) == [(0, 0xC0)] + [(1, ord(c)) for c in "BANKER WINS 7-6"] + \
        [(0, 0xD5)] + [(1, ord(c)) for c in "1 P2 T1"]
    bus.reset_log()
    assert d.show(["ROUND 12", "BANKER WINS 7-6", "BOTH", "B1 P2 T1"]) == 1
    assert bus.ops(0) == [(0, 0x99)] + [(1, 0x20)] * 5          # row 2 from column 5: 0x14 + 5
    assert d._shown[2] == bytearray(b"BOTH" + b" " * 16)


def test_show_skips_unchanged_rows():
    bus, d = make(8, 2)
    d.show(["Player", "Banker"])
    bus.reset_log()
    assert d.show(["Player", "Tie"]) == 1
    assert bus.ops(0)[0] == (0, 0xC0) and text_of(bus.ops(0)) == "Tie   "   # "er" -> "  " the last change
    bus.reset_log()
    assert d.show(["Player", "Tie"]) == 0
    assert bus.transactions == []
    assert d.row_writes == 3


def test_init_display_again_sets_the_controller_up_and_the_next_show_writes_every_row():
    # A cable pulled and reseated (firmware/display_loss.py): the LCD lost its power and its setup; what
    # show() remembers having written is gone with it.
    bus, d = make(8, 2)
    d.show(["Player", "Banker"])
    bus.reset_log()
    d.init_display()
    assert [(rs, n) for rs, n, rw in bus.strobes[:4]] == [(0, 3), (0, 3), (0, 3), (0, 2)]   # from its first byte
    bus.reset_log()
    assert d.show(["Player", "Banker"]) == 2 and text_of(bus.ops(0)) == "PlayerBanker"
    bus.addrs = ()                                   # pulled again: nothing answers
    assert raises(OSError, d.init_display).args[0] == 19


def test_missing_rows_blank_and_long_lines_cut():
    bus, d = make(8, 2)
    d.show(["12345678901", "x"])
    bus.reset_log()
    d.show(["12345678901"])
    assert text_of(bus.ops(0)) == " "              # row 2 blanked ("x" -> " "), row 1 unchanged
    bus.reset_log()
    d.show(["abcdefghij", ""])
    assert text_of(bus.ops(0)) == "abcdefgh"
    assert bytes(d._shown[0]) == b"abcdefgh"


def test_characters_outside_rom_a00_are_replaced():
    bus, d = make(8, 1)
    bus.reset_log()
    d.show(["\u00e9\\~\u00b0\u2192\t{}"])
    assert [v for rs, v in bus.ops(0) if rs] == [0x3F, 0x3F, 0x3F, 0xDF, 0x7E, 0x3F, ord("{"), ord("}")]
    assert lcd_charset.rom_code("A") == 0x41 and lcd_charset.rom_code("\u263a") == lcd_charset.REPLACEMENT


def test_card_suits_use_the_cgram_glyphs_in_cards_suit_order():
    from firmware import cards
    bus, d = make(8, 1)
    bus.reset_log()
    d.show(["A\u2660 T\u2665"])
    assert [v for rs, v in bus.ops(0) if rs][:5] == [ord("A"), 3, 32, ord("T"), 2]
    for i in range(4):
        assert lcd_charset.rom_code(lcd_charset.SUIT_CHARS[i]) == i == cards.SUITS.find("cdhs"[i])
    assert len(set(lcd_charset.SUIT_GLYPHS)) == 4 and all(len(g) == 8 for g in lcd_charset.SUIT_GLYPHS)


def test_custom_char_on_a_narrow_display_goes_out_in_chunks():
    bus, d = make(4, 1)
    bus.reset_log()
    d.custom_char(5, b"\x01\x02\x03\x04\x05\x06\x07\x08")
    assert bus.ops(0) == [(0, 0x68)] + [(1, b) for b in range(1, 9)]
    assert [len(t) for t in bus.transactions] == [4, 16, 16]


def test_move_to_row_addresses_of_a_20x4():
    bus, d = make(20, 4)
    bus.reset_log()
    for row in range(4):
        d.move_to(3, row)
    assert bus.ops(0) == [(0, 0x83), (0, 0xC3), (0, 0x80 | 0x17), (0, 0x80 | 0x57)]
    raises(ValueError, d.move_to, 20, 0)
    raises(ValueError, d.move_to, 0, 4)


def test_putstr_wraps_at_row_end_and_on_newline():
    bus, d = make(4, 2)
    d.move_to(2, 0)
    bus.reset_log()
    d.putstr("abcd\nx")
    assert bus.ops(0) == [(1, ord("a")), (1, ord("b")), (0, 0xC0), (1, ord("c")), (1, ord("d")),
                          (0, 0x80), (1, ord("x"))]
    assert (d.cursor_x, d.cursor_y) == (1, 0)
    bus.reset_log()
    d.show(["x ab", "cd"])                           # exactly what putstr left: nothing to send
    assert bus.transactions == []


def test_putstr_newline_right_after_a_wrap_is_skipped():
    bus, d = make(4, 2)
    bus.reset_log()
    d.putstr("abcd\nefgh")
    assert bus.ops(0) == [(1, ord(c)) for c in "abcd"] + [(0, 0xC0)] + \
        [(1, ord(c)) for c in "efgh"] + [(0, 0x80)]


def test_clear_blanks_and_homes():
    bus, d = make(8, 2)
    d.show(["abc"])
    bus.reset_log()
    d.clear()
    assert bus.ops(0) == [(0, 0x01)]
    assert d.show(["abc"]) == 1


def test_backlight_off_and_on():
    bus, d = make(8, 2)
    d.backlight(False)
    assert not bus.port & lcd.MASK_BACKLIGHT
    d.show(["dark"])
    assert all(not b & lcd.MASK_BACKLIGHT for t in bus.transactions[-2:] for b in t)
    d.backlight(True)
    assert bus.port & lcd.MASK_BACKLIGHT
    d.backlight(False)
    d.backlight()                           # on, by default
    assert bus.port & lcd.MASK_BACKLIGHT


def test_display_off_on_commands():
    bus, d = make(8, 2)
    bus.reset_log()
    d.display(False)
    d.display(True)
    assert bus.ops(0) == [(0, 0x08), (0, 0x0C)]


def test_scratch_buffers_are_reused():
    bus, d = make(8, 2)
    buf, row = d._buf, d._row
    d.show(["a", "b"])
    d.show(["c", "d"])
    d.putstr("xyz")
    assert d._buf is buf and d._row is row and len(buf) == 4 + 32


def test_a_row_showing_the_same_text_is_not_encoded_again():
    # The table redraws both LCDs after each event, most rows unchanged: a row whose text is the one
    # show() last put there costs one string compare (it was 20 characters encoded and compared).
    bus, d = make(20, 4)
    # Suits (not ASCII) take the per-character path, which counts its rom_code() calls.
    lines = ["ROUND 12", "BANKER WINS 7-6", "P 9\u2660 K\u2665", "B5 P6 T1"]
    d.show(lines)
    calls, plain = count_calls(lcd_charset, "rom_code")
    try:
        assert d.show([line + "" for line in lines]) == 0        # equal strings, not the same objects
        assert calls[0] == 0
        assert d.show(lines[:2] + ["P 9\u2660 Q\u2665"] + lines[3:]) == 1
        assert calls[0] == 7                                      # the changed row only
    finally:
        lcd_charset.rom_code = plain


def test_a_row_written_by_putstr_or_clear_is_shown_again():
    bus, d = make(8, 2)
    d.show(["Player", "Banker"])
    d.move_to(0, 0)
    d.putstr("XX")
    bus.reset_log()
    assert d.show(["Player", "Banker"]) == 1                      # row 0 was overwritten: put back
    assert text_of(bus.ops(0)) == "Pl"                           # what putstr() changed
    assert bytes(d._shown[0]) == b"Player  "
    d.clear()
    assert d.show(["Player", "Banker"]) == 2


def test_ascii_rows_are_encoded_as_rom_code_encodes_each_character():
    # show() takes ASCII text byte by byte; each code must be what rom_code() gives its character.
    bus, d = make(20, 4)
    for start in range(0x20, 0x80, 20):
        text = "".join(chr(c) for c in range(start, min(start + 20, 0x80)))
        d.show([text])
        assert bytes(d._shown[0][:len(text)]) == bytes(lcd_charset.rom_code(ch) for ch in text), text


def test_the_rom_bytes_are_the_ascii_characters_that_are_their_own_code():
    # show() copies a row at once when data.strip(ROM) leaves nothing: ROM must be exactly the bytes
    # rom_code() gives back unchanged (a literal, its most frequent characters first), each once.
    own = [c for c in range(0x80) if lcd_charset.rom_code(chr(c)) == c]
    assert sorted(lcd_charset.ROM) == own and len(set(lcd_charset.ROM)) == len(lcd_charset.ROM)
    for c in range(0x80):
        assert (not bytes((0x41, c, 0x42)).strip(lcd_charset.ROM)) == (c in own), c


def test_ascii_rows_the_lcd_cannot_show_as_they_are_take_the_replacements():
    # show() copies a row whose every byte is its own ROM code at once; any other byte sends the row
    # through rom_code(): a control character, the backslash, the tilde, DEL.
    bus, d = make(8, 2)
    d.show(["a\tb\\c~\x7f", "exactly8", "cut after 8"])
    assert bytes(d._shown[0]) == b"a?b?c?? "
    assert bytes(d._shown[1]) == b"exactly8"
    d.show(["12345678", "cut after 8"])
    assert bytes(d._shown[0]) == b"12345678" and bytes(d._shown[1]) == b"cut afte"


def test_rows_go_out_through_expander_tables_made_once_as_the_loop_writes_them():
    # show() turns a row into bus bytes with one framebuf blit through a per-nibble table shared by every
    # LCD (a Python loop per character was most of a redraw); the bytes are the loop's, every code,
    # backlight on and off.
    bus, d = make(20, 4)
    other_bus, other = make(20, 4)
    assert d._palettes is other._palettes and len(lcd._PALETTES) >= 1
    loop_bus, loop = make(20, 4)
    loop._framebuf = None                   # the loop a CPython without framebuf runs
    for light in (True, False):
        for lcd_ in (d, loop):
            lcd_.backlight(light)
        for first in range(0, 256, 20):
            for lcd_, b in ((d, bus), (loop, loop_bus)):
                for k in range(20):
                    lcd_._row[k] = (first + k) & 0xFF
                b.reset_log()
                lcd_._data(lcd_._row, 20 - first % 7, first % 7, 0x40 + first % 7)
                lcd_._data(lcd_._row, 5, 3)
            assert bus.transactions == loop_bus.transactions, (light, first)


def test_each_ascii_character_among_letters_is_shown_as_rom_code_gives_it():
    # A row of characters that are their own ROM codes is copied at once; one other (a control
    # character, the backslash, the tilde, DEL) among them must send the row through rom_code().
    bus, d = make(8, 1)
    for value in range(1, 0x80):
        text = "ab" + chr(value) + "cd"
        d.show([text])
        assert bytes(d._shown[0]) == bytes(lcd_charset.rom_code(ch) for ch in text) + b"   ", value


def test_each_show_sends_exactly_the_span_that_changed_after_shows_putstr_and_clear():
    # show() looks for a row's last change from past the longer of the new text and the one shown
    # (spaces beyond both), not from the row's end; after putstr() or clear() it must still find it.
    bus, d = make(12, 2)
    words = ("", "A", "AB", "ABC  ", "ABX", "B", "  C", "ABCDEFGHIJKL", "ABCDEFGHIJKLMN", "AB D", "x\\y")
    screen = [bytearray(b" " * 12), bytearray(b" " * 12)]
    seed = 7
    for step in range(300):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        r = seed >> 10
        if r % 17 == 0:
            d.clear()
            screen = [bytearray(b" " * 12), bytearray(b" " * 12)]
            continue
        if r % 13 == 0:
            d.move_to(r % 5, r % 2)
            text = words[r % len(words)][:12 - r % 5]
            d.putstr(text)
            for k in range(len(text)):
                screen[r % 2][r % 5 + k] = lcd_charset.rom_code(text[k])
            continue
        lines = [words[r % len(words)], words[(r >> 4) % len(words)]]
        bus.reset_log()
        d.show(lines)
        sent = bus.ops(0)
        want = []
        for y in range(2):
            row = bytearray(b" " * 12)
            for k in range(min(12, len(lines[y]))):
                row[k] = lcd_charset.rom_code(lines[y][k])
            changed = [k for k in range(12) if row[k] != screen[y][k]]
            if changed:
                first, last = changed[0], changed[-1]
                want.append((0, 0x80 | (0x40 * y + first)))
                want.extend((1, row[k]) for k in range(first, last + 1))
            screen[y] = row
        assert sent == want, (step, lines, sent, want)
