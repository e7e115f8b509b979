# Board description loader: roles -> pins/ports, bet-zone pixel maps, validated at load.
#
# A board file (boards/<name>.json, deployed as /board.json) is data only. Every
# mistake is rejected here with a message naming the key, so a technician sees
# "ports.shoe: pin 40 does not exist on rp2040" instead of a crash at run time.
# This is the single authority: what it accepts boots (firmware.hardware.bring_up
# builds it without a further check), what could not boot it refuses.
from firmware import jsonfile
from firmware.board_checks import MCUS
from firmware.board_checks import PinPlan as _PinPlan
from firmware.board_checks import fail as _fail
from firmware.board_checks import keys as _keys
from firmware.board_checks import number as _int
from firmware.board_checks import pixel_range as _pixel_range
from firmware.board_checks import shown as _shown
from firmware.board_checks import unit as _unit
from firmware.board_keypad import check_keypad as _check_keypad
from firmware.board_ports import PORT_ROLES
from firmware.board_ports import check_port as _check_port
from firmware.board_ports import check_ports as _check_ports
from firmware.board_ports import claim_port_pins as _claim_port_pins
from firmware.drivers import lcd, ssd1306_geometry
from firmware.errors import SettingsError
from firmware.parts import Board  # noqa: F401  (kept after boot: firmware/parts.py)

# copies of firmware.screens (tests/host/test_const_copies.py)
_LCD_COLUMNS = const(20)
_LCD_ROWS = const(4)

SECTIONS = ("description", "mcu", "psram", "ports", "buttons", "pixels", "displays", "watchdog", "zones",
            "keypad", "service_pin")
REQUIRED = ("mcu", "ports", "buttons", "pixels", "displays", "watchdog", "zones")
BUTTON_ROLES = ("deal", "confirm", "void", "shoe_change", "undo", "menu")
CONFIRM = "confirm"        # the one button every board needs: it acknowledges faults
DISPLAY_ROLES = ("dealer", "result")
OLED_ROLES = ("scoreboard",)          # optional SSD1306 pixel displays on the same bus
OLED_KINDS = ("ssd1306",)
LAYOUTS = ("baccarat", "craps", "omaha")
MAX_PIXELS = 1024
# The SSD1306 modules a board may declare: the driver chooses the COM pin wiring from the shape (sequential
# when wider than twice the height, else alternative), which is right for these two, and the scoreboard lays
# out both (docs/scoreboard.md). Within the driver's limits (firmware/drivers/ssd1306_geometry.py).
SSD1306_MODULES = ((128, 64), (128, 32))
SEAT_ZONE = "seat"         # a layout's seat zones: seat1, seat2, ... (game_setup.seat_count)


def _mcu(name, data):
    _keys(name, "board", data, SECTIONS, ("mcu",))
    mcu = data["mcu"]
    if not isinstance(mcu, str) or mcu not in MCUS:
        _fail(name, "mcu", "unknown microcontroller %s (expected %s)" % (_shown(mcu), ", ".join(sorted(MCUS))))
    if not isinstance(data.get("description", ""), str):
        _fail(name, "description", "expected a string, got %s" % _shown(data["description"]))
    return mcu


def _plan(name, mcu, data):
    """The board's pin plan, the pins its module's memory takes ("psram", ESP32-S3 only) reserved in it."""
    psram = data.get("psram")
    if "psram" in data:
        kinds = MCUS[mcu].get("psram")
        if kinds is None:
            _fail(name, "psram", "%s has no PSRAM choice: leave \"psram\" out" % mcu)
        if not isinstance(psram, str) or psram not in kinds:
            _fail(name, "psram", "expected %s, got %s" % (" or ".join([repr(k) for k in sorted(kinds)]),
                                                           _shown(psram)))
    return _PinPlan(name, mcu, psram)


def _check_displays(name, mcu, displays, plan):
    _keys(name, "displays", displays, ("i2c",) + DISPLAY_ROLES + OLED_ROLES, ("i2c",) + DISPLAY_ROLES)
    bus = displays["i2c"]
    _keys(name, "displays.i2c", bus, ("bus", "scl", "sda", "freq"), ("bus", "scl", "sda", "freq"))
    unit = _unit(name, "displays.i2c.bus", bus["bus"], mcu, "i2c")
    plan.claim("displays.i2c.scl", bus["scl"], None, "scl", unit)
    plan.claim("displays.i2c.sda", bus["sda"], None, "sda", unit)
    _int(name, "displays.i2c.freq", bus["freq"], 10000, 1000000)
    addresses = []
    for role in DISPLAY_ROLES + OLED_ROLES:
        where = "displays." + role
        if role not in displays:
            continue                              # (a null is no display: refused below, not skipped)
        spec = displays[role]
        if role in OLED_ROLES:
            _check_oled(name, where, spec)
        else:
            _check_lcd(name, where, spec)
        if spec["addr"] in addresses:
            _fail(name, where, "I2C address %d is already used by another display" % spec["addr"])
        addresses.append(spec["addr"])


def _check_lcd(name, where, spec):
    _keys(name, where, spec, ("addr", "cols", "rows"), ("addr", "cols", "rows"))
    _int(name, where + ".addr", spec["addr"], 0x08, 0x77)
    cols = _int(name, where + ".cols", spec["cols"], 1, lcd.MAX_COLS)
    rows = _int(name, where + ".rows", spec["rows"], 1, lcd.MAX_ROWS)
    problem = lcd.geometry_problem(cols, rows)     # the driver's own limits, not a copy of them
    if problem is not None:
        _fail(name, where, problem)
    # The games' screens fill 4 lines of 20 (firmware/screens.py): a smaller LCD cut the dealer's prompts
    # and hands off without a word, and one HD44780 drives no larger (80 characters).
    if cols != _LCD_COLUMNS or rows != _LCD_ROWS:
        _fail(name, where, "a %dx%d LCD: the tables' screens are written for %dx%d (%d lines of %d characters)"
              % (cols, rows, _LCD_COLUMNS, _LCD_ROWS, _LCD_ROWS, _LCD_COLUMNS))


def _check_oled(name, where, spec):
    keys = ("kind", "addr", "width", "height")
    _keys(name, where, spec, keys, keys)
    if spec["kind"] not in OLED_KINDS:
        _fail(name, where + ".kind", "unknown display kind %s (expected %s)" % (_shown(spec["kind"]),
                                                                              ", ".join(OLED_KINDS)))
    _int(name, where + ".addr", spec["addr"], 0x08, 0x77)
    width = _int(name, where + ".width", spec["width"], 1, ssd1306_geometry.COLUMNS)
    height = _int(name, where + ".height", spec["height"], 1, ssd1306_geometry.MAX_ROWS)
    problem = ssd1306_geometry.geometry_problem(width, height)     # the driver's limits again
    if problem is not None:
        _fail(name, where, problem)
    if (width, height) not in SSD1306_MODULES:
        _fail(name, where, "unsupported SSD1306 module %dx%d (%s)"
              % (width, height, ", ".join(["%dx%d" % m for m in SSD1306_MODULES])))


def _check_buttons(name, buttons, plan):
    _keys(name, "buttons", buttons, BUTTON_ROLES, ())
    if CONFIRM not in buttons:
        _fail(name, "buttons", "missing %r (needed to acknowledge faults)" % CONFIRM)
    for role in sorted(buttons):
        plan.claim("buttons." + role, buttons[role], low_at_reset="the button held: it closes to ground")


def _check_zones(name, zones, count):
    _keys(name, "zones", zones, LAYOUTS, ())
    for layout in zones:
        owner = [None] * count
        layout_zones = zones[layout]
        if not isinstance(layout_zones, dict):
            _fail(name, "zones." + layout, "expected an object of zone name -> pixel ranges")
        for zone in sorted(layout_zones):
            where = "zones.%s.%s" % (layout, zone)
            ranges = layout_zones[zone]
            if not isinstance(ranges, list) or not ranges:
                _fail(name, where, "expected a list of [first, last] pixel ranges")
            for pair in ranges:
                first, last = _pixel_range(name, where, pair, count)
                for pixel in range(first, last + 1):
                    if owner[pixel] is not None:
                        _fail(name, where, "pixel %d overlaps zone %s" % (pixel, _shown(owner[pixel])))
                    owner[pixel] = zone
        _check_seat_zones(name, layout, layout_zones)


def _check_seat_zones(name, layout, layout_zones):
    """Seat zones are seat1, seat2, ... with no gap: the table counts its seats up to the first one
    missing (game_setup.seat_count), so without seat3 a seven-seat layout played as two seats and
    refused every bet of seats 3 to 7 as bets_bad_seat."""
    numbers = []
    for zone in layout_zones:
        if zone.startswith(SEAT_ZONE):
            digits = zone[len(SEAT_ZONE):]
            if not 1 <= len(digits) <= 3 or digits[0] == "0" or [c for c in digits if c not in "0123456789"]:
                _fail(name, "zones.%s.%s" % (layout, zone), "a seat zone is %s1, %s2, ... (the seat's number)"
                      % (SEAT_ZONE, SEAT_ZONE))
            numbers.append(int(digits))
    for seat in range(1, len(numbers) + 1):
        if seat not in numbers:
            _fail(name, "zones.%s.%s%d" % (layout, SEAT_ZONE, max(numbers)),
                  "seat zones number the seats from 1 without a gap: %s%d is missing" % (SEAT_ZONE, seat))


def validate(name, data):
    """Parsed board dict -> Board, or SettingsError naming the first problem."""
    try:
        return _validate(name, data)
    except _UNFORESEEN as exc:
        _malformed(name, exc)


# A value of the wrong JSON type somewhere the checks did not foresee (RuntimeError: nested
# too deeply for MicroPython; CPython's RecursionError is one): still a refusal, never a crash.
_UNFORESEEN = (TypeError, AttributeError, KeyError, IndexError, RuntimeError)


def _malformed(name, exc):
    raise SettingsError("board %s: malformed description (%s: %s)" % (name, type(exc).__name__, exc))


def _validate(name, data):
    _keys(name, "board", data, SECTIONS, REQUIRED)
    mcu = _mcu(name, data)
    plan = _plan(name, mcu, data)
    _check_ports(name, mcu, data["ports"], plan)
    _check_buttons(name, data["buttons"], plan)
    pixels = data["pixels"]
    _keys(name, "pixels", pixels, ("pin", "count"), ("pin", "count"))
    plan.claim("pixels.pin", pixels["pin"])
    count = _int(name, "pixels.count", pixels["count"], 1, MAX_PIXELS)
    _check_displays(name, mcu, data["displays"], plan)
    _keys(name, "watchdog", data["watchdog"], ("timeout_ms",), ("timeout_ms",))
    _int(name, "watchdog.timeout_ms", data["watchdog"]["timeout_ms"], 100, MCUS[mcu]["wdt_max_ms"])
    _check_zones(name, data["zones"], count)
    if "keypad" in data:
        _check_keypad(name, data["keypad"], plan)
    if "service_pin" in data:             # a pin of its own: a button or port sharing it would open the REPL
        plan.claim("service_pin", data["service_pin"], low_at_reset="the jumper fitted")
    return Board(name, data)


def host_port(name, data):
    """The validated ports.host spec of a board description, even if other parts of it are wrong.

    For the boot refusal report: the host hears why the table stays closed
    whenever the board file says, correctly, where the host is.
    """
    try:
        _keys(name, "board", data, SECTIONS, ("mcu", "ports"))
        mcu = _mcu(name, data)
        ports = data["ports"]
        _keys(name, "ports", ports, PORT_ROLES, ("host",))
        spec = ports["host"]
        if isinstance(spec, dict) and "usb" in spec:
            _fail(name, "ports.host", "only the console may be {\"usb\": true}")
        _claim_port_pins(_plan(name, mcu, data), "host", spec, _check_port(name, mcu, "host", spec))
        return spec
    except _UNFORESEEN as exc:
        _malformed(name, exc)


def parse(name, raw):
    """The text or bytes of a board file -> Board; SettingsError naming the problem."""
    return validate(name, jsonfile.parse(raw, "board " + name))


def name_of(path):
    name = path.split("/")[-1]
    return name[:-5] if name.endswith(".json") else name


def read(path, name=None, unique=True):
    """(name, parsed JSON) of a board file, not yet validated; SettingsError if it is no JSON (or, unique,
    has a key twice in one object; the boot refusal report reads it without: the last one, as JSON does)."""
    if name is None:
        name = name_of(path)
    return name, jsonfile.parse(jsonfile.read(path, "board file"), "board " + name, unique)


def load(path, name=None):
    """Read and validate a board file; a missing file is a SettingsError too."""
    name, data = read(path, name)
    return validate(name, data)
