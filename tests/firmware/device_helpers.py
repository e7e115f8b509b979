# Frames and event capture for the device-line tests (both runtimes; no hostsim on MicroPython).
from firmware.device_frame import encode


class Sender:
    """A device's side of the line: frames with its own counter (firmware encoder)."""

    def __init__(self, device, counter=0, version=1):
        self.device = device
        self.counter = counter
        self.version = version

    def __call__(self, kind, *words):
        line = encode(self.device, self.version, self.counter, kind, words)
        self.counter = (self.counter + 1) & 0xFF
        return line

    def hello(self, firmware="fw1"):
        self.counter = 0
        return self("HELLO", firmware)


def drain(queue):
    """Every queued event as (kind, a, b)."""
    out = []
    while queue.get():
        out.append((queue.kind, queue.a, queue.b))
    return out


def kinds(events):
    return [(k, a) for k, a, _ in events]


class LineSource:
    """A line source like SerialLine: poll(elapsed_ms) hands out queued lines, one outcome per poll;
    `drops` lines are thrown away first (fault LINE_TOO_LONG, no bytes kept), as SerialLine does."""

    def __init__(self, lines=()):
        self.lines = list(lines)
        self.drops = 0
        self.fault = 0
        self.buf = bytearray(0)
        self.fault_len = 0

    def poll(self, elapsed_ms=0):
        self.fault = 0
        if self.drops:
            self.drops -= 1
            from firmware import faults    # here: a code table no booted table imports (bench/memory_vm.py
            self.fault = faults.LINE_TOO_LONG  # counts the firmware modules imported after a boot as the table's)
            return None
        return self.lines.pop(0) if self.lines else None
