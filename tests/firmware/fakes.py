# Minimal stand-ins for hardware objects, usable on MicroPython (no hostsim there).


class FakeStrip:
    """A neopixel-like strip that counts writes."""

    def __init__(self, n):
        self.n = n
        self.pixels = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, colour):
        self.pixels[i] = colour

    def __getitem__(self, i):
        return self.pixels[i]

    def __len__(self):
        return self.n

    def write(self):
        self.writes += 1


class FakeUART:
    """Bytes fed by the test are read by the firmware; writes are collected."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()

    def feed(self, data):
        self.rx.extend(data)

    def any(self):
        return len(self.rx)

    def readinto(self, buf, n=None):
        n = len(buf) if n is None else n
        n = min(n, len(self.rx))
        for i in range(n):
            buf[i] = self.rx[i]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        self.tx.extend(data)
        return len(data)

    def lines(self):
        return [bytes(l).decode() for l in bytes(self.tx).split(b"\r\n") if l]


class FakePin:
    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


class FakeMachine:
    """Enough of `machine` for firmware.hardware.bring_up on either runtime."""

    def __init__(self):
        self.uarts = {}
        self.pins = {}
        self.fed = 0
        self.resets = 0
        machine = self

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1

            def __init__(self, pin_id, mode=-1, pull=-1):
                self.id = pin_id
                self.level = 1
                machine.pins[pin_id] = self

            def value(self, v=None):
                if v is None:
                    return self.level
                self.level = v

        class UART(FakeUART):
            def __init__(self, uart_id, baudrate=9600, tx=None, rx=None, timeout=0):
                FakeUART.__init__(self)
                machine.uarts[uart_id] = self

        class I2C:
            def __init__(self, bus_id, scl=None, sda=None, freq=0):
                self.bus_id = bus_id

        class WDT:
            def __init__(self, timeout=0):
                self.timeout = timeout

            def feed(self):
                machine.fed += 1

        self.Pin = Pin
        self.UART = UART
        self.I2C = I2C
        self.WDT = WDT

    def reset_cause(self):
        return 1

    def reset(self):
        self.resets += 1


class FakeNeoPixelModule:
    def __init__(self):
        self.strips = []

    def NeoPixel(self, pin, n):
        strip = FakeStrip(n)
        self.strips.append(strip)
        return strip


class FakeLCD:
    """Records the lines shown; address 0x26 can be made absent."""
    missing = ()

    def __init__(self, i2c, addr, cols, rows):
        if addr in FakeLCD.missing:
            raise OSError(19)
        self.addr = addr
        self.lines = []

    def show(self, lines):
        self.lines = list(lines)
