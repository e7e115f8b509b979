"""A viper module's logic run by CPython (tests/host/test_crc32_viper.py, test_hand_value_viper.py): viper's
decorator a no-op, its pointer and int casts given by the caller (memoryviews, a 32-bit mask)."""
import sys
import types

from tools import build


def emulate(monkeypatch, source, casts):
    """The names the module at `source` (a repository path) defines, run with `casts` (ptr8, ptr32, uint...)."""
    fake = types.ModuleType("micropython")
    fake.viper = lambda f: f
    monkeypatch.setitem(sys.modules, "micropython", fake)
    names = dict(casts, __name__=source.rsplit("/", 1)[-1][:-3] + "_emulated")
    with open(build.REPO + "/" + source) as f:
        exec(compile(f.read(), source, "exec"), names)
    return names
