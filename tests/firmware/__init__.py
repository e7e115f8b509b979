# Dual-runtime tests: every module here runs under pytest (CPython) and on the
# MicroPython VM (tools/mpvm.py). Plain `test_*` functions, plain asserts, no
# fixtures; use tests.firmware.expect for what pytest would otherwise provide.
#
# Firmware imports `framebuf`, which MicroPython has built in. On CPython the
# host simulator supplies it (hostsim.hardware.install() does so for a run);
# here it is registered for the dual-runtime tests the same way, so a driver
# imports unchanged on both runtimes.
try:
    import framebuf  # noqa: F401
except ImportError:
    import sys
    from hostsim import framebuf
    sys.modules["framebuf"] = framebuf
