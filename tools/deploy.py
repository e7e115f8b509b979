"""Copy build/<board>/ to a board with mpremote, verify it there, and reset the board.

    python -m tools.deploy --board pico --port /dev/ttyACM0 [--table FILE] [--romfs | --frozen] [--dry-run]
    make deploy BOARD=pico PORT=/dev/ttyACM0 [DEPLOY_FLAGS="--table FILE --dry-run"]

Two mpremote runs (--dry-run prints them, exactly, instead of running them):
  1. interrupt the running firmware; measure the board's heap and refuse, with
     nothing removed, a build it cannot hold while a table plays (HEAP_NEEDED:
     tools/build_board.py TABLE_HEAP_BYTES); remove the previous deployment
     (main.py first; tools/device/prepare.py) and hard-reset, which also stops a
     watchdog the old firmware started, so it cannot reset the board in mid-copy;
  2. after a pause for the USB port to come back: copy firmware/, board.json,
     manifest.json, the table settings if --table is given (as table.json), then
     main.py; check every file against manifest.json on the board
     (tools/device/verify.py, which removes main.py on any difference);
     hard-reset, which boots the new firmware.
The board's table.json (per-table settings), crash log and boot.py stay unless
--table replaces table.json.

--romfs (a build made with `python -m tools.build --board NAME --romfs`): code in
flash. Between those two runs, a third: `mpremote romfs deploy` writes the build's
rom.romfs (the firmware/ tree) to the board's ROMFS partition, then a reset mounts
it at /rom. The copy then leaves firmware/ out, and the check reads its files in
/rom. The board's MicroPython must have ROMFS (MICROPY_VFS_ROM): mpremote refuses
otherwise, and the deployment stops there (docs/build-deploy.md).

--frozen (a build made with `python -m tools.build --board NAME --frozen`): code in
the MicroPython image, which the technician flashes first (pico: BOOTSEL and the
.uf2, or picotool; esp32s3: esptool); deploy says so and copies no firmware/. The
board's check (tools/device/verify.py, then every boot) refuses another image.
"""
import argparse
import hashlib
import json
import math
import os
import shlex
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREPARE_SCRIPT = os.path.join(REPO, "tools", "device", "prepare.py")
VERIFY_SCRIPT = os.path.join(REPO, "tools", "device", "verify.py")
MPREMOTE_PIN = "mpremote==1.27.0"
SEAL = "table.seal"  # the table file's seal (firmware/settings_seal.py), copied with --table
RESET_WAIT_S = 3  # USB CDC re-enumeration after machine.reset() takes ~1-2 s
FLASHED_FIRST = ("# --frozen: the board must already run the MicroPython image built from %s (DIGEST %s...):"
                 " flash it first (pico: BOOTSEL drag-and-drop of the .uf2 or picotool; esp32s3: esptool);"
                 " another image holds the table closed at boot\n")


class DeployError(Exception):
    """A deploy failure with a message fit for one line on stderr."""


def tool_search_path():
    """The venv's bin folder first (the pinned mpremote), then PATH."""
    return os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])


def check_mpremote(search_path):
    if shutil.which("mpremote", path=search_path) is None:
        raise DeployError("mpremote not found: run `make deps` (installs the pinned %s into .venv)"
                          % MPREMOTE_PIN)


def _shown(path):
    """A path as the command line shows it: relative to the working folder when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _in_build(build_dir, entry):
    """Where a manifest entry's file is in the build: rom/<path> when it goes into the ROMFS image."""
    return os.path.join(build_dir, "rom", entry["path"]) if entry.get("rom") else os.path.join(build_dir, entry["path"])


def _entries_ok(files):
    return isinstance(files, list) and all(
        isinstance(e, dict) and isinstance(e.get("path"), str) and isinstance(e.get("sha256"), str)
        and isinstance(e.get("size"), int) for e in files)


def _check_shape(files, built_for, image, frozen=None):
    """ValueError unless the manifest's parts read below are of the kinds tools.build writes."""
    image_ok = image is None or (isinstance(image, dict) and isinstance(image.get("image"), str)
                                 and isinstance(image.get("sha256"), str))
    frozen_ok = frozen is None or (image is None and isinstance(frozen, dict) and isinstance(frozen.get("digest"), str)
                                   and _entries_ok(frozen.get("files")) and frozen.get("files"))
    if not (_entries_ok(files) and image_ok and frozen_ok and isinstance(built_for, str)):
        raise ValueError("not a manifest tools.build writes")


def _check_frozen(build_dir, frozen, where, rebuild):
    """DeployError unless build_dir/frozen/ holds the sources the manifest lists, unchanged, and
    frozen_build.py the digest they give (what the board's image must claim)."""
    from tools.build_frozen import FROZEN_BUILD, FROZEN_DIR, frozen_digest, read_digest
    for entry in frozen["files"]:
        path = os.path.join(build_dir, FROZEN_DIR, entry["path"])
        if not os.path.isfile(path) or _sha256(path) != entry["sha256"]:
            raise DeployError("%s/%s/%s is missing or differs from manifest.json: run %s again"
                              % (where, FROZEN_DIR, entry["path"], rebuild))
    claimed = read_digest(os.path.join(build_dir, FROZEN_DIR, FROZEN_BUILD))
    if claimed is None or claimed != frozen["digest"] or frozen_digest(frozen["files"]) != claimed:
        raise DeployError("%s/%s/%s is missing, changed, or not the digest of manifest.json's frozen sources:"
                          " run %s again"
                          % (where, FROZEN_DIR, FROZEN_BUILD, rebuild))


def check_build(build_dir, board, romfs=False, frozen=False):
    """The build's manifest, after checking every file it lists is there, unchanged (romfs: a build
    with its ROMFS image, frozen: a frozen build, else neither)."""
    if romfs and frozen:
        raise DeployError("--frozen and --romfs exclude each other: a build's code is in the MicroPython image"
                          " (--frozen) or in a ROMFS image (--romfs)")
    where = _shown(build_dir)
    manifest_path = os.path.join(build_dir, "manifest.json")
    if not os.path.isfile(manifest_path):
        from tools.build import missing_build_hint
        raise DeployError("no build for board %r in %s: %s"
                          % (board, where, missing_build_hint(os.path.dirname(build_dir), board)))
    try:
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        files = manifest["files"]
        built_for = manifest["board"]
        _check_shape(files, built_for, manifest.get("romfs"), manifest.get("frozen"))
    except (ValueError, KeyError, TypeError, RecursionError):
        raise DeployError("%s/manifest.json is damaged: run `make build BOARD=%s` again" % (where, board))
    if built_for != board:
        raise DeployError("%s was built for board %r, not %r: run `make build BOARD=%s`"
                          % (where, built_for, board, board))
    image = manifest.get("romfs")
    if romfs and not image:
        raise DeployError("%s has no ROMFS image: run `python -m tools.build --board %s --romfs` for --romfs"
                          % (where, board))
    if image and not romfs:
        raise DeployError("%s keeps its firmware/ in a ROMFS image: deploy it with --romfs (or build it"
                          " without --romfs)" % where)
    in_image = manifest.get("frozen")
    if frozen and not in_image:
        raise DeployError("%s is not a frozen build: run `python -m tools.build --board %s --frozen` for --frozen"
                          % (where, board))
    if in_image and not frozen:
        raise DeployError("%s is a frozen build (its firmware goes into the MicroPython image): deploy it with"
                          " --frozen once the image is flashed (or build it without --frozen)" % where)
    rebuild = ("`python -m tools.build --board %s --romfs`" if image else "`make build BOARD=%s FROZEN=1`"
               if in_image else "`make build BOARD=%s`") % board
    if in_image:
        _check_frozen(build_dir, in_image, where, rebuild)
    if image:
        path = os.path.join(build_dir, image["image"])
        if not os.path.isfile(path) or _sha256(path) != image["sha256"]:
            raise DeployError("%s/%s is missing or differs from manifest.json: run %s again"
                              % (where, image["image"], rebuild))
    for entry in files:
        path = _in_build(build_dir, entry)
        if not os.path.isfile(path) or _sha256(path) != entry["sha256"]:
            raise DeployError("%s/%s is missing or differs from manifest.json: run %s again"
                              % (where, entry["path"], rebuild))
    for name in ("main.py", "board.json"):
        if not any(e["path"] == name for e in files):
            raise DeployError("%s has no %s: run %s again" % (where, name, rebuild))
    if not os.path.isdir(os.path.join(build_dir, "rom" if image else "frozen" if in_image else "", "firmware")):
        raise DeployError("%s has no firmware/: run %s again" % (where, rebuild))
    return manifest


def check_heap(build_dir, board, need):
    """Refuse, before any board is reached, a filesystem build whose table needs more heap (`need`, heap_needed())
    than the board's MCU is known to have (tools/build_board.py HEAP_BYTES): each .mpy is copied into the heap as a
    table imports it, and playing needs that and the table's data (measured on the VM: heap_needed()); the message
    names `need`. A build of a few modules, for a test, goes on."""
    from tools.build_board import HEAP_BYTES
    try:
        with open(os.path.join(build_dir, "board.json"), encoding="utf-8") as f:
            mcu = json.load(f)["mcu"]
    except (OSError, ValueError, KeyError, TypeError):
        raise DeployError("%s/board.json is damaged: run `make build BOARD=%s` again" % (_shown(build_dir), board))
    heap = HEAP_BYTES.get(mcu)
    if heap is not None and need > heap:
        raise DeployError(
            "a filesystem build does not fit board %r: an %s has about %d KB of heap, and with its code on the"
            " filesystem (each .mpy copied into the heap as it is imported) a table of this build needs %d KB of heap"
            " while it plays (docs/build-deploy.md, \"Which build for which board\"): build it frozen (`make build"
            " BOARD=%s FROZEN=1`, flash the image, `make deploy ... FROZEN=1`) or for ROMFS (`python -m tools.build"
            " --board %s --romfs`, then --romfs)" % (board, mcu.upper(), heap // 1024, (need + 1023) // 1024, board,
                                                     board))


def heap_needed(manifest, kind):
    """The heap (bytes) a table of this build needs while it plays (tools/build_board.py TABLE_HEAP_BYTES), which
    the board's own heap must hold: kind "frozen", "romfs" or "filesystem"; a filesystem build of fewer modules
    than the firmware's (a test's) at most all its .mpy and the table's data."""
    from tools.build_board import FILESYSTEM_DATA_BYTES, TABLE_HEAP_BYTES
    need = TABLE_HEAP_BYTES[kind]
    if kind == "filesystem":
        code = sum(e["size"] for e in manifest["files"] if e["path"].endswith(".mpy"))
        need = min(need, code + FILESYSTEM_DATA_BYTES)
    return need


def check_table(path):
    """Validate a table settings file with the firmware's own loader before it goes on the board."""
    from firmware import table_config
    from firmware.errors import SettingsError

    if not os.path.isfile(path):
        raise DeployError("table settings file %s not found" % path)
    try:
        table_config.load(path)
    except SettingsError as exc:
        raise DeployError("%s: %s" % (path, exc))
    except (TypeError, KeyError, AttributeError, IndexError, ValueError) as exc:
        raise DeployError("%s: malformed table settings: a value has the wrong type (%s: %s)"
                          % (path, type(exc).__name__, exc))


def seal_table(table, build_dir):
    """The table file's seal (firmware/settings_seal.py), written beside the build and copied with the
    file: the board holds a table.json that does not match it closed (a flipped bit)."""
    from firmware import settings_seal
    with open(table, "rb") as f:
        data = f.read()
    with open(os.path.join(build_dir, SEAL), "wb") as f:
        f.write(settings_seal.crc_of(data).encode() + b"\n")


def commands(build_dir, port, reset_wait=RESET_WAIT_S, table=None, romfs=False, frozen=False, heap=0):
    """The mpremote command lines (argv lists) of a deployment, in order (romfs: the ROMFS image
    written, and the board reset to mount it, between the two; romfs and frozen: no firmware/ copied).
    heap: the bytes the board's heap must hold (heap_needed()), checked on the board before anything is
    removed (tools/device/prepare.py reads HEAP_NEEDED; 0: no check)."""
    b = _shown(build_dir)
    wait = ("%g" % reset_wait)
    prepare = [
        "mpremote", "connect", port,
    ] + (["exec", "HEAP_NEEDED = %d" % heap, "+"] if heap else []) + [
        "run", _shown(PREPARE_SCRIPT),
        "+", "reset",
    ]
    rom = [
        "mpremote", "sleep", wait,
        "+", "connect", port,
        "romfs", "deploy", b + "/rom.romfs",
        "+", "reset",
    ]
    copy = [
        "mpremote", "sleep", wait,
        "+", "connect", port,
    ] + ([] if romfs or frozen else [
        "fs", "cp", "-r", b + "/firmware", ":firmware",
        "+",
    ]) + [
        "fs", "cp", b + "/board.json", ":board.json",
        "+", "fs", "cp", b + "/manifest.json", ":manifest.json",
    ] + ([
        "+", "fs", "cp", _shown(os.path.abspath(table)), ":table.json",
        "+", "fs", "cp", b + "/" + SEAL, ":" + SEAL,
    ] if table else []) + [
        "+", "fs", "cp", b + "/main.py", ":main.py",
        "+", "run", _shown(VERIFY_SCRIPT),
        "+", "reset",
    ]
    return [prepare, rom, copy] if romfs else [prepare, copy]


def deploy(board, port, build="build", dry_run=False, reset_wait=RESET_WAIT_S, table=None, out=sys.stdout,
           romfs=False, frozen=False):
    """Print (dry run) or run the deployment's mpremote commands. Raises DeployError."""
    search_path = tool_search_path()
    check_mpremote(search_path)
    build_dir = os.path.abspath(os.path.join(build, board))
    manifest = check_build(build_dir, board, romfs, frozen)
    heap = heap_needed(manifest, "romfs" if romfs else "frozen" if frozen else "filesystem")
    if not (romfs or frozen):
        check_heap(build_dir, board, heap)
    if table:
        check_table(table)
    cmds = commands(build_dir, port, reset_wait, table, romfs, frozen, heap)
    if frozen:                          # a shell comment: the dry run's lines still run as they are
        out.write(FLASHED_FIRST % (_shown(os.path.join(build_dir, manifest["frozen"]["manifest"])),
                                   manifest["frozen"]["digest"][:12]))
    if dry_run:                         # writes nothing: the seal the copy names is made by the real run
        for cmd in cmds:
            out.write(shlex.join(cmd) + "\n")
        return 0
    if port.startswith("/dev/") and not os.path.exists(port):
        raise DeployError("port %s does not exist: plug the board in, or give the right one "
                          "(make deploy PORT=...; `mpremote devs` lists them)" % port)
    if table:
        seal_table(table, build_dir)
    env = dict(os.environ, PATH=search_path)
    steps = ("check the board's heap, remove the previous deployment and reset",) + (
        ("write the ROMFS image and reset to mount it",) if romfs else ()) + ("copy, verify and reset",)
    for step, (cmd, what) in enumerate(zip(cmds, steps), 1):
        out.write(shlex.join(cmd) + "\n")
        out.flush()
        status = subprocess.run(cmd, env=env).returncode
        if status != 0:
            raise DeployError("step %d (%s) failed: mpremote exited with status %d, its message is above"
                              % (step, what, status))
    out.write("deployed %d files of %s to %s (board %s)\n"
              % (len(manifest["files"]), _shown(build_dir), port, board))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.deploy", description=__doc__.splitlines()[0])
    ap.add_argument("--board", required=True, help="the board name the build was made for, e.g. pico")
    ap.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyACM0")
    ap.add_argument("--build", default="build", help="the folder holding <board>/ (default: build)")
    ap.add_argument("--table", default=None,
                    help="also install this table settings file as the board's table.json (validated first)")
    ap.add_argument("--romfs", action="store_true",
                    help="code in flash: write the build's ROMFS image (tools.build --romfs) with `mpremote romfs deploy`")
    ap.add_argument("--frozen", action="store_true",
                    help="a frozen build (tools.build --frozen): its image flashed first, only board.json,"
                         " manifest.json and main.py copied")
    ap.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")
    ap.add_argument("--reset-wait", type=float, default=RESET_WAIT_S,
                    help="seconds to wait for the port after the first reset (default: %d)" % RESET_WAIT_S)
    args = ap.parse_args(argv)
    if not (math.isfinite(args.reset_wait) and args.reset_wait >= 0):     # mpremote's `sleep -1` fails late
        ap.error("--reset-wait must be a number of seconds >= 0, got %s" % args.reset_wait)
    try:
        return deploy(args.board, args.port, build=args.build, dry_run=args.dry_run,
                      reset_wait=args.reset_wait, table=args.table, romfs=args.romfs, frozen=args.frozen)
    except DeployError as exc:
        print("deploy: error: %s" % exc, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
