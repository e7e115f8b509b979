"""Read a ROMFS image back (MicroPython's VfsRom format, as mpremote's romfs.py writes it): the tests'
check of tools/build.py --romfs, and the fake board's ROMFS mount (fake_mpboard.py).

    files(image) -> {"firmware/a.mpy": b"...", ...}

Format (micropython extmod/vfs_rom.c): the header d2 cd 31, the length of what follows, then
records: kind, length, payload, each number a big-endian base-128 varint (high bit: more follows).
A directory's payload is its name and its records; a file's, its name and one data record.
"""
HEADER = b"\xd2\xcd\x31"
_PADDING, _UNUSED, _VERBATIM, _DIRECTORY, _FILE = 1, 0, 2, 4, 5


class RomfsError(ValueError):
    pass


def _uint(data, at):
    value = 0
    while True:
        if at >= len(data):
            raise RomfsError("a number runs past the end of the image")
        byte = data[at]
        at += 1
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at


def _name(payload):
    n, at = _uint(payload, 0)
    return payload[at:at + n].decode("ascii"), at + n


def _records(data, prefix, out):
    at = 0
    while at < len(data):
        kind, at = _uint(data, at)
        size, at = _uint(data, at)
        payload = data[at:at + size]
        if len(payload) != size:
            raise RomfsError("a record runs past the end of its directory")
        at += size
        if kind == _DIRECTORY:
            name, start = _name(payload)
            _records(payload[start:], prefix + name + "/", out)
        elif kind == _FILE:
            name, start = _name(payload)
            inner, start = _uint(payload, start)
            length, start = _uint(payload, start)
            if inner != _VERBATIM:
                raise RomfsError("%s%s: data kind %d not read here" % (prefix, name, inner))
            out[prefix + name] = bytes(payload[start:start + length])
        elif kind not in (_PADDING, _UNUSED):
            raise RomfsError("unknown record kind %d" % kind)


def files(image):
    """{path: bytes} of every file in a ROMFS image; RomfsError when it is not one."""
    image = bytes(image)
    if not image.startswith(HEADER):
        raise RomfsError("no ROMFS header")
    size, at = _uint(image, len(HEADER))
    body = image[at:at + size]
    if len(body) != size:
        raise RomfsError("the image is shorter than its header says")
    out = {}
    _records(body, "", out)
    return out
