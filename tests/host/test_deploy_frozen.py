"""tools/deploy.py --frozen: a frozen build (tools.build --frozen) deployed once its image is flashed: no
firmware/ copied, the build's frozen sources checked first, the wrong kind of build refused either way."""
import io
import json
import os
import shutil
import subprocess

import pytest

from tests.host.cli_checks import assert_one_line_error
from tests.host.test_deploy import _run_deploy
from tools import build, deploy
from tools.build_board import TABLE_HEAP_BYTES

REPO = deploy.REPO


@pytest.fixture(scope="module")
def frozen_build(tmp_path_factory):
    """A frozen pico build in a scratch folder: the folder holding pico/."""
    out = tmp_path_factory.mktemp("build")
    build.build("pico", out=str(out), frozen=True)
    return out


@pytest.fixture(scope="module")
def plain_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    build.build("pico", out=str(out))
    return out


def _copy(built, tmp_path):
    shutil.copytree(str(built / "pico"), str(tmp_path / "pico"))
    return tmp_path / "pico"


def test_frozen_dry_run_says_the_image_comes_first_and_copies_no_firmware(frozen_build):
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(frozen_build), "--frozen",
                       "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    b = "%s/pico" % frozen_build
    with open(os.path.join(b, "manifest.json")) as f:
        digest = json.load(f)["frozen"]["digest"]
    note, *cmds = proc.stdout.splitlines()
    # A shell comment: the printed lines still run as they are.
    assert note.startswith("# --frozen: the board must already run the MicroPython image built from "
                           "%s/frozen/manifest.py (DIGEST %s...): flash it first" % (b, digest[:12]))
    assert "BOOTSEL" in note and "picotool" in note and "esptool" in note
    assert cmds == [
        "mpremote connect /dev/ttyACM0 exec 'HEAP_NEEDED = %d' + run tools/device/prepare.py + reset"
        % TABLE_HEAP_BYTES["frozen"],
        "mpremote sleep 3 + connect /dev/ttyACM0"
        " fs cp {b}/board.json :board.json"
        " + fs cp {b}/manifest.json :manifest.json"
        " + fs cp {b}/main.py :main.py"
        " + run tools/device/verify.py"
        " + reset".format(b=b),
    ]
    assert "firmware" not in " ".join(cmds) and "frozen" not in " ".join(cmds)


def test_frozen_commands_with_table_settings_copy_no_firmware():
    copy = deploy.commands("/b/pico", "/dev/ttyACM0", table="/t/table.json", frozen=True)[1]
    assert " ".join(copy).split(" + ") == [
        "mpremote sleep 3", "connect /dev/ttyACM0 fs cp /b/pico/board.json :board.json",
        "fs cp /b/pico/manifest.json :manifest.json", "fs cp /t/table.json :table.json",
        "fs cp /b/pico/table.seal :table.seal", "fs cp /b/pico/main.py :main.py",
        "run %s" % deploy._shown(deploy.VERIFY_SCRIPT), "reset"]


def test_a_real_frozen_deploy_runs_the_two_steps_after_the_note(frozen_build, monkeypatch):
    ran = []
    monkeypatch.setattr(deploy.subprocess, "run", lambda cmd, env=None: ran.append(cmd) or
                        subprocess.CompletedProcess(cmd, 0))
    out = io.StringIO()
    assert deploy.deploy("pico", "COM3", build=str(frozen_build), frozen=True, out=out, reset_wait=0) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("# --frozen: the board must already run the MicroPython image")
    assert len(ran) == 2 and not any("firmware" in " ".join(cmd) for cmd in ran)
    assert lines[-1] == "deployed 2 files of %s/pico to COM3 (board pico)" % frozen_build


def test_a_frozen_build_deployed_without_frozen_is_refused(frozen_build):
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(frozen_build), "--dry-run")
    assert_one_line_error(proc, "is a frozen build", "deploy it with --frozen", quiet_stdout=True)


def test_a_normal_build_deployed_with_frozen_is_refused(plain_build):
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(plain_build), "--frozen",
                       "--dry-run")
    assert_one_line_error(proc, "is not a frozen build", "python -m tools.build --board pico --frozen",
                          quiet_stdout=True)


def test_frozen_with_romfs_is_refused(frozen_build):
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(frozen_build), "--frozen",
                       "--romfs", "--dry-run")
    assert_one_line_error(proc, "--frozen and --romfs exclude each other", quiet_stdout=True)


def test_a_changed_frozen_source_or_digest_file_is_refused(frozen_build, tmp_path):
    for changed, shown in (("frozen/firmware/cards.py", "frozen/firmware/cards.py is missing or differs"),
                           ("frozen/firmware/frozen_build.py", "frozen/firmware/frozen_build.py is missing, changed,"
                                                               " or not the digest of manifest.json's frozen sources")):
        shutil.rmtree(str(tmp_path / "pico"), ignore_errors=True)
        folder = _copy(frozen_build, tmp_path)
        with open(str(folder / changed), "a") as f:
            f.write("# changed\n")
        proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--frozen",
                           "--dry-run")
        assert_one_line_error(proc, shown, "make build BOARD=pico FROZEN=1", quiet_stdout=True)


def test_a_frozen_digest_its_sources_do_not_give_is_refused(frozen_build, tmp_path):
    # The sources as listed but the manifest's digest (and frozen_build.py's) another: not what the build made.
    folder = _copy(frozen_build, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    other = "0" * 64
    manifest["frozen"]["digest"] = other
    (folder / "manifest.json").write_text(json.dumps(manifest))
    (folder / "frozen" / "firmware" / "frozen_build.py").write_text('# x\nDIGEST = "%s"\n' % other)
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--frozen", "--dry-run")
    assert_one_line_error(proc, "frozen_build.py is missing, changed, or not the digest", quiet_stdout=True)


def test_a_frozen_object_of_the_wrong_shape_is_damaged(frozen_build, tmp_path):
    folder = _copy(frozen_build, tmp_path)
    good = json.loads((folder / "manifest.json").read_text())
    for frozen in ("x", {"digest": 5, "files": good["frozen"]["files"]}, dict(good["frozen"], files=[]),
                   dict(good["frozen"], files=[{"path": "firmware/a.py"}])):
        (folder / "manifest.json").write_text(json.dumps(dict(good, frozen=frozen)))
        proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--frozen",
                           "--dry-run")
        assert_one_line_error(proc, "manifest.json is damaged", quiet_stdout=True)
