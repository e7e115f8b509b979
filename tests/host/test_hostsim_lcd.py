# The LCD pair: firmware/drivers/lcd.py driving hostsim/lcd.py's simulated HD44780+PCF8574 over the simulated I2C bus.
import pytest

from firmware.drivers.lcd import CharLCD
from hostsim import hardware
from hostsim.lcd import SimLCD, attach_displays, rom_char


@pytest.fixture
def hw():
    h = hardware.install()
    yield h
    hardware.uninstall()


def no_sleep(ms):
    pass


def bring_up(hw, cols=20, rows=4, addr=0x27):
    import machine
    glass = hw.attach_i2c(0, addr, SimLCD(cols, rows))
    i2c = machine.I2C(0, scl=machine.Pin(21), sda=machine.Pin(20), freq=400000)
    return glass, CharLCD(i2c, addr, cols, rows, sleep=no_sleep)


def test_the_dealer_sees_what_the_driver_shows(hw):
    glass, lcd = bring_up(hw)
    assert glass.display_on and glass.backlight and not glass.eight_bit and glass.two_lines
    lcd.show(["BACCARAT  table 7", "PLAYER 7   BANKER 5", "PLAYER WINS", "shoe 312 cards left!!"])
    assert glass.lines() == ["BACCARAT  table 7   ", "PLAYER 7   BANKER 5 ",
                             "PLAYER WINS         ", "shoe 312 cards left!"]


def test_only_changed_rows_cross_the_bus(hw):
    glass, lcd = bring_up(hw)
    lcd.show(["a", "b", "c", "d"])
    before = glass.transactions
    lcd.show(["a", "B", "c", "d"])
    assert glass.transactions - before == 1         # set address + the changed character, at once
    assert glass.lines()[1].rstrip() == "B"
    lcd.show(["a", "B", "c", "d  dd d"])
    assert glass.lines() == ["a" + " " * 19, "B" + " " * 19, "c" + " " * 19, "d  dd d" + " " * 13]


def test_replaced_and_extra_characters_render(hw):
    glass, lcd = bring_up(hw)
    lcd.show(["caf\u00e9 30\u00b0 \u2192 \\ ~"])
    assert glass.lines()[0].rstrip() == "caf? 30\u00b0 \u2192 ? ?"


def test_card_suits_show_as_suits_through_the_cgram_glyphs(hw):
    glass, lcd = bring_up(hw)
    lcd.show(["P: A\u2660 K\u2665 9\u2663", "B: 7\u2666"])
    assert glass.lines()[0].rstrip() == "P: A\u2660 K\u2665 9\u2663"
    assert glass.lines()[1].rstrip() == "B: 7\u2666"
    from hostsim.lcd import CGRAM_CHAR
    lcd.custom_char(0, b"\x1f" * 8)                 # an unknown glyph replaces the club
    assert glass.lines()[0].rstrip() == "P: A\u2660 K\u2665 9" + CGRAM_CHAR


def test_putstr_and_move_to_follow_the_row_addresses(hw):
    glass, lcd = bring_up(hw)
    lcd.move_to(15, 2)
    lcd.putstr("12345678\nend")
    assert glass.lines()[2].endswith("12345")
    assert glass.lines()[3].startswith("678")
    assert glass.lines()[0].startswith("end")


def test_backlight_and_display_switches(hw):
    glass, lcd = bring_up(hw)
    lcd.backlight(False)
    assert not glass.backlight
    lcd.show(["dark"])
    assert not glass.backlight and glass.lines()[0].startswith("dark")
    lcd.display(False)
    assert not glass.display_on
    lcd.display(True)
    lcd.backlight(True)
    assert glass.display_on and glass.backlight


def test_reinit_after_a_firmware_reset_recovers_a_4bit_lcd_mid_byte(hw):
    import machine
    glass, lcd = bring_up(hw)
    lcd.show(["before reset"])
    # The firmware died after sending half a byte: the LCD waits for the low nibble.
    i2c = machine.I2C(0)
    i2c.writeto(0x27, bytes([0x40 | 0x0D, 0x40 | 0x09]))
    assert glass._high is not None
    hw.reboot(machine.WDT_RESET)
    assert glass.lines()[0].startswith("before reset")   # an LCD keeps its text across an MCU reset
    lcd = CharLCD(machine.I2C(0), 0x27, 20, 4, sleep=no_sleep)
    assert glass.lines() == [" " * 20] * 4
    lcd.show(["after reset"])
    assert glass.lines()[0] == "after reset         "


def test_absent_display_raises_oserror_at_construction(hw):
    import machine
    with pytest.raises(OSError) as info:
        CharLCD(machine.I2C(0), 0x26, 20, 4, sleep=no_sleep)
    assert info.value.errno == 19


def test_sim_address_counter_runs_from_row_one_into_row_two_like_the_chip():
    glass = SimLCD(20, 4)
    # 4-bit mode, 2 lines, then 45 data bytes from address 0x00 (no E-edge helper: raw strobes)
    def send(value, rs):
        for nib in (value & 0xF0, (value << 4) & 0xF0):
            glass.i2c_write(bytes([nib | rs | 0x0C, nib | rs | 0x08]))
    glass.i2c_write(bytes([0x24, 0x20]))              # 8-bit "function set 4-bit"
    send(0x28, 0)
    send(0x80, 0)
    for i in range(45):
        send(ord("A") + i % 26, 1)
    # 0x00-0x13 is row 0, 0x14-0x27 row 2, then the counter jumps to 0x40 (row 1)
    assert glass.lines()[0] == "ABCDEFGHIJKLMNOPQRST"
    assert glass.lines()[2] == "UVWXYZABCDEFGHIJKLMN"
    assert glass.lines()[1].startswith("OPQRS")
    assert glass.i2c_read(1) == bytes([glass.port])


def test_sim_character_mapping():
    assert rom_char(0x41) == "A" and rom_char(0x5C) == "\u00a5" and rom_char(0x7E) == "\u2192"
    assert rom_char(0x01) == "\u25af" and rom_char(0xB1) == "\u2592"


def test_attach_displays_from_a_board_dict(hw):
    board = {"displays": {"i2c": {"bus": 1, "scl": 3, "sda": 2, "freq": 100000},
                          "dealer": {"addr": 39, "cols": 16, "rows": 2}}}
    out = attach_displays(hw, board)
    assert list(out) == ["dealer"] and hw.i2c_device(1, 39) is out["dealer"]
    assert out["dealer"].lines() == [" " * 16] * 2


def test_a_reseated_backpack_comes_up_blank_and_the_driver_tells_it_from_one_that_kept_its_setup(hw):
    # A cable pulled and put back between two writes: the backpack's power comes on that cable, so the HD44780
    # powers up blank, in 8-bit mode, display off (SimLCD.power_up, as TableIO.plug leaves it). Its writes still
    # succeed: only lost_setup() tells it, by reading the PCF8574 back (every output high after power-up, where
    # each write of the driver leaves E low). Set up again, the next show() writes every row.
    glass, lcd = bring_up(hw)
    shown = ["BACCARAT  table 7", "PLAYER 7   BANKER 5", "PLAYER WINS", "shoe 312 cards left"]
    lcd.show(shown)
    assert lcd.lost_setup() is False
    device = hw.detach_i2c(0, 0x27)
    with pytest.raises(OSError):
        lcd.lost_setup()                          # the cable out: nothing answers
    device.power_up()
    hw.attach_i2c(0, 0x27, device)
    assert glass.lines() == [" " * 20] * 4 and glass.eight_bit and not glass.display_on
    lcd.show(shown)                               # the same rows: nothing sent, the glass stays blank
    assert glass.lines() == [" " * 20] * 4
    assert lcd.lost_setup() is True
    with pytest.raises(OSError):
        lcd.show(["a changed row"])               # its first write asks first: a write would hide the power-up
    lcd.init_display()
    assert lcd.lost_setup() is False and glass.display_on and not glass.eight_bit
    lcd.show(shown)
    assert [line.rstrip() for line in glass.lines()] == shown


def test_the_simulated_chip_decodes_what_the_driver_does_not_send_as_the_datasheet_says(hw):
    # (mutants of hostsim/lcd.py) The simulator is the driver's judge: a driver sending these must see the glass
    # the HD44780 would show. The ROM's edges; cursor and blink; decrement entry mode across the two-line wrap;
    # return home leaving CGRAM.
    glass, lcd = bring_up(hw)
    assert [rom_char(c) for c in (0x20, 0x7D, 0x7E, 0x7F, 0x5C, 0x0F, 0x10, 0xB1)] == \
        [" ", "}", "\u2192", "\u2190", "\u00a5", "\u25af", "\u2592", "\u2592"]
    assert glass.char(0x10) == "\u2592" and glass.char(0x08) == glass.char(0x00)    # 8..15 mirror 0..7
    lcd.command(0x0F)                                 # display, cursor and blink on
    assert glass.display_on and glass.cursor_on and glass.blink_on
    lcd.command(0x0C)
    assert not glass.cursor_on and not glass.blink_on
    lcd.command(0x04)                                 # entry mode: decrement
    lcd.command(0x80 | 0x40)                          # line 2's first address: the next one back is 0x27
    for code in b"ab":
        lcd._put(0, code, 1)
        lcd.i2c.writeto(lcd.addr, lcd._mv[:4])
    assert glass.ddram[0x40] == ord("a") and glass.ddram[0x27] == ord("b") and glass.ac == 0x26
    lcd.command(0x80)                                 # 0x00: back to 0x67
    lcd._put(0, ord("c"), 1)
    lcd.i2c.writeto(lcd.addr, lcd._mv[:4])
    assert glass.ddram[0x00] == ord("c") and glass.ac == 0x67
    lcd.command(0x40)                                 # into CGRAM...
    lcd.command(0x02)                                 # ...and return home: DDRAM address 0 again
    assert not glass.in_cgram and glass.ac == 0
    lcd.command(0x14)                                 # cursor right: the address moves, the mode stays
    assert glass.ac == 1 and not glass.increment
