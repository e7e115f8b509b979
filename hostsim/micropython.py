# MicroPython's `micropython` module for the simulated board: what the firmware calls on CPython.
#
# firmware/compat.py's kbd_intr reaches it through sys.modules (hostsim.hardware installs it):
# the simulated board records which byte would interrupt Python on its REPL console, so a test
# sees the REPL closed (-1) or open (3: Ctrl-C, service mode) the way the board would set it.
from hostsim import hardware as _hw


def kbd_intr(char):
    """Record the REPL's interrupt byte on the current simulated board (-1: none)."""
    hw = _hw.current()
    hw.kbd_intr = char
    hw.kbd_intr_calls.append(char)


def const(value):
    return value
