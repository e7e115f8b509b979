"""tools.verify of a frozen build (tools.build --frozen): the digest covers the filesystem's files and the image's
DIGEST claim, as firmware.program.verify(seed, root, image=...) on the board; the frozen sources are checked first.

These need firmware/program.py's frozen build support (check/verify's `image`, the spec's "On the board")."""
import hashlib
import hmac
import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.host.cli_checks import assert_one_line_error
from tools import build, mpvm, verify

REPO = build.REPO
SEED = "lab-5c19e2"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A frozen pico build of the real tree: the folder holding pico/."""
    out = tmp_path_factory.mktemp("build")
    build.build("pico", out=str(out), frozen=True)
    return out


def _run_verify(*args):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "tools.verify"] + list(args), cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


def _manifest(folder):
    with open(os.path.join(str(folder), "manifest.json")) as f:
        return json.load(f)


def _stdlib_digest(root, seed):
    """The spec's stream with CPython's hmac: each filesystem file's path, size and bytes, then
    b"frozen\\n", the image's digest (the build's) and b"\\n"."""
    manifest = _manifest(root)
    mac = hmac.new(seed.encode(), digestmod=hashlib.sha256)
    for entry in manifest["files"]:
        with open(os.path.join(str(root), entry["path"]), "rb") as f:
            data = f.read()
        mac.update(b"%s\n%d\n" % (entry["path"].encode(), len(data)))
        mac.update(data)
    mac.update(b"frozen\n" + manifest["frozen"]["digest"].encode() + b"\n")
    return mac.hexdigest()


def _copy(built, tmp_path):
    shutil.copytree(str(built / "pico"), str(tmp_path / "pico"))
    return tmp_path / "pico"


def test_the_digest_is_the_hmac_of_the_filesystem_files_and_the_image_claim(built):
    proc = _run_verify("--board", "pico", "--seed", SEED, "--build", str(built))
    assert proc.returncode == 0, proc.stderr
    digest = proc.stdout.strip()
    assert digest == verify.digest("pico", SEED, str(built)) == _stdlib_digest(built / "pico", SEED)
    assert verify.digest("pico", SEED + "x", str(built)) != digest


_VM_SCRIPT = """
from firmware import program
print("check", program.check("/deployed/pico"))
print("digest", program.verify(%r, "/deployed/pico"))
"""


def test_a_board_running_the_image_of_these_sources_gives_the_same_digest(built, tmp_path):
    # The VM imports the build's frozen/firmware/ as its firmware package: the image's modules, frozen_build.py
    # with its DIGEST included, as the image holds them (from the filesystem here, not frozen).
    script = tmp_path / "verify_vm.py"
    script.write_text(_VM_SCRIPT % SEED)
    status, out = mpvm.run(["--script", str(script)],
                           copies=("%s=/firmware" % (built / "pico" / "frozen" / "firmware"),
                                   "%s=/deployed/pico" % (built / "pico")))
    assert status == 0, out
    assert "check None" in out, out
    assert "digest %s" % verify.digest("pico", SEED, str(built)) in out, out


@pytest.mark.parametrize("change, problem", [
    (lambda p: p.write_bytes(p.read_bytes().replace(b"def ", b"def  ", 1)), "size differs"),
    (lambda p: p.write_bytes(p.read_bytes().replace(b"def ", b"deF ", 1)), "sha256 differs"),
    (lambda p: p.unlink(), "missing"),
])
def test_a_changed_frozen_source_is_refused(built, tmp_path, change, problem):
    folder = _copy(built, tmp_path)
    change(folder / "frozen" / "firmware" / "cards.py")
    proc = _run_verify("--board", "pico", "--seed", SEED, "--build", str(tmp_path))
    assert_one_line_error(proc, "frozen/firmware/cards.py: %s" % problem, "make build BOARD=pico FROZEN=1 again",
                          quiet_stdout=True)


def test_a_frozen_build_py_claiming_another_image_is_refused(built, tmp_path):
    folder = _copy(built, tmp_path)
    path = folder / "frozen" / "firmware" / "frozen_build.py"
    path.write_text(path.read_text().replace(_manifest(folder)["frozen"]["digest"], "0" * 64))
    proc = _run_verify("--board", "pico", "--seed", SEED, "--build", str(tmp_path))
    assert_one_line_error(proc, "firmware (frozen): the firmware image was built from other sources",
                          quiet_stdout=True)
    path.write_text(path.read_text() + "X = 1\n")          # not as tools.build writes it
    proc = _run_verify("--board", "pico", "--seed", SEED, "--build", str(tmp_path))
    assert_one_line_error(proc, "frozen/firmware/frozen_build.py: missing or not as tools.build writes it",
                          quiet_stdout=True)


def test_a_source_changed_with_its_entry_but_not_the_digest_is_refused(built, tmp_path):
    # The manifest's "frozen" files rewritten to match a changed source: the digest no longer theirs.
    folder = _copy(built, tmp_path)
    source = folder / "frozen" / "firmware" / "cards.py"
    source.write_bytes(source.read_bytes() + b"# changed\n")
    manifest = _manifest(folder)
    for entry in manifest["frozen"]["files"]:
        if entry["path"] == "firmware/cards.py":
            entry["size"] = len(source.read_bytes())
            entry["sha256"] = hashlib.sha256(source.read_bytes()).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))
    proc = _run_verify("--board", "pico", "--seed", SEED, "--build", str(tmp_path))
    assert_one_line_error(proc, "manifest.json: the \"frozen\" digest is not the digest of its files",
                          quiet_stdout=True)


def test_a_changed_filesystem_file_is_refused(built, tmp_path):
    folder = _copy(built, tmp_path)
    with open(str(folder / "main.py"), "a") as f:
        f.write("# x\n")
    proc = _run_verify("--board", "pico", "--seed", SEED, "--build", str(tmp_path))
    assert_one_line_error(proc, "main.py: size differs", "FROZEN=1", quiet_stdout=True)
