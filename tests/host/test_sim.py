"""`make sim` end to end: the firmware boots on the simulated board, ptys work, crashes recover."""
import json
import os
import subprocess
import sys

import pytest

from hostsim import hardware
from hostsim.clock import VirtualClock

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _sim(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "hostsim", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def _reports(stdout):
    return [json.loads(line[len("host: "):]) for line in stdout.splitlines() if line.startswith("host: ")]


# Omaha: the simulated dealer has keyed the first buy-in (a `seat` report) on the keypad: about seven
# keys at the live pace of 400 ms each, so 8 s leave room for a loaded machine's slower passes. Craps: the
# first throw comes a bets lead after the lamp test (2.5 s a throw), which a loaded machine's slower
# passes pushed past 3.5 s (a run with no throw); 6 s leave it room.
@pytest.mark.parametrize("game, event, seconds", [("baccarat", "card", "3.5"), ("craps", "throw", "6"),
                                                  ("omaha", "seat", "8")])
def test_sim_runs_each_game_with_ptys(tmp_path, game, event, seconds):
    proc = _sim("--no-ui", "--seconds", seconds, "--seed", "7", "--game", game, "--state-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    for role in ("shoe", "dice", "host", "console"):
        line = next(l for l in proc.stdout.splitlines() if l.strip().startswith(role))
        assert line.split()[1].startswith("/dev/pts/"), line
    reports = _reports(proc.stdout)
    assert reports[0]["event"] == "boot" and reports[0]["game"] == game
    assert {"state": "ready"}.items() <= next(r for r in reports if r.get("state") == "ready").items()
    assert any(r["event"] == event for r in reports), reports
    assert proc.stdout.rstrip().endswith("sim: stopped")


def test_sim_refuses_a_bad_table_file(tmp_path):
    bad = tmp_path / "table.json"
    bad.write_text('{"table_id": "X", "game": "baccarat"}')
    proc = _sim("--table", str(bad), "--no-ui", "--seconds", "1")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "sim: table settings: missing 'settings'"


def test_unhandled_exception_is_recorded_and_the_board_restarts(tmp_path):
    from firmware import main

    with open(os.path.join(REPO, "boards", "sim.json")) as f:
        board = json.load(f)
    hw = hardware.install(clock=VirtualClock(realtime=True), ports="loopback", board=board)
    try:
        import machine
        import neopixel

        async def faulty(ctx):
            import asyncio
            await asyncio.sleep(0.1)
            raise RuntimeError("display task blew up")

        args = (os.path.join(REPO, "boards", "sim.json"), os.path.join(REPO, "boards", "tables", "sim-baccarat.json"),
                str(tmp_path), machine, neopixel)
        with pytest.raises(hardware.SimReset):
            main.run(*args, extra_tasks=(faulty,))
        assert "display task blew up" in (tmp_path / "crash.log").read_text()
        hw.reboot(hardware.HARD_RESET)

        class Stop(BaseException):
            pass

        reports = []

        async def stop(ctx):
            """The host: reads the board's frames and acknowledges them for 0.3 s, then stops the run."""
            import asyncio
            from tools.host import HostClient

            client = HostClient()
            for _ in range(30):
                await asyncio.sleep(0.01)
                got, reply = client.feed(hw.port("host").take())
                reports.extend(got)
                if reply:
                    hw.port("host").feed(reply)
            raise Stop()

        with pytest.raises(Stop):
            main.run(*args, extra_tasks=(stop,))
        assert any(r["event"] == "crash_recorded" and "blew up" in r["error"] for r in reports)
        assert reports[-1] == {"seq": reports[-1]["seq"], "table": "SIM-B1", "event": "fault",
                               "fault": "crashed"}
        assert (tmp_path / "crash.prev").exists() and not (tmp_path / "crash.log").exists()
    finally:
        hardware.uninstall()


def _stopped_mid_shoe(state_dir):
    """A first run stopped while the dealer burns the new shoe: the next boot's `reset_in_round` alarm."""
    proc = _sim("--no-ui", "--seconds", "6", "--speed", "3", "--seed", "7", "--state-dir", state_dir)
    assert proc.returncode == 0, proc.stderr
    assert any(r["event"] == "card" for r in _reports(proc.stdout))


def test_plain_output_says_once_that_the_table_waits_for_a_person_to_close_its_alarm(tmp_path):
    from hostsim.sim import WAITING_NO_KEYS

    _stopped_mid_shoe(str(tmp_path))
    proc = _sim("--no-ui", "--seconds", "4", "--speed", "3", "--seed", "7", "--state-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines.count(WAITING_NO_KEYS) == 1, proc.stdout       # (stdin is no terminal here)
    said = lines.index(WAITING_NO_KEYS)
    alarm = next(i for i, l in enumerate(lines) if '"fault": "reset_in_round"' in l and '"event": "fault"' in l)
    assert alarm < said
    assert not any('"event": "fault_ack"' in l for l in lines)     # nobody closed it


def test_plain_output_reads_the_dealer_keys_in_a_terminal(tmp_path):
    """`--no-ui` in a terminal: the line says which keys close the alarm, and they do (a person's CONFIRM)."""
    import pty

    from hostsim.sim import WAITING_KEYS

    _stopped_mid_shoe(str(tmp_path))
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "hostsim", "--no-ui", "--seconds", "6", "--speed", "3", "--seed",
                             "7", "--state-dir", str(tmp_path)], cwd=REPO, stdin=slave, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    os.close(slave)
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.rstrip("\n") == WAITING_KEYS:
                os.write(master, b"c")
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert WAITING_KEYS in lines, "\n".join(lines)
    acks = [r for r in _reports("\n".join(lines)) if r["event"] == "fault_ack"]
    assert acks and acks[0]["fault"] == "reset_in_round" and acks[0]["by"] == "confirm", acks


def test_a_table_recovered_into_an_alarm_left_open_before_is_waited_on_too(tmp_path):
    # The second run stops with the reset_in_round alarm still open: the third boot's `recovered` report says
    # `state: fault` with the alarm, and no `fault` or `state` report follows (both came before the reset).
    # The dealer waits for a person all the same (it dealt on before, and its card closed the alarm).
    from hostsim.sim import WAITING_NO_KEYS

    _stopped_mid_shoe(str(tmp_path))
    for _ in range(2):
        proc = _sim("--no-ui", "--seconds", "4", "--speed", "3", "--seed", "7", "--state-dir", str(tmp_path))
        assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any('"event": "recovered"' in l and '"state": "fault"' in l and '"fault": "reset_in_round"' in l
               for l in lines), proc.stdout
    assert not any('"event": "fault"' in l for l in lines), proc.stdout
    assert lines.count(WAITING_NO_KEYS) == 1, proc.stdout
    assert not any('"event": "fault_ack"' in l or '"event": "card"' in l for l in lines), proc.stdout
