# Line reader over a UART: polled, bounded buffer, garbage and overlong lines rejected.
#
# The buffer is allocated once. A line longer than the buffer is dropped whole
# (counted in .overlong) rather than split, so a truncated command or frame is
# never taken for a complete one.


class SerialLine:
    def __init__(self, uart, max_len=96):
        self.uart = uart
        self.buf = bytearray(max_len)
        self.length = 0
        self.discarding = False
        self.overlong = 0
        self._one = bytearray(1)

    def poll(self):
        """Read what is waiting; return a complete line (bytes, no CR/LF) or None."""
        uart = self.uart
        one = self._one
        while uart.any():
            if uart.readinto(one, 1) != 1:
                return None
            ch = one[0]
            if ch == 10 or ch == 13:            # LF or CR ends a line
                if self.discarding:
                    self.discarding = False
                    self.length = 0
                    continue
                if self.length == 0:
                    continue
                line = bytes(self.buf[:self.length])
                self.length = 0
                return line
            if self.discarding:
                continue
            if self.length == len(self.buf):
                self.discarding = True
                self.overlong += 1
                continue
            self.buf[self.length] = ch
            self.length += 1
        return None

    def write_line(self, text):
        self.uart.write(text.encode() if isinstance(text, str) else text)
        self.uart.write(b"\r\n")
