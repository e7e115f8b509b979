# Pixel formats and font of hostsim.framebuf: MicroPython's setpixel/getpixel/fill_rect per format, and petme128.
#
# Split out of hostsim/framebuf.py (see there for the licence: derived from
# MicroPython's extmod/modframebuf.c and extmod/font_petme128_8x8.h, MIT,
# Copyright (c) 2013-2024 Damien P. George and contributors). Each format is
# (setpixel, getpixel, fill_rect) on a FrameBuffer whose _buf is a byte
# memoryview; coordinates arrive already clipped, as in C.
MONO_VLSB = MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

# Font: ASCII 32..127, 8 bytes a glyph, one byte a column, bit 0 at the top.
FONT = bytes.fromhex(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f14"  #  !"#
    "00242e6b6b3a1200006333180c66630000327f4d4d7772500000000406030100"  # $%&'
    "00001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800"  # ()*+
    "000080e0600000000008080808080800000000606000000000406030180c0602"  # ,-./
    "003e7f49457f3e000040447f7f40400000627351494f460000226349497f3600"  # 0123
    "00181814167f7f1000276745457d3900003e7f49497b3200000303797d070300"  # 4567
    "00367f49497f360000266f49497f3e000000002424000000000080e464000000"  # 89:;
    "00081c3663414100001414141414140000414163361c080000020351590f0600"  # <=>?
    "003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200"  # @ABC
    "007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00"  # DEFG
    "007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100"  # HIJK
    "007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00"  # LMNO
    "007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b3200"  # PQRS
    "0001017f7f010100003f7f40407f3f00001f3f60603f1f00007f7f3018307f7f"  # TUVW
    "0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"  # XYZ[
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0"  # \]^_
    "000001030604000000207454547c7800007f7f44447c380000387c44446c2800"  # `abc
    "00387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00"  # defg
    "007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c4400"  # hijk
    "0000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c3800"  # lmno
    "00fcfc24243c180000183c2424fcfc00007c7c04040c080000485c5454742000"  # pqrs
    "04043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c"  # tuvw
    "00446c38386c4400009cbca0a0fc7c00004464745c4c44000008083e77414100"  # xyz{
    "000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"  # |}~ DEL
)


# Per-format setpixel / getpixel / fill_rect (C: the `formats` table).


def _mvlsb_set(fb, x, y, col):
    i = (y >> 3) * fb._stride + x
    bit = 1 << (y & 7)
    fb._buf[i] = (fb._buf[i] & ~bit) | (bit if col else 0)


def _mvlsb_get(fb, x, y):
    return (fb._buf[(y >> 3) * fb._stride + x] >> (y & 7)) & 1


def _mvlsb_fill(fb, x, y, w, h, col):
    buf, stride = fb._buf, fb._stride
    for yy in range(y, y + h):
        bit = 1 << (yy & 7)
        start = (yy >> 3) * stride + x
        for i in range(start, start + w):
            buf[i] = (buf[i] & ~bit) | (bit if col else 0)


def _mh_shift(fb, x):
    return x & 7 if fb._format == MONO_HMSB else 7 - (x & 7)


def _mh_set(fb, x, y, col):
    i = (x + y * fb._stride) >> 3
    bit = 1 << _mh_shift(fb, x)
    fb._buf[i] = (fb._buf[i] & ~bit) | (bit if col else 0)


def _mh_get(fb, x, y):
    return (fb._buf[(x + y * fb._stride) >> 3] >> _mh_shift(fb, x)) & 1


def _mh_fill(fb, x, y, w, h, col):
    buf, advance = fb._buf, fb._stride >> 3
    for xx in range(x, x + w):
        bit = 1 << _mh_shift(fb, xx)
        for row in range(y, y + h):
            i = (xx >> 3) + row * advance
            buf[i] = (buf[i] & ~bit) | (bit if col else 0)


def _rgb565_set(fb, x, y, col):
    i = 2 * (x + y * fb._stride)
    fb._buf[i] = col & 0xFF
    fb._buf[i + 1] = (col >> 8) & 0xFF


def _rgb565_get(fb, x, y):
    i = 2 * (x + y * fb._stride)
    return fb._buf[i] | (fb._buf[i + 1] << 8)


def _gs2_set(fb, x, y, col):
    i = (x + y * fb._stride) >> 2
    shift = (x & 3) << 1
    fb._buf[i] = ((col & 3) << shift) | (fb._buf[i] & ~(3 << shift) & 0xFF)


def _gs2_get(fb, x, y):
    return (fb._buf[(x + y * fb._stride) >> 2] >> ((x & 3) << 1)) & 3


def _gs4_set(fb, x, y, col):
    i = (x + y * fb._stride) >> 1
    if x % 2:
        fb._buf[i] = (col & 0x0F) | (fb._buf[i] & 0xF0)
    else:
        fb._buf[i] = ((col << 4) & 0xFF) | (fb._buf[i] & 0x0F)


def _gs4_get(fb, x, y):
    b = fb._buf[(x + y * fb._stride) >> 1]
    return b & 0x0F if x % 2 else b >> 4


def _gs4_fill(fb, x, y, w, h, col):
    # C fills nibble pairs with memset; per pixel gives the same bytes (col masked to 4 bits first)
    _per_pixel_fill(fb, x, y, w, h, col & 0x0F)


def _gs8_set(fb, x, y, col):
    fb._buf[x + y * fb._stride] = col & 0xFF


def _gs8_get(fb, x, y):
    return fb._buf[x + y * fb._stride]


def _per_pixel_fill(fb, x, y, w, h, col):
    put = fb._set
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            put(fb, xx, yy, col)


FORMATS = {
    MVLSB: (_mvlsb_set, _mvlsb_get, _mvlsb_fill),
    RGB565: (_rgb565_set, _rgb565_get, _per_pixel_fill),
    GS2_HMSB: (_gs2_set, _gs2_get, _per_pixel_fill),
    GS4_HMSB: (_gs4_set, _gs4_get, _gs4_fill),
    GS8: (_gs8_set, _gs8_get, _per_pixel_fill),
    MONO_HLSB: (_mh_set, _mh_get, _mh_fill),
    MONO_HMSB: (_mh_set, _mh_get, _mh_fill),
}
