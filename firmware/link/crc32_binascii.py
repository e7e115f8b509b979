# CRC-32 written into a buffer by binascii.crc32 (in C): firmware/link/crc32.py's pair where MicroPython
# has no native emitter (the WebAssembly VM) and on CPython; a board runs crc32_viper's and never imports
# this module (docs/host-link.md, "The CRC on each runtime"). The interface: firmware/link/crc32.py.
import struct
from binascii import crc32 as _binascii_crc32

_LE32 = "<I"


def _refuse():
    raise ValueError("crc32_into: index outside the buffers")


def binascii_into(data, start, end, out, at, seed_at):
    size = len(out)
    if start < 0 or start > end or end > len(data) or at < 0 or at + 4 > size or seed_at + 4 > size:
        _refuse()
    if start != 0 or end != len(data):
        data = memoryview(data)[start:end]
    if seed_at < 0:
        crc = _binascii_crc32(data)
    else:
        crc = _binascii_crc32(data, struct.unpack_from(_LE32, out, seed_at)[0])
    struct.pack_into(_LE32, out, at, crc)


def binascii_hex_into(data, start, end, out, at):
    if start < 0 or start > end or end > len(data) or at < 0 or at + 8 > len(out):
        _refuse()
    # The 8 digits formatted in C, one bytes object more than the view and the word: 2.6 us a frame on
    # the VM, where 8 digit stores from Python took 9.1 (bench figures: docs/performance.md).
    out[at:at + 8] = b"%08X" % _binascii_crc32(memoryview(data)[start:end])
