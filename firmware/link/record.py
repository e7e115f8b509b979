# The journal's on-flash record: layout, checks, and reading one file back (issue 12; a whole file checked
# at boot: firmware/link/journal_read.py).
#
#   length u16 | kind u8 | generation u32 | CRC-32 of those 7 bytes | payload | CRC-32 of payload
#
# little-endian, 15 bytes around the payload. The header has its own CRC so a
# flipped length bit is caught before the length is believed (it would
# otherwise pass for a record cut short by a power cut); the payload CRC is
# seeded with the header's, so the two cannot be mixed between records. A
# file's first record is its base (kind BASE): entries `kind u8 | length u16 |
# bytes`, the state a checkpoint or compaction wrote. Full layout and why:
# docs/journal.md.
import struct
from binascii import crc32

from firmware.link import crc32 as crc_mod

# What reading found: the worse of two wins.
CLEAN = const(0)
TORN = const(1)            # a record cut short at the end of a file: what a power cut leaves
CORRUPT = const(2)         # a complete record failing a check: flipped bits or stale data; alarm

OVERHEAD = const(15)       # header, header CRC, payload CRC
PAYLOAD_MAX = const(65535)
BASE = const(0)            # kind of a file's first record; appended records are 1..255
ENTRY = "<BH"              # inside a base: kind, length, then the bytes
ENTRY_SIZE = const(3)
GEN_MASK = const(0xFFFFFFFF)
CHECK = "<I"

_HEADER = "<HBI"           # payload length, kind, generation
_HEADER_SIZE = const(7)
_HEAD_SIZE = const(11)     # header and its CRC
HEAD_SIZE = _HEAD_SIZE     # where encode_in_place() wants the payload
_CRC_SIZE = const(4)
_HALF_CIRCLE = const(0x80000000)
_CHUNK = const(256)        # a base is written in pieces of about this size (bounded RAM)


def head(length, kind, gen):
    """(header and its CRC as bytes, that CRC: the payload CRC's seed)."""
    header = struct.pack(_HEADER, length, kind, gen)
    check = crc32(header)
    return header + struct.pack(CHECK, check), check


def encode(kind, gen, payload):
    """One whole record, ready for a single write."""
    header, check = head(len(payload), kind, gen)
    return header + payload + struct.pack(CHECK, crc32(payload, check))


def encode_into(buf, kind, gen, payload):
    """encode()'s record written into buf (a bytearray of len(payload) + OVERHEAD bytes or more)
    instead of built; returns its length. ValueError, buf untouched, when the record does not fit."""
    n = len(payload)
    if len(buf) < n + OVERHEAD:
        raise ValueError("a %d-byte record needs a buffer of %d bytes, not %d" % (n, n + OVERHEAD, len(buf)))
    buf[_HEAD_SIZE:_HEAD_SIZE + n] = payload
    return encode_in_place(buf, kind, gen, n, payload)


def encode_in_place(buf, kind, gen, n, payload=None):
    """The record around the n payload bytes the caller put at buf[HEAD_SIZE:HEAD_SIZE + n]: its
    header, the header's CRC and the payload's CRC written in place; returns its length (n +
    OVERHEAD; buf holds at least that, the caller checked). With the board's native CRC (or the
    portable one) both CRCs are written by crc32.crc32_into, the payload's seeded from the header's
    just written: nothing is allocated. With binascii's (the VM, CPython) its words are packed
    here instead, 3 us a record sooner on the VM than through crc32_into: views and two words
    (payload: the same bytes elsewhere, taken by binascii without a view of buf)."""
    struct.pack_into(_HEADER, buf, 0, n, kind, gen)
    into = crc_mod.crc32_into
    if into is crc_mod.binascii_into:
        view = memoryview(buf)
        check = crc32(view[:_HEADER_SIZE])
        struct.pack_into(CHECK, buf, _HEADER_SIZE, check)
        struct.pack_into(CHECK, buf, _HEAD_SIZE + n,
                         crc32(view[_HEAD_SIZE:_HEAD_SIZE + n] if payload is None else payload, check))
    else:
        into(buf, 0, _HEADER_SIZE, buf, _HEADER_SIZE, -1)
        into(buf, _HEAD_SIZE, _HEAD_SIZE + n, buf, _HEAD_SIZE + n, _HEADER_SIZE)
    return n + OVERHEAD


def newer(gen, than):
    """Generations rise by one and wrap at 2**32: newer is less than half the circle ahead."""
    return 0 < (gen - than) & GEN_MASK < _HALF_CIRCLE


class Reader:
    """One journal file, record by record, each checked; stops for good at the first bad one."""

    def __init__(self, f, size):
        self.f = f
        self.size = size
        self.end = 0               # bytes of good records so far
        self.gen = None            # generation of the last good record
        self.status = CLEAN
        self.detail = ""

    def _stop(self, status, what):
        self.status = status
        self.detail = "%s at byte %d" % (what, self.end)
        return None

    def next(self):
        """(kind, payload) of the next good record; None at the end or at the first bad one."""
        if self.status != CLEAN:
            return None
        left = self.size - self.end
        if left == 0:
            return None
        header = self.f.read(_HEAD_SIZE)
        if len(header) < _HEAD_SIZE:
            return self._stop(TORN, "record header cut short")
        length, kind, gen = struct.unpack_from(_HEADER, header, 0)
        check = struct.unpack_from(CHECK, header, _HEADER_SIZE)[0]
        if crc32(header[:_HEADER_SIZE]) != check:
            return self._stop(CORRUPT, "record header fails its CRC")
        if (kind == BASE) != (self.gen is None):
            return self._stop(CORRUPT, "record of the wrong kind")
        if self.gen is not None and gen != (self.gen + 1) & GEN_MASK:
            return self._stop(CORRUPT, "record out of sequence (generation %d after %d)" % (gen, self.gen))
        if length + OVERHEAD > left:
            return self._stop(TORN, "record cut short")
        payload = self.f.read(length)
        tail = self.f.read(_CRC_SIZE)
        if len(payload) < length or len(tail) < _CRC_SIZE:
            return self._stop(TORN, "record cut short")
        if crc32(payload, check) != struct.unpack(CHECK, tail)[0]:
            return self._stop(CORRUPT, "record fails its CRC")
        self.end += length + OVERHEAD
        self.gen = gen
        return kind, payload


def entries(base, error):
    """The (kind, payload) entries inside a base record's payload; `error` (a class) if they do not add up."""
    at = 0
    while at < len(base):
        if at + ENTRY_SIZE > len(base):
            raise error("base entry cut short")
        kind, length = struct.unpack_from(ENTRY, base, at)
        at += ENTRY_SIZE
        if at + length > len(base):
            raise error("base entry cut short")
        yield kind, base[at:at + length]
        at += length


class Chunks:
    """Small pieces gathered into writes of about _CHUNK bytes; big ones go straight through.

    write(f, data) is the journal's, which counts the flash writes.
    """

    def __init__(self, write, f):
        self.write = write
        self.f = f
        self.buf = bytearray()

    def add(self, data):
        if len(self.buf) + len(data) > _CHUNK:
            self.flush()
        if len(data) >= _CHUNK:
            self.write(self.f, data)
        else:
            self.buf.extend(data)

    def flush(self):
        if self.buf:
            self.write(self.f, bytes(self.buf))
            self.buf = bytearray()
