# The technician PIN, kept only as a salted SHA-256 hash in the state dir (docs/console.md, "PIN").
#
# One record in a power-safe journal (firmware/link/journal.py; files pins.0 and
# pins.1): FORMAT, a 16-byte random salt, sha256(salt + PIN). A new PIN replaces
# the record by a compaction (a whole new file, then the old one removed), so a
# power cut leaves the old PIN or the new one, never none. No default PIN: a
# table with no record (or a damaged one) refuses every login until a PIN is
# provisioned (python -m tools.pin).
import hashlib
import os

from firmware.compat import const
from firmware.link.journal import Journal, JournalError

# copies of firmware.link.record (tests/host/test_const_copies.py)
_CLEAN = const(0)

NAME = "pins"
MIN_DIGITS = const(6)        # (the console masks runs this long in a refused line: shell.py)
MAX_DIGITS = const(12)
_MAX_BYTES = const(1024)
_KIND = const(1)
_FORMAT = const(1)
_SALT = const(16)
_RECORD = const(49)          # format, salt, digest


def check_pin(pin):
    """None if pin (bytes or str) is an acceptable PIN, else why not."""
    if isinstance(pin, str):
        pin = pin.encode()
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        return "a PIN has %d to %d digits" % (MIN_DIGITS, MAX_DIGITS)
    for ch in pin:
        if not 0x30 <= ch <= 0x39:
            return "a PIN is digits only"
    return None


def _salt():
    if hasattr(os, "urandom"):
        return os.urandom(_SALT)
    import random                        # a port without os.urandom (the WebAssembly VM)
    return bytes(random.getrandbits(8) for _ in range(_SALT))


def _digest(salt, pin):
    return hashlib.sha256(bytes(salt) + bytes(pin)).digest()


NO_PIN = "no technician PIN provisioned"     # a table not provisioned yet: no damage


class PinStore:
    """The PIN record in state_dir. `problem`: why no login is possible ("" when a PIN is provisioned)."""

    def __init__(self, state_dir, fs=None):
        self.journal = Journal(state_dir, NAME, fs, _MAX_BYTES)
        self._record = None
        self.problem = ""
        try:
            for kind, payload in self.journal.records():
                if kind == _KIND and len(payload) == _RECORD and payload[0] == _FORMAT:
                    self._record = bytes(payload)
                else:
                    self._record = None
                    self.problem = "PIN record of an unknown format"
        except (JournalError, OSError) as exc:
            self._record = None
            self.problem = "PIN record unreadable (%s)" % exc
        if self.journal.status != _CLEAN and self._record is None and not self.problem:
            self.problem = "PIN record damaged (%s)" % self.journal.detail
        if self._record is None and not self.problem:
            self.problem = NO_PIN

    @property
    def provisioned(self):
        return self._record is not None

    def matches(self, pin):
        """True if pin (bytes) is the provisioned PIN; compares every byte whatever differs."""
        record = self._record
        if record is None:
            return False
        digest = _digest(record[1:1 + _SALT], pin)
        diff = 0
        for i in range(len(digest)):
            diff |= digest[i] ^ record[1 + _SALT + i]
        return diff == 0

    def set(self, pin):
        """Replace the PIN (ValueError if it is not one); on flash when this returns."""
        if isinstance(pin, str):
            pin = pin.encode()
        problem = check_pin(pin)
        if problem is not None:
            raise ValueError(problem)
        salt = _salt()
        record = bytes((_FORMAT,)) + salt + _digest(salt, pin)
        self.journal.compact(((_KIND, record),))
        self._record = record
        self.problem = ""


def provision(state_dir, pin, fs=None):
    """Write the first (or a replacement) PIN into state_dir: tools.pin, tests, the simulator."""
    PinStore(state_dir, fs).set(pin)
