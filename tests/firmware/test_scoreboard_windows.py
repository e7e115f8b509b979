# The scoreboard sends what its draws changed (firmware/games/baccarat/scoreboard_changes.py through the
# SSD1306's show_window()), and the controller's RAM, rebuilt here from the I2C transactions alone, is the
# driver's picture after every show: whole shoes, 128x64, 128x32 and a narrow 64x48 (its header text wider
# than the glass), a draw a result and a draw that skipped results (runs on MicroPython too).
import framebuf

from firmware.drivers.ssd1306 import SSD1306
from firmware.games.baccarat.rules import BANKER, PLAYER, TIE
from firmware.games.baccarat.roads import Roads
from firmware.games.baccarat.scoreboard import Scoreboard
from tests.firmware.test_ssd1306 import FakeI2C

# Streaks, ties on banker and player streaks, pairs: every part of the picture scrolls within 150 results.
PATTERN = (BANKER, BANKER, PLAYER, TIE, BANKER, PLAYER, PLAYER, PLAYER, BANKER, PLAYER, BANKER, TIE, TIE,
           BANKER, BANKER, BANKER, BANKER, PLAYER)


class Glass:
    """The SSD1306's display RAM as the bus writes it: a column and page window (0x21, 0x22 in one command
    transaction, as the driver sends them), then data bytes filling it column by column, page by page
    (horizontal addressing). Other command transactions change no RAM."""

    def __init__(self, width, pages):
        self.width = width
        self.first = (128 - width) // 2         # a narrower glass is the controller's middle columns
        self.ram = bytearray(width * pages)
        self.window = (0, width - 1, 0, pages - 1)
        self.col = self.page = 0

    def apply(self, t):
        if t[0] == 0x00 and len(t) == 7 and t[1] == 0x21 and t[4] == 0x22:
            pages = len(self.ram) // self.width
            if not self.first <= t[2] <= t[3] < self.first + self.width or not t[5] <= t[6] < pages:
                raise ValueError("a window off the glass: %r" % (bytes(t),))
            self.window = (t[2], t[3], t[5], t[6])
            self.col, self.page = t[2], t[5]
        elif t[0] == 0x40:
            c0, c1, p0, p1 = self.window
            for b in t[1:]:
                self.ram[self.page * self.width + self.col - self.first] = b
                if self.col == c1:
                    self.col = c0
                    self.page = p0 if self.page == p1 else self.page + 1
                else:
                    self.col += 1


def _table(width, height):
    bus = FakeI2C()
    oled = SSD1306(bus, 0x3C, width, height)
    del bus.transactions[:-2]                   # the init's picture: its window and bytes
    glass = Glass(width, height // 8)
    for t in bus.transactions:
        glass.apply(t)
    del bus.transactions[:]
    return bus, oled, glass, Scoreboard(oled, width, height)


def _sent(bus, glass):
    n = 0
    for t in bus.transactions:
        glass.apply(t)
        n += len(t)
    del bus.transactions[:]
    return n


def _shoe(width, height, every):
    bus, oled, glass, sb = _table(width, height)
    roads = Roads()
    sizes = []
    for i in range(150):
        roads.add(PATTERN[i % len(PATTERN)], i % 7 == 3, i % 5 == 1)
        if i % every == every - 1:
            sb.draw(roads)
            sb.show()
            sizes.append(_sent(bus, glass))
            assert glass.ram == bytes(oled.buffer), (width, height, every, i)
    return sizes, sb


def test_the_glass_is_the_picture_after_every_result():
    for width, height in ((128, 64), (128, 32), (64, 48)):
        sizes, sb = _shoe(width, height, 1)
        assert sb.full_draws == 1
        whole = 7 + 1 + width * height // 8
        assert sizes[0] == whole                                  # the first picture is sent whole
        # Before the roads scroll a result is its header, a bead, a cell and marks: a few windows of a few bytes;
        # a part that scrolls is sent whole (every byte of it moved), parts scrolled together as one picture.
        assert max(sizes) == whole and (width < 128 or max(sizes[1:21]) < 200), sizes   # (64 wide: 6 columns)
        assert sum(sizes[1:]) * 5 < whole * len(sizes[1:]) * 3, sizes          # 150 results: under 60 %


def test_the_glass_is_the_picture_after_draws_that_skipped_results():
    for every in (2, 5, 13):
        sizes, _sb = _shoe(128, 64, every)
        assert len(sizes) == 150 // every


def test_a_new_shoe_and_a_forgotten_canvas_are_sent_whole():
    bus, oled, glass, sb = _table(128, 64)
    roads = Roads()
    roads.add(BANKER)
    sb.draw(roads)
    sb.show()
    _sent(bus, glass)
    oled.fill(1)                                # the console's display test draws on the canvas
    oled.show()
    _sent(bus, glass)
    sb.forget()
    roads.add(PLAYER)
    sb.draw(roads)
    sb.show()
    assert _sent(bus, glass) == 7 + 1025 and glass.ram == bytes(oled.buffer)
    roads = Roads()                             # a new shoe's roads
    roads.add(TIE)
    sb.draw(roads)
    sb.show()
    assert _sent(bus, glass) == 7 + 1025 and glass.ram == bytes(oled.buffer)


def test_show_window_sends_the_window_then_its_columns_page_by_page():
    bus = FakeI2C()
    oled = SSD1306(bus, 0x3C, 128, 64)
    del bus.transactions[:]
    for i in range(len(oled.buffer)):
        oled.buffer[i] = i & 0xFF
    oled.show_window(3, 6, 1, 2)
    assert bus.transactions == [bytes((0x00, 0x21, 3, 5, 0x22, 1, 2)),
                                b"\x40" + bytes((131, 132, 133, 3, 4, 5))]     # page 1: 128 + 3..5; page 2: 256 + 3
    assert oled.transmits == 4 + 2


def test_show_window_on_a_narrow_glass_addresses_the_middle_columns():
    bus = FakeI2C((0x3D,))
    oled = SSD1306(bus, 0x3D, 64, 48)
    del bus.transactions[:]
    oled.show_window(0, 64, 0, 5)
    assert bus.transactions[0] == bytes((0x00, 0x21, 32, 95, 0x22, 0, 5))      # the whole picture's window
    assert bus.transactions[1] == b"\x40" + bytes(oled.buffer)


def test_a_plain_framebuffer_is_shown_whole():
    class Canvas(framebuf.FrameBuffer):
        shows = 0

        def show(self):
            Canvas.shows += 1
    canvas = Canvas(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    sb = Scoreboard(canvas, 128, 64)
    roads = Roads()
    for winner in (BANKER, PLAYER, BANKER):
        roads.add(winner)
        sb.draw(roads)
        sb.show()
    assert Canvas.shows == 3
