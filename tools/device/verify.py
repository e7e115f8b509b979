# Runs ON THE BOARD (`mpremote run`, step 2 of tools/deploy.py): checks the copy against manifest.json.
#
# Every file the build listed must be on the board with the size and sha256 the
# build recorded. On any difference main.py is removed, so the board does not
# boot a damaged program, and an exception makes mpremote (and deploy) fail.
# MicroPython only, no firmware imports; paths relative to the working folder. An entry marked
# "rom": true (tools/build.py --romfs) is in the ROMFS image, mounted at /rom: read at rom/<path>.
import binascii
import hashlib
import json
import os


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


verify()
