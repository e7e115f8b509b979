# Bet-zone lights on a NeoPixel strip: zones by index, one funnel to the hardware.
#
# The strip object (MicroPython neopixel.NeoPixel or the simulator's) comes from
# the board bring-up. All hardware access goes through _transmit(), so tests
# subclass it and count writes. Colours are preallocated tuples: lighting a
# zone inside the table's dispatch allocates nothing.
#
# On MicroPython, where the strip is neopixel.NeoPixel (its bytes in .buf, in its
# ORDER, 3 a pixel), a zone is filled in that buffer directly, one slice store per
# run of pixels: neopixel's __setitem__ is Python, a call and a loop a pixel (a
# whole frame of the pico's 76 pixels took 370 calibration-loop iterations), and
# a 3-byte store a pixel still took 116. The bytes of a run come made: per colour
# the longest run's pixels in the strip's order, and per run length a view of
# the first pixels of it (a bytearray slice store needs a source of exactly the
# run's length, and slicing a view in the frame would allocate one).
from firmware.compat import IS_MICROPYTHON

OFF = (0, 0, 0)
WHITE = (40, 40, 40)
DIM = (6, 6, 6)         # zones closed for bets, or not in play
RED = (60, 0, 0)
BLUE = (0, 0, 60)
GREEN = (0, 60, 0)
GOLD = (60, 40, 0)
COLOURS = (OFF, WHITE, DIM, RED, BLUE, GREEN, GOLD)     # their fills are made at start


class ZoneLights:
    # Fill neopixel's buffer directly (on MicroPython); tests set it to run the same fill on CPython.
    FILLS_BUFFER = IS_MICROPYTHON

    def __init__(self, strip, count, zone_ranges):
        """zone_ranges: list of (zone name, [[first, last], ...]) for the active layout."""
        self.strip = strip
        self.count = count
        self.names = [name for name, _ in zone_ranges]
        self.colours = [OFF] * len(zone_ranges)
        self._shown = [None] * len(zone_ranges)     # the colour each zone's pixels hold (None: not yet)
        self.dirty = True
        self.writes = 0
        self._buf = None                            # the strip's own bytes, when they can be filled
        if not (self.FILLS_BUFFER and getattr(strip, "bpp", 0) == 3 and hasattr(strip, "buf")
                and hasattr(strip, "ORDER")):
            self.ranges = [tuple(tuple(r) for r in ranges) for _, ranges in zone_ranges]
            return
        self._buf = strip.buf
        self._order = strip.ORDER
        self._longest = 0                           # pixels in the longest run
        self._fills = {}                            # run length -> {colour: its bytes, that long}
        self._runs = [self._chain(ranges) for _, ranges in zone_ranges]
        for colour in COLOURS:
            self._learn(colour)

    def _chain(self, ranges):
        """A zone's runs as a chain: (first byte, end byte, fills of its length, next run or None)."""
        run = None
        for first, last in reversed(ranges):
            n = last - first + 1
            fills = self._fills.get(n)
            if fills is None:
                fills = self._fills[n] = {}
            if n > self._longest:
                self._longest = n
            run = (3 * first, 3 * last + 3, fills, run)
        return run

    def _learn(self, colour):
        """Make colour's fills: its bytes as neopixel's __setitem__ would write them, for every run length."""
        if self._longest == 0 or colour in self._fills[self._longest]:
            return
        pixel = bytearray(3)
        for i in range(3):
            pixel[self._order[i]] = colour[i]
        longest = bytearray(3 * self._longest)
        for offset in range(0, len(longest), 3):
            longest[offset:offset + 3] = pixel
        view = memoryview(longest)
        for n in self._fills:
            self._fills[n][colour] = longest if n == self._longest else view[:3 * n]

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
        colours = self.colours
        shown = self._shown
        buf = self._buf
        if buf is None:
            self._set_pixels()
        else:
            runs = self._runs
            try:
                for zone in range(len(runs)):
                    colour = colours[zone]
                    if colour is shown[zone]:
                        continue
                    first, end, fills, run = runs[zone]
                    buf[first:end] = fills[colour]
                    while run is not None:
                        first, end, fills, run = run
                        buf[first:end] = fills[colour]
                    shown[zone] = colour
            except KeyError:        # a colour not made at start: its fills are made now (allocates, once)
                for colour in colours:
                    self._learn(colour)
                return self.show()  # on from the zone that failed: the ones before are shown
        self.dirty = False
        self._transmit()
        return True

    def _set_pixels(self):
        """The changed zones pixel by pixel, through the strip's own __setitem__."""
        strip = self.strip
        shown = self._shown
        for zone in range(len(self.ranges)):
            colour = self.colours[zone]
            if colour is shown[zone]:
                continue
            shown[zone] = colour
            for first, last in self.ranges[zone]:
                for pixel in range(first, last + 1):
                    strip[pixel] = colour

    def _transmit(self):
        self.writes += 1
        self.strip.write()
