# Simulated SSD1306 OLED on I2C: decodes the bus bytes into display RAM and the picture the glass shows.
#
# Attach with hardware.attach_i2c(bus, addr, SimSSD1306(128, 64)). Each I2C
# transaction is control bytes and payload as on the chip: a control byte with
# Co=1 governs one byte, Co=0 the rest of the transaction; D/C# tells commands
# from RAM data. Commands are decoded with their argument bytes (which may
# arrive in later transactions, as drivers that send one byte per transaction
# do), data lands in GDDRAM at the address pointer, which then moves as the
# addressing mode (horizontal, vertical, page) and the column/page windows say.
# The segment remap applies when RAM is written (datasheet 10.1.8).
#
# The glass: the module wires its COM pins for the usual configuration (the
# alternative one for 64 rows, sequential for 32) and mounts the panel so that
# segment remap + reversed COM scan (0xA1, 0xC8, what drivers send) show RAM
# upright; other settings mirror, flip or interleave the picture as a real
# module does. Also modelled: multiplex ratio, start line, display offset (as
# a shift of the driven COM lines), invert, entire-display-on, display on/off
# and the charge pump (without it, and with no external VCC, the glass stays
# dark). Parsed but not animated: scrolling. Not simulated: reading RAM,
# timing, fade/zoom. Power-on RAM is blank here (garbage on a real chip).
import struct
import zlib

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2
COLUMNS, PAGES, COMS = 128, 8, 64
# Commands followed by argument bytes: command -> how many.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x23: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
         0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
HALF_BLOCKS = " \u2580\u2584\u2588"      # index: top pixel + 2 * bottom pixel
ON_COLOUR = (255, 255, 255)
OFF_COLOUR = (0, 0, 0)


class SimSSD1306:
    """A width x height SSD1306 module; pixels() is what the glass shows (rows of 0/1)."""

    def __init__(self, width=128, height=64, name="", external_vcc=False):
        if not 1 <= width <= COLUMNS or height not in (16, 32, 48, 64):
            raise ValueError("unsupported SSD1306 module %dx%d" % (width, height))
        self.width = width
        self.height = height
        self.name = name
        self.external_vcc = external_vcc
        self.ram = [bytearray(COLUMNS) for _ in range(PAGES)]   # GDDRAM, indexed by segment
        self.transactions = 0
        self.commands = 0
        self.data_bytes = 0
        self.unknown = []           # command bytes the chip does not define
        self.reset()

    def power_up(self):
        """The state power brings (a cable reseated): every register's reset value, the display off, and RAM
        holding what it happens to (a fixed pattern here: garbage a driver that does not draw it whole shows)."""
        self.reset()
        for page, row in enumerate(self.ram):
            for col in range(COLUMNS):
                row[col] = (col * 37 + page * 91) & 0xFF

    def reset(self):
        """Power-on reset values of every register (datasheet command table); RAM is kept."""
        self.display_on = False
        self.addressing = PAGE
        self.col_start, self.col_end = 0, COLUMNS - 1
        self.page_start, self.page_end = 0, PAGES - 1
        self.col = self.page = 0
        self.page_col_start = 0
        self.start_line = 0
        self.offset = 0
        self.mux = COMS - 1
        self.seg_remap = False
        self.com_remap = False
        self.com_pins = 0x12
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.charge_pump = False
        self.scrolling = False
        self.scroll_setup = ()
        self.settings = {}          # clock divide, precharge, VCOMH, fade, zoom: stored, not modelled
        self._pending = None
        self._args = []

    # I2C device protocol (hostsim.machine.I2C)
    def i2c_write(self, data):
        self.transactions += 1
        i, n = 0, len(data)
        while i < n:
            control = data[i]
            i += 1
            is_data = bool(control & 0x40)
            if control & 0x80:                  # Co=1: one byte, then another control byte
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
                continue
            for b in data[i:]:                  # Co=0: the rest of the transaction
                self._byte(b, is_data)
            return

    def i2c_read(self, n):
        """The status byte: bit 6 set while the display is off."""
        return bytes((0x00 if self.display_on else 0x40,)) * n

    def _byte(self, b, is_data):
        if is_data:
            self._write_ram(b)
        elif self._pending is not None:
            self._args.append(b)
            if len(self._args) == _ARGS[self._pending]:
                cmd, self._pending = self._pending, None
                self._execute(cmd, self._args)
        elif b in _ARGS:
            self._pending = b
            self._args = []
        else:
            self._execute(b, ())

    def _write_ram(self, b):
        self.data_bytes += 1
        seg = COLUMNS - 1 - self.col if self.seg_remap else self.col
        self.ram[self.page][seg] = b
        if self.addressing == HORIZONTAL:
            if self.col == self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page == self.page_end else (self.page + 1) % PAGES
            else:
                self.col = (self.col + 1) % COLUMNS
        elif self.addressing == VERTICAL:
            if self.page == self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col == self.col_end else (self.col + 1) % COLUMNS
            else:
                self.page = (self.page + 1) % PAGES
        else:                                   # page mode: wrap within the page (datasheet 10.1.3)
            self.col = self.page_col_start if self.col == COLUMNS - 1 else self.col + 1

    def _execute(self, cmd, args):
        self.commands += 1
        if cmd <= 0x1F:                         # page-mode column start, low or high nibble
            if cmd < 0x10:
                self.col = (self.col & 0xF0) | (cmd & 0x0F)
            else:
                self.col = (self.col & 0x0F) | ((cmd & 0x07) << 4)
            self.page_col_start = self.col
        elif 0x40 <= cmd <= 0x7F:
            self.start_line = cmd & 0x3F
        elif 0xB0 <= cmd <= 0xB7:
            self.page = cmd & 0x07
        elif cmd == 0x20:
            self.addressing = args[0] & 0x03
        elif cmd == 0x21:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif cmd == 0x22:
            self.page_start, self.page_end = args[0] & 0x07, args[1] & 0x07
            self.page = self.page_start
        elif cmd in (0xA0, 0xA1):
            self.seg_remap = cmd == 0xA1
        elif cmd in (0xC0, 0xC8):
            self.com_remap = cmd == 0xC8
        elif cmd in (0xA4, 0xA5):
            self.entire_on = cmd == 0xA5
        elif cmd in (0xA6, 0xA7):
            self.inverted = cmd == 0xA7
        elif cmd in (0xAE, 0xAF):
            self.display_on = cmd == 0xAF
        elif cmd == 0x81:
            self.contrast = args[0]
        elif cmd == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif cmd == 0xA8:
            self.mux = max(15, args[0] & 0x3F)  # ratios below 16 are invalid; the chip treats them as 16
        elif cmd == 0xD3:
            self.offset = args[0] & 0x3F
        elif cmd == 0xDA:
            self.com_pins = args[0] & 0x32
        elif cmd in (0x26, 0x27, 0x29, 0x2A, 0xA3):
            self.scroll_setup = (cmd,) + tuple(args)
        elif cmd in (0x2E, 0x2F):
            self.scrolling = cmd == 0x2F
        elif cmd in (0xD5, 0xD9, 0xDB, 0x23, 0xD6):
            self.settings[cmd] = args[0]
        elif cmd != 0xE3:                       # E3 is NOP
            self.unknown.append(cmd)

    # the glass
    @property
    def lit(self):
        """True when the panel is powered and on."""
        return self.display_on and (self.charge_pump or self.external_vcc)

    def _pad(self, com, config):
        """Physical COM pad driven by COM line com under a COM-pins configuration byte."""
        if config & 0x20:                       # left/right remap swaps the halves
            com = (com + 32) % COMS
        if config & 0x10:                       # alternative: the halves interleave
            return 2 * com if com < 32 else 2 * (com - 32) + 1
        return com

    def _ram_rows(self):
        """For each glass row, the RAM row it shows (None: its COM line is not driven)."""
        native = 0x02 if self.width > 2 * self.height else 0x12
        row_of_pad = {self._pad(c, native): c for c in range(self.height)}
        rows = [None] * self.height
        n = self.mux + 1
        for line in range(n):
            com = (line - self.offset) % COMS
            if self.com_remap:
                com = (n - 1 - com) % COMS
            panel_row = row_of_pad.get(self._pad(com, self.com_pins))
            if panel_row is not None:
                rows[self.height - 1 - panel_row] = (line + self.start_line) % COMS
        return rows

    def pixels(self):
        """The glass, top row first: lists of 0/1 (1 = lit)."""
        out = [[0] * self.width for _ in range(self.height)]
        if not self.lit:
            return out
        first_seg = COLUMNS - 1 - (COLUMNS - self.width) // 2     # glass x=0 is this segment
        for y, ram_row in enumerate(self._ram_rows()):
            if ram_row is None:
                continue
            page, bit = self.ram[ram_row >> 3], 1 << (ram_row & 7)
            row = out[y]
            for x in range(self.width):
                on = self.entire_on or bool(page[first_seg - x] & bit)
                row[x] = 1 if on != (self.inverted and not self.entire_on) else 0
        return out

    def to_text(self, scale=1):
        """The glass in half-block characters, two pixel rows per line (scale=2 halves both axes first).

        128x64 gives 32 lines of 128 columns; scale=2 gives 16 lines of 64,
        which fits an 80x24 terminal. Downscaling ORs each 2x2 block so thin
        strokes survive.
        """
        px = self.pixels()
        if scale == 2:
            px = [[px[y][x] | px[y][x + 1] | px[y + 1][x] | px[y + 1][x + 1]
                   for x in range(0, self.width - 1, 2)] for y in range(0, self.height - 1, 2)]
        elif scale != 1:
            raise ValueError("scale must be 1 or 2")
        lines = []
        for y in range(0, len(px), 2):
            top, bottom = px[y], px[y + 1] if y + 1 < len(px) else [0] * len(px[y])
            lines.append("".join(HALF_BLOCKS[t + 2 * b] for t, b in zip(top, bottom)))
        return "\n".join(lines)

    def to_png(self, path, scale=4, on=ON_COLOUR, off=OFF_COLOUR):
        """Write the glass as an RGB PNG, each pixel scale x scale; lit pixels dim with the contrast.

        Written with zlib and struct from the standard library: a PNG of
        one colour type needs no dependency.
        """
        if not isinstance(scale, int) or scale < 1:
            raise ValueError("scale must be a positive integer")
        level = 64 + self.contrast * 191 // 255                  # contrast 0 is dim, not dark
        lit = bytes(c * level // 255 for c in on) * scale
        dark = bytes(off) * scale
        raw = bytearray()
        for row in self.pixels():
            line = b"\x00" + b"".join(lit if p else dark for p in row)   # filter type 0 per scanline
            raw += line * scale
        width, height = self.width * scale, self.height * scale
        png = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        png += _chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _chunk(b"IEND", b"")
        with open(path, "wb") as f:
            f.write(png)
        return width, height

    def __repr__(self):
        return "<SimSSD1306 %s %dx%d %s>" % (self.name, self.width, self.height, "on" if self.lit else "off")


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def attach_oleds(hardware, board):
    """Attach a SimSSD1306 at every display of kind "ssd1306" in a board description; returns {role: device}."""
    from hostsim.hardware import board_section

    displays = board_section(board, "displays")
    out = {}
    if not displays or "i2c" not in displays:
        return out
    bus = displays["i2c"]["bus"]
    for role, spec in sorted(displays.items()):
        if role != "i2c" and spec.get("kind") == "ssd1306":
            out[role] = hardware.attach_i2c(bus, spec["addr"], SimSSD1306(spec.get("width", 128),
                                                                         spec.get("height", 64), name=role))
    return out


def find_oled(hardware):
    """The SimSSD1306 on the board's I2C buses (the scoreboard), or None; the lowest bus and address first."""
    for key in sorted(hardware.i2c_devices):
        device = hardware.i2c_devices[key]
        if isinstance(device, SimSSD1306):
            return device
    return None
