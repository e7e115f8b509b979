# Host simulator: MicroPython's machine/neopixel and CircuitPython's board/digitalio/neopixel_write on CPython.
#
# See docs/hostsim.md. Entry point for tests: hostsim.hardware.install().
