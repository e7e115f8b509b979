# Who may change the table from the console: the technician login, its lockout and idle logout.
#
# Time is whole seconds since boot, as the console counts the passes' time
# (Console.auth_s; the virtual clock in tests); not the table's uptime, which a
# recovery sets to its snapshot's (a lockout read back at boot would be over). LOCK_AFTER wrong PINs in a row lock the
# console for LOCK_FIRST_S, doubling with each lockout up to LOCK_MAX_S; a good
# PIN clears both counts. A login left idle IDLE_LOGOUT_S is logged out.
# The counts outlive a reset: restore() reads them back from the audit log's
# entries, and a lockout still running at the reset runs again in full from boot.
from firmware.compat import const

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
    def __init__(self, pins, idle_s=IDLE_LOGOUT_S):
        self.pins = pins                 # firmware.console.pins.PinStore
        self.idle_s = idle_s
        self.logged_in = False
        self.failures = 0                # wrong PINs in a row since the last lockout or login
        self.lockouts = 0                # lockouts since the last good PIN
        self.locked_until_s = -1         # the second since boot at which the lockout ends (-1: not locked)
        self.lock_s = 0                  # the length of the last lockout
        self.active_s = 0                # when the last byte was typed while logged in

    def restore(self, entries):
        """Counts back from audit entries ("UPTIME ACTION ..."): a lockout running at the reset runs again."""
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
            elif action == "lockout":
                self.failures = 0
                self.lockouts += 1
                locked = True
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
