# Setting the technician PIN (docs/console.md, "PIN"): what a new PIN must be, its salt, provisioning.
#
# The record itself, a salted SHA-256 hash in a power-safe journal (files pins.0 and pins.1), is read and
# checked at login by firmware/console/auth.py (PinStore), which a table keeps. This half runs only when a
# PIN is set (`passwd`, python -m tools.pin): PinStore.set() imports it, and the console releases it when
# the line is done (firmware/parts.py, CONSOLE_ON_DEMAND). A new PIN replaces the record by a compaction
# (a whole new file, then the old one removed), so a power cut leaves the old PIN or the new one, never none.
import os


MIN_DIGITS = const(6)        # (the console masks runs this long in a refused line: shell.py)
MAX_DIGITS = const(12)


def check_pin(pin):
    """None if pin (bytes or str) is an acceptable PIN, else why not."""
    if isinstance(pin, str):
        pin = pin.encode()
    for ch in pin:               # first: "１２３４５６" (full-width digits, 18 bytes) is no PIN for its characters
        if not 0x30 <= ch <= 0x39:
            return "a PIN is digits only"
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        return "a PIN has %d to %d digits" % (MIN_DIGITS, MAX_DIGITS)
    return None


def new_salt(n):
    """n random bytes."""
    if hasattr(os, "urandom"):
        return os.urandom(n)
    import random                        # a port without os.urandom (the WebAssembly VM)
    return bytes(random.getrandbits(8) for _ in range(n))


def provision(state_dir, pin, fs=None):
    """Write the first (or a replacement) PIN into state_dir: tools.pin, tests, the simulator."""
    from firmware.console.auth import PinStore
    PinStore(state_dir, fs).set(pin)
