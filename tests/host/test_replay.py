"""python -m tools.replay: the unchanged firmware on the simulated board, fed input lines, printing host reports.

Issue 9: "boots the unchanged firmware on the simulated board (virtual clock),
feeds the input, and prints every host report as one JSON line, in order".
These tests hold to what the firmware does before the Baccarat controller
reads the framed shoe: reports in order, faults with the bytes behind them,
buttons, raw bytes, time; the golden scripts are in tests/host/replay_scripts/.
"""
import contextlib
import glob
import io
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

from firmware import cards
from firmware import main as firmware_main
from firmware import startup
from firmware import table_config
from firmware.host_port import settings_digest
from firmware.version import FIRMWARE_VERSION
from hostsim import hardware
from hostsim.devices import BetReaderDevice, ShoeDevice
from hostsim.headless import BOOT_LIMIT_MS, SETTLE_MS, HeadlessTable
from hostsim.table_io import LONG_PRESS_MS, SHORT_PRESS_MS, TableIO
from tests.host.cli_checks import assert_one_line_error
from tests.host.replay_seq import seq_problems
from tools import replay as replay_tool
from tools.replay_input import KINDS, MAX_WAIT_MS, run_line

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(REPO, "tests", "host", "replay_scripts")
BOARD = os.path.join(REPO, "boards", "sim.json")


def _table(game="baccarat"):
    return os.path.join(REPO, "boards", "tables", "sim-%s.json" % game)


def _cli(*args, input_text=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "tools.replay", *args], cwd=REPO, capture_output=True, text=True,
                          input=input_text, timeout=timeout)


def _script(tmp_path, *lines, name="in.jsonl"):
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return str(path)


def _main(tmp_path, *lines, table=None, board="sim", extra=()):
    """tools.replay.main in this process -> (status, reports, stderr text)."""
    out, err = io.StringIO(), io.StringIO()
    path = _script(tmp_path, *lines)
    status = replay_tool.main(["--table", table or _table(), "--board", board, *extra, path],
                              stdout=out, stderr=err)
    return status, [json.loads(l) for l in out.getvalue().splitlines()], err.getvalue()


def _timed(tmp_path, *lines, table=None):
    """Replay in this process -> [(virtual ms, report)], each report stamped with the time it was sent."""
    seen = []
    holder = {}

    def emit(line):
        seen.append((holder["table"].now_ms(), json.loads(line)))

    raw = [(l if isinstance(l, str) else json.dumps(l)).encode() for l in lines]
    replay_tool.replay(raw, table or _table(), BOARD, str(tmp_path), emit,
                       started=lambda t: holder.__setitem__("table", t))
    return seen


def _digest(path):
    return settings_digest(table_config.read(path))


def _events(reports):
    return [(r["event"], r.get("state", r.get("button", r.get("fault")))) for r in reports]


BOOTED = [("boot", None), ("state", "starting"), ("state", "ready")]


@contextlib.contextmanager
def _booted(tmp_path, sent=None):
    """A HeadlessTable booted past its lamp test; with a list `sent`, every (port, bytes) TableIO sends is added."""
    table = HeadlessTable(BOARD, _table(), str(tmp_path), lambda line: None)
    try:
        if sent is not None:
            send = table.io.send
            table.io.send = lambda role, data: (sent.append((role, bytes(data))), send(role, data))
        table.boot()
        table.wait_booted()
        yield table
    finally:
        table.close()


# -- boot and order ------------------------------------------------------------------
def test_boot_reports_come_first_in_order_and_nothing_else_is_printed(tmp_path):
    proc = _cli("--table", _table(), _script(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    reports = [json.loads(line) for line in proc.stdout.splitlines()]
    assert _events(reports) == BOOTED
    assert reports[0] == {"seq": 1, "table": "SIM-B1", "event": "boot", "board": "sim", "game": "baccarat",
                          "firmware": FIRMWARE_VERSION, "settings": _digest(_table()), "reset_cause": "PWRON_RESET",
                          "program": "unverified", "service_mode": False}


@pytest.mark.parametrize("game", ["baccarat", "craps", "omaha"])
def test_every_game_boots_past_its_lamp_test_before_the_first_input(tmp_path, game):
    seen = _timed(tmp_path, {"button": "deal"}, table=_table(game))
    events = _events([r for _, r in seen])
    assert events[:3] == BOOTED and events[3:] == [("button", "deal"), ("button", "deal")]
    ready_ms = seen[2][0]
    assert ready_ms > 0 and seen[3][0] > ready_ms     # the press came after the table was ready


def test_sequence_numbers_run_one_by_one_in_the_order_sent(tmp_path):
    status, reports, _ = _main(tmp_path, {"button": "deal"}, {"raw": {"port": "shoe", "hex": "7a7a0a"}},
                               {"button": "confirm"}, {"button": "void", "long": True})
    assert status == 0
    assert [r["seq"] for r in reports] == list(range(1, len(reports) + 1))
    assert _events(reports) == BOOTED + [
        ("button", "deal"), ("button", "deal"), ("state", "fault"), ("fault", "frame_syntax"),
        ("button", "confirm"), ("fault_ack", "frame_syntax"), ("state", "ready"), ("button", "confirm"),
        ("button", "void"), ("button", "void"), ("button", "void")]      # pressed, long, released


# -- buttons ------------------------------------------------------------------------------
def test_a_button_line_is_a_press_then_a_release(tmp_path):
    status, reports, _ = _main(tmp_path, {"button": "shoe_change"})
    assert status == 0
    pressed = [(r["button"], r["pressed"]) for r in reports if r["event"] == "button"]
    assert pressed == [("shoe_change", True), ("shoe_change", False)]


@pytest.mark.parametrize("line, hold_ms", [({"button": "deal"}, SHORT_PRESS_MS),
                                           ({"button": "deal", "long": False}, SHORT_PRESS_MS),
                                           ({"button": "deal", "long": True}, LONG_PRESS_MS)])
def test_a_press_is_held_for_its_named_time(tmp_path, line, hold_ms):
    seen = _timed(tmp_path, line)
    down, up = [ms for ms, r in seen if r["event"] == "button" and not r.get("long")]
    # Both edges are seen after the same 3-poll debounce and reported at an output pass (every 20 ms).
    assert abs((up - down) - hold_ms) <= firmware_main.OUTPUT_MS
    assert SHORT_PRESS_MS < 1000 < LONG_PRESS_MS


# -- raw bytes and faults -------------------------------------------------------------------
def test_garbage_on_the_shoe_port_is_a_fault_carrying_its_bytes(tmp_path):
    status, reports, _ = _main(tmp_path, {"raw": {"port": "shoe", "hex": "7a 7a 0a"}})
    assert status == 0
    faults = [r for r in reports if r["event"] == "fault"]
    assert len(faults) == 1 and faults[0]["bytes"] == "zz"


def test_raw_bytes_reach_the_port_named(tmp_path):
    status, reports, _ = _main(tmp_path, {"raw": {"port": "dice", "hex": "3320340a"}})
    assert status == 0
    # The dice port is the one a Baccarat table does not use: its first line is a fault with the port and bytes.
    faults = [r for r in reports if r["event"] == "fault"]
    assert [(f["fault"], f["port"], f["bytes"]) for f in faults] == [("unexpected_input", "dice", "3 4")]


def test_a_whole_raw_line_arrives_as_one_line_with_any_bytes(tmp_path):
    status, reports, _ = _main(tmp_path, {"raw": {"port": "dice", "hex": "00ff0a"}})
    assert status == 0
    faults = [r for r in reports if r["event"] == "fault"]
    assert [(f["fault"], f["port"]) for f in faults] == [("unexpected_input", "dice")]
    assert faults[0]["bytes"] != ""


def test_a_line_cut_short_times_out_within_the_settle_time(tmp_path):
    """A reader line that stops mid-way is dropped once the port is quiet: the settle time outlasts that."""
    seen = _timed(tmp_path, {"raw": {"port": "shoe", "hex": "4168"}})
    faults = [r for _, r in seen if r["event"] == "fault"]
    assert [(f["fault"], f["bytes"]) for f in faults] == [("partial_line", "Ah")]


def test_bytes_the_firmware_does_not_read_stay_on_the_port_and_the_replay_goes_on(tmp_path, monkeypatch):
    with _booted(tmp_path) as table:
        monkeypatch.setattr(firmware_main, "poll_inputs", lambda ctx, elapsed_ms: None)    # reads no port
        start = table.now_ms()
        run_line(table, json.dumps({"raw": {"port": "shoe", "hex": "7a0a7a0a"}}))
        assert table.io.waiting("shoe") == 4
        assert table.now_ms() - start == firmware_main.POLL_MS + SETTLE_MS     # one pass showed it, then settle


# -- time ----------------------------------------------------------------------------------
@pytest.mark.parametrize("ms", [0, 25, 500, 1230])
def test_wait_ms_advances_exactly_that_long(tmp_path, ms):
    with _booted(tmp_path) as table:
        start = table.now_ms()
        run_line(table, json.dumps({"wait_ms": ms}))
        assert table.now_ms() - start == ms


def test_a_wait_puts_that_much_time_between_two_inputs(tmp_path):
    seen = _timed(tmp_path, {"button": "deal"}, {"wait_ms": 2000}, {"button": "void"})
    deal_up = next(ms for ms, r in seen if r["event"] == "button" and r["button"] == "deal" and not r["pressed"])
    void_down = next(ms for ms, r in seen if r["event"] == "button" and r["button"] == "void")
    assert 2000 <= void_down - deal_up <= 2000 + SETTLE_MS + 4 * firmware_main.POLL_MS


# -- the devices' wire format ---------------------------------------------------------------
def test_the_firmwares_own_drivers_decode_what_the_table_io_sends():
    """The shoe and bet reader drivers, on the board's UARTs, read TableIO's lines as the messages meant."""
    from firmware import board as board_mod
    from firmware.drivers.bet_reader import BetReader
    from firmware.drivers.serial_line import SerialLine
    from firmware.drivers.shoe import Shoe
    from firmware import faults
    from firmware.events import BETS, BETS_FAULT, CARD, SHOE, SHOE_CUT, SHOE_HELLO, SHOE_IN
    from firmware.statemachine import EventQueue
    from firmware.evidence import Evidence
    from firmware.games.baccarat.payouts import ZONES

    board = board_mod.load(BOARD)
    hw = hardware.install(board=board)
    try:
        import machine

        queue = EventQueue(32)
        evidence = Evidence()
        shoe = Shoe(SerialLine(machine.UART(board.ports["shoe"]["uart"])), queue, evidence)
        reader = BetReader(SerialLine(machine.UART(board.ports["bets"]["uart"])), queue, evidence, ZONES, 7)
        io_ = TableIO(hw, board)
        io_.shoe_new()
        io_.card("Ah", face_up=True)
        io_.cut_card()
        io_.bets({"3": {"banker": 100, "tie": 10}})
        events = []
        for _ in range(20):
            shoe.poll()
            reader.poll()
            while queue.get():
                events.append((queue.kind, queue.a, queue.b))
        # the bet reader's HELLO at power-up, between readings: BETS_FAULT BETS_RESTARTED (reported, never held)
        assert [(k, a) for k, a, _ in events] == [(SHOE, SHOE_HELLO), (BETS_FAULT, faults.BETS_RESTARTED), (SHOE, SHOE_IN),
                                                  (CARD, cards.parse("Ah")), (SHOE, SHOE_CUT), (BETS, 1)]
        assert events[3][2] == 1                            # face up (Baccarat art. 4)
        assert reader.reading.as_dict() == {3: {"banker": 100, "tie": 10}}
        assert shoe.lost == 0 and reader.lost == 0 and shoe.bad_frames == 0
    finally:
        hardware.uninstall()


def test_each_device_line_goes_on_the_wire_as_the_emulated_devices_frames(tmp_path):
    shoe, reader = ShoeDevice(), BetReaderDevice()
    reading = {"3": {"banker": 100, "tie": 10}, "5": {"player": 50}}
    script = [({"shoe": "new"}, "shoe", shoe.hello() + shoe.inserted()),
              ({"card": "10h", "face_up": True}, "shoe", shoe.card("Th", face_up=True)),   # one spelling on the wire
              ({"card": "qS"}, "shoe", shoe.card("Qs")),
              ({"cut_card": True}, "shoe", shoe.cut_card()),
              ({"shoe": "unreadable"}, "shoe", shoe.unreadable()),
              ({"shoe_fault": 12}, "shoe", shoe.sensor_fault(12)),
              ({"shoe": "out"}, "shoe", shoe.removed()),
              ({"shoe": "hello"}, "shoe", shoe.hello()),
              ({"card": "2c"}, "shoe", shoe.card("2c")),
              ({"bets": reading}, "bets", reader.hello() + reader.bets(reading)),
              ({"bets": {}}, "bets", reader.bets({})),
              ({"raw": {"port": "console", "hex": "68 65 6c 70 0a"}}, "console", b"help\n")]
    sent = []
    with _booted(tmp_path, sent) as table:
        for line, port, data in script:
            del sent[:]
            run_line(table, json.dumps(line))
            sent[:] = [(role, data) for role, data in sent if role != "host"]    # the host's ACKs
            assert sent and all(role == port for role, _ in sent), line
            assert b"".join(d for _, d in sent) == data, line


# -- malformed input -----------------------------------------------------------------------
BAD_LINES = [
    ("{card: Ah}", "not JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('"card"', "expected a JSON object"),
    ("{}", "an empty object"),
    ('{"deal": true}', "unknown key 'deal'"),
    ('{"card": "Ah", "button": "deal"}', "one input a line"),
    ('{"card": "Ah", "up": true}', "unknown key 'up' in a card line (allowed: face_up, after_ms)"),
    ('{"card": "Ah", "face_up": "yes"}', "face_up must be true or false"),
    ('{"card": "Zz"}', "unknown card code 'Zz'"),
    ('{"card": 14}', "card must be a string"),
    ('{"shoe": "old"}', "unknown shoe report 'old'"),
    ('{"cut_card": false}', "cut_card must be true"),
    ('{"roads": "please"}', "roads must be true"),
    ('{"open_bets": 1}', "open_bets must be true"),
    ('{"open_bets": true, "tag": 10000}', "tag must be 0..9999, got 10000"),
    ('{"recall": 3, "tag": "7"}', "tag must be a whole number, got a string"),
    ('{"card": "Ah", "tag": 7}', "unknown key 'tag' in a card line"),
    ('{"recall": "10"}', "recall must be a whole number, got a string"),
    ('{"recall": -1}', "recall must be 0 or more, got -1"),
    ('{"recall": 10, "last": true}', "unknown key 'last' in a recall line (allowed: tag)"),
    ('{"shoe_fault": -1}', "shoe_fault must be 0 or more"),
    ('{"bets": [3]}', "bets must be an object of seats"),
    ('{"bets": {"three": {"banker": 100}}}', "seat 'three'"),
    ('{"bets": {"3": {"banker": "100"}}}', "banker must be a whole number"),
    ('{"bets": {"3": {"banker": 1.5}}}', "banker must be a whole number"),
    ('{"bets": {"3": {"pass": "up"}}}', "pass must be a whole number or \"down\", got a string"),
    ('{"bets": {"3": {"pass": null}}}', "pass must be a whole number or \"down\""),
    ('{"bets": {"3": {"bank er": 1}}}', "zone 'bank er'"),
    ('{"bets": {"3": {"%s": 1}}}' % ("z" * 90), "does not fit one frame"),
    ('{"dice": [3]}', "dice must be an array of two faces"),
    ('{"dice": "3 4"}', "dice must be an array of two faces"),
    ('{"dice": [0, 4]}', "dice face must be 1..9, got 0"),
    ('{"dice": [3, 4.0]}', "dice face must be a whole number"),
    ('{"dice": [3, 4], "flags": ["leaning"]}', "unknown dice flag 'leaning'"),
    ('{"dice": [3, 4], "flags": "short"}', "flags must be an array"),
    ('{"dice": [3, 4], "cocked": 2}', "cocked die must be 0..1, got 2"),
    ('{"dice": [3, 4], "cocked": [1, 1]}', "each die (0, 1) at most once"),
    ('{"dice": [3, 4], "wall": true}', "unknown key 'wall' in a dice line (allowed: flags, cocked)"),
    ('{"button": "foo"}', "unknown button 'foo' (board sim has confirm, deal, shoe_change, void)"),
    ('{"button": "deal", "long": 1}', "long must be true or false"),
    ('{"button": "deal", "hold_ms": 50}', "unknown key 'hold_ms' in a button line"),
    ('{"raw": {"port": "printer", "hex": "00"}}', "unknown port 'printer' (board sim has bets, console, dice,"),
    ('{"raw": {"port": "shoe", "hex": "0g"}}', "bad hex '0g'"),
    ('{"raw": {"port": "shoe", "hex": "123"}}', "bad hex '123'"),
    ('{"raw": {"port": "shoe"}}', "raw: missing 'hex'"),
    ('{"raw": {"port": "shoe", "hex": "00", "crc": 1}}', "raw: unknown key 'crc'"),
    ('{"raw": "00"}', "raw must be an object"),
    ('{"unplug": "printer"}', "unplug: board sim has no printer display (it has dealer, result, scoreboard)"),
    ('{"unplug": 1}', "unplug must be a string, got a number"),
    ('{"plug": "dealer"}', "plug: the dealer display is not unplugged"),
    ('{"plug": "dealer", "after_ms": 5}', "unknown key 'after_ms' in a plug line (it takes no other key)"),
    ('{"wait_ms": -5}', "wait_ms must be 0..%d, got -5" % MAX_WAIT_MS),
    ('{"wait_ms": %d}' % (MAX_WAIT_MS + 1), "wait_ms must be 0..%d" % MAX_WAIT_MS),
    ('{"wait_ms": 1.5}', "wait_ms must be a whole number, got a number"),
    ('{"wait_ms": true}', "wait_ms must be a whole number, got a boolean"),
    ('{"wait_ms": "500"}', "wait_ms must be a whole number, got a string"),
    # json keeps the last of two keys: a throw of 3 and 4, a pass bet of 20, each without a word
    ('{"dice": [1, 2], "dice": [3, 4]}', "dice: key given twice in one object (remove one)"),
    ('{"bets": {"3": {"pass": 10, "pass": 20}}}', "bets.3.pass: key given twice in one object"),
    ('{"hand": {"button": 1, "stacks": {"1": 100, "1": 200}}}', "hand.stacks.1: key given twice"),
    ('{"wait_ms": NaN}', "NaN is not a JSON number"),
    ('{"bets": {"3": {"pass": -Infinity}}}', "-Infinity is not a JSON number"),
]


@pytest.mark.parametrize("line, message", BAD_LINES)
def test_a_malformed_line_stops_the_replay_naming_its_number(tmp_path, line, message):
    status, reports, err = _main(tmp_path, {"button": "deal"}, "", line, {"button": "void"})
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("replay: line 3: "), err     # the blank line 2 is counted
    assert message in err, err
    # The reports up to the bad line are printed (the host's view so far); the line after it never ran.
    assert _events(reports) == BOOTED + [("button", "deal"), ("button", "deal")]


def test_a_line_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"button": "deal"}\n{"card": "\xff"}\n')
    proc = _cli("--table", _table(), str(path))
    assert proc.returncode == 2
    assert_one_line_error(proc, "replay: line 2: not UTF-8")
    assert len(proc.stdout.splitlines()) == len(BOOTED) + 2


def test_a_malformed_line_through_the_command(tmp_path):
    proc = _cli("--table", _table(), _script(tmp_path, {"wait_ms": 10}, {"wait_ms": 10}, {"button": "foo"}))
    assert proc.returncode == 2
    line = assert_one_line_error(proc)
    assert line == "replay: line 3: unknown button 'foo' (board sim has confirm, deal, shoe_change, void)"
    assert _events([json.loads(l) for l in proc.stdout.splitlines()]) == BOOTED


def test_a_device_line_for_a_port_the_board_lacks_is_an_input_error(tmp_path):
    status, reports, err = _main(tmp_path, {"bets": {"3": {"banker": 100}}}, board="esp32s3")
    assert status == 2
    assert err.strip() == "replay: line 1: bets: board esp32s3 has no bets port (it has console, dice, host, shoe)"
    assert reports[0]["board"] == "esp32s3"


# -- files, stdin, state ---------------------------------------------------------------------
def test_input_from_stdin(tmp_path):
    proc = _cli("--table", _table(), "-", input_text='{"button": "deal"}\n{"wait_ms": 100}\n')
    assert proc.returncode == 0, proc.stderr
    assert _events([json.loads(l) for l in proc.stdout.splitlines()]) == BOOTED + [("button", "deal")] * 2


def test_a_table_file_the_firmware_refuses_is_its_boot_refused_report(tmp_path):
    bad = tmp_path / "table.json"
    bad.write_text('{"table_id": "X1", "game": "baccarat"}')
    proc = _cli("--table", str(bad), _script(tmp_path, {"button": "deal"}))
    assert proc.returncode == 2
    assert_one_line_error(proc, "replay: the firmware refused to boot: table settings: missing 'settings'")
    assert [json.loads(l) for l in proc.stdout.splitlines()] == [
        {"seq": 1, "table": "X1", "event": "boot_refused", "error": "table settings: missing 'settings'",
         "firmware": FIRMWARE_VERSION, "reset_cause": "PWRON_RESET"}]


def test_a_board_the_table_cannot_run_on_is_refused_by_the_firmware(tmp_path):
    board = json.load(open(BOARD))
    del board["ports"]["shoe"]
    path = tmp_path / "noshoe.json"
    path.write_text(json.dumps(board))
    status, reports, err = _main(tmp_path, board=str(path))
    assert status == 2 and "has no shoe port" in err
    assert [r["event"] for r in reports] == ["boot_refused"]


def test_an_unknown_board_is_one_line_and_no_report(tmp_path):
    proc = _cli("--table", _table(), "--board", "nosuchboard", _script(tmp_path))
    assert proc.returncode == 2
    assert_one_line_error(proc, "replay: ", "nosuchboard.json not found", quiet_stdout=True)


def test_an_unreadable_input_file_is_one_line_and_no_report(tmp_path):
    proc = _cli("--table", _table(), str(tmp_path / "missing.jsonl"))
    assert proc.returncode == 2
    assert_one_line_error(proc, "replay: cannot read ", "missing.jsonl", quiet_stdout=True)


def test_a_state_dir_keeps_the_unacknowledged_fault_for_the_next_run(tmp_path):
    """The table journal (firmware/recovery.py) brings the open alarm back; the host, which has its
    fault report, is told once, in the recovery report, not a second time."""
    state = tmp_path / "flash"
    status, _, _ = _main(tmp_path, {"raw": {"port": "shoe", "hex": "7a0a"}}, extra=("--state-dir", str(state)))
    assert status == 0
    status, reports, _ = _main(tmp_path, extra=("--state-dir", str(state)))
    assert status == 0
    assert {"event": "recovered", "state": "fault", "fault": "frame_syntax", "resumed": True}.items() \
        <= reports[-1].items()
    assert [r for r in reports if r["event"] == "fault"] == []
    assert [r["seq"] for r in reports] == list(range(1, len(reports) + 1))


def test_the_default_state_dir_is_fresh_and_removed(tmp_path, monkeypatch):
    made = []
    real = replay_tool.tempfile.mkdtemp

    def mkdtemp(**kwargs):
        made.append(real(dir=str(tmp_path), **kwargs))
        return made[-1]

    monkeypatch.setattr(replay_tool.tempfile, "mkdtemp", mkdtemp)
    status, _, _ = _main(tmp_path, {"raw": {"port": "shoe", "hex": "7a0a"}})
    assert status == 0 and len(made) == 1 and not os.path.exists(made[0])
    status, reports, _ = _main(tmp_path)
    assert status == 0 and _events(reports) == BOOTED       # nothing carried over from the first run


# -- resets -----------------------------------------------------------------------------------
def test_a_firmware_crash_resets_the_board_and_the_replay_goes_on(tmp_path, monkeypatch):
    real = firmware_main.poll_inputs
    crashes = []

    def poll_inputs(ctx, elapsed_ms):
        if ctx.hw.buttons.pressed[ctx.board.button_index("void")] and not crashes:
            crashes.append(elapsed_ms)
            raise ValueError("firmware bug")
        real(ctx, elapsed_ms)

    monkeypatch.setattr(firmware_main, "poll_inputs", poll_inputs)
    status, reports, err = _main(tmp_path, {"button": "void"}, {"button": "deal"})
    assert status == 0, err
    assert crashes and err == "fatal: firmware bug; resetting\n"      # the board's console text: not stdout
    # The press was journalled and its report made in the input pass that saw it, its frame waiting in RAM
    # for the output pass (issue 14: the link's turn after the lights and displays); the crash came in the
    # next input pass, first: the board reset and booted again, and the table journal's recovery made the
    # report again (the press journalled and taken: nothing lost, nothing twice).
    assert _events(reports) == BOOTED + [
        # The lamp test runs first, then the recovery, then the crash's alarm, which waited for both
        # (firmware/recovery.py).
        ("boot", None), ("crash_recorded", None), ("state", "starting"), ("state", "ready"),
        ("button", "void"), ("recovered", "ready"),
        # The press (100 ms) ended while the new boot waited out its LCDs' power-up (blocking sleeps, on the
        # virtual clock as a board's are on its own): the new boot finds the button up, no press of its own.
        ("state", "fault"), ("fault", "crashed"),
        ("button", "deal"), ("button", "deal")]       # the next line waited for the new boot to finish
    assert reports[3]["reset_cause"] == "HARD_RESET" and reports[3]["seq"] == 1
    assert "ValueError: firmware bug" in reports[4]["error"]


def test_an_event_that_crashes_the_firmware_crashes_its_recovery_once_then_the_table_starts_afresh(tmp_path,
                                                                                                   monkeypatch):
    # A journalled event whose dispatch raises (a firmware bug) crashed the table, and its recovery
    # dispatched it again at every boot: the board never came up (the replay gave up after 10 s of resets).
    # Now the boot after a crash in the recovery does not recover that journal: the table starts afresh,
    # held in FAULT, and the host is told which event it was.
    from firmware.events import BUTTON
    from firmware.table import Table
    real = Table.dispatch
    crashes = []

    def dispatch(self, kind, a, b):
        if kind == BUTTON and a == void_index[0]:
            crashes.append(a)
            raise ValueError("firmware bug")
        return real(self, kind, a, b)

    void_index = [sorted(json.load(open(os.path.join(REPO, "boards", "sim.json")))["buttons"]).index("void")]
    monkeypatch.setattr(Table, "dispatch", dispatch)
    status, reports, err = _main(tmp_path, {"button": "void"}, {"wait_ms": 500}, {"button": "deal"})
    assert status == 0, err
    assert len(crashes) == 2 and err == "fatal: firmware bug; resetting\n" * 2      # live, then in its recovery
    boots = [i for i, r in enumerate(reports) if r["event"] == "boot"]
    assert len(boots) == 3, _events(reports)
    crashed = [r for r in reports if r["event"] == "crash_recorded"]
    assert len(crashed) == 2 and all("ValueError: firmware bug" in r["error"] for r in crashed)
    recovered = [r for r in reports if r["event"] == "recovered"]
    assert [r["resumed"] for r in recovered] == [False], recovered     # the 2nd boot never ended its recovery
    assert recovered[-1]["error"].startswith("not recovered: the last boot crashed while recovering the table"
                                             " journal (at event "), recovered[-1]
    last = _events(reports[boots[-1]:])
    assert ("fault", "journal_bad") in last and ("fault", "crashed") in last, last
    assert last[-2:] == [("button", "deal"), ("button", "deal")], last    # the table takes input again


# -- the documentation ------------------------------------------------------------------------
def _doc_section():
    with open(os.path.join(REPO, "docs", "protocol.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Replay input"):]
    return section[:section.index("\n## ")] if "\n## " in section else section


def test_the_documented_example_session_is_what_the_tool_prints():
    section = _doc_section()
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    # The order of a pass's console lines and reports (lines of baccarat_settings' output), the session,
    # its output, the end of baccarat_round's output, the recall answer a {"recall": 1} line after it adds, the
    # end of baccarat_shoe_change_alarm's output (a new shoe in an alarm).
    assert len(blocks) == 6
    with open(os.path.join(SCRIPTS, "baccarat_settings.out.jsonl")) as f:
        assert "\n" + blocks[0] in "\n" + f.read()
    proc = _cli("--table", _table(), "-", input_text=blocks[1])
    assert proc.stdout == blocks[2]
    assert proc.returncode == 2
    stated = re.search(r"after `(replay: line [^`]*)` on stderr", section, re.S).group(1)
    assert proc.stderr.strip() == " ".join(stated.split())
    with open(os.path.join(SCRIPTS, "baccarat_round.out.jsonl")) as f:
        assert f.read().endswith(blocks[3])
    with open(os.path.join(SCRIPTS, "baccarat_round.in.jsonl")) as f:
        recalled = _cli("--table", _table(), "-", input_text=f.read() + '{"recall": 1}\n')
    assert recalled.returncode == 0 and recalled.stdout.endswith(blocks[3] + blocks[4])
    with open(os.path.join(SCRIPTS, "baccarat_shoe_change_alarm.out.jsonl")) as f:
        assert f.read().endswith(blocks[5])


def test_the_documented_constants_are_the_codes():
    section = " ".join(_doc_section().split())
    assert "held 100 ms, or 1500 ms for a long press" in section and (SHORT_PRESS_MS, LONG_PRESS_MS) == (100, 1500)
    assert "then 100 ms more (`hostsim.headless.SETTLE_MS`)" in section and SETTLE_MS == 100
    assert "0 .. 3 600 000" in section and MAX_WAIT_MS == 3600 * 1000
    assert "within 10 s of virtual time" in section and BOOT_LIMIT_MS == 10000
    assert set(re.findall(r"^\| `\{\"(\w+)\"", _doc_section(), re.M)) == set(KINDS)


def test_a_failing_host_side_is_not_a_firmware_crash(tmp_path):
    """Issue 8 item 19's lesson: the host's own error (a closed stdout) must not be recorded in crash.log."""
    def emit(line):
        if '"ready"' in line:
            raise BrokenPipeError("stdout closed")

    with pytest.raises(BrokenPipeError):
        replay_tool.replay([b'{"button": "deal"}'], _table(), BOARD, str(tmp_path), emit)
    # The boot counter, the host link's frames, the table journal, the table file, its seal and (hostsim)
    # the file deployed, and no crash.log.
    assert sorted(os.listdir(tmp_path)) == ["boot.0", "link.0", "table.0", "table.deployed", "table.json",
                                            "table.seal"]


def test_a_reading_of_many_lines_is_taken_in_whole_before_the_next_input_line(tmp_path):
    # The replay runs the firmware until it has taken a line in (hostsim.headless.take_in). A line
    # reader's chunk may hold a short frame or two read from the port in an earlier pass, so a pass that
    # takes one reads nothing from the port: the replay took that for the end, a reading of 30 frames (14
    # seats x 8 zones) was left half read and the throw after it decided first; 200 such readings in a row
    # left 100 never read, unreported.
    zones = ("field", "any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars", "horn")
    reading = {"bets": {str(seat): {zone: 20 for zone in zones} for seat in range(1, 15)}}   # (horn: 4 x 5)
    out = []
    replay_tool.replay([json.dumps(reading).encode(), b'{"dice": [5, 6]}'], _table("craps"), BOARD, str(tmp_path),
                       out.append)
    reports = [r for r in map(json.loads, out) if r.get("event") in ("bets", "throw")]
    assert [r["event"] for r in reports] == ["bets", "throw"] and len(reports[1]["nets"]) == 14


# -- determinism and golden scripts -------------------------------------------------------------
def test_two_runs_print_the_same_bytes(tmp_path):
    path = _script(tmp_path, {"shoe": "new"}, {"card": "Ah"}, {"bets": {"1": {"tie": 5}}}, {"button": "confirm"},
                   {"raw": {"port": "shoe", "hex": "ff0a"}}, {"wait_ms": 333}, {"button": "deal", "long": True})
    first = _cli("--table", _table(), path)
    second = _cli("--table", _table(), path)
    assert first.returncode == 0 and first.stdout == second.stdout and len(first.stdout.splitlines()) > 5


def _scripts():
    return sorted(os.path.basename(p)[:-len(".in.jsonl")] for p in glob.glob(os.path.join(SCRIPTS, "*.in.jsonl")))


def _replay_script(name):
    """NAME.in.jsonl on the sim board, with NAME.table.json if there is one, else boards/tables/sim-GAME.json;
    NAME.pin (a technician PIN): the table's state dir has that PIN provisioned (python -m tools.pin)."""
    own = os.path.join(SCRIPTS, name + ".table.json")
    table = own if os.path.exists(own) else _table(name.split("_", 1)[0])
    script = os.path.join(SCRIPTS, name + ".in.jsonl")
    pin = os.path.join(SCRIPTS, name + ".pin")
    if not os.path.exists(pin):
        return _cli("--table", table, script)
    with tempfile.TemporaryDirectory() as state, open(pin) as f:
        proc = subprocess.run([sys.executable, "-m", "tools.pin", "--state-dir", state, "--stdin"], cwd=REPO,
                              stdin=f, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return _cli("--table", table, "--state-dir", state, script)


def test_every_expected_output_has_its_script_and_some_do():
    outputs = sorted(os.path.basename(p)[:-len(".out.jsonl")] for p in glob.glob(os.path.join(SCRIPTS, "*.out.jsonl")))
    assert outputs and set(outputs) <= set(_scripts())
    assert "baccarat_round" in _scripts()


@pytest.mark.parametrize("name", _scripts())
def test_every_script_replays_to_the_end(name):
    proc = _replay_script(name)
    assert proc.returncode == 0, proc.stderr
    reports = [r for r in (json.loads(line) for line in proc.stdout.splitlines()) if "console" not in r]
    numbered = [r["seq"] for r in reports if r.get("event") != "link_lost"]
    if len(numbered) == len(reports):       # nothing lost: each boot's every report, in order (a power cut: two)
        boots = [k for k, r in enumerate(reports) if r["event"] == "boot"] + [len(reports)]
        assert boots[0] == 0
        for first, end in zip(boots, boots[1:]):
            assert numbered[first:end] == list(range(1, end - first + 1))
    assert seq_problems(proc.stdout.splitlines()) == []     # what is missing, link_lost counts
    expected = os.path.join(SCRIPTS, name + ".out.jsonl")
    assert os.path.exists(expected), "%s has no expected output (see replay_scripts/README.md)" % name
    with open(expected) as f:
        assert proc.stdout == f.read(), "replay output differs from %s (see replay_scripts/README.md)" % expected


# -- the host link under line noise (issue 12) ---------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_golden_script_over_a_1_percent_noisy_line_prints_exactly_the_noiseless_output(seed):
    """Bytes dropped, corrupted or duplicated both ways: every report once, in order, the same bytes."""
    name = "baccarat_alarms"
    table = os.path.join(SCRIPTS, name + ".table.json")
    proc = _cli("--table", table, "--line-noise", "0.01", "--seed", str(seed),
                os.path.join(SCRIPTS, name + ".in.jsonl"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    with open(os.path.join(SCRIPTS, name + ".out.jsonl")) as f:
        assert proc.stdout == f.read()


def test_the_noise_is_real_and_the_host_client_worked_for_it(tmp_path):
    holder = {}
    out = []
    with open(os.path.join(SCRIPTS, "baccarat_round.in.jsonl"), "rb") as lines:
        replay_tool.replay(lines, _table(), BOARD, str(tmp_path), out.append,
                           started=lambda t: holder.__setitem__("table", t), line_noise=0.01, seed=7)
    table = holder["table"]
    with open(os.path.join(SCRIPTS, "baccarat_round.out.jsonl")) as f:
        assert "".join(line + "\n" for line in out) == f.read()
    assert sum(table.noise[0].hits.values()) > 20 and sum(table.noise[1].hits.values()) > 0
    assert table.client.refused and table.client.replays_asked > 0


def test_a_bet_reading_on_a_slow_pio_uart_is_taken_in_before_the_next_line(tmp_path):
    # A PIO UART line is paced at its baud rate: at 600 baud and below a pass went by with no byte, the
    # replay took that for a port the firmware does not read and moved on; the first card then opened
    # the round without the reading, and at the end of the script the rest of it was never delivered:
    # the bets vanished from the host's view. 300 baud is the least the board validator takes.
    with open(os.path.join(REPO, "boards", "pico.json")) as f:
        board = json.load(f)
    board["ports"]["bets"]["baudrate"] = 300
    board_file = tmp_path / "slow_bets.json"
    board_file.write_text(json.dumps(board))
    bets = {"3": {"banker": 100}}
    burn = [{"shoe": "new"}] + [{"card": c} for c in ("7c", "Qd", "2h", "As", "Tc", "5d", "8s", "3h")]
    status, reports, err = _main(tmp_path, *burn, {"bets": bets}, {"card": "9h"}, board=str(board_file))
    assert status == 0, err
    events = [(r["event"], r.get("accepted")) for r in reports if r["event"] in ("bets", "round")]
    assert events == [("bets", True), ("round", None)]
    assert [r["bets"] for r in reports if r["event"] == "round"] == [bets]


def test_frames_held_over_a_power_cut_on_a_noisy_line_are_a_catch_up_not_a_failed_boot(tmp_path):
    # Found by mixing line noise with power cuts: at 1.5 % (a rate whose output is the quiet line's), the
    # frames the host had not acknowledged when the power went go out again before the new boot's, and
    # 11 of them took the line more than 10 s: the replay stopped with status 1, "the host did not get
    # the table's boot reports", though the table had booted and recovered. The host gets 120 s to hear
    # it, as it does to catch up after the input.
    import random
    from tests.host.soak_scripts import clean_baccarat_script
    lines = clean_baccarat_script(random.Random(19), 6)
    lines.insert(len(lines) - 3, {"power_cut": True})
    raw = [json.dumps(line) for line in lines]
    quiet, noisy = [], []
    replay_tool.replay(raw, _table(), BOARD, str(tmp_path / "quiet"), quiet.append)
    replay_tool.replay(raw, _table(), BOARD, str(tmp_path / "noisy"), noisy.append, line_noise=0.015, seed=19)
    assert noisy == quiet
    assert sum(1 for line in noisy if '"event": "boot"' in line) == 2


def test_a_line_too_noisy_for_the_link_is_named_not_taken_for_a_boot_that_failed(tmp_path):
    # At 20 % of bytes hit hardly a frame arrives whole: the table booted and played its lamp test, but
    # the replay said "the table did not finish booting", sending a user to look at the firmware.
    status, reports, err = _main(tmp_path, {"wait_ms": 100}, extra=("--line-noise", "0.2", "--seed", "1"))
    assert status == 1
    assert err.startswith("replay: the host did not get the table's boot reports within 120000 ms (the table is "
                          "past its lamp test; "), err
    assert err.rstrip().endswith("frames unacknowledged: too noisy a host line?)"), err


def test_a_line_noise_out_of_range_is_a_usage_error(tmp_path):
    status, reports, err = _main(tmp_path, extra=("--line-noise", "1.5"))
    assert status == 2 and reports == [] and "line noise probability" in err


def test_a_state_dir_that_cannot_be_made_is_a_usage_error(tmp_path):
    # Before: a FileExistsError / NotADirectoryError traceback, exit status 1.
    afile = tmp_path / "afile"
    afile.write_text("")
    for state in (afile, afile / "below"):
        status, reports, err = _main(tmp_path, {"wait_ms": 10}, extra=("--state-dir", str(state)))
        assert status == 2 and reports == [] and err.startswith(
            "replay: --state-dir %s: not a directory that can be made and written (" % state), err


def _unwritable_dir(tmp_path):
    """A directory this process cannot create a file in: a read-only one, or (as root) /sys."""
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    if not os.access(str(ro), os.W_OK):
        return str(ro)
    try:                                 # root writes anywhere but where the kernel refuses
        open("/sys/.replay-probe", "wb").close()
    except PermissionError:
        return "/sys"
    except OSError:
        pass
    pytest.skip("no directory here that this process cannot write")


def test_a_state_dir_that_cannot_be_written_is_a_usage_error(tmp_path):
    # Before: the copy of the table file into it ended in a PermissionError traceback.
    state = _unwritable_dir(tmp_path)
    status, reports, err = _main(tmp_path, {"wait_ms": 10}, extra=("--state-dir", state))
    assert status == 2 and reports == [], err
    assert err == "replay: --state-dir %s: not a directory that can be made and written (Permission denied)\n" % state


def test_torn_without_a_cut_is_a_usage_error(tmp_path, capsys):
    # Before: --torn alone was taken and did nothing.
    with pytest.raises(SystemExit) as exit_:
        _main(tmp_path, {"wait_ms": 10}, extra=("--torn",))
    assert exit_.value.code == 2 and "--torn" in capsys.readouterr().err


def test_a_host_that_never_catches_up_is_exit_status_1(tmp_path, monkeypatch):
    monkeypatch.setattr(replay_tool, "CATCH_UP_MS", 2000)
    monkeypatch.setattr(HeadlessTable, "caught_up", lambda self: False)      # a host that never has it all
    status, reports, err = _main(tmp_path, {"wait_ms": 10})
    assert status == 1 and "did not get every report within 2 s" in err


def test_a_reset_mid_run_is_a_new_boot_counter_and_each_report_arrives_once(tmp_path, monkeypatch):
    """The watchdog resets the board mid-run: the next boot has the next counter; the host delivers
    each report once (the RAM store's unsent frames are lost at a reset and the host says so)."""
    boots = []
    real = startup.boot

    def boot(*args, **kwargs):
        ctx = real(*args, **kwargs)
        boots.append(ctx.sender.boot)
        return ctx

    monkeypatch.setattr(startup, "boot", boot)
    holder = {}
    out = []
    lines = [b'{"button": "deal"}', b'{"wait_ms": 3000}', b'{"button": "confirm"}']

    def started(table):
        holder["table"] = table

    real_poll = firmware_main.poll_inputs

    def poll_inputs(ctx, elapsed_ms):
        table = holder["table"]
        if len(boots) == 1 and table.now_ms() > 1500:
            raise hardware.SimReset(hardware.WDT_RESET, "watchdog")     # as hw.check_watchdog() raises it
        real_poll(ctx, elapsed_ms)

    monkeypatch.setattr(firmware_main, "poll_inputs", poll_inputs)
    replay_tool.replay(lines, _table(), BOARD, str(tmp_path), out.append, started=started)
    reports = [json.loads(line) for line in out]
    assert boots == [1, 2]
    starts = [i for i, r in enumerate(reports) if r["event"] == "boot"]
    assert len(starts) == 2 and reports[starts[1]]["reset_cause"] == "WDT_RESET"
    for first, end in ((starts[0], starts[1]), (starts[1], len(reports))):
        seqs = [r["seq"] for r in reports[first:end]]
        assert seqs == list(range(1, len(seqs) + 1))            # once each, in order, within each boot
    assert holder["table"].client.duplicates >= 0 and holder["table"].caught_up()


def test_a_recall_line_is_the_hosts_recall_and_the_table_judges_the_count(tmp_path):
    # The host's RECALL had no input line: a script had to carry the frame as raw hex. Craps keeps each throw
    # (docs/journal.md, "Recall"): the answer is the last N, oldest first; the count is the table's to judge.
    table = os.path.join(REPO, "boards", "tables", "sim-craps.json")
    status, reports, err = _main(tmp_path, {"dice": [3, 4]}, {"dice": [2, 2]}, {"dice": [6, 6]}, {"recall": 2},
                                 {"recall": 0}, {"recall": 99999}, {"recall": 5}, {"dice": [1, 1]}, table=table)
    assert status == 0, err
    answers = [r for r in reports if r["event"] in ("recall", "host_error")]
    assert [(r["event"], r.get("asked"), r.get("index"), r.get("of")) for r in answers] == [
        ("recall", 2, 1, 2), ("recall", 2, 2, 2), ("host_error", None, None, None), ("host_error", None, None, None),
        ("recall", 5, 1, 3), ("recall", 5, 2, 3), ("recall", 5, 3, 3)]
    assert [r["round"]["dice"] for r in answers if r["event"] == "recall"] == [[2, 2], [6, 6], [3, 4], [2, 2], [6, 6]]
    assert [r["round"]["result"] for r in answers[4:]] == ["natural", "point_set", "roll"]
    assert answers[2]["error"] == "recall 0: ask for 1..100 rounds" and answers[2]["request"] == "recall"
    assert answers[3]["error"] == "host frame refused: bad argument"     # past the frame's 4 digits: the link's
    assert reports[-1]["event"] == "throw" and reports[-1]["dice"] == [1, 1]     # the answer out before the throw


def test_a_roads_line_is_the_hosts_request_and_the_table_answers_with_its_roads(tmp_path):
    # The host's roads request had no input line: a script had to carry the REQUEST frame as raw hex.
    burn = [{"card": c} for c in ("4h", "5h", "6h", "7h", "8h", "9h", "4s", "5s")]
    tie = [{"card": c} for c in ("2c", "3c", "3d", "2d", "Tc", "Td")]          # 5 v 5, both draw a ten: tie
    player = [{"card": c} for c in ("9c", "Kc", "Kd", "Kh")]                    # a natural 9 v 0, banker pair
    status, reports, err = _main(tmp_path, {"roads": True}, {"shoe": "new"}, *burn, {"bets": {}}, *tie,
                                 {"roads": True}, {"bets": {}}, *player, {"roads": True})
    assert status == 0, err
    roads = [r for r in reports if r["event"] == "roads"]
    assert [r["bead_plate"] for r in roads] == [[], ["T"], ["T", "Pb"]]
    assert [r["big_road"] for r in roads] == [[], [], [["P1"]]]
    assert reports[-1]["event"] == "roads"                 # answered before the replay ended


@pytest.mark.parametrize("game", ["baccarat", "craps"])
def test_keys_at_a_table_whose_game_reads_no_keypad_are_refused(tmp_path, game):
    # The pico board has a keypad, but only an Omaha table brings it up (firmware.table_config.KEYPAD_GAMES):
    # keys pressed at a Baccarat or Craps table would do nothing, so the line is refused, not silently played.
    status, reports, err = _main(tmp_path, {"keys": "1 fold enter"}, table=_table(game), board="pico")
    assert status == 2
    assert err == "replay: line 1: a %s table does not read the keypad (only omaha)\n" % game


def test_a_display_unplugged_twice_or_put_back_twice_is_named(tmp_path):
    status, _, err = _main(tmp_path, {"unplug": "result"}, {"unplug": "result"})
    assert status == 2 and err == "replay: line 2: unplug: the result display is unplugged already\n", err
    status, _, err = _main(tmp_path, {"unplug": "result"}, {"plug": "result"}, {"plug": "result"})
    assert status == 2 and err == "replay: line 3: plug: the result display is not unplugged\n", err


def test_an_unplugged_display_is_named_and_back_within_the_retry_time_once_plugged(tmp_path):
    # The firmware's next write to it raises display_missing naming it (once: it is left out); plugged
    # back in, it is set up again at the next try (every firmware.display_loss.RETRY_MS) and reported back.
    from firmware.display_loss import RETRY_MS
    status, reports, _ = _main(tmp_path, {"unplug": "dealer"}, {"shoe": "new"}, {"wait_ms": 2 * RETRY_MS},
                               {"plug": "dealer"}, {"wait_ms": RETRY_MS})
    assert status == 0
    said = [r for r in reports if r["event"] == "fault"]
    assert [r.get("text", "").split(" stopped")[0] for r in said] == ["dealer display at I2C address 39", ""], said
    assert [r for r in reports if r["event"] == "display_back"] == [
        {"seq": reports[-1]["seq"], "table": "SIM-B1", "event": "display_back", "display": "dealer"}], reports
    # Plugged back before the firmware noticed (no time between): it powered up blank and not set up, which
    # the firmware's probe tells within a second: set up again and drawn whole, the host told, no alarm.
    status, reports, _ = _main(tmp_path, {"unplug": "result"}, {"plug": "result"}, {"shoe": "new"},
                               {"wait_ms": 2 * RETRY_MS})
    assert status == 0 and not [r for r in reports if r["event"] in ("fault", "display_back")], reports
    assert [r for r in reports if r["event"] == "display_restarted"] == [
        {"seq": 7, "table": "SIM-B1", "event": "display_restarted", "display": "result"}], reports


def test_a_display_reseated_unnoticed_shows_the_table_s_screen_again_not_a_blank_or_garbled_glass(tmp_path):
    # The glass itself (hostsim.headless): the result LCD and the scoreboard OLED pulled and put back between
    # two writes come back showing what they showed, within the probe's second and a display pass.
    from firmware.main import DISPLAY_MS, PROBE_MS
    with _booted(tmp_path) as table:
        table.run_for(1500)
        glass = {role: table.hw.i2c_device(0, table.board.displays[role]["addr"]) for role in ("result", "scoreboard")}
        shown = (glass["result"].lines(), glass["scoreboard"].pixels())
        assert any(line.strip() for line in shown[0]) and any(any(row) for row in shown[1])
        for role in glass:
            table.io.unplug(role)
            table.io.plug(role)
        assert not any(line.strip() for line in glass["result"].lines()) and not glass["scoreboard"].lit
        table.run_for(PROBE_MS + 2 * DISPLAY_MS)
        assert (glass["result"].lines(), glass["scoreboard"].pixels()) == shown


def test_a_dealer_lcd_reseated_unnoticed_is_found_though_its_screen_changes_every_second(tmp_path):
    # A Craps dealer LCD shows its uptime: the firmware writes it before the probe's second is up, and a write
    # leaves the expander as a set-up LCD's, hiding the power-up. The driver asks before each write instead.
    status, reports, _ = _main(tmp_path, {"wait_ms": 1000}, {"unplug": "dealer"}, {"plug": "dealer"},
                               {"wait_ms": 1500}, table=_table("craps"))
    assert status == 0
    assert [(r["event"], r.get("display")) for r in reports if "display" in r["event"] or r["event"] == "fault"] \
        == [("display_restarted", "dealer")], reports
