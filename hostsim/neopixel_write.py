# CircuitPython's `neopixel_write` module, simulated: the bytes it would clock out are recorded per pin.
#
# Adafruit's NeoPixel library hands its finished buffer (wire order, GRB for a
# 3-byte strip) to neopixel_write(); here that lands in the installed
# Hardware's PixelStrip for the pin: .raw (latest bytes), .writes (count),
# .pixels() (decoded (r, g, b) as a WS2812 strip would show them).
from hostsim import hardware as _hw


def neopixel_write(digitalinout, buf):
    pin = digitalinout.pin if hasattr(digitalinout, "pin") else digitalinout
    _hw.current().strip(pin.id).record(buf)
