# The board file's keypad section: pins in the one pin plan, a rows x cols grid of known legends, each once.
import json

from firmware import board
from firmware.drivers.keypad import Keypad
from firmware.errors import SettingsError
from firmware.hardware import bring_up
from tests.firmware.expect import raises_match
from tests.firmware.fakes import FakeMachine, FakeNeoPixelModule, FakeUART

BOARDS = ("pico", "esp32s3", "sim")


def _data(name="pico"):
    with open("boards/%s.json" % name) as f:
        return json.loads(f.read())


def test_shipped_boards_carry_the_dealer_keypad():
    for name in BOARDS:
        b = board.load("boards/%s.json" % name)
        assert len(b.keypad["rows"]) == 6 and len(b.keypad["cols"]) == 4
        assert b.keypad_keys[:8] == ["new", "button", "seat", "stack", "1", "2", "3", "fold"]
        assert b.key_index("enter") == 4 * 4 + 2
        assert b.key_index("raise") == 23
        assert b.key_index("") == -1 and b.key_index("double") == -1


def test_a_board_without_a_keypad_has_none():
    d = _data()
    del d["keypad"]
    b = board.validate("pico", d)
    assert b.keypad is None and b.keypad_keys == [] and b.key_index("enter") == -1


def test_an_unknown_legend_is_refused_naming_the_key():
    d = _data()
    d["keypad"]["keys"][1][3] = "double"
    raises_match(SettingsError, "board pico: keypad.keys[1][3]: unknown key legend 'double'", board.validate, "pico", d)
    d["keypad"]["keys"][1][3] = 7
    raises_match(SettingsError, "keypad.keys[1][3]: unknown key legend 7", board.validate, "pico", d)


def test_a_legend_twice_is_refused():
    d = _data()
    d["keypad"]["keys"][5][1] = "fold"
    raises_match(SettingsError, "keypad.keys[5][1]: key 'fold' is already on the keypad", board.validate, "pico", d)


def test_the_grid_must_match_the_row_and_column_pins():
    d = _data()
    d["keypad"]["keys"].pop()
    raises_match(SettingsError, "keypad.keys: expected a list of 6 rows (one per row pin), got 5 rows",
                 board.validate, "pico", d)
    d = _data()
    d["keypad"]["keys"][2].append("")
    raises_match(SettingsError, "keypad.keys[2]: expected a list of 4 legends (one per column pin), got 5 legends",
                 board.validate, "pico", d)
    d = _data()
    d["keypad"]["keys"] = {"1": "fold"}
    raises_match(SettingsError, "keypad.keys: expected a list of 6 rows", board.validate, "pico", d)
    d = _data()
    d["keypad"]["keys"] = [[""] * 4] * 6
    raises_match(SettingsError, "keypad.keys: no key is fitted", board.validate, "pico", d)


def test_rows_and_columns_are_1_to_8_pins():
    for pins in ([], list(range(9)), 17, None):
        d = _data("sim")
        d["keypad"]["rows"] = pins
        raises_match(SettingsError, "keypad.rows: expected a list of 1..8 pins", board.validate, "sim", d)
    d = _data()
    del d["keypad"]["cols"]
    raises_match(SettingsError, "keypad: missing 'cols'", board.validate, "pico", d)
    d = _data()
    d["keypad"]["rgb"] = True
    raises_match(SettingsError, "keypad: unknown key 'rgb'", board.validate, "pico", d)
    d = _data()
    d["keypad"] = None
    raises_match(SettingsError, "keypad: expected an object", board.validate, "pico", d)


def test_keypad_pins_are_claimed_with_every_other_pin():
    cases = (("rows", 0, 11, "keypad.rows[0]: pin 11 is already used by buttons.confirm"),
             ("cols", 3, 16, "keypad.cols[3]: pin 16 is already used by pixels.pin"),
             ("cols", 1, 4, "keypad.cols[1]: pin 4 is already used by displays.i2c.sda"),
             ("rows", 2, 9, "keypad.rows[2]: pin 9 is already used by ports.host.rx"),
             ("cols", 0, 17, "keypad.cols[0]: pin 17 is already used by keypad.rows[0]"),
             ("rows", 1, 30, "keypad.rows[1]: pin 30 does not exist on rp2040"))
    for line, i, pin, message in cases:
        d = _data()
        d["keypad"][line][i] = pin
        raises_match(SettingsError, message, board.validate, "pico", d)


def test_bring_up_builds_the_keypad_from_open_drain_rows_and_pulled_up_columns():
    machine = FakeMachine()
    b = board.load("boards/esp32s3.json")
    hw = bring_up(b, "omaha", machine, FakeNeoPixelModule(), usb_console=FakeUART())
    assert isinstance(hw.keypad, Keypad) and len(hw.keypad) == 24
    for pin in b.keypad["rows"]:
        # open drain, and low: an idle keypad holds every row low and reads only its columns
        assert machine.pins[pin].mode == machine.Pin.OPEN_DRAIN and machine.pins[pin].level == 0
    for pin in b.keypad["cols"]:
        assert machine.pins[pin].mode == machine.Pin.IN and machine.pins[pin].pull == machine.Pin.PULL_UP
    d = _data("esp32s3")
    del d["keypad"]
    hw = bring_up(board.validate("esp32s3", d), "omaha", FakeMachine(), FakeNeoPixelModule(), usb_console=FakeUART())
    assert hw.keypad is None


def test_a_keypad_column_on_the_esp32s3s_flash_voltage_strap_is_refused():
    # A column's external pull-up (docs/boards.md: on a long cable) holds GPIO 45 high at reset: the ESP32-S3
    # then powers its SPI flash at 1.8 V and a 3.3 V module (the DevKitC-1's) never boots. A row (open
    # drain, released) or a button (the pin's own pull-up, off at reset) there is harmless.
    d = _data("esp32s3")
    d["keypad"]["cols"][3] = 45
    raises_match(SettingsError, "board esp32s3: keypad.cols[3]: pin 45 is the flash voltage strap of esp32s3",
                 board.validate, "esp32s3", d)
    d = _data("esp32s3")
    d["keypad"]["rows"][5] = 45
    d["buttons"]["undo"] = 21                         # the row's old pin, free again
    assert board.validate("esp32s3", d).keypad["rows"][5] == 45
