"""tools/device/verify.py on a frozen build (tools/build.py --frozen), on real MicroPython (the WebAssembly VM).

The frozen image is stood in for by a firmware package (with its frozen_build.py) in a folder on
sys.path after the working folder, where ".frozen" is on a board: a firmware/ on the filesystem
comes first. The script must pass only on the image of the manifest's sources, with no firmware/
folder on the filesystem, and otherwise remove main.py and fail (as for a changed file).
"""
import hashlib
import json

import pytest

from tests.host.test_deploy_board import VM_HELPERS
from tools import mpvm

DIGEST = "0123456789abcdef" * 4
OTHER = "fedcba9876543210" * 4

_VM_SCRIPT = VM_HELPERS.replace("%", "%%") + r'''
def fails(why):
    try:
        run("verify.py")
    except OSError as exc:
        print("raised:", exc)
        assert "main.py" not in os.listdir(), why
        write("main.py", MAIN)
        return
    raise AssertionError("verify passed " + why)

os.mkdir("/flash")
os.chdir("/flash")
MAIN = %(main)r
write("main.py", MAIN)
write("board.json", %(board)r)
write("manifest.json", %(manifest)r)
fails("a firmware that is no frozen image")

os.mkdir("/image")
os.mkdir("/image/firmware")
write("/image/firmware/__init__.py", b"")
write("/image/firmware/frozen_build.py", b"# written by tools/build.py\nDIGEST = \"%(digest)s\"\n")
sys.path.append("/image")              # after the working folder ("" or "/"), where ".frozen" is
print("--- the image of these sources")
run("verify.py")
assert "main.py" in os.listdir()

os.mkdir("firmware")
fails("a firmware/ folder shadowing the frozen one")
os.rmdir("firmware")

os.mkdir("rom")
os.mkdir("rom/firmware")               # an earlier --romfs deployment's, in the mounted ROMFS
fails("a firmware/ folder in the ROMFS shadowing the frozen one")
os.rmdir("rom/firmware")
os.rmdir("rom")

for name in ("firmware.py", "firmware.mpy"):
    write(name, b"")
    fails("a module of the firmware's name shadowing the frozen package")
    os.remove(name)

write("manifest.json", %(other)r)
fails("the image of other sources")
print("VM-FROZEN-VERIFY-OK")
'''


def _manifest(files, digest):
    return json.dumps({"board": "pico", "files": [
        {"path": p, "size": len(d), "sha256": hashlib.sha256(d).hexdigest()} for p, d in files],
        "frozen": {"digest": digest, "manifest": "frozen/manifest.py", "port": "rp2",
                   "micropython_board": "RPI_PICO", "files": []}}).encode()


@pytest.mark.micropython
def test_frozen_build_verifies_only_on_the_image_of_its_sources(tmp_path):
    main, board = b"from firmware.main import run\nrun()\n", b"{}"
    files = [("board.json", board), ("main.py", main)]
    script = tmp_path / "device_verify_frozen.py"
    script.write_text(_VM_SCRIPT % {"main": main, "board": board, "manifest": _manifest(files, DIGEST),
                                    "other": _manifest(files, OTHER), "digest": DIGEST})
    status, out = mpvm.run(["--script", str(script)], copies=("tools/device",), timeout=120)
    assert "runtime: MicroPython" in out, out
    assert status == 0 and "VM-FROZEN-VERIFY-OK" in out, out
    failed = [line for line in out.splitlines() if line.startswith("deploy: verify FAILED: ")]
    assert failed == [
        "deploy: verify FAILED: firmware (frozen): not a frozen firmware image: flash the image built from "
        "frozen/manifest.py",
        "deploy: verify FAILED: firmware: a firmware/ folder on the filesystem would shadow the frozen firmware",
        "deploy: verify FAILED: rom/firmware: a firmware/ folder in the ROMFS would shadow the frozen firmware:"
        " deploy an empty ROMFS image",
        "deploy: verify FAILED: firmware.py: a module of the firmware's name on the filesystem would shadow the"
        " frozen firmware",
        "deploy: verify FAILED: firmware.mpy: a module of the firmware's name on the filesystem would shadow the"
        " frozen firmware",
        "deploy: verify FAILED: firmware (frozen): the firmware image was built from other sources"], out
    passed = out.split("--- the image of these sources\n", 1)[1].splitlines()[:2]
    assert passed == ["deploy: verified 2 file(s) on the board against manifest.json (board pico)",
                      "deploy: verified the frozen firmware image against manifest.json (digest %s)" % DIGEST], out
