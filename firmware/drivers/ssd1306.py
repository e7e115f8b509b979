# SSD1306 monochrome OLED (128x64, 128x32, ...) on I2C, micropython-lib style: a FrameBuffer; show() sends it.
#
# The controller's display RAM is pages of 8 pixel rows, one byte per column
# and page, bit 0 on top: framebuf's MONO_VLSB exactly. One bytearray holds the
# I2C "data follows" control byte and then the picture, and the FrameBuffer
# draws on the picture part, so show() is two transactions (the address window,
# then the whole picture) with no copy and no allocation. Every byte for the
# bus goes through _transmit() (show()'s and show_window()'s two in line): tests count transactions there.
# show_window() sends a part of the picture (the scoreboard's changes); scroll_part()
# moves a part of the picture in that RAM image (the Baccarat scoreboard's roads).
#
# `framebuf` is MicroPython's built-in module; under the host simulator it is
# hostsim/framebuf.py (installed under that name by hostsim.hardware.install()).
import framebuf

from firmware.drivers.ssd1306_geometry import geometry_problem, setup_commands

# copies of firmware.drivers.ssd1306_geometry (tests/host/test_const_copies.py)
_COLUMNS = const(128)

# Fundamental, addressing, hardware-configuration and timing commands (datasheet section 9).
_SET_CONTRAST = const(0x81)
_SET_NORM_INV = const(0xA6)          # | 1: inverted
_SET_DISP = const(0xAE)              # | 1: display on
_SET_COL_ADDR = const(0x21)          # + start, end column
_SET_PAGE_ADDR = const(0x22)         # + start, end page
_SET_SEG_REMAP = const(0xA0)         # | 1: column 127 drives SEG0
_SET_COM_OUT_DIR = const(0xC0)       # | 8: scan COM[N-1] to COM0
_NOP = const(0xE3)
_STATUS_OFF = const(0x40)            # the status byte's D6: the display is off

# scroll_part()'s views of its scratch page kept at most (the scoreboard moves 3 widths of part: bead
# plate, big road, a derived road's strip, each by one column a result).
_VIEWS = const(6)

# I2C control bytes: Co = 0 (no more control bytes), D/C# says what the rest of the transaction is.
_CONTROL_COMMANDS = const(0x00)
_CONTROL_DATA = const(0x40)
_DATA_FOLLOWS = b"\x40"             # _CONTROL_DATA as a buffer (show_window()'s first)
_STATUS = bytearray(1)              # lost_setup()'s read of a status byte (every module's: one at a time)


class SSD1306(framebuf.FrameBuffer):
    """SSD1306(i2c, addr=0x3C, width=128, height=64); raises OSError if nothing answers at addr.

    Draw with the FrameBuffer methods, then show(). width and height are
    attributes (MicroPython's FrameBuffer itself has none).
    """

    def __init__(self, i2c, addr=0x3C, width=128, height=64, external_vcc=False):
        problem = geometry_problem(width, height)
        if problem is not None:
            raise ValueError(problem)
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.external_vcc = external_vcc
        self.pages = height // 8
        self._data = bytearray(1 + self.pages * width)     # control byte + display RAM image
        self._data[0] = _CONTROL_DATA
        self.buffer = memoryview(self._data)[1:]
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        first = (_COLUMNS - width) // 2
        self._window = bytearray((_CONTROL_COMMANDS, _SET_COL_ADDR, first, first + width - 1,
                                  _SET_PAGE_ADDR, 0, self.pages - 1))
        self._part = bytearray(self._window)        # show_window()'s address window
        self._first = first
        self._cmd1 = bytearray((_CONTROL_COMMANDS, 0))
        self._cmd2 = bytearray((_CONTROL_COMMANDS, 0, 0))
        self._scratch = None        # scroll_part()'s page (8 rows) of pixels, as bytes, and as FrameBuffers of
        self._pages = None          # its first n columns by n (the width a part moves): made at the first
                                    # scroll (a display nothing scrolls on keeps none)
        self.transmits = 0          # I2C transactions sent (for tests and stats)
        self.reads_status = False   # the module answers a status read (init_display() asks)
        self._on = False
        self.init_display()

    def _transmit(self, data):
        """The one way to the bus: a whole transaction (control byte first)."""
        self.i2c.writeto(self.addr, data)
        self.transmits += 1

    def init_display(self):
        """Configure the controller, clear its RAM, then switch the glass on (no power-up garbage shown). Again
        after it lost its power or setup (a cable pulled and reseated, firmware/display_loss.py): a blank
        picture, to draw and show() again. OSError when nothing answers."""
        self._transmit(setup_commands(self.width, self.height, self.external_vcc))   # OSError: nothing answers
        self.fill(0)
        self.show()
        self.poweron()
        # Does the module answer a status read (the controller's I2C read mode: its status byte, D6 set while
        # the display is off)? With the glass just switched on, a byte with D6 clear says so; one that NAKs the
        # read, or whose SDA nobody drives (0xFF), is asked by lost_setup() only whether it is there.
        try:
            self.i2c.readfrom_into(self.addr, _STATUS)
            self.reads_status = not _STATUS[0] & _STATUS_OFF
        except OSError:
            self.reads_status = False

    def lost_setup(self):
        """True when the controller lost its power since its setup (a cable reseated between two writes: it
        powered up with the display off and its RAM undefined): its status byte says the display is off where
        poweron() switched it on. A module that answers no status read (reads_status) is sent a no-op command:
        its loss of power cannot be told, only its absence. Nothing allocated. OSError when nothing answers."""
        if self.reads_status:
            self.i2c.readfrom_into(self.addr, _STATUS)
            return self._on and _STATUS[0] & _STATUS_OFF != 0
        self.command(_NOP)
        return False

    def command(self, cmd, arg=None):
        """One command, with its one argument byte if it takes one."""
        if arg is None:
            buf = self._cmd1
        else:
            buf = self._cmd2
            buf[2] = arg
        buf[1] = cmd
        self._transmit(buf)

    def show(self):
        """Send the whole picture: the address window, then the RAM image in one transaction."""
        i2c = self.i2c                          # _transmit() twice, in line (a Baccarat result's pass shows it)
        i2c.writeto(self.addr, self._window)
        i2c.writeto(self.addr, self._data)
        self.transmits += 2

    def show_window(self, x0, x1, p0, p1):
        """Send a part of the picture: columns x0 <= x < x1 of pages p0..p1 (8 rows each), its address window,
        then its bytes page by page in one transaction (writevto: the control byte and a view a page; the views
        and their list are allocated, a few dozen bytes: not a hot path)."""
        window = self._part
        window[2] = self._first + x0
        window[3] = self._first + x1 - 1
        window[5] = p0
        window[6] = p1
        buf = self.buffer
        width = self.width
        data = [_DATA_FOLLOWS]
        for page in range(p0, p1 + 1):
            base = page * width
            data.append(buf[base + x0:base + x1])
        i2c = self.i2c
        i2c.writeto(self.addr, window)
        i2c.writevto(self.addr, data)
        self.transmits += 2

    def scroll_part(self, x0, x1, y0, y1, d):
        """Move the part x0 <= x < x1, y0 <= y < y1 of the picture d pixels to the left in the RAM image,
        blank on its right; the rest of the picture stays. A page (8 rows) the part fills is moved as whole
        bytes (one copy in C), one it shares with rows outside it by framebuf calls.
        False, the part left blank, where d takes all of it (the caller paints it again)."""
        if d >= x1 - x0:
            self.fill_rect(x0, y0, x1 - x0, y1 - y0, 0)
            return False
        n = x1 - x0 - d
        buf = self.buffer
        width = self.width
        # The pages the part fills, as whole bytes moved left within the page's row of bytes by one slice store
        # each (MicroPython's and CPython's slice stores copy overlapping bytes as memmove does; a copy through
        # the scratch was two stores and two views more), in a loop of their own (one over every page, asking
        # each whether the part fills it, cost a derived road's scroll ~1-2 us more in the VM)
        base = ((y0 + 7) >> 3) * width + x0
        stop = (y1 >> 3) * width + x0
        while base < stop:                      # (not a range() with a step: that one is an object made)
            buf[base:base + n] = buf[base + d:base + d + n]
            base += width
        # Then the pages it shares with rows outside it: at most its first and its last
        page = y0 >> 3
        last = (y1 - 1) >> 3
        while True:
            top = page << 3
            if top < y0 or top + 8 > y1:
                # (in line: a call a scroll less): the source columns into the scratch page, its other rows
                # cleared there, the part's rows cleared in the picture, then the scratch's first n columns
                # blitted over them with key 0 (their set pixels only), all in C (a Python loop merging the bytes
                # a column took ~1 us a column). The blit is of a view n columns wide (kept by n: a part moves by
                # the same n each time), not of the whole page: a blit walks every pixel of its source (128
                # columns: ~7 us in the VM, 36: ~2.5).
                views = self._pages
                if views is None:
                    self._scratch = memoryview(bytearray(width))
                    self._pages = views = {}
                view = views.get(n)
                if view is None:
                    if len(views) >= _VIEWS:
                        views.clear()                   # (a caller moving parts by many widths: kept bounded)
                    view = framebuf.FrameBuffer(self._scratch, n, 8, framebuf.MONO_VLSB, width)
                    views[n] = view
                base = page * width + x0
                self._scratch[:n] = buf[base + d:base + d + n]
                r0 = y0 - top if y0 > top else 0
                r1 = y1 - top if y1 < top + 8 else 8
                if r0:
                    view.fill_rect(0, 0, n, r0, 0)
                if r1 < 8:
                    view.fill_rect(0, r1, n, 8 - r1, 0)
                self.fill_rect(x0, top + r0, x1 - x0, r1 - r0, 0)
                self.blit(view, x0, top, 0)
            if page >= last:
                break
            page = last
        self.fill_rect(x1 - d, y0, d, y1 - y0, 0)
        return True

    def poweroff(self):
        self.command(_SET_DISP)
        self._on = False

    def poweron(self):
        self.command(_SET_DISP | 0x01)
        self._on = True

    def contrast(self, value):
        if not 0 <= value <= 255:
            raise ValueError("contrast %r is outside 0..255" % (value,))
        self.command(_SET_CONTRAST, value)

    def invert(self, on):
        self.command(_SET_NORM_INV | (1 if on else 0))

    def rotate(self, upside_down):
        """Turn the picture 180 degrees (both remaps off) or back.

        The segment remap only applies to RAM written after it (datasheet
        10.1.8), so the picture is sent again.
        """
        upright = 0 if upside_down else 1
        self.command(_SET_COM_OUT_DIR | (upright << 3))
        self.command(_SET_SEG_REMAP | upright)
        self.show()

