# HD44780 character LCD behind a PCF8574 I2C backpack (4-bit mode), micropython-lib style.
#
# Backpack wiring (the common one): P0=RS, P1=RW (kept low: only writes), P2=E, P3=backlight,
# P4..P7=D4..D7. Each 4-bit transfer is two expander bytes, E high then E low
# (the LCD latches on the falling edge), so a character or command is 4 bytes.
# show() sends only the changed part of a row: its "set address" command and its
# characters in one I2C transaction, from a buffer made once (each byte is wire
# time: 90 us at 100 kHz).
# Character set: ROM A00, text to codes in firmware/drivers/lcd_charset.py; init loads the four card
# suits into CGRAM 0..3.
from firmware.compat import sleep_ms
from firmware.drivers.lcd_charset import ROM as _ROM, SUIT_GLYPHS, encode as _encode, rom_code

# PCF8574 bits
_MASK_RS = const(0x01)
_MASK_E = const(0x04)
_EIO = const(5)             # the OSError show() raises for a backpack that lost its power (errno EIO)
MASK_BACKLIGHT = const(0x08)

# HD44780 instructions and flags
_LCD_CLR = const(0x01)
_LCD_ENTRY_MODE = const(0x04)
_LCD_ENTRY_INC = const(0x02)
_LCD_ON_CTRL = const(0x08)
_LCD_ON_DISPLAY = const(0x04)
_LCD_FUNCTION = const(0x20)
_LCD_FUNCTION_8BIT = const(0x10)
_LCD_FUNCTION_2LINES = const(0x08)
_LCD_CGRAM = const(0x40)
_LCD_DDRAM = const(0x80)

# Geometries one HD44780 drives: its display RAM holds 80 characters. A 40x4 module
# has two controllers on two enable lines, which one PCF8574 backpack (one E) cannot
# drive, so it is refused, here and by the board validator, which asks geometry_problem().
MAX_COLS = const(40)
MAX_ROWS = const(4)
_MAX_CHARS = const(80)


def geometry_problem(cols, rows):
    """Why this driver cannot run a cols x rows LCD, or None if it can."""
    if not 1 <= rows <= MAX_ROWS or not 1 <= cols <= MAX_COLS:
        return "unsupported LCD geometry %dx%d (1-%d columns, 1-%d rows)" % (cols, rows, MAX_COLS, MAX_ROWS)
    if cols * rows > _MAX_CHARS:
        return ("unsupported LCD geometry %dx%d: one HD44780 shows at most %d characters "
                "(a %dx%d module has two controllers)" % (cols, rows, _MAX_CHARS, cols, rows))
    return None


# The four expander bytes of a display character, per nibble: a table of 16 16-bit pixels, the two
# bytes (E high, then low) of a nibble in the high bits with a set of flag bits (RS and the backlight),
# made once and shared by every LCD. show() turns a whole row into its bus bytes with ONE FrameBuffer
# blit through it as a palette: the row read as GS4 pixels, two a byte (the high nibble first, GS4_HMSB),
# into two RGB565 pixels a character (framebuf maps each GS4 pixel through the palette to two bytes, in
# C; a pixel is read and written in one byte order, whatever it is). A Python loop of ~30 bytecodes per
# character was most of a redraw's cost; two blits through 256-code tables of each nibble, one a nibble,
# took twice the calls and 1 KB of tables (issue 14).
_PALETTES = {}      # flags -> FrameBuffer
_PORT = bytearray(1)    # lost_setup()'s read of an expander (every LCD's: one at a time, none kept per display)


def _palettes(framebuf, flags):
    palette = _PALETTES.get(flags)
    if palette is None:
        table = bytearray(32)
        for nibble in range(16):
            bits = (nibble << 4) | flags
            table[2 * nibble] = bits | _MASK_E
            table[2 * nibble + 1] = bits
        palette = framebuf.FrameBuffer(table, 16, 1, framebuf.RGB565)
        _PALETTES[flags] = palette
    return palette


class CharLCD:
    """CharLCD(i2c, addr=0x27, cols=20, rows=4); raises OSError if nothing answers at addr."""

    def __init__(self, i2c, addr=0x27, cols=20, rows=4, sleep=None):
        problem = geometry_problem(cols, rows)
        if problem is not None:
            raise ValueError(problem)
        self.i2c = i2c
        self.addr = addr
        self.cols = cols
        self.rows = rows
        self._sleep = sleep if sleep is not None else sleep_ms
        self._bl = MASK_BACKLIGHT
        self._buf = bytearray(4 + 4 * cols)  # bus bytes: a command and up to one row
        self._mv = memoryview(self._buf)
        self._row = bytearray(cols)         # scratch: one row encoded
        self._blank = b" " * cols           # a row of spaces (a row's padding)
        # The row and the bus bytes as FrameBuffers (the row two GS4 columns of pixels, a character's
        # nibbles a row; the bus bytes two RGB565 columns, a character's four bytes a row): _data() blits
        # one into the other through _PALETTES. Without framebuf (a CPython without the simulator's) a
        # loop does it.
        self._framebuf = None
        try:
            import framebuf
        except ImportError:
            framebuf = None
        if framebuf is not None:
            self._framebuf = framebuf
            self._src = framebuf.FrameBuffer(self._row, 2, cols, framebuf.GS4_HMSB, 2)
            self._dst = framebuf.FrameBuffer(self._mv[4:], 2, cols, framebuf.RGB565, 2)
            self._palettes = _palettes(framebuf, _MASK_RS | self._bl)
        self._shown = [bytearray(cols) for _ in range(rows)]   # what each row shows now
        self._texts = [None] * rows         # the text show() last put on each row, None: written since
        # Per row: past this column it shows spaces (show() compares a new row with it from there
        # down, not from the row's end; cols: not known, after putstr() or at power-up).
        self._lengths = bytearray([cols] * rows)
        self.cursor_x = 0
        self.cursor_y = 0
        self.row_writes = 0                 # rows sent by show() (for tests and stats)
        self.init_display()

    def init_display(self):
        """Set the controller up (again, after it lost its power or setup: a cable pulled and reseated,
        firmware/display_loss.py): blank, as at power-up; the next show() writes every row. OSError when
        nothing answers. (ssd1306's name for its own: micropython-lib's.)"""
        i2c = self.i2c
        i2c.writeto(self.addr, bytes((0,)))     # OSError here if no backpack answers
        self._sleep(20)                         # LCD needs > 40 ms after power-up
        self._sleep(20)
        # Reset by instruction: three 8-bit "function set"s, then 4-bit mode.
        # Works whatever state the LCD was left in (e.g. after a firmware reset).
        eight = _LCD_FUNCTION | _LCD_FUNCTION_8BIT
        for nibble, wait in ((eight, 5), (eight, 1), (eight, 1), (_LCD_FUNCTION, 1)):
            self._buf[0] = nibble | _MASK_E
            self._buf[1] = nibble
            i2c.writeto(self.addr, self._mv[:2])
            self._sleep(wait)
        self.command(_LCD_FUNCTION | (_LCD_FUNCTION_2LINES if self.rows > 1 else 0))
        self.command(_LCD_ON_CTRL)
        for location in range(len(SUIT_GLYPHS)):
            self.custom_char(location, SUIT_GLYPHS[location])
        self.clear()
        self.command(_LCD_ENTRY_MODE | _LCD_ENTRY_INC)
        self.command(_LCD_ON_CTRL | _LCD_ON_DISPLAY)
        self.backlight(True)

    def lost_setup(self):
        """True when the backpack lost its power since this driver's last write (a cable reseated between two
        writes: the LCD powered up blank and in 8-bit mode, not set up): the PCF8574 powers up with every output
        high, E among them, where each write of this driver leaves E low, and reads back what it outputs. One
        byte read, nothing allocated. OSError when nothing answers (the cable out)."""
        self.i2c.readfrom_into(self.addr, _PORT)
        return _PORT[0] & _MASK_E != 0

    def _put(self, i, value, rs):
        """Encode one byte as four expander bytes at self._buf[i]."""
        buf = self._buf
        flags = rs | self._bl
        hi = (value & 0xF0) | flags
        lo = ((value << 4) & 0xF0) | flags
        buf[i] = hi | _MASK_E
        buf[i + 1] = hi
        buf[i + 2] = lo | _MASK_E
        buf[i + 3] = lo

    def command(self, cmd):
        self._put(0, cmd, 0)
        self.i2c.writeto(self.addr, self._mv[:4])

    def _data(self, codes, n, start=0, addr=-1):
        """Send codes[start:start + n] as display data, after a "set DDRAM address" command when
        addr >= 0: both in one transaction."""
        if codes is self._row and self._framebuf is not None:
            # Every character of the row into the bus bytes at once (character k at 4 + 4 k), the
            # command into the four bytes before character `start`, then those bytes sent.
            self._dst.blit(self._src, 0, 0, -1, self._palettes)
            i = 4 * start
            if addr >= 0:
                self._put(i, _LCD_DDRAM | addr, 0)
            else:
                i += 4
            self.i2c.writeto(self.addr, self._mv[i:4 * (start + n) + 4])
            return
        buf = self._buf
        i = 0
        if addr >= 0:
            self._put(0, _LCD_DDRAM | addr, 0)
            i = 4
        flags = _MASK_RS | self._bl
        for k in range(start, start + n):       # _put() inlined: a call per character was half the cost
            value = codes[k]
            hi = (value & 0xF0) | flags
            lo = ((value << 4) & 0xF0) | flags
            buf[i] = hi | _MASK_E
            buf[i + 1] = hi
            buf[i + 2] = lo | _MASK_E
            buf[i + 3] = lo
            i += 4
        self.i2c.writeto(self.addr, self._mv[:i])

    def custom_char(self, location, charmap):
        """Load an 8-row 5x8 glyph into CGRAM location 0..7 (character code = location).

        Leaves the address counter in CGRAM: the next move_to()/clear() goes back to the text.
        """
        self.command(_LCD_CGRAM | ((location & 7) << 3))
        step = self.cols if self.cols < 8 else 8
        row = self._row
        for first in range(0, 8, step):
            n = min(step, 8 - first)
            for k in range(n):
                row[k] = charmap[first + k]
            self._data(row, n)

    def clear(self):
        self.command(_LCD_CLR)
        self._sleep(2)                          # clear takes 1.52 ms
        for row in self._shown:
            row[:] = self._blank
        for y in range(self.rows):
            self._texts[y] = None
            self._lengths[y] = 0
        self.cursor_x = 0
        self.cursor_y = 0

    def move_to(self, col, row):
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            raise ValueError("position (%d, %d) is outside the %dx%d LCD" % (col, row, self.cols, self.rows))
        self.cursor_x = col
        self.cursor_y = row
        self.command(_LCD_DDRAM | self._address(col, row))

    def _address(self, col, row):
        return col + (0x40 if row & 1 else 0) + (self.cols if row & 2 else 0)

    def putstr(self, text):
        """Write text at the cursor; wraps at the row end, "\\n" starts the next row.

        A "\\n" right after an automatic wrap is skipped (as micropython-lib's
        lcd_api does), so full-width lines joined by newlines leave no blank rows.
        """
        row = self._row
        n = 0
        start = self.cursor_x
        wrapped = False
        for ch in text:
            if ch == "\n":
                if n:
                    self._flush_run(start, n)
                    n = 0
                if not wrapped:
                    self.move_to(0, (self.cursor_y + 1) % self.rows)
                start = 0
                wrapped = False
                continue
            wrapped = False
            row[n] = rom_code(ch)
            n += 1
            if start + n == self.cols:
                self._flush_run(start, n)
                n = 0
                self.move_to(0, (self.cursor_y + 1) % self.rows)
                start = 0
                wrapped = True
        if n:
            self._flush_run(start, n)
            self.cursor_x = start + n

    def _flush_run(self, start, n):
        self._data(self._row, n)
        self._texts[self.cursor_y] = None
        self._lengths[self.cursor_y] = self.cols
        shown = self._shown[self.cursor_y]
        for k in range(n):
            shown[start + k] = self._row[k]

    def show(self, lines):
        """Show lines (one str per row; missing rows blank, long ones cut), rewriting only the rows that
        changed, from the first changed character to the last. Returns the number of rows written."""
        written, row = 0, None
        texts, n_lines = self._texts, len(lines)
        for y in range(self.rows):
            text = lines[y] if y < n_lines else ""
            if text == texts[y]:
                continue            # shows this very text (one string compare, not 20 characters encoded)
            if row is None:
                # Before the first write: did the backpack lose its power since the last one (lost_setup())?
                # A write would hide it (it leaves E low on an LCD that is not set up): OSError, which the
                # firmware answers by setting the display up again (firmware/display_loss.py).
                if self.lost_setup():
                    raise OSError(_EIO)
                # The first row that changed: its reads as locals (~1 us each), three a statement (no tuple)
                row, cols, lengths = self._row, self.cols, self._lengths
                blank, all_shown, blits = self._blank, self._shown, self._framebuf is not None
                if blits:
                    dst, src, buf = self._dst, self._src, self._buf
                    palette = self._palettes
                    bl, i2c, mv = self._bl, self.i2c, self._mv
                    bus_addr = self.addr
            texts[y] = text
            data = text.encode()
            n = len(data)
            if n == len(text) and not data.strip(_ROM):     # each byte its code: slice stores, in C
                if n >= cols:
                    row[:] = memoryview(data)[:cols]
                    n = cols
                else:
                    row[:] = blank              # the spaces, then the text over them
                    row[:n] = data
            else:
                n = _encode(text, data, row, cols)
            shown = all_shown[y]
            if row != shown:
                first = 0
                while row[first] == shown[first]:
                    first += 1
                end = n if n > lengths[y] else lengths[y]   # past both: spaces on both
                while row[end - 1] == shown[end - 1]:
                    end -= 1
                addr = first + (0x40 if y & 1 else 0) + (cols if y & 2 else 0)     # _address(), inlined
                if blits:
                    dst.blit(src, 0, 0, -1, palette)    # _data(), inlined: the command before `first`
                    i = 4 * first
                    hi = (_LCD_DDRAM | addr) & 0xF0 | bl
                    lo = (addr << 4) & 0xF0 | bl
                    buf[i] = hi | _MASK_E
                    buf[i + 1] = hi
                    buf[i + 2] = lo | _MASK_E
                    buf[i + 3] = lo
                    i2c.writeto(bus_addr, mv[i:4 * end + 4])
                else:
                    self._data(row, end - first, first, addr)
                shown[:] = row
                written += 1
                last = y
            lengths[y] = n
        if written:
            self.cursor_y = last            # the last row written (its characters moved the cursor)
            self.row_writes += written
        self.cursor_x = 0
        return written

    def backlight(self, on=True):
        self._bl = MASK_BACKLIGHT if on else 0
        if self._framebuf is not None:
            self._palettes = _palettes(self._framebuf, _MASK_RS | self._bl)
        self._buf[0] = self._bl
        self.i2c.writeto(self.addr, self._mv[:1])

    def display(self, on=True):
        self.command(_LCD_ON_CTRL | (_LCD_ON_DISPLAY if on else 0))
