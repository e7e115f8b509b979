# Board description loader: roles -> pins/ports, bet-zone pixel maps, validated at load.
#
# A board file (boards/<name>.json, deployed as /board.json) is data only. Every
# mistake is rejected here with a message naming the key, so a technician sees
# "ports.shoe: pin 40 does not exist on rp2040" instead of a crash at run time.
import json

from firmware.errors import SettingsError

# What each microcontroller has: GPIO numbers, UART ids, I2C ids, longest watchdog.
MCUS = {
    "rp2040": {"gpio": tuple(range(0, 30)), "uart": (0, 1), "i2c": (0, 1), "wdt_max_ms": 8388},
    "esp32s3": {"gpio": tuple(range(0, 22)) + tuple(range(26, 49)), "uart": (0, 1, 2), "i2c": (0, 1),
                "wdt_max_ms": 60000},
    "hostsim": {"gpio": tuple(range(0, 64)), "uart": tuple(range(0, 8)), "i2c": (0, 1, 2, 3),
                "wdt_max_ms": 60000},
}
SECTIONS = ("description", "mcu", "ports", "buttons", "pixels", "displays", "watchdog", "zones")
REQUIRED = ("mcu", "ports", "buttons", "pixels", "displays", "watchdog", "zones")
PORT_ROLES = ("shoe", "dice", "host", "console")
# Card shoe and dice reader serve different games, so one board may wire both to one UART.
SHAREABLE_PORTS = ("shoe", "dice")
BUTTON_ROLES = ("deal", "confirm", "void", "shoe_change", "undo", "menu")
DISPLAY_ROLES = ("dealer", "result")
LAYOUTS = ("baccarat", "craps", "omaha")
MAX_PIXELS = 1024


class Board:
    """A validated board description. Attributes are plain data."""

    def __init__(self, name, data):
        self.name = name
        self.description = data.get("description", "")
        self.mcu = data["mcu"]
        self.ports = data["ports"]            # role -> {"uart", "tx", "rx", "baudrate"} or {"usb": True}
        self.buttons = sorted(data["buttons"].items())  # [(role, pin)], sorted for a stable index
        self.pixel_pin = data["pixels"]["pin"]
        self.pixel_count = data["pixels"]["count"]
        self.displays = data["displays"]      # {"i2c": {...}, "dealer": {...}, "result": {...}}
        self.watchdog_ms = data["watchdog"]["timeout_ms"]
        self.zones = data["zones"]            # layout -> zone -> [[first, last], ...]

    def button_index(self, role):
        for i in range(len(self.buttons)):
            if self.buttons[i][0] == role:
                return i
        return -1



def _fail(name, where, message):
    raise SettingsError("board %s: %s: %s" % (name, where, message))


def _int(name, where, value, low, high):
    if not isinstance(value, int) or isinstance(value, bool) or value < low or value > high:
        _fail(name, where, "expected a whole number %d..%d, got %r" % (low, high, value))
    return value


def _keys(name, where, obj, allowed, required):
    if not isinstance(obj, dict):
        _fail(name, where, "expected an object")
    for key in obj:
        if key not in allowed:
            _fail(name, where, "unknown key %r (expected %s)" % (key, ", ".join(allowed)))
    for key in required:
        if key not in obj:
            _fail(name, where, "missing %r" % key)


class _PinPlan:
    """Tracks which role holds each pin so a double use is caught."""

    def __init__(self, name, mcu):
        self.name = name
        self.mcu = mcu
        self.owner = {}

    def claim(self, where, pin, shared_ok=None):
        if not isinstance(pin, int) or isinstance(pin, bool) or pin not in MCUS[self.mcu]["gpio"]:
            gpio = MCUS[self.mcu]["gpio"]
            _fail(self.name, where, "pin %r does not exist on %s (GPIO %d-%d)" % (pin, self.mcu, gpio[0], gpio[-1]))
        other = self.owner.get(pin)
        if other is not None and other != shared_ok:
            _fail(self.name, where, "pin %d is already used by %s" % (pin, other))
        self.owner[pin] = where


def _check_ports(name, mcu, ports, plan):
    _keys(name, "ports", ports, PORT_ROLES, ("host", "console"))
    uart_owner = {}
    for role in PORT_ROLES:
        spec = ports.get(role)
        if spec is None:
            continue
        where = "ports." + role
        if not isinstance(spec, dict):
            _fail(name, where, "expected an object")
        if "usb" in spec:
            if role != "console" or spec != {"usb": True}:
                _fail(name, where, "only the console may be {\"usb\": true}")
            continue
        _keys(name, where, spec, ("uart", "tx", "rx", "baudrate"), ("uart", "tx", "rx", "baudrate"))
        if spec["uart"] not in MCUS[mcu]["uart"]:
            _fail(name, where, "UART %r does not exist on %s (UART %s)" % (spec["uart"], mcu, MCUS[mcu]["uart"]))
        _int(name, where + ".baudrate", spec["baudrate"], 300, 3000000)
        sharer = uart_owner.get(spec["uart"])
        shared_ok = None
        if sharer is not None:
            if role in SHAREABLE_PORTS and sharer in SHAREABLE_PORTS and ports[sharer] == spec:
                shared_ok = "ports." + sharer
            else:
                _fail(name, where, "UART %d is already used by ports.%s" % (spec["uart"], sharer))
        uart_owner[spec["uart"]] = role
        plan.claim(where + ".tx", spec["tx"], shared_ok and shared_ok + ".tx")
        plan.claim(where + ".rx", spec["rx"], shared_ok and shared_ok + ".rx")


def _check_displays(name, mcu, displays, plan):
    _keys(name, "displays", displays, ("i2c",) + DISPLAY_ROLES, ("i2c",) + DISPLAY_ROLES)
    bus = displays["i2c"]
    _keys(name, "displays.i2c", bus, ("bus", "scl", "sda", "freq"), ("bus", "scl", "sda", "freq"))
    if bus["bus"] not in MCUS[mcu]["i2c"]:
        _fail(name, "displays.i2c", "I2C %r does not exist on %s" % (bus["bus"], mcu))
    plan.claim("displays.i2c.scl", bus["scl"])
    plan.claim("displays.i2c.sda", bus["sda"])
    _int(name, "displays.i2c.freq", bus["freq"], 10000, 1000000)
    addresses = []
    for role in DISPLAY_ROLES:
        where = "displays." + role
        spec = displays[role]
        _keys(name, where, spec, ("addr", "cols", "rows"), ("addr", "cols", "rows"))
        _int(name, where + ".addr", spec["addr"], 0x08, 0x77)
        _int(name, where + ".cols", spec["cols"], 8, 40)
        _int(name, where + ".rows", spec["rows"], 1, 4)
        if spec["addr"] in addresses:
            _fail(name, where, "I2C address %d is already used by another display" % spec["addr"])
        addresses.append(spec["addr"])


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
                if not isinstance(pair, list) or len(pair) != 2:
                    _fail(name, where, "expected [first, last], got %r" % (pair,))
                first = _int(name, where, pair[0], 0, count - 1)
                last = _int(name, where, pair[1], first, count - 1)
                for pixel in range(first, last + 1):
                    if owner[pixel] is not None:
                        _fail(name, where, "pixel %d overlaps zone %r" % (pixel, owner[pixel]))
                    owner[pixel] = zone


def validate(name, data):
    """Parsed board dict -> Board, or SettingsError naming the first problem."""
    try:
        return _validate(name, data)
    except (TypeError, AttributeError, KeyError, IndexError) as exc:
        # A value of the wrong JSON type somewhere the checks above did not foresee.
        raise SettingsError("board %s: malformed description (%s: %s)" % (name, type(exc).__name__, exc))


def _validate(name, data):
    _keys(name, "board", data, SECTIONS, REQUIRED)
    mcu = data["mcu"]
    if not isinstance(mcu, str) or mcu not in MCUS:
        _fail(name, "mcu", "unknown microcontroller %r (expected %s)" % (mcu, ", ".join(sorted(MCUS))))
    plan = _PinPlan(name, mcu)
    _check_ports(name, mcu, data["ports"], plan)
    _keys(name, "buttons", data["buttons"], BUTTON_ROLES, ())
    for role in sorted(data["buttons"]):
        plan.claim("buttons." + role, data["buttons"][role])
    pixels = data["pixels"]
    _keys(name, "pixels", pixels, ("pin", "count"), ("pin", "count"))
    plan.claim("pixels.pin", pixels["pin"])
    count = _int(name, "pixels.count", pixels["count"], 1, MAX_PIXELS)
    _check_displays(name, mcu, data["displays"], plan)
    _keys(name, "watchdog", data["watchdog"], ("timeout_ms",), ("timeout_ms",))
    _int(name, "watchdog.timeout_ms", data["watchdog"]["timeout_ms"], 100, MCUS[mcu]["wdt_max_ms"])
    _check_zones(name, data["zones"], count)
    return Board(name, data)


def parse(name, text):
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SettingsError("board %s: not valid JSON (%s)" % (name, exc))
    return validate(name, data)


def load(path, name=None):
    """Read and validate a board file; a missing file is a SettingsError too."""
    if name is None:
        name = path.split("/")[-1]
        if name.endswith(".json"):
            name = name[:-5]
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise SettingsError("board file %s not found" % path)
    return parse(name, text)
