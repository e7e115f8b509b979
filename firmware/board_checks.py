# The board validator's primitives: the chips' facts and checks whose messages name the key.
#
# firmware/board.py builds the validation of a board description from these;
# hostsim.hardware takes the chips' GPIOs, UARTs, I2C buses and PIO from MCUS,
# so the simulated chip is the one the validator checks against.
import json

from firmware.errors import SettingsError

# What each microcontroller has: GPIO numbers, UART ids, I2C ids, longest watchdog,
# "functions": for a chip without a GPIO matrix, the pins that can carry each bus signal
# (function -> unit id -> pins); absent: any GPIO can; and "pio": its PIO blocks and
# "pio_sms" state machines in each (absent: the chip has no PIO). The pin numbers are written out,
# not built with range() at import: a tuple of literals is a constant, in flash with frozen or ROMFS
# code, where built ones stayed in the heap for the whole run (the dicts still are: ~1 KB).
MCUS = {
    # RP2040 datasheet 2.19.2 (GPIO functions); MicroPython's machine.UART/I2C refuse
    # other pins ("bad TX pin"), so they are refused here, before the board boots.
    # Datasheet 3.1: two PIO blocks of four state machines; PIO reaches every GPIO.
    "rp2040": {"gpio": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                        25, 26, 27, 28, 29),
               "uart": (0, 1), "i2c": (0, 1), "wdt_max_ms": 8388,
               "pio": (0, 1), "pio_sms": 4,
               "functions": {"tx": {0: (0, 12, 16, 28), 1: (4, 8, 20, 24)},
                             "rx": {0: (1, 13, 17, 29), 1: (5, 9, 21, 25)},
                             "sda": {0: (0, 4, 8, 12, 16, 20, 24, 28), 1: (2, 6, 10, 14, 18, 22, 26)},
                             "scl": {0: (1, 5, 9, 13, 17, 21, 25, 29), 1: (3, 7, 11, 15, 19, 23, 27)}}},
    # ESP32-S3: GPIO 26-32 carry the SPI flash and PSRAM on its modules (ESP-IDF, "GPIO": "usually used
    # for SPI flash"): a button there would fight the flash. GPIO 19 and 20 are the USB D- and D+ of
    # the USB console ("usb_pins": taken by a {"usb": true} console). "repl_uart": MicroPython's ESP32-S3
    # firmware keeps its REPL on UART 0 (MICROPY_HW_ENABLE_UART_REPL): the REPL's own interrupt takes what
    # arrives there and machine.UART(0) installs no driver, so no port can have it (docs/boards.md).
    "esp32s3": {"gpio": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                         26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48),
                "reserved": ((26, 32, "the SPI flash and PSRAM"),), "usb_pins": ((19, "USB D-"), (20, "USB D+")),
                # the board's "psram": with octal flash or PSRAM (a WROOM-1 N8R8, N16R8; any WROOM-2) GPIO 33-37
                # are its SPIIO4-7 and SPIDQS (ESP-IDF, "GPIO", esp32s3 note), and MicroPython built for octal
                # PSRAM has no machine.Pin there (ports/esp32/machine_pin.h, CONFIG_SPIRAM_MODE_OCT)
                "psram": {"none": (), "quad": (), "octal": ((33, 37, "the octal PSRAM (\"psram\": \"octal\")"),)},
                "uart": (0, 1, 2), "repl_uart": 0, "i2c": (0, 1), "wdt_max_ms": 60000,
                # GPIO 0 low at reset selects the ROM's download mode (the datasheet's boot strapping pins);
                # GPIO 45 high at reset selects 1.8 V for the SPI flash (VDD_SPI): a 3.3 V module does not boot
                "boot_strap": 0, "flash_voltage_strap": 45,
                # U0TXD and U0RXD: the ROM writes its boot log on GPIO 43 at every reset, whatever UART the
                # firmware then puts there, and a DevKitC-1's USB-UART bridge is wired to both
                "boot_log_pins": (43, 44)},
    "hostsim": {"gpio": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                         25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
                         48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63),
                "uart": (0, 1, 2, 3, 4, 5, 6, 7), "i2c": (0, 1, 2, 3),
                "wdt_max_ms": 60000},
}


def fail(name, where, message):
    raise SettingsError("board %s: %s: %s" % (name, where, message))


def whole(value):
    """A JSON whole number: an int, never a bool (true) or a float (1.0, -0.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value):
    """A value for a message: a scalar as JSON spells it (true, 1.0), a list or object by its kind (it may be huge)."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return repr(value if len(value) <= 24 else value[:21] + "...")
    text = json.dumps(value)
    return text if len(text) <= 24 else text[:21] + "..."     # a number of 400 digits: its start


def number(name, where, value, low, high):
    if not whole(value) or value < low or value > high:
        fail(name, where, "expected a whole number %d..%d, got %s" % (low, high, shown(value)))
    return value


def pixel_range(name, where, pair, count):
    """(first, last) of a zone's [first, last] on a strip of count pixels, the message saying which is wrong."""
    if not isinstance(pair, list) or len(pair) != 2:
        fail(name, where, "expected [first, last], got %s" % shown(pair))
    for end in pair:
        if whole(end) and end >= count:
            fail(name, where, "pixel %d is past the strip (pixels.count %d: pixels 0..%d)" % (end, count, count - 1))
    first = number(name, where, pair[0], 0, count - 1)
    last = number(name, where, pair[1], 0, count - 1)
    if last < first:
        fail(name, where, "[%d, %d] ends before it starts (a range is [first, last])" % (first, last))
    return first, last


def unit(name, where, value, mcu, kind):
    """A UART or I2C id the MCU has (kind: "uart" or "i2c"), and a UART a port can have."""
    units = MCUS[mcu][kind]
    if not whole(value) or value not in units:
        fail(name, where, "%s %s does not exist on %s (%s %s)"
              % (kind.upper(), shown(value), mcu, kind.upper(), ", ".join([str(u) for u in units])))
    if kind == "uart" and value == MCUS[mcu].get("repl_uart"):
        fail(name, where, "UART %d carries MicroPython's REPL on %s: a port needs another UART (UART %s)"
             % (value, mcu, free_uarts(mcu)))
    return value


def free_uarts(mcu):
    """The UART ids a port can have, for a message: "1, 2"."""
    repl = MCUS[mcu].get("repl_uart")
    return ", ".join([str(u) for u in MCUS[mcu]["uart"] if u != repl])


def uart_hint(mcu, role, ports, unit):
    """For a port refused because another port has its UART: where it can go instead (for the message)."""
    if unit[0] != "uart":
        return ""
    taken = [spec.get("uart") for other, spec in ports.items() if other != role and isinstance(spec, dict)]
    free = [str(u) for u in MCUS[mcu]["uart"] if u != MCUS[mcu].get("repl_uart") and u not in taken]
    if free:
        return " (free: UART %s)" % ", ".join(free)
    if MCUS[mcu].get("pio"):
        return (" (every UART of %s is taken: the shoe, dice or bet reader port can be a PIO UART, "
                "{\"pio\", \"sm\", \"tx\", \"rx\", \"baudrate\"}, docs/boards.md)" % mcu)
    return (" (every UART a port can have on %s is taken and it has no PIO: one more serial device needs a "
            "shared RS-485 bus, not supported yet, docs/boards.md)" % mcu)


def keys(name, where, obj, allowed, required):
    if not isinstance(obj, dict):
        fail(name, where, "expected an object, got %s" % shown(obj))
    for key in obj:
        if key not in allowed:
            fail(name, where, "unknown key %s (expected %s)" % (shown(key), ", ".join(allowed)))
    for key in required:
        if key not in obj:
            fail(name, where, "missing %r" % key)


def reserved(mcu, psram=None):
    """The (first, last, what) pin ranges the module keeps for itself: the chip's, and its PSRAM's (the
    board's "psram", checked by the caller)."""
    return MCUS[mcu].get("reserved", ()) + (MCUS[mcu]["psram"][psram] if psram is not None else ())


class PinPlan:
    """Tracks which role holds each pin so a double use is caught."""

    def __init__(self, name, mcu, psram=None):
        self.name = name
        self.mcu = mcu
        self.reserved = reserved(mcu, psram)
        self.owner = {}

    def claim(self, where, pin, shared_ok=None, function=None, unit=0, low_at_reset=None, high_at_reset=False):
        """Take pin for `where`; function ("tx", "rx", "sda", "scl") of bus `unit` if it carries one;
        low_at_reset: what may hold the pin low while the chip starts (the service jumper fitted, a
        button held: active low), as the message says it; high_at_reset: it may be pulled up then (a
        keypad column's external pull-up, docs/boards.md "Dealer keypad")."""
        gpio = MCUS[self.mcu]["gpio"]
        if not whole(pin) or pin not in gpio:
            fail(self.name, where, "pin %s does not exist on %s (GPIO %d-%d)"
                  % (shown(pin), self.mcu, gpio[0], gpio[-1]))
        if low_at_reset and pin == MCUS[self.mcu].get("boot_strap"):
            fail(self.name, where, "pin %d is the boot strap of %s: held low at reset (%s) it starts "
                 "the ROM's download mode, not the firmware" % (pin, self.mcu, low_at_reset))
        if function in ("tx", "rx") and pin in MCUS[self.mcu].get("boot_log_pins", ()):
            fail(self.name, where, "pin %d is UART0's %s on %s: the ROM writes its boot log there at every reset "
                 "(garbage on the line) and a DevKitC-1's USB-UART bridge drives it: a serial port needs other "
                 "pins" % (pin, "U0TXD" if pin == MCUS[self.mcu]["boot_log_pins"][0] else "U0RXD", self.mcu))
        if high_at_reset and pin == MCUS[self.mcu].get("flash_voltage_strap"):
            fail(self.name, where, "pin %d is the flash voltage strap of %s: pulled up at reset (a keypad column's "
                 "pull-up) it selects 1.8 V for the SPI flash and a 3.3 V module does not boot" % (pin, self.mcu))
        for first, last, what in self.reserved:
            if first <= pin <= last:
                fail(self.name, where, "pin %d carries %s on %s (GPIO %d-%d): not free for the table"
                     % (pin, what, self.mcu, first, last))
        functions = MCUS[self.mcu].get("functions")
        if function is not None and functions is not None and pin not in functions[function][unit]:
            fail(self.name, where, "pin %d cannot be %s of unit %d on %s (pins %s)"
                  % (pin, function.upper(), unit, self.mcu, ", ".join([str(p) for p in functions[function][unit]])))
        other = self.owner.get(pin)
        if other is not None and other != shared_ok:
            fail(self.name, where, "pin %d is already used by %s" % (pin, other))
        self.owner[pin] = where
