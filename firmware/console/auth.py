# Who may change the table from the console: the technician login, its lockout and idle logout.
#
# Time is whole seconds since boot, as the console counts the passes' time
# (Console.auth_s; the virtual clock in tests); not the table's uptime, which a
# recovery sets to its snapshot's (a lockout read back at boot would be over). LOCK_AFTER wrong PINs in a row lock the
# console for LOCK_FIRST_S, doubling with each lockout up to LOCK_MAX_S; a good
# PIN clears both counts. A login left idle IDLE_LOGOUT_S is logged out.
# The counts outlive a reset: restore() reads them back from the audit log's
# entries, and a lockout still running at the reset runs again in full from boot.
# The PIN record read and checked (PinStore) lives here too: a login answers at once; writing a new PIN
# (firmware/console/pins.py) is imported when a PIN is set.
import hashlib

from firmware.link.journal import Journal, JournalError

LOCK_AFTER = const(5)
LOCK_FIRST_S = const(30)
LOCK_MAX_S = const(900)
IDLE_LOGOUT_S = const(300)

# What check() found.
GRANTED = const(0)
WRONG = const(1)         # a wrong PIN, counted
LOCKED_NOW = const(2)    # a wrong PIN that locked the console (lock_s: for how long)
LOCKED = const(3)        # the console is locked: the PIN was not even tried
NO_PIN = const(4)        # nothing to check against (pins.problem says why)


def lock_seconds(lockouts):
    """How long the n-th lockout (1, 2, ...) lasts."""
    s = LOCK_FIRST_S
    for _ in range(1, lockouts):
        s *= 2
        if s >= LOCK_MAX_S:
            return LOCK_MAX_S
    return s if s < LOCK_MAX_S else LOCK_MAX_S


class Auth:
    def __init__(self, pins, idle_s=IDLE_LOGOUT_S, kept=None):
        self.pins = pins                 # PinStore, below
        self.idle_s = idle_s
        self.logged_in = False
        self.failures = 0                # wrong PINs in a row since the last lockout or login
        self.lockouts = 0                # lockouts since the last good PIN
        self.locked_until_s = -1         # the second since boot at which the lockout ends (-1: not locked)
        self.lock_s = 0                  # the length of the last lockout
        self.active_s = 0                # when the last byte was typed while logged in
        # The lockout whose refused `login` is in the audit log (its locked_until_s): one entry a lockout, so
        # that no one without the PIN can push the lockout's own entry out of the log's last KEEP (64)
        # entries, which restore() reads at boot.
        self.locked_noted_s = -1
        if kept is not None:             # the console woken (firmware/parts.py, ConsoleState): kept() again
            (self.idle_s, self.logged_in, self.failures, self.lockouts, self.locked_until_s, self.lock_s,
             self.active_s, self.locked_noted_s) = kept

    def kept(self):
        """What a dormant console keeps of the login (its counts, its lockout): Auth(pins, kept=...) again."""
        return (self.idle_s, self.logged_in, self.failures, self.lockouts, self.locked_until_s, self.lock_s,
                self.active_s, self.locked_noted_s)

    def restore(self, entries):
        """Counts back from audit entries ("UPTIME ACTION ..."): a lockout running at the reset runs again.
        LOCK_AFTER wrong PINs in a row lock it even without their lockout entry (a power cut between the
        last wrong PIN's entry and the lockout's), and a refused login in a lockout means it ran."""
        locked = False
        for entry in entries:
            words = entry.split()
            action = words[1] if len(words) > 1 else ""
            if action == "login":
                self.failures = self.lockouts = 0
                locked = False
            elif action == "login_failed":
                self.failures += 1
                locked = False
                if self.failures >= LOCK_AFTER:
                    self.failures = 0
                    self.lockouts += 1
                    locked = True
            elif action == "lockout":
                if not locked or self.failures:    # (not the one its LOCK_AFTER-th wrong PIN counted already)
                    self.lockouts += 1
                self.failures = 0
                locked = True
            elif action == "login_locked":
                locked = True
                if not self.lockouts:
                    self.lockouts = 1
        if locked:
            self.lock_s = lock_seconds(self.lockouts)
            self.locked_until_s = self.lock_s        # from boot (second 0)

    def locked_for(self, now_s):
        """Seconds of lockout left (0: not locked)."""
        if self.locked_until_s < 0 or now_s >= self.locked_until_s:
            return 0
        return self.locked_until_s - now_s

    def check(self, pin, now_s):
        """Try a PIN (bytes) -> GRANTED, WRONG, LOCKED_NOW, LOCKED or NO_PIN."""
        if self.locked_for(now_s):
            return LOCKED
        if not self.pins.provisioned:
            return NO_PIN
        if self.pins.matches(pin):
            self.failures = self.lockouts = 0
            self.locked_until_s = -1
            self.logged_in = True
            self.active_s = now_s
            return GRANTED
        self.failures += 1
        if self.failures < LOCK_AFTER:
            return WRONG
        self.failures = 0
        self.lockouts += 1
        self.lock_s = lock_seconds(self.lockouts)
        self.locked_until_s = now_s + self.lock_s
        return LOCKED_NOW

    def touch(self, now_s):
        """The technician typed something."""
        self.active_s = now_s

    def idle(self, now_s):
        """True when a login has been idle long enough to end."""
        return self.logged_in and now_s - self.active_s >= self.idle_s

    def logout(self):
        self.logged_in = False


# The technician PIN, kept only as a salted SHA-256 hash in the state dir (docs/console.md, "PIN"): one
# record in a power-safe journal (firmware/link/journal.py; files pins.0 and pins.1): format, a 16-byte
# random salt, sha256(salt + PIN). No default PIN: a table with no record (or a damaged one) refuses
# every login until a PIN is provisioned (python -m tools.pin; firmware/console/pins.py writes it).
PIN_FILE = "pins"
NO_PIN_TEXT = "no technician PIN provisioned"     # a table not provisioned yet: no damage
_PIN_KIND = const(1)
_PIN_FORMAT = const(1)
_PIN_SALT = const(16)
_RECORD = const(49)          # format, salt, digest
_PIN_MAX_BYTES = const(1024)
# copies of firmware.link.record (tests/host/test_const_copies.py)
_CLEAN = const(0)


def _pin_digest(salt, pin):
    return hashlib.sha256(bytes(salt) + bytes(pin)).digest()


class PinStore:
    """The PIN record in state_dir. `problem`: why no login is possible ("" when a PIN is provisioned)."""

    def __init__(self, state_dir, fs=None, kept=None):
        if kept is not None:             # the console woken: the record as read (kept()), not read again
            self.journal, self._record, self.problem = kept
            return
        self.journal = Journal(state_dir, PIN_FILE, fs, _PIN_MAX_BYTES)
        self._record = None
        self.problem = ""
        try:
            for kind, payload in self.journal.records():
                if kind == _PIN_KIND and len(payload) == _RECORD and payload[0] == _PIN_FORMAT:
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
            self.problem = NO_PIN_TEXT

    def kept(self):
        """What a dormant console keeps of the PIN record: PinStore(None, kept=...) again."""
        return (self.journal, self._record, self.problem)

    @property
    def provisioned(self):
        return self._record is not None

    def matches(self, pin):
        """True if pin (bytes) is the provisioned PIN; compares every byte whatever differs."""
        record = self._record
        if record is None:
            return False
        digest = _pin_digest(record[1:1 + _PIN_SALT], pin)
        diff = 0
        for i in range(len(digest)):
            diff |= digest[i] ^ record[1 + _PIN_SALT + i]
        return diff == 0

    def set(self, pin):
        """Replace the PIN (ValueError if it is not one); on flash when this returns. The writing half
        (firmware/console/pins.py) is imported now; the console releases it when the line is done."""
        from firmware.console.pins import check_pin, new_salt
        if isinstance(pin, str):
            pin = pin.encode()
        problem = check_pin(pin)
        if problem is not None:
            raise ValueError(problem)
        salt = new_salt(_PIN_SALT)
        record = bytes((_PIN_FORMAT,)) + salt + _pin_digest(salt, pin)
        self.journal.compact(((_PIN_KIND, record),))
        self._record = record
        self.problem = ""
