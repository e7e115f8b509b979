# The module names firmware imports on a board (machine, neopixel, framebuf, micropython; rp2 on an RP2040
# only) and those Adafruit's CircuitPython NeoPixel library imports (board, digitalio, neopixel_write,
# microcontroller), each served by hostsim's module of that name: hostsim.hardware.install() puts them
# into sys.modules, uninstall() gives back what was there before.
import sys

# rp2 is hostsim.rp2 on an RP2040 board only; elsewhere the name is blocked (import rp2 fails, as on the chip).
MODULE_NAMES = ("machine", "neopixel", "framebuf", "board", "digitalio", "neopixel_write", "microcontroller", "rp2",
                "micropython")
PIO_MCU = "rp2040"      # the chip whose MicroPython has the rp2 module (PIO)

_ABSENT = object()      # a module name sys.modules did not have before register()


def register(mcu):
    """hostsim's modules into sys.modules under MODULE_NAMES for an MCU -> what they replaced (for restore())."""
    from hostsim import (board, digitalio, framebuf, machine, microcontroller, micropython, neopixel, neopixel_write,
                         rp2)

    mods = {"machine": machine, "neopixel": neopixel, "framebuf": framebuf, "board": board, "digitalio": digitalio,
            "neopixel_write": neopixel_write, "microcontroller": microcontroller, "micropython": micropython}
    mods["rp2"] = rp2 if mcu == PIO_MCU else None     # None in sys.modules: ImportError
    saved = {}
    for name in MODULE_NAMES:
        saved[name] = sys.modules.get(name, _ABSENT)
        sys.modules[name] = mods[name]
    return saved


def restore(saved):
    """Put back what register() replaced (a name that was absent is removed)."""
    for name, mod in saved.items():
        if mod is _ABSENT:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = mod
