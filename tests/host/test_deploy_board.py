"""tools/deploy.py end to end: the real mpremote commands against a stand-in board (fake_mpboard.py).

The stand-in speaks mpremote's raw REPL over TCP and executes what mpremote
sends with CPython, on a scratch folder playing the board's flash. This checks
that the printed command lines really deploy: the previous deployment goes,
the build arrives byte for byte, verification runs on the board, and the board
is reset twice (once without main.py, once with it). The device-side scripts
themselves also run on real MicroPython (the WebAssembly VM) below.
"""
import json
import os
import subprocess
import sys

import pytest

from tools import build, deploy, mpvm
from tools.build_board import TABLE_HEAP_BYTES

REPO = deploy.REPO
FAKE_BOARD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_mpboard.py")


def _small_tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("tree")
    (root / "boards").mkdir()
    with open(os.path.join(REPO, "boards", "pico.json")) as f:
        (root / "boards" / "pico.json").write_text(f.read())
    fw = root / "firmware"
    (fw / "games").mkdir(parents=True)
    (fw / "__init__.py").write_text("# test firmware\n")
    (fw / "main.py").write_text("# test firmware\ndef run(program_dir=None, closed=False):\n    return 0\n")
    (fw / "version.py").write_text('FIRMWARE_VERSION = "0.0.1"\n')
    (fw / "games" / "__init__.py").write_text("# test firmware\n")
    (fw / "games" / "dice.py").write_text("# test firmware\nFACES = (1, 2, 3, 4, 5, 6)\n" * 20)
    return root


@pytest.fixture(scope="module")
def small_build(tmp_path_factory):
    """A pico build of a four-module firmware (mpremote's copy speed is ~2 KB/s here): the build folder."""
    out = tmp_path_factory.mktemp("build")
    build.build("pico", out=str(out), root=str(_small_tree(tmp_path_factory)))
    return out


@pytest.fixture(scope="module")
def small_romfs_build(tmp_path_factory):
    """The same firmware built with --romfs: its firmware/ in rom.romfs."""
    out = tmp_path_factory.mktemp("build")
    build.build("pico", out=str(out), root=str(_small_tree(tmp_path_factory)), romfs=True)
    return out


def _old_deployment(flash):
    (flash / "firmware" / "games").mkdir(parents=True)
    (flash / "main.py").write_text("from firmware.main import run\nrun()\n")
    (flash / "board.json").write_text("{}")
    (flash / "firmware" / "stale.py").write_text("# would shadow stale.mpy\n")
    (flash / "firmware" / "games" / "gone.mpy").write_bytes(b"M\x06\x00\x1f")
    (flash / "boot.py").write_text("# the user's own boot.py stays\n")


def _deploy_to_fake_board(flash, build_dir, *board_args, deploy_args=()):
    board = subprocess.Popen([sys.executable, FAKE_BOARD] + list(board_args), cwd=str(flash),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = board.stdout.readline().split()
        assert first[:1] == ["port"], first
        port = "socket://127.0.0.1:%s" % first[1]
        proc = subprocess.run([sys.executable, "-m", "tools.deploy", "--board", "pico", "--port", port,
                               "--build", str(build_dir), "--reset-wait", "0.2"] + list(deploy_args),
                              cwd=REPO, capture_output=True, text=True, timeout=300)
    finally:
        board.kill()
        log, _ = board.communicate(timeout=30)
    return proc, log.splitlines()


def _flash_files(flash):
    return sorted(
        os.path.relpath(os.path.join(folder, name), str(flash)).replace(os.sep, "/")
        for folder, _, names in os.walk(str(flash)) for name in names)


def test_deploy_replaces_the_old_deployment_and_boots_the_new_one(small_build, tmp_path):
    flash = tmp_path / "flash"
    _old_deployment(flash)
    proc, log = _deploy_to_fake_board(flash, small_build)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "deploy: removed 4 file(s) of the previous deployment" in proc.stdout
    manifest = json.loads((small_build / "pico" / "manifest.json").read_text())
    count = len(manifest["files"])
    assert "deploy: verified %d file(s) on the board against manifest.json (board pico)" % count in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith("deployed %d files of " % count)
    assert _flash_files(flash) == sorted([e["path"] for e in manifest["files"]] + ["boot.py", "manifest.json"])
    for entry in manifest["files"] + [{"path": "manifest.json"}]:
        assert (flash / entry["path"]).read_bytes() == (small_build / "pico" / entry["path"]).read_bytes()
    assert (flash / "boot.py").read_text() == "# the user's own boot.py stays\n"
    # First reset without main.py (the watchdog of the old firmware stops), then the new program boots.
    assert log == ["reset", "boot: main.py absent", "reset", "boot: main.py present"]


def test_deploy_prints_the_boards_heap_and_what_the_build_needs(small_build, tmp_path):
    flash = tmp_path / "flash"
    _old_deployment(flash)
    proc, log = _deploy_to_fake_board(flash, small_build, "--heap", "300000")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    manifest = json.loads((small_build / "pico" / "manifest.json").read_text())
    need = deploy.heap_needed(manifest, "filesystem")     # a few modules: their .mpy and the table's data
    assert need < TABLE_HEAP_BYTES["filesystem"]
    assert ("deploy: the board's heap is 300000 bytes; a table of this build needs about %d while it plays" % need
            in proc.stdout)


@pytest.mark.parametrize("heap", [50000, 139263])
def test_a_board_whose_heap_cannot_hold_the_build_is_refused_with_its_old_deployment_untouched(
        small_romfs_build, tmp_path, heap):
    # An ESP32-S3 flashed with an image without PSRAM, say: its MicroPython measures its own heap before
    # anything is removed (tools/device/prepare.py), and the board keeps running what it ran.
    flash = tmp_path / "flash"
    _old_deployment(flash)
    before = {p: (flash / p).read_bytes() for p in _flash_files(flash)}
    proc, log = _deploy_to_fake_board(flash, small_romfs_build, "--heap", str(heap), "--romfs-size", "65536",
                                      deploy_args=["--romfs"])
    assert proc.returncode == 1
    assert ("deploy: the board's heap is %d bytes; a table of this build needs about %d while it plays"
            % (heap, TABLE_HEAP_BYTES["romfs"]) in proc.stdout)
    assert "deploy: REFUSED: the heap is too small for this build" in proc.stdout
    assert "the previous deployment is untouched" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == (
        "deploy: error: step 1 (check the board's heap, remove the previous deployment and reset) failed: "
        "mpremote exited with status 1, its message is above")
    assert {p: (flash / p).read_bytes() for p in _flash_files(flash)} == before
    assert log == []                                   # not reset: the old firmware runs on


def test_a_board_that_cannot_tell_its_heap_is_deployed_and_says_so(small_build, tmp_path):
    # gc.mem_free() is "-1 if this amount is not known" (MicroPython's gc docs): no figure is made up.
    flash = tmp_path / "flash"
    _old_deployment(flash)
    proc, log = _deploy_to_fake_board(flash, small_build, "--heap", "-1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "deploy: the board does not tell its free heap (gc.mem_free() is -1): its heap is not checked" in proc.stdout
    assert log == ["reset", "boot: main.py absent", "reset", "boot: main.py present"]


def test_deploy_that_does_not_verify_leaves_no_main_py(small_build, tmp_path):
    flash = tmp_path / "flash"
    _old_deployment(flash)
    proc, log = _deploy_to_fake_board(flash, small_build, "--corrupt", "firmware/games/dice.mpy")
    assert proc.returncode == 1
    assert "deploy: verify FAILED: firmware/games/dice.mpy: sha256 differs from the build" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == (
        "deploy: error: step 2 (copy, verify and reset) failed: mpremote exited with status 1, "
        "its message is above")
    assert not (flash / "main.py").exists()
    assert log == ["reset", "boot: main.py absent"]  # not reset into a damaged program


def test_romfs_deploy_writes_the_image_mounts_it_and_the_program_checks_there(small_romfs_build, tmp_path):
    from firmware import program
    from tools import verify
    flash = tmp_path / "flash"
    _old_deployment(flash)
    proc, log = _deploy_to_fake_board(flash, small_romfs_build, "--romfs-size", "65536",
                                      deploy_args=["--romfs"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ROMFS image deployed" in proc.stdout
    manifest = json.loads((small_romfs_build / "pico" / "manifest.json").read_text())
    in_rom = [e["path"] for e in manifest["files"] if e.get("rom")]
    assert len(in_rom) == 5 and all(p.startswith("firmware/") for p in in_rom)
    on_fs = [e["path"] for e in manifest["files"] if not e.get("rom")]
    assert "deploy: verified %d file(s) on the board" % len(manifest["files"]) in proc.stdout
    # firmware/ only in the ROMFS (the old one removed, none copied): nothing shadows it.
    assert _flash_files(flash) == sorted(on_fs + ["boot.py", "manifest.json"] + ["rom/" + p for p in in_rom])
    for path in in_rom:
        assert (flash / "rom" / path).read_bytes() == (small_romfs_build / "pico" / "rom" / path).read_bytes()
    n = len(in_rom)
    assert log == ["reset", "boot: ROMFS mounted at /rom, 0 file(s)", "boot: main.py absent",
                   "reset", "boot: ROMFS mounted at /rom, %d file(s)" % n, "boot: main.py absent",
                   "reset", "boot: ROMFS mounted at /rom, %d file(s)" % n, "boot: main.py present"]
    # The boot's check and the console's `verify SEED` on the board, against tools.verify of the build.
    assert program.check(str(flash)) is None
    assert program.verify("lab-9", str(flash)) == verify.digest("pico", "lab-9", str(small_romfs_build))


def test_romfs_deploy_to_a_board_without_romfs_stops_before_the_copy(small_romfs_build, tmp_path):
    flash = tmp_path / "flash"
    _old_deployment(flash)
    proc, log = _deploy_to_fake_board(flash, small_romfs_build, deploy_args=["--romfs"])
    assert proc.returncode == 1
    assert "ROMFS is not enabled on this device" in proc.stdout + proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == (
        "deploy: error: step 2 (write the ROMFS image and reset to mount it) failed: mpremote exited with "
        "status 1, its message is above")
    assert not (flash / "main.py").exists() and not (flash / "firmware").exists()
    assert log == ["reset", "boot: main.py absent"]


# The VM scripts' helpers (tests/host/test_device_verify.py's too): a file written, a device script run as
# mpremote runs it (tools/device/ copied to /tools/device).
VM_HELPERS = r'''
import os, sys, json

def write(path, data):
    with open(path, "wb") as f:
        f.write(data)

def run(script):
    with open("/tools/device/" + script) as f:
        exec(f.read(), {"__name__": "__main__"})
'''

_VM_SCRIPT = VM_HELPERS + r'''
os.mkdir("/flash")
os.chdir("/flash")
for d in ("firmware", "firmware/games"):
    os.mkdir(d)
# (firmware.py, firmware.mpy: a module of the firmware's name would shadow a frozen image's package)
for path in ("main.py", "board.json", "manifest.json", "firmware/a.mpy", "firmware/games/b.py", "boot.py",
             "firmware.py", "firmware.mpy"):
    write(path, b"old")
run("prepare.py")
assert sorted(os.listdir()) == ["boot.py"], os.listdir()

os.mkdir("firmware")
FILES = %(files)s
for path, data in FILES:
    write(path, data)
write("manifest.json", %(manifest)r)
run("verify.py")
assert "main.py" in os.listdir()

write("firmware/a.mpy", b"M\x06changed")
try:
    run("verify.py")
    raise AssertionError("verify passed a changed file")
except OSError as exc:
    print("raised:", exc)
assert "main.py" not in os.listdir()
print("VM-DEVICE-SCRIPTS-OK")
'''


@pytest.mark.micropython
def test_device_scripts_run_on_micropython(tmp_path):
    import hashlib
    files = [("main.py", b"from firmware.main import run\nrun()\n"), ("firmware/a.mpy", b"M\x06abc"),
             ("board.json", b"{}")]
    manifest = {"board": "pico", "files": [
        {"path": p, "size": len(d), "sha256": hashlib.sha256(d).hexdigest()} for p, d in files]}
    script = tmp_path / "device_scripts.py"
    script.write_text(_VM_SCRIPT % {"files": repr(files), "manifest": json.dumps(manifest).encode()})
    status, out = mpvm.run(["--script", str(script)], copies=("tools/device",), timeout=120)
    assert "runtime: MicroPython" in out, out
    assert status == 0 and "VM-DEVICE-SCRIPTS-OK" in out, out
    assert "deploy: removed 7 file(s) of the previous deployment" in out
    assert "deploy: verified 3 file(s) on the board against manifest.json (board pico)" in out
    assert "deploy: verify FAILED: firmware/a.mpy: 9 bytes, the build has 5" in out


_VM_HEAP_SCRIPT = VM_HELPERS + r'''
import gc
os.mkdir("/flash")
os.chdir("/flash")
for path in ("main.py", "board.json", "boot.py"):
    write(path, b"old")
with open("/tools/device/prepare.py") as f:
    code = f.read()
gc.collect()
heap = gc.mem_free() + gc.mem_alloc()
try:
    exec(code, {"__name__": "__main__", "HEAP_NEEDED": heap + 1})
    raise AssertionError("a build needing more than the heap was not refused")
except OSError as exc:
    print("raised:", exc)
assert sorted(os.listdir()) == ["board.json", "boot.py", "main.py"], os.listdir()     # nothing removed
exec(code, {"__name__": "__main__", "HEAP_NEEDED": heap // 2})
assert sorted(os.listdir()) == ["boot.py"], os.listdir()
print("HEAP", heap)
print("VM-HEAP-CHECK-OK")
'''


@pytest.mark.micropython
def test_the_heap_check_measures_micropythons_own_heap(tmp_path):
    """tools/device/prepare.py on real MicroPython: gc.mem_free() + gc.mem_alloc() is the whole heap, whatever
    is in use; a build needing one byte more is refused with nothing removed, one needing less goes on."""
    script = tmp_path / "heap_check.py"
    script.write_text(_VM_HEAP_SCRIPT)
    status, out = mpvm.run(["--script", str(script)], copies=("tools/device",), timeout=120)
    assert status == 0 and "VM-HEAP-CHECK-OK" in out, out
    heap = int(out.split("HEAP ")[1].split()[0])
    assert "deploy: REFUSED: the heap is too small for this build" in out
    assert "raised: deploy: heap %d bytes < %d needed" % (heap, heap + 1) in out
    assert "deploy: the board's heap is %d bytes; a table of this build needs about %d" % (heap, heap // 2) in out
    assert "deploy: removed 2 file(s) of the previous deployment" in out

