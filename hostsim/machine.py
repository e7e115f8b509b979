# MicroPython's `machine` module, simulated: Pin, UART, I2C, WDT, Timer, reset and friends.
#
# hostsim.hardware.install() registers this module as sys.modules["machine"].
# Objects here are handles onto hostsim.hardware state, so what the firmware
# does is visible to tests and to the simulator's view, and what the host
# does (a button press, bytes on a serial port) reaches the firmware. As
# MicroPython's own port splits it: Pin in hostsim/machine_pin.py, UART and
# I2C in hostsim/machine_buses.py (both exported here, the firmware's only
# way to them); the watchdog, timers, resets and the CPU here.
from hostsim import hardware as _hw
from hostsim.machine_buses import I2C, UART  # noqa: F401  (machine.I2C, machine.UART)
from hostsim.machine_pin import Pin, _pin_id  # noqa: F401  (machine.Pin; _pin_id for neopixel, rp2)
from hostsim.resets import (  # noqa: F401  (machine's reset_cause() values)
    DEEPSLEEP_RESET, HARD_RESET, PWRON_RESET, SOFT_RESET, WDT_RESET, SimReset,
)


class WDT:
    """WDT(id=0, timeout=ms): once started only a reset stops it; the host checks expiry on the virtual clock."""

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%r) doesn't exist" % (id,))
        if not isinstance(timeout, int) or timeout <= 0:
            raise ValueError("WDT timeout must be a positive number of ms, got %r" % (timeout,))
        _hw.current().watchdog.start(timeout)

    def feed(self):
        hw = _hw.current()
        hw.check_watchdog()     # it already bit: the board would have reset by now
        hw.watchdog.feed()


class Timer:
    """Timer(id=-1, mode=PERIODIC, period=ms | freq=hz, callback=f): fires as the host advances the clock."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, **kwargs):
        if not isinstance(id, int) or not -1 <= id <= 3:
            raise ValueError("Timer(%r) doesn't exist" % (id,))
        self._id = id
        self._entry = None
        if kwargs:
            self.init(**kwargs)

    def init(self, mode=PERIODIC, freq=-1, period=-1, callback=None, tick_hz=1000):
        self.deinit()
        if freq is not None and freq > 0:
            period_ms = max(1, int(round(1000 / freq)))
        elif period is not None and period >= 0:
            period_ms = int(period * 1000 // tick_hz)
        else:
            raise ValueError("Timer needs period= or freq=")
        if mode not in (Timer.ONE_SHOT, Timer.PERIODIC):
            raise ValueError("invalid timer mode %r" % (mode,))
        hw = _hw.current()
        self._entry = _hw.TimerState(self, mode == Timer.PERIODIC, period_ms, callback,
                                     hw.clock.now_ms() + period_ms)
        hw.timers.append(self._entry)

    def deinit(self):
        if self._entry is not None:
            timers = _hw.current().timers
            if self._entry in timers:
                timers.remove(self._entry)
            self._entry = None

    def __repr__(self):
        e = self._entry
        if e is None:
            return "Timer(%d)" % self._id
        return "Timer(%d, mode=%s, period=%d)" % (self._id, "PERIODIC" if e.periodic else "ONE_SHOT", e.period_ms)


def reset():
    """Hard reset: never returns (the simulator reboots the firmware)."""
    raise SimReset(HARD_RESET, "machine.reset()")


def soft_reset():
    raise SimReset(SOFT_RESET, "machine.soft_reset()")


def reset_cause():
    return _hw.current().reset_cause


def unique_id():
    return b"HOSTSIM\x01"


def freq(hz=None):
    hw = _hw.current()
    if hz is None:
        return hw.freq_hz
    if not isinstance(hz, int) or hz <= 0:
        raise ValueError("invalid freq %r" % (hz,))
    hw.freq_hz = hz


def disable_irq():
    hw = _hw.current()
    state = hw.irq_enabled
    hw._set_irq_enabled(False)
    return state


def enable_irq(state=True):
    _hw.current()._set_irq_enabled(state)


def idle():
    pass
