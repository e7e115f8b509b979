# CRC-32 written into a buffer: the host-link frame's and the journal record's (binascii.crc32's,
# the IEEE/zlib one), without a 32-bit int in between.
#
#   crc32_into(data, start, end, out, at, seed_at)  the CRC of data[start:end] as 4 bytes,
#       little-endian (the journal record's order), into out[at:at + 4]; seed_at >= 0 continues
#       from the CRC already in out[seed_at:seed_at + 4] (binascii.crc32(data, seed)), -1 does not
#   crc32_hex_into(data, start, end, out, at)  the same CRC as 8 upper-case hex digits (the frame's)
#       into out[at:at + 8]
#
# Both return None: on a port whose small ints have 31 bits (the RP2040, the ESP32, the
# WebAssembly VM) a CRC-32 as an int is a heap object 3 times in 4, so none is handed out. An
# index outside the buffers is a ValueError, the same on every implementation.
#
# Three implementations, one picked at import (docs/host-link.md, "The CRC on each runtime"), each
# made only where it is picked (a board's heap keeps only the one it runs):
# - on a board: crc32_viper's, native code (armv6m, xtensawin): allocates nothing;
# - where MicroPython has no native emitter (the WebAssembly VM refuses to compile the viper
#   module: SyntaxError) and on CPython: binascii.crc32 in C (defined below, only there), which
#   allocates a view and, on a 31-bit port, the result word, and the frame's 8 digits
#   (record.encode_into packs binascii's words itself there: the wrapper's Python call and checks
#   cost the VM 3 us a record);
# - crc32_portable's: pure Python in 16-bit halves (small ints only), allocates nothing but costs
#   about 1.2 us a byte on the VM. use_portable() installs it: the heap_lock tests on the VM run
#   the frame and record encoders with it, proving that nothing else in them allocates.
from firmware.compat import native_arch

# -- which one ------------------------------------------------------------------


def _native():
    """crc32_viper where this MicroPython runs native code, else None."""
    if not native_arch():
        # Not even tried: a port without a native emitter refuses to compile it ("SyntaxError:
        # invalid micropython decorator"), and on the VM that failed compile left up to 18 KB of
        # the heap held (bench/memory_vm.py, Omaha's code: 224 KB without it, 243 KB with it).
        return None              # CPython and hostsim (its stand-in `micropython` has no viper) too
    try:
        from firmware.link import crc32_viper
    except (ImportError, SyntaxError, ValueError, MemoryError):
        return None              # left out of the build, an .mpy of another CPU, no room: binascii's
    return crc32_viper


_NATIVE = _native()
NATIVE = _NATIVE is not None     # True on a board: crc32_into and crc32_hex_into are native code
if NATIVE:
    DEFAULT = (_NATIVE.crc32_into, _NATIVE.crc32_hex_into)
    binascii_into = None         # (record.encode_in_place asks whether crc32_into is binascii's: never here)
else:
    # -- binascii's, in C: defined only where it is the one that runs (a board keeps none of it) -------
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
        # the VM, where 8 digit stores from Python took 9.1 (bench figures: docs/performance-log.md).
        out[at:at + 8] = b"%08X" % _binascii_crc32(memoryview(data)[start:end])

    DEFAULT = (binascii_into, binascii_hex_into)
# Callers look these up here at each call (crc32.crc32_into(...)), so use_portable() reaches them.
crc32_into, crc32_hex_into = DEFAULT


def use_portable():
    """Install crc32_portable's pair (the heap_lock tests); use_default() puts DEFAULT back."""
    global crc32_into, crc32_hex_into
    from firmware.link import crc32_portable
    crc32_into = crc32_portable.crc32_into
    crc32_hex_into = crc32_portable.crc32_hex_into


def use_default():
    global crc32_into, crc32_hex_into
    crc32_into, crc32_hex_into = DEFAULT
