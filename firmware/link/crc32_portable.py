# firmware/link/crc32.py's crc32_into and crc32_hex_into in pure Python (same contract: read
# crc32.py first), the CRC kept as two 16-bit halves so every value is a small int on every port:
# nothing is allocated, but a byte costs about 1.2 us on the WebAssembly VM, too slow for its hot
# path. The heap_lock tests install it (crc32.use_portable(), which alone imports this module and
# so costs a board nothing) to prove the frame and record encoders allocate nothing around it.
from array import array

_HEX = b"0123456789ABCDEF"
_WORD = bytearray(4)           # crc32_hex_into's CRC before it becomes digits


def _tables():
    """The byte-at-a-time table of the reflected polynomial 0xEDB88320, in halves (1 KB)."""
    low = array("H", bytes(512))
    high = array("H", bytes(512))
    for i in range(256):
        lo = i
        hi = 0
        for _ in range(8):
            carry = lo & 1
            lo = (lo >> 1) | ((hi & 1) << 15)
            hi >>= 1
            if carry:
                lo ^= 0x8320
                hi ^= 0xEDB8
        low[i] = lo
        high[i] = hi
    return low, high


_LOW, _HIGH = _tables()


def _refuse():
    raise ValueError("crc32_into: index outside the buffers")


def crc32_into(data, start, end, out, at, seed_at):
    size = len(out)
    if start < 0 or start > end or end > len(data) or at < 0 or at + 4 > size or seed_at + 4 > size:
        _refuse()
    low = _LOW
    high = _HIGH
    if seed_at < 0:
        lo = 0xFFFF
        hi = 0xFFFF
    else:
        lo = (out[seed_at] | (out[seed_at + 1] << 8)) ^ 0xFFFF
        hi = (out[seed_at + 2] | (out[seed_at + 3] << 8)) ^ 0xFFFF
    for i in range(start, end):
        k = (lo ^ data[i]) & 0xFF
        lo = low[k] ^ ((hi & 0xFF) << 8) ^ (lo >> 8)
        hi = high[k] ^ (hi >> 8)
    lo ^= 0xFFFF
    hi ^= 0xFFFF
    out[at] = lo & 0xFF
    out[at + 1] = lo >> 8
    out[at + 2] = hi & 0xFF
    out[at + 3] = hi >> 8


def crc32_hex_into(data, start, end, out, at):
    if at < 0 or at + 8 > len(out):
        _refuse()
    word = _WORD
    crc32_into(data, start, end, word, 0, -1)
    for b in range(3, -1, -1):
        out[at] = _HEX[word[b] >> 4]
        out[at + 1] = _HEX[word[b] & 15]
        at += 2
