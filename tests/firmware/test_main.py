# Boot and the main loop's passes, on fake hardware (runs on MicroPython too).
import json

from firmware import main, table as t
from firmware.errors import SettingsError
from tests.firmware.expect import raises_match
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule, FakeUART

STATE = "/tmp"     # exists on CPython hosts and in the VM


def _table_file(game):
    with open("boards/tables/sim-%s.json" % game) as f:
        config = json.loads(f.read())
    config["table_id"] = "B01"
    return config


def _write(path, data):
    with open(path, "w") as f:
        f.write(json.dumps(data))


def _boot(game="baccarat", missing=()):
    config = _table_file(game)
    _write(STATE + "/t_table.json", config)
    FakeLCD.missing = missing
    machine = FakeMachine()
    np = FakeNeoPixelModule()
    machine.usb = FakeUART()                     # the pico's console is the USB REPL port
    ctx = main.boot(machine, np, "boards/pico.json", STATE + "/t_table.json", STATE, FakeLCD, machine.usb)
    return ctx, machine, np


def _run(ctx, passes=60):
    for _ in range(passes):
        main.poll_inputs(ctx, 100)
        main.refresh_outputs(ctx, True)


def _host(machine):
    return [json.loads(line) for line in machine.uarts[1].lines()]


def test_boot_reports_and_reaches_ready():
    ctx, machine, np = _boot()
    _run(ctx)
    assert ctx.table.state == t.READY
    reports = _host(machine)
    assert reports[0]["event"] == "boot" and reports[0]["board"] == "pico"
    assert [r["seq"] for r in reports] == list(range(1, len(reports) + 1))
    assert {"seq": reports[-1]["seq"], "table": "B01", "event": "state", "state": "ready"} == reports[-1]
    assert machine.fed >= 60                      # watchdog fed every pass
    assert ctx.hw.displays["dealer"].lines[1] == "READY"
    assert np.strips[0].writes > 0


def test_card_from_shoe_reported_and_shown():
    ctx, machine, _ = _boot()
    _run(ctx)
    machine.uarts[0].feed(b"Kh\r\n")
    _run(ctx, 2)
    assert _host(machine)[-1]["card"] == "Kh"
    assert ctx.hw.displays["dealer"].lines[2] == "CARD Kh"


def test_garbage_from_shoe_faults_the_table():
    ctx, machine, _ = _boot()
    _run(ctx)
    machine.uarts[0].feed(b"K?\n")
    _run(ctx, 2)
    assert ctx.table.state == t.FAULTED
    assert _host(machine)[-1]["fault"] == "bad_card"
    assert ctx.hw.displays["dealer"].lines[1] == "FAULT BAD_CARD"


def test_overlong_line_dropped_and_faulted():
    ctx, machine, _ = _boot()
    _run(ctx)
    machine.uarts[0].feed(b"K" * 500 + b"\nAh\n")
    _run(ctx, 6)                                   # a bounded number of bytes per pass
    events = [r.get("fault") or r.get("card") for r in _host(machine) if r["event"] in ("fault", "card")]
    assert events == ["line_too_long", "Ah"]       # the next good line still arrives


def test_confirm_button_acknowledges():
    ctx, machine, _ = _boot()
    _run(ctx)
    machine.uarts[0].feed(b"zz\n")
    _run(ctx, 2)
    pin = machine.pins[ctx.board.buttons[ctx.board.button_index("confirm")][1]]
    pin.level = 0                                  # active low: pressed
    _run(ctx, 5)
    assert ctx.table.state == t.READY
    assert any(r["event"] == "fault_ack" for r in _host(machine))


def test_missing_display_is_a_fault_not_a_crash():
    ctx, machine, _ = _boot(missing=(38,))
    _run(ctx)
    assert "result" not in ctx.hw.displays
    assert ctx.table.state == t.FAULTED
    assert any(r.get("fault") == "display_missing" for r in _host(machine))


def test_craps_table_reads_dice():
    ctx, machine, _ = _boot("craps")
    _run(ctx)
    machine.uarts[0].feed(b"3 4\n6 7\n")
    _run(ctx, 3)
    reports = _host(machine)
    assert [r["dice"] for r in reports if r["event"] == "dice"] == [[3, 4]]
    assert any(r.get("fault") == "bad_dice" for r in reports)


def test_bad_table_file_refused():
    _write(STATE + "/t_bad.json", {"table_id": "B01", "game": "roulette", "settings": {}})
    raises_match(SettingsError, "roulette", main.boot, FakeMachine(), FakeNeoPixelModule(),
                 "boards/pico.json", STATE + "/t_bad.json", STATE, FakeLCD)
    raises_match(SettingsError, "not found", main.boot, FakeMachine(), FakeNeoPixelModule(),
                 "boards/nope.json", STATE + "/t_bad.json", STATE, FakeLCD)


def test_crash_recorded_then_reported_at_next_boot():
    try:
        raise RuntimeError("display task blew up")
    except RuntimeError as exc:
        main.record_crash(exc, STATE)
    ctx, machine, _ = _boot()
    _run(ctx)
    reports = _host(machine)
    assert any(r["event"] == "crash_recorded" and "blew up" in r["error"] for r in reports)
    assert ctx.table.state == t.FAULTED
    assert "blew up" in ctx.crash_record
    ctx2, _, _ = _boot()
    assert ctx2.crash_record == ""                 # reported once, kept as crash.prev


def test_usb_console_answers_commands():
    ctx, machine, _ = _boot()
    _run(ctx)
    machine.usb.feed(b"version\r\nbogus\r\n")
    _run(ctx, 2)
    assert machine.usb.lines() == ["table firmware 0.1.0", "error: unknown command 'bogus' (type help)"]
