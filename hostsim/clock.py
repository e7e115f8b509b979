# Virtual millisecond clock for the host simulator: tests step it, `make sim` lets it follow real time.
#
# install() hands now_ms to firmware.compat.set_clock, so the firmware's
# ticks_ms()/ticks_diff() (and with them debouncing, timeouts, the watchdog
# check) run on this clock instead of the host's, and its blocking sleep_ms()
# moves this clock on (sleep()) rather than waiting out the host's time.
import time


class VirtualClock:
    """Milliseconds since an arbitrary start, moved by advance() or by real time.

    Stepped mode (default): time stands still until advance(ms) is called, so a
    test decides exactly when each timeout falls due.
    Real-time mode (realtime=True): time follows time.monotonic() multiplied by
    `scale` (2.0 = twice as fast), and advance() still adds a jump on top.
    """

    def __init__(self, start_ms=0, realtime=False, scale=1.0):
        if scale <= 0:
            raise ValueError("clock scale must be > 0, got %r" % (scale,))
        self._base_ms = int(start_ms)
        self.realtime = bool(realtime)
        self.scale = float(scale)
        self._t0 = time.monotonic()
        self._installed = False

    def now_ms(self):
        """Current virtual time in whole milliseconds (never goes backwards)."""
        if self.realtime:
            return self._base_ms + int((time.monotonic() - self._t0) * 1000.0 * self.scale)
        return self._base_ms

    def advance(self, ms):
        """Move time forward by ms (>= 0); returns the new now_ms()."""
        if ms < 0:
            raise ValueError("a clock cannot go backwards (advance(%r))" % (ms,))
        self._base_ms += int(ms)
        return self.now_ms()

    def set_realtime(self, on=True, scale=None):
        """Switch mode without a jump in now_ms()."""
        now = self.now_ms()
        if scale is not None:
            if scale <= 0:
                raise ValueError("clock scale must be > 0, got %r" % (scale,))
            self.scale = float(scale)
        self.realtime = bool(on)
        self._base_ms = now
        self._t0 = time.monotonic()

    def install(self):
        """Make firmware.compat.ticks_ms() follow this clock (CPython only)."""
        from firmware import compat

        compat.set_clock(self.now_ms, self.sleep)
        self._installed = True
        return self

    def sleep(self, ms):
        """The firmware's blocking sleep (compat.sleep_ms: an LCD's power-up waits), the board blocked that
        long: stepped, the clock moves on at once; in real time, the host waits (at the clock's scale)."""
        if self.realtime:
            time.sleep(ms / 1000.0 / self.scale)
        else:
            self.advance(ms)

    def uninstall(self):
        """Give firmware.compat back the host's real monotonic clock."""
        if self._installed:
            from firmware import compat

            compat.set_clock(None)
            self._installed = False

    @property
    def installed(self):
        return self._installed

    def __repr__(self):
        mode = "realtime x%g" % self.scale if self.realtime else "stepped"
        return "<VirtualClock %d ms, %s>" % (self.now_ms(), mode)
