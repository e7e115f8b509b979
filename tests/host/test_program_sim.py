"""The simulated board as a deployed one (issue 13): hostsim runs the `make build BOARD=sim` output
(--deployed), checks it at boot like a board checks its flash, holds the table closed on one changed
byte; the service jumper opens the REPL (kbd_intr recorded by hostsim's micropython module)."""
import io
import json
import os
import shutil

import pytest

from firmware import board as board_mod
from firmware import main, startup
from firmware.errors import SettingsError
from hostsim import __main__ as sim_main
from hostsim import hardware
from hostsim.usb import UsbConsole
from tools import build
from tests.firmware.fakes import link_reports

REPO = build.REPO
TABLE = os.path.join(REPO, "boards", "tables", "sim-baccarat.json")
SIM_SERVICE_PIN = 9            # boards/sim.json "service_pin"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    build.build("sim", out=str(out))
    return out / "sim"


def _boot_sim(program_dir, state_dir, seconds=3, jumper=False):
    """Boot firmware.main on hostsim's board, as the simulator does, for `seconds` of virtual time:
    (hardware, host reports, dealer LCD lines). program_dir: the deployed build, or None (source tree)."""
    board_path = os.path.join(program_dir, "board.json") if program_dir else os.path.join(REPO, "boards", "sim.json")
    board = board_mod.load(board_path)
    with hardware.install(board=board) as hw:
        import machine
        import neopixel
        if jumper:
            hw.pin(SIM_SERVICE_PIN).set_input(0)       # the jumper to ground, fitted before reset
        ctx = startup.boot(machine, neopixel, board_path, TABLE, str(state_dir), usb_console=UsbConsole(),
                        program_dir=program_dir and str(program_dir))
        for _ in range(seconds * 10):
            hw.clock.advance(100)
            main.poll_inputs(ctx, 100)
            main.refresh_outputs(ctx, True)
        reports = [json.loads(line) for line in link_reports(hw.port("host").take())]
        lcd = [line.strip() for line in hw.i2c_device(board.displays["i2c"]["bus"],
                                                      board.displays["dealer"]["addr"]).lines()]
        return hw, reports, lcd


def test_a_deployed_board_is_named_as_built_in_its_reports_not_after_its_file(built, tmp_path, monkeypatch):
    # A deployed board's file is /board.json: the boot report and the console's `board` said "board".
    # The boot stub passes the name of the board the build is for.
    seen = {}
    monkeypatch.setattr(main, "run", lambda **kw: seen.update(kw))
    exec(compile((built / "main.py").read_text(), "main.py", "exec"), {"__name__": "__main__"})
    assert seen == {"program_dir": "", "closed": True, "board_name": "sim"}, seen
    assert sim_main.deployed_board_name(str(built)) == "sim"
    board_path = os.path.join(str(built), "board.json")
    with hardware.install(board=board_mod.load(board_path)):
        import machine
        import neopixel
        ctx = startup.boot(machine, neopixel, board_path, TABLE, str(tmp_path), usb_console=UsbConsole(),
                        board_name=seen["board_name"])
    assert ctx.board.name == "sim"
    assert ctx.console.handle(b"board")[0].startswith("board sim ("), ctx.console.handle(b"board")


def test_deployed_build_boots_verified_with_the_repl_closed(built, tmp_path):
    hw, reports, _ = _boot_sim(built, tmp_path)
    assert reports[0]["event"] == "boot" and reports[0]["program"] == "verified"
    assert reports[0]["service_mode"] is False
    assert any(r.get("state") == "ready" for r in reports)
    assert hw.kbd_intr_calls == [-1] and hw.kbd_intr == -1      # Ctrl-C does not reach Python


def test_one_changed_byte_in_the_deployed_build_holds_the_table_closed(built, tmp_path):
    program_dir = tmp_path / "sim"
    shutil.copytree(built, program_dir)
    target = program_dir / "firmware" / "games" / "baccarat" / "rules.mpy"
    data = bytearray(target.read_bytes())
    data[-1] ^= 0x01
    target.write_bytes(bytes(data))
    state = tmp_path / "state"
    state.mkdir()
    _, reports, lcd = _boot_sim(program_dir, state, seconds=5)
    assert reports[0]["program"] == "mismatch"
    fault = [r for r in reports if r.get("fault") == "program_mismatch"]
    assert fault and fault[0]["file"] == "firmware/games/baccarat/rules.mpy", reports
    assert not any(r.get("state") == "ready" for r in reports)          # it never opened
    assert lcd[1:] == ["PROGRAM_MISMATCH", "rules.mpy", "TABLE CLOSED"], lcd


def test_source_tree_boot_says_unverified(tmp_path):
    _, reports, _ = _boot_sim(None, tmp_path, seconds=1)
    assert reports[0]["program"] == "unverified"


def test_service_jumper_opens_the_repl_reports_and_shows_it(tmp_path):
    hw, reports, _ = _boot_sim(None, tmp_path, seconds=2, jumper=True)
    assert hw.kbd_intr_calls == [3]
    assert reports[0]["service_mode"] is True
    assert reports[1]["event"] == "service_mode" and reports[1]["pin"] == SIM_SERVICE_PIN
    seen = set()
    for seconds in (2, 3):             # the banner takes the top line every other second
        _, _, lcd = _boot_sim(None, tmp_path, seconds=seconds, jumper=True)
        seen.add(lcd[0])
    assert "SERVICE MODE" in seen, seen


def test_a_stale_build_is_refused(built, tmp_path):
    program_dir = tmp_path / "sim"
    shutil.copytree(built, program_dir)
    manifest = json.loads((program_dir / "manifest.json").read_text())
    manifest["files"][5]["source_sha256"] = "0" * 64
    (program_dir / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SettingsError, match="built from other sources") as refused:
        sim_main.deployed_build(str(program_dir))
    # a build outside build/ is made again with tools.build --out, not `make build BOARD=sim` (which
    # writes build/sim and left the folder given stale)
    assert str(refused.value).endswith(": run python -m tools.build --board sim --out %s" % tmp_path)
    assert sim_main.deployed_build(str(built)) == os.path.join(str(built), "board.json")
    with pytest.raises(SettingsError, match="no build there"):
        sim_main.deployed_build(str(tmp_path / "nothing"))
    with pytest.raises(SettingsError, match="no build there .*: run make build BOARD=nosuchboard$"):
        sim_main.deployed_build(os.path.join(REPO, "build", "nosuchboard"))


def test_simulator_command_line_runs_the_deployed_build(built, tmp_path):
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=REPO)
    proc = subprocess.run([sys.executable, "-m", "hostsim", "--deployed", str(built), "--no-ui", "--no-pty",
                           "--no-demo", "--seconds", "1", "--state-dir", str(tmp_path)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    boot = [json.loads(line[len("host: "):]) for line in proc.stdout.splitlines() if line.startswith("host: ")][0]
    assert boot["event"] == "boot" and boot["program"] == "verified", boot
    assert boot["board"] == "sim", boot          # the build's board, as its boot stub names it (the file is board.json)
    assert "on board sim;" in proc.stdout.splitlines()[0], proc.stdout
