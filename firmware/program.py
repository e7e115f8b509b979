# Program verification: the deployed files against the build's manifest.json, and a lab's keyed digest.
#
# tools/build.py writes manifest.json beside the program: every deployed file
# (path as on the board, in one fixed order: sorted by path) with its size and
# SHA-256, and the firmware version. At boot firmware.startup checks every file
# against it (check()); a missing or changed file, or a manifest that cannot be
# read, holds the table closed (faults.PROGRAM_MISMATCH). verify(seed) is what a
# lab compares with `python -m tools.verify --board NAME --seed SEED`: an
# HMAC-SHA256 keyed by the seed over every file in manifest order, so a board
# that merely replays the manifest's digests cannot pass (the seed is new each time).
#
# Code in flash (tools/build.py --romfs): the firmware/ tree lives in a ROMFS image, mounted read-only
# at /rom (on sys.path, first: the ports' _boot.py insert it), and its entries in manifest.json say
# "rom": true. They are checked and verified there, at <root>/rom/<path> ("rom/..." relative to the
# board's "/"), with the same path in the digest, so a lab's digest of the build is the same. A copy
# of their top folder on the filesystem (on sys.path too: which one an import finds would depend on
# sys.path's order, not on this check) is refused (SHADOWED), and so is, for a program on the
# filesystem, a folder of the same name left in a ROMFS by an earlier deployment.
#
# Code in the image (tools/build.py --frozen): the firmware/ tree is frozen into the MicroPython image,
# not on the filesystem. manifest.json's "files" lists only what is (board.json, main.py) and its
# "frozen" object the host's digest of the frozen sources; the image carries the same text as
# firmware.frozen_build.DIGEST (image_digest()). The board compares the two strings, it never rehashes
# the image. A firmware/ folder on the filesystem would be imported instead of the frozen package
# (sys.path has the filesystem's folder before ".frozen"): refused (SHADOWS_FROZEN); so is one left in
# a mounted ROMFS by an earlier --romfs deployment (/rom is first on sys.path): ROM_SHADOWS_FROZEN.
#
# hashlib.sha256 is all MicroPython offers (no hmac module): HMAC is built here (RFC 2104).
import binascii
import hashlib
import json
import os


MANIFEST = "manifest.json"
_BLOCK = const(64)            # SHA-256 block size (RFC 2104's B)
_CHUNK = const(512)           # files are read through one buffer of this size, made by check() or verify()
#                               for their run (boot, the console's verify): not kept for the whole run

# check()'s problems (the host report's "problem").
MISSING = "missing"
SIZE = "size differs"
DIGEST = "sha256 differs"
UNREADABLE = "unreadable"
SHADOWED = "shadowed: a copy of its folder in ROMFS and on the filesystem"
ROM = "rom"                   # where the ROMFS image is mounted, relative to the program's root
# check()'s problems of a frozen build (tools/build.py --frozen), with the path each is reported for.
FIRMWARE = "firmware"         # the path of SHADOWS_FROZEN: the folder on the filesystem
SHADOWS_FROZEN = "a firmware/ folder on the filesystem would shadow the frozen firmware"
ROM_FIRMWARE = "rom/firmware"  # the path of ROM_SHADOWS_FROZEN: the folder in the mounted ROMFS
ROM_SHADOWS_FROZEN = "a firmware/ folder in the ROMFS would shadow the frozen firmware: deploy an empty ROMFS image"
FROZEN = "firmware (frozen)"  # the path of NOT_FROZEN and IMAGE_DIFFERS: the image itself
NOT_FROZEN = "not a frozen firmware image: flash the image built from frozen/manifest.py"
IMAGE_DIFFERS = "the firmware image was built from other sources"
_RUNNING = object()           # check()'s and verify()'s image not given: the running firmware's (image_digest())


class ManifestError(ValueError):
    """manifest.json is missing, not JSON, or not the build's shape."""


class Hmac:
    """HMAC-SHA256 (RFC 2104) fed in pieces: update(data) then hexdigest()."""

    def __init__(self, key):
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        pad = bytearray(_BLOCK)
        pad[:len(key)] = key
        inner = bytearray(_BLOCK)
        for i in range(_BLOCK):
            inner[i] = pad[i] ^ 0x36
            pad[i] ^= 0x5C
        self._outer_pad = bytes(pad)
        self._inner = hashlib.sha256(inner)

    def update(self, data):
        self._inner.update(data)

    def digest(self):
        outer = hashlib.sha256(self._outer_pad)
        outer.update(self._inner.digest())
        return outer.digest()

    def hexdigest(self):
        return binascii.hexlify(self.digest()).decode()


def hmac_sha256(key, data):
    """The HMAC-SHA256 of bytes `data` keyed by bytes `key`, as bytes."""
    mac = Hmac(key)
    mac.update(data)
    return mac.digest()


def _path(root, rel):
    return rel if not root else root + "/" + rel


def _located(root, path, rom):
    """Where a manifest entry's file is read: root/path, or root/rom/path when it lives in ROMFS."""
    return _path(root, ROM + "/" + path) if rom else _path(root, path)


def _exists(path):
    try:
        os.stat(path)
    except OSError:
        return False
    return True


def image_digest():
    """The running firmware image's claim, firmware.frozen_build.DIGEST (64 hex), or None: not a frozen
    image's firmware (or a firmware/ on the filesystem shadowing it: its own folder has no frozen_build).
    The module is released once read (its module object and globals would stay on the heap otherwise)."""
    try:
        from firmware import frozen_build
    except ImportError:
        return None
    from firmware.parts import release
    release(("firmware.frozen_build",))
    return getattr(frozen_build, "DIGEST", None)


def load_manifest(root=""):
    """[(path, size, sha256 hex, in ROMFS)] of root/manifest.json in its order; ManifestError when it
    is not usable."""
    return _load(root)[0]


def _load(root):
    """load_manifest()'s entries and the "frozen" object's digest of the frozen sources (None: not a
    frozen build)."""
    try:
        with open(_path(root, MANIFEST)) as f:
            data = json.load(f)
    except OSError:
        raise ManifestError("%s missing" % MANIFEST)
    except (ValueError, RuntimeError):       # RuntimeError: nested too deeply (MicroPython)
        raise ManifestError("%s is not JSON" % MANIFEST)
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not files:
        raise ManifestError("%s lists no files" % MANIFEST)
    out = []
    for entry in files:
        if not isinstance(entry, dict):
            raise ManifestError("%s: a file entry is not an object" % MANIFEST)
        path, size, digest = entry.get("path"), entry.get("size"), entry.get("sha256")
        rom = entry.get("rom", False)
        if (not isinstance(rom, bool) or not isinstance(path, str) or not path or "\n" in path or ".." in path.split("/")
                or not isinstance(size, int) or isinstance(size, bool) or size < 0
                or not isinstance(digest, str) or len(digest) != 64):
            raise ManifestError("%s: a file entry is malformed" % MANIFEST)
        out.append((path, size, digest, rom))
    if "frozen" not in data:
        return out, None
    frozen = data["frozen"]              # a frozen build's: its digest is 64 lowercase hex, as the image's
    digest = frozen.get("digest") if isinstance(frozen, dict) else None
    if not isinstance(digest, str) or len(digest) != 64 or digest.strip("0123456789abcdef"):
        raise ManifestError("%s: the frozen object is malformed" % MANIFEST)
    return out, digest


def _feed(path, sinks, buf):
    """Read the file at path through buf (a memoryview of the caller's buffer) into every sink's
    update(); returns its size."""
    total = 0
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return total
            total += n
            for sink in sinks:
                sink.update(buf[:n])


def check(root="", image=_RUNNING):
    """None when every file of the manifest is there with its size and sha256; else (path, problem).

    The manifest itself unusable: (MANIFEST, its reason). The first problem found is returned.
    A frozen build's manifest: then no firmware/ folder at root, and the image's digest (image: the
    running firmware's unless given; None: not a frozen image) the manifest's.
    """
    try:
        entries, frozen = _load(root)
    except ManifestError as exc:
        return MANIFEST, str(exc)
    tops = []                 # top folders of the entries, each looked for once where it must not be
    buf = memoryview(bytearray(_CHUNK))
    for path, size, digest, rom in entries:
        top = path.split("/", 1)[0]
        if top != path and top not in tops:
            # in ROMFS: no copy on the filesystem; on the filesystem: none in a mounted ROMFS either
            if _exists(_located(root, top, not rom)):
                return path, SHADOWED
            tops.append(top)
        digester = hashlib.sha256()
        try:
            got = _feed(_located(root, path, rom), (digester,), buf)
        except OSError:
            return path, MISSING
        if got != size:
            return path, SIZE
        if binascii.hexlify(digester.digest()).decode() != digest:
            return path, DIGEST
    if frozen is None:
        return None
    if _exists(_path(root, FIRMWARE)):
        return FIRMWARE, SHADOWS_FROZEN
    if _exists(_path(root, ROM_FIRMWARE)):
        return ROM_FIRMWARE, ROM_SHADOWS_FROZEN
    if image is _RUNNING:
        image = image_digest()
    if image is None:
        return FROZEN, NOT_FROZEN
    if image != frozen:
        return FROZEN, IMAGE_DIFFERS
    return None


def verify(seed, root="", image=_RUNNING):
    """HMAC-SHA256 keyed by seed (text: its UTF-8) over every file in manifest order, as hex.

    Each file contributes its path, a newline, its size in decimal, a newline,
    then its bytes: the size keeps one file's end from passing as the next
    one's start. A frozen build's manifest adds b"frozen\n", the image's digest
    (image: the running firmware's unless given; None: b""), b"\n": what the image
    claims, not the manifest, so only the image of those sources gives the build's
    digest. ManifestError if the manifest is unusable, OSError if a file cannot be read.
    """
    mac = Hmac(seed.encode() if isinstance(seed, str) else bytes(seed))
    buf = memoryview(bytearray(_CHUNK))
    entries, frozen = _load(root)
    for path, _, _, rom in entries:
        full = _located(root, path, rom)
        size = _size(full)
        mac.update(path.encode())
        mac.update(("\n%d\n" % size).encode())
        if _feed(full, (mac,), buf) != size:
            raise OSError("%s changed while it was read" % path)
    if frozen is not None:
        if image is _RUNNING:
            image = image_digest()
        mac.update(b"frozen\n")
        if image is not None:
            mac.update(image.encode())
        mac.update(b"\n")
    return mac.hexdigest()


def _size(path):
    return os.stat(path)[6]
