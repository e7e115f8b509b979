# MicroPython's `neopixel` API, running on Adafruit's CircuitPython NeoPixel library, unmodified.
#
# Both libraries are called `neopixel`, so Adafruit's file is loaded from its
# installed distribution under the name `hostsim._adafruit_neopixel`. It then
# imports board, digitalio, neopixel_write (and microcontroller for a type
# annotation) -- hostsim's simulated CircuitPython modules, registered by
# hostsim.hardware.install() -- and its show() ends in neopixel_write(), which
# records the wire bytes per pin (hardware.strip(pin)).
import importlib.metadata
import importlib.util
import os
import sys

from hostsim import board as _board
from hostsim import hardware as _hw
from hostsim.machine import _pin_id

ADAFRUIT_DIST = "adafruit-circuitpython-neopixel"
ADAFRUIT_MODULE = "hostsim._adafruit_neopixel"

_adafruit = None


def adafruit_module():
    """Adafruit's neopixel module, loaded once from its installed distribution (needs install())."""
    global _adafruit
    if _adafruit is None:
        _hw.current()   # its imports of board/digitalio/neopixel_write must find hostsim's
        try:
            dist = importlib.metadata.distribution(ADAFRUIT_DIST)
        except importlib.metadata.PackageNotFoundError:
            raise ImportError("%s is not installed: run `make deps` (requirements-nodeps.txt)" % ADAFRUIT_DIST)
        path = str(dist.locate_file("neopixel.py"))
        if not os.path.isfile(path):
            raise ImportError("%s has no neopixel.py at %s" % (ADAFRUIT_DIST, path))
        spec = importlib.util.spec_from_file_location(ADAFRUIT_MODULE, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[ADAFRUIT_MODULE] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(ADAFRUIT_MODULE, None)
            raise
        _adafruit = module
    return _adafruit


class NeoPixel:
    """NeoPixel(pin, n, bpp=3, timing=1) as in MicroPython; colours are (r, g, b[, w]) tuples."""

    ORDER = (1, 0, 2, 3)    # MicroPython's wire order: G R B W

    def __init__(self, pin, n, bpp=3, timing=1):
        if bpp not in (3, 4):
            raise ValueError("bpp must be 3 or 4, got %r" % (bpp,))
        if not isinstance(n, int) or n < 0:
            raise ValueError("invalid pixel count %r" % (n,))
        hw = _hw.current()
        pin_id = _pin_id(pin)
        hw.pin(pin_id)                      # validates the pin number
        lib = adafruit_module()
        hw.strip(pin_id).bpp = bpp
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self._strip = lib.NeoPixel(_board.pin_for(pin_id), n, bpp=bpp, auto_write=False,
                                   pixel_order=lib.GRB if bpp == 3 else lib.GRBW)

    @property
    def buf(self):
        """The wire-order bytearray (MicroPython's .buf): Adafruit's own transmit buffer."""
        return self._strip._post_brightness_buffer

    @property
    def adafruit(self):
        """The underlying adafruit NeoPixel object (for tests)."""
        return self._strip

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        self._strip[index] = tuple(value)[:self.bpp]

    def __getitem__(self, index):
        return tuple(self._strip[index])

    def fill(self, value):
        self._strip.fill(tuple(value)[:self.bpp])

    def write(self):
        self._strip.show()

    def __repr__(self):
        return "NeoPixel(%r, %d, bpp=%d)" % (self.pin, self.n, self.bpp)
