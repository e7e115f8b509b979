# What the scoreboard's draws changed since the picture last went out, a box a part, and the sending of it.
#
# The scoreboard knows where it paints: a result adds the header's digits, a bead, a big-road cell and a
# derived mark or two, a part now and then scrolled. Sending those boxes through the canvas's show_window()
# (the SSD1306's: an address window and its bytes) puts ~0.1-0.5 KB on the I2C bus where the whole picture
# is 1,032 bytes (~23 ms at 400 kHz; bench/wire_time.py counts both). A canvas without show_window(), or a
# whole picture drawn, is sent whole by its show().

_PARTS = const(6)           # the header, the bead plate, the big road, the three derived roads
_WINDOW_BYTES = const(8)    # a window's bytes besides its picture's: the address window (7), the control byte


class ChangedParts:
    """ChangedParts(canvas): touch(part, x0, y0, x1, y1) notes a changed box (x0 <= x < x1, y0 <= y < y1)
    of a part, all() the whole picture; send() shows what was noted and forgets it."""

    def __init__(self, canvas):
        self.canvas = canvas
        self._window = getattr(canvas, "show_window", None)
        self._boxes = bytearray(4 * _PARTS)     # a part's x0, x1, y0, y1; x1 == 0: unchanged
        self._whole = True                      # the whole picture to send (the first one too)
        self._picture_bytes = canvas.width * canvas.height // 8 + _WINDOW_BYTES if self._window else 0

    def all(self):
        self._whole = True

    def touch(self, part, x0, y0, x1, y1):
        b = self._boxes
        i = part << 2
        if not b[i + 1]:
            b[i] = x0
            b[i + 1] = x1
            b[i + 2] = y0
            b[i + 3] = y1
            return
        if x0 < b[i]:
            b[i] = x0
        if x1 > b[i + 1]:
            b[i + 1] = x1
        if y0 < b[i + 2]:
            b[i + 2] = y0
        if y1 > b[i + 3]:
            b[i + 3] = y1

    def send(self):
        """The canvas's picture out: a window a changed part (columns x0..x1 - 1 of the pages its rows touch), or
        the whole of it where that is no more bytes (parts scrolled together). Forgets what it sent."""
        b = self._boxes
        window = self._window
        if window is not None and not self._whole:
            n = 0
            for i in range(0, 4 * _PARTS, 4):
                if b[i + 1]:
                    n += (b[i + 1] - b[i]) * (((b[i + 3] - 1) >> 3) - (b[i + 2] >> 3) + 1) + _WINDOW_BYTES
            self._whole = n >= self._picture_bytes
        if self._whole or window is None:
            self._whole = False
            self.canvas.show()
        else:
            for i in range(0, 4 * _PARTS, 4):
                if b[i + 1]:
                    window(b[i], b[i + 1], b[i + 2] >> 3, (b[i + 3] - 1) >> 3)
        for i in range(1, 4 * _PARTS, 4):
            b[i] = 0
