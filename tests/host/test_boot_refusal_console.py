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


def test_on_a_board_a_refused_boot_idles_with_the_repl_closed(tmp_path, capsys, monkeypatch):
    # The board's boot stub passes closed=True: without the service jumper the board idles, Ctrl-C off, a second
    # at a time, for good (tests pass a function in its place elsewhere). A mutant seed 72 called True there as
    # that function (a TypeError out of main.py: the REPL open) and lived: only functions were ever passed.
    import sys

    from firmware import compat

    class _Idled(Exception):
        pass

    slept = []

    def sleep_ms(ms):
        slept.append(ms)
        if len(slept) == 3:
            raise _Idled()

    # (boot_refusal is boot-only: imported by the refusal and released after it, it takes compat's then)
    monkeypatch.setattr(compat, "sleep_ms", sleep_ms)
    if "firmware.boot_refusal" in sys.modules:
        monkeypatch.setattr(sys.modules["firmware.boot_refusal"], "sleep_ms", sleep_ms)
    board = _pico()
    board["displays"]["dealer"]["cols"] = 40
    board_path = tmp_path / "board.json"
    board_path.write_text(json.dumps(board))
    try:
        main.run(str(board_path), os.path.join(REPO, "boards", "tables", "sim-baccarat.json"), str(tmp_path),
                 FakeMachine(), FakeNeoPixelModule(), closed=True)
    except _Idled:
        pass
    else:
        raise AssertionError("the refused boot returned: main.py would end in the REPL")
    assert slept == [1000, 1000, 1000]
    assert capsys.readouterr().out.splitlines()[-1] == ("boot: the REPL stays closed: fit the service jumper and "
                                                        "reset to open it")
