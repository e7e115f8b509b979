# The host side of the simulated MCU's other peripherals: UART endpoints, the watchdog, a pixel strip's
# last frame, a machine.Timer and the running timers in due order. hostsim/hardware.py's Hardware owns them; hostsim/machine.py's
# firmware-facing classes find them there.


class UartState:
    """One UART peripheral (or the USB console, id "usb", or a PIO UART, id "pio0.0") and its host endpoint.

    The endpoint is a pty or a loopback (hostsim.serialport). A PIO port's
    bytes are moved by the state machines wired to its tx/rx pins
    (hostsim.pio), not through rx_data.
    """

    def __init__(self, uart_id, endpoint):
        self.id = uart_id
        self.endpoint = endpoint
        self.roles = []         # board roles ("shoe", "host", ...); shoe and dice may share a UART
        self.configured = False
        self.baudrate = 115200
        self.tx = None
        self.rx = None
        self.rxbuf = 256
        self.rx_data = bytearray()  # received, not yet read by the firmware
        self.tx_count = 0
        self.rx_count = 0

    @property
    def role(self):
        """The board roles joined ("dice/shoe" for a shared UART), None when unknown."""
        return "/".join(self.roles) or None

    @property
    def path(self):
        """The pty slave path a person opens, or None for a loopback endpoint."""
        return self.endpoint.path

    def pull(self):
        """Move bytes from the endpoint into the receive buffer, up to rxbuf (flow control: nothing lost)."""
        room = self.rxbuf - len(self.rx_data)
        if room > 0:
            data = self.endpoint.fw_read(room)
            if data:
                self.rx_data += data
                self.rx_count += len(data)
        return len(self.rx_data)

    def reset(self):
        self.configured = False
        self.rx_data = bytearray()

    def __repr__(self):
        return "<UartState %d %s %r>" % (self.id, self.role or "-", self.endpoint)


class Watchdog:
    """machine.WDT's host side: expiry is judged on the virtual clock."""

    def __init__(self, clock):
        self.clock = clock
        self.started = False
        self.timeout_ms = 0
        self.last_feed_ms = 0
        self.feeds = 0

    def start(self, timeout_ms):
        self.started = True
        self.timeout_ms = timeout_ms
        self.last_feed_ms = self.clock.now_ms()

    def feed(self):
        self.last_feed_ms = self.clock.now_ms()
        self.feeds += 1

    def remaining_ms(self):
        """Milliseconds until the watchdog bites (None when not started)."""
        if not self.started:
            return None
        return self.timeout_ms - (self.clock.now_ms() - self.last_feed_ms)

    def expired(self):
        return self.started and self.clock.now_ms() - self.last_feed_ms > self.timeout_ms

    def stop(self):
        """Only a reset stops a MicroPython watchdog."""
        self.started = False
        self.feeds = 0


class PixelStrip:
    """What a WS2812 strip on one pin received: latest bytes (wire order GRB[W]) and a write count."""

    def __init__(self, pin_id, bpp=3):
        self.pin = pin_id
        self.bpp = bpp
        self.raw = b""
        self.writes = 0

    def record(self, buf):
        self.raw = bytes(buf)
        self.writes += 1

    def pixels(self):
        """Latest colours as (r, g, b) tuples ((r, g, b, w) for 4 bytes per pixel)."""
        raw, bpp = self.raw, self.bpp
        out = []
        for i in range(0, len(raw) - bpp + 1, bpp):
            g, r, b = raw[i], raw[i + 1], raw[i + 2]
            out.append((r, g, b, raw[i + 3]) if bpp == 4 else (r, g, b))
        return out

    def pixel(self, index):
        ps = self.pixels()
        return ps[index] if 0 <= index < len(ps) else None

    def __len__(self):
        return len(self.raw) // self.bpp

    def __repr__(self):
        return "<PixelStrip GP%d %d px, %d writes>" % (self.pin, len(self), self.writes)


class TimerState:
    def __init__(self, handle, periodic, period_ms, callback, due_ms):
        self.handle = handle
        self.periodic = periodic
        self.period_ms = period_ms
        self.callback = callback
        self.due_ms = due_ms
        self.fired = 0


class Timers(list):
    """The running machine.Timers (TimerState), fired in due order as the host moves the clock."""

    def next_due(self, limit):
        """The timer due first at or before limit (ms), or None."""
        best = None
        for t in self:
            if t.due_ms <= limit and (best is None or t.due_ms < best.due_ms):
                best = t
        return best

    def fire(self, t):
        """Fire one timer: a periodic one comes due again a period later, a one-shot one stops."""
        if t.periodic:
            t.due_ms += max(1, t.period_ms)
        else:
            self.remove(t)
        t.fired += 1
        if t.callback is not None:
            t.callback(t.handle)

    def fire_due(self, now_ms):
        """Fire every timer due at now_ms (periodic ones catch up) -> how many fired."""
        fired = 0
        while True:
            due = self.next_due(now_ms)
            if due is None:
                return fired
            self.fire(due)
            fired += 1
