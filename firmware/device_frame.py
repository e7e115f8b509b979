# Device line frames: the one wire format of the shoe, bet and dice readers (docs/protocol.md).
#
#   <DEV><VER> <CTR> <TYPE>[ <ARG>]...*<CRC>\n        e.g.  S1 2A CARD Ah D*9F3B
#
# DEV one upper-case letter naming the device, VER the protocol version digit,
# CTR the device's own message counter (2 upper-case hex digits, wraps FF->00),
# TYPE an upper-case word, ARGs printable ASCII without space or "*", CRC the
# CRC-16/CCITT-FALSE of every byte before the "*" (4 upper-case hex digits).
# One spelling per message: no lower-case hex, no double spaces, no trailing
# blanks, so a frame that decodes is exactly the frame that was sent.
#
# Decoding fills preallocated fields and allocates nothing (proved under
# heap_lock on MicroPython): a driver can decode on the input pass. The CRC
# is checked before anything else in the line is believed.
from array import array


MAX_LINE = const(96)     # bytes before the LF; SerialLine's buffer must be at least this
MAX_ARGS = const(8)      # words after TYPE
MAX_TYPE = const(8)      # letters in TYPE
_TRAILER = const(5)      # "*" + 4 hex digits
_MIN_LINE = const(12)    # "S1 00 X*0000"

# Decoder status (Frame.status).
OK = const(0)
TOO_LONG = const(1)      # more than MAX_LINE bytes
BAD_SYNTAX = const(2)    # not a frame: no "*CRC" trailer, bad header, empty word, control byte
BAD_CRC = const(3)       # the checksum does not match: nothing in the line is believed
WRONG_DEVICE = const(4)  # a good frame from another kind of device (crossed cable)
BAD_VERSION = const(5)   # a good frame in a protocol version this decoder does not speak
UNKNOWN_TYPE = const(6)  # a good frame with a message type this device does not have
BAD_ARGS = const(7)      # a good frame with the wrong number of words for its type

STATUS_NAMES = ("ok", "too_long", "bad_syntax", "bad_crc", "wrong_device", "bad_version",
                "unknown_type", "bad_args")

# Counter tracking (Sequence.track).
SEQ_NEXT = const(0)       # the expected counter (or the first frame, or a HELLO)
SEQ_DUPLICATE = const(1)  # the last frame again, byte for byte: drop it
SEQ_CONFLICT = const(2)   # the last counter again with other bytes: a device fault
SEQ_GAP = const(3)        # frames were lost (Sequence.gap of them)

_STAR = const(42)
_SPACE = const(32)


def _build_table():
    table = array("H", [0] * 256)
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[i] = crc & 0xFFFF
    return table


_CRC_TABLE = _build_table()


def crc16(data, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out) of data[start:end]."""
    if end < 0:
        end = len(data)
    table = _CRC_TABLE
    crc &= 0xFFFF               # so (crc >> 8) ^ byte is an index without a mask per byte
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ data[i]]
    return crc


# Upper-case hex digit -> its value, anything else -> 0xFF: the trailer's and the counter's digits
# are looked up, not parsed by two calls each (most of a short frame's header work). A literal, a row
# per high nibble ("0".."9" at 0x30, "A".."F" at 0x41; test_kept_literals builds it as before and
# compares): one constant in flash when frozen or in ROMFS; made at import (a bytearray filled, then
# bytes()) its 256 bytes kept 288 of the heap, measured in the VM (issue 14).
_HEX_VALUE = (
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\xff\xff\xff\xff\xff\xff"
    b"\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
)


def uint(line, start, end, limit):
    """Canonical decimal line[start:end] (no sign, no leading zero) if <= limit, else -1."""
    n = end - start
    if n < 1 or n > 9 or (n > 1 and line[start] == 48):
        return -1
    value = 0
    for i in range(start, end):
        ch = line[i]
        if ch < 48 or ch > 57:
            return -1
        value = value * 10 + ch - 48
    return value if value <= limit else -1


def same(line, start, end, word):
    """line[start:end] == word (bytes), without slicing."""
    if end - start != len(word):
        return False
    for i in range(len(word)):
        if line[start + i] != word[i]:
            return False
    return True


class Frame:
    """Decoder for one device: fields are filled in place by decode()."""

    def __init__(self, device, version, types):
        """device: b"S"; version: 1..9; types: ((b"HELLO", min_args, max_args), ...)."""
        if len(device) != 1 or not 65 <= device[0] <= 90:
            raise ValueError("device letter must be one of A..Z")
        if not 1 <= version <= 9:
            raise ValueError("protocol version must be 1..9")
        for name, low, high in types:
            letters = len(name) and min(name) >= 65 and max(name) <= 90
            if not letters or len(name) > MAX_TYPE or not 0 <= low <= high <= MAX_ARGS:
                raise ValueError("bad message type spec %r" % (name,))
        self.device = device[0]
        self.version = version
        self.types = types
        self.line = b""          # the line last decoded (a reference, not a copy)
        self.length = 0
        self.status = OK
        self.counter = -1
        self.type = -1           # index into types
        self.nargs = 0
        self.starts = bytearray(MAX_ARGS)   # argument i is line[starts[i]:ends[i]]
        self.ends = bytearray(MAX_ARGS)

    def decode(self, line, n=-1):
        """Decode line[:n] (no CR/LF; n -1: all of it). Returns and keeps .status."""
        if n < 0:
            n = len(line)
        self.line = line
        self.length = n
        self.type = -1
        self.counter = -1
        self.nargs = 0
        self.status = self._decode(line, n)
        return self.status

    def _decode(self, line, n):
        if n > MAX_LINE:
            return TOO_LONG
        if n < _MIN_LINE or line[n - _TRAILER] != _STAR:
            return BAD_SYNTAX
        body = n - _TRAILER
        hexv = _HEX_VALUE
        d1 = hexv[line[body + 1]]
        d2 = hexv[line[body + 2]]
        d3 = hexv[line[body + 3]]
        d4 = hexv[line[body + 4]]
        if d1 > 15 or d2 > 15 or d3 > 15 or d4 > 15:
            return BAD_SYNTAX
        if crc16(line, 0, body) != (d1 << 12) | (d2 << 8) | (d3 << 4) | d4:
            return BAD_CRC
        # The bytes are the device's own; now check they are a frame.
        if line[2] != _SPACE or line[5] != _SPACE or not 65 <= line[0] <= 90 or not 48 <= line[1] <= 57:
            return BAD_SYNTAX
        d1 = hexv[line[3]]
        d2 = hexv[line[4]]
        if d1 > 15 or d2 > 15:
            return BAD_SYNTAX
        counter = (d1 << 4) | d2
        # The type word runs to the first space (or the body's end), found in C; a type's name there
        # (bytes.startswith at its offset: bytes, bytearray, in C, no slice) is a word of 1..MAX_TYPE
        # capitals (Frame() checked the names), any other word is checked a byte at a time.
        end = line.find(b" ", 6, body)
        if end < 0:
            end = body
        types = self.types
        t = -1
        for k in range(len(types)):
            name = types[k][0]
            if len(name) == end - 6 and line.startswith(name, 6):
                t = k
                break
        if t < 0:
            k = 6
            while k < end and 65 <= line[k] <= 90:
                k += 1
            if k != end or end == 6 or end - 6 > MAX_TYPE:
                return BAD_SYNTAX
        status = self._split_args(line, end, body)
        if status != OK:
            return status
        if line[0] != self.device:
            return WRONG_DEVICE
        if line[1] - 48 != self.version:
            return BAD_VERSION
        self.counter = counter
        if t < 0:
            return UNKNOWN_TYPE
        self.type = t
        if not types[t][1] <= self.nargs <= types[t][2]:
            return BAD_ARGS
        return OK

    def _split_args(self, line, i, body):
        """Words separated by one space from line[i] (a space or body) to body."""
        nargs = 0
        while i < body:
            i += 1                      # the space
            start = i
            while i < body:
                ch = line[i]
                if ch == _SPACE:
                    break
                if ch < 33 or ch > 126 or ch == _STAR:
                    return BAD_SYNTAX
                i += 1
            if i == start or nargs == MAX_ARGS:
                return BAD_SYNTAX
            self.starts[nargs] = start
            self.ends[nargs] = i
            nargs += 1
        self.nargs = nargs
        return OK

    def arg_uint(self, i, limit):
        """Argument i as a canonical decimal <= limit, else -1."""
        return uint(self.line, self.starts[i], self.ends[i], limit)

    def arg_is(self, i, word):
        return same(self.line, self.starts[i], self.ends[i], word)

    def arg_len(self, i):
        return self.ends[i] - self.starts[i]

    def arg_byte(self, i, k=0):
        return self.line[self.starts[i] + k]


class Sequence:
    """The device's message counter as this side expects it (docs/protocol.md, "Counter")."""

    def __init__(self):
        self.expected = -1              # -1: not synchronised yet (boot, or never heard)
        self.gap = 0                    # frames lost, for the last SEQ_GAP
        # The last line: itself when it was a whole bytes (immutable: no copy), as a booted table's line
        # sources give them (SerialLine.poll); else a copy, in a buffer made at the first such line (a source
        # that lends its own buffer): none is kept before (issue 14: 112 bytes a device).
        self._kept = None
        self._last = None
        self._last_len = 0

    def track(self, line, n, counter, restart):
        """Classify an authentic frame's counter; restart: the frame is the device's HELLO."""
        self.gap = 0
        expected = self.expected
        if expected >= 0 and counter == (expected - 1) & 0xFF:
            if self._is_last(line, n):
                return SEQ_DUPLICATE
            if not restart:
                return SEQ_CONFLICT
        if expected >= 0 and not restart:
            self.gap = (counter - expected) & 0xFF
        self.expected = (counter + 1) & 0xFF
        if type(line) is bytes and n == len(line):
            self._kept = line               # a line source's own bytes object: it never changes
        else:
            self._kept = None
            last = self._last
            if last is None:
                last = self._last = bytearray(MAX_LINE)     # once; a frame tracked is at most MAX_LINE
            for i in range(n):
                last[i] = line[i]
        self._last_len = n
        return SEQ_GAP if self.gap else SEQ_NEXT

    def _is_last(self, line, n):
        if n != self._last_len:
            return False
        last = self._kept
        if last is None:
            last = self._last
        elif type(line) is bytes and n == len(line):
            return line == last
        for i in range(n):
            if line[i] != last[i]:
                return False
        return True

    def forget(self):
        """Expect anything next (a line source reset, a cable re-plugged)."""
        self.expected = -1


def encode(device, version, counter, type, args=()):
    """One frame (bytes, no LF) for tests and the simulator; refuses what decode() would."""
    if not 0 <= counter <= 0xFF:
        raise ValueError("counter must be 0..255")
    if len(device) != 1 or not "A" <= device <= "Z" or not 1 <= version <= 9:
        raise ValueError("device must be one of A..Z and version 1..9")
    if not 1 <= len(type) <= MAX_TYPE or any(not "A" <= c <= "Z" for c in type):
        raise ValueError("message type must be 1..%d of A..Z, got %r" % (MAX_TYPE, type))
    words = [str(a) for a in args]
    if len(words) > MAX_ARGS:
        raise ValueError("at most %d words after the type" % MAX_ARGS)
    for w in words:
        if not w or " " in w or "*" in w or any(not 33 <= ord(c) <= 126 for c in w):
            raise ValueError("bad frame argument %r" % (w,))
    body = "%s%d %02X %s" % (device, version, counter, type)
    if words:
        body += " " + " ".join(words)
    data = body.encode()
    line = data + ("*%04X" % crc16(data)).encode()
    if len(line) > MAX_LINE:
        raise ValueError("frame of %d bytes exceeds MAX_LINE %d" % (len(line), MAX_LINE))
    return line
