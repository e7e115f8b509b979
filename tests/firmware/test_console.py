# Technician console: commands answer; garbage gets a clear error and is reported.
from firmware import table_codes as t
from firmware.compat import native_arch
from firmware.drivers.pixels import GOLD, OFF, RED, WHITE
from tests.firmware.console_rig import boot_with_pin, login, reports as _reports, typed as _type
from tests.firmware.device_helpers import Sender
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _host, _press_confirm, _run


def _say(ctx, machine, text):
    machine.uarts[1].tx = bytearray()
    return ctx.console.handle(text)


def test_help_status_board_zones_version():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        assert _say(ctx, machine, b"help")[0] == "commands (* needs a technician login):"
        status = _say(ctx, machine, b"status")
        assert status[0].startswith("table B01  game baccarat  state ready")
        assert "console errors 0" in status
        board = "\n".join(_say(ctx, machine, b"board"))
        assert "UART0 tx=0 rx=1" in board
        assert "bets    PIO0 SM0-1 tx=2 rx=3 9600 baud" in board       # a PIO UART port (pico)
        # Which viper modules run: none where the runtime has no native emitter (CPython, the VM); on the Unix
        # port (x64) the link's CRC, and the Omaha showdown only once imported (here by other tests' imports).
        if native_arch():
            assert board.splitlines()[-1].startswith("native code (x64): link CRC")
        else:
            assert board.splitlines()[-1] == "native code: none (this runtime runs bytecode only: the plain CRC and showdown)"
        assert "banker" in _say(ctx, machine, b"zones")[0].split()
        # The board's zone map, parsed from its file, is not kept once the table is built (2.3 KB of heap
        # at a Craps table): the lights have the zones, which `zones` and `board` read.
        assert ctx.board.zones is None
        assert _say(ctx, machine, b"VERSION")[0].startswith("table firmware")


def test_lamp_command():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        assert _type(ctx, machine, b"lamp tie") == ["ok"]
        i = ctx.table.lights.index("tie")
        assert ctx.table.lights.colours[i] is GOLD and ctx.table.lights.colours[i - 1] is OFF
        assert ctx.table.state == t.LAMP_CHECK
        assert ctx.hw.displays["dealer"].lines[1] == "LAMP CHECK"
        assert _type(ctx, machine, b"lamp all") == ["ok"]
        assert ctx.table.lights.colours == [WHITE] * len(ctx.table.lights.names)
        assert _type(ctx, machine, b"lamp off") == ["ok"]
        assert ctx.table.state == t.READY
        assert _type(ctx, machine, b"lamp nowhere")[0].startswith("error: no zone")


def test_lamp_commands_are_reported_and_end_without_rerunning_entry():
    """issue 8 #13: `lamp off` used to re-run the state's entry (a second `state` report)."""
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        before = len(_host(machine))
        _type(ctx, machine, b"lamp tie")
        _type(ctx, machine, b"lamp all")
        _type(ctx, machine, b"lamp off")
        _type(ctx, machine, b"lamp off")                 # no check running: nothing to end, nothing reported
        _run(ctx, 1)
        assert [r for r in _reports(machine, before) if r["event"] != "console"] == [
            {"event": "state", "state": "lamp_check"},
            {"event": "lamp", "lamp": "tie"},
            {"event": "lamp", "lamp": "all"},
            {"event": "lamp", "lamp": "off"},
            {"event": "state", "state": "ready"},
        ]


def test_lamp_check_never_hides_the_alarm():
    """issue 8 #13: `lamp all` during a fault turned the red alarm white; `lamp off` re-reported the fault."""
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 2)
        before = len(_host(machine))
        zones = len(ctx.table.lights.names)
        for line in (b"lamp all", b"lamp tie"):
            reply = _type(ctx, machine, line)
            # what closes the alarm, as `status` says it (until stop 72: "until CONFIRM acknowledges it")
            assert reply[0] == ("error: lamp check refused: the table is in FAULT until the alarm is closed: the "
                                "dealer display says CONFIRM TO ACK"), reply
            assert ctx.table.lights.colours == [RED] * zones
        assert _type(ctx, machine, b"lamp off") == ["ok"]
        _run(ctx, 1)
        assert ctx.table.lights.colours == [RED] * zones and ctx.table.state == t.FAULTED
        assert _reports(machine, before) == [{"event": "console_error", "error": "refused", "line": "lamp all"},
                                             {"event": "console_error", "error": "refused", "line": "lamp tie"},
                                             {"event": "console", "action": "command", "line": "lamp off"}]
        _press_confirm(ctx, machine)
        assert _type(ctx, machine, b"lamp tie") == ["ok"]    # acknowledged: the check may run


def test_fault_during_lamp_check_shows_the_alarm():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        _type(ctx, machine, b"lamp all")
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 2)
        assert ctx.table.state == t.FAULTED
        assert ctx.table.lights.colours == [RED] * len(ctx.table.lights.names)


def test_garbage_answered_and_reported():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        cases = ((b"\xff\xfe\x00", "unreadable", "\\xff\\xfe\\x00"), (b"fly me", "unknown_command", "fly me"),
                 (b"a b c d e f", "too_many_words", "a b c d e f"), (b"\x1b[A", "unreadable", "\\x1b[A"),
                 (b"version x", "usage", "version x"), (b"lamp all", "login_required", "lamp all"))
        for raw, name, line in cases:
            machine.usb.tx = bytearray()
            reply = ctx.console.handle(raw)
            assert reply[0].startswith("error: "), raw
            _run(ctx, 1)
            assert _reports(machine)[-1] == {"event": "console_error", "error": name, "line": line}
        assert _say(ctx, machine, b"   ") == []
        assert ctx.console.errors == 6


def test_overlong_console_line_answered_counted_reported():
    """issue 8 #12: a line over the console buffer got no reply, no count and no report."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        machine.usb.tx = bytearray()
        machine.usb.feed(b"x" * 300 + b"\r\nversion\r\n")
        _run(ctx, 4)
        out = bytes(machine.usb.tx).decode().split("\r\n")
        assert out[1:] == ["error: line too long", "> version", "table firmware 0.1.0", "> "]
        assert ctx.console.errors == 1
        assert _reports(machine)[-1] == {"event": "console_error", "error": "line_too_long", "line": ""}
        assert "console errors 1" in _type(ctx, machine, b"status")
        assert ctx.table.state == t.READY                # a technician's typo is not a table fault


def test_console_errors_reported_in_event_order():
    """issue 8 #14: console errors were sent at once, ahead of reports of earlier events."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        before = len(_host(machine))
        dice = Sender("D")
        machine.uarts[0].feed(dice("THROW", "3", "4") + b"\n")    # the reader's line is read first in the pass
        assert _type(ctx, machine, b"bogus", 1)[0].startswith("error: unknown command")
        machine.uarts[0].feed(dice("THROW", "6", "5") + b"\n")
        _run(ctx, 4)                                # the reports leave within a few output passes
        assert [r.get("dice") or r["event"] for r in _reports(machine, before)
                if r["event"] in ("throw", "console_error")] == [[3, 4], "console_error", [6, 5]]


def test_status_shows_the_bytes_of_a_reader_fault_and_the_unused_port_count():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 2)
        status = _type(ctx, machine, b"status")
        assert "fault frame_syntax (bytes 'K?'): the dealer display says CONFIRM OR HOLD VOID" in status
        assert not [line for line in status if "unused" in line]      # pico: shoe and dice share one UART


def test_a_lamp_check_shows_on_every_games_dealer_display():
    # Before, an Omaha table's dealer display took the lamp check for a hand state: 'NoneType' object has no
    # attribute 'street', a crash and a reset at every `lamp` command.
    for game in ("baccarat", "craps", "omaha"):
        with ScratchDir() as state:
            ctx, machine, _ = boot_with_pin(state, game)
            login(ctx, machine)
            assert _type(ctx, machine, b"lamp all") == ["ok"]
            _run(ctx, 3)
            assert ctx.table.state == t.LAMP_CHECK, game
            assert ctx.hw.displays["dealer"].lines[1] == "LAMP CHECK", (game, ctx.hw.displays["dealer"].lines)
            assert [r["event"] for r in _reports(machine) if r["event"] == "fault"] == [], game


def test_play_during_a_lamp_check_ends_it_and_the_game_takes_it():
    # Before, a throw, a shoe put in or a bet reading during a lamp check was dropped without a report.
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "craps")
        login(ctx, machine)
        _type(ctx, machine, b"lamp all")
        before = len(_host(machine))
        machine.uarts[0].feed(Sender("D")("THROW", "2", "2") + b"\n")       # come-out 4: the point (art. 5(2)(1))
        _run(ctx, 3)
        got = [r for r in _reports(machine, before) if r["event"] in ("lamp", "throw", "state")]
        assert [r["event"] for r in got] == ["lamp", "throw", "state"], got
        assert got[0]["lamp"] == "off" and got[1]["dice"] == [2, 2] and got[1]["point"] == 4
        assert ctx.table.state_name() == "point" and ctx.table.engine.point == 4
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        login(ctx, machine)
        _type(ctx, machine, b"lamp tie")
        machine.uarts[0].feed(Sender("S")("IN") + b"\n")                      # a new shoe (art. 2(1))
        _run(ctx, 3)
        assert ctx.table.state_name() == "burning"
        assert {"event": "shoe", "shoe": "new", "decks": 8} in _reports(machine)
