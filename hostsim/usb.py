# The USB console of a board whose console port is {"usb": true}, as the UART-like object the firmware reads.
#
# On the board this is the REPL's USB CDC port (firmware/drivers/usb_console.py
# reads it through sys.stdin/sys.stdout). In the simulator the host's stdin and
# stdout belong to the simulator itself (keys, live view, plain output), so the
# console gets its own endpoint instead: a pty a person attaches to, or a
# loopback in tests, found as hardware.port("console"). The simulator hands a
# UsbConsole to firmware.main.run(usb_console=...).
from hostsim import hardware as _hw
from hostsim.machine import UART


class UsbConsole(UART):
    """any/read/readinto/readline/write of machine.UART over the Hardware's USB console endpoint."""

    def __init__(self):
        self._state = _hw.current().usb_console()
        self._state.configured = True
        self.timeout = 0

    def init(self, *args, **kwargs):
        pass                    # a USB CDC port has no baud rate or pins

    def __repr__(self):
        return "<UsbConsole %r>" % (self._state.endpoint,)
