# SSD1306 OLED driver on both runtimes, against a fake I2C bus that records transactions.
from firmware.compat import IS_MICROPYTHON, heap_lock, heap_unlock
from firmware.drivers import ssd1306, ssd1306_geometry, ssd1306_panel
from firmware.drivers.ssd1306 import SSD1306
from tests.firmware.expect import count_calls, raises, raises_match

ENODEV = 19


class FakeI2C:
    """Devices at addrs acknowledge; others raise OSError(ENODEV) as machine.I2C does. record=False only counts."""

    def __init__(self, addrs=(0x3C,), record=True):
        self.addrs = addrs
        self.record = record
        self.transactions = []
        self.count = 0
        self.last_len = 0

    def writeto(self, addr, buf, stop=True):
        if addr not in self.addrs:
            raise OSError(ENODEV)
        self.count += 1
        self.last_len = len(buf)
        if self.record:
            self.transactions.append(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        """One transaction of the buffers one after another (machine.I2C.writevto)."""
        return self.writeto(addr, b"".join(bytes(buf) for buf in vector), stop)

    status = None           # the status byte a read gets (None: the module NAKs a read, OSError EIO)

    def readfrom_into(self, addr, buf, stop=True):
        if addr not in self.addrs:
            raise OSError(ENODEV)
        if self.status is None:
            raise OSError(5)
        for i in range(len(buf)):
            buf[i] = self.status


INIT_64 = bytes((0x00, 0xAE, 0x20, 0x00, 0x40, 0xA1, 0xC8, 0xA8, 63, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80,
                 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14))


def test_init_configures_clears_and_only_then_switches_on():
    bus = FakeI2C()
    oled = SSD1306(bus, 0x3C, 128, 64)
    t = bus.transactions
    assert t[0] == INIT_64
    assert t[1] == bytes((0x00, 0x21, 0, 127, 0x22, 0, 7))
    assert t[2] == b"\x40" + bytes(1024)                  # cleared RAM goes out before the glass lights
    assert t[3] == b"\x00\xaf"
    assert len(t) == 4 and oled.transmits == 4


def test_128x32_uses_its_mux_com_pins_and_four_pages():
    bus = FakeI2C()
    SSD1306(bus, 0x3C, 128, 32)
    init = list(bus.transactions[0])
    assert init[init.index(0xA8) + 1] == 31
    assert init[init.index(0xDA) + 1] == 0x02               # sequential COM pins on 32-row glass
    assert bus.transactions[1] == bytes((0x00, 0x21, 0, 127, 0x22, 0, 3))
    assert bus.transactions[2] == b"\x40" + bytes(512)


def test_narrow_glass_uses_the_middle_columns():
    bus = FakeI2C((0x3D,))
    SSD1306(bus, 0x3D, 64, 48)
    assert bus.transactions[1] == bytes((0x00, 0x21, 32, 95, 0x22, 0, 5))


def test_show_sends_the_whole_picture_in_one_transaction_after_the_window():
    bus = FakeI2C()
    oled = SSD1306(bus)
    oled.pixel(0, 0, 1)
    oled.pixel(5, 9, 1)                 # page 1, bit 1
    oled.pixel(127, 63, 1)              # page 7, bit 7, last byte
    oled.text("B", 8, 0)
    bus.transactions = []
    before = oled.transmits
    oled.show()
    assert oled.transmits - before == 2
    window, data = bus.transactions
    assert window == bytes((0x00, 0x21, 0, 127, 0x22, 0, 7))
    assert len(data) == 1025 and data[0] == 0x40
    assert data[1] == 0x01 and data[1 + 128 + 5] == 0x02 and data[1024] == 0x80
    assert data[1 + 8:1 + 16] == bytes(oled.buffer[8:16]) != bytes(8)
    assert bytes(data[1:]) == bytes(oled.buffer)


def test_absent_display_raises_oserror_at_construction():
    bus = FakeI2C(addrs=(0x3D,))
    exc = raises(OSError, SSD1306, bus, 0x3C)
    assert exc.args[0] == ENODEV
    assert bus.transactions == []


def test_init_display_again_sets_the_controller_up_with_a_blank_picture():
    # A cable pulled and reseated (firmware/display_loss.py): the same setup as at construction, the picture
    # blank (the scoreboard draws it whole again); OSError while nothing answers.
    bus = FakeI2C()
    oled = SSD1306(bus, 0x3C, 128, 64)
    oled.fill(1)
    bus.addrs = ()
    assert raises(OSError, oled.init_display).args[0] == ENODEV
    bus.addrs = (0x3C,)
    bus.transactions = []
    oled.init_display()
    t = bus.transactions
    assert t[0] == INIT_64 and t[2] == b"\x40" + bytes(1024) and t[3] == b"\x00\xaf" and len(t) == 4


def test_commands_for_power_contrast_invert_and_rotation():
    bus = FakeI2C()
    oled = SSD1306(bus)
    bus.transactions = []
    oled.poweroff()
    oled.poweron()
    oled.contrast(0x10)
    oled.invert(True)
    oled.invert(False)
    assert bus.transactions == [b"\x00\xae", b"\x00\xaf", b"\x00\x81\x10", b"\x00\xa7", b"\x00\xa6"]
    bus.transactions = []
    oled.rotate(True)
    assert bus.transactions[:2] == [b"\x00\xc0", b"\x00\xa0"]
    assert len(bus.transactions) == 4 and bus.transactions[3][0] == 0x40      # picture re-sent
    raises_match(ValueError, "contrast", oled.contrast, 256)


def test_bad_geometry_rejected_before_the_bus_is_touched():
    bus = FakeI2C()
    raises(ValueError, SSD1306, bus, 0x3C, 128, 60)
    raises(ValueError, SSD1306, bus, 0x3C, 129, 64)
    raises(ValueError, SSD1306, bus, 0x3C, 128, 72)
    assert bus.transactions == []
    assert ssd1306_geometry.COLUMNS == 128


def test_show_allocates_nothing():
    """show() runs with the heap locked (MicroPython proves it; CPython just runs it)."""
    bus = FakeI2C(record=False)
    oled = SSD1306(bus)
    oled.fill(1)
    if IS_MICROPYTHON:
        heap_lock()
        try:
            bytearray(4)
            allocated = True
        except MemoryError:
            allocated = False
        heap_unlock()
        assert not allocated
    before = bus.count
    heap_lock()
    try:
        oled.show()
        oled.show()
    finally:
        heap_unlock()
    assert bus.count - before == 4 and bus.last_len == 1025


def _pattern(oled):
    # Every pixel set by a rule of its place (no part of the picture looks like another).
    for y in range(oled.height):
        for x in range(oled.width):
            oled.pixel(x, y, 1 if (x * 7 + y * 3 + (x * y) % 5) % 3 == 0 else 0)


def test_scroll_part_moves_only_the_part_left_and_blanks_its_right():
    # A part of the picture (the scoreboard's road, rows that need not fill a page of 8) moves d pixels
    # left in the RAM image; every pixel outside it stays; its last d columns are blank. Pixel by pixel
    # against the same picture read before, for parts on whole pages and on shared ones (a first and a
    # last page shared with whole ones between; two shared pages and none whole).
    oled = SSD1306(FakeI2C(record=False))
    for x0, x1, y0, y1, d in ((0, 30, 8, 38, 5), (32, 127, 8, 38, 10), (86, 126, 39, 64, 4),
                              (0, 128, 0, 64, 1), (3, 9, 5, 6, 2), (10, 100, 3, 61, 3), (5, 50, 12, 20, 7)):
        _pattern(oled)
        before = [[oled.pixel(x, y) for x in range(128)] for y in range(64)]
        assert oled.scroll_part(x0, x1, y0, y1, d) is True
        for y in range(64):
            for x in range(128):
                if not (x0 <= x < x1 and y0 <= y < y1):
                    want = before[y][x]
                elif x < x1 - d:
                    want = before[y][x + d]
                else:
                    want = 0
                assert oled.pixel(x, y) == want, (x0, x1, y0, y1, d, x, y)


def test_a_part_of_whole_pages_moves_by_one_slice_store_a_page_without_the_scratch():
    # Issue 14: a page the part fills moves within itself (one slice store: overlapping bytes copied as
    # memmove does, on both runtimes), not through the scratch page, which a shared page alone needs.
    oled = SSD1306(FakeI2C(record=False))
    for x0, x1, y0, y1, d in ((0, 128, 0, 64, 1), (16, 100, 8, 40, 3), (32, 127, 8, 32, 5)):
        _pattern(oled)
        before = [[oled.pixel(x, y) for x in range(128)] for y in range(64)]
        assert oled.scroll_part(x0, x1, y0, y1, d) is True
        assert oled._scratch is None and oled._pages is None
        for y in range(64):
            for x in range(128):
                inside = x0 <= x < x1 and y0 <= y < y1
                want = before[y][x + d] if inside and x < x1 - d else (0 if inside else before[y][x])
                assert oled.pixel(x, y) == want, (x0, x1, y0, y1, d, x, y)


def test_a_scroll_with_a_shared_page_calls_none_of_the_drivers_own_helpers():
    # Issue 14: the shared page's merge is in scroll_part() itself (a call a scroll less: the
    # scoreboard's last card makes up to four scrolls); only framebuf's C methods are called.
    oled = SSD1306(FakeI2C(record=False))
    _pattern(oled)
    import framebuf
    helpers = [name for name in dir(SSD1306) if name.startswith("_") and not name.startswith("__")
               and callable(getattr(SSD1306, name)) and not hasattr(framebuf.FrameBuffer, name)]
    assert "_transmit" in helpers                           # (the list is the driver's own methods)
    counted = [count_calls(oled, name)[0] for name in helpers]
    assert oled.scroll_part(0, 40, 39, 64, 4) and oled.scroll_part(32, 128, 8, 38, 5)
    assert [calls[0] for calls in counted] == [0] * len(helpers), helpers


def test_scroll_part_by_the_whole_part_blanks_it_and_says_so():
    # d as wide as the part: nothing left to move; the part is cleared and the caller paints it again.
    oled = SSD1306(FakeI2C(record=False))
    _pattern(oled)
    before = bytes(oled.buffer)
    assert oled.scroll_part(32, 127, 8, 38, 95) is False
    for y in range(64):
        for x in range(128):
            inside = 32 <= x < 127 and 8 <= y < 38
            assert oled.pixel(x, y) == (0 if inside else (before[(y >> 3) * 128 + x] >> (y & 7)) & 1)


def test_the_scroll_scratch_is_made_at_the_first_scroll_and_kept():
    # Only the Baccarat scoreboard scrolls: a display nothing scrolls on (a Craps or Omaha board's)
    # keeps no scratch page; the first scroll makes it, every later one reuses it.
    oled = SSD1306(FakeI2C(record=False))
    assert oled._pages is None and oled._scratch is None
    assert oled.scroll_part(0, 30, 8, 38, 30) is False      # nothing to move: none made either
    assert oled._pages is None
    oled.scroll_part(0, 30, 8, 38, 5)
    scratch = oled._scratch
    assert oled._pages is not None and len(scratch) == 128
    oled.scroll_part(32, 127, 5, 38, 5)
    assert oled._scratch is scratch


def test_a_shared_page_is_merged_through_a_view_as_wide_as_what_moves_kept_by_that_width():
    # Issue 14: a blit walks every pixel of its source: the scratch page is blitted back through a
    # FrameBuffer of its first n columns (n: the columns that move), made once for each n, not the
    # whole 128-column page (~7 us a blit in the VM, 2.5 for a 36-column derived road).
    oled = SSD1306(FakeI2C(record=False))
    blits = []
    blit = oled.blit

    def counted(*args):
        blits.append(args[0])
        return blit(*args)
    oled.blit = counted
    parts = ((0, 40), (42, 82), (84, 124), (32, 127))
    for _ in range(3):
        for x0, x1 in parts:
            oled.scroll_part(x0, x1, 8, 38, 4)               # page 4 shared: rows 32-37 of its 8 move
    assert sorted(oled._pages) == [36, 91] and len(blits) == 12
    assert all(page is oled._pages[x1 - x0 - 4] for page, (x0, x1) in zip(blits, parts * 3))
    for n in range(8, 20):                                  # widths beyond the kept ones: kept bounded
        oled.scroll_part(0, n + 1, 8, 38, 1)
    assert 0 < len(oled._pages) <= 6


def test_a_panel_sends_what_the_ssd1306_sends_for_a_picture_of_one_colour():
    # A table without a scoreboard keeps a Panel instead (its 1 KB RAM image freed): the display test's
    # fill(1), show() and the fill(0), show() after it put the very bytes on the bus the SSD1306 put there.
    for width, height in ((128, 64), (128, 32), (64, 48)):
        bus = FakeI2C()
        oled = SSD1306(bus, 0x3C, width, height)
        panel = ssd1306_panel.Panel(oled)
        assert (panel.i2c, panel.addr, panel.width, panel.height) == (bus, 0x3C, width, height)
        for colour in (1, 0, 1, 0):
            oled.fill(colour)
            oled.show()
            want = bus.transactions[-2:]
            panel.fill(colour)
            panel.show()
            assert bus.transactions[-2:] == want and len(want[1]) == 1 + width * height // 8
        assert panel.transmits == oled.transmits


def test_lost_setup_asks_the_status_byte_where_the_module_answers_one_else_only_whether_it_is_there():
    # firmware.main's probe, every second. A module that answered a status read at setup with the display on is
    # asked it (D6 set: off, where poweron() switched it on: it lost its power); one that NAKs reads is sent a
    # no-op command: its absence told, not its loss of power.
    bus = FakeI2C()
    bus.status = 0x00
    oled = SSD1306(bus, 0x3C, 128, 64)
    sent = len(bus.transactions)
    assert oled.reads_status and oled.lost_setup() is False and len(bus.transactions) == sent
    bus.status = 0x40
    assert oled.lost_setup() is True
    oled.poweroff()
    assert oled.lost_setup() is False                 # the driver switched it off
    bus = FakeI2C()                                   # status None: the read NAKed
    oled = SSD1306(bus, 0x3C, 128, 64)
    assert not oled.reads_status and oled.lost_setup() is False
    assert bus.transactions[-1] == bytes((0x00, 0xE3))
    bus.addrs = ()
    assert raises(OSError, oled.lost_setup).args[0] == ENODEV
    bus = FakeI2C()
    bus.status = 0xFF                                 # SDA nobody drives: no status read to trust
    assert not SSD1306(bus, 0x3C, 128, 64).reads_status


def test_a_panel_is_set_up_again_as_the_ssd1306_sets_it_up_and_probed_as_it_is():
    for status in (0x00, None):
        bus = FakeI2C()
        bus.status = status
        oled = SSD1306(bus, 0x3C, 128, 32)
        setup = bus.transactions[:]
        panel = ssd1306_panel.Panel(oled)
        del bus.transactions[:]
        panel.fill(1)
        panel.init_display()                          # the blank picture, the glass on: what SSD1306 sent
        assert bus.transactions == setup
        assert panel.lost_setup() is False
        if status is None:
            assert bus.transactions[-1] == bytes((0x00, 0xE3))
        else:
            bus.status = 0x40
            assert panel.lost_setup() is True
        bus.addrs = ()
        assert raises(OSError, panel.lost_setup).args[0] == ENODEV
