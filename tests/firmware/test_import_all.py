# Every firmware module imports on this runtime (on the VM: real MicroPython).
import os


def _modules(path="firmware", package="firmware"):
    found = []
    for name in sorted(os.listdir(path)):
        full = path + "/" + name
        if name.endswith(".py") and name != "__init__.py":
            found.append(package + "." + name[:-3])
        elif "." not in name and name != "__pycache__":
            try:
                os.listdir(full)
            except OSError:
                continue
            found.extend(_modules(full, package + "." + name))
    return found


# Native code (@micropython.viper): imports only where MicroPython compiles it for the CPU (a board);
# elsewhere firmware.link.crc32 uses binascii instead (tests/firmware/test_crc32.py checks the refusal).
NATIVE_ONLY = ("firmware.link.crc32_viper", "firmware.games.omaha.hand_value_viper")


def test_every_firmware_module_imports():
    from firmware.link import crc32
    modules = _modules()
    assert "firmware.main" in modules and "firmware.games.baccarat.rules" in modules
    assert all(name in modules for name in NATIVE_ONLY)
    failed = []
    for name in modules:
        if name in NATIVE_ONLY and not crc32.NATIVE:
            continue
        try:
            __import__(name)
        except ImportError as exc:
            # main.py imports asyncio etc. that every runtime has; anything else is a real failure
            failed.append("%s: %s" % (name, exc))
        except Exception as exc:
            failed.append("%s: %s: %s" % (name, type(exc).__name__, exc))
    assert not failed, "\n".join(failed)
