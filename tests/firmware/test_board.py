# Board descriptions: the shipped boards load; every kind of mistake is refused clearly.
import json

from firmware import board
from firmware.errors import SettingsError
from tests.firmware.expect import raises_match


def _data(name="pico"):
    with open("boards/%s.json" % name) as f:
        return json.loads(f.read())


def test_shipped_boards_load():
    for name in ("pico", "esp32s3", "sim"):
        b = board.load("boards/%s.json" % name)
        assert b.name == name
        assert b.ports["host"]["uart"] >= 0
        assert b.pixel_count > 0
        for layout in ("baccarat", "craps", "omaha"):
            assert b.zones[layout]
        assert b.button_index("confirm") >= 0


def test_unknown_role_rejected():
    d = _data()
    d["ports"]["printer"] = {"uart": 1, "tx": 20, "rx": 21, "baudrate": 9600}
    raises_match(SettingsError, "unknown key 'printer'", board.validate, "pico", d)
    d = _data()
    d["buttons"]["eject"] = 20
    raises_match(SettingsError, "buttons: unknown key 'eject'", board.validate, "pico", d)
    d = _data()
    d["lasers"] = {}
    raises_match(SettingsError, "unknown key 'lasers'", board.validate, "pico", d)


def test_overlapping_zone_rejected():
    d = _data()
    d["zones"]["baccarat"]["tie"] = [[7, 9]]
    raises_match(SettingsError, "overlaps zone", board.validate, "pico", d)


def test_zone_past_strip_rejected():
    d = _data()
    d["zones"]["craps"]["pass"] = [[70, 90]]
    raises_match(SettingsError, "zones.craps.pass", board.validate, "pico", d)


def test_pin_the_board_lacks_rejected():
    d = _data()
    d["pixels"]["pin"] = 40
    raises_match(SettingsError, "pin 40 does not exist on rp2040", board.validate, "pico", d)
    d = _data("esp32s3")
    d["buttons"]["deal"] = 23          # ESP32-S3 has no GPIO 22-25
    raises_match(SettingsError, "does not exist on esp32s3", board.validate, "esp32s3", d)


def test_pin_used_twice_rejected():
    d = _data()
    d["buttons"]["void"] = 16          # the NeoPixel data pin
    raises_match(SettingsError, "already used", board.validate, "pico", d)


def test_shoe_and_dice_may_share_a_uart_but_host_may_not():
    d = _data()
    d["ports"]["host"] = dict(d["ports"]["shoe"])
    raises_match(SettingsError, "UART 0 is already used", board.validate, "pico", d)


def test_uart_the_mcu_lacks_rejected():
    d = _data()
    d["ports"]["host"]["uart"] = 2
    raises_match(SettingsError, "UART 2 does not exist on rp2040", board.validate, "pico", d)


def test_required_sections_and_values():
    d = _data()
    del d["ports"]["host"]
    raises_match(SettingsError, "missing 'host'", board.validate, "pico", d)
    d = _data()
    d["watchdog"]["timeout_ms"] = 10000   # RP2040's watchdog tops out at 8388 ms
    raises_match(SettingsError, "watchdog.timeout_ms", board.validate, "pico", d)
    d = _data()
    d["mcu"] = "z80"
    raises_match(SettingsError, "unknown microcontroller", board.validate, "pico", d)
    d = _data()
    d["ports"]["host"] = {"usb": True}
    raises_match(SettingsError, "only the console", board.validate, "pico", d)


def test_malformed_and_missing_files():
    raises_match(SettingsError, "not valid JSON", board.parse, "x", "{\"mcu\": ")
    raises_match(SettingsError, "not found", board.load, "boards/no-such-board.json")


def test_values_of_the_wrong_type_are_settings_errors():
    for section, key, value in (("ports", "shoe", 5), ("zones", "baccarat", 5), ("buttons", "deal", "ten"),
                                ("displays", "dealer", []), ("pixels", "count", "76")):
        d = _data()
        d[section][key] = value
        raises_match(SettingsError, "board pico", board.validate, "pico", d)
    for key, value in (("mcu", []), ("ports", []), ("zones", "all"), ("watchdog", 5)):
        d = _data()
        d[key] = value
        raises_match(SettingsError, "board pico", board.validate, "pico", d)
    raises_match(SettingsError, "board pico", board.validate, "pico", [1, 2])
