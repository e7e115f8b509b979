"""tools.verify (issue 13): the lab's digest of a build equals the board's verify(seed): on CPython
(and CPython's own hmac), and on real MicroPython (the WebAssembly VM) over a copy of the build."""
import hashlib
import hmac
import json
import os
import subprocess
import sys

import pytest

from firmware import program
from tests.host.cli_checks import assert_one_line_error
from tools import build, mpvm, verify

REPO = build.REPO
SEED = "lab-7f3a91"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A sim build of the real tree in a scratch folder: the folder holding sim/."""
    out = tmp_path_factory.mktemp("build")
    build.build("sim", out=str(out))
    return out


def _run_verify(*args):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "tools.verify"] + list(args), cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


def _stdlib_digest(root, seed):
    """The same digest with CPython's hmac, from the documented format (path, size, bytes per file)."""
    with open(os.path.join(root, "manifest.json")) as f:
        files = json.load(f)["files"]
    mac = hmac.new(seed.encode(), digestmod=hashlib.sha256)
    for entry in files:
        with open(os.path.join(root, entry["path"]), "rb") as f:
            data = f.read()
        mac.update(b"%s\n%d\n" % (entry["path"].encode(), len(data)))
        mac.update(data)
    return mac.hexdigest()


def test_manifest_lists_every_deployed_file_in_path_order_with_version(built):
    with open(built / "sim" / "manifest.json") as f:
        manifest = json.load(f)
    from firmware.version import FIRMWARE_VERSION
    assert manifest["version"] == FIRMWARE_VERSION
    paths = [e["path"] for e in manifest["files"]]
    assert paths == sorted(paths)
    on_disk = sorted(os.path.relpath(os.path.join(d, n), built / "sim").replace(os.sep, "/")
                     for d, _, names in os.walk(built / "sim") for n in names)
    assert on_disk == sorted(paths + ["manifest.json"])
    for entry in manifest["files"]:
        if "source" in entry:
            with open(os.path.join(REPO, entry["source"]), "rb") as f:
                assert entry["source_sha256"] == hashlib.sha256(f.read()).hexdigest()


def test_tool_prints_the_firmware_digest_which_is_stdlib_hmac(built):
    proc = _run_verify("--board", "sim", "--seed", SEED, "--build", str(built))
    assert proc.returncode == 0, proc.stderr
    digest = proc.stdout.strip()
    assert len(digest) == 64
    assert digest == program.verify(SEED, str(built / "sim")) == _stdlib_digest(str(built / "sim"), SEED)
    other = _run_verify("--board", "sim", "--seed", SEED + "x", "--build", str(built)).stdout.strip()
    assert other != digest


_VM_SCRIPT = """
from firmware import program
print("check", program.check("/deployed/sim"))
print("digest", program.verify(%r, "/deployed/sim"))
"""


def test_micropython_board_computes_the_same_digest(built, tmp_path):
    script = tmp_path / "verify_vm.py"
    script.write_text(_VM_SCRIPT % SEED)
    status, out = mpvm.run(["--script", str(script)], copies=("firmware", "%s=/deployed/sim" % (built / "sim")))
    assert status == 0, out
    assert "check None" in out, out
    assert "digest %s" % verify.digest("sim", SEED, str(built)) in out, out


def test_one_changed_byte_in_the_build_is_refused(built, tmp_path):
    import shutil
    copy = tmp_path / "b"
    shutil.copytree(built, copy)
    before = verify.digest("sim", SEED, str(copy))
    target = copy / "sim" / "firmware" / "table.mpy"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x40
    target.write_bytes(bytes(data))
    proc = _run_verify("--board", "sim", "--seed", SEED, "--build", str(copy))
    assert_one_line_error(proc, "firmware/table.mpy: sha256 differs")
    # The same byte changed with a manifest to match (a program rebuilt otherwise): another digest.
    with open(copy / "sim" / "manifest.json") as f:
        manifest = json.load(f)
    for entry in manifest["files"]:
        if entry["path"] == "firmware/table.mpy":
            entry["sha256"] = hashlib.sha256(bytes(data)).hexdigest()
    (copy / "sim" / "manifest.json").write_text(json.dumps(manifest))
    assert verify.digest("sim", SEED, str(copy)) != before


def test_errors_are_one_line(built, tmp_path):
    assert_one_line_error(_run_verify("--board", "pico", "--seed", SEED, "--build", str(tmp_path)),
                          "no build for board 'pico'", "build it there first: `python -m tools.build --board pico "
                          "--out %s`" % tmp_path)
    # the build's own folder for --build (the folder holding sim/): named, not "run make build"
    assert_one_line_error(_run_verify("--board", "sim", "--seed", SEED, "--build", str(built / "sim")),
                          "no build for board 'sim'", "--build is the folder holding sim/: give %s" % built)
    assert_one_line_error(_run_verify("--board", "sim", "--seed", "two words", "--build", str(built)),
                          "one word of printable ASCII")
