# Bet-zone lights on a NeoPixel strip: zones by index, one funnel to the hardware.
#
# The strip object (MicroPython neopixel.NeoPixel or the simulator's) comes from
# the board bring-up. All hardware access goes through _transmit(), so tests
# subclass it and count writes. Colours are preallocated tuples: lighting a
# zone inside the table's dispatch allocates nothing.

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
            for first, last in self.ranges[zone]:
                for pixel in range(first, last + 1):
                    strip[pixel] = colour
        self.dirty = False
        self._transmit()
        return True

    def _transmit(self):
        self.writes += 1
        self.strip.write()
