# hostsim.view: the simulated table rendered with rich (zones from the recorded strip, LCDs, ports, watchdog, time).
import io
import json

import pytest
from rich.console import Console

from firmware.drivers.lcd import CharLCD
from hostsim import hardware, view


def load_board():
    with open("boards/sim.json") as f:
        return json.load(f)


def text_of(renderable, width=120):
    console = Console(record=True, width=width, file=io.StringIO(), color_system="truecolor")
    console.print(renderable)
    return console.export_text(clear=False), console.export_html(inline_styles=True)


@pytest.fixture
def table():
    board = load_board()
    hw = hardware.install(board=board)
    yield hw, board
    hardware.uninstall()


def light(hw, pin, count, spans):
    import machine
    import neopixel
    strip = neopixel.NeoPixel(machine.Pin(pin), count)
    for (first, last), colour in spans:
        for i in range(first, last + 1):
            strip[i] = colour
    strip.write()


def test_render_shows_zone_colours_lcd_text_ports_watchdog_and_time(table):
    hw, board = table
    import machine
    light(hw, 16, 76, [((0, 7), (0, 0, 60)), ((8, 15), (60, 0, 0))])
    CharLCD(machine.I2C(0), 39, 20, 4, sleep=lambda ms: None).show(["PLAYER 7  BANKER 5", "BANKER WINS"])
    machine.WDT(timeout=5000)
    hw.advance(1500)
    out, html = text_of(view.render(hw, board, "baccarat"))
    assert "bet-zone lights: baccarat" in out
    for zone in board["zones"]["baccarat"]:
        assert zone in out
    assert "\u2588\u2588 player" in out and "\u2588\u2588 banker" in out and "\u25cb\u25cb tie" in out
    assert "PLAYER 7  BANKER 5" in out and "BANKER WINS" in out
    assert "dealer LCD 0x27" in out and "result LCD 0x26" in out
    for role in ("shoe", "dice", "host", "console"):
        assert role in out
    assert "loopback" in out
    assert "virtual time 1.500 s" in out
    assert "watchdog: 3500 ms left of 5000" in out
    assert "#0000ff" in html.lower() and "#ff0000" in html.lower()    # 60-level LEDs drawn at full hue


def test_render_other_layouts_and_mixed_zones(table):
    hw, board = table
    light(hw, 16, 76, [((0, 4), (0, 60, 0)), ((5, 9), (60, 40, 0))])
    out, html = text_of(view.render(hw, board, "craps"))
    assert "bet-zone lights: craps" in out and "\u2588\u2588 pass" in out and "point_10" in out
    assert "#00ff00" in html.lower() and "#ffaa00" in html.lower()   # pass shows both colours
    out, _ = text_of(view.render(hw, board, "omaha"))
    assert "seat10" in out and "button" in out


def test_render_before_anything_ran_and_without_zone_map(table):
    hw, board = table
    hw.detach_i2c(0, 38)
    out, _ = text_of(view.render(hw, board, "roulette"))
    assert "no zone map for 'roulette'" in out
    assert "no device attached" in out
    assert "watchdog: not started" in out
    assert "start #1 of this run (power-on)" in out
    out, _ = text_of(view.render(hw, board, "roulette", link_boot=7))     # the flash counter, from the link
    assert "boot #7 (power-on), start #1 of this run" in out


def test_render_expired_watchdog_and_reboot_count(table):
    hw, board = table
    import machine
    machine.WDT(timeout=100)
    hw.advance(101)
    out, _ = text_of(view.render(hw, board, "baccarat"))
    assert "EXPIRED" in out
    hw.reboot(machine.WDT_RESET)
    out, _ = text_of(view.render(hw, board, "baccarat"))
    assert "start #2 of this run (watchdog)" in out


def test_render_prints_pty_paths():
    board = load_board()
    with hardware.install(board=board, ports="pty") as hw:
        out, _ = text_of(view.render(hw, board, "baccarat"))
        for role, uid, path in hw.port_paths():
            assert path.startswith("/dev/pts/") and path in out


def test_render_accepts_a_firmware_board_object(table):
    hw, _ = table
    from firmware import board as board_mod
    board = board_mod.load("boards/sim.json")
    out, _ = text_of(view.render(hw, board, "omaha"))
    assert "bet-zone lights: omaha" in out and "dealer LCD" in out


def test_an_lcd_dark_or_powered_up_says_so_on_its_panel(table):
    # A technician reading the view must tell a dark backlight and an LCD that lost its setup (a reseat:
    # display off, hostsim.lcd.SimLCD.power_up) from a blank screen the firmware drew.
    hw, board = table
    import machine
    lcd = CharLCD(machine.I2C(0), 39, 20, 4, sleep=lambda ms: None)
    lcd.show(["PLAYER 7  BANKER 5"])
    spec = board["displays"]["dealer"]

    def panel():
        return text_of(view.lcd_panel("dealer", hw.i2c_device(0, 39), spec))[0]
    out = panel()
    assert "PLAYER 7  BANKER 5" in out and "backlight off" not in out and "display off" not in out
    lcd.backlight(False)
    out = panel()
    assert "PLAYER 7  BANKER 5" in out and "backlight off" in out and "display off" not in out
    hw.i2c_device(0, 39).power_up()
    out = panel()
    assert "PLAYER 7" not in out and "display off" in out


def test_a_zone_lit_at_the_lowest_level_is_lit_and_a_mixed_zone_shows_two_colours(table):
    hw, board = table
    light(hw, 16, 76, [((0, 7), (1, 0, 0))])                # player at level 1 of 255: lit, not off
    out, _ = text_of(view.render(hw, board, "baccarat"))
    assert "\u2588\u2588 player" in out
    light(hw, 16, 76, [((0, 2), (60, 0, 0)), ((3, 5), (0, 60, 0)), ((6, 7), (0, 0, 60))])
    out, html = text_of(view.render(hw, board, "baccarat"))
    assert "\u2588\u2588 player" in out and "\u2588\u2588\u2588 player" not in out    # a two-character swatch
    assert "#ff0000" in html.lower() and "#00ff00" in html.lower()
