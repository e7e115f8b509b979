# hostsim's framebuf against MicroPython's own: the same drawing operations, byte-identical buffers.
#
# One small interpreter (_INTERPRETER) replays a list of FrameBuffer calls and
# prints, after every call, its result and a CRC of the buffer, and at the end
# the whole buffer. It runs on the MicroPython VM (tools.mpvm, built-in
# framebuf) and here with hostsim.framebuf in the place of `framebuf`; the two
# transcripts must be equal line for line. A difference names the case and the
# first call where the bytes parted.
import os
import random
import sys

import pytest

from hostsim import framebuf as host_framebuf
from tools import mpvm

HERE = os.path.dirname(os.path.abspath(__file__))

_INTERPRETER = '''
import array
import binascii
import framebuf


def _arg(a, sprites):
    if isinstance(a, tuple) and a and a[0] == "A":
        return array.array(a[1], a[2])
    if isinstance(a, tuple) and a and a[0] == "S":
        return sprites[a[1]][0]
    if isinstance(a, tuple) and a and a[0] == "T":
        fb, buf, spec = sprites[a[1]]
        return (buf, spec[1], spec[2], spec[0])
    return a


def _make(spec):
    fmt, w, h, stride, size = spec
    buf = bytearray((i * 37 + 11) & 255 for i in range(size))
    return framebuf.FrameBuffer(buf, w, h, fmt, stride), buf


def run(sprite_specs, cases, constructors, emit):
    sprites = []
    for spec, hexdata in sprite_specs:
        fmt, w, h = spec
        buf = bytearray(binascii.unhexlify(hexdata))
        sprites.append((framebuf.FrameBuffer(buf, w, h, fmt), buf, spec))
    for name, spec, ops in cases:
        fb, buf = _make(spec)
        for i, (meth, args) in enumerate(ops):
            try:
                r = repr(getattr(fb, meth)(*[_arg(a, sprites) for a in args]))
            except Exception as e:
                r = type(e).__name__
            emit("%s %d %s %08x" % (name, i, r, binascii.crc32(buf) & 0xFFFFFFFF))
        emit("%s end %s" % (name, binascii.hexlify(buf).decode()))
    for args in constructors:
        fmt, w, h, stride, size = args
        try:
            framebuf.FrameBuffer(bytearray(size), w, h, fmt, stride)
            r = "ok"
        except Exception as e:
            r = type(e).__name__
        emit("new %r %s" % (args, r))
'''

F = host_framebuf
# (case name, (format, width, height, stride, buffer size)); sizes are the smallest MicroPython accepts.
SPECS = [
    ("mvlsb", (F.MONO_VLSB, 37, 21, 37, 37 * 3)),
    ("mvlsb_stride", (F.MONO_VLSB, 30, 16, 33, 33 * 2)),
    ("hlsb", (F.MONO_HLSB, 37, 21, 41, 20 * 6 + 5)),
    ("hmsb", (F.MONO_HMSB, 29, 13, 29, 13 * 4)),
    ("rgb565", (F.RGB565, 23, 17, 25, (16 * 25 + 23) * 2)),
    ("gs2", (F.GS2_HMSB, 29, 11, 30, 11 * 8)),
    ("gs4", (F.GS4_HMSB, 27, 13, 27, 13 * 14)),
    ("gs8", (F.GS8, 25, 14, 27, 13 * 27 + 25)),
]
COLOURS = {F.MONO_VLSB: (0, 1, 2), F.MONO_HLSB: (0, 1, 2), F.MONO_HMSB: (0, 1, 2),
           F.RGB565: (0, 1, 0xF81F, 0xFFFF, 0x12345, -1), F.GS2_HMSB: (0, 1, 2, 3, 7),
           F.GS4_HMSB: (0, 5, 0xF, 0x1A, -1), F.GS8: (0, 1, 0x80, 0xFF, 0x1FF, -1)}
# (format, width, height) and hex bytes of the sprites blit() copies from.
SPRITES = [
    ((F.MONO_VLSB, 10, 10), "ff818181ff000f0f0f0f" + "0302030203020302ff03"),
    ((F.GS8, 6, 5), bytes(range(0, 60, 2)).hex()),
    ((F.RGB565, 4, 1), "0000ffff1f00e007"),              # palette: 4 colours in one row
    ((F.MONO_HLSB, 12, 3), "f0a0c3550f0f"),
]
PRINTABLE = "".join(chr(c) for c in range(32, 128))


def fixed_ops(fmt, w, h):
    """The calls every case makes: each method across its edge cases, clipping included."""
    cs = COLOURS[fmt]
    c1 = cs[1]
    ops = [("fill", (cs[-1],)), ("fill", (0,))]
    for x, y in ((0, 0), (w - 1, h - 1), (w, 0), (0, h), (-1, 3), (w // 2, h // 2)):
        ops += [("pixel", (x, y, c1)), ("pixel", (x, y))]
    for c in cs:
        ops += [("hline", (-3, 1, w + 9, c)), ("vline", (2, -5, h + 9, c)),
                ("hline", (4, 2, -3, c)), ("vline", (5, 3, 0, c))]
    ops += [("rect", (1, 1, w - 2, h - 2, c1)), ("rect", (-4, -4, 9, 9, cs[-1], True)),
            ("rect", (w - 3, h - 3, 10, 10, c1, False)), ("rect", (3, 3, 1, 1, c1)),
            ("fill_rect", (2, 2, 0, 5, c1)), ("fill_rect", (w - 1, 0, 5, h + 5, cs[-1])),
            ("fill_rect", (-100, -100, 10, 10, c1)), ("fill", (0,))]
    cx, cy = w // 2, h // 2
    for k in range(16):                     # every octant, steep and shallow, plus the axes
        dx = (-2 * w, -w, -3, 0, 3, w, 2 * w, w // 3)[k % 8]
        dy = (h, -h // 2, 2 * h, -3, 0, 3, -2 * h, h // 2)[(k * 3) % 8]
        ops.append(("line", (cx, cy, cx + dx, cy + dy, cs[k % len(cs)])))
    ops += [("line", (3, 3, 3, 3, c1)), ("line", (-5, -5, w + 5, h + 5, c1)),
            ("line", (w + 5, -1, -5, h + 1, cs[-1])), ("fill", (0,))]
    for xr, yr in ((0, 0), (1, 1), (3, 2), (2, 5), (w // 2, h // 3), (w, h)):
        for fill, mask in ((False, None), (True, None), (False, 5), (True, 9), (True, 0), (False, 0x1F)):
            args = (cx, cy, xr, yr, cs[(xr + yr) % len(cs)], fill) + (() if mask is None else (mask,))
            ops.append(("ellipse", args))
    ops.append(("fill", (0,)))
    shapes = ([0, 0, 8, 2, 4, 9], [0, 0, 10, 0, 10, 6, 5, 3, 0, 6], [5, 0, 7, 4, 12, 4, 8, 7, 10, 12, 5, 9,
              0, 12, 2, 7, -2, 4, 3, 4], [0, 0, 6, 0], [2, 2], [0, 5, 4, 0, 8, 5, 4, 10, 1])
    for i, pts in enumerate(shapes):
        for fill in (False, True):
            ops.append(("poly", (i - 3, (i * 5) % h - 2, ("A", "h", pts), cs[1 + i % (len(cs) - 1)], fill)))
    ops.append(("poly", (0, 0, ("A", "b", []), c1)))
    ops.append(("poly", (0, 0, [1, 2, 3, 4], c1)))
    for i in range(0, len(PRINTABLE), 5):
        ops.append(("text", (PRINTABLE[i:i + 5], (i * 3) % w - 8, (i // 5) % h - 4, cs[i % len(cs)])))
    ops += [("text", ("\u00e9\x01 \x7f", 1, 2)), ("text", (b"Ab", 0, h - 5, c1)), ("fill", (0,))]
    ops += [("text", ("Scroll", 1, 1, c1)), ("line", (0, h - 1, w - 1, 0, c1))]
    for xs, ys in ((1, 0), (-2, 3), (0, -1), (3, -2), (w, 0), (-w - 1, 0), (0, h), (-1, -h), (0, 0)):
        ops.append(("scroll", (xs, ys)))
    for x, y in ((0, 0), (-3, -4), (w - 4, h - 2), (w, 0), (0, h), (-10, 0), (0, -10), (-9, -9)):
        ops += [("blit", (("S", 0), x, y)), ("blit", (("S", 1), x + 2, y, 4)),
                ("blit", (("S", 3), x, y + 1, 0))]
    ops += [("blit", (("S", 0), 1, 1, -1, ("S", 2))), ("blit", (("T", 1), 3, 2)),
            ("blit", (("T", 3), -2, 1, 1)), ("pixel", (1.5, 0, 1)), ("rect", (0, 0, 5))]
    return ops


def fuzz_ops(fmt, w, h, rnd, n=150):
    """Random calls over and beyond the buffer's edges."""
    cs = COLOURS[fmt]

    def xy():
        return rnd.randint(-w // 2, w + w // 2), rnd.randint(-h // 2, h + h // 2)

    ops = []
    for _ in range(n):
        kind = rnd.randrange(9)
        (x, y), (x2, y2), c = xy(), xy(), rnd.choice(cs)
        if kind == 0:
            ops.append(("line", (x, y, x2, y2, c)))
        elif kind == 1:
            ops.append(("rect", (x, y, x2 - x, y2 - y, c, rnd.random() < 0.5)))
        elif kind == 2:
            ops.append(("ellipse", (x, y, rnd.randint(0, w), rnd.randint(0, h), c, rnd.random() < 0.5,
                                    rnd.randrange(32))))
        elif kind == 3:
            pts = [rnd.randint(-5, w + 5) if i % 2 == 0 else rnd.randint(-5, h + 5)
                   for i in range(2 * rnd.randint(1, 7))]
            ops.append(("poly", (rnd.randint(-3, 3), rnd.randint(-3, 3), ("A", "h", pts), c, rnd.random() < 0.6)))
        elif kind == 4:
            ops.append(("text", ("".join(rnd.choice(PRINTABLE) for _ in range(rnd.randint(1, 6))), x, y, c)))
        elif kind == 5:
            ops.append(("scroll", (rnd.randint(-4, 4), rnd.randint(-4, 4))))
        elif kind == 6:
            ops.append(("blit", (("S", rnd.randrange(len(SPRITES))), x, y, rnd.choice((-1, 0, 1, 4)))))
        elif kind == 7:
            ops.append(("fill_rect", (x, y, x2 - x, y2 - y, c)))
        else:
            ops.append(("pixel", (x, y, c)))
    return ops


def constructor_cases():
    """(format, width, height, stride, buffer size) around each format's smallest buffer, and bad geometry."""
    out = []
    for fmt in (F.MONO_VLSB, F.MONO_HLSB, F.MONO_HMSB, F.RGB565, F.GS2_HMSB, F.GS4_HMSB, F.GS8):
        for w, h, stride in ((1, 1, 1), (5, 9, 5), (7, 8, 11), (9, 17, 9), (13, 3, 14)):
            need = F._required_len(fmt, w, h, _stride(fmt, stride))
            out += [(fmt, w, h, stride, need), (fmt, w, h, stride, need - 1)]
    out += [(F.GS8, 0, 1, 1, 8), (F.GS8, 1, 0, 1, 8), (F.GS8, 5, 5, 4, 64), (F.GS8, 65536, 1, 65536, 8),
            (9, 4, 4, 4, 64), (F.GS8, -1, 2, 2, 8)]
    return out


def _stride(fmt, stride):
    rounding = {F.MONO_HLSB: 7, F.MONO_HMSB: 7, F.GS2_HMSB: 3, F.GS4_HMSB: 1}.get(fmt, 0)
    return (stride + rounding) & ~rounding


def build_cases():
    rnd = random.Random(20240609)
    cases = []
    for name, spec in SPECS:
        fmt, w, h = spec[0], spec[1], spec[2]
        cases.append((name, spec, fixed_ops(fmt, w, h) + fuzz_ops(fmt, w, h, rnd)))
    return cases


def run_on_host(cases, constructors):
    lines = []
    namespace = {}
    saved = sys.modules.get("framebuf")
    sys.modules["framebuf"] = host_framebuf
    try:
        exec(compile(_INTERPRETER, "<framebuf interpreter>", "exec"), namespace)
        namespace["run"](SPRITES, cases, constructors, lines.append)
    finally:
        if saved is None:
            sys.modules.pop("framebuf", None)
        else:
            sys.modules["framebuf"] = saved
    return lines


def run_on_micropython(cases, constructors, tmp_path):
    script = tmp_path / "framebuf_transcript.py"
    script.write_text(_INTERPRETER + "\nrun(%r, %r, %r, print)\n" % (SPRITES, cases, constructors))
    status, out = mpvm.run(["--script", str(script)], copies=(), timeout=300)
    assert status == 0, out[-3000:]
    return [line for line in out.splitlines() if not line.startswith("runtime: ")]


@pytest.mark.micropython
def test_every_format_draws_byte_identical_to_micropython(tmp_path):
    cases = build_cases()
    constructors = constructor_cases()
    vm = run_on_micropython(cases, constructors, tmp_path)
    host = run_on_host(cases, constructors)
    assert len(vm) == len(host), (len(vm), len(host), vm[-3:])
    for want, got in zip(vm, host):
        assert got == want, "hostsim.framebuf parted from MicroPython at\n  vm:   %s\n  host: %s" % (
            want[:300], got[:300])
    assert any(line.endswith(" ValueError") for line in host if line.startswith("new "))
    assert any(" ok" in line for line in host if line.startswith("new "))


def test_the_font_is_petme128_as_micropython_draws_it():
    # "A" as MicroPython 1.27 draws it at (0, 0) in an 8x8 MONO_VLSB buffer (read on the VM).
    buf = bytearray(8)
    fb = host_framebuf.FrameBuffer(buf, 8, 8, host_framebuf.MONO_VLSB)
    fb.text("A", 0, 0, 1)
    assert bytes(buf).hex() == "007c7e0b0b7e7c00"
    fb.fill(0)
    fb.text("\u00e9", 0, 0, 1)              # outside ASCII: the checkerboard of code 127
    assert bytes(buf).hex() == "aa55aa55aa55aa55"


def test_constructor_rejects_what_micropython_rejects():
    F = host_framebuf
    with pytest.raises(ValueError):
        F.FrameBuffer(bytearray(7), 8, 8, F.MONO_VLSB)
    with pytest.raises(ValueError, match="invalid format"):
        F.FrameBuffer(bytearray(64), 8, 8, 99)
    with pytest.raises(TypeError):
        F.FrameBuffer(bytes(8), 8, 8, F.MONO_VLSB)        # read-only buffer
    fb = F.FrameBuffer(memoryview(bytearray(9))[1:], 8, 8, F.MONO_VLSB)
    fb.fill(1)                                            # a slice of a larger buffer works too


def test_like_micropythons_it_hides_its_geometry_and_takes_no_attributes():
    # Firmware that read fb.width would run here and crash on a board: the sim must refuse it too.
    fb = host_framebuf.FrameBuffer(bytearray(8), 8, 8, host_framebuf.MONO_VLSB)
    assert not hasattr(fb, "width") and not hasattr(fb, "height")
    with pytest.raises(AttributeError):
        fb.width = 8

    class Display(host_framebuf.FrameBuffer):     # drivers subclass it (micropython-lib's ssd1306 does)
        pass

    d = Display(bytearray(8), 8, 8, host_framebuf.MONO_VLSB)
    d.width = 8
    d.text("x", 0, 0)
    assert d.pixel(1, 2) == 1
