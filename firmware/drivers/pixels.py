# Bet-zone lights on a NeoPixel strip: zones by index, one funnel to the hardware.
#
# The strip object (MicroPython neopixel.NeoPixel or the simulator's) comes from
# the board bring-up. All hardware access goes through _transmit(), so tests
# subclass it and count writes. Colours are preallocated tuples: lighting a
# zone inside the table's dispatch allocates nothing.
#
# On MicroPython, where the strip is neopixel.NeoPixel (its bytes in .buf, in its
# ORDER, 3 a pixel), a zone's pixels are filled in that buffer directly with its
# colour's 3 bytes: neopixel's __setitem__ is Python, a call and a loop a pixel
# (a whole frame of the pico's 76 pixels took 370 calibration-loop iterations).
from firmware.compat import IS_MICROPYTHON

OFF = (0, 0, 0)
WHITE = (40, 40, 40)
DIM = (6, 6, 6)         # zones closed for bets, or not in play
RED = (60, 0, 0)
BLUE = (0, 0, 60)
GREEN = (0, 60, 0)
GOLD = (60, 40, 0)


class ZoneLights:
    def __init__(self, strip, count, zone_ranges):
        """zone_ranges: list of (zone name, [[first, last], ...]) for the active layout."""
        self.strip = strip
        self.count = count
        self.names = [name for name, _ in zone_ranges]
        self.ranges = [tuple(tuple(r) for r in ranges) for _, ranges in zone_ranges]
        self.colours = [OFF] * len(zone_ranges)
        self._shown = [None] * len(zone_ranges)     # the colour each zone's pixels hold (None: not yet)
        self.dirty = True
        self.writes = 0
        self._buf = None                            # the strip's own bytes, when they can be filled
        self._patterns = {}                         # colour -> its 3 bytes in the strip's order
        if IS_MICROPYTHON and getattr(strip, "bpp", 0) == 3 and hasattr(strip, "buf") and hasattr(strip, "ORDER"):
            self._buf = strip.buf
            self._order = strip.ORDER
            for colour in (OFF, WHITE, DIM, RED, BLUE, GREEN, GOLD):
                self._pattern(colour)

    def _pattern(self, colour):
        """colour's bytes as neopixel's __setitem__ would write them (made once per colour)."""
        p = self._patterns.get(colour)
        if p is None:
            p = bytearray(3)
            for i in range(3):
                p[self._order[i]] = colour[i]
            self._patterns[colour] = p
        return p

    def index(self, name):
        """Zone name -> index; -1 when this layout has no such zone."""
        for i in range(len(self.names)):
            if self.names[i] == name:
                return i
        return -1

    def set(self, zone, colour):
        if self.colours[zone] is not colour:
            self.colours[zone] = colour
            self.dirty = True

    def set_all(self, colour):
        for zone in range(len(self.colours)):
            self.set(zone, colour)

    def show(self):
        """Push the zone colours to the strip if anything changed.

        Only the pixels of zones whose colour changed are set: the strip keeps the others in its
        buffer (zones never share a pixel: board.py refuses it). The whole strip goes out.
        """
        if not self.dirty:
            return False
        strip = self.strip
        shown = self._shown
        for zone in range(len(self.ranges)):
            colour = self.colours[zone]
            if colour is shown[zone]:
                continue
            shown[zone] = colour
            if self._buf is not None:
                buf = self._buf
                p = self._pattern(colour)
                for first, last in self.ranges[zone]:
                    for offset in range(3 * first, 3 * last + 3, 3):
                        buf[offset:offset + 3] = p
                continue
            for first, last in self.ranges[zone]:
                for pixel in range(first, last + 1):
                    strip[pixel] = colour
        self.dirty = False
        self._transmit()
        return True

    def _transmit(self):
        self.writes += 1
        self.strip.write()
