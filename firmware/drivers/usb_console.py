# The USB REPL port as a console line: a UART-like adapter over sys.stdin/sys.stdout.
#
# Boards whose console role is {"usb": true} talk to the technician over the
# same USB CDC port as the REPL. Reads are polled (select.poll, no blocking), so
# SerialLine works unchanged on top; Ctrl-C still interrupts the firmware, which
# is how mpremote takes the board back for a deploy.
import select


class StdioUART:
    def __init__(self, stdin, stdout, poller=None):
        self._in = getattr(stdin, "buffer", stdin)
        self._out = getattr(stdout, "buffer", stdout)
        self._poll = select.poll() if poller is None else poller
        self._poll.register(stdin, select.POLLIN)
        # any() runs every pass: MicroPython's ipoll() iterates the poll object itself, allocation-free,
        # where poll() makes a list each call (CPython's poll has no ipoll: poll() there).
        self._ipoll = getattr(self._poll, "ipoll", None)

    def any(self):
        ipoll = self._ipoll
        if ipoll is None:
            return 1 if self._poll.poll(0) else 0
        for _ in ipoll(0):
            return 1
        return 0

    def readinto(self, buf, nbytes=None):
        data = self._in.read(1)
        if not data:
            return 0
        buf[0] = data[0]
        return 1

    def write(self, data):
        n = self._out.write(data)
        if hasattr(self._out, "flush"):
            self._out.flush()
        return n
