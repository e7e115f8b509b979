# Simulated HD44780 character LCD on a PCF8574 I2C backpack: decodes the bus bytes into the text a dealer would see.
#
# Attach with hardware.attach_i2c(bus, addr, SimLCD(20, 4)). The expander's
# output byte is tracked (P0=RS, P1=RW, P2=E, P3=backlight, P4..P7=D4..D7);
# each falling edge of E latches one transfer: a full byte in 8-bit mode
# (only D4..D7 wired, D0..D3 read as 0), a nibble in 4-bit mode. Instructions
# and data then go to DDRAM/CGRAM as on the chip, including the address
# counter's jump from 0x27 to 0x40 in two-line mode, so a driver that gets
# the protocol wrong shows garbage here too. Not simulated: display shift,
# timing (busy flag), reading DDRAM.
from firmware.drivers.lcd_charset import SUIT_CHARS, SUIT_GLYPHS

RS, RW, E, BACKLIGHT = 0x01, 0x02, 0x04, 0x08
# User glyphs the simulator recognises in CGRAM by their dots: bitmap -> character.
KNOWN_GLYPHS = {bytes(g): ch for g, ch in zip(SUIT_GLYPHS, SUIT_CHARS)}

# ROM A00 codes that are not plain ASCII, as the simulator shows them.
ROM_A00_EXTRA = {0x5C: "¥", 0x7E: "→", 0x7F: "←", 0xDF: "°", 0xA5: "･"}
CGRAM_CHAR = "▯"     # a user-defined glyph (codes 0..7) the simulator does not recognise
UNKNOWN_CHAR = "▒"   # any other ROM code (katakana, Greek, ...)


def rom_char(code):
    """Display character of a ROM A00 code."""
    if 0x20 <= code <= 0x7D and code != 0x5C:
        return chr(code)
    if code in ROM_A00_EXTRA:
        return ROM_A00_EXTRA[code]
    if code < 0x10:
        return CGRAM_CHAR
    return UNKNOWN_CHAR


class SimLCD:
    """A cols x rows HD44780 behind a PCF8574; lines() is what the glass shows."""

    def __init__(self, cols=20, rows=4, name=""):
        self.cols = cols
        self.rows = rows
        self.name = name
        self.instructions = 0
        self.data_writes = 0
        self.transactions = 0
        self.clears = 0
        self.power_up()

    def power_up(self):
        """The state power brings (a cable reseated): the expander's outputs high, the controller in 8-bit mode with
        the display off and its RAM cleared by the internal reset, to be set up again; the counters kept."""
        self.port = 0xFF            # PCF8574 outputs are high after power-up
        self.eight_bit = True       # HD44780 powers up in 8-bit mode
        self._high = None           # first nibble of a 4-bit transfer
        self.two_lines = False
        self.ddram = bytearray(b" " * 0x80)
        self.cgram = bytearray(64)
        self.ac = 0
        self.in_cgram = False
        self.increment = True
        self.display_on = False
        self.cursor_on = False
        self.blink_on = False

    # I2C device protocol (hostsim.machine.I2C)
    def i2c_write(self, data):
        self.transactions += 1
        for b in data:
            prev = self.port
            self.port = b
            if prev & E and not b & E:
                self._strobe(prev)

    def i2c_read(self, n):
        return bytes((self.port,)) * n

    @property
    def backlight(self):
        return bool(self.port & BACKLIGHT)

    def _strobe(self, bits):
        if bits & RW:
            return              # a read cycle: the LCD drives the bus, nothing is written
        rs = bits & RS
        nibble = bits & 0xF0
        if self.eight_bit:
            self._execute(nibble, rs)
        elif self._high is None:
            self._high = nibble
        else:
            value = self._high | (nibble >> 4)
            self._high = None
            self._execute(value, rs)

    def _execute(self, value, rs):
        if rs:
            self.data_writes += 1
            if self.in_cgram:
                self.cgram[self.ac & 0x3F] = value
                self.ac = (self.ac + (1 if self.increment else -1)) & 0x3F
            else:
                self.ddram[self.ac] = value
                self._step()
            return
        self.instructions += 1
        if value & 0x80:
            self.ac = value & 0x7F
            self.in_cgram = False
        elif value & 0x40:
            self.ac = value & 0x3F
            self.in_cgram = True
        elif value & 0x20:
            self.eight_bit = bool(value & 0x10)
            self.two_lines = bool(value & 0x08)
            self._high = None
        elif value & 0x10:
            if not value & 0x08:            # cursor move (display shift is not simulated)
                self.increment, saved = bool(value & 0x04), self.increment
                self._step()
                self.increment = saved
        elif value & 0x08:
            self.display_on = bool(value & 0x04)
            self.cursor_on = bool(value & 0x02)
            self.blink_on = bool(value & 0x01)
        elif value & 0x04:
            self.increment = bool(value & 0x02)
        elif value & 0x02:
            self.ac = 0
            self.in_cgram = False
        elif value & 0x01:
            self.clears += 1
            for i in range(len(self.ddram)):
                self.ddram[i] = 0x20
            self.ac = 0
            self.in_cgram = False
            self.increment = True

    def _step(self):
        """Move the DDRAM address counter as the chip does (two-line: 0x00-0x27, 0x40-0x67)."""
        ac = self.ac
        if self.two_lines:
            if self.increment:
                ac = 0x40 if ac == 0x27 else (0x00 if ac == 0x67 else ac + 1)
            else:
                ac = 0x67 if ac == 0x00 else (0x27 if ac == 0x40 else ac - 1)
        else:
            ac = (ac + (1 if self.increment else -1)) % 0x50
        self.ac = ac

    def row_address(self, row):
        return (0x40 if row & 1 else 0) + (self.cols if row & 2 else 0)

    def glyph_char(self, code):
        """Character for a CGRAM code (0..15; 8..15 mirror 0..7): a known glyph or CGRAM_CHAR."""
        slot = (code & 7) * 8
        return KNOWN_GLYPHS.get(bytes(b & 0x1F for b in self.cgram[slot:slot + 8]), CGRAM_CHAR)

    def char(self, code):
        return self.glyph_char(code) if code < 0x10 else rom_char(code)

    def lines(self):
        """The rows as text (what the glass shows when the display is on)."""
        out = []
        for row in range(self.rows):
            start = self.row_address(row)
            out.append("".join(self.char(self.ddram[start + c]) for c in range(self.cols)))
        return out

    def text(self):
        return "\n".join(self.lines())

    def __repr__(self):
        return "<SimLCD %s %dx%d %r>" % (self.name, self.cols, self.rows, self.lines())


def attach_displays(hardware, board):
    """Attach a SimLCD at every character display of a board description; returns {role: SimLCD}.

    Displays of kind "ssd1306" are OLEDs: hostsim.oled.attach_oleds attaches those.
    """
    from hostsim.hardware import board_section

    displays = board_section(board, "displays")
    out = {}
    if not displays or "i2c" not in displays:
        return out
    bus = displays["i2c"]["bus"]
    for role, spec in sorted(displays.items()):
        if role != "i2c" and "addr" in spec and spec.get("kind") != "ssd1306":
            out[role] = hardware.attach_i2c(bus, spec["addr"],
                                            SimLCD(spec.get("cols", 20), spec.get("rows", 4), name=role))
    return out
