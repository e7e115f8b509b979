"""The simulator on every shipped board, its refusal of a board that cannot run a game, and host-side errors.

Issue 8 items 18 and 19: `--board pico` crash-looped (its shoe and dice share
UART 0; its console is USB), and a host-side BrokenPipeError was recorded as a
firmware crash.
"""
import glob
import io
import json
import os
import subprocess
import sys

import pytest

from firmware import board as board_mod
from firmware import table_config
from firmware.game_setup import READER_ROLE
from hostsim import hardware

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARDS = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(REPO, "boards", "*.json")))
GAMES = table_config.GAMES


def _board_path(name):
    return os.path.join(REPO, "boards", name + ".json")


def _table_path(game):
    return os.path.join(REPO, "boards", "tables", "sim-%s.json" % game)


def _reports(text):
    return [json.loads(line[len("host: "):]) for line in text.splitlines() if line.startswith("host: ")]


def _crash_files(state_dir):
    """What the state dir holds besides the journals written at every boot (boot counter, table journal,
    the host link's frames: boot.*, table.*, link.*) and the table file on the simulated flash
    (hostsim.flash.table_on_flash)."""
    return [name for name in os.listdir(state_dir) if name.split(".")[0] not in ("boot", "table", "link")]


def _run(board, game, state_dir, seconds=3.2, before=None, demo=True, until=()):
    """Run the simulator in this process (virtual time 4x real time) -> (printed text, reports, console bytes).

    It stops after `seconds` of virtual time, or as soon as every text in `until` is in a host report
    (the load of the machine then decides only how long the test takes, not what it sees).
    """
    from hostsim.sim import Quit, Sim

    class _Sim(Sim):
        def _show(self):
            Sim._show(self)
            if until and all(any(text in line for line in self.tap.lines) for text in until):
                raise Quit()

    out = io.StringIO()
    sim = _Sim(_board_path(board), _table_path(game), str(state_dir), ports="loopback", seconds=seconds, seed=5,
               speed=4.0, out=out, demo=demo)
    try:
        if before is not None:
            before(sim)
        with pytest.raises(Quit):
            sim.run()
        console = sim.hw.usb.endpoint.take() if sim.hw.usb is not None else b""
    finally:
        sim.close()
    return out.getvalue(), _reports(out.getvalue()), console


def test_the_shipped_boards_are_the_ones_tested():
    assert {"sim", "pico", "esp32s3"} <= set(BOARDS)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_board_runs_every_game_it_supports(tmp_path, board, game):
    from hostsim.sim import unsupported

    assert unsupported(board_mod.load(_board_path(board)), game) is None     # every shipped board: every game
    # Omaha: the simulated dealer keys the buy-ins and NEW, then deals: a card from the shoe is `dealt`.
    event = "throw" if READER_ROLE[game] == "dice" else "dealt" if game == "omaha" else "card"
    text, reports, _ = _run(board, game, tmp_path, seconds=60,
                            until=('"state": "ready"', '"event": "%s"' % event))
    assert "fatal" not in text and "booting again" not in text, text
    assert reports[0]["event"] == "boot" and reports[0]["board"] == board and reports[0]["game"] == game
    assert any(r["event"] == "state" and r["state"] == "ready" for r in reports), reports
    assert not any(r["event"] in ("fault", "crash_recorded") for r in reports), reports
    assert any(r["event"] == event for r in reports), reports          # the dealer reached the reader port
    assert not (tmp_path / "crash.log").exists() and not (tmp_path / "crash.prev").exists()


def test_pico_from_the_command_line_reaches_ready_without_a_crash(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hostsim", "--board", "pico", "--no-ui", "--no-pty",
                           "--seconds", "2", "--state-dir", str(tmp_path)],
                          cwd=REPO, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert "fatal" not in proc.stdout and "Traceback" not in proc.stderr
    assert any(r.get("state") == "ready" for r in _reports(proc.stdout))
    ports = proc.stdout.split("serial ports:")[1].split("host:")[0].split()
    assert ports[:8] == ["dice/shoe", "(loopback)", "host", "(loopback)", "bets", "(loopback)", "console",
                         "(loopback)"]
    assert _crash_files(tmp_path) == []


def test_the_usb_console_is_a_simulator_endpoint_not_the_terminal(tmp_path):
    def type_status(sim):
        sim.hw.port("console").feed(b"status\r\n")

    _, reports, console = _run("pico", "craps", tmp_path, seconds=3.0, before=type_status, demo=False)
    assert console.startswith(b"> status\r\ntable SIM-C1  game craps  state "), console   # prompt, echo, reply
    assert not any(r["event"] == "console_error" for r in reports)


def _write_board(tmp_path, name, change):
    with open(_board_path("sim")) as f:
        data = json.load(f)
    change(data)
    path = tmp_path / (name + ".json")
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("change, game, message", [
    (lambda d: d["ports"].pop("dice"), "craps", "sim: board nodice has no dice port, which craps needs"),
    (lambda d: d["zones"].pop("omaha"), "omaha", "sim: board nodice has no zone map for the omaha layout"),
])
def test_a_board_that_cannot_run_the_game_is_refused_with_one_line(tmp_path, change, game, message):
    path = _write_board(tmp_path, "nodice", change)
    state = tmp_path / "state"
    proc = subprocess.run([sys.executable, "-m", "hostsim", "--board", path, "--game", game, "--no-ui",
                           "--no-pty", "--seconds", "1", "--state-dir", str(state)],
                          cwd=REPO, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert proc.stderr == message + "\n" and proc.stdout == ""
    assert not state.exists()


# -- the simulated MCU is the board's -------------------------------------------------------------

@pytest.mark.parametrize("board, uarts, bad_pin, i2c, pio", [
    ("pico", (0, 1), 30, (0, 1), (0, 1)),
    ("esp32s3", (0, 1, 2), 22, (0, 1), ()),
    ("sim", tuple(range(8)), 64, (0, 1, 2, 3), ()),
])
def test_the_simulated_mcu_has_only_the_boards_uarts_pins_and_buses(board, uarts, bad_pin, i2c, pio):
    with hardware.install(board=board_mod.load(_board_path(board))) as hw:
        import machine
        assert hw.uart_ids == uarts and hw.i2c_ids == i2c and hw.pio_ids == pio
        with pytest.raises(ValueError, match="doesn't exist"):
            machine.UART(uarts[-1] + 1)
        with pytest.raises(ValueError, match="doesn't exist"):
            machine.I2C(i2c[-1] + 1)
        with pytest.raises(ValueError, match="invalid pin"):
            machine.Pin(bad_pin)
        assert sorted(uid for _, uid, _ in hw.port_paths() if isinstance(uid, int)) == sorted(hw.uarts)
        assert sorted(uid for _, uid, _ in hw.port_paths() if str(uid).startswith("pio")) == sorted(hw.pio_ports)
        if pio:
            import rp2
            with pytest.raises(ValueError, match="invalid StateMachine"):
                rp2.StateMachine(len(pio) * 4)
        else:
            with pytest.raises(ImportError):
                import rp2  # noqa: F401  (only an RP2040 has it)


def test_a_shared_uart_answers_to_both_roles_and_the_usb_console_is_its_own_port():
    with hardware.install(board=board_mod.load(_board_path("pico"))) as hw:
        assert [(role, uid) for role, uid, _ in hw.port_paths()] == [("dice/shoe", 0), ("host", 1),
                                                                      ("bets", "pio0.0"), ("console", "usb")]
        assert hw.port("shoe") is hw.port("dice") is hw.uarts[0].endpoint
        assert hw.port("console") is hw.usb.endpoint
        assert hw.port("console") not in [u.endpoint for u in hw.uarts.values()]
        with pytest.raises(KeyError, match="no serial port has the role 'menu'"):
            hw.port("menu")
        from hostsim.usb import UsbConsole
        usb = UsbConsole()
        hw.port("console").feed(b"hi\n")
        assert usb.any() == 3 and usb.read() == b"hi\n"
        usb.write(b"ok\r\n")
        assert hw.port("console").take() == b"ok\r\n"
        hw.port("console").feed(b"lost at reset")
        usb.any()
        hw.reboot(hardware.HARD_RESET)
        assert usb.read() is None


# -- host-side errors are not firmware crashes ------------------------------------------------------

def test_a_closed_stdout_stops_the_simulator_cleanly_without_a_crash_record(tmp_path):
    # `python -m hostsim --no-ui --seconds 2 | head -1`
    proc = subprocess.Popen([sys.executable, "-m", "hostsim", "--no-ui", "--seconds", "2",
                             "--state-dir", str(tmp_path)], cwd=REPO, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    try:
        status = proc.wait(timeout=60)
    finally:
        err = proc.stderr.read().decode()
        proc.stderr.close()
    assert first.startswith(b"table SIM-B1 (baccarat) on board sim")
    assert status == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert "sim: stdout was closed" in err and "nothing recorded in crash.log" in err
    assert _crash_files(tmp_path) == []


class _BrokenDemo:
    """A dealer with a bug (what the simulator calls on it)."""

    def __init__(self, *args, **kwargs):
        pass

    def on_report(self, report):
        pass

    def tick(self, now):
        raise RuntimeError("demo feeder bug")

    def status(self, now):
        return ""


def test_a_host_side_exception_escapes_as_hosterror_and_records_nothing(tmp_path):
    from hostsim.sim import HostError, Sim

    sim = Sim(_board_path("sim"), _table_path("baccarat"), str(tmp_path), ports="loopback", seconds=5,
              speed=4.0, out=io.StringIO())
    sim.dealer = _BrokenDemo()
    try:
        with pytest.raises(HostError) as caught:
            sim.run()
    finally:
        sim.close()
    assert isinstance(caught.value.error, RuntimeError) and not isinstance(caught.value, Exception)
    assert _crash_files(tmp_path) == []


def test_the_command_line_reports_a_host_side_error_as_such(tmp_path, monkeypatch, capsys):
    from hostsim import __main__ as cli
    from hostsim import sim

    monkeypatch.setattr(sim, "Dealer", _BrokenDemo)
    status = cli.main(["--no-ui", "--no-pty", "--seconds", "5", "--speed", "4", "--state-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1
    assert err.splitlines()[-1] == ("sim: host-side error in the simulator (RuntimeError: demo feeder bug), "
                                    "not a firmware crash; stopped")
    assert _crash_files(tmp_path) == []


def test_a_firmware_exception_is_still_a_crash(tmp_path, monkeypatch, capsys):
    from firmware import main as firmware_main

    real = firmware_main.poll_inputs
    state = {"failed": False}

    def poll_inputs(ctx, elapsed_ms):
        if not state["failed"] and ctx.table.uptime_s * 1000 + ctx.table.uptime_part_ms > 300:
            state["failed"] = True
            raise ValueError("firmware bug")
        real(ctx, elapsed_ms)

    monkeypatch.setattr(firmware_main, "poll_inputs", poll_inputs)
    text, reports, _ = _run("pico", "baccarat", tmp_path, seconds=60, demo=False, until=('"crash_recorded"',))
    assert "fatal: firmware bug; resetting" in capsys.readouterr().out      # the firmware's own stdout
    assert "booting again" in text
    assert any(r["event"] == "crash_recorded" and "ValueError: firmware bug" in r["error"] for r in reports)
    assert "ValueError: firmware bug" in (tmp_path / "crash.prev").read_text()


def test_a_watchdog_reset_in_the_live_simulator_boots_again_without_a_traceback(tmp_path, monkeypatch, capsys,
                                                                               caplog):
    # A firmware pass late past the watchdog's timeout (a slow host at a high --speed) reset the board as
    # it should ("booting again"), and then asyncio logged the reset left on the firmware's serve() task:
    # "Task exception was never retrieved" and 40 lines of traceback, for a reset the simulator handled.
    import gc

    from firmware import main as firmware_main
    from hostsim import __main__ as cli

    real = firmware_main.poll_inputs
    state = {"stalled": False}

    def poll_inputs(ctx, elapsed_ms):
        if not state["stalled"] and ctx.table.uptime_s >= 1:
            state["stalled"] = True
            hardware.current().clock.advance(ctx.board.watchdog_ms + 1000)    # the pass comes this late
        real(ctx, elapsed_ms)

    monkeypatch.setattr(firmware_main, "poll_inputs", poll_inputs)
    status = cli.main(["--no-ui", "--no-pty", "--no-demo", "--seconds", "12", "--speed", "8",
                       "--state-dir", str(tmp_path)])
    gc.collect()                         # the task's exception is logged when the task is collected
    captured = capsys.readouterr()
    assert status == 0 and state["stalled"]
    assert "sim: simulated reset: watchdog" in captured.out and "booting again" in captured.out
    assert "Traceback" not in captured.err + captured.out
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


@pytest.mark.parametrize("option", ["--seconds", "--speed"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_seconds_and_speed_must_be_finite_numbers_above_zero(option, value, capsys):
    # --seconds nan and --speed inf ended in a ValueError / OverflowError traceback; --seconds -1 ran and
    # stopped at once.
    from hostsim import __main__ as cli

    assert cli.main(["--no-ui", "--no-pty", option, value]) == 2
    assert capsys.readouterr().err == "sim: %s must be a number > 0, got %s\n" % (option, float(value))


def test_the_live_simulators_flash_is_a_folder_a_game(tmp_path, monkeypatch, capsys):
    # The default state dir was one for every game: `make sim` after `make sim SIM_ARGS="--game craps"` found
    # the Craps table's journal, refused it and booted the Baccarat table into the journal_bad alarm.
    from hostsim import __main__ as cli

    monkeypatch.setattr(cli, "SIM_STATE", str(tmp_path))
    for game in ("craps", "baccarat"):
        assert cli.main(["--no-ui", "--no-pty", "--no-demo", "--game", game, "--seconds", "3", "--speed", "8"]) == 0
    out = capsys.readouterr().out
    assert sorted(os.listdir(str(tmp_path))) == ["baccarat", "craps"]
    assert '"journal_bad"' not in out and "snapshot refused" not in out


def test_a_board_is_named_or_given_as_a_file():
    # `--board pico` is boards/pico.json; a file of one's own, in this directory or elsewhere, is taken as given.
    from hostsim.headless import REPO, board_path
    assert board_path("pico") == os.path.join(REPO, "boards", "pico.json")
    assert board_path("my-board.json") == "my-board.json"
    assert board_path(os.path.join("lab", "bench-7")) == os.path.join("lab", "bench-7")
