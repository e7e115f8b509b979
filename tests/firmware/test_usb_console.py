# The USB REPL port as the console's line (firmware/drivers/usb_console.py): polled each pass, so its any()
# must allocate nothing on MicroPython (the dormant console asks it every pass). The pollers here follow
# MicroPython's select.poll: poll() makes a new list each call, ipoll() iterates the poll object itself.
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers.usb_console import StdioUART


class _Stream:
    def __init__(self):
        self.data = bytearray()
        self.written = bytearray()

    def read(self, n):
        out = bytes(self.data[:n])
        self.data[:n] = b""
        return out

    def write(self, b):
        self.written += b
        return len(b)


class _ListPoller:
    """A poll object with poll() only (CPython's): a new list each call."""

    def __init__(self):
        self.stream = None
        self.polls = 0

    def register(self, stream, mask):
        self.stream = stream

    def poll(self, timeout):
        self.polls += 1
        return [(self.stream, 1)] if self.stream.data else []


class _MicroPythonPoller(_ListPoller):
    """MicroPython's: ipoll() gives the poll object itself, its one tuple reused."""

    def __init__(self):
        _ListPoller.__init__(self)
        self._ready = None
        self._done = False

    def register(self, stream, mask):
        _ListPoller.register(self, stream, mask)
        self._ready = (stream, 1)

    def ipoll(self, timeout):
        self._done = not self.stream.data
        return self

    def __iter__(self):
        return self

    def __next__(self):
        if self._done:
            raise StopIteration
        self._done = True
        return self._ready


def test_any_uses_ipoll_where_the_port_has_it_and_allocates_nothing():
    stdin, stdout = _Stream(), _Stream()
    poller = _MicroPythonPoller()
    uart = StdioUART(stdin, stdout, poller)
    buf = bytearray(1)
    heap_lock()
    try:
        quiet = uart.any()
    finally:
        heap_unlock()
    stdin.data += b"v"
    heap_lock()
    try:
        ready = uart.any()
    finally:
        heap_unlock()
    assert (quiet, ready, poller.polls) == (0, 1, 0)
    assert uart.readinto(buf, 1) == 1 and buf == b"v" and uart.any() == 0


def test_any_polls_where_there_is_no_ipoll():
    stdin, stdout = _Stream(), _Stream()
    poller = _ListPoller()
    uart = StdioUART(stdin, stdout, poller)
    assert uart.any() == 0
    stdin.data += b"ab"
    assert uart.any() == 1 and poller.polls == 2
    assert uart.write(b"> ") == 2 and stdout.written == b"> "


def test_readinto_takes_one_byte_at_a_time_and_none_when_nothing_waits():
    # A byte a call (the port is polled: a read never waits for more), so none typed is ever dropped: a
    # mutant that read two and kept one lived, and one that answered 1 with nothing read (the last byte
    # again) too.
    stdin, stdout = _Stream(), _Stream()
    uart = StdioUART(stdin, stdout, _ListPoller())
    buf = bytearray(1)
    stdin.data += b"ab"
    got = []
    while uart.any():
        assert uart.readinto(buf, 1) == 1
        got.append(bytes(buf))
    assert got == [b"a", b"b"] and uart.readinto(buf, 1) == 0
