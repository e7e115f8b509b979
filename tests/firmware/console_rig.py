# The console as a technician types it, on the fake board of tests/firmware/test_main.py.
from firmware.console.pins import provision
from tests.firmware.test_main import _boot, _host, _run

PIN = "246810"          # the test tables' technician PIN (provisioned by boot_with_pin)


def boot_with_pin(state, game="baccarat", pin=PIN):
    provision(state, pin)
    ctx, machine, np = _boot(state, game)
    _run(ctx)
    return ctx, machine, np


def transcript(machine):
    """What the console port wrote, as text."""
    return bytes(machine.usb.tx).decode()


def typed(ctx, machine, text, passes=3):
    """Type one line (bytes or str, CR at the end), run `passes` passes; the reply lines (no echo, no prompt)."""
    if isinstance(text, str):
        text = text.encode()
    machine.usb.tx = bytearray()
    machine.usb.feed(text + b"\r")
    _run(ctx, passes)
    lines = bytes(machine.usb.tx).decode().split("\r\n")
    return lines[1:-1]         # [0]: the echo of the line; [-1]: the next prompt


def login(ctx, machine, pin=PIN):
    assert typed(ctx, machine, "login") == []
    reply = typed(ctx, machine, pin)
    assert reply[0].startswith("logged in"), reply
    return reply


def reports(machine, since=0):
    return [dict((k, v) for k, v in r.items() if k not in ("seq", "table")) for r in _host(machine)[since:]]


def console_reports(machine, since=0):
    return [r for r in reports(machine, since) if r["event"] in ("console", "console_error")]
