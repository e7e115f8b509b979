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


# CRC-16/CCITT-FALSE by table: table[i] (the CRC of byte i through the 8 shifts) as its high bytes and low
# bytes, literals (test_kept_literals builds the table and compares): in flash when frozen, where an array
# built at import kept 512 bytes of heap; two 8-bit halves are fewer steps a byte on the VM (issue 14).
_CRC_HI = (
    b"\x00\x10\x20\x30\x40\x50\x60\x70\x81\x91\xa1\xb1\xc1\xd1\xe1\xf1\x12\x02\x32\x22\x52\x42\x72\x62\x93\x83\xb3\xa3\xd3\xc3\xf3\xe3"
    b"\x24\x34\x04\x14\x64\x74\x44\x54\xa5\xb5\x85\x95\xe5\xf5\xc5\xd5\x36\x26\x16\x06\x76\x66\x56\x46\xb7\xa7\x97\x87\xf7\xe7\xd7\xc7"
    b"\x48\x58\x68\x78\x08\x18\x28\x38\xc9\xd9\xe9\xf9\x89\x99\xa9\xb9\x5a\x4a\x7a\x6a\x1a\x0a\x3a\x2a\xdb\xcb\xfb\xeb\x9b\x8b\xbb\xab"
    b"\x6c\x7c\x4c\x5c\x2c\x3c\x0c\x1c\xed\xfd\xcd\xdd\xad\xbd\x8d\x9d\x7e\x6e\x5e\x4e\x3e\x2e\x1e\x0e\xff\xef\xdf\xcf\xbf\xaf\x9f\x8f"
    b"\x91\x81\xb1\xa1\xd1\xc1\xf1\xe1\x10\x00\x30\x20\x50\x40\x70\x60\x83\x93\xa3\xb3\xc3\xd3\xe3\xf3\x02\x12\x22\x32\x42\x52\x62\x72"
    b"\xb5\xa5\x95\x85\xf5\xe5\xd5\xc5\x34\x24\x14\x04\x74\x64\x54\x44\xa7\xb7\x87\x97\xe7\xf7\xc7\xd7\x26\x36\x06\x16\x66\x76\x46\x56"
    b"\xd9\xc9\xf9\xe9\x99\x89\xb9\xa9\x58\x48\x78\x68\x18\x08\x38\x28\xcb\xdb\xeb\xfb\x8b\x9b\xab\xbb\x4a\x5a\x6a\x7a\x0a\x1a\x2a\x3a"
    b"\xfd\xed\xdd\xcd\xbd\xad\x9d\x8d\x7c\x6c\x5c\x4c\x3c\x2c\x1c\x0c\xef\xff\xcf\xdf\xaf\xbf\x8f\x9f\x6e\x7e\x4e\x5e\x2e\x3e\x0e\x1e"
)
_CRC_LO = (
    b"\x00\x21\x42\x63\x84\xa5\xc6\xe7\x08\x29\x4a\x6b\x8c\xad\xce\xef\x31\x10\x73\x52\xb5\x94\xf7\xd6\x39\x18\x7b\x5a\xbd\x9c\xff\xde"
    b"\x62\x43\x20\x01\xe6\xc7\xa4\x85\x6a\x4b\x28\x09\xee\xcf\xac\x8d\x53\x72\x11\x30\xd7\xf6\x95\xb4\x5b\x7a\x19\x38\xdf\xfe\x9d\xbc"
    b"\xc4\xe5\x86\xa7\x40\x61\x02\x23\xcc\xed\x8e\xaf\x48\x69\x0a\x2b\xf5\xd4\xb7\x96\x71\x50\x33\x12\xfd\xdc\xbf\x9e\x79\x58\x3b\x1a"
    b"\xa6\x87\xe4\xc5\x22\x03\x60\x41\xae\x8f\xec\xcd\x2a\x0b\x68\x49\x97\xb6\xd5\xf4\x13\x32\x51\x70\x9f\xbe\xdd\xfc\x1b\x3a\x59\x78"
    b"\x88\xa9\xca\xeb\x0c\x2d\x4e\x6f\x80\xa1\xc2\xe3\x04\x25\x46\x67\xb9\x98\xfb\xda\x3d\x1c\x7f\x5e\xb1\x90\xf3\xd2\x35\x14\x77\x56"
    b"\xea\xcb\xa8\x89\x6e\x4f\x2c\x0d\xe2\xc3\xa0\x81\x66\x47\x24\x05\xdb\xfa\x99\xb8\x5f\x7e\x1d\x3c\xd3\xf2\x91\xb0\x57\x76\x15\x34"
    b"\x4c\x6d\x0e\x2f\xc8\xe9\x8a\xab\x44\x65\x06\x27\xc0\xe1\x82\xa3\x7d\x5c\x3f\x1e\xf9\xd8\xbb\x9a\x75\x54\x37\x16\xf1\xd0\xb3\x92"
    b"\x2e\x0f\x6c\x4d\xaa\x8b\xe8\xc9\x26\x07\x64\x45\xa2\x83\xe0\xc1\x1f\x3e\x5d\x7c\x9b\xba\xd9\xf8\x17\x36\x55\x74\x93\xb2\xd1\xf0"
)


def crc16(data, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out) of data[start:end]."""
    if end < 0:
        end = len(data)
    hi = _CRC_HI
    lo = _CRC_LO
    h = (crc >> 8) & 0xFF
    l = crc & 0xFF
    for i in range(start, end):
        x = h ^ data[i]
        h = l ^ hi[x]
        l = lo[x]
    return (h << 8) | l


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
        # The header and CRC here, the type and words in _words: three calls a frame, not four (issue 14).
        if n > MAX_LINE:
            return self._refuse(TOO_LONG)
        if n < _MIN_LINE or line[n - _TRAILER] != _STAR:
            return self._refuse(BAD_SYNTAX)
        body = n - _TRAILER
        hexv = _HEX_VALUE
        d1 = hexv[line[body + 1]]
        d2 = hexv[line[body + 2]]
        d3 = hexv[line[body + 3]]
        d4 = hexv[line[body + 4]]
        if d1 > 15 or d2 > 15 or d3 > 15 or d4 > 15:
            return self._refuse(BAD_SYNTAX)
        if crc16(line, 0, body) != (d1 << 12) | (d2 << 8) | (d3 << 4) | d4:
            return self._refuse(BAD_CRC)
        # The bytes are the device's own; now check they are a frame.
        if line[2] != _SPACE or line[5] != _SPACE or not 65 <= line[0] <= 90 or not 48 <= line[1] <= 57:
            return self._refuse(BAD_SYNTAX)
        d1 = hexv[line[3]]
        d2 = hexv[line[4]]
        if d1 > 15 or d2 > 15:
            return self._refuse(BAD_SYNTAX)
        return self._words(line, body, (d1 << 4) | d2)

    def _words(self, line, body, counter):
        """decode()'s rest, once the CRC and the header hold: the type, the words, the device and version."""
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
                return self._refuse(BAD_SYNTAX)
        # The words, separated by one space, from line[end] (a space or body) to body.
        starts = self.starts
        ends = self.ends
        nargs = 0
        i = end
        while i < body:
            i += 1                      # the space
            start = i
            while i < body:
                ch = line[i]
                if ch == _SPACE:
                    break
                if ch < 33 or ch > 126 or ch == _STAR:
                    return self._refuse(BAD_SYNTAX)
                i += 1
            if i == start or nargs == MAX_ARGS:
                return self._refuse(BAD_SYNTAX)
            starts[nargs] = start
            ends[nargs] = i
            nargs += 1
        self.nargs = nargs
        if line[0] != self.device:
            return self._refuse(WRONG_DEVICE)
        if line[1] - 48 != self.version:
            return self._refuse(BAD_VERSION)
        self.counter = counter
        if t < 0:
            return self._refuse(UNKNOWN_TYPE)
        self.type = t
        if not types[t][1] <= nargs <= types[t][2]:
            return self._refuse(BAD_ARGS)
        self.status = OK
        return OK

    def _refuse(self, status):              # a refused line's status, kept and returned
        self.status = status
        return status

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
