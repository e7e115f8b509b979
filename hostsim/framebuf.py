# MicroPython's `framebuf` module for CPython: the same drawing, byte for byte, in the same buffer layouts.
#
# hostsim.hardware.install() puts this module into sys.modules as `framebuf`,
# so firmware drivers (firmware/drivers/ssd1306.py) import it exactly as they
# import the built-in module on a board. Each method follows MicroPython's
# extmod/modframebuf.c (v1.27) step by step: the same Bresenham line, the same
# ellipse and polygon-fill algorithms (with their pixel quirks), the same
# clipping, the same constructor checks, and the petme128 8x8 font below,
# which was read out of MicroPython itself (each glyph rendered with
# FrameBuffer.text on the VM). tests/host/test_framebuf_faithful.py draws the
# same operations on the MicroPython VM and here and compares the buffers.
#
# Derived from MicroPython (extmod/modframebuf.c, extmod/font_petme128_8x8.h),
# Copyright (c) 2013-2024 Damien P. George and contributors, MIT licence:
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to
# deal in the Software without restriction, including without limitation the
# rights to use, copy, modify, merge, publish, distribute, sublicense, and/or
# sell copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions: The above copyright
# notice and this permission notice shall be included in all copies or
# substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS",
# WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
#
# Differences that cannot matter to correct code: RGB565 pixels are stored
# little-endian (every MicroPython port is); blit with a palette smaller than
# the source's colours raises IndexError where C would read past the palette.
from operator import index as _int

from hostsim.framebuf_formats import FONT as _FONT, FORMATS as _FORMATS
from hostsim.framebuf_formats import (  # noqa: F401 (the module's public constants)
    GS2_HMSB, GS4_HMSB, GS8, MONO_HLSB, MONO_HMSB, MONO_VLSB, MVLSB, RGB565)

# Ellipse quadrant mask bits (Q2 Q1 / Q3 Q4) and the internal fill flag.
_Q1, _Q2, _Q3, _Q4 = 1, 2, 4, 8
_MASK_ALL = 0x0F
_MASK_FILL = 0x10


def _cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _required_len(fmt, width, height, stride):
    """Smallest buffer MicroPython accepts: every row but the last takes a full stride."""
    if fmt == MVLSB:                        # a stride is a page of 8 rows, a byte per column
        return (((height + 7) >> 3) - 1) * stride + width
    bpp, width_req, strides = 1, width, height - 1
    if fmt in (MONO_HLSB, MONO_HMSB):
        width_req = (width + 7) & ~7
    elif fmt == GS2_HMSB:
        width_req, bpp = (width + 3) & ~3, 2
    elif fmt == GS4_HMSB:
        width_req, bpp = (width + 1) & ~1, 4
    elif fmt == GS8:
        bpp = 8
    elif fmt == RGB565:
        bpp = 16
    return (strides * stride + width_req) * bpp // 8


class FrameBuffer:
    """FrameBuffer(buffer, width, height, format, stride=width): drawing on a writable buffer.

    Like MicroPython's, it shows no width/height attributes and takes no new
    ones (firmware keeps its own geometry); a subclass may add attributes.
    """

    __slots__ = ("_buf", "_width", "_height", "_stride", "_format", "_set", "_get", "_fill")

    def __init__(self, buffer, width, height, format, stride=None):
        width, height, format = _int(width), _int(height), _int(format)
        stride = width if stride is None else _int(stride)
        if not (1 <= width <= 0xFFFF and 1 <= height <= 0xFFFF and width <= stride <= 0xFFFF):
            raise ValueError()
        if format in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
        elif format == GS4_HMSB:
            stride = (stride + 1) & ~1
        elif format not in (MVLSB, RGB565, GS8):
            raise ValueError("invalid format")
        buf = memoryview(buffer)
        if buf.readonly:
            raise TypeError("object with buffer protocol required")
        buf = buf.cast("B")
        if _required_len(format, width, height, stride) > len(buf):
            raise ValueError()
        self._buf = buf
        self._width = width
        self._height = height
        self._stride = stride
        self._format = format
        self._set, self._get, self._fill = _FORMATS[format]

    # protocol helpers (C: setpixel/getpixel/fill_rect with clipping)
    def _setpixel_checked(self, x, y, col, mask=1):
        if mask and 0 <= x < self._width and 0 <= y < self._height:
            self._set(self, x, y, col)

    def _fill_rect(self, x, y, w, h, col):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._height or x >= self._width:
            return
        xend = min(self._width, x + w)
        yend = min(self._height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill(self, x, y, xend - x, yend - y, col)

    def fill(self, c):
        self._fill(self, 0, 0, self._width, self._height, _int(c))

    def fill_rect(self, x, y, w, h, c):
        self._fill_rect(_int(x), _int(y), _int(w), _int(h), _int(c))

    def pixel(self, x, y, c=None):
        x, y = _int(x), _int(y)
        if 0 <= x < self._width and 0 <= y < self._height:
            if c is None:
                return self._get(self, x, y)
            self._set(self, x, y, _int(c))
        return None

    def hline(self, x, y, w, c):
        self._fill_rect(_int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c):
        self._fill_rect(_int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False):
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        self._line(_int(x1), _int(y1), _int(x2), _int(y2), _int(c))

    def _line(self, x1, y1, x2, y2, col):
        dx, sx = (x2 - x1, 1) if x2 - x1 > 0 else (x1 - x2, -1)
        dy, sy = (y2 - y1, 1) if y2 - y1 > 0 else (y1 - y2, -1)
        steep = dy > dx
        if steep:
            x1, y1, dx, dy, sx, sy = y1, x1, dy, dx, sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                self._setpixel_checked(y1, x1, col)
            else:
                self._setpixel_checked(x1, y1, col)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        self._setpixel_checked(x2, y2, col)

    def _ellipse_points(self, cx, cy, x, y, col, mask):
        if mask & _MASK_FILL:
            if mask & _Q1:
                self._fill_rect(cx, cy - y, x + 1, 1, col)
            if mask & _Q2:
                self._fill_rect(cx - x, cy - y, x + 1, 1, col)
            if mask & _Q3:
                self._fill_rect(cx - x, cy + y, x + 1, 1, col)
            if mask & _Q4:
                self._fill_rect(cx, cy + y, x + 1, 1, col)
        else:
            self._setpixel_checked(cx + x, cy - y, col, mask & _Q1)
            self._setpixel_checked(cx - x, cy - y, col, mask & _Q2)
            self._setpixel_checked(cx - x, cy + y, col, mask & _Q3)
            self._setpixel_checked(cx + x, cy + y, col, mask & _Q4)

    def ellipse(self, x, y, xr, yr, c, f=False, m=None):
        cx, cy, xr, yr, col = _int(x), _int(y), _int(xr), _int(yr), _int(c)
        mask = _MASK_FILL if f else 0
        mask |= _MASK_ALL if m is None else (_int(m) & _MASK_ALL)
        if xr == 0 and yr == 0:
            # both loops below would never end: MicroPython (since 1.22) draws the centre once
            self._ellipse_points(cx, cy, 0, 0, col, mask)
            return
        two_a2, two_b2 = 2 * xr * xr, 2 * yr * yr
        # first set of points, slope > -1
        x, y = xr, 0
        xchange, ychange = yr * yr * (1 - 2 * xr), xr * xr
        err, stopx, stopy = 0, two_b2 * xr, 0
        while stopx >= stopy:
            self._ellipse_points(cx, cy, x, y, col, mask)
            y += 1
            stopy += two_a2
            err += ychange
            ychange += two_a2
            if 2 * err + xchange > 0:
                x -= 1
                stopx -= two_b2
                err += xchange
                xchange += two_b2
        # second set of points, slope < -1
        x, y = 0, yr
        xchange, ychange = yr * yr, xr * xr * (1 - 2 * yr)
        err, stopx, stopy = 0, 0, two_a2 * yr
        while stopx <= stopy:
            self._ellipse_points(cx, cy, x, y, col, mask)
            x += 1
            stopx += two_b2
            err += xchange
            xchange += two_b2
            if 2 * err + ychange > 0:
                y -= 1
                stopy -= two_a2
                err += ychange
                ychange += two_a2

    def poly(self, x, y, coords, c, f=False):
        x, y = _int(x), _int(y)
        pts = memoryview(coords).tolist()       # buffer protocol, as in C (an array('h') etc.)
        n = len(pts) // 2
        if n == 0:
            return
        col = _int(c)
        if not f:
            px1, py1 = pts[0], pts[1]
            for i in range(n - 1, -1, -1):
                px2, py2 = pts[2 * i], pts[2 * i + 1]
                self._line(x + px1, y + py1, x + px2, y + py2, col)
                px1, py1 = px2, py2
            return
        ys = pts[1:2 * n:2]
        for row in range(min(ys), max(ys) + 1):
            self._poly_row(x, y, pts, n, row, col)

    def _poly_row(self, x, y, pts, n, row, col):
        # integer version of alienryderflex.com/polygon_fill, edges walked last vertex to first
        nodes = []
        px1, py1 = pts[0], pts[1]
        for i in range(n - 1, -1, -1):
            px2, py2 = pts[2 * i], pts[2 * i + 1]
            if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                nodes.append(_cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32))
            elif row == max(py1, py2):
                if py1 < py2:
                    self._setpixel_checked(x + px2, y + py2, col)
                elif py2 < py1:
                    self._setpixel_checked(x + px1, y + py1, col)
                else:
                    self._line(x + px1, y + py1, x + px2, y + py2, col)
            px1, py1 = px2, py2
        nodes.sort()
        for i in range(0, len(nodes) - 1, 2):
            self._fill_rect(x + nodes[i], y + row, nodes[i + 1] - nodes[i] + 1, 1, col)

    def blit(self, fbuf, x, y, key=-1, palette=None):
        if isinstance(fbuf, (tuple, list)):
            fbuf = FrameBuffer(*fbuf)
        if not isinstance(fbuf, FrameBuffer):
            raise TypeError()
        x, y, key = _int(x), _int(y), _int(key) & 0xFFFFFFFF
        if x >= self._width or y >= self._height or -x >= fbuf._width or -y >= fbuf._height:
            return
        x1, y1 = max(0, -x), max(0, -y)
        x0end, y0end = min(self._width, x + fbuf._width), min(self._height, y + fbuf._height)
        get, put = fbuf._get, self._set
        for y0 in range(max(0, y), y0end):
            cx1 = x1
            for cx0 in range(max(0, x), x0end):
                col = get(fbuf, cx1, y1)
                if palette is not None:
                    col = palette._get(palette, col, 0)
                if col != key:
                    put(self, cx0, y0, col)
                cx1 += 1
            y1 += 1

    def scroll(self, xstep, ystep):
        xstep, ystep = _int(xstep), _int(ystep)
        if xstep < 0:
            sx, xend, dx = 0, self._width + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = self._width - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, self._height + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = self._height - 1, ystep - 1, -1
            if yend >= y:
                return
        get, put = self._get, self._set
        for yy in range(y, yend, dy):
            for xx in range(sx, xend, dx):
                put(self, xx, yy, get(self, xx - xstep, yy - ystep))

    def text(self, s, x, y, c=1):
        x0, y0, col = _int(x), _int(y), _int(c)
        data = s.encode() if isinstance(s, str) else bytes(s)
        for ch in data:
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < self._width:
                    column = _FONT[base + j]
                    yy = y0
                    while column:
                        if column & 1 and 0 <= yy < self._height:
                            self._set(self, x0, yy, col)
                        column >>= 1
                        yy += 1
                x0 += 1


def FrameBuffer1(buffer, width, height, stride=None):
    """The legacy MONO_VLSB constructor."""
    return FrameBuffer(buffer, width, height, MVLSB, width if stride is None else stride)
