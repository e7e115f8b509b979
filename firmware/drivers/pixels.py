# Bet-zone lights on a NeoPixel strip: zones by index, one funnel to the hardware.
#
# The strip object (MicroPython neopixel.NeoPixel or the simulator's) comes from
# the board bring-up. All hardware access goes through _transmit(), so tests
# subclass it and count writes. Colours are preallocated tuples: lighting a
# zone inside the table's dispatch allocates nothing.
#
# A frame touches only the zones whose colour changed: set() marks them (each
# once), so show() does not walk every zone (the Craps layout has 30). After
# set_all() every zone is filled with its colour first, span by span, by a few
# slice stores (the span's first run, then copies of the bytes already filled,
# doubling), and then the zones set to another colour since. set_frame() sets every zone at once
# (a game's whole frame of colours), its background's zones filled so too.
#
# On MicroPython, where the strip is neopixel.NeoPixel (its bytes in .buf, in its
# ORDER, 3 a pixel), a zone is filled in that buffer directly, one slice store per
# run of pixels: neopixel's __setitem__ is Python, a call and a loop a pixel (a
# whole frame of the pico's 76 pixels took 370 calibration-loop iterations), and
# a 3-byte store a pixel still took 116. The bytes of a run come made: per colour
# the longest run's pixels in the strip's order, and per run length a view of
# the first pixels of it (a bytearray slice store needs a source of exactly the
# run's length, and slicing a view in the frame would allocate one). Where a run's
# bytes lie is a slice object made at start, not a tuple unpacked in the frame: a
# Baccarat result frame (set_all, then 9 zones) ~15 % less on the VM (bench/lights_vm.py).
from firmware.compat import IS_MICROPYTHON

OFF = (0, 0, 0)
WHITE = (40, 40, 40)
DIM = (6, 6, 6)         # zones closed for bets, or not in play
RED = (60, 0, 0)
BLUE = (0, 0, 60)
GREEN = (0, 60, 0)
GOLD = (60, 40, 0)
COLOURS = (OFF, WHITE, DIM, RED, BLUE, GREEN, GOLD)     # their fills are made at start
_LISTED = b"\x01"       # a zone's mark in ZoneLights._listed (changed since the last frame)


class ZoneLights:
    # Fill neopixel's buffer directly (on MicroPython); tests set it to run the same fill on CPython.
    FILLS_BUFFER = IS_MICROPYTHON

    def __init__(self, strip, count, zone_ranges):
        """zone_ranges: list of (zone name, [[first, last], ...]) for the active layout."""
        self.strip = strip
        self.count = count
        self.names = [name for name, _ in zone_ranges]
        zones = len(zone_ranges)
        self.colours = [OFF] * zones
        self._shown = [None] * zones                # the strip pixel by pixel: each zone's colour (None: not yet)
        self._listed = bytearray(zones)             # 1 where a zone's colour changed since the last frame
        self._none_listed = bytes(zones)            # cleared in one store
        self._background = None                     # set_all's colour since the last frame
        self.dirty = True
        self.writes = 0
        self.ranges = [tuple(tuple(r) for r in ranges) for _, ranges in zone_ranges]
        self._buf = None                            # the strip's own bytes, when they can be filled
        if not (self.FILLS_BUFFER and getattr(strip, "bpp", 0) == 3 and hasattr(strip, "buf")
                and hasattr(strip, "ORDER")):
            return
        self._buf = strip.buf
        self._order = strip.ORDER
        self._longest = 0                           # pixels in the longest run
        self._fills = {}                            # run length -> {colour: its bytes, that long}
        runs = [self._chain(ranges) for ranges in self.ranges]

        class Slices:       # Slices()[a:b] is a slice object (MicroPython cannot call slice()): a store through
            def __getitem__(self, key):     # one made here builds none in a frame (the class is not kept)
                return key
        slices = Slices()
        # A zone's first run as a slice of the strip's bytes and the fills of its length, apart (no tuple
        # unpacked a zone in a frame); its further runs, if any (no pico layout has one), in _more.
        self._slices = [slices[run[0]:run[1]] for run in runs]
        self._zone_fills = [run[2] for run in runs]
        self._more = tuple((zone, runs[zone][3]) for zone in range(zones) if runs[zone][3] is not None)
        self._spans = self._make_spans(slices)
        self.ranges = None                          # the runs have them (RAM)
        for colour in COLOURS:
            self._learn(colour)
        self._shown = None                          # the listed zones are written: no comparing
        self._background = OFF                      # the first frame fills every zone

    def _fills_of(self, n):
        fills = self._fills.get(n)
        if fills is None:
            fills = self._fills[n] = {}
            if n > self._longest:
                self._longest = n
        return fills

    def _chain(self, ranges):
        """A zone's runs as a chain: (first byte, end byte, fills of its length, next run or None)."""
        run = None
        for first, last in reversed(ranges):
            run = (3 * first, 3 * last + 3, self._fills_of(last - first + 1), run)
        return run

    def _make_spans(self, slices):
        """The zones' pixels as spans of adjacent runs: (the first run's bytes as a slice, its fills,
        steps), a step (its bytes as a slice, a view of the span's bytes before it, as long)."""
        runs = sorted((first, last) for ranges in self.ranges for first, last in ranges)
        spans = []
        view = memoryview(self._buf)
        i = 0
        while i < len(runs):
            first, last = runs[i]
            run_end = last + 1
            end = run_end
            i += 1
            while i < len(runs) and runs[i][0] == end:
                end = runs[i][1] + 1
                i += 1
            steps = []
            done = run_end
            while done < end:               # copy the filled part after itself: twice as long
                n = min(done - first, end - done)
                steps.append((slices[3 * done:3 * (done + n)], view[3 * first:3 * (first + n)]))
                done += n
            spans.append((slices[3 * first:3 * run_end], self._fills_of(run_end - first), tuple(steps)))
        return tuple(spans)

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
        # Marked in _listed only (show() finds the marks by bytearray.find, in C): a list of the changed
        # zones kept here as well was half of a set()'s cost, and a result sets a dozen zones.
        colours = self.colours
        if colours[zone] is not colour:
            colours[zone] = colour
            self._listed[zone] = 1
            self.dirty = True

    def set_all(self, colour):
        colours = self.colours
        changed = False
        for zone in range(len(colours)):
            if colours[zone] is not colour:
                colours[zone] = colour
                changed = True
        if changed:                     # every zone this colour: the ones listed before need nothing more
            self.dirty = True
            self._background = colour
            self._unlist()

    def set_frame(self, frame, background):
        """Every zone to frame[zone] (a list of a colour per zone) in one call: the colours, the strip's
        bytes and whether show() sends are what set(zone, frame[zone]) of each zone makes (a frame equal
        to the colours as they are changes nothing). The zones of `background` (most of a frame's) are
        filled span by span in show(), as after set_all(), and only the others are listed: a frame of
        every zone changed (a Baccarat result) costs a few span stores and its lit zones, not a store
        and a set() call a zone."""
        colours = self.colours
        if len(frame) != len(colours):
            raise ValueError("a light frame has a colour per zone: %d, not %d" % (len(colours), len(frame)))
        if colours == frame:            # (compared in C, each colour by identity first): nothing changed
            return
        listed = self._listed
        listed[:] = self._none_listed
        for zone in range(len(colours)):            # (a list's slice store allocates on MicroPython)
            colour = frame[zone]
            colours[zone] = colour
            if colour is not background:
                listed[zone] = 1
        self._background = background
        self.dirty = True

    def _unlist(self):
        self._listed[:] = self._none_listed

    def show(self):
        """Push the zone colours to the strip if anything changed.

        Only the pixels of zones set to another colour since the last frame are written (after
        set_all(): every zone's): the strip keeps the others in its buffer (zones never share a
        pixel: board.py refuses it). The whole strip goes out.
        """
        if not self.dirty:
            return False
        if self._buf is None:
            self._set_pixels()
        else:
            try:
                self._fill()
            except KeyError:            # a colour not made at start: its fills are made now (allocates, once)
                if self._background is not None:
                    self._learn(self._background)
                for colour in self.colours:
                    self._learn(colour)
                self._fill()            # again from the start
        self._unlist()
        self._background = None
        self.dirty = False
        self._transmit()
        return True

    def _fill(self):
        """The listed zones into the strip's bytes (after set_all: every zone, span by span, first).
        A zone changed and changed back is written again: the same bytes."""
        buf = self._buf
        background = self._background
        if background is not None:
            for span, fills, steps in self._spans:
                buf[span] = fills[background]
                for step, view in steps:
                    buf[step] = view
        colours = self.colours
        listed = self._listed
        slices = self._slices
        fills = self._zone_fills
        mark = _LISTED
        zone = listed.find(mark)
        while zone >= 0:
            colour = colours[zone]
            if colour is not background:    # else filled with it above (None: no set_all)
                buf[slices[zone]] = fills[zone][colour]
            zone = listed.find(mark, zone + 1)
        for zone, run in self._more:        # a zone's runs after its first (none on the pico's layouts)
            colour = colours[zone]
            if listed[zone] and colour is not background:
                while run is not None:
                    first, end, fills, run = run
                    buf[first:end] = fills[colour]

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
