# A frame header's numbers without a heap object (docs/host-link.md, "Frame"): the time stamp as two
# small ints (Stamp), and decimal digits written into a buffer (put_uint, put_stamp) or read from a
# line (read_uint: the Frame decoder's). On a port whose small ints have 31 bits (the RP2040's) the
# host's ms (~1.8e12) and an uptime past 12.4 days are heap objects, and adding to such an int or
# writing its digits allocates; the Sender keeps its clocks as Stamps and the Encoder
# (firmware/link/frame.py) writes them with put_stamp.

LIMIT = 10 ** 15           # a stamp's ms: 15 digits at most (the frame's grammar)
_SPLIT = const(1000000)    # a Stamp's low part: 6 digits


class Stamp:
    """A time stamp in ms (uptime, or the host's Unix time) as two small ints, hi and lo (lo <
    10**6). add() and writing its digits (put_stamp) allocate nothing; set() may (a TIME frame)."""

    def __init__(self, ms=0):
        self.hi = 0
        self.lo = 0
        self.set(ms)

    def set(self, ms):
        if not 0 <= ms < LIMIT:
            raise ValueError("stamp out of range")
        self.hi = ms // _SPLIT
        self.lo = ms % _SPLIT

    def add(self, ms):
        """ms >= 0 later."""
        lo = self.lo + ms
        if lo >= _SPLIT:
            self.hi += lo // _SPLIT
            lo %= _SPLIT
        self.lo = lo

    def ms(self):
        """As one int (a heap object on a 31-bit port once it is large)."""
        return self.hi * _SPLIT + self.lo


def put_uint(buf, i, value):
    """Write value (>= 0) in decimal at buf[i]; returns the index after it."""
    # The length by comparisons with small ints first (a division costs more on the VM; no loop
    # over a table, no constant past 2**30: either allocates on a 31-bit port), then the digits.
    if value < 10000:
        end = i + (1 if value < 10 else 2 if value < 100 else 3 if value < 1000 else 4)
    elif value < 100000000:
        end = i + (5 if value < 100000 else 6 if value < 1000000 else 7 if value < 10000000 else 8)
    else:
        end = i + 9
        v = value // 1000000000
        while v:
            v //= 10
            end += 1
    after = end
    while True:
        end -= 1
        buf[end] = 48 + value % 10
        value //= 10
        if not value:
            return after


def read_uint(line, i, j):
    """The value of the decimal digits line[i:j] (a frame's boot, seq or stamp: checked by the caller)."""
    value = 0
    for k in range(i, j):
        value = value * 10 + line[k] - 48
    return value


def put_stamp(buf, i, stamp):
    """A Stamp's digits at buf[i]; returns the index after them."""
    if not stamp.hi:
        return put_uint(buf, i, stamp.lo)
    i = put_uint(buf, i, stamp.hi)
    lo = stamp.lo
    j = i + 6
    while j > i:                       # the low part's 6 digits, zeros included
        j -= 1
        buf[j] = 48 + lo % 10
        lo //= 10
    return i + 6
