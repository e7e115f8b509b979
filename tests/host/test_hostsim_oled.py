# The OLED pair: firmware/drivers/ssd1306.py (and the scoreboard) driving hostsim/oled.py's SSD1306 over simulated I2C.
import struct
import sys
import zlib

import pytest

from firmware.games.baccarat.rules import BANKER, PLAYER, TIE
from firmware.games.baccarat.roads import Roads
from firmware.games.baccarat.scoreboard import Scoreboard
from hostsim import framebuf as host_framebuf
from hostsim import hardware
from hostsim.oled import HALF_BLOCKS, SimSSD1306, attach_oleds


@pytest.fixture
def hw():
    h = hardware.install()
    yield h
    hardware.uninstall()


def driver():
    """The driver class, imported as the simulator does: after install() has provided framebuf."""
    from firmware.drivers.ssd1306 import SSD1306
    return SSD1306


def bring_up(hw, width=128, height=64, addr=0x3C):
    import machine
    SSD1306 = driver()
    glass = hw.attach_i2c(0, addr, SimSSD1306(width, height))
    i2c = machine.I2C(0, scl=machine.Pin(21), sda=machine.Pin(20), freq=400000)
    return glass, SSD1306(i2c, addr, width, height)


def framebuffer_pixels(oled):
    return [[oled.pixel(x, y) for x in range(oled.width)] for y in range(oled.height)]


def shoe(n=70):
    roads = Roads()
    pattern = (BANKER, BANKER, PLAYER, TIE, BANKER, PLAYER, PLAYER, PLAYER, BANKER, PLAYER, BANKER)
    for i in range(n):
        roads.add(pattern[i % len(pattern)], i % 7 == 3, i % 5 == 1)
    return roads


def test_install_provides_framebuf_under_its_micropython_name(monkeypatch):
    monkeypatch.delitem(sys.modules, "framebuf", raising=False)
    hardware.install()
    try:
        import framebuf
        assert framebuf is host_framebuf
    finally:
        hardware.uninstall()
    assert "framebuf" not in sys.modules


@pytest.mark.parametrize("width,height", [(128, 64), (128, 32)])
def test_the_glass_shows_the_scoreboard_the_firmware_drew(hw, width, height):
    glass, oled = bring_up(hw, width, height)
    assert glass.lit and not glass.unknown
    Scoreboard(oled, width, height).draw(shoe())
    oled.show()
    px = glass.pixels()
    assert px == framebuffer_pixels(oled)
    assert sum(map(sum, px)) > 300                       # something was drawn


@pytest.mark.parametrize("width,height", [(128, 64), (128, 32)])
def test_the_glass_follows_the_scoreboard_s_windows_result_by_result(hw, width, height):
    # After the first picture the scoreboard sends only the parts its draws changed (show_window()): the
    # simulated controller, decoding the address windows and their bytes, shows the driver's picture after
    # every result of a shoe whose roads all scroll.
    glass, oled = bring_up(hw, width, height)
    whole = shoe(120)
    roads = Roads()
    sb = Scoreboard(oled, width, height)
    for i in range(120):
        roads.add(*[whole.beads[i] & 3, bool(whole.beads[i] & 4), bool(whole.beads[i] & 8)])
        sb.draw(roads)
        sb.show()
        assert glass.pixels() == framebuffer_pixels(oled), i
    assert sb.full_draws == 1


def test_one_byte_per_transaction_drivers_decode_the_same(hw):
    # micropython-lib's driver style: each command byte with its own Co=1 control byte, in its own transaction.
    import machine
    glass = hw.attach_i2c(0, 0x3C, SimSSD1306())
    i2c = machine.I2C(0)
    for cmd in (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0, 0xDA, 0x12, 0x81, 0xFF, 0xA4, 0xA6,
                0x8D, 0x14, 0xAF, 0x21, 0, 127, 0x22, 0, 7):
        i2c.writeto(0x3C, bytes((0x80, cmd)))
    picture = bytearray(1024)
    fb = host_framebuf.FrameBuffer(picture, 128, 64, host_framebuf.MONO_VLSB)
    fb.text("PLAYER", 3, 5)
    fb.ellipse(90, 40, 20, 12, 1, True)
    i2c.writevto(0x3C, (b"\x40", picture))
    assert glass.pixels() == [[fb.pixel(x, y) for x in range(128)] for y in range(64)]


def test_addressing_modes_move_the_pointer_as_the_chip_does():
    glass = SimSSD1306()
    glass.i2c_write(bytes((0x00, 0x20, 0x01, 0x21, 10, 11, 0x22, 2, 3)))     # vertical, 2 columns x 2 pages
    glass.i2c_write(b"\x40\x01\x02\x03\x04\x05")
    assert [glass.ram[3][10], glass.ram[2][11], glass.ram[3][11]] == [2, 3, 4]     # down, then right
    assert glass.ram[2][10] == 5                                                 # the window wraps to its start
    glass.i2c_write(bytes((0x00, 0x20, 0x00, 0x21, 126, 127, 0x22, 6, 7)))       # horizontal
    glass.i2c_write(b"\x40\x01\x02\x03")
    assert [glass.ram[6][126], glass.ram[6][127], glass.ram[7][126]] == [1, 2, 3]   # right, then down


def test_page_mode_wraps_to_the_column_it_started_from():
    glass = SimSSD1306()
    glass.i2c_write(bytes((0x00, 0xB1, 0x0E, 0x17)))                           # page 1, column 0x7E
    glass.i2c_write(b"\x40\x01\x02\x03")
    assert glass.ram[1][0x7E] == 3 and glass.ram[1][0x7F] == 2


def test_invert_power_and_charge_pump_change_the_glass(hw):
    glass, oled = bring_up(hw)
    oled.fill_rect(0, 0, 10, 10, 1)
    oled.show()
    on = glass.pixels()
    oled.invert(True)
    assert glass.pixels() == [[1 - p for p in row] for row in on]
    oled.invert(False)
    oled.poweroff()
    assert not glass.lit and sum(map(sum, glass.pixels())) == 0
    assert glass.i2c_read(1) == b"\x40"
    oled.poweron()
    oled.command(0x8D, 0x10)                                                   # charge pump off, no external VCC
    assert sum(map(sum, glass.pixels())) == 0
    oled.command(0x8D, 0x14)
    oled.command(0xA5)                                                         # entire display on
    assert all(all(row) for row in glass.pixels())


def test_wrong_com_pin_configuration_interleaves_rows_as_on_a_real_module(hw):
    glass, oled = bring_up(hw)
    oled.text("TIE", 0, 0)
    oled.show()
    good = glass.pixels()
    oled.command(0xDA, 0x02)                                                   # sequential on 64-row glass
    assert glass.pixels() != good
    oled.command(0xDA, 0x12)
    assert glass.pixels() == good


def test_absent_display_is_an_oserror_through_hostsim_i2c(hw):
    import machine
    with pytest.raises(OSError):
        driver()(machine.I2C(0), 0x3C)


def _png_chunks(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        chunks.append((kind, body))
        pos += 12 + length
    return chunks


def test_png_snapshot_is_a_readable_picture_of_the_glass(hw, tmp_path):
    glass, oled = bring_up(hw)
    Scoreboard(oled, 128, 64).draw(shoe(20))
    oled.show()
    path = tmp_path / "scoreboard.png"
    assert glass.to_png(str(path), scale=4) == (512, 256)
    chunks = _png_chunks(path.read_bytes())
    assert [k for k, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    width, height, depth, colour, _, _, _ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (width, height, depth, colour) == (512, 256, 8, 2)
    raw = zlib.decompress(chunks[1][1])
    stride = 1 + 3 * width
    assert len(raw) == stride * height
    px = glass.pixels()
    for x, y in ((0, 0), (1, 9), (40, 20), (127, 63), (100, 45)):
        for sy, sx in ((0, 0), (3, 3)):
            offset = (4 * y + sy) * stride + 1 + 3 * (4 * x + sx)
            assert raw[offset:offset + 3] == (b"\xff\xff\xff" if px[y][x] else b"\x00\x00\x00")


def test_text_views_fit_their_terminals(hw):
    glass, oled = bring_up(hw)
    Scoreboard(oled, 128, 64).draw(shoe())
    oled.show()
    full = glass.to_text().split("\n")
    assert len(full) == 32 and all(len(line) == 128 for line in full)
    small = glass.to_text(scale=2).split("\n")
    assert len(small) == 16 and all(len(line) == 64 for line in small)
    assert set("".join(full + small)) <= set(HALF_BLOCKS)
    px = glass.pixels()
    assert full[0][0] == HALF_BLOCKS[px[0][0] + 2 * px[1][0]]
    with pytest.raises(ValueError):
        glass.to_text(scale=3)


def test_attach_oleds_puts_one_on_every_ssd1306_display_of_a_board(hw):
    board = {"displays": {"i2c": {"bus": 1, "scl": 3, "sda": 2},
                          "dealer": {"addr": 39, "cols": 20, "rows": 4},
                          "scoreboard": {"addr": 60, "kind": "ssd1306", "width": 128, "height": 32}}}
    found = attach_oleds(hw, board)
    assert list(found) == ["scoreboard"]
    assert hw.i2c_device(1, 60) is found["scoreboard"] and found["scoreboard"].height == 32
    assert hw.i2c_device(1, 39) is None


def test_a_reseated_module_comes_up_dark_and_the_driver_tells_it_by_its_status_byte(hw):
    # A cable pulled and put back between two writes: the SSD1306 powers up with the display off and its RAM
    # holding garbage (SimSSD1306.power_up, as TableIO.plug leaves it). Its writes still succeed: only
    # lost_setup() tells it, by the status byte (D6: the display off) this module answered at setup.
    glass, oled = bring_up(hw)
    oled.fill_rect(0, 0, 20, 10, 1)
    oled.show()
    picture = glass.pixels()
    assert oled.reads_status and oled.lost_setup() is False
    oled.poweroff()
    assert oled.lost_setup() is False             # switched off by the driver: not a loss of power
    oled.poweron()
    device = hw.detach_i2c(0, 0x3C)
    with pytest.raises(OSError):
        oled.lost_setup()                         # the cable out: nothing answers
    device.power_up()
    hw.attach_i2c(0, 0x3C, device)
    assert not glass.display_on
    assert oled.lost_setup() is True
    oled.init_display()                           # blank, on: the caller draws its picture whole again
    assert oled.lost_setup() is False and glass.display_on
    oled.fill_rect(0, 0, 20, 10, 1)
    oled.show()
    assert glass.pixels() == picture
