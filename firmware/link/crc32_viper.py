# firmware/link/crc32.py's crc32_into and crc32_hex_into in native code, for a board: compiled by
# mpy-cross -march=armv6m (RP2040) or -march=xtensawin (ESP32-S3) in tools/build.py. Same contract
# (read crc32.py first). Viper keeps the CRC in a 32-bit register (uint), so nothing is allocated,
# and a byte costs one table load and a few ALU operations.
#
# Only a MicroPython with a native emitter for its CPU can compile this file: CPython cannot import
# `micropython`, and the WebAssembly VM says "SyntaxError: invalid micropython decorator"; there
# crc32.py falls back to binascii.crc32. A board built without -march (the sim board: hostsim runs
# CPython) leaves it out (tools/build.py NATIVE_ONLY). Run by the tests on MicroPython's Unix port
# (tools/mpunix.py: x86-64 native code, a 64-bit uint) against binascii; tests/host/test_crc32_viper.py
# compiles it for both boards' CPUs and runs its logic on CPython with ptr8/ptr32/uint stood in for.
import micropython

_TABLE = bytearray(1024)       # the byte-at-a-time table: 256 words in the CPU's order (_fill)


@micropython.viper
def _fill(table):
    t = ptr32(table)
    poly = (uint(0xEDB8) << 16) | uint(0x8320)   # the reflected polynomial, made in a register
    i = 0
    while i < 256:
        c = uint(i)
        k = 0
        while k < 8:
            if c & 1:
                c = (c >> 1) ^ poly
            else:
                c = c >> 1
            k += 1
        t[i] = c
        i += 1


@micropython.viper
def crc32_into(data, start: int, end: int, out, at: int, seed_at: int):
    # A pointer has no bounds: a wrong index would read or write outside the buffers.
    size = int(len(out))
    if start < 0 or start > end or end > int(len(data)) or at < 0 or at + 4 > size or seed_at + 4 > size:
        raise ValueError("crc32_into: index outside the buffers")
    src = ptr8(data)
    dst = ptr8(out)
    table = ptr32(_TABLE)
    ones = (uint(0xFFFF) << 16) | uint(0xFFFF)
    crc = ones
    if seed_at >= 0:
        crc = (uint(dst[seed_at]) | (uint(dst[seed_at + 1]) << 8) | (uint(dst[seed_at + 2]) << 16)
               | (uint(dst[seed_at + 3]) << 24)) ^ ones
    i = start
    while i < end:
        crc = uint(table[int((crc ^ uint(src[i])) & 0xFF)]) ^ (crc >> 8)
        i += 1
    crc ^= ones
    dst[at] = crc & 0xFF
    dst[at + 1] = (crc >> 8) & 0xFF
    dst[at + 2] = (crc >> 16) & 0xFF
    dst[at + 3] = crc >> 24


@micropython.viper
def crc32_hex_into(data, start: int, end: int, out, at: int):
    if start < 0 or start > end or end > int(len(data)) or at < 0 or at + 8 > int(len(out)):
        raise ValueError("crc32_into: index outside the buffers")
    src = ptr8(data)
    dst = ptr8(out)
    table = ptr32(_TABLE)
    ones = (uint(0xFFFF) << 16) | uint(0xFFFF)
    crc = ones
    i = start
    while i < end:
        crc = uint(table[int((crc ^ uint(src[i])) & 0xFF)]) ^ (crc >> 8)
        i += 1
    crc ^= ones
    k = 0
    while k < 8:                                  # most significant digit first, upper case
        digit = int((crc >> 28) & 0xF)
        dst[at + k] = digit + 48 if digit < 10 else digit + 55
        crc = crc << 4
        k += 1


_fill(_TABLE)
