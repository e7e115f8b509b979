# CircuitPython's `board` module for the simulated MCU: D0..D63 (also GP0..GP63) and NEOPIXEL.
#
# NEOPIXEL is GPIO 16, the pixel data pin of boards/sim.json; firmware code
# goes through MicroPython's neopixel API (hostsim/neopixel.py), which picks
# the board pin matching its machine.Pin whatever the number.
from hostsim import microcontroller as _mc

for _n in range(64):
    globals()["D%d" % _n] = getattr(_mc.pin, "GPIO%d" % _n)
    globals()["GP%d" % _n] = getattr(_mc.pin, "GPIO%d" % _n)
del _n

NEOPIXEL = globals()["D16"]


def pin_for(pin_id):
    """The board pin object of GPIO pin_id."""
    return getattr(_mc.pin, "GPIO%d" % pin_id)
