# firmware/link/crc32.py: every implementation writes binascii.crc32's value (the IEEE/zlib CRC-32 of
# the host-link frame and the journal record) into a buffer, over any slice, seeded or not; the same
# indices are refused everywhere; the native module is refused where there is no native emitter.
# (Runs on the VM too: there the default is binascii's, the portable one is pure Python; and on the Unix
# port, tools/mpunix.py, where the default is the viper module's, running as native code.)
import sys
from binascii import crc32

from firmware.link import crc32 as crc_mod
from tests.firmware.expect import micropython_only, raises_match

_CHECK = 0xCBF43926         # CRC-32/ISO-HDLC's catalogued check value of b"123456789"


def _data(n):
    """n bytes covering every value, not a simple progression."""
    return bytes((i * 73 + (i >> 3) * 29 + 11) & 0xFF for i in range(n))


def _le(buf, at):
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def _implementations():
    crc_mod.use_portable()
    portable = (crc_mod.crc32_into, crc_mod.crc32_hex_into)
    crc_mod.use_default()
    return (("default", crc_mod.DEFAULT), ("portable", portable))


def test_every_implementation_gives_the_check_value():
    for name, (into, hex_into) in _implementations():
        out = bytearray(12)
        into(b"xx123456789yy", 2, 11, out, 3, -1)
        assert _le(out, 3) == _CHECK, name
        hex_into(b"123456789", 0, 9, out, 2)
        assert bytes(out[2:10]) == b"CBF43926", name
        assert out[0] == 0 and out[1] == 0 and out[10] == 0, name      # nothing outside its 8 bytes


def test_every_implementation_equals_binascii_over_lengths_offsets_and_seeds():
    data = _data(300)
    seeds = (0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x12345678)
    for name, (into, hex_into) in _implementations():
        out = bytearray(16)
        for length in list(range(0, 40)) + [63, 64, 65, 255, 256, 257, 290]:
            for start in (0, 1, 3, 7):
                end = start + length
                if end > len(data):
                    continue
                want = crc32(data[start:end]) & 0xFFFFFFFF
                into(data, start, end, out, 8, -1)
                assert _le(out, 8) == want, (name, start, length)
                hex_into(data, start, end, out, 4)
                assert bytes(out[4:12]) == ("%08X" % want).encode(), (name, start, length)
                seed = seeds[(start + length) % len(seeds)]
                out[0] = seed & 0xFF
                out[1] = (seed >> 8) & 0xFF
                out[2] = (seed >> 16) & 0xFF
                out[3] = (seed >> 24) & 0xFF
                into(data, start, end, out, 12, 0)
                assert _le(out, 12) == crc32(data[start:end], seed) & 0xFFFFFFFF, (name, start, length, seed)


def test_a_crc_over_its_own_buffer_may_land_next_to_the_bytes():
    # The record's case: the payload's CRC, seeded from the header's, written right after the payload.
    for name, (into, _) in _implementations():
        buf = bytearray(_data(20) + bytes(4))
        into(buf, 0, 7, buf, 7, -1)
        into(buf, 11, 20, buf, 20, 7)
        header_crc = crc32(bytes(buf[:7])) & 0xFFFFFFFF
        assert _le(buf, 7) == header_crc, name
        assert _le(buf, 20) == crc32(bytes(buf[11:20]), header_crc) & 0xFFFFFFFF, name


def test_every_implementation_refuses_indices_outside_the_buffers():
    # The native one has no bounds of its own (a pointer): all refuse alike, before writing anything.
    data = _data(10)
    for name, (into, hex_into) in _implementations():
        out = bytearray(8)
        for start, end, at, seed_at in ((-1, 5, 0, -1), (6, 5, 0, -1), (0, 11, 0, -1), (0, 10, -1, -1),
                                        (0, 10, 5, -1), (0, 10, 0, 5)):
            raises_match(ValueError, "outside the buffers", into, data, start, end, out, at, seed_at)
        for start, end, at in ((-1, 5, 0), (6, 5, 0), (0, 11, 0), (0, 10, -1), (0, 10, 1)):
            raises_match(ValueError, "outside the buffers", hex_into, data, start, end, out, at)
        assert out == bytearray(8), name


def test_use_portable_and_use_default_switch_what_callers_get():
    try:
        crc_mod.use_portable()
        assert crc_mod.crc32_into is not crc_mod.DEFAULT[0]
        assert crc_mod.crc32_hex_into is not crc_mod.DEFAULT[1]
    finally:
        crc_mod.use_default()
    assert (crc_mod.crc32_into, crc_mod.crc32_hex_into) == crc_mod.DEFAULT


def test_the_native_crc_is_used_exactly_where_the_port_runs_native_code():
    # A board (sys.implementation._mpy names its CPU) imports crc32_viper (native code) and uses it;
    # CPython and the VM (no native emitter) do not even try: binascii's there.
    if crc_mod.native_arch():
        assert crc_mod.NATIVE
        from firmware.link import crc32_viper
        assert crc_mod.DEFAULT == (crc32_viper.crc32_into, crc32_viper.crc32_hex_into)
        return
    assert not crc_mod.NATIVE
    assert "firmware.link.crc32_viper" not in sys.modules
    assert crc_mod.DEFAULT == (crc_mod.binascii_into, crc_mod.binascii_hex_into)


@micropython_only
def test_a_port_without_native_code_refuses_the_viper_module_and_one_with_it_runs_it():
    # The VM: why crc32 does not try it there (the compile fails, and its failure kept heap, crc32._native).
    # The Unix port (tools/mpunix.py: x86-64 native code) runs it as a board does: the tests above then
    # checked the viper code itself against binascii (DEFAULT is crc32_viper's there).
    if sys.implementation._mpy >> 10 == 0:
        assert crc_mod.native_arch() == 0
        raises_match(SyntaxError, "decorator", __import__, "firmware.link.crc32_viper")
        assert "firmware.link.crc32_viper" not in sys.modules
        return
    from firmware.link import crc32_viper
    assert crc_mod.DEFAULT == (crc32_viper.crc32_into, crc32_viper.crc32_hex_into)
    out = bytearray(8)
    crc32_viper.crc32_hex_into(b"123456789", 0, 9, out, 0)
    assert bytes(out) == b"CBF43926"
