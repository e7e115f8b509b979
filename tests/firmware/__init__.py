# Dual-runtime tests: every module here runs under pytest (CPython) and on the
# MicroPython VM (tools/mpvm.py). Plain `test_*` functions, plain asserts, no
# fixtures; use tests.firmware.expect for what pytest would otherwise provide.
