# The hot paths allocate nothing (heap_lock on MicroPython: an allocation inside the lock raises
# MemoryError): the main loop's input pass with a steady-state event (TICK) on a booted table of
# each game, the controller's dispatch of it, and the light frame (ZoneLights.show() into a
# neopixel-like buffer). The host-link frame encoder's one allocation is the CRC word, measured.
# (Runs on MicroPython too; on CPython the lock is a no-op and the assertions on results remain.)
import gc

from firmware import main
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers import pixels
from firmware.events import TICK
from firmware.link import frame as fm
from firmware.table import READY
from tests.firmware.expect import heap_lock_catches_allocation, micropython_only
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule
from tests.firmware.scratch import ScratchDir


class NeoStrip:
    """MicroPython's neopixel.NeoPixel as its driver fills it: 3 bytes a pixel, GRB order."""
    ORDER = (1, 0, 2, 3)

    def __init__(self, n):
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * 3
        for k in range(3):
            self.buf[offset + self.ORDER[k]] = v[k]

    def write(self):
        self.writes += 1


def _boot(state, game):
    FakeLCD.missing = ()
    machine = FakeMachine()
    machine.usb = machine.UART(9)
    ctx = main.boot(machine, FakeNeoPixelModule(), "boards/pico.json", "boards/tables/sim-%s.json" % game,
                    state, FakeLCD, machine.usb)
    for _ in range(60):                            # the boot lamp test, then READY
        main.poll_inputs(ctx, 100)
        main.refresh_outputs(ctx, True)
    return ctx


def _idle_input_passes_allocate_nothing(game):
    with ScratchDir() as state:
        ctx = _boot(state, game)
        assert ctx.table.state == READY
        main.poll_inputs(ctx, 10)                  # warm up
        heap_lock()
        try:
            for _ in range(20):
                main.poll_inputs(ctx, 10)          # buttons, keypad, devices, host, console, TICK dispatched
                ctx.table.dispatch(TICK, 10, 0)
        finally:
            heap_unlock()
        assert ctx.table.state == READY
    assert heap_lock_catches_allocation()          # the lock is real: the block above proved something


def test_an_idle_input_pass_of_a_baccarat_table_allocates_nothing():
    _idle_input_passes_allocate_nothing("baccarat")


def test_an_idle_input_pass_of_a_craps_table_allocates_nothing():
    _idle_input_passes_allocate_nothing("craps")


def test_an_idle_input_pass_of_an_omaha_table_allocates_nothing():
    _idle_input_passes_allocate_nothing("omaha")


def test_a_light_frame_of_every_zone_changed_allocates_nothing():
    zones = [("zone%d" % z, [[4 * z, 4 * z + 3]]) for z in range(19)]          # 76 pixels, as the pico's
    strip = NeoStrip(76)
    lights = pixels.ZoneLights(strip, 76, zones)
    lights.set_all(pixels.RED)
    lights.show()                                  # warm up
    colours = (pixels.GREEN, pixels.GOLD, pixels.BLUE)
    heap_lock()
    try:
        for colour in colours:
            lights.set_all(colour)
            lights.show()
    finally:
        heap_unlock()
    assert strip.writes == 4
    assert bytes(strip.buf[:6]) == bytes((0, 0, 60, 0, 0, 60))               # BLUE, GRB order
    assert heap_lock_catches_allocation()


def _allocated(fn):
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        fn()
        return gc.mem_alloc() - before
    finally:
        gc.enable()


@micropython_only
def test_a_host_link_frame_allocates_only_its_crc_word():
    # Before: 384 bytes a frame (the CRC word split into digits with 32-bit shifts, each a big int
    # on MicroPython). Now the view over the frame and, when the CRC needs more than a small int's
    # 30 bits, the word and its two halves (the payload and TYPE are checked by regex searches in C,
    # whose match objects, when nothing matches, MicroPython frees before the search returns).
    enc = fm.Encoder()
    payload = b'{"seq": 12, "table": "B01", "event": "result", "round": 7, "winner": "banker"}'
    n = enc.encode(3, 17, b"REPORT", payload, 52310)
    frame = fm.Frame()
    assert frame.decode(enc.buf, n - 1) == fm.OK and frame.payload() == payload
    used = _allocated(lambda: enc.encode(3, 17, b"REPORT", payload, 52310))
    assert used <= 144, used
    small = None
    for seq in range(1, 50):                        # a frame whose CRC is a small int: only the view
        enc.encode(3, seq, b"REPORT", payload, 52310)
        if frame.decode(enc.buf, enc.encode(3, seq, b"REPORT", payload, 52310) - 1) == fm.OK \
                and fm.crc_of(enc.buf, 1, enc.buf.index(b"*")) < 0x40000000:
            small = seq
            break
    assert small is not None
    used = _allocated(lambda: enc.encode(3, small, b"REPORT", payload, 52310))
    assert used <= 48, used


def test_a_journal_record_encoded_into_a_buffer_is_the_record_encode_builds():
    from firmware.link import record
    buf = bytearray(128)
    for kind, gen, payload in ((1, 5, b'{"round": 7}'), (255, 0xFFFFFFFF, b""), (3, 1, bytes(range(40)))):
        n = record.encode_into(buf, kind, gen, payload)
        assert bytes(buf[:n]) == record.encode(kind, gen, payload)


@micropython_only
def test_a_journal_record_encoded_into_a_buffer_allocates_only_its_crc_words():
    # record.encode() builds the record (struct.pack, concatenation: 400 bytes for this one);
    # encode_into() writes it into a buffer allocated once: the view and the two CRC words remain.
    from firmware.link import record
    buf = bytearray(128)
    payload = b'{"seq": 12, "event": "result", "round": 7, "winner": "banker"}'
    record.encode_into(buf, 1, 5, payload)
    used = _allocated(lambda: record.encode_into(buf, 1, 5, payload))
    assert used <= 96, used
    assert _allocated(lambda: record.encode(1, 5, payload)) > 2 * used       # what the builder takes


def test_craps_lights_look_each_zone_up_once():
    # A render with 50 open bets searched the layout's zone names for every bet (1 ms in the VM):
    # now each zone's light is looked up once, and a later render looks nothing up.
    from tests.firmware.craps_rig import Rig
    rig = Rig(seats=10)
    rig.bets(dict((seat, {"pass": 10, "field": 10, "any_seven": 10, "any_craps": 10, "hard_6": 10})
                  for seat in range(1, 11)))
    assert len(rig.table.engine.bets) == 50
    calls = [0]
    plain = rig.lights.index

    def counting(name):
        calls[0] += 1
        return plain(name)
    rig.lights.index = counting
    rig.table._render_lights()
    assert calls[0] == 0                                    # the reading's render looked them up
    rig.throw(3, 4)                                         # a 7: every one of the 50 decided
    assert len(rig.table.decided) == 50
    calls[0] = 0
    rig.table._render_lights()                              # the decided zones, each known by now
    assert calls[0] == 0
    rig.lights.index = plain
    assert rig.colour("pass") == pixels.GREEN and rig.colour("field") == pixels.OFF


def test_a_craps_render_sets_each_zone_once_whatever_the_bets():
    # Issue 14: the render works the colours out in a frame, then sets each zone that changes, once (it
    # set every zone DIM, then a zone again for each of 50 bets and each of 50 decided ones); same colours.
    from tests.firmware.craps_rig import LAYOUT, Rig
    rig = Rig(seats=10)
    rig.bets(dict((seat, {"pass": 10, "field": 10, "any_seven": 10, "any_craps": 10, "hard_6": 10})
                  for seat in range(1, 11)))
    calls = [0]
    plain = rig.lights.set

    def counting(zone, colour):
        calls[0] += 1
        return plain(zone, colour)
    rig.lights.set = counting
    rig.table._render_lights()
    assert calls[0] == 0                                    # the reading's render left them so
    rig.lights.set_all(pixels.OFF)
    calls[0] = 0
    rig.table._render_lights()
    assert calls[0] == len(LAYOUT)
    assert rig.colour("pass") == pixels.WHITE and rig.colour("hard_6") == pixels.WHITE
    assert rig.colour("dont_pass") == pixels.DIM
    calls[0] = 0
    rig.throw(3, 4)                                         # a 7: every one of the 50 decided
    assert calls[0] == 5                                    # the 5 zones of bets, each won or lost
    rig.lights.set = plain
    assert rig.colour("pass") == pixels.GREEN and rig.colour("field") == pixels.OFF
    assert rig.colour("any_seven") == pixels.GREEN and rig.colour("dont_pass") == pixels.DIM


class _CountingStrip(NeoStrip):
    def __init__(self, n):
        NeoStrip.__init__(self, n)
        self.sets = 0

    def __setitem__(self, i, v):
        self.sets += 1
        NeoStrip.__setitem__(self, i, v)


class _PlainCountingStrip(_CountingStrip):
    """A strip whose bytes ZoneLights cannot fill itself (no bpp: not neopixel's): set pixel by pixel."""

    def __init__(self, n):
        _CountingStrip.__init__(self, n)
        del self.bpp


def test_a_light_frame_sets_only_the_pixels_of_zones_that_changed():
    # The neopixel buffer keeps every pixel between frames: a frame after one zone changed sets
    # that zone's pixels only (it set all 76, each through neopixel's Python __setitem__), and the
    # whole buffer still goes out.
    zones = [("zone%d" % z, [[4 * z, 4 * z + 3]]) for z in range(19)]
    strip = _PlainCountingStrip(76)
    lights = pixels.ZoneLights(strip, 76, zones)
    lights.set_all(pixels.DIM)
    lights.show()
    assert strip.sets == 76
    strip.sets = 0
    lights.set(lights.index("zone5"), pixels.GREEN)
    lights.set(lights.index("zone7"), pixels.GREEN)
    lights.set(lights.index("zone7"), pixels.DIM)          # back as it was: nothing to set there
    assert lights.show() and strip.sets == 4 and strip.writes == 2
    assert bytes(strip.buf[20 * 3:24 * 3]) == bytes((60, 0, 0)) * 4                 # zone 5: GREEN, GRB
    assert bytes(strip.buf[28 * 3:29 * 3]) == bytes((6, 6, 6))                      # zone 7 still DIM
    assert not lights.show() and strip.writes == 2                                  # nothing changed


def _frames(strip):
    zones = [("zone%d" % z, [[4 * z, 4 * z + 1], [4 * z + 2, 4 * z + 3]]) for z in range(19)]
    lights = pixels.ZoneLights(strip, 76, zones)
    reference = NeoStrip(76)                              # what neopixel's own __setitem__ makes of them
    palette = (pixels.DIM, pixels.GOLD, (1, 2, 3), pixels.RED)
    for frame in range(4):
        for z in range(19):
            colour = palette[(z + frame) % 4] if z % 3 else palette[0]
            lights.set(z, colour)
            for pixel in range(4 * z, 4 * z + 4):
                reference[pixel] = colour
        lights.show()
        assert bytes(strip.buf) == bytes(reference.buf), frame
    return lights


def test_a_light_frame_fills_the_strip_as_neopixel_would():
    _frames(_CountingStrip(76))
    _frames(_PlainCountingStrip(76))


@micropython_only
def test_a_light_frame_on_micropython_fills_neopixels_buffer_without_its_setitem():
    # neopixel's __setitem__ is Python (a call and a 3-step loop a pixel): a frame of every zone
    # changed took 370 calibration-loop iterations through it; ZoneLights fills .buf itself.
    strip = _CountingStrip(76)
    _frames(strip)
    assert strip.sets == 0 and strip.writes == 4
