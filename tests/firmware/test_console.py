# Technician console: commands answer; garbage gets a clear error and is reported.
import json

from tests.firmware.test_main import _boot, _host, _run


def _say(ctx, machine, text):
    machine.uarts[1].tx = bytearray()
    return ctx.console.handle(text)


def test_help_status_board_zones_version():
    ctx, machine, _ = _boot()
    _run(ctx)
    assert _say(ctx, machine, b"help")[0] == "commands:"
    status = _say(ctx, machine, b"status")
    assert status[0].startswith("table B01  game baccarat  state ready")
    assert "UART0 tx=0 rx=1" in "\n".join(_say(ctx, machine, b"board"))
    assert "banker" in _say(ctx, machine, b"zones")[0].split()
    assert _say(ctx, machine, b"VERSION")[0].startswith("table firmware")


def test_lamp_command():
    ctx, machine, _ = _boot()
    _run(ctx)
    assert _say(ctx, machine, b"lamp tie") == ["ok"]
    i = ctx.table.lights.index("tie")
    assert ctx.table.lights.colours[i] != ctx.table.lights.colours[i - 1]
    assert _say(ctx, machine, b"lamp off") == ["ok"]
    assert _say(ctx, machine, b"lamp nowhere")[0].startswith("error: no zone")


def test_garbage_answered_and_reported():
    ctx, machine, _ = _boot()
    _run(ctx)
    for raw in (b"\xff\xfe\x00", b"fly me", b"a b c d e f", b"\x1b[A"):
        reply = _say(ctx, machine, raw)
        assert reply[0].startswith("error: "), raw
        reports = _host(machine)
        assert reports[-1]["event"] == "console_error"
    assert _say(ctx, machine, b"   ") == []
    assert ctx.console.errors == 4
