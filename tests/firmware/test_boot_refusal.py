# A refused board.json or table.json is printed on the console AND reported to the host
# (issue 8 item 9), whenever the board file says, correctly, where the host is. Fakes only,
# so it runs on MicroPython too.
import json

from firmware import main
from firmware.version import FIRMWARE_VERSION
from tests.firmware.expect import needs_asyncio_run
from tests.firmware.fakes import FakeMachine, FakeNeoPixelModule, FakeUART
from tests.firmware.scratch import ScratchDir

PICO_HOST_UART = 1


def _pico():
    with open("boards/pico.json") as f:
        return json.loads(f.read())


def _table(game="baccarat"):
    with open("boards/tables/sim-%s.json" % game) as f:
        config = json.loads(f.read())
    config["table_id"] = "B07"
    return config


def _write(path, data):
    with open(path, "w") as f:
        f.write(data if isinstance(data, str) else json.dumps(data))


def _run(board, table):
    """The board's run() with these files, in a fresh state dir (its boot counter starts at 1)."""
    with ScratchDir() as state:
        _write(state + "/t_refusal_board.json", board)
        _write(state + "/t_refusal_table.json", table)
        machine = FakeMachine()
        status = main.run(state + "/t_refusal_board.json", state + "/t_refusal_table.json", state, machine,
                          FakeNeoPixelModule())
    return status, machine


def _host_reports(machine):
    return [json.loads(line) for line in machine.uarts[PICO_HOST_UART].reports()]


def test_refused_table_file_reported_to_the_host():
    table = _table()
    table["game"] = "roulette"
    status, machine = _run(_pico(), table)
    assert status == 1
    assert list(machine.uarts) == [PICO_HOST_UART]          # the host port only: nothing else brought up
    (report,) = _host_reports(machine)
    assert report["seq"] == 1 and report["table"] == "B07" and report["event"] == "boot_refused"
    assert report["error"].startswith("table settings: game 'roulette' unknown")


def test_refused_board_file_reported_when_its_host_port_is_valid():
    board = _pico()
    del board["buttons"]["confirm"]
    status, machine = _run(board, _table())
    assert status == 1
    assert _host_reports(machine) == [{"seq": 1, "table": "B07", "event": "boot_refused",
                                       "error": "board t_refusal_board: buttons: missing 'confirm' "
                                                "(needed to acknowledge faults)",
                                       "firmware": FIRMWARE_VERSION, "reset_cause": "PWRON_RESET"}]
    assert machine.uarts[PICO_HOST_UART].tx.startswith(b"#1.1 0 OPEN -*")     # framed: the link's first boot


def test_a_key_twice_refused_and_reported_with_the_table_named():
    # A key twice (the parser would keep the last one) is a refusal; the host still hears it, and which table.
    table = json.dumps(_table()).replace('"method": 1,', '"method": 1, "method": 2,')
    status, machine = _run(_pico(), table)
    assert status == 1
    (report,) = _host_reports(machine)
    assert report["table"] == "B07" and report["error"].endswith(
        "settings.method: key given twice in one object (remove one)")
    board = json.dumps(_pico()).replace('"void": 12,', '"void": 12, "void": 14,')
    status, machine = _run(board, _table())
    assert status == 1
    (report,) = _host_reports(machine)
    assert report["error"] == "board t_refusal_board: buttons.void: key given twice in one object (remove one)"


def test_a_table_id_no_frame_carries_is_refused_and_reported():
    # MicroPython's json.dumps keeps "\u00c2" as UTF-8 bytes, which the host link refuses: the table_id
    # is refused at load, and the refusal goes to the host with table null, not a ValueError at boot.
    table = _table()
    table["table_id"] = "T\u00c2BLE"
    status, machine = _run(_pico(), table)
    assert status == 1
    (report,) = _host_reports(machine)
    assert report["table"] is None and report["event"] == "boot_refused"
    assert report["error"].startswith("table settings: table_id must be 1-12 printable ASCII characters")


def test_a_refusal_echoing_a_huge_value_still_reaches_the_host():
    # The validators echo the refused value: a 2,000-digit deck count or a 3,000-character option made a
    # boot_refused report too long for its frames, and the host got only a report_unsendable fault,
    # without the key. The error is cut to fit; the console has it whole.
    for value, start in ((10 ** 2000, "table settings: setting 'decks' = 1000"),
                         ("x" * 3000, "table settings: setting 'decks' = 'xxx")):
        table = _table()
        table["settings"]["decks"] = value
        status, machine = _run(_pico(), table)
        assert status == 1
        (report,) = _host_reports(machine)
        assert report["event"] == "boot_refused" and report["table"] == "B07"
        assert report["error"].startswith(start) and report["error"].endswith("...")
    board = _pico()
    board["buttons"]["undo"] = 10 ** 2000
    status, machine = _run(board, _table())
    (report,) = _host_reports(machine)
    assert report["error"] == ("board t_refusal_board: buttons.undo: pin 100000000000000000000... "
                               "does not exist on rp2040 (GPIO 0-29)")


def test_a_zone_the_game_never_lights_is_refused_at_boot_and_reported():
    board = _pico()
    board["zones"]["baccarat"]["bankr"] = board["zones"]["baccarat"].pop("banker")
    status, machine = _run(board, _table())
    assert status == 1
    (report,) = _host_reports(machine)
    assert report["event"] == "boot_refused" and report["table"] == _table()["table_id"]
    assert "zones.baccarat.bankr: no light of the baccarat layout has that name" in report["error"], report


def test_board_without_the_games_reader_port_reported():
    board = _pico()
    del board["ports"]["dice"]
    status, machine = _run(board, _table("craps"))
    assert status == 1
    assert _host_reports(machine)[0]["error"] == "board t_refusal_board has no dice port, which craps needs"


def test_table_id_unknown_is_null():
    status, machine = _run(_pico(), "{\"table_id\": ")
    assert status == 1
    (report,) = _host_reports(machine)
    assert report["table"] is None and "not valid JSON" in report["error"]


def test_no_report_when_the_host_port_itself_is_wrong_or_the_file_unreadable():
    for host in ({"uart": 1.0, "tx": 8, "rx": 9, "baudrate": 115200},
                 {"uart": 1, "tx": 9, "rx": 8, "baudrate": 115200},     # swapped: RP2040 would refuse the pins
                 {"usb": True}):
        board = _pico()
        board["ports"]["host"] = host
        status, machine = _run(board, _table())
        assert status == 1
        assert machine.uarts == {}                          # no UART on pins the board file got wrong
    status, machine = _run("\xff not json", _table())
    assert status == 1 and machine.uarts == {}


def _run_closed(board, table, grounded=()):
    """run() as the board's boot stub calls it (closed=True), the endless idle replaced by a recorder."""
    with ScratchDir() as state:
        _write(state + "/t_refusal_board.json", board)
        _write(state + "/t_refusal_table.json", table)
        machine = FakeMachine()
        machine.grounded = grounded
        idled = []
        status = main.run(state + "/t_refusal_board.json", state + "/t_refusal_table.json", state, machine,
                          FakeNeoPixelModule(), closed=lambda: idled.append(1))
    return status, machine, idled


def test_a_refusal_keeps_the_repl_closed_without_the_service_jumper():
    # Issue 13: main.py ending drops the board into the REPL; only the service jumper allows it.
    board = _pico()
    table = _table()
    table["game"] = "roulette"
    status, machine, idled = _run_closed(board, table)
    assert status == 1 and idled == [1]                       # idles, Ctrl-C off: no REPL
    assert _host_reports(machine)[0]["event"] == "boot_refused"
    status, machine, idled = _run_closed(board, table, grounded=(board["service_pin"],))
    assert status == 1 and idled == []                        # service mode: to the REPL, to fix the file
    assert machine.pins[board["service_pin"]].pull == machine.Pin.PULL_UP
    for broken in ("{", {"mcu": "rp2040", "service_pin": 99}, {"service_pin": True}):
        status, machine, idled = _run_closed(broken, table, grounded=(7, 99))   # no readable service pin: closed
        assert status == 1 and idled == [1], broken


def test_a_refused_boards_service_pin_on_the_modules_flash_or_psram_is_never_read():
    # The service jumper of a refused board file is read with machine.Pin(pin, IN, PULL_UP): on a pin of the
    # ESP32-S3 module's SPI flash (26-32), or of its octal PSRAM (33-37, "psram": "octal"), MicroPython has no
    # such Pin ("invalid pin": run() raised and main.py ended in the REPL) or it fights the memory. Never read
    # there; the table stays closed, as with no readable service pin.
    with open("boards/esp32s3.json") as f:
        shipped = json.loads(f.read())
    table = _table()
    for pin in (27, 32, 33, 35, 37):
        board = json.loads(json.dumps(shipped))
        board["service_pin"] = pin                        # refused by the board check: it names the pin
        status, machine, idled = _run_closed(board, table, grounded=(pin,))
        assert status == 1 and idled == [1] and pin not in machine.pins, pin
    for psram in ("Octal", ["octal"]):                    # a psram the check refuses: 33-37 not read either
        board = json.loads(json.dumps(shipped))
        board["psram"], board["service_pin"] = psram, 35
        status, machine, idled = _run_closed(board, table, grounded=(35,))
        assert status == 1 and idled == [1] and 35 not in machine.pins, psram
    board = json.loads(json.dumps(shipped))
    board["psram"], board["service_pin"] = "quad", 35     # quad PSRAM: GPIO 35 is the table's, the jumper read
    table["game"] = "roulette"
    status, machine, idled = _run_closed(board, table, grounded=(35,))
    assert status == 1 and idled == [] and machine.pins[35].pull == machine.Pin.PULL_UP


def test_a_boot_that_raises_is_recorded_reported_and_keeps_the_repl_closed():
    # A boot that failed for anything but a refused file (here the flash refusing writes: OSError 28,
    # ENOSPC) raised out of run(): main.py ended and MicroPython's REPL opened on the USB console, no
    # jumper needed, and the host heard nothing. Now: the traceback in crash.log (the next boot that
    # opens reports it), boot_refused to the host, the REPL closed as after a refused file.
    real_boot = main.boot

    def failing_boot(*args, **kwargs):
        raise OSError(28)
    main.boot = failing_boot
    try:
        with ScratchDir() as state:
            _write(state + "/t_refusal_board.json", _pico())
            _write(state + "/t_refusal_table.json", _table())
            machine = FakeMachine()
            idled = []
            status = main.run(state + "/t_refusal_board.json", state + "/t_refusal_table.json", state, machine,
                              FakeNeoPixelModule(), closed=lambda: idled.append(1))
            with open(state + "/crash.log") as f:
                crash = f.read()
    finally:
        main.boot = real_boot
    assert status == 1 and idled == [1]                   # idles, Ctrl-C off: no REPL
    report = _host_reports(machine)[0]
    assert report["event"] == "boot_refused" and report["error"] == "boot failed: OSError: %s" % OSError(28), report
    assert "OSError" in crash


@needs_asyncio_run
def test_a_crash_in_the_loop_is_recorded_and_resets_even_when_its_record_fails():
    # The loop's crash: its traceback to crash.log, then the reset. The record failing in turn (a
    # MemoryError, the heap that raised the first one still full) raised out of run() before the reset:
    # main.py's end, the REPL open until the watchdog fired.
    import asyncio

    async def breaks(ctx):
        await asyncio.sleep(0.03)
        raise ValueError("a fault in the loop")

    real_record = main.record_crash

    def record_fails(*args):
        raise MemoryError()
    for record in (real_record, record_fails):
        main.record_crash = record
        try:
            with ScratchDir() as state:
                _write(state + "/t_refusal_table.json", _table())
                machine = FakeMachine()
                status = main.run("boards/pico.json", state + "/t_refusal_table.json", state, machine,
                                  FakeNeoPixelModule(), extra_tasks=(breaks,), usb_console=FakeUART())
                try:
                    with open(state + "/crash.log") as f:
                        crash = f.read()
                except OSError:
                    crash = ""
        finally:
            main.record_crash = real_record
        assert status == 0 and machine.resets == 1, record
        assert ("a fault in the loop" in crash) == (record is real_record), crash
