"""The frozen build (`python -m tools.build --board pico --frozen`): the firmware's sources for a MicroPython image.

build/<board>/frozen/ holds a MicroPython freeze manifest (manifest.py, the format of
micropython/tools/manifestfile.py) and beside it firmware/**.py: the sources the board's normal
build compiles, byte for byte, and firmware/frozen_build.py, generated, holding their DIGEST; and
native/firmware/**.mpy: the modules of tools/build.py's NATIVE_EMIT, compiled to the board's machine
code (their .py left out of firmware/), which the manifest's freeze_mpy("native") freezes as they are
(MicroPython's make compiles every frozen .py with one set of flags: bytecode). Each .mpy names its
module by the path it was compiled with (mpy-cross -s firmware/...py): the name the image imports it by.
`make -C <micropython>/ports/<port> BOARD=<BOARD> FROZEN_MANIFEST=<that manifest.py>` builds the
image with the firmware frozen into it. manifest.json's "frozen" object lists the files frozen
(path under frozen/, size, sha256, sorted by path; a native .mpy also its "source") and their digest:
SHA-256 of "path\\nsize\\nsha256\\n" for each in that order (frozen_digest()), computed here only; the
board compares its image's DIGEST (firmware.frozen_build) with the manifest's, as text. Its "files"
keep only what goes on the filesystem: board.json and main.py (tools/build.py).
"""
import hashlib
import os
import re
import shlex
import shutil

from tools.build_board import PORTS, VARIANTS
from tools.mpy_cross_tool import BuildError

FROZEN_DIR = "frozen"                           # build/<board>/frozen/: what the image is built from
FROZEN_MANIFEST = FROZEN_DIR + "/manifest.py"   # manifest.json's "frozen" "manifest"
FROZEN_BUILD = "firmware/frozen_build.py"       # generated beside the sources: their DIGEST, in the image

MANIFEST_PY = (
    "# MicroPython freeze manifest written by tools/build.py: board %(board)s, firmware %(version)s,"
    " MicroPython %(micropython)s.\n"
    "# Build the image in a MicroPython v%(micropython)s source tree (<micropython>: the release mpy-cross is):\n"
    "#   %(command)s\n"
    "# package(\"firmware\") freezes every .py under firmware/ beside this file: the sources of the build's\n"
    "# manifest.json \"frozen\" \"files\" and firmware/frozen_build.py, their DIGEST.\n"
    "include(\"$(PORT_DIR)/boards/manifest.py\")\n"
    "package(\"firmware\")\n"
)
MANIFEST_NATIVE = (
    "# freeze_mpy(\"native\") freezes native/**.mpy as they are: %(count)d module(s) compiled to %(march)s machine\n"
    "# code (tools/build.py NATIVE_EMIT), each named by its firmware/ path; their code runs from flash.\n"
    "freeze_mpy(\"native\")\n"
)
NATIVE_DIR = "native"                           # frozen/native/: the NATIVE_EMIT modules' .mpy files

FROZEN_BUILD_PY = (
    "# Written by tools/build.py --frozen: the digest of the frozen sources (manifest.json \"frozen\" \"digest\").\n"
    "DIGEST = \"%s\"\n"
)

_DIGEST_LINE = re.compile(r'^DIGEST = "([0-9a-f]{64})"$', re.M)


def check_board(board, mcu):
    """BuildError unless MicroPython builds an image for the board's microcontroller."""
    if mcu not in PORTS:
        raise BuildError("board %s (mcu %s): --frozen freezes the firmware into a MicroPython image and"
                         " MicroPython builds none for it: --frozen is for an mcu with a port (%s)"
                         % (board, mcu, ", ".join(sorted(PORTS))))


def check_sources(sources):
    """BuildError for a source the image cannot take: frozen_build.py (generated), a file that is not .py."""
    for rel in sources:
        if rel == FROZEN_BUILD:
            raise BuildError("%s: --frozen generates this file: remove it from the sources" % rel)
        if not rel.endswith(".py"):
            raise BuildError("%s: only .py files can be frozen into the image (package(\"firmware\")):"
                             " build without --frozen, or make it a module" % rel)


def make_command(mcu, manifest_path, variant=None):
    """The MicroPython make command that builds the board's image from manifest_path (absolute); variant: the
    board variant (VARIANTS), None for the board's own build."""
    port, mp_board = PORTS[mcu]
    return "make -C <micropython>/ports/%s BOARD=%s%s FROZEN_MANIFEST=%s" % (
        port, mp_board, " BOARD_VARIANT=" + variant if variant else "", shlex.quote(manifest_path))


def frozen_digest(files):
    """The digest of the frozen sources: SHA-256 (hex) of "path\\nsize\\nsha256\\n" for each entry in order."""
    text = "".join("%s\n%d\n%s\n" % (e["path"], e["size"], e["sha256"]) for e in files)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_digest(path):
    """DIGEST of a frozen_build.py as tools.build writes it (its two lines exactly); None when the file is
    missing or differs from them in any other way."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    m = _DIGEST_LINE.search(text)
    return m.group(1) if m and text == FROZEN_BUILD_PY % m.group(1) else None


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def write_tree(staging, target, root, sources, board, mcu, version, micropython, psram=None, native=(),
               march=None):
    """Copy sources (paths relative to root) into staging/frozen/, with frozen_build.py and manifest.py
    (naming target/frozen/manifest.py, where the build will be); returns manifest.json's "frozen" object.
    native: [(source, its .mpy compiled to march's machine code)]: the .mpy goes to frozen/native/ in place
    of the source."""
    compiled = dict(native)
    files = []
    for rel in sorted(sources):
        if rel in compiled:
            path = NATIVE_DIR + "/" + rel[:-3] + ".mpy"
            origin = compiled[rel]
        else:
            path, origin = rel, os.path.join(root, rel)
        dest = os.path.join(staging, FROZEN_DIR, path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(origin, dest)
        files.append({"path": path, "size": os.path.getsize(dest), "sha256": _sha256(dest)})
        if rel in compiled:
            files[-1]["source"] = rel
    files.sort(key=lambda e: e["path"])
    digest = frozen_digest(files)
    with open(os.path.join(staging, FROZEN_DIR, FROZEN_BUILD), "w", encoding="utf-8", newline="\n") as f:
        f.write(FROZEN_BUILD_PY % digest)
    variant = VARIANTS.get((mcu, psram))
    command = make_command(mcu, os.path.join(target, FROZEN_MANIFEST), variant)
    with open(os.path.join(staging, FROZEN_MANIFEST), "w", encoding="utf-8", newline="\n") as f:
        f.write(MANIFEST_PY % {"board": board, "version": version, "micropython": micropython, "command": command})
        if compiled:
            f.write(MANIFEST_NATIVE % {"count": len(compiled), "march": march})
    port, mp_board = PORTS[mcu]
    frozen = {"digest": digest, "manifest": FROZEN_MANIFEST, "port": port, "micropython_board": mp_board,
              "files": files}
    if variant:
        frozen["micropython_variant"] = variant
    return frozen


def report_line(manifest, width):
    """The size report's last line: the freeze manifest and the make command that builds the image."""
    frozen = manifest["frozen"]
    native = sum(1 for e in frozen["files"] if "source" in e)
    return "%-*s %8d  (%d sources%s and %s, to freeze into the image: %s)" % (
        width, frozen["manifest"], sum(e["size"] for e in frozen["files"]), len(frozen["files"]),
        " (%d of them native .mpy)" % native if native else "", FROZEN_BUILD.split("/")[-1],
        make_command(manifest["mcu"], os.path.join(manifest["dir"], frozen["manifest"]),
                     frozen.get("micropython_variant")))
