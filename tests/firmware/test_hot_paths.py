# The hot paths allocate nothing (heap_lock on MicroPython: an allocation inside the lock raises
# MemoryError): the main loop's input pass with a steady-state event (TICK) on a booted table of
# each game, the controller's dispatch of it, the light frame (ZoneLights.show() into a
# neopixel-like buffer), and a host-link frame and a journal record encoded into their buffers
# with the portable CRC (firmware/link/crc32.py: the board's native CRC allocates nothing either,
# binascii's, this VM's default, allocates its view and word: measured below).
# (Runs on MicroPython too; on CPython the lock is a no-op and the assertions on results remain.)
import gc
from binascii import crc32

from firmware import main
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers import pixels
from firmware.events import TICK
from firmware.link import crc32 as crc_mod
from firmware.link import frame as fm
from firmware.link import record
from firmware.link.stamp import Stamp
from firmware.table_codes import READY
from tests.firmware.expect import count_calls, heap_lock_catches_allocation, micropython_only, raises_match
from tests.firmware.fakes import NeoStrip
from tests.firmware.booted import boot_pico
from tests.firmware.scratch import ScratchDir


def _idle_input_passes_allocate_nothing(game):
    with ScratchDir() as state:
        ctx = boot_pico(state, game)
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


def test_the_display_probe_allocates_nothing():
    # firmware.main.probe_displays, every second: each display's lost_setup(), a byte read into a buffer made
    # once (the LCD driver's expander, an SSD1306's or a Panel's status byte) or a no-op command (a module
    # that answers no status read).
    from firmware.drivers.lcd import CharLCD
    from tests.firmware.fakes import FakeMachine

    def no_sleep(ms):
        pass
    for game in ("baccarat", "craps"):           # the scoreboard an SSD1306, a Panel
        with ScratchDir() as state:
            ctx = boot_pico(state, game)
            ctx.hw.displays["dealer"] = CharLCD(FakeMachine().I2C(0), 0x27, 20, 4, no_sleep)
            scoreboard = ctx.hw.displays["scoreboard"]
            for reads_status in (True, False):
                scoreboard.reads_status = reads_status
                main.probe_displays(ctx)          # warm up
                heap_lock()
                try:
                    for _ in range(5):
                        main.probe_displays(ctx)
                finally:
                    heap_unlock()
            assert ctx.lost_displays is None and sorted(ctx.hw.displays) == ["dealer", "result", "scoreboard"]
    assert heap_lock_catches_allocation()


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


def test_light_frames_of_the_pico_layouts_allocate_nothing():
    # Every kind of frame on the board's own layouts: set_all (its spans filled by copies of the
    # strip's own bytes) with zones set otherwise after it, every zone set to another colour one by
    # one, one zone, a zone changed and changed back, zones of several runs, and a frame set in one call.
    import json
    with open("boards/pico.json") as f:
        board = json.loads(f.read())
    layouts = [sorted(board["zones"][name].items()) for name in ("baccarat", "craps", "omaha")]
    layouts.append([("a", [[0, 2], [9, 10]]), ("b", [[3, 5]]), ("c", [[12, 15], [6, 6]]), ("d", [[16, 17]])])
    palette = (pixels.OFF, pixels.WHITE, pixels.DIM, pixels.RED, pixels.BLUE, pixels.GREEN, pixels.GOLD)
    for zones in layouts:
        strip = NeoStrip(76)
        lights = pixels.ZoneLights(strip, 76, zones)
        reference = NeoStrip(76)
        lights.show()                              # the first frame (every zone OFF)
        n = len(zones)
        frame = [pixels.OFF] * n
        heap_lock()
        try:
            for k in range(8):
                lights.set_all(palette[k % 7])
                lights.set(k % n, palette[(k + 3) % 7])
                lights.set((3 * k + 1) % n, palette[(k + 5) % 7])
                lights.show()
                for z in range(n):
                    lights.set(z, palette[(z + k) % 7])
                lights.show()
                lights.set(k % n, palette[(k + 2) % 7])
                lights.show()
                lights.set(0, palette[(k + 4) % 7])
                lights.set(0, palette[k % 7])      # changed back
                lights.show()
                for z in range(n):                 # a whole frame in one call (a Baccarat result)
                    frame[z] = palette[(2 * z + k) % 7]
                lights.set_frame(frame, palette[k % 3])
                lights.show()
        finally:
            heap_unlock()
        for z in range(n):
            for first, last in zones[z][1]:
                for pixel in range(first, last + 1):
                    reference[pixel] = lights.colours[z]
        assert bytes(strip.buf) == bytes(reference.buf) and strip.writes >= 1 + 8 * 4
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


_PAYLOAD = b'{"seq": 12, "table": "B01", "event": "result", "round": 7, "winner": "banker"}'


def test_a_host_link_frame_with_the_portable_crc_allocates_nothing():
    # Frame encoding apart from its CRC, and the decoding of the frame: the portable CRC is Python on
    # small ints, so under the lock this proves the rest (digits, TYPE check, payload copy, CRC
    # digits) takes nothing: a view or a bytes slice put back in Encoder.encode or Frame.decode raises
    # MemoryError here. The payload is passed as checked: check_printable's search allocates its match
    # object (and frees it at once, the next test), which the lock refuses.
    enc = fm.Encoder()
    frame = fm.Frame()
    seqs = (1, 17, 4096, 99999, fm.MAX_NUMBER)
    wanted = [fm.encode(3, seq, "REPORT", _PAYLOAD, 52310 + seq) for seq in seqs]      # binascii's CRC
    crc_mod.use_portable()
    try:
        enc.encode(3, 1, b"REPORT", _PAYLOAD, 52310, -1, True)                             # warm up
        for k in range(len(seqs)):
            seq = seqs[k]
            heap_lock()
            try:
                n = enc.encode(3, seq, b"REPORT", _PAYLOAD, 52310 + seq, -1, True)
                status = frame.decode(enc.buf, n - 1)
            finally:
                heap_unlock()
            assert bytes(enc.buf[:n]) == wanted[k], seq
            assert status == fm.OK and frame.seq == seq and frame.payload() == _PAYLOAD
    finally:
        crc_mod.use_default()
    assert heap_lock_catches_allocation()


def test_a_frame_stamped_with_the_hosts_time_and_a_long_uptime_allocates_nothing():
    # Once the host has sent TIME every frame carries its Unix ms (~1.8e12), and after 12.4 days the
    # uptime passes 2**30 too: neither is a small int on a 31-bit port (the RP2040's, this VM's), so
    # adding to them and writing their digits allocated a frame. The Sender keeps both as Stamps.
    enc = fm.Encoder()
    uptime = Stamp(2 ** 30 + 999998)
    host = Stamp(1764547200000 + 999990)           # 1 Dec 2025, at a low part about to carry
    # Seq 17 again: the header written whole; 18 after it: seq bumped, the moved Stamps written again
    # after it (a pass's first frame, after the poll).
    steps = (1, 9, 10, 999999, 1000001)
    wanted = []
    for k in range(2 * len(steps)):
        up_ms, host_ms = uptime.ms() + steps[k // 2], host.ms() + steps[k // 2]
        wanted.append(fm.encode(3, 17 + k % 2, "REPORT", _PAYLOAD, up_ms, host_ms))
        uptime.add(steps[k // 2])
        host.add(steps[k // 2])
    uptime.set(2 ** 30 + 999998)
    host.set(1764547200000 + 999990)
    crc_mod.use_portable()
    try:
        enc.encode(3, 17, b"REPORT", _PAYLOAD, uptime, host, True)                         # warm up
        for k in range(2 * len(steps)):
            heap_lock()
            try:
                uptime.add(steps[k // 2])
                host.add(steps[k // 2])
                n = enc.encode(3, 17 + k % 2, b"REPORT", _PAYLOAD, uptime, host, True)
            finally:
                heap_unlock()
            assert bytes(enc.buf[:n]) == wanted[k], k
    finally:
        crc_mod.use_default()
    assert heap_lock_catches_allocation()


def test_the_frames_of_one_pass_with_a_kept_header_allocate_nothing():
    # The Sender's frames of one pass share their header but for seq (firmware/link/frame.py keeps it
    # in the buffer and counts seq up in place, a carry included), and the next pieces of a report
    # are encoded as the frame after it (encode_next): those paths allocate nothing either.
    enc = fm.Encoder()
    uptime = Stamp(2 ** 30 + 5)
    host = Stamp(1764547200000)
    seqs = (97, 98, 99, 100, 101)                   # 99 -> 100: written whole
    wanted = [fm.encode(3, seq, "PART", _PAYLOAD, uptime.ms(), host.ms()) for seq in seqs]
    crc_mod.use_portable()
    try:
        enc.encode(3, 96, b"PART", _PAYLOAD, uptime, host, True)                           # warm up
        for k in range(len(seqs)):
            heap_lock()
            try:
                n = enc.encode(3, seqs[k], b"PART", _PAYLOAD, uptime, host, True)
            finally:
                heap_unlock()
            assert bytes(enc.buf[:n]) == wanted[k], seqs[k]
        piece = memoryview(_PAYLOAD)[:40]
        for seq in (102, 103):                      # the next piece of a report (encode_next)
            heap_lock()
            try:
                n = enc.encode_next(b"PART", piece)
            finally:
                heap_unlock()
            assert bytes(enc.buf[:n]) == fm.encode(3, seq, "PART", _PAYLOAD[:40], uptime.ms(), host.ms())
    finally:
        crc_mod.use_default()
    assert heap_lock_catches_allocation()


@micropython_only
def test_a_host_link_frame_keeps_nothing_but_its_crcs_view_and_word():
    # With the portable CRC nothing: the payload's printable check (a regex search in C) allocates
    # its match object and frees it before returning when nothing matches. With binascii's (the VM's
    # default): the view the CRC is taken over (memoryview and slice, 32 bytes), its 8 digits (a bytes
    # object formatted in C, 32 bytes) and, when the CRC needs more than a small int's 30 bits (3
    # frames in 4), the word (32). Before: 384 bytes a frame (the CRC word split into digits with
    # 32-bit shifts, each a big int); then 144 and 48 (8 digit stores from Python, 3.5x slower).
    enc = fm.Encoder()
    crc_mod.use_portable()
    try:
        enc.encode(3, 17, b"REPORT", _PAYLOAD, 52310)
        assert _allocated(lambda: enc.encode(3, 17, b"REPORT", _PAYLOAD, 52310)) == 0
    finally:
        crc_mod.use_default()
    used = _allocated(lambda: enc.encode(3, 17, b"REPORT", _PAYLOAD, 52310))
    assert used <= 96, used
    small = None
    for seq in range(1, 50):                        # a frame whose CRC is a small int: only the view
        n = enc.encode(3, seq, b"REPORT", _PAYLOAD, 52310)
        if crc32(memoryview(enc.buf)[1:n - 10]) & 0xFFFFFFFF < 0x40000000:
            small = seq
            break
    assert small is not None
    used = _allocated(lambda: enc.encode(3, small, b"REPORT", _PAYLOAD, 52310))
    assert used <= 64, used


def test_a_journal_record_encoded_into_a_buffer_is_the_record_encode_builds():
    buf = bytearray(128)
    for kind, gen, payload in ((1, 5, b'{"round": 7}'), (255, 0xFFFFFFFF, b""), (3, 1, bytes(range(40)))):
        n = record.encode_into(buf, kind, gen, payload)
        assert bytes(buf[:n]) == record.encode(kind, gen, payload)


def test_a_journal_record_that_does_not_fit_its_buffer_is_refused_untouched():
    buf = bytearray(20)
    raises_match(ValueError, "needs a buffer of 21 bytes", record.encode_into, buf, 1, 5, b"123456")
    assert buf == bytearray(20)
    assert record.encode_into(buf, 1, 5, b"12345") == 20


def test_a_journal_record_with_the_portable_crc_allocates_nothing():
    # The record apart from its CRCs: header packed in place, payload copied in, both CRCs written in
    # place; a view or a built record put back in encode_into raises MemoryError here. Generations
    # past 2**30 (big ints on the VM: the caller's) are packed without allocating.
    buf = bytearray(128)
    cases = ((1, 5, _PAYLOAD), (2, 0x7FFFFFFF, _PAYLOAD[:7]), (255, 0xFFFFFFFF, b""), (9, 1 << 30, _PAYLOAD))
    wanted = [record.encode(kind, gen, payload) for kind, gen, payload in cases]    # binascii's CRC
    crc_mod.use_portable()
    try:
        record.encode_into(buf, 1, 5, _PAYLOAD)                                     # warm up
        for k in range(len(cases)):
            kind, gen, payload = cases[k]
            heap_lock()
            try:
                n = record.encode_into(buf, kind, gen, payload)
            finally:
                heap_unlock()
            assert bytes(buf[:n]) == wanted[k], cases[k]
    finally:
        crc_mod.use_default()
    assert heap_lock_catches_allocation()


def test_the_journals_own_record_paths_encode_in_place_allocating_nothing():
    # What Journal.append (a table event, a recall round: encode_into a buffer made once) and
    # Journal.append_in_place (the link store's batch of frames: encode_in_place around it) run:
    # the record as record.encode builds it, with nothing allocated under the lock.
    from firmware.link import journal as journal_mod
    buf = bytearray(128)
    wanted = record.encode(4, 77, _PAYLOAD)
    crc_mod.use_portable()
    try:
        buf[record.HEAD_SIZE:record.HEAD_SIZE + len(_PAYLOAD)] = _PAYLOAD
        record.encode_in_place(buf, 4, 77, len(_PAYLOAD))                          # warm up
        heap_lock()
        try:
            n = record.encode_in_place(buf, 4, 77, len(_PAYLOAD))
        finally:
            heap_unlock()
    finally:
        crc_mod.use_default()
    assert bytes(buf[:n]) == wanted
    assert journal_mod.IN_PLACE_HEAD == record.HEAD_SIZE and journal_mod.IN_PLACE_TAIL + record.HEAD_SIZE == record.OVERHEAD
    assert heap_lock_catches_allocation()


def test_the_portable_crc_allocates_nothing():
    from binascii import crc32
    data = bytes(range(256)) * 2
    out = bytearray(12)
    crc_mod.use_portable()
    try:
        into = crc_mod.crc32_into
        hex_into = crc_mod.crc32_hex_into
        heap_lock()
        try:
            into(data, 3, 500, out, 0, -1)
            into(data, 0, 37, out, 4, 0)
            hex_into(data, 1, 511, out, 4)
        finally:
            heap_unlock()
    finally:
        crc_mod.use_default()
    first = crc32(data[3:500])
    assert out[0] | (out[1] << 8) | (out[2] << 16) | (out[3] << 24) == first
    assert bytes(out[4:12]) == ("%08X" % crc32(data[1:511])).encode()
    assert heap_lock_catches_allocation()


@micropython_only
def test_the_default_crc_allocates_nothing_where_it_is_native_and_a_frame_with_it_neither():
    # Where the port runs native code (a board; the Unix port, tools/mpunix.py) the default CRC is the
    # viper one: under the lock it and a whole frame's encoding take nothing (what the portable CRC's
    # tests above stand in for on the VM). Where it does not (the VM) the default is binascii's, whose
    # view and word the lock refuses: the MemoryError proves the lock saw the CRC run.
    data = bytes(range(256)) * 2
    out = bytearray(12)
    enc = fm.Encoder()
    wanted = fm.encode(3, 17, "REPORT", _PAYLOAD, 52310)
    enc.encode(3, 16, b"REPORT", _PAYLOAD, 52310, -1, True)                           # warm up
    native = crc_mod.native_arch() != 0
    assert crc_mod.NATIVE == native
    heap_lock()
    try:
        try:
            crc_mod.crc32_hex_into(data, 1, 511, out, 4)
            n = enc.encode(3, 17, b"REPORT", _PAYLOAD, 52310, -1, True)
            allocated = False
        except MemoryError:
            allocated = True
    finally:
        heap_unlock()
    assert allocated != native
    if native:
        assert bytes(out[4:12]) == ("%08X" % crc32(data[1:511])).encode()
        assert bytes(enc.buf[:n]) == wanted
    assert heap_lock_catches_allocation()


@micropython_only
def test_a_journal_record_encoded_into_a_buffer_keeps_nothing_but_its_crcs_views_and_words():
    # record.encode() builds the record (struct.pack, concatenation: 400 bytes for this one);
    # encode_into() writes it into a buffer allocated once. With binascii's CRC (the VM's default)
    # the view the header's CRC is taken over and the two CRC words remain; with the portable (or
    # the board's native) CRC nothing.
    buf = bytearray(128)
    record.encode_into(buf, 1, 5, _PAYLOAD)
    used = _allocated(lambda: record.encode_into(buf, 1, 5, _PAYLOAD))
    assert used <= 96, used
    assert _allocated(lambda: record.encode(1, 5, _PAYLOAD)) > 2 * used       # what the builder takes
    crc_mod.use_portable()
    try:
        assert _allocated(lambda: record.encode_into(buf, 1, 5, _PAYLOAD)) == 0
    finally:
        crc_mod.use_default()


def test_craps_lights_look_each_zone_up_once():
    # A render with 50 open bets searched the layout's zone names for every bet (1 ms in the VM):
    # now each zone's light is looked up once, and a later render looks nothing up.
    from tests.firmware.craps_rig import Rig
    rig = Rig(seats=10)
    rig.bets(dict((seat, {"pass": 10, "field": 10, "any_seven": 10, "any_craps": 10, "hard_6": 10})
                  for seat in range(1, 11)))
    assert len(rig.table.engine.bets) == 50
    calls, plain = count_calls(rig.lights, "index")
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
    calls, plain = count_calls(rig.lights, "set")
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
