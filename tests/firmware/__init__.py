# Dual-runtime tests: every module here runs under pytest (CPython) and on the
# MicroPython VM (tools/mpvm.py; tests/test_on_micropython.py does it for each
# module in `make test`). The conventions, all checked by the VM runner:
# - Plain module-level `test_*` functions with plain asserts, returning None.
#   No fixtures, no pytest imports; tests.firmware.expect has what pytest would
#   otherwise provide (raises, raises_match).
# - No `async def` or `yield` in a test (it would return a generator whose body
#   never runs: the VM fails it) and no `return value` (fails on both runtimes).
# - No `class Test*`: the VM refuses test classes (a FAIL), so that pytest's
#   class protocol (setup_method, ...) is never half-imitated there.
# - The VM must run exactly the tests pytest collects from the module. A test
#   for one runtime only is marked, never hidden behind `if IS_MICROPYTHON`:
#   @expect.cpython_only (the VM reports `skip NAME (CPython only)`) or
#   @expect.micropython_only (pytest reports it skipped); say why in a comment.
# The terminal summary of `make test` lists each module's count on MicroPython
# and its CPython-only tests.
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
#
# An RP2040 board's bring-up imports `rp2` for its PIO ports (boards/pico.json's
# bet reader). Neither runtime here has it (the VM is no RP2040), so tests that
# boot the pico on fake hardware get tests.firmware.fakes.FakeRP2; a test that
# looks at the state machines passes its own FakeRP2 to bring_up(rp2=...).
# hostsim.hardware.install() puts its own rp2 (or none) in place while installed.
try:
    import rp2  # noqa: F401
except ImportError:
    import sys
    from tests.firmware.fakes import FakeRP2
    sys.modules["rp2"] = FakeRP2()
