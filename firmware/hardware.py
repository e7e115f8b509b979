# Board bring-up: the only place that constructs Pin/UART/I2C/NeoPixel/WDT/StateMachine objects.
#
# It turns a validated Board into driver objects. The `machine` and `neopixel`
# modules are passed in (the board's own on MicroPython, hostsim's on CPython),
# so nothing else in the firmware touches hardware constructors. `rp2` is
# imported only for a board with a PIO port (only an RP2040 has the module).
from firmware.drivers.buttons import Buttons
from firmware.drivers.pixels import ZoneLights
from firmware.drivers.serial_line import SerialLine
from firmware.parts import Hardware  # noqa: F401  (kept after boot: firmware/parts.py)
from firmware.table_config import KEYPAD_GAMES

# copies of firmware.link.frame (tests/host/test_const_copies.py)
_MAX_FRAME = const(512)

_LINE = const(96)            # a device frame or a console line
_HOST_LINE = _MAX_FRAME - 1    # a host-link frame without its LF (docs/host-link.md)
# The host UART's transmit ring (on the heap: the rp2 port allocates txbuf + 1 bytes): what the host link
# writes at once, and only when the port has sent everything before (firmware/link/sender.py, txdone()).
# An event's frames in one go (a Baccarat result's ~950 bytes, the sender's window of 8 frames): the host
# then acknowledges them with one ACK, and the link store writes one DROP record for them. A 512-byte ring
# (0.5 KB less heap) sends them in two goes, acknowledged apart: a flash write more a round (Omaha's hand
# 20.2 -> 21.2 link store writes, over tests/host/test_power_cut_table.py's bound of 1.5 a report).
HOST_TXBUF = const(1024)
# A serial line's timeout for a partial line (firmware/drivers/serial_line.py, timeout_ms)
_BITS_PER_CHAR = const(10)    # start + 8 data + stop
_TIMEOUT_CHARS = const(8)     # a partial line quiet this many character times is stale...
_TIMEOUT_FLOOR_MS = const(50) # ...but never sooner than this (poll period, sender jitter)


def _uart(machine, spec, txbuf=0):
    if txbuf:
        return machine.UART(spec["uart"], baudrate=spec["baudrate"], tx=machine.Pin(spec["tx"]),
                            rx=machine.Pin(spec["rx"]), timeout=0, txbuf=txbuf)
    return machine.UART(spec["uart"], baudrate=spec["baudrate"],
                        tx=machine.Pin(spec["tx"]), rx=machine.Pin(spec["rx"]), timeout=0)


def _pio_uart(rp2, machine, spec):
    from firmware.drivers.pio_uart import PioUart
    return PioUart(rp2, machine, spec["pio"], spec["sm"], spec["tx"], spec["rx"], spec["baudrate"])


def _keypad(machine, spec):
    # Rows open drain, released (value 1: high impedance) until scanned: two held keys of one
    # column join two rows, and a push-pull row driving high would fight the scanned one.
    from firmware.drivers.keypad import Keypad      # only a table that reads it: KEYPAD_GAMES
    Pin = machine.Pin
    rows = [Pin(pin, Pin.OPEN_DRAIN, value=1) for pin in spec["rows"]]
    cols = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in spec["cols"]]
    return Keypad(rows, cols)


def open_port(machine, spec):
    """A SerialLine on one validated UART port spec, alone: the boot refusal report's way to the host."""
    return SerialLine(_uart(machine, spec))


def bring_up(board, layout, machine, neopixel, lcd_class=None, watchdog=True, usb_console=None, rp2=None,
             oled_class=None):
    """Construct every driver of `board`; `layout` (the game) picks the bet-zone map, and whether the keypad is
    brought up (KEYPAD_GAMES).

    usb_console: a UART-like object for a {"usb": true} console (default: the
    REPL's stdin/stdout through StdioUART). rp2: the module for PIO ports
    (default: imported when the board has one). lcd_class, oled_class: the
    display drivers (default: CharLCD, SSD1306).
    """
    hw = Hardware()
    built = {}
    for role in ("host", "console", "shoe", "dice", "bets"):
        spec = board.ports.get(role)
        if spec is None or "usb" in spec:
            continue
        key = ("pio", spec["pio"], spec["sm"]) if "pio" in spec else spec["uart"]
        if key not in built:      # shoe and dice may share one port (different games)
            if "pio" in spec:
                if rp2 is None:
                    import rp2
                built[key] = _pio_uart(rp2, machine, spec)
            else:
                built[key] = _uart(machine, spec, HOST_TXBUF if role == "host" else 0)
        hw.uarts[role] = built[key]
        # A machine sends a line at once, so a pause inside one drops it; a person types on the console.
        timeout_ms = 0 if role == "console" else line_timeout_ms(spec["baudrate"])
        # The host port reads host-link frames: a REQUEST frame up to a whole frame's length.
        max_len = _HOST_LINE if role == "host" else _LINE
        hw.ports[role] = SerialLine(built[key], max_len=max_len, timeout_ms=timeout_ms)
    if board.ports["console"] == {"usb": True}:
        if usb_console is None:
            import sys
            from firmware.drivers.usb_console import StdioUART
            usb_console = StdioUART(sys.stdin, sys.stdout)
        hw.ports["console"] = SerialLine(usb_console)
    if board.service_pin is not None:     # read once, at boot: fitting the jumper later changes nothing
        hw.service_mode = machine.Pin(board.service_pin, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0
    pins = [machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP) for _, pin in board.buttons]
    hw.buttons = Buttons(pins)
    if board.keypad is not None and layout in KEYPAD_GAMES:
        hw.keypad = _keypad(machine, board.keypad)
    else:                           # its pins stay inputs, as at reset; no table reads its legends either
        board.keypad_keys = []
    strip = neopixel.NeoPixel(machine.Pin(board.pixel_pin), board.pixel_count)
    keep_layout(board, layout)      # the other layouts' zone maps: never read again, kept in the heap
    zones = board.zones.get(layout, {})
    hw.lights = ZoneLights(strip, board.pixel_count, sorted(zones.items()))
    if lcd_class is None:
        from firmware.drivers.lcd import CharLCD as lcd_class
    bus = board.displays["i2c"]
    i2c = machine.I2C(bus["bus"], scl=machine.Pin(bus["scl"]), sda=machine.Pin(bus["sda"]), freq=bus["freq"])
    for role in ("dealer", "result"):
        spec = board.displays[role]
        try:
            hw.displays[role] = lcd_class(i2c, spec["addr"], spec["cols"], spec["rows"])
        except OSError as exc:
            hw.faults.append(("display_missing", "%s display at I2C address %d: %s" % (role, spec["addr"], exc),
                              (role, lcd_class, i2c, spec["addr"], spec["cols"], spec["rows"])))
    spec = board.displays.get("scoreboard")
    if spec is not None:
        if oled_class is None:
            from firmware.drivers.ssd1306 import SSD1306 as oled_class
        try:
            hw.displays["scoreboard"] = oled_class(i2c, spec["addr"], spec["width"], spec["height"])
        except OSError as exc:
            hw.faults.append(("display_missing", "scoreboard display at I2C address %d: %s" % (spec["addr"], exc),
                              ("scoreboard", oled_class, i2c, spec["addr"], spec["width"], spec["height"])))
    if watchdog:
        hw.watchdog = machine.WDT(timeout=board.watchdog_ms)
    return hw


def keep_layout(board, layout):
    """Forget every other layout's zone map of `board`: a booted table reads only its own (bring-up's lights,
    the seat count), and each map parsed from the board file keeps 1.5-3 KB of heap."""
    board.zones = {layout: board.zones[layout]} if layout in board.zones else {}


def line_timeout_ms(baudrate):
    """How long a partial line may stay quiet on a port at this baudrate before it is dropped (a SerialLine's
    timeout_ms)."""
    ms = _TIMEOUT_CHARS * _BITS_PER_CHAR * 1000 // baudrate + 1
    return ms if ms > _TIMEOUT_FLOOR_MS else _TIMEOUT_FLOOR_MS
