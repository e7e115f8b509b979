# Board descriptions: the shipped boards load; every kind of mistake is refused clearly.
#
# The validator is the single authority (issue 8 item 9): what it accepts boots, so a
# value the hardware constructors or the LCD driver would refuse must be refused here.
import json

from firmware import board, screens
from firmware.drivers import ssd1306_geometry
from firmware.drivers.lcd import CharLCD
from firmware.drivers.ssd1306 import SSD1306
from firmware.errors import SettingsError
from tests.firmware.expect import raises, raises_match
from tests.firmware.test_lcd import FakeI2C, no_sleep

SCRATCH = "/tmp"     # exists on CPython hosts and in the VM


def _data(name="pico", keypad=False):
    """A shipped board file, parsed. Its keypad takes most spare pins, and the tests of the other
    sections move ports and buses onto spare pins: they start without it, nor the service jumper's
    pin (keypad=True keeps both)."""
    with open("boards/%s.json" % name) as f:
        data = json.loads(f.read())
    if not keypad:
        del data["keypad"]
        del data["service_pin"]
    return data


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
    # The message said "expected a whole number 70..75, got 90": the key, but not that the strip ends there.
    d = _data()
    d["zones"]["craps"]["pass"] = [[70, 90]]
    raises_match(SettingsError, "zones.craps.pass: pixel 90 is past the strip (pixels.count 76: pixels 0..75)",
                 board.validate, "pico", d)
    d["zones"]["craps"]["pass"] = [[76, 76]]
    raises_match(SettingsError, "zones.craps.pass: pixel 76 is past the strip", board.validate, "pico", d)
    d["zones"]["craps"]["pass"] = [[0, 7], [9, 3]]      # it said "expected a whole number 9..75, got 3"
    raises_match(SettingsError, "zones.craps.pass: [9, 3] ends before it starts (a range is [first, last])",
                 board.validate, "pico", d)
    d["zones"]["craps"]["pass"] = [[-1, 3]]
    raises_match(SettingsError, "zones.craps.pass: expected a whole number 0..75, got -1", board.validate, "pico", d)


def test_seat_zones_are_numbered_from_one_without_a_gap():
    # The table counts its seats up to the first seat zone missing: without seat3 a seven-seat Baccarat
    # layout booted as two seats and refused every bet of seats 3 to 7 (bets_bad_seat).
    d = _data()
    del d["zones"]["baccarat"]["seat3"]
    raises_match(SettingsError, "zones.baccarat.seat7: seat zones number the seats from 1 without a gap: "
                                "seat3 is missing", board.validate, "pico", d)
    for bad in ("seat0", "seat03", "seat", "seat3a", "seat\u00b2", "seat1234"):
        d = _data()
        d["zones"]["omaha"][bad] = [[40, 40]]
        raises_match(SettingsError, "zones.omaha.%s: a seat zone is seat1, seat2, ..." % bad, board.validate,
                     "pico", d)
    d = _data()
    for seat in range(4, 8):                 # fewer seats, still numbered from 1: a smaller layout
        del d["zones"]["baccarat"]["seat%d" % seat]
    assert board.validate("pico", d).zones["baccarat"]["seat3"] == [[34, 35]]


def test_pin_the_board_lacks_rejected():
    d = _data()
    d["pixels"]["pin"] = 40
    raises_match(SettingsError, "pin 40 does not exist on rp2040", board.validate, "pico", d)
    d = _data("esp32s3")
    d["buttons"]["deal"] = 23          # ESP32-S3 has no GPIO 22-25
    raises_match(SettingsError, "does not exist on esp32s3", board.validate, "esp32s3", d)


def test_esp32s3_flash_pins_and_the_usb_consoles_pins_are_refused():
    # GPIO 26-32 carry an ESP32-S3 module's SPI flash and PSRAM, 19 and 20 the USB console's D- and D+:
    # a button there booted, and on the board fought the flash or the console.
    for pin in (26, 29, 32):
        d = _data("esp32s3")
        d["buttons"]["deal"] = pin
        raises_match(SettingsError, "buttons.deal: pin %d carries the SPI flash and PSRAM on esp32s3 (GPIO 26-32)"
                     % pin, board.validate, "esp32s3", d)
    for pin, signal in ((19, "USB D-"), (20, "USB D+")):
        d = _data("esp32s3")
        d["buttons"]["deal"] = pin
        raises_match(SettingsError, "buttons.deal: pin %d is already used by ports.console (%s)" % (pin, signal),
                     board.validate, "esp32s3", d)
    d = _data("esp32s3")
    del d["ports"]["shoe"], d["ports"]["dice"]       # (UART 0 is the REPL's: the console takes the readers')
    d["ports"]["console"] = {"uart": 1, "tx": 1, "rx": 2, "baudrate": 115200}
    d["buttons"]["deal"] = 19                        # a console on a UART leaves the USB pins free
    assert board.validate("esp32s3", d).buttons[1] == ("deal", 19)
    d = _data("esp32s3")
    del d["psram"]                                   # the generic esp32s3: its module's PSRAM not said
    d["buttons"]["deal"] = 33                        # past the flash: free (module without octal PSRAM)
    board.validate("esp32s3", d)


def test_esp32s3_octal_psram_pins_are_refused():
    # A module with octal PSRAM or flash (a WROOM-1 N8R8, N16R8, the shipped DevKitC-1 N8R8) wires GPIO 33-37
    # to it (SPIIO4-7, SPIDQS: ESP-IDF's GPIO notes for the esp32s3): a button there booted, and on the board
    # fought the PSRAM (MicroPython built for octal PSRAM has no machine.Pin 33-37 at all).
    assert board.load("boards/esp32s3.json") is not None     # the shipped board says "psram": "octal"
    for pin in (33, 35, 37):
        d = _data("esp32s3")
        assert d["psram"] == "octal"
        d["buttons"]["deal"] = pin
        raises_match(SettingsError, "board esp32s3: buttons.deal: pin %d carries the octal PSRAM (\"psram\": "
                     "\"octal\") on esp32s3 (GPIO 33-37): not free for the table" % pin, board.validate, "esp32s3", d)
    d = _data("esp32s3", keypad=True)
    d["keypad"]["cols"][0] = 36
    raises_match(SettingsError, "keypad.cols[0]: pin 36 carries the octal PSRAM", board.validate, "esp32s3", d)
    d = _data("esp32s3", keypad=True)
    d["service_pin"] = 34
    raises_match(SettingsError, "service_pin: pin 34 carries the octal PSRAM", board.validate, "esp32s3", d)
    d = _data("esp32s3")
    d["ports"]["host"]["tx"] = 35                    # the boot refusal's host port too: never a PSRAM line
    raises_match(SettingsError, "ports.host.tx: pin 35 carries the octal PSRAM", board.validate, "esp32s3", d)
    raises_match(SettingsError, "ports.host.tx: pin 35 carries the octal PSRAM", board.host_port, "esp32s3", d)
    d = _data("esp32s3")
    d["buttons"]["deal"] = 38                        # past the PSRAM: free
    board.validate("esp32s3", d)
    for psram in ("quad", "none"):                   # quad PSRAM (N8R2) is on GPIO 26-32 alone; none: no PSRAM
        d = _data("esp32s3")
        d["psram"] = psram
        d["buttons"]["deal"] = 35
        board.validate("esp32s3", d)
        d["buttons"]["deal"] = 30
        raises_match(SettingsError, "pin 30 carries the SPI flash and PSRAM", board.validate, "esp32s3", d)


def test_the_psram_key_is_checked():
    for value in ("Octal", "opi", 8, True, None, ["octal"]):
        d = _data("esp32s3")
        d["psram"] = value
        raises_match(SettingsError, "board esp32s3: psram: expected 'none' or 'octal' or 'quad', got ",
                     board.validate, "esp32s3", d)
    d = _data("pico")
    d["psram"] = "octal"                             # the RP2040 has no PSRAM to say
    raises_match(SettingsError, "board pico: psram: rp2040 has no PSRAM choice: leave \"psram\" out",
                 board.validate, "pico", d)
    raises_match(SettingsError, "psram: rp2040 has no PSRAM choice", board.host_port, "pico", d)


def test_pin_used_twice_rejected():
    d = _data()
    d["buttons"]["void"] = 16          # the NeoPixel data pin
    raises_match(SettingsError, "already used", board.validate, "pico", d)


def test_shoe_and_dice_may_share_a_uart_but_host_may_not():
    d = _data()
    d["ports"]["host"] = dict(d["ports"]["shoe"])
    raises_match(SettingsError, "UART 0 is already used", board.validate, "pico", d)


def test_shoe_and_dice_on_one_uart_but_unlike_specs_are_told_why():
    # "ports.dice: UART 0 is already used by ports.shoe" alone left a technician who had read that the
    # two may share a port with nothing to act on: a baud rate or a pin differing was the reason.
    d = _data()
    d["ports"]["dice"]["baudrate"] = 19200
    raises_match(SettingsError, "ports.dice: UART 0 is already used by ports.shoe (shoe and dice share a port "
                 "only as one identical spec)", board.validate, "pico", d)
    d = _data()
    d["ports"]["host"] = dict(d["ports"]["shoe"])      # not the shoe and dice: no hint
    exc = raises_match(SettingsError, "ports.host: UART 0 is already used by ports.dice", board.validate, "pico", d)
    assert "identical" not in str(exc)


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


def test_lcd_geometries_are_the_drivers_own_that_the_screens_fill():
    # 40x4 passed the validator but the driver refused it at boot (two HD44780s, two enable lines); a
    # 16x2 or 20x2 the driver runs passed too, and the screens' 20-character lines and their 3rd and 4th
    # lines (a prompt, a hand) were cut off without a word.
    d = _data()
    d["displays"]["dealer"]["cols"] = 40
    raises_match(SettingsError, "board pico: displays.dealer: unsupported LCD geometry 40x4", board.validate,
                 "pico", d)
    d = _data()
    d["displays"]["result"]["cols"] = 16
    d["displays"]["result"]["rows"] = 2
    raises_match(SettingsError, "board pico: displays.result: a 16x2 LCD: the tables' screens are written for "
                 "20x4 (4 lines of 20 characters)", board.validate, "pico", d)
    for cols in range(1, 41):
        for rows in range(1, 5):
            d = _data()
            d["displays"]["result"]["cols"] = cols
            d["displays"]["result"]["rows"] = rows
            try:
                board.validate("pico", d)
                accepted = True
            except SettingsError:
                accepted = False
            try:
                CharLCD(FakeI2C((0x26,)), 0x26, cols, rows, no_sleep)
                drives = True
            except ValueError:
                drives = False
            fills = cols == screens.LCD_COLUMNS and rows == screens.LCD_ROWS
            assert accepted == (drives and fills), (cols, rows, accepted, drives)


# (section path, key): every whole number of the board file, with a key that names it.
WHOLE_NUMBERS = (
    (("ports", "host"), "uart"), (("ports", "host"), "tx"), (("ports", "host"), "rx"),
    (("ports", "host"), "baudrate"), (("ports", "shoe"), "uart"), (("buttons",), "deal"),
    (("buttons",), "confirm"), (("pixels",), "pin"), (("pixels",), "count"), (("displays", "i2c"), "bus"),
    (("displays", "i2c"), "scl"), (("displays", "i2c"), "sda"), (("displays", "i2c"), "freq"),
    (("displays", "dealer"), "addr"), (("displays", "dealer"), "cols"), (("displays", "result"), "rows"),
    (("watchdog",), "timeout_ms"), (("ports", "bets"), "pio"), (("ports", "bets"), "sm"), (("ports", "bets"), "tx"),
    (("ports", "bets"), "baudrate"), (("displays", "scoreboard"), "addr"), (("displays", "scoreboard"), "width"),
    (("displays", "scoreboard"), "height"),
)


def test_whole_numbers_must_be_ints_not_floats_or_booleans():
    # "uart": 1.0, -0.0, true and "bus": true passed and then failed (or misbehaved) at boot.
    for path, key in WHOLE_NUMBERS:
        where = ".".join(path)
        for bad in ("float", "minus_zero", "true", "false"):
            d = _data()
            section = d
            for part in path:
                section = section[part]
            value = section[key]
            section[key] = {"float": float(value), "minus_zero": -0.0, "true": True, "false": False}[bad]
            exc = raises(SettingsError, board.validate, "pico", d)
            message = str(exc)
            assert message.startswith("board pico: " + where), (where, key, bad, message)
            assert "malformed" not in message, message     # refused by a check that names the key
    d = _data()
    d["zones"]["craps"]["pass"] = [[0, 9.0]]
    raises_match(SettingsError, "zones.craps.pass: expected a whole number 0..75, got 9.0", board.validate, "pico", d)
    d = _data()
    d["displays"]["i2c"]["bus"] = True
    raises_match(SettingsError, "displays.i2c.bus: I2C true does not exist on rp2040", board.validate, "pico", d)


def test_confirm_button_is_required():
    d = _data()
    del d["buttons"]["confirm"]
    raises_match(SettingsError, "board pico: buttons: missing 'confirm' (needed to acknowledge faults)",
                 board.validate, "pico", d)


def test_usb_console_spelled_exactly():
    for spec in ({"usb": 1}, {"usb": 1.0}, {"usb": True, "uart": 1}, {"usb": False}):
        d = _data()
        d["ports"]["console"] = spec
        raises_match(SettingsError, "ports.console: only the console may be", board.validate, "pico", d)


def test_rp2040_bus_pins_have_fixed_functions():
    # MicroPython's rp2 machine.UART/I2C raise "bad TX pin" for a pin without that function.
    d = _data()
    d["ports"]["host"].update(tx=20, rx=21)          # UART1 on GP20/GP21: fine
    board.validate("pico", d)
    d["ports"]["host"].update(tx=21, rx=20)
    raises_match(SettingsError, "ports.host.tx: pin 21 cannot be TX of unit 1 on rp2040", board.validate, "pico", d)
    d = _data()
    d["ports"]["host"].update(tx=0, rx=1)            # UART0's pins on UART1 (and the shoe's)
    raises_match(SettingsError, "ports.host.tx: pin 0 cannot be TX of unit 1", board.validate, "pico", d)
    d = _data()
    d["displays"]["i2c"].update(scl=4, sda=5)        # swapped
    raises_match(SettingsError, "displays.i2c.scl: pin 4 cannot be SCL of unit 0", board.validate, "pico", d)
    d = _data()
    d["displays"]["i2c"].update(bus=1, scl=7, sda=6)
    assert board.validate("pico", d).displays["i2c"]["bus"] == 1
    d = _data("esp32s3")                             # a GPIO matrix: any pin
    d["displays"]["i2c"].update(scl=8, sda=9)
    board.validate("esp32s3", d)


def test_a_huge_value_is_shown_by_its_start():
    # A technician's typo may be a number of 400 digits or a pasted paragraph: the message shows 24
    # characters at most, the start and "...", whole up to that.
    for value, said in ((10 ** 400, "got 1" + "0" * 20 + "..."), ("x" * 100, "got '" + "x" * 21 + "...'"),
                        (10 ** 23, "got 1" + "0" * 23), ("y" * 24, "got '" + "y" * 24 + "'")):
        d = _data()
        d["pixels"]["count"] = value
        raises_match(SettingsError, "board pico: pixels.count: expected a whole number 1..1024, " + said,
                     board.validate, "pico", d)


def test_description_must_be_text():
    d = _data()
    d["description"] = ["x"]
    raises_match(SettingsError, "board pico: description: expected a string, got a list", board.validate, "pico", d)


def _write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_file_not_utf8_or_nested_too_deeply_is_a_settings_error():
    text = json.dumps(_data())
    path = SCRATCH + "/t_board_bytes.json"
    _write_bytes(path, text.encode().replace(b"Raspberry", b"Raspberr\xff"))   # one byte that is not UTF-8
    raises_match(SettingsError, "board t_board_bytes: not valid UTF-8", board.load, path)
    # CPython's parser runs out of stack (RecursionError); MicroPython's does not, and the
    # validator must then not recurse into the value either (repr() would).
    deep = b"[" * 20000 + b"]" * 20000
    for doc in (deep, b'{"mcu": ' + deep + b"}", text.replace('"uart": 1', '"uart": @').encode().replace(b"@", deep)):
        _write_bytes(path, doc)
        raises_match(SettingsError, "board t_board_bytes: ", board.load, path)


def test_a_key_given_twice_is_refused_naming_it():
    # JSON parsers keep the last of two equal keys: a second "deal" or a second zone map would wire what
    # the file's first lines do not say. Refused at load, the path to the key named.
    path = SCRATCH + "/t_board_twice.json"
    text = json.dumps(_data(keypad=True))
    for old, new, where in (('"deal": 10,', '"deal": 10, "deal": 14,', "buttons.deal"),
                            ('"tie": [[16, 21]],', '"tie": [[16, 21]], "tie": [[44, 45]],', "zones.baccarat.tie"),
                            ('"pixels":', '"mcu": "rp2040", "pixels":', "mcu"),
                            ('["1", "2", "3", "fold"]', '["1", "2", "3", "fold"]', None)):
        assert old in text
        _write_bytes(path, text.replace(old, new).encode())
        if where is None:
            assert board.load(path).name == "t_board_twice"         # equal legends in two rows: no key twice
        else:
            raises_match(SettingsError, "board t_board_twice: %s: key given twice in one object" % where,
                         board.load, path)


def test_a_huge_value_is_named_not_printed():
    d = _data()
    d["ports"]["host"]["uart"] = "x" * 5000
    exc = raises_match(SettingsError, "ports.host.uart: UART 'xxxxxxxxxxxxxxxxxxxxx...' does not exist", board.validate,
                       "pico", d)
    assert len(str(exc)) < 120


def test_host_port_found_even_when_the_rest_is_wrong():
    d = _data()
    del d["buttons"]["confirm"]
    d["zones"] = "none"
    assert board.host_port("pico", d) == {"uart": 1, "tx": 8, "rx": 9, "baudrate": 115200}
    d["ports"]["host"]["uart"] = 1.0
    raises_match(SettingsError, "ports.host.uart", board.host_port, "pico", d)
    raises_match(SettingsError, "mcu", board.host_port, "pico", {"mcu": "z80", "ports": {}})
    raises_match(SettingsError, "board pico", board.host_port, "pico", [])


def test_a_null_port_is_refused_not_taken_for_no_port():
    # Found by the board-boots property test: {"shoe": null} passed, then boot saw a shoe port that was None.
    with open("boards/sim.json") as f:
        data = json.loads(f.read())
    data["ports"]["shoe"] = None
    raises_match(SettingsError, "ports.shoe", board.validate, "nullshoe", data)


# --- PIO UART ports (issue 9): an RP2040 has two UARTs, so the bet reader gets two PIO state machines ---

_PIO_BETS = {"pio": 0, "sm": 0, "tx": 2, "rx": 3, "baudrate": 9600}


def test_pico_bet_reader_is_a_pio_uart_beside_the_two_hardware_uarts():
    b = board.load("boards/pico.json")
    assert b.ports["bets"] == _PIO_BETS
    assert b.ports["shoe"]["uart"] == 0 and b.ports["host"]["uart"] == 1
    assert "bets" not in board.load("boards/esp32s3.json").ports     # no PIO there (docs/boards.md)


def test_a_third_hardware_uart_on_the_rp2040_is_refused():
    d = _data()
    d["ports"]["bets"] = {"uart": 2, "tx": 4, "rx": 5, "baudrate": 9600}
    raises_match(SettingsError, "ports.bets.uart: UART 2 does not exist on rp2040 (UART 0, 1)", board.validate,
                 "pico", d)
    d["ports"]["bets"] = {"uart": 1, "tx": 4, "rx": 5, "baudrate": 9600}     # and the way out is named:
    raises_match(SettingsError, "ports.host: UART 1 is already used by ports.bets (every UART of rp2040 is taken: "
                 "the shoe, dice or bet reader port can be a PIO UART", board.validate, "pico", d)
    d = _data("esp32s3")                               # no PIO: only RS-485, not supported; a free UART is named
    d["ports"]["bets"] = {"uart": 1, "tx": 1, "rx": 2, "baudrate": 9600}
    raises_match(SettingsError, "ports.bets: UART 1 is already used by ports.dice (every UART a port can have on "
                 "esp32s3 is taken and it has no PIO: one more serial device needs a shared RS-485 bus", board.validate,
                 "esp32s3", d)
    d = _data("sim")
    d["ports"]["bets"]["uart"] = 1
    raises_match(SettingsError, "ports.bets: UART 1 is already used by ports.shoe (free: UART 0, 5, 6, 7)",
                 board.validate, "sim", d)


def test_the_esp32s3s_repl_uart_is_no_port():
    # MicroPython's ESP32-S3 firmware keeps its REPL on UART0 (docs/boards.md): the REPL's interrupt takes
    # what arrives there, so a bet reader, a console or a host link on it booted and never heard a byte.
    # This is the esp32s3's "too many UARTs": its third device has no UART of its own (no PIO either).
    for role, spec in (("bets", {"uart": 0, "tx": 38, "rx": 39, "baudrate": 9600}),
                       ("console", {"uart": 0, "tx": 1, "rx": 2, "baudrate": 115200}),
                       ("host", {"uart": 0, "tx": 43, "rx": 44, "baudrate": 115200})):
        d = _data("esp32s3")
        d["ports"][role] = spec
        raises_match(SettingsError, "board esp32s3: ports.%s.uart: UART 0 carries MicroPython's REPL on esp32s3: "
                     "a port needs another UART (UART 1, 2)" % role, board.validate, "esp32s3", d)
    d = _data("esp32s3")
    d["ports"]["bets"] = dict(_PIO_BETS, tx=38, rx=39)       # and the way out the message offers is a real one
    raises_match(SettingsError, "ports.bets.pio: esp32s3 has no PIO: a port there needs a UART (UART 1, 2)",
                 board.validate, "esp32s3", d)
    d = _data()
    d["ports"]["shoe"]["uart"] = 0                   # the RP2040's MicroPython has no UART REPL
    board.validate("pico", d)


def test_no_serial_port_on_the_esp32s3s_boot_log_pins():
    # GPIO 43/44 are U0TXD/U0RXD: the ROM writes its boot log on 43 at every reset whatever UART the firmware
    # puts there (garbage on the host line or into a reader), and a DevKitC-1's USB-UART bridge is wired to
    # both (it drives 44). The shipped board had its host link there.
    board.validate("esp32s3", _data("esp32s3"))
    for signal, pin, name in (("tx", 43, "U0TXD"), ("rx", 44, "U0RXD")):
        d = _data("esp32s3")
        d["ports"]["host"][signal] = pin
        raises_match(SettingsError, "board esp32s3: ports.host.%s: pin %d is UART0's %s on esp32s3: the ROM writes "
                     "its boot log there" % (signal, pin, name), board.validate, "esp32s3", d)
    d = _data("esp32s3")
    d["buttons"]["deal"] = 43                        # a button is no serial line: the pin is free for it
    board.validate("esp32s3", d)


def test_the_service_jumper_is_not_on_the_esp32s3s_boot_strap():
    # The service jumper holds its pin low at reset; on GPIO 0 of an ESP32-S3 that selects the ROM's download
    # mode: the board meant to open its REPL never started MicroPython at all.
    d = _data("esp32s3", keypad=True)
    d["service_pin"] = 0
    raises_match(SettingsError, "board esp32s3: service_pin: pin 0 is the boot strap of esp32s3: held low at reset "
                 "(the jumper fitted) it starts the ROM's download mode, not the firmware", board.validate, "esp32s3", d)
    d = _data(keypad=True)
    d["buttons"]["undo"] = 14
    d["service_pin"] = 0                # the RP2040 boots from its own BOOTSEL pin, no GPIO
    d["ports"] = {"host": d["ports"]["host"], "console": d["ports"]["console"]}
    board.validate("pico", d)


def test_a_dealer_button_or_a_keypad_line_is_not_on_the_esp32s3s_boot_strap():
    # A dealer button closes its pin to ground (active low): held at reset on GPIO 0 of an ESP32-S3 (a
    # dealer's thumb on CONFIRM when the watchdog or a power dip resets the board) it starts the ROM's
    # download mode, and the table stays dark until someone resets it again. A keypad key held at reset
    # joins its row and column while the firmware drives neither: a line there is as low as the other.
    for role in ("confirm", "undo"):
        d = _data("esp32s3", keypad=True)
        d["buttons"][role] = 0
        raises_match(SettingsError, "board esp32s3: buttons.%s: pin 0 is the boot strap of esp32s3: held low at "
                     "reset (the button held: it closes to ground) it starts the ROM's download mode" % role,
                     board.validate, "esp32s3", d)
    for line in ("rows", "cols"):
        d = _data("esp32s3", keypad=True)
        d["keypad"][line][0] = 0
        raises_match(SettingsError, "board esp32s3: keypad.%s[0]: pin 0 is the boot strap of esp32s3: held low at "
                     "reset (a key held joins it to another keypad line, which may be low then)" % line,
                     board.validate, "esp32s3", d)
    d = _data(keypad=True)
    d["buttons"]["confirm"] = 0         # the RP2040 boots from its own BOOTSEL pin, no GPIO: free
    d["ports"] = {"host": d["ports"]["host"], "console": d["ports"]["console"]}
    board.validate("pico", d)


def test_pio_on_a_chip_without_pio_is_refused_naming_the_key():
    for name in ("esp32s3", "sim"):
        d = _data(name)
        d["ports"]["bets"] = dict(_PIO_BETS, tx=38, rx=39)
        mcu = d["mcu"]
        raises_match(SettingsError, "board %s: ports.bets.pio: %s has no PIO: a port there needs a UART" % (name, mcu),
                     board.validate, name, d)


def test_pio_block_and_state_machines_must_exist():
    d = _data()
    d["ports"]["bets"]["pio"] = 2
    raises_match(SettingsError, "ports.bets.pio: PIO 2 does not exist on rp2040 (PIO 0, 1)", board.validate, "pico", d)
    for sm in (3, -1, 4):                    # the transmitter takes sm + 1: state machine 4 is no more
        d = _data()
        d["ports"]["bets"]["sm"] = sm
        raises_match(SettingsError, "ports.bets.sm: expected a state machine 0..2, got %d" % sm, board.validate,
                     "pico", d)
    d = _data()
    d["ports"]["bets"].update(pio=1, sm=2)
    assert board.validate("pico", d).ports["bets"]["sm"] == 2


def test_a_state_machine_is_not_used_twice():
    d = _data()
    d["ports"]["dice"] = {"pio": 0, "sm": 1, "tx": 6, "rx": 7, "baudrate": 9600}     # takes SMs 1 and 2
    raises_match(SettingsError, "ports.bets.sm: PIO 0 state machine 1 is already used by ports.dice",
                 board.validate, "pico", d)
    d["ports"]["dice"]["sm"] = 2                                                   # SMs 2 and 3: free
    board.validate("pico", d)
    d["ports"]["dice"]["pio"] = 1
    board.validate("pico", d)


def test_shoe_and_dice_may_share_one_pio_port_as_they_share_a_uart():
    d = _data()
    d["ports"]["shoe"] = d["ports"]["dice"] = {"pio": 1, "sm": 0, "tx": 6, "rx": 7, "baudrate": 9600}
    board.validate("pico", d)
    d["ports"]["dice"] = {"pio": 1, "sm": 0, "tx": 6, "rx": 7, "baudrate": 19200}   # not the same port
    raises_match(SettingsError, "ports.dice.sm: PIO 1 state machine 0 is already used by ports.shoe",
                 board.validate, "pico", d)


def test_pio_port_pins_exist_and_are_not_used_twice():
    for tx, rx, message in ((16, 3, "pixels.pin: pin 16 is already used by ports.bets.tx"),
                            (2, 1, "ports.bets.rx: pin 1 is already used by ports.dice.rx"),
                            (2, 2, "ports.bets.rx: pin 2 is already used by ports.bets.tx"),
                            (30, 3, "ports.bets.tx: pin 30 does not exist on rp2040")):
        d = _data()
        d["ports"]["bets"].update(tx=tx, rx=rx)
        raises_match(SettingsError, message, board.validate, "pico", d)
    d = _data()
    d["ports"]["bets"].update(tx=21, rx=20)          # PIO reaches any GPIO: no UART function needed
    board.validate("pico", d)


def test_the_host_and_console_stay_on_uarts():
    # The boot refusal report opens the host port with machine alone (no rp2).
    for role in ("host", "console"):
        d = _data()
        d["ports"][role] = dict(_PIO_BETS, pio=1, tx=6, rx=7)
        raises_match(SettingsError, "ports.%s: the %s port must be a UART, not a PIO port" % (role, role),
                     board.validate, "pico", d)
        if role == "host":
            raises_match(SettingsError, "ports.host: the host port must be a UART", board.host_port, "pico", d)


def test_a_pio_port_has_exactly_its_keys():
    d = _data()
    d["ports"]["bets"]["uart"] = 0
    raises_match(SettingsError, "ports.bets: unknown key 'uart'", board.validate, "pico", d)
    d = _data()
    del d["ports"]["bets"]["sm"]
    raises_match(SettingsError, "ports.bets: missing 'sm'", board.validate, "pico", d)


# --- the scoreboard OLED ---

def test_scoreboard_kind_address_and_keys():
    d = _data()
    d["displays"]["scoreboard"]["kind"] = "st7735"
    raises_match(SettingsError, "displays.scoreboard.kind: unknown display kind 'st7735' (expected ssd1306)",
                 board.validate, "pico", d)
    d = _data()
    d["displays"]["scoreboard"]["addr"] = 39
    raises_match(SettingsError, "displays.scoreboard: I2C address 39 is already used by another display",
                 board.validate, "pico", d)
    d = _data()
    d["displays"]["scoreboard"]["addr"] = 0x78
    raises_match(SettingsError, "displays.scoreboard.addr: expected a whole number 8..119", board.validate, "pico", d)
    d = _data()
    del d["displays"]["scoreboard"]["kind"]
    raises_match(SettingsError, "displays.scoreboard: missing 'kind'", board.validate, "pico", d)
    d = _data()
    del d["displays"]["scoreboard"]                  # optional: a board without it plays, results on the LCDs
    assert "scoreboard" not in board.validate("pico", d).displays


class _AckingI2C:
    def writeto(self, addr, buf, stop=True):
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):      # (the driver's setup asks for the status byte)
        buf[0] = 0


def test_scoreboard_sizes_are_the_modules_the_driver_drives():
    d = _data()
    d["displays"]["scoreboard"]["height"] = 48
    raises_match(SettingsError, "displays.scoreboard: unsupported SSD1306 module 128x48 (128x64, 128x32)",
                 board.validate, "pico", d)
    for width in (1, 64, 96, 127, 128):
        for height in (8, 16, 24, 32, 40, 48, 56, 64):
            d = _data()
            d["displays"]["scoreboard"].update(width=width, height=height)
            try:
                board.validate("pico", d)
                accepted = True
            except SettingsError:
                accepted = False
            assert accepted == ((width, height) in board.SSD1306_MODULES), (width, height)
            if accepted:
                SSD1306(_AckingI2C(), 60, width, height)     # what the validator accepts, the driver drives


def test_service_pin_is_optional_and_in_the_one_pin_plan():
    # Issue 13: the service jumper's pin; shared with a button, pressing it at reset would open the REPL.
    for name in ("pico", "esp32s3", "sim"):
        assert board.load("boards/%s.json" % name).service_pin is not None, name
    d = _data(keypad=True)
    del d["service_pin"]
    assert board.validate("pico", d).service_pin is None
    d = _data()
    d["service_pin"] = d["buttons"]["confirm"]
    raises_match(SettingsError, "service_pin: pin %d is already used by buttons.confirm" % d["service_pin"],
                 board.validate, "pico", d)
    d = _data(keypad=True)
    d["service_pin"] = d["keypad"]["rows"][0]
    raises_match(SettingsError, "keypad.rows[0]", board.validate, "pico", d)
    for bad in (30, -1, True, "14", 14.0, None):
        d = _data()
        d["service_pin"] = bad
        raises_match(SettingsError, "service_pin: pin", board.validate, "pico", d)


def test_bring_up_keeps_only_the_tables_layout():
    # Each layout's zone map parsed from the board file stays in the heap as long as the board (the whole
    # run): bring-up keeps the table's own, the only one read after it (the seat count), and drops the rest.
    from firmware.hardware import bring_up, keep_layout
    from tests.firmware.fakes import FakeMachine, FakeNeoPixelModule, FakeUART
    b = board.load("boards/pico.json")
    assert sorted(b.zones) == ["baccarat", "craps", "omaha"]
    omaha = b.zones["omaha"]
    hw = bring_up(b, "omaha", FakeMachine(), FakeNeoPixelModule(), usb_console=FakeUART())
    assert list(b.zones) == ["omaha"] and b.zones["omaha"] is omaha
    assert sorted(hw.lights.names) == sorted(omaha)
    keep_layout(b, "craps")               # a layout the board has no map for: none kept
    assert b.zones == {}


def test_mcu_pin_tables_are_written_out_as_the_chips_have_them():
    # board_checks.MCUS lists pins as literal tuples (constants: in flash with frozen or ROMFS code,
    # where tuple(range(...)) built at import stayed in the heap): the same pins as those ranges.
    from firmware.board_checks import MCUS
    assert MCUS["rp2040"]["gpio"] == tuple(range(0, 30))
    assert MCUS["rp2040"]["functions"]["sda"] == {0: tuple(range(0, 30, 4)), 1: tuple(range(2, 30, 4))}
    assert MCUS["rp2040"]["functions"]["scl"] == {0: tuple(range(1, 30, 4)), 1: tuple(range(3, 30, 4))}
    # The UARTs' F2 column (RP2040 datasheet 2.19.2): in each run of four GPIOs TX, RX, CTS, RTS, of UART0
    # and UART1 in turn from GPIO 4 on in eights (0-3 UART0, 4-11 UART1, 12-19 UART0, 20-27 UART1, 28- UART0).
    for role, first in (("tx", 0), ("rx", 1)):
        assert MCUS["rp2040"]["functions"][role] == {
            unit: tuple(n for n in range(first, 30, 4) if (n + 4) // 8 % 2 == unit) for unit in (0, 1)}, role
    assert MCUS["esp32s3"]["gpio"] == tuple(range(0, 22)) + tuple(range(26, 49))
    assert MCUS["hostsim"]["gpio"] == tuple(range(0, 64)) and MCUS["hostsim"]["uart"] == tuple(range(0, 8))
