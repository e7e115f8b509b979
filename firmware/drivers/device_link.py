# What every framed device driver does with a line: check the frame, track the counter, report faults.
#
# The shoe, the bet reader and (later) the dice reader subclass DeviceLink and
# only say what their messages mean (_message). The line source is injected:
# anything with poll() -> a complete line (bytes, no CR/LF) or None, such as
# drivers.serial_line.SerialLine; this driver never reads the UART itself.
#
# Every refusal is a FAULT event whose b is an evidence handle for the line
# (firmware.evidence), so the report can show the bytes. Nothing in a refused
# line is used, and nothing is guessed: a lost frame is reported, never filled.
# handle() allocates nothing beyond what the queue and evidence store own.
from firmware.device_frame import Frame, Sequence

# copies of firmware.device_frame (tests/host/test_const_copies.py)
_BAD_ARGS = const(7)
_BAD_CRC = const(3)
_BAD_SYNTAX = const(2)
_OK = const(0)
_SEQ_CONFLICT = const(2)
_SEQ_DUPLICATE = const(1)
_SEQ_GAP = const(3)
_TOO_LONG = const(1)
_UNKNOWN_TYPE = const(6)
# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)
# copies of firmware.faults (tests/host/test_const_copies.py)
_FRAME_CONFLICT = const(39)
_FRAME_LOST = const(38)
_FRAME_SYNTAX = const(32)
_LINE_TOO_LONG = const(3)

_HELLO = const(0)    # every device's message type 0 is HELLO <firmware>: the device (re)started


class DeviceLink:
    def __init__(self, source, queue, evidence, device, version, types):
        if types[0][0] != b"HELLO":
            raise ValueError("a device's message type 0 must be HELLO")
        self.source = source
        self.queue = queue
        self.evidence = evidence
        self.frame = Frame(device, version, types)
        self.fault_event = _FAULT    # the event kind its faults are posted as (the bet reader has its own)
        self.sequence = Sequence()
        # Counters for the console and the host report.
        self.frames_ok = 0       # frames accepted and acted on
        self.crc_errors = 0      # lines refused for their checksum
        self.bad_frames = 0      # other refused lines (syntax, device, version, type, arguments)
        self.lost = 0            # frames missing from the counter sequence
        self.duplicates = 0      # repeated frames dropped
        self.restarts = 0        # HELLOs (device power-ups)
        self.dropped_lines = 0   # lines the source threw away (overlong, partial timeout)
        # While a dropped line is handled: its evidence, what a fault it causes shows (keep_line)
        self._dropped = 0

    def poll(self, elapsed_ms=0):
        """Handle at most one outcome of the source (a line, or a line it dropped); True when there was one.

        The source is a firmware.drivers.serial_line.SerialLine (or alike): poll(elapsed_ms) returns a
        complete line or None, and after a dropped line (too long, or stopped mid-way) sets .fault with
        the dropped bytes in .buf[:.fault_len]."""
        source = self.source
        line = source.poll(elapsed_ms)
        if source.fault:
            self.line_dropped(source.fault, self.evidence.keep(source.buf, 0, source.fault_len))
            return True
        if line is None:
            return False
        self.handle(line)
        return True

    def line_dropped(self, code, evidence=0):
        """The source threw a line away (code: why); its frame is lost, the counter will show it."""
        self.dropped_lines += 1
        frame = self.frame
        frame.line = b""                 # no frame to show: keep no other line's bytes as evidence
        frame.length = 0
        self.queue.put(self.fault_event, code, evidence)
        self._dropped = evidence         # a reading it breaks is refused showing the dropped bytes
        self._broken()
        self._dropped = 0

    def handle(self, line, n=-1):
        """One line (no CR/LF) -> events on the queue."""
        frame = self.frame
        status = frame.decode(line, n)
        n = frame.length
        kind = frame.type
        if status == _OK or status == _UNKNOWN_TYPE or status == _BAD_ARGS:
            # The checksum holds: the counter is the device's own, even if the message is refused.
            seq = self.sequence.track(line, n, frame.counter, status == _OK and kind == _HELLO)
            if seq == _SEQ_DUPLICATE:
                self.duplicates += 1
                return
            if seq == _SEQ_CONFLICT:
                self.bad_frames += 1
                self.fault(_FRAME_CONFLICT)
                return
            if seq == _SEQ_GAP:
                self.lost += self.sequence.gap
                self.fault(_FRAME_LOST)
        if status != _OK:
            if status == _BAD_CRC:
                self.crc_errors += 1
            else:
                self.bad_frames += 1
            # TOO_LONG is a line's fault (LINE_TOO_LONG); BAD_SYNTAX .. BAD_ARGS are FRAME_SYNTAX .. FRAME_ARGS in order
            self.fault(_LINE_TOO_LONG if status == _TOO_LONG else status - _BAD_SYNTAX + _FRAME_SYNTAX)
            return
        self.frames_ok += 1
        if kind == _HELLO:
            self.restarts += 1
        self._message(frame)

    def fault(self, code):
        """FAULT event with the current line kept as evidence; anything in progress is broken."""
        self.queue.put(self.fault_event, code, self.keep_line())
        self._broken()

    def keep_line(self):
        """Evidence handle for the current line: while a dropped line is handled, the handle its bytes
        were kept under (the line that showed the fault); 0 when there is none."""
        frame = self.frame
        if frame.length == 0:
            return self._dropped
        return self.evidence.keep(frame.line, 0, frame.length)

    # -- for subclasses ------------------------------------------------------------
    def _message(self, frame):
        """An accepted frame of this device (frame.type indexes the device's types)."""
        raise NotImplementedError

    def _broken(self):
        """A frame was lost or refused: drop anything that needed the frames in between."""
