# The console's line editor: bytes from the console port in, echo out, whole lines to the shell.
#
# Works with what picocom, screen and miniterm send: printable ASCII is echoed
# and kept; backspace (0x08) and DEL (0x7F, what most terminals send for the
# Backspace key) erase one character and echo "\b \b"; Ctrl-C cancels the line
# (echo "^C"); CR or LF ends it, and the LF of a CR LF pair is not a second,
# empty line. An escape sequence (an arrow key: ESC [ A, or ESC O A in a
# terminal's application mode; F1: ESC O P) is skipped whole, a control byte
# ends one (Esc then Enter is a line end), and any other control or non-ASCII
# byte is ignored, counted in `ignored`.
# In secret mode (a PIN) every character is echoed as "*".
#
# The buffer is allocated once. A line longer than it is not cut: the rest is
# dropped and the line ends as TOO_LONG, so a truncated command never runs.
# poll() reads at most `budget` bytes and stops after a line end, so a flood
# cannot hold the loop and the next line waits in the UART for the next pass.

NOTHING = const(0)
LINE = const(1)          # .line holds the bytes (no CR/LF)
CANCELLED = const(2)     # Ctrl-C
TOO_LONG = const(3)      # longer than the buffer: dropped whole

_BS = const(0x08)
_DEL = const(0x7F)
_CTRL_C = const(0x03)
_CR = const(0x0D)
_LF = const(0x0A)
_ESC = const(0x1B)
_CSI = const(0x5B)       # "[" after ESC: parameters follow, then one final byte 0x40..0x7E
_SS3 = const(0x4F)       # "O" after ESC: one more byte (F1-F4, arrows in a terminal's application mode)
_ESC_NONE = const(0)
_ESC_START = const(1)
_ESC_CSI = const(2)
_ESC_SS3 = const(3)
_ERASE = b"\b \b"
_NEWLINE = b"\r\n"
_CANCEL = b"^C\r\n"


class LineEditor:
    def __init__(self, uart, max_len=96, budget=0):
        self.uart = uart
        self.buf = bytearray(max_len)
        self.length = 0
        self.line = b""          # the last line (LINE)
        self.secret = False      # echo "*" for each character (a PIN)
        self.ignored = 0         # control and non-ASCII bytes dropped
        self.overlong = 0        # lines dropped as too long
        self.received = 0        # bytes read by the last poll (the shell's idle clock)
        self.budget = budget if budget > 0 else 2 * max_len
        self._overflow = False
        self._esc = _ESC_NONE
        self._after_cr = False
        self._one = bytearray(1)

    def poll(self):
        """Read what is waiting (bounded), echo it; returns NOTHING, LINE, CANCELLED or TOO_LONG."""
        uart = self.uart
        one = self._one
        self.received = 0
        while self.received < self.budget and uart.any():
            if uart.readinto(one, 1) != 1:
                break
            self.received += 1
            outcome = self._byte(one[0])
            if outcome != NOTHING:
                return outcome
        return NOTHING

    def _byte(self, ch):
        after_cr = self._after_cr
        self._after_cr = ch == _CR
        if self._esc != _ESC_NONE and self._escape(ch):
            return NOTHING                       # (a byte no sequence takes ended it: it is read as typed)
        if ch == _CR or ch == _LF:
            if ch == _LF and after_cr:
                return NOTHING                   # CR LF is one line end
            return self._end()
        if ch == _BS or ch == _DEL:
            if self.length and not self._overflow:
                self.length -= 1
                self.uart.write(_ERASE)
            return NOTHING
        if ch == _CTRL_C:
            self.clear()
            self.uart.write(_CANCEL)
            return CANCELLED
        if ch == _ESC:
            self._esc = _ESC_START
            self.ignored += 1
            return NOTHING
        if ch < 0x20 or ch > 0x7E:
            self.ignored += 1
            return NOTHING
        if self._overflow:
            return NOTHING
        if self.length == len(self.buf):
            self._overflow = True                # the rest of the line is dropped with it
            return NOTHING
        self.buf[self.length] = ch
        self.length += 1
        self._one[0] = 0x2A if self.secret else ch   # "*"
        self.uart.write(self._one)
        return NOTHING

    def _escape(self, ch):
        """One byte after ESC: True if it is part of the sequence (skipped with it), False if it cannot be
        (a control byte: CR, Ctrl-C, another ESC), which ends the sequence and is read on its own."""
        state = self._esc
        self._esc = _ESC_NONE
        if not 0x20 <= ch <= 0x7E:
            return False
        if state == _ESC_START:
            if ch == _CSI:
                self._esc = _ESC_CSI
            elif ch == _SS3:
                self._esc = _ESC_SS3
            return True                          # else ESC x: a two-byte sequence (Alt-x)
        if state == _ESC_CSI and ch < 0x40:
            self._esc = _ESC_CSI                 # a parameter or intermediate byte of ESC [ ... X
        return True                              # the final byte of ESC [ ... X, or of ESC O X

    def _end(self):
        self.uart.write(_NEWLINE)
        if self._overflow:
            self.clear()
            self.overlong += 1
            return TOO_LONG
        self.line = bytes(self.buf[:self.length])
        self.length = 0
        return LINE

    def clear(self):
        """Forget the line being typed."""
        self.length = 0
        self._overflow = False
        self._esc = _ESC_NONE

    def idle(self):
        """Nothing half typed (no character, no escape sequence, no line too long): the console may go dormant."""
        return self.length == 0 and not self._overflow and self._esc == _ESC_NONE

    def kept(self):
        """What a dormant console keeps of the editor: its counts, and a CR that an LF may follow (one line end)."""
        return (self.ignored, self.overlong, self._after_cr)

    def resume(self, kept):
        """Woken: the counts and a CR before an LF (kept()) back."""
        self.ignored, self.overlong, self._after_cr = kept

    def write(self, text):
        """Text for the technician (str or bytes), as it is."""
        self.uart.write(text.encode() if isinstance(text, str) else text)

    def write_lines(self, lines):
        for line in lines:
            self.write(line)
            self.uart.write(_NEWLINE)

    def retype(self):
        """Show the line being typed again (after a message that interrupted it)."""
        if self.secret:
            self.uart.write(b"*" * self.length)
        elif self.length:
            self.uart.write(bytes(self.buf[:self.length]))
