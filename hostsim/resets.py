# The simulated MCU's resets: machine.reset_cause()'s values and SimReset, what stops the firmware when the
# MCU resets. hostsim/hardware.py raises it (an expired watchdog) and re-exports it; hostsim/machine.py
# raises it for machine.reset()/soft_reset().

# machine.reset_cause() values (ESP32/rp2 numbering).
PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5
RESET_NAMES = {PWRON_RESET: "power-on", HARD_RESET: "hard reset", WDT_RESET: "watchdog",
               DEEPSLEEP_RESET: "deep sleep", SOFT_RESET: "soft reset"}


class SimReset(SystemExit):
    """The simulated MCU reset: machine.reset()/soft_reset() or an expired watchdog.

    A BaseException (via SystemExit) so firmware's `except Exception` recovery
    cannot swallow it, and SystemExit in particular because asyncio lets it
    escape a task and stop the event loop at once, as a real reset stops
    everything. The simulator catches it, calls hardware.reboot(exc.cause)
    and boots the firmware again.
    """

    def __init__(self, cause, reason=""):
        SystemExit.__init__(self, "simulated reset: %s%s" % (RESET_NAMES.get(cause, cause),
                                                            (" (" + reason + ")") if reason else ""))
        self.cause = cause
        self.reason = reason

    @property
    def soft(self):
        return self.cause == SOFT_RESET
