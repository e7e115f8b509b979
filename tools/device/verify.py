# Runs ON THE BOARD (`mpremote run`, step 2 of tools/deploy.py): checks the copy against manifest.json.
#
# Every file the build listed must be on the board with the size and sha256 the
# build recorded. On any difference main.py is removed, so the board does not
# boot a damaged program, and an exception makes mpremote (and deploy) fail.
# MicroPython only, no firmware imports (but a frozen image's firmware.frozen_build); paths relative
# to the working folder. An entry marked "rom": true (tools/build.py --romfs) is in the ROMFS image,
# mounted at /rom: read at rom/<path>.
# A frozen build (tools/build.py --frozen, manifest.json's "frozen"): firmware/ is in the MicroPython
# image flashed before; no firmware/ folder may be on the filesystem (it would be imported instead),
# and the image's firmware.frozen_build.DIGEST must be the manifest's (firmware/program.py's check).
import binascii
import hashlib
import json
import os

SHADOWING_MODULES = ("firmware.py", "firmware.mpy")   # tools/device/prepare.py removes them


def _sha256(path):
    digest = hashlib.sha256()
    chunk = bytearray(512)
    view = memoryview(chunk)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(chunk)
            if not n:
                break
            digest.update(view[:n])
    return binascii.hexlify(digest.digest()).decode()


def _frozen_problems(frozen):
    """What keeps a frozen build from running the image of its sources (the texts of firmware.program)."""
    try:
        os.stat("firmware")
        return ["firmware: a firmware/ folder on the filesystem would shadow the frozen firmware"]
    except OSError:
        pass
    try:
        os.stat("rom/firmware")          # an earlier --romfs deployment's, in the mounted ROMFS (/rom: first)
        return ["rom/firmware: a firmware/ folder in the ROMFS would shadow the frozen firmware: deploy an"
                " empty ROMFS image"]
    except OSError:
        pass
    for path in SHADOWING_MODULES:      # found before the frozen package too (a folder only after them)
        try:
            os.stat(path)
            return [path + ": a module of the firmware's name on the filesystem would shadow the frozen firmware"]
        except OSError:
            pass
    try:
        from firmware.frozen_build import DIGEST
    except ImportError:
        return ["firmware (frozen): not a frozen firmware image: flash the image built from frozen/manifest.py"]
    if not isinstance(frozen, dict) or DIGEST != frozen.get("digest"):
        return ["firmware (frozen): the firmware image was built from other sources"]
    return []


def verify():
    with open("manifest.json") as f:
        manifest = json.load(f)
    problems = []
    for entry in manifest["files"]:
        path = ("rom/" if entry.get("rom") else "") + entry["path"]
        try:
            size = os.stat(path)[6]
        except OSError:
            problems.append(path + ": missing")
            continue
        if size != entry["size"]:
            problems.append("%s: %d bytes, the build has %d" % (path, size, entry["size"]))
        elif _sha256(path) != entry["sha256"]:
            problems.append(path + ": sha256 differs from the build")
    if "frozen" in manifest:
        problems += _frozen_problems(manifest["frozen"])
    if problems:
        try:
            os.remove("main.py")
        except OSError:
            pass
        for problem in problems:
            print("deploy: verify FAILED: " + problem)
        raise OSError("deploy: %d file(s) differ from manifest.json; main.py removed" % len(problems))
    print("deploy: verified %d file(s) on the board against manifest.json (board %s)"
          % (len(manifest["files"]), manifest["board"]))
    if "frozen" in manifest:
        print("deploy: verified the frozen firmware image against manifest.json (digest %s)"
              % manifest["frozen"]["digest"])


verify()
