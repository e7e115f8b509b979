# The bet-zone lights (firmware/drivers/pixels.py): whatever the frames, the strip's bytes are the
# ones neopixel's own __setitem__ makes of the zone colours, pixel by pixel; pixels of no zone are
# never written. The buffer fill (MicroPython's: neopixel's .buf filled directly, one slice store a
# run, set_all's spans by doubling copies) runs here on CPython too (FILLS_BUFFER), and on the VM
# as the firmware runs it.
import json

from firmware.drivers import pixels
from tests.firmware.expect import cpython_only, raises_match
from tests.firmware.fakes import NeoStrip

_GAP = 0x55              # what a pixel of no zone holds: no frame may touch it


class _PlainStrip(NeoStrip):
    """A strip whose bytes ZoneLights cannot fill itself (no bpp): set pixel by pixel."""

    def __init__(self, n):
        NeoStrip.__init__(self, n)
        del self.bpp


class _Filling(pixels.ZoneLights):
    FILLS_BUFFER = True                     # the buffer fill on CPython too (on MicroPython it is anyway)


class _CountingBuf(bytearray):
    """A strip buffer that counts its slice stores (CPython: a bytearray subclass's __setitem__)."""
    stores = 0

    def __setitem__(self, key, value):
        if isinstance(key, slice):
            self.stores += 1
        bytearray.__setitem__(self, key, value)


# 20 pixels: zones of several runs, out of pixel order, gaps of no zone (7, 8, 11, 18, 19)
_ZONES = [("a", [[0, 2], [9, 10]]), ("b", [[3, 5]]), ("c", [[12, 15], [6, 6]]), ("d", [[16, 17]])]
_PALETTE = (pixels.OFF, pixels.WHITE, pixels.DIM, pixels.RED, pixels.BLUE, pixels.GREEN, pixels.GOLD,
            (1, 2, 3), (200, 100, 7))   # the last two: colours not made at start


def _strip(cls, n):
    strip = cls(n)
    for i in range(len(strip.buf)):
        strip.buf[i] = _GAP
    return strip


def _expected(n, zones, colours):
    """The bytes neopixel's __setitem__ makes of every zone's colour (gaps untouched)."""
    ref = _strip(NeoStrip, n)
    for z in range(len(zones)):
        for first, last in zones[z][1]:
            for pixel in range(first, last + 1):
                ref[pixel] = colours[z]
    return bytes(ref.buf)


def _random_frames(lights, strip, n, zones, frames, seed):
    """Frames of set(), set_all() and colours changed back, each checked byte for byte."""
    x = seed
    for frame in range(frames):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if x % 5 == 0:
            lights.set_all(_PALETTE[(x >> 8) % len(_PALETTE)])
        for _ in range((x >> 4) % (2 * len(zones) + 1)):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            zone = (x >> 8) % len(zones)
            before = lights.colours[zone]
            lights.set(zone, _PALETTE[(x >> 12) % len(_PALETTE)])
            if x & 0x10000:
                lights.set(zone, before)                    # changed and changed back
        lights.show()
        assert bytes(strip.buf) == _expected(n, zones, lights.colours), (frame, lights.colours)


def test_every_frame_leaves_the_strip_as_neopixel_would_set_it():
    for cls, strip_cls in ((_Filling, NeoStrip), (pixels.ZoneLights, NeoStrip), (pixels.ZoneLights, _PlainStrip)):
        strip = _strip(strip_cls, 20)
        lights = cls(strip, 20, _ZONES)
        lights.show()                                       # the first frame: every zone OFF
        assert bytes(strip.buf) == _expected(20, _ZONES, lights.colours)
        _random_frames(lights, strip, 20, _ZONES, 300, 7)


def test_every_frame_on_the_pico_layouts_leaves_the_strip_as_neopixel_would_set_it():
    with open("boards/pico.json") as f:
        board = json.loads(f.read())
    n = board["pixels"]["count"]
    for layout in ("baccarat", "craps", "omaha"):
        zones = sorted(board["zones"][layout].items())
        strip = _strip(NeoStrip, n)
        lights = _Filling(strip, n, zones)
        _random_frames(lights, strip, n, zones, 120, 11)


def test_a_colour_first_shown_is_filled_as_the_others():
    # Fills are made at start for this module's colours; another colour's are made when a frame
    # first shows it, as set_all's colour (the whole spans) or as one zone's.
    strip = _strip(NeoStrip, 20)
    lights = _Filling(strip, 20, _ZONES)
    lights.set_all((1, 2, 3))
    lights.set(1, (7, 8, 9))
    assert lights.show()
    assert bytes(strip.buf) == _expected(20, _ZONES, [(1, 2, 3), (7, 8, 9), (1, 2, 3), (1, 2, 3)])
    lights.set(0, (250, 0, 1))
    lights.set(3, pixels.GOLD)
    assert lights.show() and strip.writes == 2
    assert bytes(strip.buf) == _expected(20, _ZONES, [(250, 0, 1), (7, 8, 9), (1, 2, 3), pixels.GOLD])


def test_a_frame_with_nothing_changed_sends_nothing():
    strip = _strip(NeoStrip, 20)
    lights = _Filling(strip, 20, _ZONES)
    lights.set_all(pixels.DIM)
    assert lights.show() and strip.writes == 1
    lights.set_all(pixels.DIM)                              # as it is: nothing to send
    assert not lights.show() and strip.writes == 1
    lights.set(2, pixels.RED)
    lights.set(2, pixels.DIM)                               # changed back: sent, the same bytes
    assert lights.show() and strip.writes == 2
    assert bytes(strip.buf) == _expected(20, _ZONES, [pixels.DIM] * 4)


@cpython_only   # counts the buffer's slice stores through a bytearray subclass's __setitem__
def test_a_frame_stores_a_slice_per_changed_run_and_set_all_a_few_per_span():
    # Before: a 3-byte store per pixel of every changed zone (44 for the pico's Baccarat layout),
    # each zone found by walking all of them; then one store per run, still walking every zone.
    with open("boards/pico.json") as f:
        board = json.loads(f.read())
    zones = sorted(board["zones"]["baccarat"].items())      # 12 zones, pixels 0-43 one span
    buf = _CountingBuf(3 * 76)
    strip = NeoStrip(76, buf)
    lights = _Filling(strip, 76, zones)
    lights.show()
    buf.stores = 0
    lights.set_all(pixels.GOLD)
    assert lights.show()
    assert buf.stores == 4          # the span's first run (player, 8 pixels), then 8 -> 16 -> 32 -> 44
    buf.stores = 0
    lights.set_all(pixels.DIM)
    lights.set(lights.index("seat3"), pixels.BLUE)
    lights.set(lights.index("player"), pixels.GREEN)
    lights.set(lights.index("banker"), pixels.GREEN)
    lights.set(lights.index("banker"), pixels.DIM)          # the fill's colour again: nothing more
    assert lights.show() and buf.stores == 4 + 2
    buf.stores = 0
    lights.set(lights.index("tie"), pixels.WHITE)
    assert lights.show() and buf.stores == 1
    colours = [pixels.DIM] * len(zones)
    colours[lights.index("seat3")] = pixels.BLUE
    colours[lights.index("player")] = pixels.GREEN
    colours[lights.index("tie")] = pixels.WHITE
    assert bytes(buf) == _expected(76, zones, colours)[:3 * 44] + bytes(3 * 32)


@cpython_only   # counts the buffer's slice stores through a bytearray subclass's __setitem__
def test_a_zone_of_several_runs_is_stored_run_by_run():
    buf = _CountingBuf(3 * 20)
    lights = _Filling(NeoStrip(20, buf), 20, _ZONES)
    lights.show()
    buf.stores = 0
    lights.set(0, pixels.RED)                               # zone a: pixels 0-2 and 9-10
    lights.set(2, pixels.BLUE)                              # zone c: pixels 12-15 and 6
    assert lights.show() and buf.stores == 4


def test_a_frame_set_in_one_call_is_what_a_set_of_each_zone_makes():
    # set_frame(frame, background): the colours, the strip's bytes, show()'s answer and the writes are
    # those of set(zone, frame[zone]) for every zone, whatever came before (set_all, sets, colours not
    # made at start, a frame as the colours already are).
    for cls, strip_cls in ((_Filling, NeoStrip), (pixels.ZoneLights, NeoStrip), (pixels.ZoneLights, _PlainStrip)):
        one = _strip(strip_cls, 20)
        each = _strip(strip_cls, 20)
        by_frame = cls(one, 20, _ZONES)
        by_zone = cls(each, 20, _ZONES)
        frame = [pixels.OFF] * len(_ZONES)
        x = 3
        for k in range(200):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            if x % 4 == 0:
                colour = _PALETTE[(x >> 8) % len(_PALETTE)]
                by_frame.set_all(colour)
                by_zone.set_all(colour)
            if x % 3 == 0:
                zone = (x >> 12) % len(_ZONES)
                colour = _PALETTE[(x >> 16) % len(_PALETTE)]
                by_frame.set(zone, colour)
                by_zone.set(zone, colour)
            if x % 7 != 0:                                   # else the frame as it was: maybe nothing new
                for z in range(len(_ZONES)):
                    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                    frame[z] = _PALETTE[(x >> 8) % 3] if x & 0x100000 else _PALETTE[(x >> 12) % len(_PALETTE)]
            background = _PALETTE[(x >> 20) % 3]
            by_frame.set_frame(frame, background)
            for z in range(len(_ZONES)):
                by_zone.set(z, frame[z])
            assert by_frame.colours == by_zone.colours == frame, k
            assert by_frame.show() == by_zone.show(), k
            assert bytes(one.buf) == bytes(each.buf) == _expected(20, _ZONES, frame), (k, frame)
            assert one.writes == each.writes, k
        assert one.writes > 100


def test_a_frame_of_another_length_is_refused():
    lights = _Filling(_strip(NeoStrip, 20), 20, _ZONES)
    raises_match(ValueError, "a colour per zone: 4, not 3", lights.set_frame, [pixels.OFF] * 3, pixels.OFF)
    assert lights.colours == [pixels.OFF] * 4


@cpython_only   # counts the buffer's slice stores through a bytearray subclass's __setitem__
def test_a_frame_set_in_one_call_fills_its_background_by_spans_and_stores_only_the_other_zones():
    # A Baccarat result (every zone changed, most off): set() of each zone stored 12 runs; set_frame with
    # off as the background stores the span's 4 (as set_all) and the 5 zones lit.
    with open("boards/pico.json") as f:
        board = json.loads(f.read())
    zones = sorted(board["zones"]["baccarat"].items())
    buf = _CountingBuf(3 * 76)
    lights = _Filling(NeoStrip(76, buf), 76, zones)
    lights.set_all(pixels.DIM)
    for name in ("seat1", "seat2", "seat4", "seat6", "seat7"):
        lights.set(lights.index(name), pixels.BLUE)
    lights.show()
    frame = [pixels.OFF] * len(zones)
    for name in ("player", "seat1", "seat4", "seat6"):
        frame[lights.index(name)] = pixels.GREEN
    frame[lights.index("seat2")] = pixels.WHITE
    buf.stores = 0
    lights.set_frame(frame, pixels.OFF)
    assert lights.show() and buf.stores == 4 + 5
    assert bytes(buf) == _expected(76, zones, frame)[:3 * 44] + bytes(3 * 32)
