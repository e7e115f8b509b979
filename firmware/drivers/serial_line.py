# Line reader over a UART: polled, bounded buffer and bounded work, bad lines reported as faults.
#
# The buffer is allocated once. A line longer than the buffer is dropped whole
# rather than split, so a truncated command or frame is never taken for a
# complete one. A line that stops before its end and stays quiet longer than
# timeout_ms is dropped too, so it cannot swallow the next line (a machine
# sends a line at once; a port with a person typing has timeout_ms 0).
#
# poll() reads at most `budget` bytes, so a stream with no line end cannot hold
# the loop (and starve the watchdog); the rest waits in the UART for the next
# pass. Each poll has one outcome: a line, a fault (.fault, with the offending
# bytes in .buf[:.fault_len] until the next poll), or nothing. The driver only
# says what happened; the caller reports it. A port's timeout_ms for its baudrate is the bring-up's
# (firmware/hardware.py, line_timeout_ms: boot-only).

# copies of firmware.faults (tests/host/test_const_copies.py)
_LINE_TOO_LONG = const(3)
_PARTIAL_LINE = const(7)

_BUDGET_LINES = const(2)      # bytes read per poll: this many line buffers
_CHUNK = const(32)            # bytes taken from the UART per readinto (a device frame: one or two)


class SerialLine:
    def __init__(self, uart, max_len=96, timeout_ms=0, budget=0):
        """timeout_ms 0: a partial line waits for ever; budget 0: two line buffers per poll."""
        self.uart = uart
        self.buf = bytearray(max_len)
        self.length = 0
        self.discarding = False
        self.timeout_ms = timeout_ms
        self.budget = budget if budget > 0 else _BUDGET_LINES * max_len
        self.quiet_ms = 0         # time since the last byte while a line is pending
        self.fault = 0            # this poll's fault code (firmware.faults), 0 if none
        self.fault_len = 0        # offending bytes in buf[:fault_len]
        self.overlong = 0         # lines dropped as too long
        self.partial = 0          # lines dropped as stopped before their end
        # Bytes are taken from the UART a chunk at a time (a call per byte was most of a frame's
        # cost): those after a line's end wait here for the next poll, as they waited in the UART.
        self._rx = bytearray(_CHUNK)
        self._rx_view = memoryview(self._rx)
        self._rx_at = 0
        self._rx_end = 0

    def unread(self):
        """Bytes taken from the UART and not yet into a line: the chunk's rest (a short line or two may be
        there; the simulator counts them as still waiting, hostsim.headless.take_in)."""
        return self._rx_end - self._rx_at

    def poll(self, elapsed_ms=0):
        """Read what is waiting (bounded); return a complete line (bytes, no CR/LF) or None.

        elapsed_ms: time since the previous poll, for the partial-line timeout.
        """
        self.fault = 0
        uart = self.uart
        at = self._rx_at
        end = self._rx_end
        waiting = 0                             # uart.any() asked here, for the first chunk below
        if at == end and not self.length and not self.discarding:
            waiting = uart.any()
            if not waiting:
                return None                     # idle: nothing waiting, no line begun (most polls)
        rx = self._rx
        buf = self.buf
        length = self.length
        budget = self.budget
        got = 0
        while got < budget:
            if at == end:                       # the chunk is used up: the next one from the UART
                n = waiting if waiting else uart.any()
                waiting = 0
                if not n:
                    break
                if n > budget - got:
                    n = budget - got
                if n > _CHUNK:
                    n = _CHUNK
                n = uart.readinto(rx, n)
                if not n:                       # None: nothing after all (a PIO UART says so)
                    break
                at = 0
                end = n
            ch = rx[at]
            if ch != 10 and ch != 13 and length < len(buf) and not self.discarding:
                # A run of a line's bytes, up to the next line end in the chunk (or the chunk's end,
                # or the budget's), found by find() and copied by one slice store, in C: a pass of
                # ~10 bytecodes per byte was most of a device frame's cost. The line end, a line
                # too long and a discarded line's bytes take the way below, a byte at a time.
                stop = end if end - at <= budget - got else at + budget - got
                k = rx.find(b"\n", at, stop)
                if k >= 0:
                    stop = k
                k = rx.find(b"\r", at, stop)
                if k >= 0:
                    stop = k
                n = stop - at                   # >= 1: rx[at] is no line end
                if n > len(buf) - length:
                    n = len(buf) - length       # the rest: the next byte finds the buffer full
                buf[length:length + n] = self._rx_view[at:at + n]
                length += n
                at += n
                got += n
                continue
            at += 1
            got += 1
            if ch == 10 or ch == 13:            # LF or CR ends a line
                if self.discarding:
                    self.discarding = False
                    length = 0
                    continue
                if length == 0:
                    continue
                self._rx_at = at
                self._rx_end = end
                self.length = 0
                self.quiet_ms = 0
                return bytes(buf[:length])
            if self.discarding:
                continue
            if length == len(buf):
                self._rx_at = at
                self._rx_end = end
                self.length = length
                self.discarding = True          # drop the rest up to the line end
                self.overlong += 1
                self.quiet_ms = 0
                return self._failed(_LINE_TOO_LONG, length)
            buf[length] = ch
            length += 1
        self._rx_at = at
        self._rx_end = end
        self.length = length
        if got:
            self.quiet_ms = 0                   # bytes waiting after a stall are no pause on the wire
        elif self.length or self.discarding:
            self.quiet_ms += elapsed_ms
            if self.timeout_ms and self.quiet_ms >= self.timeout_ms:
                return self._stale()
        return None

    def _failed(self, code, n):
        self.fault = code
        self.fault_len = n
        return None

    def _stale(self):
        self.quiet_ms = 0
        n = self.length
        self.length = 0
        if self.discarding:                     # an overlong line, already reported: the pause ends it
            self.discarding = False
            return None
        self.partial += 1
        return self._failed(_PARTIAL_LINE, n)

    def write_line(self, text):
        self.uart.write(text.encode() if isinstance(text, str) else text)
        self.uart.write(b"\r\n")
