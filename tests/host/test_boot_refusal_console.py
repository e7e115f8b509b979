"""What the console shows when run() refuses a file.

The host report itself is checked on both runtimes in tests/firmware/test_boot_refusal.py.
"""
import json
import os

from firmware import main
from tests.firmware.fakes import FakeMachine, FakeNeoPixelModule

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(tmp_path, board):
    board_path = tmp_path / "board.json"
    board_path.write_text(json.dumps(board))
    machine = FakeMachine()
    status = main.run(str(board_path), os.path.join(REPO, "boards", "tables", "sim-baccarat.json"), str(tmp_path),
                      machine, FakeNeoPixelModule())
    return status, machine


def _pico():
    with open(os.path.join(REPO, "boards", "pico.json")) as f:
        return json.load(f)


def test_refusal_printed_and_reported(tmp_path, capsys):
    board = _pico()
    board["displays"]["dealer"]["cols"] = 40
    status, machine = _run(tmp_path, board)
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out == ["boot: board board: displays.dealer: unsupported LCD geometry 40x4: one HD44780 shows at most "
                   "80 characters (a 40x4 module has two controllers)",
                   "boot: fix the file (mpremote edit / make deploy) and reset; the table stays closed"]
    (line,) = machine.uarts[1].reports()
    assert json.loads(line)["error"] == out[0][len("boot: "):]


def test_refusal_without_a_host_port_says_so_once(tmp_path, capsys):
    board = _pico()
    board["mcu"] = "z80"
    status, machine = _run(tmp_path, board)
    out = capsys.readouterr().out.splitlines()
    assert status == 1 and machine.uarts == {}
    assert out[0].startswith("boot: board board: mcu: unknown microcontroller 'z80'")
    assert out[2] == "boot: no report to the host: the board file gives no valid host port"
    assert len(out) == 3
