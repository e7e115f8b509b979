# MicroPython's `machine` module, simulated: Pin, UART, I2C, WDT, Timer, reset and friends.
#
# hostsim.hardware.install() registers this module as sys.modules["machine"].
# Objects here are handles onto hostsim.hardware state, so what the firmware
# does is visible to tests and to the simulator's view, and what the host
# does (a button press, bytes on a serial port) reaches the firmware.
# Deviations from a board: UART/I2C never wait (timeouts are not simulated:
# reads return what has already arrived), and pin IRQs run at once in the
# caller of set_input()/press() (as a soft IRQ would, at the next safe point).
import errno

from hostsim import hardware as _hw
from hostsim.hardware import (  # noqa: F401  (re-exported constants)
    DEEPSLEEP_RESET, HARD_RESET, PWRON_RESET, SOFT_RESET, WDT_RESET, SimReset,
)

_UNSET = object()


def _pin_id(pin):
    """Pin object, int or name ("GP5", "D5", "GPIO5") -> GPIO number; ValueError otherwise."""
    if isinstance(pin, Pin):
        return pin._state.id
    if isinstance(pin, bool):
        raise ValueError("invalid pin %r" % (pin,))
    if isinstance(pin, int):
        return pin
    if isinstance(pin, str):
        for prefix in ("GPIO", "GP", "D"):
            if pin.startswith(prefix) and pin[len(prefix):].isdigit():
                return int(pin[len(prefix):])
        raise ValueError("unknown named pin \"%s\"" % pin)
    raise ValueError("invalid pin %r" % (pin,))


class Pin:
    IN = _hw.IN
    OUT = _hw.OUT
    OPEN_DRAIN = _hw.OPEN_DRAIN
    ALT = _hw.ALT
    PULL_UP = _hw.PULL_UP
    PULL_DOWN = _hw.PULL_DOWN
    IRQ_FALLING = _hw.IRQ_FALLING
    IRQ_RISING = _hw.IRQ_RISING

    def __init__(self, id, mode=-1, pull=-1, value=None, **kwargs):
        self._state = _hw.current().pin(_pin_id(id))
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs):
        st = self._state
        before = st.level
        if value is not None:
            st.out = 1 if value else 0
        if mode is not None and mode != -1:
            if mode not in (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN, Pin.ALT):
                raise ValueError("invalid pin mode %r" % (mode,))
            st.mode = mode
        if pull != -1:
            if pull not in (None, Pin.PULL_UP, Pin.PULL_DOWN):
                raise ValueError("invalid pull %r" % (pull,))
            st.pull = pull
        st._firmware_wrote(before)

    def value(self, x=_UNSET):
        st = self._state
        if x is _UNSET:
            return st.out if st.mode == Pin.OUT else st.level
        before = st.level
        st.out = 1 if x else 0
        st._firmware_wrote(before)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(0 if self._state.out else 1)

    def mode(self, mode=_UNSET):
        if mode is _UNSET:
            return self._state.mode
        self.init(mode)

    def pull(self, pull=_UNSET):
        if pull is _UNSET:
            return self._state.pull
        self.init(-1, pull)

    def irq(self, handler=_UNSET, trigger=IRQ_FALLING | IRQ_RISING, priority=1, wake=None, hard=False):
        st = self._state
        if handler is not _UNSET:
            st.handler = handler
            st.trigger = trigger if handler is not None else 0
            st.handle = self
        return _PinIRQ(st)

    def __eq__(self, other):
        return isinstance(other, Pin) and other._state is self._state

    def __hash__(self):
        return hash(("Pin", self._state.id))

    def __repr__(self):
        st = self._state
        return "Pin(GPIO%d, mode=%s%s)" % (st.id, ("IN", "OUT", "OPEN_DRAIN", "ALT")[st.mode],
                                           {None: "", 1: ", pull=PULL_UP", 2: ", pull=PULL_DOWN"}[st.pull])


class _PinIRQ:
    def __init__(self, state):
        self._state = state

    def trigger(self, trigger=None):
        if trigger is not None:
            self._state.trigger = trigger
        return self._state.trigger

    def flags(self):
        return self._state.trigger


def _buffer(buf):
    if isinstance(buf, str):
        return buf.encode()
    return bytes(buf)


class UART:
    """UART(id, baudrate=..., tx=, rx=, timeout=0, rxbuf=...): never blocks; reads give what has arrived."""

    INV_TX = 1
    INV_RX = 2
    RTS = 1
    CTS = 2

    def __init__(self, id, baudrate=_UNSET, bits=8, parity=None, stop=1, **kwargs):
        self._state = _hw.current().uart(id)
        if baudrate is _UNSET and not self._state.configured:
            baudrate = 115200
        self.init(baudrate, bits, parity, stop, **kwargs)

    def init(self, baudrate=_UNSET, bits=8, parity=None, stop=1, tx=None, rx=None, timeout=0,
             timeout_char=0, rxbuf=None, txbuf=None, flow=0, invert=0):
        st = self._state
        if baudrate is not _UNSET:
            if not isinstance(baudrate, int) or baudrate <= 0:
                raise ValueError("invalid baudrate %r" % (baudrate,))
            st.baudrate = baudrate
        if bits not in (5, 6, 7, 8, 9):
            raise ValueError("invalid bits %r" % (bits,))
        if parity not in (None, 0, 1):
            raise ValueError("invalid parity %r" % (parity,))
        if stop not in (1, 2):
            raise ValueError("invalid stop bits %r" % (stop,))
        hw = _hw.current()
        if tx is not None:
            st.tx = hw.pin(_pin_id(tx)).id
        if rx is not None:
            st.rx = hw.pin(_pin_id(rx)).id
        if rxbuf is not None:
            if rxbuf < 1:
                raise ValueError("rxbuf must be >= 1")
            st.rxbuf = rxbuf
        self.timeout = timeout
        st.configured = True

    def deinit(self):
        self._state.configured = False

    def any(self):
        return self._state.pull()

    def read(self, nbytes=None):
        st = self._state
        st.pull()
        if not st.rx_data:
            return None
        n = len(st.rx_data) if nbytes is None else min(nbytes, len(st.rx_data))
        out = bytes(st.rx_data[:n])
        del st.rx_data[:n]
        return out

    def readinto(self, buf, nbytes=None):
        st = self._state
        st.pull()
        if not st.rx_data:
            return None
        n = len(buf) if nbytes is None else min(nbytes, len(buf))
        n = min(n, len(st.rx_data))
        buf[:n] = st.rx_data[:n]
        del st.rx_data[:n]
        return n

    def readline(self):
        st = self._state
        st.pull()
        if not st.rx_data:
            return None
        end = st.rx_data.find(b"\n")
        n = len(st.rx_data) if end < 0 else end + 1
        out = bytes(st.rx_data[:n])
        del st.rx_data[:n]
        return out

    def write(self, buf):
        st = self._state
        data = _buffer(buf)
        st.endpoint.fw_write(data)
        st.tx_count += len(data)
        return len(data)

    def flush(self):
        pass

    def txdone(self):
        return True

    def sendbreak(self):
        pass

    def __repr__(self):
        st = self._state
        return "UART(%d, baudrate=%d, tx=%s, rx=%s)" % (st.id, st.baudrate, st.tx, st.rx)


def _no_device(addr):
    return OSError(errno.ENODEV, "ENODEV: no I2C device at address 0x%02x" % addr)


class I2C:
    """I2C(id, scl=, sda=, freq=): transactions go to devices attached with hardware.attach_i2c(bus, addr, dev)."""

    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        hw = _hw.current()
        hw.check_i2c(id)
        self._id = id
        self.init(scl=scl, sda=sda, freq=freq)
        hw.i2c_buses[id] = self._config

    def init(self, scl=None, sda=None, freq=400000, timeout=50000):
        hw = _hw.current()
        if not isinstance(freq, int) or freq <= 0:
            raise ValueError("invalid freq %r" % (freq,))
        self._config = {"scl": hw.pin(_pin_id(scl)).id if scl is not None else None,
                        "sda": hw.pin(_pin_id(sda)).id if sda is not None else None,
                        "freq": freq}

    def _device(self, addr):
        dev = _hw.current().i2c_device(self._id, addr)
        if dev is None:
            raise _no_device(addr)
        return dev

    def scan(self):
        return sorted(addr for bus, addr in _hw.current().i2c_devices if bus == self._id)

    def writeto(self, addr, buf, stop=True):
        data = _buffer(buf)
        self._device(addr).i2c_write(data)
        return len(data)

    def writevto(self, addr, vector, stop=True):
        return self.writeto(addr, b"".join(_buffer(b) for b in vector), stop)

    def readfrom(self, addr, nbytes, stop=True):
        return bytes(self._device(addr).i2c_read(nbytes))

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf), stop)
        buf[:len(data)] = data

    @staticmethod
    def _memaddr(memaddr, addrsize):
        return memaddr.to_bytes(addrsize // 8, "big")

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        self._device(addr).i2c_write(self._memaddr(memaddr, addrsize) + _buffer(buf))

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        dev = self._device(addr)
        dev.i2c_write(self._memaddr(memaddr, addrsize))
        return bytes(dev.i2c_read(nbytes))

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        data = self.readfrom_mem(addr, memaddr, len(buf), addrsize)
        buf[:len(data)] = data

    def __repr__(self):
        return "I2C(%d, scl=%s, sda=%s, freq=%d)" % (self._id, self._config["scl"], self._config["sda"],
                                                     self._config["freq"])


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
