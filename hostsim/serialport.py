# Host ends of the simulated UARTs: a pseudo-terminal a person attaches to, or an in-memory loopback for tests.
#
# Both classes give the simulated UART the same two calls, named from the
# firmware's side of the wire:
#   fw_write(data) -> n      bytes the firmware transmits (host receives them)
#   fw_read(max_n) -> bytes  up to max_n bytes the host sent (b"" when none)
# Nothing blocks: the firmware's UART is polled, never waited on.
# Host code sends to the firmware with feed(data) on either kind, and may
# watch the firmware's output with taps (callables given each fw_write's
# bytes) without taking it from a terminal attached to a pty.
import errno
import os
import tty


class LoopbackPort:
    """In-memory serial endpoint: tests feed() what the peer sends and take() what the firmware sent."""

    kind = "loopback"
    path = None

    def __init__(self):
        self._to_firmware = bytearray()
        self._from_firmware = bytearray()
        self.taps = []
        self.closed = False

    # host side
    def feed(self, data):
        """Queue bytes for the firmware to read (as if the peer device sent them)."""
        if isinstance(data, str):
            data = data.encode()
        self._to_firmware += data

    def take(self):
        """Everything the firmware has written since the last take(), as bytes."""
        out = bytes(self._from_firmware)
        self._from_firmware.clear()
        return out

    def pending(self):
        """How many fed bytes the firmware has not read yet."""
        return len(self._to_firmware)

    def withdraw(self):
        """Take back the fed bytes the firmware has not read (the peer holds them while the board is off)."""
        data, self._to_firmware = bytes(self._to_firmware), type(self._to_firmware)()
        return data

    def close(self):
        self.closed = True

    # firmware side
    def fw_write(self, data):
        data = bytes(data)
        self._from_firmware += data
        for tap in self.taps:
            tap(data)
        return len(data)

    def fw_read(self, max_n):
        out = bytes(self._to_firmware[:max_n])
        del self._to_firmware[:max_n]
        return out

    def __repr__(self):
        return "<LoopbackPort>"


class PtyPort:
    """A pseudo-terminal: the firmware's UART is the master, `.path` is the slave device.

    Attach with `picocom -b 115200 PATH`, `screen PATH 115200` or
    `serial.Serial(PATH)`; the baud rate is irrelevant on a pty. The slave is
    put in raw mode (no echo, no CR/LF translation) and kept open by us, so
    the port survives a client detaching and re-attaching. Bytes the firmware
    writes while nobody reads wait in the kernel's pty buffer; when that is
    full further bytes are dropped and counted in `.dropped`, as a real UART
    with nobody listening loses them.
    """

    kind = "pty"

    def __init__(self):
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        os.set_blocking(self._slave, False)    # our descriptor only; a client's open is its own
        self.path = os.ttyname(self._slave)
        self.taps = []
        self.dropped = 0
        self.closed = False

    def feed(self, data):
        """Send bytes to the firmware from the device side, as an attached terminal would.

        Returns how many were queued (fewer only if the firmware has left the
        kernel's buffer full).
        """
        if isinstance(data, str):
            data = data.encode()
        sent = 0
        while sent < len(data) and not self.closed:
            try:
                sent += os.write(self._slave, data[sent:])
            except BlockingIOError:
                break
        return sent

    def fileno(self):
        """The master fd (for select/poll in a host loop)."""
        return self._master

    def close(self):
        if not self.closed:
            self.closed = True
            for fd in (self._master, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass

    def fw_write(self, data):
        if self.closed:
            return 0
        data = bytes(data)
        for tap in self.taps:
            tap(data)
        sent = 0
        while sent < len(data):
            try:
                sent += os.write(self._master, data[sent:])
            except BlockingIOError:
                break
            except OSError as exc:
                if exc.errno != errno.EIO:
                    raise
                break
        self.dropped += len(data) - sent
        return len(data)

    def fw_read(self, max_n):
        if self.closed or max_n <= 0:
            return b""
        try:
            return os.read(self._master, max_n)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:   # no slave open (not the case while we hold it)
                return b""
            raise

    def __del__(self):
        self.close()

    def __repr__(self):
        return "<PtyPort %s>" % self.path


def make_port(kind):
    """'loopback' or 'pty' -> a new endpoint."""
    if kind == "loopback":
        return LoopbackPort()
    if kind == "pty":
        return PtyPort()
    raise ValueError("serial endpoint kind must be 'loopback' or 'pty', got %r" % (kind,))
