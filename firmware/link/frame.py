# Host-link frames: one printable line per message, both directions (docs/host-link.md, "Frame").
#
#   #<boot>.<seq> <stamp> <TYPE>[ <payload>]*<CRC>\n        #3.17 52310 REPORT {"event": "card"}*1A2B3C4D
#
# One spelling per message, so a frame that decodes is exactly the frame that was sent; the CRC is
# checked before anything in the line is believed. Encoder fills one preallocated buffer (a stamp's
# digits: firmware/link/stamp.py); Frame.decode fills preallocated fields (offsets into the line) and
# converts only boot and seq, small ints on every port. Both take the CRC with crc32.crc32_hex_into,
# its 8 digits written into a buffer, never as a 32-bit int (a heap object on a 31-bit port): with the
# board's native CRC neither allocates (docs/host-link.md, "The CRC on each runtime";
# tests/firmware/test_hot_paths.py).
import re

from firmware.link import crc32 as crc_mod
from firmware.link.stamp import Stamp, put_stamp, put_uint, read_uint as _uint

# copies of firmware.link.stamp (tests/host/test_const_copies.py)
_LIMIT = const(1000000000000000)

MAX_FRAME = const(512)     # bytes of a frame with its LF (a store slot holds one)
MAX_NUMBER = const(999999999)  # boot and seq: 9 digits, a small int on every MicroPython port
MAX_TYPE = const(8)
_MAX_STAMP_DIGITS = const(15)        # a stamp's ms: below stamp.LIMIT
_STAMP_HI_LIMIT = const(1000000000)  # a Stamp's hi from stamp.LIMIT on: past 15 digits
# The longest header: "#" boot "." seq " " uptime "@" host_ms " " TYPE " ".
_HEADER_MOST = const(1 + 9 + 1 + 9 + 1 + 15 + 1 + 15 + 1 + 8 + 1)
MAX_PAYLOAD = const(512 - 62 - 9 - 1)   # any payload up to this fits in MAX_FRAME
_TRAILER = const(9)        # "*" + 8 hex digits
_MIN_LINE = const(17)      # "#0.0 0 A*00000000"

# Decoder status (Frame.status), each a reason a line is refused.
OK = const(0)
TRUNCATED = const(1)       # shorter than a frame, or no "*CRC" trailer at its end
NO_START = const(2)        # does not begin with "#": noise, or the tail of a broken frame
TOO_LONG = const(3)        # more than MAX_FRAME - 1 bytes before the LF
BAD_CRC = const(4)         # checksum unreadable or wrong: nothing in the line is believed
BAD_SYNTAX = const(5)      # checksum right, grammar wrong: the sender is at fault

STATUS_NAMES = ("ok", "truncated", "no_start", "too_long", "bad_crc", "bad_syntax")

_HASH = const(35)
_DOT = const(46)
_SPACE = const(32)
_STAR = const(42)
_AT = const(64)
# A byte outside printable ASCII, found by one search in C: on the MicroPython VM min() and max() of a
# payload cost 0.45 us a byte (a comparison each through the generic operator), this 0.06 us.
_UNPRINTABLE = re.compile(b"[^ -~]")


def _digits_end(line, i, end, most):
    """End of the canonical decimal starting at line[i] (before end), or -1."""
    j = i
    while j < end and 48 <= line[j] <= 57:
        j += 1
    if j == i or j - i > most or (j - i > 1 and line[i] == 48):
        return -1
    return j


class Frame:
    """Decoder: decode() fills the fields in place; they hold until the next decode(). The TYPE and stamps as
    values (the host's reading, not a board's): firmware/link/frame_host.py, HostFrame."""

    def __init__(self):
        self._crc = bytearray(_TRAILER - 1)    # the CRC's digits as they must be
        self.line = b""
        self.status = OK
        self.boot = -1
        self.seq = -1
        self.stamp_start = 0       # stamp is line[stamp_start:stamp_end]
        self.stamp_end = 0
        self.type_start = 0
        self.type_end = 0
        self.payload_start = 0     # empty payload: payload_start == payload_end
        self.payload_end = 0

    def decode(self, line, n=-1):
        """Decode line[:n] (without its LF; n -1: all of it). Returns and keeps .status."""
        if n < 0:
            n = len(line)
        self.line = line
        self.boot = -1
        self.seq = -1
        self.status = self._decode(line, n)
        return self.status

    def _decode(self, line, n):
        if n > MAX_FRAME - 1:
            return TOO_LONG
        if n == 0:
            return TRUNCATED
        if line[0] != _HASH:
            return NO_START
        if n < _MIN_LINE or line[n - _TRAILER] != _STAR:
            return TRUNCATED
        body = n - _TRAILER
        digits = self._crc
        crc_mod.crc32_hex_into(line, 1, body, digits, 0)
        for k in range(_TRAILER - 1):          # one spelling: the sender's digits are ours
            if line[body + 1 + k] != digits[k]:
                return BAD_CRC
        return self._fields(line, body)

    def _fields(self, line, body):
        i = _digits_end(line, 1, body, 9)
        if i < 0 or line[i] != _DOT:
            return BAD_SYNTAX
        j = _digits_end(line, i + 1, body, 9)
        if j < 0 or j >= body or line[j] != _SPACE:
            return BAD_SYNTAX
        boot = _uint(line, 1, i)
        seq = _uint(line, i + 1, j)
        k = _digits_end(line, j + 1, body, _MAX_STAMP_DIGITS)
        if k > 0 and k < body and line[k] == _AT:
            k = _digits_end(line, k + 1, body, _MAX_STAMP_DIGITS)
        if k < 0 or k >= body or line[k] != _SPACE:
            return BAD_SYNTAX
        t = k + 1
        end = t
        while end < body and 65 <= line[end] <= 90:
            end += 1
        if end == t or end - t > MAX_TYPE:
            return BAD_SYNTAX
        p = end
        if end < body:
            if line[end] != _SPACE or end + 1 == body:
                return BAD_SYNTAX
            p = end + 1
            for x in range(p, body):
                if not 32 <= line[x] <= 126:
                    return BAD_SYNTAX
        self.boot, self.seq = boot, seq                 # pairs: no tuple made (MicroPython and CPython)
        self.stamp_start, self.stamp_end = j + 1, k
        self.type_start, self.type_end = t, end
        self.payload_start, self.payload_end = p, body
        return OK

    def type_is(self, word):
        """The decoded TYPE is word (bytes), compared in place."""
        line = self.line
        start = self.type_start
        if self.type_end - start != len(word):
            return False
        for i in range(len(word)):
            if line[start + i] != word[i]:
                return False
        return True

    def payload(self):
        """The payload as bytes (a copy)."""
        return bytes(self.line[self.payload_start:self.payload_end])

    def payload_uint(self, most=_MAX_STAMP_DIGITS):
        """The payload as one canonical decimal of at most `most` digits, else -1."""
        start = self.payload_start
        end = _digits_end(self.line, start, self.payload_end, most)
        return -1 if end != self.payload_end else _uint(self.line, start, end)


def check_printable(payload):
    """ValueError naming the first byte of payload (bytes-like) outside printable ASCII, if any."""
    if isinstance(payload, bytes):
        found = _UNPRINTABLE.search(payload)
        if found is not None:
            raise ValueError("payload byte %d is not printable ASCII" % found.group(0)[0])
    elif len(payload) and (min(payload) < 32 or max(payload) > 126):   # a view or a bytearray: no
        for ch in payload:                                           # search in C on MicroPython
            if not 32 <= ch <= 126:
                raise ValueError("payload byte %d is not printable ASCII" % ch)


class Encoder:
    """Builds frames in one buffer allocated once: encode() returns the length in .buf.

    The header of the last frame stamped with Stamps (the Sender's) stays in buf: the next frame of
    the same boot and stamps (the frames of one pass) writes only its seq's last digit(s) (one more),
    not every digit of boot, seq and stamps again (the Stamps moved on: theirs too). Whoever writes into
    buf other than encode() calls forget() (the Sender, reading a held frame into it)."""

    def __init__(self, size=MAX_FRAME):
        self.buf = bytearray(size)
        self._type = None          # the last TYPE that passed its check (bytes)
        self._head = 0             # "#<boot>.<seq> <stamp> " kept in buf[:_head]; 0: none
        self._boot = -1            # what it says
        self._seq = -1
        self._seq_end = 0          # the space after seq
        self._up = None            # the uptime Stamp, its parts then
        self._up_hi = 0
        self._up_lo = 0
        self._host = -1            # the host's Stamp, its parts then; -1: none
        self._host_hi = 0
        self._host_lo = 0

    def forget(self):
        """buf was written by someone else: the next frame's header is written whole."""
        self._head = 0

    def encode(self, boot, seq, type, payload=b"", uptime_ms=0, host_ms=-1, checked=False):
        """Frame with its LF in .buf[:n]; returns n. ValueError for what decode() would refuse.
        checked: the caller has passed payload (or the whole it is a piece of) to check_printable()."""
        if isinstance(payload, str):
            payload = payload.encode()
        buf = self.buf
        if _HEADER_MOST + len(payload) + _TRAILER + 1 > len(buf):
            raise ValueError("a %d-byte payload may not fit a %d-byte frame" % (len(payload), len(buf)))
        if type is not self._type:               # the TYPE checked once while it stays the same object
            type = self._check_type(type)
        if not checked and len(payload):
            check_printable(payload)
        bump = False                              # the frame after the last one: its header kept, with
        if self._head and seq == self._seq + 1 and boot == self._boot and uptime_ms is self._up \
                and host_ms is self._host:           # the same stamps, or later (a poll between; in range)
            if (uptime_ms.lo == self._up_lo and uptime_ms.hi == self._up_hi
                    and (host_ms == -1 or (host_ms.lo == self._host_lo and host_ms.hi == self._host_hi))):
                return self.encode_next(type, payload)
            bump = uptime_ms.hi < _STAMP_HI_LIMIT and (host_ms == -1 or host_ms.hi < _STAMP_HI_LIMIT)
        i = self._header(boot, seq, uptime_ms, host_ms, bump)
        k = len(type)
        buf[i:i + k] = type
        i += k
        n = len(payload)
        if n:
            buf[i] = _SPACE
            i += 1
            buf[i:i + n] = payload             # a slice store: no copy of the payload is made
            i += n
        # Allocated, with binascii's CRC (crc32.py): its view and word; with the native or the portable
        # one: nothing. check_printable's search, when it runs, allocates its match object and frees it.
        crc_mod.crc32_hex_into(buf, 1, i, buf, i + 1)
        buf[i] = _STAR
        buf[i + 9] = 10
        return i + 10

    def encode_next(self, type, payload):
        """The frame after the last one encode() made, with its header kept: the same boot and stamps
        (unchanged since: the caller's promise, e.g. the Sender between two pieces of a report, with
        no poll between), seq one more; payload (bytes-like) checked by the caller. Returns n, as
        encode(); ValueError when no header is kept (the last frame's stamps were not Stamps)."""
        i = self._head
        if not i:
            raise ValueError("encode_next: no header kept")
        buf = self.buf
        n = len(payload)
        if _HEADER_MOST + n + _TRAILER + 1 > len(buf):
            raise ValueError("a %d-byte payload may not fit a %d-byte frame" % (n, len(buf)))
        if type is not self._type:
            type = self._check_type(type)
        seq = self._seq + 1
        j = self._seq_end - 1
        while buf[j] == 57:                      # seq's digits one more, in place
            buf[j] = 48
            j -= 1
        if buf[j] == _DOT:                       # 9s only: a digit more, the header written whole
            i = self._header(self._boot, seq, self._up, self._host, False)
        else:
            buf[j] += 1
            self._seq = seq
        k = len(type)
        buf[i:i + k] = type
        i += k
        if n:
            buf[i] = _SPACE
            i += 1
            buf[i:i + n] = payload
            i += n
        crc_mod.crc32_hex_into(buf, 1, i, buf, i + 1)     # as in encode()
        buf[i] = _STAR
        buf[i + 9] = 10
        return i + 10

    def run_bytes(self, n, size, most, part, last):
        """(total, longest): the bytes of a report's frames and the longest one's, the first the frame the last
        encode() made (n bytes: a `part` frame of the first `most` of `size` payload bytes), the next ones
        encode_next()'s (`part` frames of `most` bytes, then a `last` one): their seq a digit longer from the
        power of 10 past the first's on, as encode_next() writes them. ValueError when no header is kept (as
        encode_next()): before a store takes any of them (JournalStore.append_run)."""
        if not self._head:
            raise ValueError("encode_next: no header kept")
        pieces = (size + most - 1) // most
        power = 10
        while power <= self._seq:
            power *= 10
        grown = self._seq + pieces - power           # the frames numbered `power` or more (a digit more)
        if grown < 0:
            grown = 0
        end = n - most - len(part) + len(last) + size - (pieces - 1) * most + (1 if grown else 0)   # the last
        longest = n + 1 if grown > 1 else n          # a part frame's: the first never gains the digit
        return (pieces - 1) * n + end + (grown - 1 if grown else 0), longest if longest > end else end

    def _check_type(self, type):
        """Checks a TYPE (bytes, str or a buffer) and keeps it (bytes) as the one checked; returns it."""
        if not isinstance(type, bytes):
            type = type.encode() if isinstance(type, str) else bytes(type)
        # isalpha and isupper: A-Z only (bytes: ASCII), and no regex search, whose match object
        # MicroPython allocates (and frees) even when nothing matches.
        if not 1 <= len(type) <= MAX_TYPE or not (type.isalpha() and type.isupper()):
            raise ValueError("TYPE must be 1..%d capital letters" % MAX_TYPE)
        self._type = type
        return type

    def _header(self, boot, seq, uptime_ms, host_ms, bump):
        """"#<boot>.<seq> <stamp> " written whole into buf (bump: the kept one's seq + 1 in place, the Stamps'
        digits again; 9s: whole); returns its length. Kept when both stamps are Stamps (or no host's)."""
        buf = self.buf
        if bump:
            j = self._seq_end - 1
            while buf[j] == 57:
                buf[j] = 48
                j -= 1
            bump = buf[j] != _DOT
            if bump:
                buf[j] += 1
                i, host_stamp = self._seq_end, host_ms != -1
        if not bump:
            self._head = 0
            if not (0 <= boot <= MAX_NUMBER and 0 <= seq <= MAX_NUMBER):
                raise ValueError("boot and seq must be 0..%d" % MAX_NUMBER)
            # uptime_ms, host_ms: ints, or Stamps (the Sender's: nothing allocated for their digits).
            up_stamp = isinstance(uptime_ms, Stamp)
            host_stamp = isinstance(host_ms, Stamp)
            if (uptime_ms.hi >= _STAMP_HI_LIMIT if up_stamp else not 0 <= uptime_ms < _LIMIT) \
                    or (host_ms.hi >= _STAMP_HI_LIMIT if host_stamp else host_ms >= _LIMIT):
                raise ValueError("stamp out of range")
            buf[0] = _HASH
            i = put_uint(buf, 1, boot)
            buf[i] = _DOT
            i = put_uint(buf, i + 1, seq)
            buf[i] = _SPACE
            if not (up_stamp and (host_stamp or host_ms == -1)):
                i = put_stamp(buf, i + 1, uptime_ms) if up_stamp else put_uint(buf, i + 1, uptime_ms)
                if host_stamp or host_ms >= 0:
                    buf[i] = _AT
                    i = put_stamp(buf, i + 1, host_ms) if host_stamp else put_uint(buf, i + 1, host_ms)
                buf[i] = _SPACE
                return i + 1
            self._boot = boot
            self._seq_end = i
            self._up = uptime_ms
            self._host = host_ms
        self._seq = seq
        i = put_stamp(buf, i + 1, uptime_ms) if uptime_ms.hi else put_uint(buf, i + 1, uptime_ms.lo)
        self._up_hi = uptime_ms.hi
        self._up_lo = uptime_ms.lo
        if host_stamp:
            buf[i] = _AT
            i = put_stamp(buf, i + 1, host_ms)
            self._host_hi = host_ms.hi
            self._host_lo = host_ms.lo
        buf[i] = _SPACE
        self._head = i + 1
        return i + 1


def encode(boot, seq, type, payload=b"", uptime_ms=0, host_ms=-1):
    """One frame as bytes, with its LF (host side and tests)."""
    enc = Encoder()
    n = enc.encode(boot, seq, type, payload, uptime_ms, host_ms)
    return bytes(enc.buf[:n])
